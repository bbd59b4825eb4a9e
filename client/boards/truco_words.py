"""Both trucos in words: the calls as their players say them (Portuguese at a paulista table,
Spanish at an argentino one), every truco event as a log line, the action labels and keys.

Names for the teams follow the reader: a seated player reads "us" and "them", a spectator
"Team 1" and "Team 2". Signals are shown only to those the server told (partners and those
who caught them), with what each gesture usually promises (seed 003's table, read for each
deck). Nothing here knows a rule: every number comes from the event or the view.
"""

from __future__ import annotations

from google.protobuf.message import Message
from rich.text import Text

from cardtui.client.cards import card_text, cards_text
from cardtui.client.models import TableModel
from cardtui.client.words import Said, family_words, game_keys, game_labels, game_words, line, who
from cardtui.v1 import common_pb2, truco_pb2

PAULISTA = "truco_paulista"
ARGENTINO = "truco_argentino"
TEAM_STYLE = ("bold dodger_blue1", "bold dark_orange")

T = truco_pb2
CALLS: dict[str, dict[int, str]] = {
    PAULISTA: {T.TRUCO_WORD_TRUCO: "Truco!", T.TRUCO_WORD_SEIS: "Seis!", T.TRUCO_WORD_NOVE: "Nove!",
               T.TRUCO_WORD_DOZE: "Doze!"},
    ARGENTINO: {
        T.TRUCO_WORD_TRUCO: "¡Truco!", T.TRUCO_WORD_RETRUCO: "¡Retruco!", T.TRUCO_WORD_VALE_CUATRO: "¡Vale cuatro!",
        T.TRUCO_WORD_ENVIDO: "¡Envido!", T.TRUCO_WORD_REAL_ENVIDO: "¡Real envido!",
        T.TRUCO_WORD_FALTA_ENVIDO: "¡Falta envido!", T.TRUCO_WORD_FLOR: "¡Flor!",
        T.TRUCO_WORD_CONTRA_FLOR: "¡Contra flor!", T.TRUCO_WORD_CONTRA_FLOR_AL_RESTO: "¡Contra flor al resto!",
        T.TRUCO_WORD_CON_FLOR_ME_ACHICO: "Con flor me achico",
    },
}
"""Each call as it is shouted at the table."""
YES = {PAULISTA: "Aceito", ARGENTINO: "Quiero"}
NO = {PAULISTA: "Corro", ARGENTINO: "No quiero"}
UNIT = {PAULISTA: ("tento", "tentos"), ARGENTINO: ("point", "points")}
BETS: dict[int, str] = {T.TRUCO_BET_TRUCO: "truco", T.TRUCO_BET_ENVIDO: "envido", T.TRUCO_BET_FLOR: "flor"}

S = common_pb2
GESTURES: dict[int, tuple[str, str]] = {
    S.SIGNAL_EYEBROW: ("raise an eyebrow", "raises an eyebrow"),
    S.SIGNAL_WINK: ("wink", "winks"),
    S.SIGNAL_LIPS_ASIDE: ("lips to one side", "moves the lips to one side"),
    S.SIGNAL_BITE_LIP: ("bite the lip", "bites the lip"),
    S.SIGNAL_KISS: ("blow a kiss", "blows a kiss"),
    S.SIGNAL_OPEN_MOUTH: ("open the mouth", "opens the mouth"),
    S.SIGNAL_CLOSE_EYES: ("close both eyes", "closes both eyes"),
    S.SIGNAL_TILT_HEAD: ("tilt the head", "tilts the head"),
}
"""Each gesture as one makes it, and as it is seen."""
MEANINGS: dict[str, dict[int, tuple[str, ...]]] = {
    ARGENTINO: {
        S.SIGNAL_EYEBROW: ("1e",), S.SIGNAL_WINK: ("1b",), S.SIGNAL_LIPS_ASIDE: ("7e", "7o"),
        S.SIGNAL_BITE_LIP: ("a 3",), S.SIGNAL_KISS: ("a 2",), S.SIGNAL_OPEN_MOUTH: ("a 1",),
        S.SIGNAL_CLOSE_EYES: ("bad cards",), S.SIGNAL_TILT_HEAD: ("good envido",),
    },
    PAULISTA: {
        S.SIGNAL_EYEBROW: ("4C",), S.SIGNAL_WINK: ("7H",), S.SIGNAL_LIPS_ASIDE: ("AS", "7D"),
        S.SIGNAL_BITE_LIP: ("a 3",), S.SIGNAL_KISS: ("a 2",), S.SIGNAL_OPEN_MOUTH: ("an ace",),
        S.SIGNAL_CLOSE_EYES: ("bad cards",), S.SIGNAL_TILT_HEAD: ("a good hand",),
    },
}
"""What each gesture usually promises (seed 003's table, read for each deck): cards or words."""
SIGN = {PAULISTA: "Sinal", ARGENTINO: "Seña"}
SHORT = {"bad cards": "bad", "a good hand": "good", "good envido": "tanto", "an ace": "an A"}
"""Meanings cut short for a key's label, which has 14 characters at 80 columns ("s Seña 7⚔/7● ±")."""


# -- who is who ------------------------------------------------------------------------------
def seat_team(model: TableModel, seat: int) -> int:
    """A seat's team, as the view says it."""
    view = model.view
    if view is not None and view.HasField("truco"):
        for s in view.truco.seats:
            if s.seat == seat:
                return s.team
    return seat % 2


def my_team(model: TableModel) -> int | None:
    return None if model.seat is None else seat_team(model, model.seat)


def team_label(model: TableModel, team: int) -> Text:
    """"Us" / "Them" to a seated player, "Team 1" / "Team 2" to a spectator, in the team's colour."""
    mine = my_team(model)
    word = f"Team {team + 1}" if mine is None else "Us" if team == mine else "Them"
    return Text(word, style=TEAM_STYLE[team % 2])


def team_object(model: TableModel, team: int) -> Text:
    """The team as the object of a sentence: "us", "them", "Team 1"."""
    mine = my_team(model)
    word = f"Team {team + 1}" if mine is None else "us" if team == mine else "them"
    return Text(word, style=TEAM_STYLE[team % 2])


def team_does(model: TableModel, team: int, plural: str, singular: str, start: bool = True) -> Text:
    """The team as a subject with its verb: "We win", "They take", "Team 1 wins" ("we", "they"
    within a sentence)."""
    mine = my_team(model)
    if mine is None:
        return line(Text(f"Team {team + 1}", style=TEAM_STYLE[team % 2]), f" {singular}")
    word = "We" if team == mine else "They"
    return line(Text(word if start else word.lower(), style=TEAM_STYLE[team % 2]), f" {plural}")


def amount(model: TableModel, n: int) -> str:
    one, many = UNIT.get(model.game, ("point", "points"))
    return f"{n} {one if n == 1 else many}"


# -- the words of the table --------------------------------------------------------------------
def call_word(model: TableModel, word: int) -> str:
    """A call as shouted: "Truco!", "¡Real envido!"."""
    said = CALLS.get(model.game, {}).get(word)
    return said or T.TrucoWord.Name(T.TrucoWord.ValueType(word)).removeprefix("TRUCO_WORD_").capitalize()


def plain_word(model: TableModel, word: int) -> str:
    """A call as named in a list of choices: "Seis", "Real envido"."""
    return call_word(model, word).strip("¡!")


def meaning(game: str, signal: int, short: bool = False) -> Text:
    """What a gesture usually promises at this game: its cards in colour, or words; ``short``
    for a key's label ("A♠7♦", "bad")."""
    out = Text()
    for i, part in enumerate(MEANINGS.get(game, {}).get(signal, ())):
        if i:
            out.append("" if short and game == PAULISTA else "/")
        if " " in part:
            out.append(SHORT.get(part, part) if short else part)
        else:
            out.append_text(card_text(part))
    return out


def gesture(signal: int, seen: bool = False) -> str:
    made, saw = GESTURES.get(signal, ("signal", "signals"))
    return saw if seen else made


def truco_label(model: TableModel, action: common_pb2.Action) -> Text | None:
    """Labels the usual words would get wrong: a signal names what it promises ("Seña 1⚔"; the
    board names the gesture), and the mão's pass and reject leave out the cards they move."""
    if action.type == common_pb2.ACTION_TYPE_SIGNAL and action.signal:
        return line(f"{SIGN.get(model.game, 'Signal')} ", meaning(model.game, action.signal, short=True))
    if action.type == common_pb2.ACTION_TYPE_PASS_CARDS:
        return Text("Pass on")
    if action.type == common_pb2.ACTION_TYPE_REJECT:
        return Text("Reject")
    return None


# -- events ------------------------------------------------------------------------------------
def truco_words(name: str, body: Message, model: TableModel) -> Said | None:
    game = model.game
    if isinstance(body, T.TrucoPlayed):
        if body.blind:
            return Said(line(who(model, body.seat), " turns up ", card_text(body.card), " blind."))
        if body.face_down or not body.HasField("card"):
            return Said(line(who(model, body.seat), " plays a card face down."))
        return Said(line(who(model, body.seat), " plays ", card_text(body.card), "."))
    if isinstance(body, T.TrucoCalled):
        said = line(who(model, body.seat), ": ", Text(call_word(model, body.call), style="bold"))
        if body.bet != T.TRUCO_BET_FLOR:
            said.append(f" — for {body.value}", style="dim")
        return Said(said, "yellow")
    if isinstance(body, T.TrucoAnswered):
        word = call_word(model, body.call) if body.HasField("call") else YES[game] if body.accepted else NO[game]
        said = line(who(model, body.seat), ": ", Text(word, style="bold"))
        callers = 1 - body.team
        if body.accepted:
            said.append(f" — the {BETS.get(body.bet, 'bet')} stands at {body.points}.", style="dim")
        elif body.bet != T.TRUCO_BET_TRUCO:
            said.append_text(line(" — ", team_object(model, callers), f" +{body.points} for the {BETS[body.bet]}."))
        else:
            said.append(".")
        return Said(said, "yellow")
    if isinstance(body, T.TrucoTrickEnded):
        if not body.HasField("winner"):
            return Said(Text(f"Trick {body.trick} is tied."), "italic")
        return Said(line(f"Trick {body.trick} to ", who(model, body.winner), " (", team_object(model, body.team),
                         ")."), "italic")
    if isinstance(body, T.TrucoSignalled):
        return _signal(model, body)
    if isinstance(body, T.TrucoRoundEnded):
        return _round_ended(model, body)
    if isinstance(body, T.PaulistaHandDealt):
        if body.ferro:
            return Said(Text("Mão de ferro: both teams on 11 — every card face down, turned up blind."), "bold red")
        if body.HasField("onze_team"):
            return Said(line("Mão de onze: ", team_does(model, body.onze_team, "are", "is", start=False), " on 11."),
                        "bold red")
        return Said(line(who(model, body.mao), " is the mão."), "dim")
    if isinstance(body, T.PaulistaDealChoice):
        if body.choice == T.PAULISTA_CHOICE_KEEP:
            return Said(line(who(model, body.seat), ": Fico — keeps the cards."))
        if body.choice == T.PAULISTA_CHOICE_PASS_CARDS:
            return Said(line(who(model, body.seat), " passes the cards to the partner."))
        return Said(line(who(model, body.seat), " rejects ", cards_text(body.cards), "."))
    if isinstance(body, T.PaulistaPartnerCards):
        return Said(line("Mão de onze: ", who(model, body.seat), " holds ", cards_text(body.cards), "."))
    if isinstance(body, T.PaulistaOnzeDecided):
        if body.play:
            return Said(line(who(model, body.seat), ": ", Text(YES[game], style="bold"), " — the mão de onze is "
                             "played."), "yellow")
        return Said(line(who(model, body.seat), ": ", Text(NO[game], style="bold"), " — runs from the mão de onze."),
                    "yellow")
    if isinstance(body, T.ArgentinoRoundStarted):
        if body.duel:
            a, b = (body.seats[0], body.seats[1]) if len(body.seats) == 2 else (body.mano, body.mano)
            return Said(line(f"Pica-pica, duel {body.round}: ", who(model, a), " v ", who(model, b), "."), "bold")
        return Said(line(who(model, body.mano), " is mano."), "dim")
    if isinstance(body, T.ArgentinoEnvidoAnnounced):
        return Said(line(who(model, body.seat), ": ", Text(f"Tengo {body.points}.", style="bold")), "yellow")
    if isinstance(body, T.ArgentinoSonBuenas):
        what = " (no flor)" if body.bet == T.TRUCO_BET_FLOR else ""
        return Said(line(who(model, body.seat), ": ", Text("Son buenas", style="bold"), f"{what}."), "yellow")
    if isinstance(body, T.ArgentinoEnvidoWon):
        return Said(line(who(model, body.seat), f" wins the envido with {body.envido}: ", team_object(model, body.team),
                         f" +{body.points}."), _team_style(model, body.team))
    if isinstance(body, T.ArgentinoEnvidoCancelled):
        struck = f" ({body.points} struck out)" if body.points else ""
        return Said(line(who(model, body.seat), f" sings a flor: the envido is off{struck}."))
    if isinstance(body, T.ArgentinoFlorWon):
        if not body.HasField("seat"):
            return Said(line("The flor goes to ", team_object(model, body.team), f": +{body.points}."),
                        _team_style(model, body.team))
        how = "stands alone" if body.alone else "wins"
        return Said(line(who(model, body.seat), f"'s flor ({body.flor}) {how}: ", team_object(model, body.team),
                         f" +{body.points}."), _team_style(model, body.team))
    if isinstance(body, T.ArgentinoShown):
        why = "flor" if body.reason == T.TRUCO_SHOW_REASON_FLOR else "envido"
        return Said(line(who(model, body.seat), " shows ", cards_text(body.cards), f" ({why})."))
    if isinstance(body, T.ArgentinoWentToDeck):
        return Said(line(who(model, body.seat), ": ", Text("Me voy al mazo.", style="bold")), "yellow")
    return None


def _team_style(model: TableModel, team: int) -> str:
    mine = my_team(model)
    if mine is None:
        return "bold"
    return "bold green" if team == mine else "bold red"


def _signal(model: TableModel, body: truco_pb2.TrucoSignalled) -> Said:
    promise = meaning(model.game, body.signal)
    if body.seat == model.seat:
        return Said(line("You ", gesture(body.signal), " — ", promise, "."), "magenta")
    said = line(who(model, body.seat), f" {gesture(body.signal, seen=True)} — ", promise)
    mine = my_team(model)
    if mine is not None and seat_team(model, body.seat) != mine:
        said.append(" (you caught it)", style="italic")
    said.append(".")
    return Said(said, "magenta")


REASONS: dict[int, str] = {
    T.TRUCO_REASON_TRICKS: "on tricks",
    T.TRUCO_REASON_REFUSED: "the call was refused",
    T.TRUCO_REASON_DECK: "the others went to the deck",
    T.TRUCO_REASON_ONZE_REFUSED: "the team on 11 ran",
    T.TRUCO_REASON_ENVIDO: "the envido won the match",
}
"""Why a round's truco stake went where it did."""


def why(reason: int) -> str:
    return REASONS.get(reason, "")


def _round_ended(model: TableModel, body: truco_pb2.TrucoRoundEnded) -> Said:
    if not body.HasField("team"):
        return Said(Text("The mão de ferro is tied: nobody scores, and another iron hand follows."), "bold")
    what = "hand"
    if model.game == ARGENTINO:
        view = model.view
        what = "duel" if view is not None and view.truco.argentino.pica_pica else "round"
    said = team_does(model, body.team, "take", "takes")
    said.append(f" the {what} for {amount(model, body.points)} ({why(body.reason)}).")
    totals = list(body.totals)
    if len(totals) == 2 and (totals[body.team] != body.points or totals[1 - body.team]):
        said.append(" This ")
        said.append(what)
        said.append(": ")
        said.append_text(points_text(model, totals))
        said.append(".")
    return Said(said, _team_style(model, body.team))


def points_text(model: TableModel, points: list[int]) -> Text:
    """Each team's points: "us +4, them +1"."""
    out = Text()
    mine = my_team(model)
    for i, team in enumerate(sorted(range(len(points)), key=lambda t: mine is not None and t != mine)):
        if i:
            out.append(", ")
        out.append_text(team_object(model, team))
        out.append(f" +{points[team]}")
    return out


family_words("truco", truco_words)

# -- the action bar ----------------------------------------------------------------------------
game_words(PAULISTA, {
    "keep": "Fico (keep)", "pass_cards": "Pass on", "reject": "Reject", "accept": "Aceito", "run": "Corro",
    "truco": "Truco!", "seis": "Seis!", "nove": "Nove!", "doze": "Doze!", "play": "Play", "play_down": "Face down",
    "play_blind": "Turn up", "signal": "Sinal",
})
game_words(ARGENTINO, {
    "truco": "Truco", "retruco": "Retruco", "vale_cuatro": "Vale cuatro", "quiero": "Quiero",
    "no_quiero": "No quiero", "envido": "Envido", "real_envido": "Real envido", "falta_envido": "Falta envido",
    "announce": "Tengo", "son_buenas": "Son buenas", "flor": "Flor", "con_flor_me_achico": "Me achico",
    "contra_flor": "Contra flor", "contra_flor_al_resto": "Al resto", "mazo": "Al mazo", "play": "Play",
    "signal": "Seña",
})
KEYS = {
    PAULISTA: {"keep": "k", "pass_cards": "p", "reject": "r", "accept": "q", "run": "n", "truco": "t", "seis": "t",
               "nove": "t", "doze": "t", "signal": "s"},
    ARGENTINO: {"truco": "t", "retruco": "t", "vale_cuatro": "t", "quiero": "q", "no_quiero": "n", "envido": "e",
                "real_envido": "r", "falta_envido": "f", "announce": "a", "son_buenas": "b", "flor": "l",
                "contra_flor": "c", "contra_flor_al_resto": "o", "con_flor_me_achico": "h", "mazo": "m",
                "signal": "s"},
}
"""Each action's key: one key per action, whatever else is on offer. The rungs of the truco
share ``t`` (only the next one is ever on offer); cards are the board's: ``1``–``3`` by
their place in the hand as dealt, ``d`` to play one face down."""
for _game, _keys in KEYS.items():
    game_keys(_game, _keys)
    game_labels(_game, truco_label)
