"""The one shape the line mode tells every hand in, and the registry of what each family puts into it.

The shape is the line mode narration's (``client.lines.narration``): at the player's turn, what is new and the
choices; a hand's result with what won it and every side's total, the player's first; a redeal with its reason;
and ``score``, the totals in one line at any time. What differs from family to family lives in the family's own
modules (``client/boards/rummy_lines.py``, ``truco_lines.py`` with ``truco_family.py``, ``cacho_lines.py``), each
a ``Family`` that its games declare (``ClientGame.lines``): who its sides are and what they hold (each seat's chips
or points, or two teams' points), what its hand's result says won it, and why a hand is dealt again; and what the
rest of the client asks a family (each seat's chips or points for who deals next, what the table and the hand
hold, how the hand's cards are numbered, which events play a card), and what the terse line mode says of the
family's own events and keeps of them (``client/boards/<family>_ear.py``, given the narrator as an ``Ear``). Shared
code asks the family of a view here (``family_of``, by the message of its view on the wire; ``models.played_after``
by an event's), never a game's name nor a family's.

Every total is said after a word, never after another number: a seat whose name ends in a number ("bot 2") is
said "bot 2 has 20", not "bot 2 20", which the ear hears as two numbers run together (``runs_of_numbers``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from google.protobuf.message import Message

from cardtui.client import gamebook
from cardtui.client.models import TableModel
from cardtui.i18n import _
from cardtui.v1 import table_pb2

CHIPS = gamebook.Which(lambda g: g.chips)
"""Games played for chips: a seat's score is said in chips, else in points."""
ENDS_IN_A_NUMBER = re.compile(r"\d\W*$")
BETS = frozenset({"check", "bet", "call", "raise", "pass", "fold"})
"""The betting acts (Cacho, Pif Paf's betting round): the others' are said together, one line until something
else is said or the player's turn comes."""

@dataclass(frozen=True)
class Side:
    """One side of a table and what it holds: a seat (its name, or the player) or a team (us, them)."""

    name: str
    total: int
    mine: bool = False
    template: str = ""
    """Its words, with ``{n}`` for its total, where they are not its name's ("you {n}", "we {n}")."""

    def said(self) -> str:
        return self.template.format(n=self.total) if self.template else said_with(self.name, self.total)


def said_with(name: str, number: int | str, template: str = "") -> str:
    """A name and a number after it, as the ear tells them apart: "bia 20", and "bot 2 has 20" where the name
    ends in a number (``template``: the words for the second, with ``{name}`` and ``{n}``)."""
    if ENDS_IN_A_NUMBER.search(name):
        return (template or _("{name} has {n}")).format(name=name, n=number)
    return _("{name} {n}").format(name=name, n=number)


def name_then(name: str, what: str, apart: str, joined: str) -> str:
    """A name and what follows it, said apart ("bia, 9 clubs") unless both sides of the gap are numbers ("bot 2"
    and "9 clubs"): then with the word that joins them ("bot 2 discards 9 clubs"). Templates with ``{name}`` and
    ``{what}``."""
    starts = what[:1].isdigit() or what[:1] in "+-"
    return (joined if starts and ENDS_IN_A_NUMBER.search(name) else apart).format(name=name, what=what)


def changed(sides: list[Side], heard: dict[str, int] | None) -> list[Side]:
    """The player's side, and the sides whose total is not the one last heard (``heard``, then brought up to
    date); every side where nothing was heard."""
    if heard is None:
        return sides
    said = [s for s in sides if s.mine or heard.get(s.name) != s.total]
    heard.update({s.name: s.total for s in sides})
    return said


def totals_said(sides: list[Side]) -> str:
    """Every side's total, the player's (or the player's team's) first: "you 19, bia 20, bot 3 has 22"."""
    return ", ".join(side.said() for side in sides)


def seats(model: TableModel, held: list[tuple[int, int, bool]]) -> list[Side]:
    """Seats and their totals, the player first then the others in the order of play after them; a seat with
    nothing left and out of the match is left out (it holds nothing), the player never."""
    me = model.seat
    order = sorted(held, key=lambda h: (h[0] - (me or 0)) % max(1, len(model.summary.seats) or len(held)))
    out = []
    for seat, total, out_of_it in order:
        if seat == me:
            out.append(Side(model.name(seat), total, mine=True, template=_("you {n}")))
        elif not out_of_it:
            out.append(Side(model.name(seat), total))
    return out


@dataclass
class Pots:
    """The pots of a hand as they are won (Pif Paf's side pots too), said together with the totals once the hand
    is over."""

    won: list[str] = field(default_factory=list)


def pot_won(model: TableModel, seat: int, chips: int, uncontested: bool) -> str:
    """Who wins a pot and how much; ``uncontested``: won because everyone else passed or folded (the verbose
    level says so; the terse level has just said each of them pass or fold)."""
    if seat == model.seat:
        return (_("You win {chips}, uncontested") if uncontested else _("You win {chips}")).format(chips=chips)
    return (_("{name} wins {chips}, uncontested") if uncontested else _("{name} wins {chips}")).format(
        name=model.name(seat), chips=chips)


@dataclass(frozen=True)
class Fold:
    """Another's turn at the pile: what they took from it ("" from the stock; "yours", "it": the discard just heard;
    else the card, named) and the card they discarded; the player's discard taken without a name ("Yours taken")
    where only the next seat may take it (Chinchón: no claims)."""

    name: str
    took: str
    taken: str
    card: str

    def said(self, discard: bool) -> str:
        """The turn, its discard named only where ``discard`` (a discard the next seat drew over is out of play:
        ``last`` has it)."""
        if not self.took:
            return name_then(self.name, self.card, _("{name}, {what}"), _("{name} discards {what}")) if discard else ""
        if self.took == "yours" and not self.name:
            return (_("Yours taken for {card}") if discard else _("Yours taken")).format(card=self.card)
        if discard:
            template = {"yours": _("{name} takes yours for {card}"), "it": _("{name} takes it for {card}")}
            return template.get(self.took, _("{name} takes {taken} for {card}")).format(
                name=self.name, taken=self.taken, card=self.card)
        template = {"yours": _("{name} takes yours"), "it": _("{name} takes it")}
        return template.get(self.took, _("{name} takes {taken}")).format(name=self.name, taken=self.taken)


@dataclass
class Folded:
    """The others' draws and discards since the player's last turn, to be said as one line: each card taken from
    the pile, and the discards a player can still take or just saw taken (the last one, the pile's top now; one the
    next seat took); a discard the next seat drew over from the stock is out of play, and goes unsaid."""

    moves: list[Fold] = field(default_factory=list)
    seats: set[int] = field(default_factory=set)
    taken: dict[int, str] = field(default_factory=dict)
    """A seat's card taken from the pile this turn, said with its discard."""

    def line(self, taken_only: bool = False, turn: bool = True) -> str:
        """The line; ``taken_only`` (a family's choice, ``Family.taken_only``): the cards taken from the pile
        alone, each with the card given for it where that is still in play, and at the player's turn (``turn``) the
        pile's top."""
        last = len(self.moves) - 1
        if taken_only:
            said = self._taken(turn)
        else:
            said = [m.said(n == last or self.moves[n + 1].took == "it") for n, m in enumerate(self.moves)]
        said = [s for s in said if s]
        line = "; ".join(said) + "." if said else ""  # a name and a card: a discard, as ever
        pile = _("pile: {card}").partition("{")[0]
        return line[:1].upper() + line[1:] if pile and line.startswith(pile) else line  # the top alone

    def _taken(self, turn: bool) -> list[str]:
        """Each card taken from the pile (who took which, for what: the card given is said where the next seat took
        it or it is the pile's top), and at the player's turn the top a draw from the stock left: a discard the next
        seat covered is unsaid (``last`` has it)."""
        said: list[str] = []
        heard = False  # the card on the pile was just said (as given for one taken): "it" is that card
        last = len(self.moves) - 1
        for n, m in enumerate(self.moves):
            keep = (n == last and turn) or (n < last and self.moves[n + 1].took == "it")
            if not m.took:
                said.append(_("pile: {card}").format(card=m.card) if n == last and turn else "")
                heard = False
                continue
            took = m.took if m.took == "yours" or heard else "card"
            said.append(Fold(m.name, took, m.taken, m.card).said(keep))
            heard = keep
        return said


@dataclass
class Played:
    """Another's card played face up at truco, said with the cards played right after it in the same trick: the
    first by its seat's name, the next ones by the card alone, without a verb ("bia, 7 coins, knight clubs, 4
    swords"), the seats playing in the table's order."""

    name: str
    """"" where the first card follows the player's own in the trick (the seat after theirs), or at a table of two
    (the only opponent): no name needed."""
    cards: list[str]
    to_me: bool = False
    """The last card is the seat's right before the player's (``runs_to_me``): the next card of the trick is the
    player's, so counting back from them says whose each card is, and the first needs no name."""

    def said(self) -> str:
        if not self.name or self.to_me:  # "King clubs, 2 swords": the seats before (or after) the player's, in order
            line = ", ".join(self.cards)
            return line[:1].upper() + line[1:]
        first = name_then(self.name, self.cards[0], _("{name}, {what}"), _("{name} plays {what}"))
        if len(self.cards) == 1:
            return first
        return ", ".join([first, *self.cards[1:]])


@dataclass(frozen=True)
class Tengo:
    """Another's envido said ("bot 2: Tengo 29"): held back with the moves, said before the player's turn (to
    answer it they need the best so far), and dropped once the envido is won: its result says the winning points."""

    said_as: str
    points: int = 0

    def said(self) -> str:
        return self.said_as


class Part(Protocol):
    """A part of the line that says the others' moves together (a bet, cards played, hands rejected)."""

    def said(self) -> str: ...


class Ear(Protocol):
    """The line mode's narrator (``lines.narration.Narrator``) as a family's terse words see it: what waits to be
    said and what was heard at the table, which a family's hooks read and keep up to date."""

    moves: list[str | Part]
    later: list[Callable[[TableModel], str]]
    ended: bool
    played: int | None
    called: set[int]
    tengos: set[int]
    signals: list[str]
    unheard: bool
    received: list[str]
    folded: Folded
    top: tuple[int, str] | None

    def before(self, said: list[str]) -> list[str]: ...

    def flush(self, model: TableModel, turn: bool = True) -> str: ...

    def drew(self, model: TableModel, card: str) -> str: ...

    def speak(self, text: str, stop: bool = True, short: bool = False) -> str: ...


@dataclass(frozen=True)
class Family:
    """What one family says in the shape every game is told in."""

    view: type[Message]
    """Its view's message on the wire (``View.game``), by which a table's family is found."""
    sides: Callable[[TableModel], list[Side]]
    """Every side and its total, the player's first."""
    unit: Callable[[TableModel], str]
    """What a total counts ("chips", "points"), for ``score``."""
    ends: Callable[[Message], bool]
    """Whether an event ends a hand here (its result is said once the view after it is in)."""
    result: Callable[[TableModel, Message, list[str], bool, Callable[[str], str], dict[str, int] | None], str]
    """The sentence that ends a hand, from the event that ends it, the view after it and the pots won in it:
    what won it and every side's total (``full``: the verbose level's, with why where the family says it); the
    fifth argument says a piece of the screen's text as it is heard (``lines.sentences.spoken``, unstopped); the
    last, the totals heard at the table so far, where only the changed ones are said (``result_said``)."""
    redealt: Callable[[TableModel, Message], str | None] = lambda _model, _body: None
    """A hand dealt again, with why; None for an event that is not one."""
    pot_won: Callable[[TableModel, Message, bool], str | None] = lambda _model, _body, _full: None
    """A pot won in the middle of a hand's end (Pif Paf's pots, each with who won it), said with the result; None
    for an event that is not one."""
    pot: Callable[[TableModel], int] = lambda _model: 0
    """The chips in the pot now, for ``score`` (0: none, or a family without one)."""
    seat_held: Callable[[TableModel, table_pb2.View, int], list[str]] = lambda _model, _view, _seat: []
    """What a seat holds in a view, each part in words ("49 chips", "9 cards"), for the table's seat lines."""
    taken_only: Callable[[TableModel], bool] = lambda _model: False
    """Whether the terse level's line of the others' draws and discards says only the cards taken from the pile
    and, at the player's turn, the pile's top (Chinchón: a discard the next seat covers changes no choice); else
    every discard still in play as well."""
    said: Callable[[TableModel, Message], str | None] = lambda _model, _body: None
    """The terse level's words for one of the family's own events where they are not the log's, its cards as the
    screen writes them (the line mode names them); "" to say nothing of it; None: the log's own words."""
    stacks: Callable[[table_pb2.View], dict[int, int]] | None = None
    """Each seat's chips or points in a view, where who is still in decides who deals next (``client.fairness``);
    None: the deal passes on round the table whatever a seat holds (the trucos)."""
    on_table: Callable[[TableModel, table_pb2.View, bool], list[str]] = lambda _model, _view, _full: []
    """What is on the table now, in words (the ``table`` command): the pot, the pile and the stock, the trick;
    ``full``: what stands all hand long (the flip, the stake) as well."""
    hand: Callable[[TableModel, table_pb2.View, Sequence[str | None]], str] = lambda _model, _view, _slots: _(
        "You hold no cards.")
    """The ``hand`` command's words: the cards the player holds, in the order of their numbers (``slots``: a hand
    kept by the places its cards were dealt in)."""
    cards: Callable[[table_pb2.View], list[str]] | None = None
    """The player's cards as the line mode numbers them (``card 2``, an action's number); None: cards are not
    played by their number here (Cacho's)."""
    by_place: bool = False
    """A card keeps the place it was dealt in, a played one's place left empty (the trucos: ``dealt_slots``), as
    the screen's card keys do; else the hand is numbered as the view orders it."""
    claims: bool = False
    """A turn whose only choice is to pass is a claim window the player can only let go (the rummy games' discard
    claimed): the terse level does not call it a turn."""
    hand_at_turn: bool = False
    """The verbose level says the hand as the player's turn begins (a rummy hand is said with what was drawn)."""
    hint_cards: Callable[[table_pb2.View], tuple[list[str], str]] | None = None
    """The cards a meld hint may be asked of and the card just drawn ("" for none), where the family's games give
    meld hints (``hint``); None where they give none."""
    events: type[Message] | None = None
    """Its events' message on the wire (``Event.body``), by which an event's family is found
    (``models.played_after``)."""
    played: Callable[[Message], int | None] = lambda _body: None
    """The seat that plays a card in one of its events, whose name the trick keeps (``TableModel.played_by``);
    None for an event that plays none."""
    starts_over: Callable[[Message], bool] = lambda _body: False
    """An event within a hand after which the names kept with the trick's cards start over (a pica-pica hand's next
    round)."""
    known_turn: Callable[[TableModel, frozenset[str], bool], bool] = lambda _model, _kinds, _first: False
    """Whether a turn, its choices' kinds being these (those on offer at every turn left out; each kind's number
    heard at this table before), offers exactly what the player knows from what was just said: the answers to the
    call just heard (Quiero, No and its raises), a card to play in a trick, a draw from the stock or the pile whose
    top was just said. The terse level rings such a turn in without naming its choices (enter names them). The
    last argument: the turn is the hand's first (a truco hand's says its cards)."""

    heard: Callable[[Ear, TableModel, Message], None] = lambda _ear, _model, _body: None
    """What the terse level keeps of an event before it is said (the trucos: whose card was played last, the
    player's own envido points)."""
    move: Callable[[Ear, TableModel, Message, int], Part | None] = lambda _ear, _model, _body, _seat: None
    """Another's move said together with the others' (a card played face up, a "Tengo"), from its seat; None for
    an event that is not one."""
    runs_to: Callable[[TableModel, int | None], bool] = lambda _model, _seat: False
    """Whether a seat plays right before the player, so that a line of cards ending with its card needs no name
    (``Played.to_me``)."""
    gathered: Callable[[Ear, TableModel, Message], bool] = lambda _ear, _model, _body: False
    """Whether an event was gathered into the others' moves, said later as one (a mão's rejected hands)."""
    unheeded: Callable[[TableModel, Message], bool] = lambda _model, _body: False
    """Another's move that changes no choice of the player's, out of the hand, and is left unsaid (Cacho's)."""
    discarded: Callable[[Ear, TableModel, Message], list[str]] = lambda _ear, _model, _body: []
    """Another's draw or discard folded into the round's line (``Folded``), and what is said now."""
    on_top: Callable[[Ear, Message], None] = lambda _ear, _body: None
    """Keeps the pile's top (``Ear.top``) as an event changes it."""
    terse: Callable[[Ear, TableModel, Message], str | None] = lambda _ear, _model, _body: None
    """The terse level's words for one of the family's events that depend on what was heard before it ("" to say
    nothing now; None: the log's own words)."""
    log_said: Callable[[TableModel, Message, str], str] = lambda _model, _body, said: said
    """The log's words for an event as the terse level says them (the other team's call by its words alone)."""
    gives: Callable[[Message], bool] = lambda _body: False
    """Whether the player's own event says what a side takes (a refusal's points): a result, not an echo."""
    team: Callable[[TableModel], int | None] = lambda _model: None
    """The player's team, where the family plays in teams."""
    dealt: Callable[[Ear, TableModel, list[str]], str | None] = lambda _ear, _model, _cards: None
    """The words of a new hand dealt the player ``cards`` where the family says it otherwise than "New hand: ..."
    ("" to say it later, with a turn); None: those words."""

def result_said(won: str, model: TableModel, family: Family, heard: dict[str, int] | None = None) -> str:
    """A hand's result: what won it, then every side's total, the player's first; with ``heard`` (the totals last
    said at this table, by side, kept up to date here), the player's and those that changed since alone: a total
    heard at the last result and the same now is not news (``score`` says them all)."""
    totals = totals_said(changed(family.sides(model), heard))
    return (_("{won}; {totals}.").format(won=won, totals=totals) if totals else f"{won}.")


FAMILIES: dict[type[Message], Family] = {}
"""Each family's entry, by its view's message (the wire's family: ``View.game``), from the games that declare it."""
_loaded: list[bool] = []


def _load() -> None:
    if not _loaded:
        _loaded.append(True)
        for family in gamebook.families():
            FAMILIES.setdefault(family.view, family)


def family_of(model: TableModel) -> Family | None:
    """The family of the table's view, as its games declare it; before a view with a game in it (a table's first
    hand begins while its view holds the seats alone: Chinchón's card turned up comes then), the one the table's
    game declares; None for a family no game this client knows declares."""
    family = family_for(model.view) if model.view is not None else None
    if family is not None:
        return family
    game = gamebook.known().get(model.game)  # no view, or one of seats alone (no game in it yet)
    return game.lines() if game is not None and game.lines is not None else None


def family_for(view: table_pb2.View) -> Family | None:
    """The family of a view (``family_of``), by its message on the wire."""
    kind = view.WhichOneof("game")
    if not kind:
        return None
    _load()
    return FAMILIES.get(type(getattr(view, kind)))


def numbered_hand(model: TableModel, slots: Sequence[str | None] = ()) -> list[str | None] | None:
    """The player's hand as the line mode numbers its cards (``Family.cards``): kept by the places they were dealt
    in (``slots``: None where a card was played) where the family keeps them so, else in the view's order; None
    where cards are not played by their number (or no hand is in the view)."""
    view = model.view
    family = family_for(view) if view is not None else None
    if view is None or family is None or family.cards is None:
        return None
    cards = family.cards(view)
    if family.by_place:
        return list(slots) if slots and set(cards) <= {c for c in slots if c is not None} else list(cards)
    return list(cards)


def pot_of(model: TableModel, body: Message, full: bool) -> str | None:
    """A pot won in the middle of a hand's end, said with the result (``Family.pot_won``)."""
    family = family_of(model)
    return family.pot_won(model, body, full) if family is not None else None


def score_said(model: TableModel) -> str:
    """The ``score`` command: every side's total in one line, the player's first, and the pot where there is
    one."""
    family = family_of(model)
    sides = family.sides(model) if family is not None else []
    if not sides or family is None:
        return _("No score yet: no hand has been dealt.")
    said = _("{totals} ({unit}).").format(totals=totals_said(sides), unit=family.unit(model))
    pot = family.pot(model)
    if pot:
        said += " " + _("The pot holds {pot}.").format(pot=pot)
    return said[:1].upper() + said[1:]
