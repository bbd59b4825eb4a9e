"""What every rummy game shares: a hand dealt and played once here.

Each game declares what it is (``RummyGame.table``: its pack, the cards dealt, how a hand's end is scored,
who may claim); the base reads it. Pif Paf and Cacheta deal nine cards each from two French decks.
The cards go one at a time from the dealer's left; the rest is the stock. In turn a
player draws (the stock, or the discard pile's top card once there is one), then discards
or knocks: knocking shows every card in melds, ten with no discard or nine and a discard.
The engine finds the split; nobody arranges a hand by hand. When the stock runs out, the
pile less its top card is turned over unshuffled to become the stock.

After every discard a claim window opens to everyone, so that opening it reveals nothing.
It waits only on the players who may take the discard (Pif Paf: it completes their hand;
Cacheta: they declared na boa before it) and closes as soon as they have all answered, at
once when nobody may. The first claimant after the discarder in turn order takes it, then
knocks: the knock is an action of its own, so a hand history explains itself.

Each game fills in a few hooks: which melds count (``melder``), who may take a discard
(``claim_refusal``), what a failed claim costs (``claim_failed``), what the hand's end pays
(``settle``), and what happens around the deal (``prepare``, ``before_cards``,
``after_cards``). Views, events and the hand history are made here, once; their records
are in ``engine.rummy.records``.
"""

from __future__ import annotations

import functools
import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, TypeVar

from cardtui.engine.cards import Card, notation, pack, shuffled
from cardtui.engine.core import (
    Action,
    Event,
    Game,
    GameOptions,
    IllegalAction,
    InvalidOptions,
    JsonObject,
    MatchState,
    NotYourTurn,
    SeatInfo,
    check_seat,
    only,
)
from cardtui.engine.events import Acted, CardsDealt, HandStarted
from cardtui.engine.fairness import Seed, hand_rng
from cardtui.engine.history import HandLog
from cardtui.engine.rummy.melds import Knock, Melder, acting_wild, index
from cardtui.engine.rummy.records import (
    CLAIM,
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    STOCK,
    CachetaPlace,
    DrawSource,
    Phase,
    PifPafBetting,
    RummyDealt,
    RummyDiscarded,
    RummyDrawnCard,
    RummyDrew,
    RummyKnock,
    RummyKnocked,
    RummyMeld,
    RummyMeldRules,
    RummyResult,
    RummySeat,
    RummyStockRebuilt,
    RummyTable,
    RummyView,
    RummyWindow,
    RummyWindowClosed,
    RummyWindowOpened,
    SeatStatus,
)

DRAWS = {source: Action(DRAW, value=source.value) for source in DrawSource}
"""The two draws, one record each, as every hand's log names them: a hand the stock keeps going holds thousands."""


@functools.cache
def discard_of(card: Card) -> Action:
    """The discard of ``card``, one record for every hand's log that names it (see ``DRAWS``)."""
    return Action(DISCARD, cards=(card,))


@functools.cache
def drawn_keys(card: Card) -> Mapping[str, str]:
    """What a draw's entry in a hand's log names, one mapping for every entry that names ``card`` (see ``DRAWS``)."""
    return {"card": str(card)}


SHORTEST_WINDOW = 500
"""The shortest claim window, in milliseconds: a person needs about that long to see a discard."""


def check_claim_ms(claim_ms: int) -> None:
    """A claim window lasts 0 ms (the table turned windows off: nobody claims out of turn) or at
    least ``SHORTEST_WINDOW``."""
    if 0 < claim_ms < SHORTEST_WINDOW:
        raise InvalidOptions("A claim window lasts 0 ms (no windows) or from {min} ms up.", min=str(SHORTEST_WINDOW))


# -- state ---------------------------------------------------------------------------------
@dataclass
class Window:
    """A claim window on one discard: who may claim it, who still has to answer, who claimed."""

    discarder: int
    card: Card
    number: int
    """Which discard of the hand this is (the first is 1)."""
    order: list[int]
    """Every live seat after the discarder, in turn order: those it is open to."""
    claimers: list[int]
    """Those who may claim, in turn order: the only seats it waits on."""
    pending: set[int]
    claims: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Seat → its claim's history entry, to note the outcome in."""
    answered: set[int] = field(default_factory=set)
    """Seats that have answered (claimers, and on a timed table anyone it is open to who let it go)."""
    settled: bool = False
    """Every claimer has answered and nobody takes the card: on a timed table the window waits
    out its time all the same (``RummyGame.lapse`` closes it)."""


class RummyState(MatchState):
    """One match: chips or points carry over; each hand is dealt from its own rng."""

    def __init__(self, seats: Sequence[SeatInfo], stack: int, claim_ms: int) -> None:
        self.seats = tuple(seats)
        self.n = len(seats)
        self.stacks = [stack] * self.n
        self.claim_ms = claim_ms
        self.timed = False
        """A clock runs this match's windows (a server's table): each stays open its whole
        ``claim_ms`` whoever may claim, so that how long it stays says nothing; ``lapse`` closes
        it. Without a clock (simulations, replays) a window nobody can claim closes at once:
        the history is the same either way."""
        self.dealer = 0
        self.hand_no = 0
        self.last_history: JsonObject | None = None
        self.new_hand(random.Random(0))

    def new_hand(self, rng: random.Random) -> None:
        self.rng = rng
        self.stock: list[Card] = []
        self.pile: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in self.seats]
        self.taken: list[list[Card]] = [[] for _ in self.seats]
        self.known: list[Counter[Card]] = [Counter() for _ in self.seats]
        """Copies each seat is known to hold: taken from the pile and not discarded since."""
        self.playing: list[int] = []
        """Seats dealt in this hand, the dealer's left first."""
        self.out: set[int] = set()
        """Seats no longer in the hand (folded)."""
        self.phase = Phase.OVER
        self.turn: int | None = None
        self.drawn: Card | None = None
        self.discards = 0
        self.window: Window | None = None
        self.claimed: Card | None = None
        self.knock: RummyKnock | None = None
        self.result: RummyResult | None = None
        self.log: HandLog | None = None
        self._knocks: tuple[tuple[int, tuple[Card, ...], Card | None], list[Knock]] | None = None
        self._arranged: dict[int, Arranged] = {}
        self._completing: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}
        """Per seat, what the meld search said of the last hand it was asked about."""

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    @property
    def live(self) -> list[int]:
        return [s for s in self.playing if s not in self.out]

    def after(self, seat: int) -> list[int]:
        """Live seats in turn order starting after ``seat``."""
        order = self.playing
        i = order.index(seat)
        return [s for s in order[i + 1 :] + order[:i] if s not in self.out]

    @property
    def hand_log(self) -> HandLog:
        assert self.log is not None
        return self.log


@dataclass(frozen=True, slots=True)
class Arranged:
    """A hand's best melds and loose cards, kept while the hand does not change."""

    hand: tuple[Card, ...]
    melds: tuple[RummyMeld, ...]
    loose: tuple[Card, ...]


RS = TypeVar("RS", bound=RummyState)
RO = TypeVar("RO", bound=GameOptions)


class RummyGame(Game[RS, RO, RummyView]):
    """Dealing, drawing, discarding, knocking and claim windows, for Pif Paf and Cacheta."""

    family_name: ClassVar[str] = "rummy"
    claim_type: ClassVar[str] = CLAIM
    """The action that takes a discard out of turn: ``claim`` (Pif Paf) or ``cut`` (Cacheta)."""

    # -- hooks the games fill in ---------------------------------------------------------
    @abstractmethod
    def table_of(self, options: RO) -> RummyTable:
        """What the game at a table with ``options`` is: its pack, the cards dealt, its scoring, who may claim."""

    @abstractmethod
    def table(self, state: RS) -> RummyTable:
        """What the game at this table is (``table_of`` its options)."""

    def pack_of(self, options: RO) -> str:
        return self.table_of(options).pack

    @abstractmethod
    def melder(self, state: RS) -> Melder: ...

    @abstractmethod
    def claim_refusal(self, state: RS, seat: int) -> str | None:
        """Why ``seat`` may not take the open window's discard (a sentence), or None if it may."""

    def may_claim(self, state: RS, seat: int) -> bool:
        """Whether ``seat`` may take the open window's discard: ``claim_refusal`` finds nothing. A game whose
        refusal searches the hand asks its cheapest question first here, where no sentence is wanted (each discard
        asks it of every other seat)."""
        return self.claim_refusal(state, seat) is None

    @abstractmethod
    def settle(self, state: RS, seat: int) -> list[Event]:
        """``seat`` has knocked (``state.knock``): pay the hand and end it."""

    def claim_failed(self, state: RS, seat: int) -> list[Event]:
        """A claim that cannot knock when the window resolves (Pif Paf never lets one through)."""
        return []

    def knock_allowed(self, state: RS, knock: Knock) -> bool:
        """Whether this way of going out is allowed now (Pif Paf: a claim must use the claimed card)."""
        return True

    def prepare(self, state: RS) -> list[Event]:
        """Before the hand's seats are chosen (Pif Paf: rebuys)."""
        return []

    def before_cards(self, state: RS) -> list[Event]:
        """After the hand starts, before the cards are dealt (Pif Paf: the antes)."""
        return []

    @abstractmethod
    def after_cards(self, state: RS) -> list[Event]:
        """After the deal: Pif Paf's betting round, Cacheta's flip; then ``start_play``."""

    def head(self, state: RS) -> dict[str, Any]:
        """Keys the hand history adds to its head."""
        return {}

    def first_dealer(self, state: RS) -> int:
        return 0

    def set_start(self, state: RS, start: Sequence[int]) -> None:
        state.stacks = list(start)

    def in_game(self, state: RS, seat: int) -> bool:
        """Whether ``seat`` is still in the match, to be dealt in: with chips or points left, unless the game says
        otherwise (Chinchón: not past the target)."""
        return state.stacks[seat] > 0

    # -- dealing ---------------------------------------------------------------------------
    def deal(self, state: RS, seed: Seed, dealer: int) -> list[Event]:
        """The table's hand size in cards each, from the end of the shuffled pack, from ``dealer + 1`` (docs/deal.md
        §10.2)."""
        state.hand_no += 1
        state.dealer = dealer
        state.new_hand(hand_rng(seed))
        prepared = self.prepare(state)
        order = [(dealer + 1 + i) % state.n for i in range(state.n)]
        state.playing = [s for s in order if self.in_game(state, s)]
        state.log = HandLog(self.name, self.option_values(state), state.hand_no, seed, dealer, state.seats,
                            state.stacks)
        events = [Event(HandStarted(state.hand_no, dealer)), *prepared, *self.before_cards(state)]
        state.log.top.update(self.head(state))
        table = self.table(state)
        state.stock = shuffled(pack(table.pack), state.rng)
        for _ in range(table.hand_size):
            for s in state.playing:
                card = state.stock.pop()
                state.hands[s].append(card)
                state.log.dealt(s, card)
        events.append(Event(RummyDealt(tuple(state.playing), table.hand_size)))
        events += [Event(CardsDealt(s, tuple(state.hands[s])), only(s)) for s in state.playing]
        return events + self.after_cards(state)

    @abstractmethod
    def option_values(self, state: RS) -> dict[str, Any]: ...

    def start_play(self, state: RS) -> list[Event]:
        state.phase = Phase.DRAW
        state.turn = state.live[0]
        return []

    # -- the one check behind legal_actions and apply --------------------------------------
    def candidates(self, state: RS, seat: int) -> list[Action]:
        """Every action worth checking for ``seat`` now; ``legal_actions`` keeps those ``refusal`` allows."""
        phase = state.phase
        if phase is Phase.CLAIM:
            return [Action(PASS), Action(self.claim_type)]
        if seat != state.turn:
            return []
        if phase is Phase.DRAW:
            return [Action(DRAW, value=STOCK), Action(DRAW, value=PILE)]
        acts = []
        if phase is Phase.DISCARD:
            acts = [Action(DISCARD, cards=(c,)) for c in sorted(set(state.hands[seat]), key=index)]
        if phase in (Phase.DISCARD, Phase.KNOCK):
            acts += [Action(KNOCK, cards=() if k.discard is None else (k.discard,)) for k in self.knocks(state, seat)]
        return acts

    def legal_actions(self, state: RS, seat: int) -> list[Action]:
        if state.result is not None or not 0 <= seat < state.n:
            return []
        return [a for a in self.candidates(state, seat) if self.refusal(state, seat, a) is None]

    def refusal(self, state: RS, seat: int, action: Action) -> IllegalAction | None:
        """Why ``seat`` may not take ``action`` now (a sentence a person can read), or None if it may."""
        if state.result is not None:
            return NotYourTurn("The hand is over.")
        if seat not in state.live:
            return NotYourTurn("You are not in this hand.")
        phase = state.phase
        if phase is Phase.CLAIM:
            return self._window_refusal(state, seat, action)
        if seat != state.turn:
            if state.turn is None:
                return NotYourTurn("It is nobody's turn.")
            return NotYourTurn("It is {name}'s turn, not yours.", name=state.name(state.turn))
        kind = action.type
        if phase is Phase.DRAW:
            if kind != DRAW or action.cards or action.amount:
                return IllegalAction("It is your turn to draw: from the stock or the discard pile.")
            if action.value == PILE:
                return None if state.pile else IllegalAction("The discard pile is empty: draw from the stock.")
            if action.value == STOCK:
                if state.stock or len(state.pile) > 1:
                    return None
                return IllegalAction("The stock is empty and cannot be rebuilt: take the discard.")
            return IllegalAction("Draw from the stock or from the discard pile.")
        if phase is Phase.KNOCK and kind != KNOCK:
            return IllegalAction("You took {card} out of turn: now you knock.", card=state.claimed)
        if kind == DISCARD and phase is Phase.DISCARD:
            if len(action.cards) != 1 or action.amount or action.cards[0] not in state.hands[seat]:
                return IllegalAction("Discard exactly one card from your hand.")
            return None
        if kind == KNOCK:
            if len(action.cards) > 1 or action.amount:
                return IllegalAction("A knock names at most one card: the discard, or none when all ten meld.")
            if self._find_knock(state, seat, action.cards) is None:
                return IllegalAction(self._knock_problem(state, seat, action.cards))
            return None
        return IllegalAction("After drawing you discard or knock; {kind} is not possible now.", kind=repr(kind))

    def _window_refusal(self, state: RS, seat: int, action: Action) -> IllegalAction | None:
        w = state.window
        assert w is not None
        kind = action.type
        claim = self.claim_type
        if seat == w.discarder:
            return NotYourTurn("You discarded {card}: the window is for the others.", card=w.card)
        if kind == claim and seat not in w.claimers:
            refusal = self.claim_refusal(state, seat)
            return IllegalAction(refusal) if refusal else IllegalAction("You may not take {card} now.", card=w.card)
        if seat not in w.claimers:
            if state.timed and seat in w.order and kind == PASS and not (action.cards or action.amount or action.value):
                # On a timed table anyone may let a window go, so that an answer says nothing of the cards.
                return NotYourTurn("You have already answered this claim window.") if seat in w.answered else None
            if state.timed and seat in w.order:
                return NotYourTurn("The window on {card} is open: let it go, or wait until it closes.", card=w.card)
            return NotYourTurn("The window on {card} waits only on those who may take it: you have nothing to"
                               " answer.", card=w.card)
        if kind not in (PASS, claim) or action.cards or action.amount or action.value:
            if claim == "cut":
                return IllegalAction("The window on {card} is open: cut it or let it go.", card=w.card)
            return IllegalAction("The window on {card} is open: claim it or let it go.", card=w.card)
        if seat not in w.pending:
            return NotYourTurn("You have already answered this claim window.")
        return None

    def _knock_problem(self, state: RS, seat: int, cards: Sequence[Card]) -> str:
        if cards and cards[0] not in state.hands[seat]:
            return f"You do not hold {cards[0]}."
        if not any(self.knock_allowed(state, k) for k in self.knocks(state, seat)):
            return "Your cards do not all form melds yet: you cannot knock."
        if not cards:
            return "Not all ten of your cards meld: name the card you discard."
        return f"Discarding {cards[0]} does not leave the rest all melded."

    def knocks(self, state: RS, seat: int) -> list[Knock]:
        """Every way ``seat``'s ten cards go out that is allowed now (searched once per hand held)."""
        hand = tuple(state.hands[seat])
        key = (seat, hand, state.claimed)
        cached = state._knocks
        if cached is not None and cached[0] == key:
            return cached[1]
        drawn = len(hand) == self.table(state).hand_size + 1
        found = [k for k in self.melder(state).knocks(hand) if self.knock_allowed(state, k)] if drawn else []
        state._knocks = (key, found)
        return found

    def _find_knock(self, state: RS, seat: int, cards: Sequence[Card]) -> Knock | None:
        options = self.knocks(state, seat)
        if not cards:
            return next((k for k in options if k.discard is None), None)
        return next((k for k in options if k.discard == cards[0]), None)

    # -- play ------------------------------------------------------------------------------
    def apply(self, state: RS, seat: int, action: Action) -> list[Event]:
        check_seat(seat, state.n)
        err = self.refusal(state, seat, action)
        if err is not None:
            raise err
        return self.perform(state, seat, action)

    def perform(self, state: RS, seat: int, action: Action) -> list[Event]:
        """Do an action ``refusal`` allowed."""
        if state.phase is Phase.CLAIM:
            return self._answer(state, seat, action)
        if action.type == DRAW:
            return self._draw(state, seat, DrawSource(action.value))
        if action.type == DISCARD:
            return self._discard(state, seat, action.cards[0])
        knock = self._find_knock(state, seat, action.cards)
        assert knock is not None
        return self._knock(state, seat, knock)

    def _draw(self, state: RS, seat: int, source: DrawSource) -> list[Event]:
        log = state.hand_log
        events: list[Event] = []
        if source is DrawSource.PILE:
            card = state.pile.pop()
            state.taken[seat].append(card)
            state.known[seat][card] += 1
            events.append(Event(RummyDrew(seat, source, card)))
        else:
            if not state.stock:
                events.append(self._rebuild(state))
            card = state.stock.pop()
            events.append(Event(RummyDrew(seat, source, None)))
            events.append(Event(RummyDrawnCard(seat, card), only(seat)))
        log.shared(seat, DRAWS[source], drawn_keys(card))
        state.hands[seat].append(card)
        state.drawn = card
        state.phase = Phase.DISCARD
        return events

    def _rebuild(self, state: RS) -> Event:
        """The pile less its top card, turned over unshuffled: its first discard is the new stock's top
        (docs/deal.md §10.2 step 5)."""
        top = state.pile.pop()
        state.stock = state.pile[::-1]
        state.pile = [top]
        # The dealer's entry names the new stock from its top down, so a reader can follow every draw.
        state.hand_log.by_dealer("rebuild", state.stock[::-1], top=str(top))
        return Event(RummyStockRebuilt(len(state.stock)))

    def _discard(self, state: RS, seat: int, card: Card) -> list[Event]:
        state.hand_log.act(seat, discard_of(card))
        state.hands[seat].remove(card)
        if state.known[seat][card]:
            state.known[seat][card] -= 1
        state.pile.append(card)
        state.drawn = None
        state.discards += 1
        if state.claim_ms == 0:  # the table turned claim windows off: the next seat draws
            state.phase = Phase.DRAW
            state.turn = state.after(seat)[0]
            return [Event(RummyDiscarded(seat, card))]
        return [Event(RummyDiscarded(seat, card)), *self._open_window(state, seat, card)]

    def _open_window(self, state: RS, discarder: int, card: Card) -> list[Event]:
        order = state.after(discarder)
        w = Window(discarder, card, state.discards, order, [], set())
        state.window = w
        state.phase = Phase.CLAIM
        state.turn = None
        w.claimers = [s for s in order if self.may_claim(state, s)]
        w.pending = set(w.claimers)
        return [Event(RummyWindowOpened(discarder, card)), *self._resolve(state)]

    def _answer(self, state: RS, seat: int, action: Action) -> list[Event]:
        w = state.window
        assert w is not None
        w.answered.add(seat)
        events = [Event(Acted(seat, Action(action.type)), only(seat))]
        if seat in w.claimers:  # a seat that could not take it and let it go (a timed window): nothing to record
            entry = state.hand_log.act(seat, Action(action.type), card=str(w.card))
            w.pending.discard(seat)
            if action.type != PASS:
                w.claims[seat] = entry
            events += self._resolve(state)
        if state.window is w and state.timed and w.answered >= set(w.order):
            events += self._resolve(state, lapsed=True)  # everyone it is open to has answered: its time is theirs
        return events

    def keep_time(self, state: RS) -> None:
        state.timed = True

    def catch_up(self, state: RS, seat: int, action: Action) -> list[Event]:
        """An action the open window does not take (the next seat's draw) shows its time ran out.
        Once nobody may still claim, an action the next seat may make on its turn too (Cacheta's na
        boa) is read as made on its turn: the state is the same either way. A pass is always the
        window's (a journal keeps the passes of those who could not claim; a history does not)."""
        w = state.window
        if state.phase is not Phase.CLAIM or w is None:
            return []
        if self.refusal(state, seat, action) is not None or (
                w.settled and seat == state.after(w.discarder)[0] and action.type != PASS):
            return self.lapse(state)
        return []

    def keep_outdated(self, state: RS, seat: int, action: Action) -> bool:
        """A pass after the window's card was taken, while the taker knocks, is kept as written:
        histories written before the passes stopped at the taker (``lapse``) hold those of the
        seats after it."""
        if action.type != PASS or state.phase is not Phase.KNOCK or state.claimed is None:
            return False
        state.hand_log.act(seat, Action(PASS), card=str(state.claimed))
        return True

    def lapse(self, state: RS) -> list[Event]:
        """A timed window's time is up: whoever may claim and has not answered lets it go (in the
        history, as a pass), and the window closes, or goes to the best claim.

        The passes are written one at a time in the window's order, and stop once a claim takes
        the card: a replay resolves the window as each pass arrives, so a pass written after the
        card was taken (a seat later in the order than the taker) would come when the taker is
        knocking, and the history would not replay."""
        w = state.window
        if state.phase is not Phase.CLAIM or w is None:
            return []
        events: list[Event] = []
        for s in w.claimers:
            if s in w.pending:
                state.hand_log.act(s, Action(PASS), card=str(w.card))
                w.pending.discard(s)
                w.answered.add(s)
                events += self._resolve(state)
                if state.window is not w:
                    return events  # taken: those after the taker were never asked
        return events + self._resolve(state, lapsed=True)

    def _resolve(self, state: RS, lapsed: bool = False) -> list[Event]:
        """Close the window once the best claim is certain: no one earlier may still claim. On a
        timed table a window nobody takes stays open until its time is up (``lapse``)."""
        w = state.window
        assert w is not None
        events: list[Event] = []
        if not w.settled:
            for s in w.claimers:
                if s in w.pending:
                    return events
                entry = w.claims.get(s)
                if entry is None or "outcome" in entry:
                    continue  # no claim, or one already burned while a later seat had yet to answer
                if self.melder(state).goes_out([*state.hands[s], w.card]):
                    entry["outcome"] = "took"
                    for later in w.claims.values():
                        later.setdefault("outcome", "too late")
                    return events + self._take(state, s)
                entry["outcome"] = "burned"
                events += self.claim_failed(state, s)
            w.settled = True
        if state.timed and not lapsed:
            return events
        state.window = None
        events.append(Event(RummyWindowClosed(w.card, None)))
        state.phase = Phase.DRAW
        state.turn = state.after(w.discarder)[0]
        return events

    def _take(self, state: RS, seat: int) -> list[Event]:
        """The claimant takes the discard out of turn; their knock is their next action."""
        w = state.window
        assert w is not None
        state.pile.pop()
        state.hands[seat].append(w.card)
        state.taken[seat].append(w.card)
        state.known[seat][w.card] += 1
        state.claimed = w.card
        state.window = None
        state.phase = Phase.KNOCK
        state.turn = seat
        return [Event(RummyWindowClosed(w.card, seat))]

    def _knock(self, state: RS, seat: int, knock: Knock) -> list[Event]:
        melder = self.melder(state)
        state.hand_log.act(seat, Action(KNOCK, cards=() if knock.discard is None else (knock.discard,)),
                           melds=[notation(m) for m in knock.melds])
        if knock.discard is not None:
            state.hands[seat].remove(knock.discard)
            state.pile.append(knock.discard)
        melds = tuple(RummyMeld(m, acting_wild(m, melder.rules, melder.wilds)) for m in knock.melds)
        state.knock = RummyKnock(seat, melds, knock.discard, state.claimed)
        state.window = None
        state.turn = None
        state.drawn = None
        events = [Event(RummyKnocked(seat, melds, knock.discard, state.claimed))]
        return events + self.settle(state, seat)

    def end_hand(self, state: RS, result: RummyResult, record: dict[str, Any], **more: Any) -> None:
        """The hand is over: keep its result and write its history (``record``: the result's keys)."""
        state.result = result
        state.phase = Phase.OVER
        state.turn = None
        state.window = None
        knock = result.knock
        record = {
            "deltas": {str(s): d for s, d in enumerate(result.deltas)},
            "winner": result.winner,
            **record,
            "knock": None if knock is None else {
                "seat": knock.seat,
                "melds": [notation(m.cards) for m in knock.melds],
                "discard": None if knock.discard is None else str(knock.discard),
                "claimed": None if knock.claimed is None else str(knock.claimed),
            },
        }
        state.last_history = state.hand_log.record(record, **more)

    # -- the contract's queries ---------------------------------------------------------------
    def to_act(self, state: RS) -> tuple[int, ...]:
        """The seats the game waits on: in a claim window, only those who may claim and have not answered."""
        if state.result is not None:
            return ()
        w = state.window
        if state.phase is Phase.CLAIM and w is not None:
            return tuple(s for s in w.claimers if s in w.pending)
        return () if state.turn is None else (state.turn,)

    def default_action(self, state: RS, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if state.phase is Phase.CLAIM and Action(PASS) in legal:
            return Action(PASS)
        if state.phase is Phase.DISCARD and legal:
            card = state.drawn if state.drawn in state.hands[seat] else state.hands[seat][-1]
            return Action(DISCARD, cards=(card,)) if card is not None else legal[0]
        if state.phase in (Phase.DRAW, Phase.KNOCK) and legal:
            return legal[0]
        raise IllegalAction("There is nothing for this seat to do.")

    def timeout_ms(self, state: RS) -> int | None:
        """A claim window is timed by the rules (``claim_ms``); letting it lapse is a pass, not a missed turn."""
        return state.claim_ms if state.phase is Phase.CLAIM else None

    def hand_over(self, state: RS) -> bool:
        return state.result is not None

    def history(self, state: RS) -> JsonObject | None:
        return state.last_history

    def scores(self, state: RS) -> tuple[int, ...]:
        return tuple(state.stacks)

    # -- views -------------------------------------------------------------------------------
    def seat_record(self, state: RS, s: int, put: int = 0, declared: bool = False, burned: bool = False) -> RummySeat:
        if s not in state.playing:
            status = SeatStatus.WAITING if self.in_game(state, s) else SeatStatus.OUT
        else:
            status = SeatStatus.FOLDED if s in state.out else SeatStatus.IN
        return RummySeat(s, state.name(s), state.stacks[s], put, status, len(state.hands[s]), declared, burned,
                         tuple(state.taken[s]), known=tuple(sorted(state.known[s].elements(), key=index)))

    def rules_record(self, state: RS) -> RummyMeldRules:
        rules = self.melder(state).rules
        return RummyMeldRules(rules.group, rules.ace_high, rules.wild_acts)

    def outs(self, state: RS, seat: int) -> tuple[Card, ...]:
        """Cards that let ``seat``'s nine go out and still have a copy in play.

        A copy is out of play when the seat can see or remember where it is: in its own hand,
        covered in the discard pile (the top may still be taken), known to be in another
        hand (taken from the pile and not discarded since), or turned out of play (Cacheta's flip).
        """
        hand = state.hands[seat]
        completing = self.completing(state, seat)
        if not completing:
            return ()
        gone = Counter(hand)
        gone.update(state.pile[:-1])
        gone.update(self.out_of_play(state))
        for s in state.playing:
            if s != seat:
                gone.update(state.known[s])
        return tuple(c for c in completing if gone[c] < 2)

    def arranged(self, state: RS, seat: int) -> Arranged:
        """The seat's best melds and loose cards, searched once per hand held."""
        hand = tuple(state.hands[seat])
        seen = state._arranged.get(seat)
        if seen is None or seen.hand != hand:
            melder = self.melder(state)
            grouped, rest = melder.arrange(hand)
            melds = tuple(RummyMeld(m, acting_wild(m, melder.rules, melder.wilds)) for m in grouped)
            seen = state._arranged[seat] = Arranged(hand, melds, rest)
        return seen

    def completing(self, state: RS, seat: int) -> tuple[Card, ...]:
        """Every card that lets the seat's nine cards go out (na boa when any), searched once per hand held."""
        hand = tuple(state.hands[seat])
        seen = state._completing.get(seat)
        if seen is None or seen[0] != hand:
            found = self.melder(state).completing(hand) if len(hand) == self.table(state).hand_size else ()
            seen = state._completing[seat] = (hand, found)
        return seen[1]

    def out_of_play(self, state: RS) -> tuple[Card, ...]:
        return ()

    def window_to_act(self, state: RS) -> tuple[int, ...]:
        w = state.window
        if state.phase is Phase.CLAIM and w is not None:
            return tuple(w.order)
        return self.to_act(state)

    def view(self, state: RS, seat: int | None) -> RummyView:
        seats = tuple(self.seat_record(state, s) for s in range(state.n))
        return self.build_view(state, seat, seats)

    def open_view(self, state: RS) -> RummyView:
        view = self.view(state, None)
        seats = tuple(replace(s, cards=tuple(sorted(state.hands[s.seat], key=index))) for s in view.seats)
        return replace(view, seats=seats)

    def build_view(
        self,
        state: RS,
        seat: int | None,
        seats: tuple[RummySeat, ...],
        pot: int = 0,
        betting: PifPafBetting | None = None,
        flip: Card | None = None,
        wilds: tuple[Card, ...] = (),
        standings: tuple[CachetaPlace, ...] = (),
    ) -> RummyView:
        """The view with the parts only one game fills in."""
        mine = tuple(state.hands[seat]) if seat is not None and seat in state.playing else ()
        melds: tuple[RummyMeld, ...] = ()
        loose: tuple[Card, ...] = ()
        outs: tuple[Card, ...] = ()
        can_knock = False
        live = seat is not None and seat in state.live and state.result is None
        if mine and live:
            assert seat is not None
            seen = self.arranged(state, seat)
            melds, loose = seen.melds, seen.loose
            size = self.table(state).hand_size
            if len(mine) == size + 1:
                can_knock = seat == state.turn and bool(self.knocks(state, seat))
            elif len(mine) == size:
                outs = self.outs(state, seat)
        w = state.window
        drawn = state.drawn if seat is not None and seat == state.turn and state.phase is Phase.DISCARD else None
        return RummyView(
            hand=state.hand_no,
            dealer=state.dealer,
            you=seat,
            to_act=self.window_to_act(state),
            hand_over=self.hand_over(state),
            match_over=self.match_over(state),
            phase=state.phase,
            turn=state.turn,
            rules=self.rules_record(state),
            table=self.table(state),
            seats=seats,
            cards=tuple(sorted(mine, key=index)),
            melds=melds,
            loose=loose,
            can_knock=can_knock,
            outs=outs,
            drawn=drawn,
            stock_count=len(state.stock),
            pile=tuple(state.pile),
            window=RummyWindow(w.discarder, w.card) if w is not None else None,
            answered=bool(w and seat is not None and seat in w.answered),
            result=state.result,
            pot=pot,
            betting=betting,
            flip=flip,
            wilds=wilds,
            standings=standings,
        )

