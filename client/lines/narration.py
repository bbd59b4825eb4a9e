"""How much the line mode says: terse at a table by default, verbose on request; and the one shape every game's
hand is told in, at both levels.

The shape (``families`` says what each family puts in it): at the player's turn, what is new and the choices
(``loop``, ``actions``); a hand's result with what won it and every side's total, the player's first, said once the
view after it is in ("bia wins 6 with cacho (33); you 18, bia 26, caio 16."; at the terse level a later result says
the player's and the totals that changed since: ``shape.result_said``); a redeal with why ("Dealt again:
everyone passed."). Two numbers are never said one after the other.

Read aloud, every event of a table takes longer to say than the table takes to play it: a voice that says
each bot's draw and discard, a claim window the player can only let go, the hand before each turn and the
fair-deal check's findings falls minutes behind a hand of Pif Paf. The terse level says what changes the
player's decision and what came of the hand: their turn and its choices; the others' calls, bets, folds and
cards that reach the table; a knock, a claim; the results. The rest is folded or left for the asking:

- the others' draws and discards at the rummy games are one line a round ("bia, 9 clubs; caio takes it; dan, 7
  clubs": a card taken from the pile was just heard, or was the player's own, "yours"), said when the player's
  turn comes or when a seat's turn comes round again; a discard the next seat drew over from the stock is out of
  play and unsaid (caio's queen above): each card taken and the pile's top are what a player acts on; a card the
  player draws from the stock is said with the discard's turn ("4 clubs, number 5; discard.": "draw" was their
  own word); a card taken from the pile is said with the one given for it ("caio takes it for 5 cups"); at
  Chinchón (``Family.taken_only``) the line says only the cards taken from the pile, who took which for what, and
  at the player's turn the pile's top ("caio takes 9 clubs for 5 cups; pile: 7 clubs."): the discards between
  them change no choice (``last`` and ``table`` have them); the player's own discard taken is said without a name
  ("Yours taken; pile: 7 clubs."): only the next seat may take it there;
- what only repeats what the player did ("You discard the 7 of hearts", after they chose it) is not said,
  nor what changes nothing ("bia is the mão", the ante, "a card to each of 4 players");
- cards are named short ("king cups"), quicker to hear; the same bet by seats one after another is said once
  ("bot 3 and bot 4 pass"), by every other seat at the table without their names ("The others pass");
- at truco the hand's cards, and the partner's signals, are said with the player's turn (they help a decision
  only), and the hand's number not at all (the last one's result was said); a truco's call without its stake,
  which the word says, an envido's first call too (its sum once raised, a falta's always), and another's
  acceptance not at all (what follows says it: the play goes on, the envido's points are called; a raise and a
  refusal are said); an envido won as ours or theirs, with what it gives and the points that won it (the
  others' "Tengo"s are said before the player's turn to answer, and the rest left to it), and not another's
  "Son buenas" before it; a trick as ours or theirs, with its cards where the line before it ends in them ("King
  clubs, 4 cups: ours."), and the trick that ends the round by the round's result alone (its cards after the
  player's change no choice now: ``last`` has them); the
  others' cards played one after another as one line, the first seat by its name and the next ones, who play in
  the table's order, by their cards alone, without a verb ("bia, 7 coins, knight clubs, 4 swords"), and the
  first too where it follows the player's own card (the seat after theirs: "Ace swords, 4 cups."), or where the
  line runs up to the player's seat (``runs_to_me``: they play next, and counting back says whose each is); an envido's
  result without the winning points where a "Tengo" just said them ("Their envido: +2."); at a table of two the
  opponent's cards without a name ("7 coins."), the only other's; the other team's
  calls, answers and "Tengo"s by their words alone ("Truco!", "No quiero, us +2.", "Tengo 29."; a refused envido
  without its name, just called):
  the player answers a team, not a seat, and at a table of two there is one opponent (a partner's keep the name);
- at truco paulista a mão's rejected hands are one sentence, said before what comes next: how many, and the
  manilhas and 3s among them ("bia rejects 2 hands, ace spades among them."), the low cards out of play unnamed;
- at Cacho a hand's number is not said (the last pot's result was), each card the player is dealt is said with
  the turn it is for, the shows by the pot's result (the winning hand; ``last`` has each), and nothing of the
  others' bets once the player is out of the hand (its result is said); the analysis of their play, on request;
- the fair-deal check in one short sentence ("Fair deal.", or what else it found; ``deal`` says its findings), and
  "Fair deal." for a table's first fair deal only: once heard, silence is the check still finding every deal fair,
  and anything else it finds (a deal that does not check out, one partly checked) is said every time;
- a match's end in one sentence with the question after it ("They win the match: again, swap or leave?"; once it
  was heard at the table, the winner and the bell: ``loop``), and
  the next one's start only where the seats were swapped (``match`` says its number);
- every sentence is kept, in full, for ``last``.

``verbose`` says every other event as it comes, each in the log's own words, as the line mode always did. The
level is the player's, kept beside their bell (not a browser guest's: the host's config directory is not theirs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from google.protobuf.message import Message

from cardtui.client.fairness import Standing, Verdict
from cardtui.client.lines.actions import held
from cardtui.client.lines.sentences import card_words, cards_words, spoken
from cardtui.client.models import TableModel, action_name, event_body
from cardtui.client.shape import BETS, Folded, Part, Played, Tengo, family_of, pot_of
from cardtui.client.turn_bell import bell_file, my_turn
from cardtui.client.words import said_action
from cardtui.i18n import N_, _
from cardtui.v1 import table_pb2


class Level(StrEnum):
    """How much the line mode says at a table."""

    TERSE = "terse"
    VERBOSE = "verbose"


UNCHANGED = frozenset({"round_dealt", "antes", "argentino_shown", "dealt"})
"""Events the terse level leaves unsaid: a Cacho round's deal (the player hears their card), the ante (the same
each hand; ``table`` says the pot), an envido's cards shown (the envido's winner is said)."""
ECHOES = frozenset({"acted", "played", "called", "answered", "discarded", "drew", "signalled",
                    "argentino_went_to_deck", "argentino_envido_announced", "argentino_son_buenas",
                    "paulista_deal_choice", "paulista_onze_decided"})
"""Events of the player's own that only repeat what they chose: unsaid at the terse level after they chose it
(said when the table played for them, their time up)."""
SHORT_STANDINGS: dict[Standing, str] = {
    Standing.FAIR: N_("Fair deal."),
    Standing.UNASKED: N_("The host alone chose this deck. Type deal for more."),
    Standing.WATCHED: N_("Deal checked, but you are watching: it cannot show the deck was not chosen."),
    Standing.PARTIAL: N_("Deal partly checked."),
    Standing.UNUSED: N_("Warning: your seed was left out of this deal. Type deal for more."),
    Standing.WITHHELD: N_("Warning: a seed was held back from this deal. Type deal for more."),
    Standing.BROKEN: N_("Warning: this deal does not check out. Type deal to hear why."),
    Standing.UNCHECKED: N_("Deal not checked: you joined during it."),
    Standing.AWAY: N_("Dealt without the seed of a seat that was away. Type deal for more."),
    Standing.VOIDED: N_("A deal was called off before its cards: its seeds are shown. Type deal for more."),
}
"""The fair-deal check in one short sentence, by what it found ("Fair deal.": silence would not tell a fair
deal from a check that never ran); ``deal`` says the whole check. A finding this client has no short words for is
said whole."""
LEVEL_FILE = "narration"


def level_file() -> Path:
    """Where the player's level is kept: beside their bell, in their config directory."""
    return bell_file().with_name(LEVEL_FILE)


def kept_level(own_config: bool) -> Level:
    """The level the player chose last time (terse unless they chose verbose)."""
    if not own_config:
        return Level.TERSE
    try:
        return Level(level_file().read_text(encoding="utf-8").strip())
    except (OSError, UnicodeDecodeError, ValueError):
        return Level.TERSE


def keep_level(level: Level) -> None:
    try:
        path = level_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(level), encoding="utf-8")
    except OSError:
        pass


def verdict_said(verdict: Verdict, level: Level) -> str:
    """A hand's fair-deal check as the level says it: whole, or one short sentence."""
    if level is Level.VERBOSE:
        return spoken(verdict.said().text.plain)
    short = SHORT_STANDINGS.get(verdict.standing)
    return _(short) if short is not None else spoken(verdict.said().text.plain)


TOGETHER = {
    ("pass", False): N_("{names} pass"), ("check", False): N_("{names} check"), ("fold", False): N_("{names} fold"),
    ("call", False): N_("{names} call"), ("call", True): N_("{names} call {chips}"),
    ("bet", False): N_("{names} bet"), ("bet", True): N_("{names} bet {chips}"),
    ("raise", True): N_("{names} raise to {chips}"),
}
"""The same bet by several seats one after another, said once with their names ("bot 3 and bot 4 pass"), by its
kind and whether it names its chips."""
OTHERS = {
    ("pass", False): N_("The others pass"), ("check", False): N_("The others check"),
    ("fold", False): N_("The others fold"), ("call", False): N_("The others call"),
    ("call", True): N_("The others call {chips}"), ("bet", False): N_("The others bet"),
    ("bet", True): N_("The others bet {chips}"), ("raise", True): N_("The others raise to {chips}"),
}
"""The same bet by every other seat at the table, one after another: said without their names ("The others pass"),
which the player knows; shorter to hear than three names."""


@dataclass
class Bet:
    """Seats that made the same bet one after another, said together."""

    kind: str
    chips: int
    names: list[str]
    alone: str
    """The bet of the first of them, as said of one seat ("bia bets 1")."""
    others: tuple[str, ...] = ()
    """Every other seat at the table, by name, where the player sits at it: all of them making the bet are "the
    others"."""

    def said(self) -> str:
        template = TOGETHER.get((self.kind, bool(self.chips)))
        if len(self.names) == 1 or template is None:  # several are joined only where a template says them
            return self.alone
        everyone = OTHERS.get((self.kind, bool(self.chips)))
        if everyone is not None and len(self.others) > 1 and sorted(self.names) == sorted(self.others):
            return _(everyone).format(chips=self.chips)
        names = _("{some} and {last}").format(some=", ".join(self.names[:-1]), last=self.names[-1])
        return _(template).format(names=names, chips=self.chips)


@dataclass
class Narrator:
    """What the line mode says of each event, at the player's level."""

    level: Level = Level.TERSE
    folded: Folded = field(default_factory=Folded)
    moves: list[str | Part] = field(default_factory=list)
    """The others' bets, cards played and hands rejected since anything else was said: one line, said before the
    next thing (the same bet by seats one after another, once with their names; a mão's rejections once)."""
    acted: bool = False
    """The player chose an action since their turn was said: their own echo of it is not news (terse)."""
    later: list[Callable[[TableModel], str]] = field(default_factory=list)
    """Sentences said once the message's view is in (a card's number is its place in the hand as it is now)."""
    dealing: int | None = None
    """A hand just dealt, said with the player's cards once they are in the view ("Hand 3: ...")."""
    top: tuple[int, str] | None = None
    """The last discard (its seat and card), which a draw from the pile takes: said as "it" or "yours", since it
    was just heard (or just made), rather than named again."""
    signals: list[str] = field(default_factory=list)
    """The others' truco signals since the player's last turn: said as their next turn begins (a signal helps a
    decision only), left unsaid if the hand ends first (``last`` has them)."""
    unheard: bool = False
    """A truco hand dealt whose cards the player has not heard yet: said with their first turn of it (``hand``
    says them at any time)."""
    received: list[str] = field(default_factory=list)
    """Cards dealt to the player at Cacho since the hand began and not said yet: said with their turn ("With 4
    diamonds: pass, bet 1."), which comes before anything is decided with them."""
    drawn: str = ""
    """A card the player just drew from the stock, said with the turn that discards (``drew_turn``)."""
    dealt_now: bool = False
    """A deal (a hand, a Cacho round) in the message being said: the view the events are said against is the one
    before it, so who is out of the hand is not known from it yet."""
    pots: list[str] = field(default_factory=list)
    """The pots won as a hand ends (Pif Paf's, side pots too), said with its result."""
    fair: bool = False
    """A fair deal was said at this table: from then on silence is the check finding every deal fair (terse)."""
    won: str = ""
    """A match's winner, said with the question that follows it ("They win the match: again, swap or leave?") at
    the terse level (``match_won``)."""
    ended: bool = False
    """A round's end in the message being said: the trick that ended it is in its result ("They take 2")."""
    totals: dict[str, int] = field(default_factory=dict)
    """Each side's total as the last result said it (terse): a result says the player's and those that changed
    since (``shape.result_said``)."""
    tengos: set[int] = field(default_factory=set)
    """The envido points heard this round (the others' "Tengo"s said, the player's own): the envido's result says
    the winning points only where they were not heard."""
    played: int | None = None
    """The seat whose card was played last in the trick (the player's own too); None at a trick's start: a card
    that follows the player's own is said without its seat's name, the next seat's."""
    called: set[int] = field(default_factory=set)
    """The bets called this round (the envido, the flor): a bet's first call is the word alone, a later one (raised
    on it) with the sum it stands at."""

    @property
    def terse(self) -> bool:
        return self.level is Level.TERSE

    def verdict(self, verdict: Verdict) -> str:
        """A hand's fair-deal check as the level says it (``verdict_said``); "" for a fair deal after a fair deal at
        the terse level: once "Fair deal." is heard at a table, silence means fair; a deal that does not check out,
        or only in part, is said every time."""
        again = self.terse and verdict.standing is Standing.FAIR and self.fair
        self.fair = self.fair or verdict.standing is Standing.FAIR
        return "" if again else verdict_said(verdict, self.level)

    def match_won(self) -> str:
        """The match's winner held for the question after it (the terse level), unstopped; "" if none is held."""
        won, self.won = self.won, ""
        return won

    def event(self, model: TableModel, event: table_pb2.Event, text: str) -> list[str]:
        """The sentences to say now for ``event`` (``text``: the log's sentence for it, made for the ear here: its
        cards named short at the terse level). Once a sentence waits for the message's view (a truco round's end,
        said with the score), the message's later ones wait behind it, so that they are heard in their order."""
        said = self._event(model, event, text)
        if said and self.later:
            self.later.extend(_said_as(s) for s in said)
            return []
        return said

    def _event(self, model: TableModel, event: table_pb2.Event, text: str) -> list[str]:
        said = spoken(text, short=self.terse) if text else ""
        shaped = self._shaped(model, event)
        if shaped is not None:
            return shaped
        if not said:
            return []
        if not self.terse:
            return [said]
        name, body = event_body(event)
        if body is None:
            return self.before([said])
        if name in ("hand_started", "redealt", "round_dealt"):
            self.dealt_now = True
        family = family_of(model)
        if self._unheeded(model, body):
            return []
        if self._folds(model, name, body):
            if family is not None and family.said(model, body) == "":  # the family has it unsaid (a player out)
                self._on_top(model, body)
                return []
            folded = family.discarded(self, model, body) if family is not None else []
            self._on_top(model, body)
            return folded
        self._on_top(model, body)
        if family is not None and family.gathered(self, model, body):
            return []
        move = self._move(model, body)
        if family is not None:
            family.heard(self, model, body)
        if move is not None:
            last = self.moves[-1] if self.moves else None
            if isinstance(move, Bet) and isinstance(last, Bet) and (last.kind, last.chips) == (move.kind, move.chips) \
                    and (move.kind, bool(move.chips)) in TOGETHER:
                last.names.extend(move.names)
            elif isinstance(move, Played) and isinstance(last, Played):
                last.cards.extend(move.cards)
                last.to_me = family is not None and family.runs_to(model, _seat(body))
            else:
                if isinstance(move, Played):
                    move.to_me = family is not None and family.runs_to(model, _seat(body))
                self.moves.append(move)
            return []
        if name in UNCHANGED or (name in ECHOES and self.acted and _seat(body) == model.seat
                                 and not (family is not None and family.gives(body))):
            return []
        if name in ("hand_ended", "pot_won", "round_ended", "match_ended", "knocked"):
            self.drawn = ""
            self.folded = Folded()  # the hand is over: its discards folded so far are in ``last``
            self.signals = []
            self.unheard = False
            self.received = []
        if isinstance(body, table_pb2.MatchEnded):
            # said with the question after it, in one sentence ("They win the match: again, swap or leave?")
            team = family.team(model) if family is not None else None
            if body.HasField("team") and team is not None:
                said = _("We win the match.") if body.team == team else _("They win the match.")
            self.won = said.removesuffix(".")
            return []
        short = self._short(model, name, body)
        if short is not None:
            return self.before([short] if short else [])
        if family is not None:
            said = family.log_said(model, body, said)
        return self.before([said])

    def _shaped(self, model: TableModel, event: table_pb2.Event) -> list[str] | None:
        """What the one shape says of an event at either level (``client.shape``): a pot won, kept for the hand's
        result; a redeal with its reason; a hand's result, with what won it and every side's total, said once the
        view after it is in (the totals are the view's). None for any other event."""
        family = family_of(model)
        _name, body = event_body(event)
        if family is None or body is None:
            return None
        pot = pot_of(model, body, not self.terse)
        if pot is not None:
            self.pots.append(pot)
            return []
        redealt = family.redealt(model, body)
        if redealt is not None:
            return self.before([redealt])
        if not family.ends(body):
            return None
        pots, self.pots = self.pots, []
        full = not self.terse
        self.ended = True
        self.drawn = ""
        self.folded = Folded()  # the hand is over: its discards folded so far are in ``last``
        self.signals = []
        self.unheard = False
        self.received = []
        self.called = set()
        heard = None if full else self.totals
        self.later.append(lambda now: family.result(now, body, pots, full, lambda text: spoken(text, stop=False),
                                                    heard))
        return []  # the others' moves folded so far are said before it, once the view is in

    def _unheeded(self, model: TableModel, body: Message) -> bool:
        """Another's move once the player is out of the hand (``Family.unheeded``), unless a deal is in the message
        being said (who is out is not known from the view before it)."""
        family = family_of(model)
        return not self.dealt_now and family is not None and family.unheeded(model, body)

    def speak(self, text: str, stop: bool = True, short: bool = False) -> str:
        """A piece of the screen's text as it is heard (``sentences.spoken``), for a family's words."""
        return spoken(text, stop, short)

    def before(self, said: list[str]) -> list[str]:
        """``said``, after the others' moves folded so far (when there is anything to say)."""
        if not said or not self.moves:
            return said
        line = "; ".join(m if isinstance(m, str) else m.said() for m in self.moves) + "."
        self.tengos |= {m.points for m in self.moves if isinstance(m, Tengo)}
        self.moves = []
        return [line, *said]

    def _move(self, model: TableModel, body: Message) -> Part | None:
        """Another's bet, or card played face up, as a part of the line that says them together; None for what
        is not one."""
        seat = _seat(body)
        if seat is None or seat == model.seat:
            return None
        family = family_of(model)
        if isinstance(body, table_pb2.Acted) and action_name(body.action) in BETS and (
                family is None or family.said(model, body) is None):  # not a bet where the family says it (a pass)
            kind = action_name(body.action)
            others = tuple(model.name(s.seat) for s in model.summary.seats if s.taken and s.seat != model.seat)
            return Bet(kind, body.action.chips, [model.name(seat)],
                       spoken(said_action(model, seat, body.action).plain, stop=False),
                       others if model.seat is not None else ())
        return family.move(self, model, body, seat) if family is not None else None

    def _folds(self, model: TableModel, name: str, body: Message) -> bool:
        """The others' routine rummy moves: a draw, a discard."""
        if name not in ("drew", "discarded"):
            return False
        return _seat(body) != model.seat

    def _on_top(self, model: TableModel, body: Message) -> None:
        """The pile's top as an event changes it (``Family.on_top``)."""
        family = family_of(model)
        if family is not None:
            family.on_top(self, body)

    def flush(self, model: TableModel, turn: bool = True) -> str:
        """The folded line, said now (at the player's turn, or ``turn`` False: a seat's turn come round again
        without one), and a new round begun."""
        family = family_of(model)
        said = self.folded.line(family is not None and family.taken_only(model), turn)
        self.folded = Folded()
        return said

    def _short(self, model: TableModel, name: str, body: Message) -> str | None:
        """The terse words of an event said more briefly than the log says it; "" to say nothing; None: the
        log's own words."""
        family = family_of(model)
        own = family.said(model, body) if family is not None else None
        if own is not None:  # the family's own words (a knock, a close)
            return spoken(own, short=True) if own else ""
        if isinstance(body, table_pb2.HandStarted):
            self.called = set()
            self.tengos = set()
            self.folded = Folded()
            self.signals = []
            self.received = []
            self.dealing = body.hand
            self.later.append(self._dealt)
            return ""
        if isinstance(body, table_pb2.CardsDealt) and body.seat == model.seat and self.dealing is not None:
            return ""  # said with the hand's number, in the order the cards are numbered
        terse = family.terse(self, model, body) if family is not None else None
        if terse is not None:  # the family's words, which depend on what was heard before
            return terse
        if isinstance(body, table_pb2.MatchStarted):  # how the seats were chosen: the verbose level's
            # the same seats again: the hand's first words say a game began (its number is ``match``'s)
            return _("Game {n} begins, the seats swapped.").format(n=body.match) if body.seats_from else ""
        return None

    def _dealt(self, model: TableModel) -> str:
        """"New hand: ..." with the player's cards in the order of their numbers (a spectator: the number alone; a
        seat dealt nothing, out of the match: nothing)."""
        hand, self.dealing = self.dealing, None
        cards = [c for c in held(model) if c is not None]
        family = family_of(model)
        own = family.dealt(self, model, cards) if family is not None else None
        if own is not None:  # the family's (the trucos, Cacho: said with the player's first turn)
            return own
        if model.seat is None:
            return _("Hand {n}.").format(n=hand)
        if not cards:  # seated and dealt nothing: out of the match, as the last result said, which said a hand
            return ""  # ended and so that the next begins; or waiting to be dealt in (``match`` says the number)
        return _("New hand: {cards}.").format(cards=cards_words(cards, short=True))

    def drew(self, model: TableModel, card: str) -> str:
        """The card drawn from the stock: said with the discard's turn that follows ("4 clubs, number 5; discard."),
        one sentence where two were; said alone where no turn follows."""
        if my_turn(model) and card in held(model):
            self.drawn = card
            return ""
        return _drawn(model, card)

    def drew_turn(self, model: TableModel, choices: str) -> str:
        """The turn after a draw from the stock, with the card drawn and the number that discards it, and the
        choices unless they are the discard alone, by its word (its numbers heard: a draw is always followed by
        one); "" where no card was drawn since the last turn was said."""
        card, self.drawn = self.drawn, ""
        hand = held(model)
        if not card or card not in hand:
            return ""
        if choices == _("Discard").lower():
            # the one choice after a draw, its numbers said at this table before: the card's number is its key
            said = _("{card}, number {n}.").format(card=card_words(card, short=True), n=hand.index(card) + 1)
        else:
            said = _("{card}, number {n}; {choices}.").format(card=card_words(card, short=True),
                                                               n=hand.index(card) + 1, choices=choices)
        return said[:1].upper() + said[1:]  # "draw" was the player's own word

    def after_view(self, model: TableModel) -> list[str]:
        """The sentences waiting for the message's view (``later``), said now that it is in."""
        said = [s(model) for s in self.later]
        self.later = []
        self.dealt_now = False
        self.ended = False
        return self.before([s for s in said if s])

    def turn_begins(self, model: TableModel) -> list[str]:
        """A turn of the player's is about to be said: what was folded so far comes first."""
        self.acted = False
        signals, self.signals = self.signals, []
        said = self.before([*signals, self.flush(model)])
        return [s for s in said if s]

    def hand_unheard(self, model: TableModel, slots: list[str | None]) -> str:
        """The cards of a truco hand the player has not heard yet, in the order of their numbers, or the cards dealt
        to them at Cacho since they were last said; said once (with their turn); "" once heard."""
        if self.received:
            cards, self.received = self.received, []
            return cards_words(cards, short=True)
        if not self.unheard:
            return ""
        self.unheard = False
        cards = [c for c in held(model, slots) if c is not None]
        return cards_words(cards, short=True) if cards else ""


def _drawn(model: TableModel, card: str) -> str:
    """The card the player drew from the stock, and the number that discards it now."""
    hand = held(model)
    if card in hand:
        return _("You draw {card}, number {n}.").format(card=card_words(card, short=True), n=hand.index(card) + 1)
    return _("You draw {card}.").format(card=card_words(card, short=True))


def _said_as(sentence: str) -> Callable[[TableModel], str]:
    return lambda _model: sentence


def _seat(body: Message) -> int | None:
    seat = getattr(body, "seat", None)
    return seat if isinstance(seat, int) else None


LEVEL_SAID = {
    Level.TERSE: N_("Terse: your turn with its choices, what the others do that changes your choice, and the "
                    "results. Type verbose to hear everything."),
    Level.VERBOSE: N_("Verbose: every event as it happens. Type terse to hear less."),
}
