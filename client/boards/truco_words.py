"""Both trucos in words: the calls as their players say them (Portuguese at a paulista table,
Spanish at an argentino one), every truco event as a log line, the action labels and keys.

The calls and the game's own words (Fico, Mão de onze, Tengo, Son buenas…) are not looked up:
they stay in the game's language whatever the reader's. The rest is said in the reader's
language (``cardtui.i18n``). Names for the teams follow the reader: a seated player reads "us" and "them", a spectator
"Team 1" and "Team 2". Signals are shown only to those the server told (partners and those
who caught them), with what each gesture usually promises (the table of signals (docs/rules.md), read for each
deck). Nothing here knows a rule: every number comes from the event or the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf.message import Message
from rich.text import Text

from cardtui.client.cards import card_text, cards_text
from cardtui.client.models import TableModel
from cardtui.client.words import Said, family_words, fmt, line, who
from cardtui.i18n import N_, _, ngettext
from cardtui.sealed.envelopes import seal_code
from cardtui.sealed.group import decode
from cardtui.v1 import common_pb2, sealed_pb2, truco_pb2

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
UNIT = {PAULISTA: ("{n} tento", "{n} tentos")}
"""The paulista's points are tentos at any screen's language; elsewhere points, in the reader's."""
BETS: dict[int, str] = {T.TRUCO_BET_TRUCO: "truco", T.TRUCO_BET_ENVIDO: "envido", T.TRUCO_BET_FLOR: "flor"}

S = common_pb2
GESTURES: dict[int, tuple[str, str]] = {
    S.SIGNAL_EYEBROW: (N_("raise an eyebrow"), N_("raises an eyebrow")),
    S.SIGNAL_WINK: (N_("wink"), N_("winks")),
    S.SIGNAL_LIPS_ASIDE: (N_("lips to one side"), N_("moves the lips to one side")),
    S.SIGNAL_BITE_LIP: (N_("bite the lip"), N_("bites the lip")),
    S.SIGNAL_KISS: (N_("blow a kiss"), N_("blows a kiss")),
    S.SIGNAL_OPEN_MOUTH: (N_("open the mouth"), N_("opens the mouth")),
    S.SIGNAL_CLOSE_EYES: (N_("close both eyes"), N_("closes both eyes")),
    S.SIGNAL_TILT_HEAD: (N_("tilt the head"), N_("tilts the head")),
}
"""Each gesture as one makes it, and as it is seen."""
MEANINGS: dict[str, dict[int, tuple[str, ...]]] = {
    ARGENTINO: {
        S.SIGNAL_EYEBROW: ("1e",), S.SIGNAL_WINK: ("1b",), S.SIGNAL_LIPS_ASIDE: ("7e", "7o"),
        S.SIGNAL_BITE_LIP: (N_("a 3"),), S.SIGNAL_KISS: (N_("a 2"),), S.SIGNAL_OPEN_MOUTH: (N_("a 1"),),
        S.SIGNAL_CLOSE_EYES: (N_("bad cards"),), S.SIGNAL_TILT_HEAD: (N_("good envido"),),
    },
    PAULISTA: {
        S.SIGNAL_EYEBROW: ("4C",), S.SIGNAL_WINK: ("7H",), S.SIGNAL_LIPS_ASIDE: ("AS", "7D"),
        S.SIGNAL_BITE_LIP: (N_("a 3"),), S.SIGNAL_KISS: (N_("a 2"),), S.SIGNAL_OPEN_MOUTH: (N_("an ace"),),
        S.SIGNAL_CLOSE_EYES: (N_("bad cards"),), S.SIGNAL_TILT_HEAD: (N_("a good hand"),),
    },
}
"""What each gesture usually promises (the table of signals (docs/rules.md), read for each deck): cards or words."""
SIGN = {PAULISTA: "Sinal", ARGENTINO: "Seña"}
SHORT = {"bad cards": N_("bad"), "a good hand": N_("good"), "good envido": "tanto", "an ace": N_("an A")}
"""Meanings cut short for a key's label, which has 14 characters at 80 columns ("s Seña 7⚔/7● ±")."""


def counted(game: str, card: str) -> bool:
    """A card whose whereabouts a player keeps count of: one a signal names (a manilha, argentino's aces and 7s of
    swords and coins) or a 3, the best of the plain cards."""
    named = {c for promised in MEANINGS.get(game, {}).values() for c in promised}
    return card in named or card[:-1] == "3"


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
    word = _("Team {n}").format(n=team + 1) if mine is None else _("Us") if team == mine else _("Them")
    return Text(word, style=TEAM_STYLE[team % 2])


def team_object(model: TableModel, team: int) -> Text:
    """The team as the object of a sentence: "us", "them", "Team 1"."""
    mine = my_team(model)
    word = _("Team {n}").format(n=team + 1) if mine is None else _("us") if team == mine else _("them")
    return Text(word, style=TEAM_STYLE[team % 2])


def team_does(model: TableModel, team: int, we: str, they: str, other: str, **parts: str | int | Text) -> Text:
    """A sentence whose subject is a team, each form a whole template in the reader's language
    (verbs agree with the subject): ``we`` and ``they`` to a seated player, ``other`` ("{team}
    wins") to a spectator. The subject takes the team's colour."""
    mine = my_team(model)
    style = TEAM_STYLE[team % 2]
    if mine is None:
        return fmt(other, team=Text(_("Team {n}").format(n=team + 1), style=style), **parts)
    said = fmt(we if team == mine else they, **parts)
    start = said.plain.find(said.plain.lstrip()[:1])
    said.stylize(style, start, start + len(said.plain.lstrip().split(" ")[0]))
    return said


def amount(model: TableModel, n: int) -> str:
    one, many = UNIT.get(model.game, ("", ""))
    if one:
        return (one if n == 1 else many).format(n=n)
    return ngettext("{n} point", "{n} points", n).format(n=n)


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
            out.append(_(SHORT.get(part, part)) if short else _(part))
        else:
            out.append_text(card_text(part))
    return out


def gesture(signal: int, seen: bool = False) -> str:
    made, saw = GESTURES.get(signal, (N_("signal"), N_("signals")))
    return _(saw if seen else made)


def truco_label(model: TableModel, action: common_pb2.Action) -> Text | None:
    """Labels the usual words would get wrong: a signal names what it promises ("Seña 1⚔"; the
    board names the gesture), and the mão's pass and reject leave out the cards they move."""
    if action.type == common_pb2.ACTION_TYPE_SIGNAL and action.signal:
        return line(f"{SIGN.get(model.game, 'Signal')} ", meaning(model.game, action.signal, short=True))
    if action.type == common_pb2.ACTION_TYPE_PASS_CARDS:
        return Text(_("Pass on"))
    if action.type == common_pb2.ACTION_TYPE_REJECT:
        return Text(_("Reject"))
    return None


# -- events ------------------------------------------------------------------------------------
def truco_words(name: str, body: Message, model: TableModel) -> Said | None:
    game = model.game
    if isinstance(body, T.TrucoPlayed):
        if body.blind:
            return Said(fmt(_("{name} turns up {card} blind."), name=who(model, body.seat), card=card_text(body.card)))
        if body.face_down or not body.HasField("card"):
            return Said(fmt(_("{name} plays a card face down."), name=who(model, body.seat)))
        return Said(fmt(_("{name} plays {card}."), name=who(model, body.seat), card=card_text(body.card)))
    if isinstance(body, T.TrucoCalled):
        said = line(who(model, body.seat), ": ", Text(call_word(model, body.call), style="bold"))
        if body.bet != T.TRUCO_BET_FLOR:
            said.append(" — " + _("for {n}").format(n=body.value), style="dim")
        return Said(said, "yellow")
    if isinstance(body, T.TrucoAnswered):
        word = call_word(model, body.call) if body.HasField("call") else YES[game] if body.accepted else NO[game]
        said = line(who(model, body.seat), ": ", Text(word, style="bold"))
        callers = 1 - body.team
        bet = BETS.get(body.bet, "truco")
        if body.accepted:
            said.append(" — " + _("the {bet} stands at {n}.").format(bet=bet, n=body.points), style="dim")
        elif body.bet != T.TRUCO_BET_TRUCO:
            said.append_text(line(" — ", fmt(_("{team} +{n} for the {bet}."), team=team_object(model, callers),
                                             n=body.points, bet=bet)))
        else:
            said.append(".")
        return Said(said, "yellow")
    if isinstance(body, T.TrucoTrickEnded):
        if not body.HasField("winner"):
            return Said(Text(_("Trick {n} is tied.").format(n=body.trick)), "italic")
        return Said(fmt(_("Trick {n} to {name} ({team})."), n=body.trick, name=who(model, body.winner),
                        team=team_object(model, body.team)), "italic")
    if isinstance(body, T.TrucoSignalled):
        return _signal(model, body)
    if isinstance(body, T.TrucoRoundEnded):
        return _round_ended(model, body)
    if isinstance(body, T.PaulistaHandDealt):
        if body.ferro:
            return Said(line("Mão de ferro: ", _("both teams on 11 — every card face down, turned up blind.")),
                        "bold red")
        if body.HasField("onze_team"):
            return Said(line("Mão de onze: ", team_does(model, body.onze_team, _("we are on 11."), _("they are on 11."),
                                                         _("{team} is on 11."))), "bold red")
        return Said(fmt(_("{name} is the mão."), name=who(model, body.mao)), "dim")
    if isinstance(body, T.PaulistaDealChoice):
        if body.choice == T.PAULISTA_CHOICE_KEEP:
            return Said(line(who(model, body.seat), ": Fico — ", _("keeps the cards.")))
        if body.choice == T.PAULISTA_CHOICE_PASS_CARDS:
            return Said(fmt(_("{name} passes the cards to the partner."), name=who(model, body.seat)))
        return Said(fmt(_("{name} rejects {cards}."), name=who(model, body.seat), cards=cards_text(body.cards)))
    if isinstance(body, T.PaulistaPartnerCards):
        if not body.cards:  # a sealed table: the partner's hand opens on this client alone, and shows on the board
            return None
        return Said(line("Mão de onze: ", fmt(_("{name} holds {cards}."), name=who(model, body.seat),
                                               cards=cards_text(body.cards))))
    if isinstance(body, T.PaulistaOnzeDecided):
        if body.play:
            return Said(line(who(model, body.seat), ": ", Text(YES[game], style="bold"), " — ",
                             _("the mão de onze is played.")), "yellow")
        return Said(line(who(model, body.seat), ": ", Text(NO[game], style="bold"), " — ",
                         _("runs from the mão de onze.")), "yellow")
    if isinstance(body, T.ArgentinoRoundStarted):
        if body.duel:
            a, b = (body.seats[0], body.seats[1]) if len(body.seats) == 2 else (body.mano, body.mano)
            return Said(line("Pica-pica, ", fmt(_("duel {n}: {a} v {b}."), n=body.round, a=who(model, a),
                                                 b=who(model, b))), "bold")
        return Said(fmt(_("{name} is mano."), name=who(model, body.mano)), "dim")
    if isinstance(body, T.ArgentinoEnvidoAnnounced):
        return Said(line(who(model, body.seat), ": ", Text(f"Tengo {body.points}.", style="bold")), "yellow")
    if isinstance(body, T.ArgentinoSonBuenas):
        what = " (" + _("no flor") + ")" if body.bet == T.TRUCO_BET_FLOR else ""
        return Said(line(who(model, body.seat), ": ", Text("Son buenas", style="bold"), f"{what}."), "yellow")
    if isinstance(body, T.ArgentinoEnvidoWon):
        return Said(fmt(_("{name} wins the envido with {envido}: {team} +{n}."), name=who(model, body.seat),
                        envido=body.envido, team=team_object(model, body.team), n=body.points),
                    _team_style(model, body.team))
    if isinstance(body, T.ArgentinoEnvidoCancelled):
        if body.points:
            return Said(fmt(_("{name} sings a flor: the envido is off ({n} struck out)."), name=who(model, body.seat),
                            n=body.points))
        return Said(fmt(_("{name} sings a flor: the envido is off."), name=who(model, body.seat)))
    if isinstance(body, T.ArgentinoFlorWon):
        if not body.HasField("seat"):
            return Said(fmt(_("The flor goes to {team}: +{n}."), team=team_object(model, body.team), n=body.points),
                        _team_style(model, body.team))
        template = _("{name}'s flor ({flor}) stands alone: {team} +{n}.") if body.alone else _(
            "{name}'s flor ({flor}) wins: {team} +{n}.")
        return Said(fmt(template, name=who(model, body.seat), flor=body.flor, team=team_object(model, body.team),
                        n=body.points), _team_style(model, body.team))
    if isinstance(body, T.ArgentinoShown):
        why_ = "flor" if body.reason == T.TRUCO_SHOW_REASON_FLOR else "envido"
        return Said(fmt(_("{name} shows {cards} ({why})."), name=who(model, body.seat), cards=cards_text(body.cards),
                        why=why_))
    if isinstance(body, T.ArgentinoWentToDeck):
        return Said(line(who(model, body.seat), ": ", Text("Me voy al mazo.", style="bold")), "yellow")
    if isinstance(body, T.ArgentinoClaimLost):
        template = (_("{name}'s cards do not make the {value} said: {team} +{n}.") if body.shown else
                    _("{name} did not show the {value} said: {team} +{n}."))
        return Said(fmt(template, name=who(model, body.seat), value=body.value, team=team_object(model, 1 - body.team),
                        n=body.points), _team_style(model, 1 - body.team))
    return None


def _team_style(model: TableModel, team: int) -> str:
    mine = my_team(model)
    if mine is None:
        return "bold"
    return "bold green" if team == mine else "bold red"


def _signal(model: TableModel, body: truco_pb2.TrucoSignalled) -> Said:
    promise = meaning(model.game, body.signal)
    if body.seat == model.seat:
        return Said(fmt(_("You {gesture} — {promise}."), gesture=gesture(body.signal), promise=promise), "magenta")
    said = line(who(model, body.seat), f" {gesture(body.signal, seen=True)} — ", promise)
    mine = my_team(model)
    if mine is not None and seat_team(model, body.seat) != mine:
        said.append(" " + _("(you caught it)"), style="italic")
    said.append(".")
    return Said(said, "magenta")


REASONS: dict[int, str] = {
    T.TRUCO_REASON_TRICKS: N_("on tricks"),
    T.TRUCO_REASON_REFUSED: N_("the call was refused"),
    T.TRUCO_REASON_DECK: N_("the others went to the deck"),
    T.TRUCO_REASON_ONZE_REFUSED: N_("the team on 11 ran"),
    T.TRUCO_REASON_ENVIDO: N_("the envido won the match"),
}
"""Why a round's truco stake went where it did."""


def why(reason: int) -> str:
    return _(REASONS.get(reason, ""))


TAKES = {
    "hand": (N_("We take the hand for {amount} ({why})."), N_("They take the hand for {amount} ({why})."),
             N_("{team} takes the hand for {amount} ({why}).")),
    "round": (N_("We take the round for {amount} ({why})."), N_("They take the round for {amount} ({why})."),
              N_("{team} takes the round for {amount} ({why}).")),
    "duel": (N_("We take the duel for {amount} ({why})."), N_("They take the duel for {amount} ({why})."),
             N_("{team} takes the duel for {amount} ({why}).")),
}
"""Who takes a hand's (a round's, a duel's) stake: whole sentences, as verbs agree with their subject."""
THIS = {"hand": N_("This hand: {points}."), "round": N_("This round: {points}."), "duel": N_("This duel: {points}.")}


def takes(model: TableModel, team: int, what: str, **parts: str | int | Text) -> Text:
    """"We take the round for 3 points (on tricks)."; ``what``: hand, round or duel."""
    we, they, other = TAKES[what]
    return team_does(model, team, _(we), _(they), _(other), **parts)


def _round_ended(model: TableModel, body: truco_pb2.TrucoRoundEnded) -> Said:
    if body.reason == T.TRUCO_REASON_VOID:  # a sealed table named a seat for a cheat (said just before)
        return Said(Text(_("The hand is void: nobody scores it.")), "bold")
    if not body.HasField("team"):
        return Said(Text(_("The mão de ferro is tied: nobody scores, and another iron hand follows.")), "bold")
    what = round_kind(model)
    said = takes(model, body.team, what, amount=amount(model, body.points), why=why(body.reason))
    this = round_points(model, body)
    if this is not None:
        said.append(" ")
        said.append_text(this)
    return Said(said, _team_style(model, body.team))


def round_kind(model: TableModel) -> str:
    """What a truco deal is called at this table: a hand (paulista), a round, or a pica-pica duel."""
    if model.game != ARGENTINO:
        return "hand"
    view = model.view
    return "duel" if view is not None and view.truco.argentino.pica_pica else "round"


def round_points(model: TableModel, body: truco_pb2.TrucoRoundEnded) -> Text | None:
    """"This round: us +0, them +5.", where the round's points are more than the stake its winner took (an
    envido, a flor, or points to both sides); None where the stake says it all."""
    totals = list(body.totals)
    if len(totals) != 2 or not body.HasField("team") or (totals[body.team] == body.points
                                                           and not totals[1 - body.team]):
        return None
    return fmt(_(THIS[round_kind(model)]), points=points_text(model, totals))


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


def seal_code_words(boxes: Sequence[sealed_pb2.SealedPoint]) -> str:
    """The seal code of the box points this client was given (docs/deal.md §S8), and what to do with it."""
    try:
        code = seal_code({b.seat: decode(bytes(b.point)) for b in boxes})
    except ValueError:  # a point that is none: the client's ledger names it
        return ""
    return _("Seal code: {code}. Compare it aloud with everyone at the table: a code that differs means the host "
             "handed someone a sealing key of its own.").format(code=code)


def sealed_words(name: str, body: Message, model: TableModel) -> Said | None:
    """A sealed truco hand's events (``Event.sealed``): the deal's first says whose seats are the host's (a bot's,
    whose cards the host knows) and that every other hand stays closed; the seal code is said as soon as every box
    point is known (``seal_code_words``); a seat named for a cheat is said. The steps of the deal and the keys of a
    card played say nothing of their own: the truco events say the play."""
    if isinstance(body, sealed_pb2.SealedHandNamed):
        hosts = list(body.hosts)
        if not hosts:
            said = Text(_("Sealed deal: every hand stays closed to everyone, the host included, until it is played "
                          "or shown."))
        else:
            seats = Text(", ").join(who(model, seat) for seat in hosts)
            template = ngettext(
                "Sealed deal: the bot {seats} plays the host's seat, so the host knows its cards; every other hand "
                "stays closed to everyone, the host included, until it is played or shown.",
                "Sealed deal: the bots {seats} play the host's seats, so the host knows their cards; every other "
                "hand stays closed to everyone, the host included, until it is played or shown.", len(hosts))
            said = fmt(template, seats=seats)
        code = seal_code_words(body.boxes) if not body.pledging else ""
        return Said(line(said, " ", code) if code else said, "dim")
    if isinstance(body, sealed_pb2.SealedBoxes):
        code = seal_code_words(body.boxes)
        return Said(Text(code), "bold") if code else None
    if isinstance(body, sealed_pb2.SealedCheat):
        return Said(fmt(_("{name} is named for a cheat ({detail}): the hand is void."), name=who(model, body.seat),
                        detail=body.detail), "bold red")
    return None


family_words("truco", truco_words)
family_words("sealed", sealed_words)

