"""Pif Paf (RULES.md §1): rummy with a betting round, for 3 to 8 players and chips.

Everyone antes; a poker-style betting round runs before play (all but one fold: that player
takes the pot, no play). Then, from the dealer's left, each player draws (stock or the
discard's top) and discards, until someone's cards all meld: ten with no discard, or nine
and a discard. After every discard a claim window opens to every other player at once, so
that opening it reveals nothing: a player whom the discard completes may claim it and
knock; if several do, the first after the discarder in turn order wins. The engine finds
every split into melds; nobody arranges a hand by hand.

``RummyGame`` holds what Pif Paf and Cacheta share: dealing, the stock and discard pile,
drawing, discarding, knocking, claim windows, views of hands and the hand history.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from cardtui.engine.betting import CALL, CHECK, FOLD, BettingRound, Pots
from cardtui.engine.cards import Card, french_deck, notation, shuffled
from cardtui.engine.core import (
    EVERYONE,
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    SeatInfo,
    check_seat,
    only,
)
from cardtui.engine.history import HandLog, action_of, jsonable, seats_of
from cardtui.engine.melds import GroupRule, Knock, Melder, Ruleset, index, melder

DRAW = "draw"
DISCARD = "discard"
KNOCK = "knock"
CLAIM = "claim"
PASS = "pass"
STOCK = "stock"
PILE = "pile"
DECK = tuple(french_deck(copies=2))


class Phase(StrEnum):
    BETTING = "betting"
    DRAW = "draw"
    DISCARD = "discard"
    CLAIM = "claim"
    OVER = "over"


class DealerRule(StrEnum):
    WINNER = "winner"
    ROTATE = "rotate"


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "1", "yes", "on"):
        return True
    if str(value).lower() in ("false", "0", "no", "off"):
        return False
    raise InvalidOptions(f"The option {name} is yes or no, not {value!r}.")


def parse_options(cls: type[Any], raw: Mapping[str, Any], title: str) -> Any:
    """Build an options record from raw values, refusing unknown keys with a sentence."""
    fields = cls.__dataclass_fields__
    unknown = set(raw) - set(fields)
    if unknown:
        raise InvalidOptions(f"{title} has no option {sorted(unknown)[0]!r}.")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        kind = fields[key].type
        try:
            if kind == "bool":
                values[key] = _flag(value, key)
            elif kind == "int":
                values[key] = int(value)
            elif kind == "GroupRule":
                values[key] = GroupRule(value)
            elif kind == "DealerRule":
                values[key] = DealerRule(value)
            else:
                values[key] = value
        except ValueError as e:
            if isinstance(e, InvalidOptions):
                raise
            raise InvalidOptions(f"{value!r} is not a valid value for the option {key}.") from None
    return cls(**values)


@dataclass(frozen=True, slots=True)
class PifPafOptions:
    chips: int = 50
    """Chips each player starts the session with (the cacife)."""
    ante: int = 1
    min_bet: int = 0
    """Smallest bet and raise step; 0 means the ante."""
    max_bet: int = 0
    """Most any one player may bet in a hand's betting round; 0 means ante × players."""
    group_suits: GroupRule = GroupRule.EXACTLY3
    ace_high: bool = False
    claim_ms: int = 2500
    dealer: DealerRule = DealerRule.WINNER
    rebuy: bool = False
    """A busted player is restocked to ``chips`` at the start of the next hand."""

    def __post_init__(self) -> None:
        if not 1 <= self.ante <= 1000:
            raise InvalidOptions("The ante must be between 1 and 1000 chips.")
        if not self.ante <= self.chips <= 1_000_000:
            raise InvalidOptions("Starting chips must cover the ante and be at most 1000000.")
        if self.min_bet < 0 or self.max_bet < 0:
            raise InvalidOptions("Bet limits cannot be negative.")
        if self.max_bet and self.max_bet < (self.min_bet or self.ante):
            raise InvalidOptions("The largest bet cannot be smaller than the smallest.")
        if not 500 <= self.claim_ms <= 60_000:
            raise InvalidOptions("The claim window must last between 500 and 60000 ms.")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = jsonable(asdict(self))
        return out

    @property
    def rules(self) -> Ruleset:
        return Ruleset(self.group_suits, self.ace_high)

    def limits(self, players: int) -> tuple[int, int]:
        lo = self.min_bet or self.ante
        return lo, max(lo, self.max_bet or self.ante * players)


# -- views --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    chips: int
    """Chips (Pif Paf) or points (Cacheta) held now."""
    put: int
    """Chips this seat has in the pot this hand (always 0 in Cacheta)."""
    status: str
    """"in", "folded", "out" (no chips or points left) or "waiting" (sitting this hand out)."""
    cards: int
    """How many cards the seat holds: only counts are ever shown of other hands."""
    declared: bool = False
    burned: bool = False


@dataclass(frozen=True, slots=True)
class RummyView:
    """What one seat (or a spectator, ``you is None``) may see of a Pif Paf or Cacheta table."""

    game: str
    hand: int
    dealer: int
    phase: str
    to_act: tuple[int, ...]
    """Every seat the game waits on: one in turn, several in a claim window."""
    turn: int | None
    """Whose draw, discard or bet it is (None in a claim window or between hands)."""
    you: int | None
    seats: tuple[SeatView, ...]
    your_cards: tuple[str, ...]
    your_melds: tuple[tuple[str, ...], ...]
    """Your hand's best grouping into melds (a help, not a commitment)."""
    your_loose: tuple[str, ...]
    can_knock: bool
    your_outs: tuple[str, ...]
    """With nine cards: every card that would let you go out."""
    stock: int
    discard_top: str | None
    discard_size: int
    claim_card: str | None
    answered: bool
    """In a claim window: whether you have already answered."""
    knock: Mapping[str, Any] | None
    hand_over: bool
    match_over: bool
    result: Mapping[str, Any] | None
    pot: int = 0
    level: int = 0
    cap: int = 0
    flip: str | None = None
    wilds: tuple[str, ...] = ()
    standings: tuple[Mapping[str, Any], ...] = ()
    group_suits: str = GroupRule.EXACTLY3.value
    ace_high: bool = False
    """The meld rules in force (the table's options), so a bot or a client can check melds."""


# -- state --------------------------------------------------------------------------
@dataclass
class Window:
    """A claim window on one discard: who may still answer, and who claimed."""

    discarder: int
    card: Card
    order: list[int]
    pending: set[int]
    claims: dict[int, Action] = field(default_factory=dict)


class RummyState:
    """One match: chips or points carry over; each hand is dealt from its own rng."""

    def __init__(self, options: Any, seats: Sequence[SeatInfo], stack: int) -> None:
        self.options = options
        self.seats = tuple(seats)
        self.n = len(seats)
        self.stacks = [stack] * self.n
        self.dealer = self.n - 1
        self.hand_no = 0
        self.rng = random.Random(0)
        self.stock: list[Card] = []
        self.pile: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in seats]
        self.playing: list[int] = []
        """Seats dealt in this hand, the dealer's left first."""
        self.out: set[int] = set()
        """Seats no longer in the hand (folded)."""
        self.phase = Phase.OVER
        self.turn: int | None = None
        self.drawn: Card | None = None
        self.window: Window | None = None
        self.knock: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.log: HandLog | None = None
        self.last_history: dict[str, Any] | None = None
        self.restocks = 0

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


class RummyGame:
    """Dealing, drawing, discarding, knocking and claim windows, for Pif Paf and Cacheta."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    # -- hooks the games fill in ----------------------------------------------------
    def melder(self, state: Any) -> Melder:
        raise NotImplementedError

    def claim_type(self) -> str:
        return CLAIM

    def may_claim(self, state: Any, seat: int) -> bool:
        """Whether ``claim`` (or ``cut``) is legal for ``seat`` in the open window."""
        raise NotImplementedError

    def refuse_claim(self, state: Any, seat: int) -> list[Event]:
        raise IllegalAction("That discard does not complete your hand: you cannot claim it.")

    def settle(self, state: Any, seat: int, knock: Knock) -> list[Event]:
        raise NotImplementedError

    # -- dealing ------------------------------------------------------------------------
    def deal_cards(self, state: RummyState, log: HandLog) -> list[Event]:
        """Nine cards each, one at a time, from the dealer's left."""
        state.stock = shuffled(DECK, state.rng)
        state.pile = []
        state.hands = [[] for _ in state.seats]
        state.restocks = 0
        for _ in range(9):
            for s in state.playing:
                card = state.stock.pop()
                state.hands[s].append(card)
                log.dealt(s, card)
        events = [
            Event("deal", EVERYONE, f"Nine cards to each of {len(state.playing)} players.",
                  data={"seats": list(state.playing)})
        ]
        for s in state.playing:
            events.append(
                Event("cards", only(s), f"Your cards: {' '.join(map(str, state.hands[s]))}.", seat=s,
                      data={"cards": notation(state.hands[s])})
            )
        return events

    def start_play(self, state: RummyState) -> list[Event]:
        state.phase = Phase.DRAW
        state.turn = state.live[0]
        return [self.prompt(state)]

    def prompt(self, state: RummyState) -> Event:
        if state.phase is Phase.CLAIM and state.window is not None:
            w = state.window
            return Event("claim_window", EVERYONE,
                         f"{state.name(w.discarder)} discarded {w.card}: "
                         f"anyone it completes may {self.claim_type()} it.",
                         seat=w.discarder, data={"card": str(w.card), "seats": list(w.order)})
        seat = state.turn
        text = f"{state.name(seat)} to {state.phase.value}." if seat is not None else ""
        return Event("turn", EVERYONE, text, seat=seat, data={"phase": state.phase.value})

    # -- the contract -----------------------------------------------------------------
    def to_act(self, state: RummyState) -> tuple[int, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.phase is Phase.CLAIM and state.window is not None:
            return tuple(s for s in state.window.order if s in state.window.pending)
        return () if state.turn is None else (state.turn,)

    def timeout_ms(self, state: RummyState) -> int | None:
        return int(state.options.claim_ms) if state.phase is Phase.CLAIM else None

    def hand_over(self, state: RummyState) -> bool:
        return state.result is not None

    def history(self, state: RummyState) -> dict[str, Any] | None:
        return state.last_history

    def play_legal(self, state: RummyState, seat: int) -> list[Action]:
        """Legal actions in the draw, discard and claim phases."""
        if state.phase is Phase.CLAIM:
            w = state.window
            if w is None or seat not in w.pending:
                return []
            acts = [Action(PASS)]
            if self.may_claim(state, seat):
                acts.append(Action(self.claim_type()))
            return acts
        if seat != state.turn:
            return []
        if state.phase is Phase.DRAW:
            acts = []
            if state.stock or len(state.pile) > 1:
                acts.append(Action(DRAW, value=STOCK))
            if state.pile:
                acts.append(Action(DRAW, value=PILE))
            return acts
        if state.phase is Phase.DISCARD:
            hand = state.hands[seat]
            acts = [Action(DISCARD, cards=(c,)) for c in sorted(set(hand), key=index)]
            for k in self.melder(state).knocks(hand):
                acts.append(Action(KNOCK, cards=() if k.discard is None else (k.discard,)))
            return acts
        return []

    def play_default(self, state: RummyState, seat: int) -> Action:
        if state.phase is Phase.CLAIM:
            return Action(PASS)
        if state.phase is Phase.DRAW:
            return self.play_legal(state, seat)[0]
        if state.phase is Phase.DISCARD:
            card = state.drawn if state.drawn is not None else state.hands[seat][-1]
            return Action(DISCARD, cards=(card,))
        raise IllegalAction("There is nothing for this seat to do.")

    def play_apply(self, state: RummyState, seat: int, action: Action) -> list[Event]:
        assert state.log is not None
        if state.phase is Phase.CLAIM:
            return self._answer(state, seat, action)
        if seat != state.turn:
            raise NotYourTurn(f"It is {state.name(state.turn or 0)}'s turn, not yours.")
        if state.phase is Phase.DRAW:
            return self._draw(state, seat, action)
        if action.type == DISCARD:
            return self._discard(state, seat, action)
        if action.type == KNOCK:
            knock = self._find_knock(state, seat, action.cards)
            state.log.act(seat, action, melds=[notation(m) for m in knock.melds])
            return self._knock(state, seat, knock)
        raise IllegalAction(f"After drawing you discard or knock; {action.type!r} is not possible now.")

    def _draw(self, state: RummyState, seat: int, action: Action) -> list[Event]:
        assert state.log is not None
        if action.type != DRAW or action.value not in (STOCK, PILE):
            raise IllegalAction("It is your turn to draw: from the stock or the discard pile.")
        events: list[Event] = []
        name = state.name(seat)
        if action.value == PILE:
            if not state.pile:
                raise IllegalAction("The discard pile is empty: draw from the stock.")
            card = state.pile.pop()
            events.append(Event("draw", EVERYONE, f"{name} takes {card} from the discard pile.", seat=seat,
                                data={"from": PILE, "card": str(card)}))
        else:
            if not state.stock:
                if len(state.pile) < 2:
                    raise IllegalAction("The stock is empty and cannot be rebuilt: take the discard.")
                # The pile, less its top card, turned over unshuffled: its first discard is on top.
                top = state.pile.pop()
                state.stock = state.pile[::-1]
                state.pile = [top]
                state.restocks += 1
                events.append(Event("restock", EVERYONE, "The discard pile is turned over to make a new stock.",
                                    data={"stock": len(state.stock)}))
            card = state.stock.pop()
            events.append(Event("draw", EVERYONE, f"{name} draws from the stock.", seat=seat, data={"from": STOCK}))
            events.append(Event("drawn", only(seat), f"You draw {card}.", seat=seat, data={"card": str(card)}))
        state.log.act(seat, action, card=str(card))
        state.hands[seat].append(card)
        state.drawn = card
        state.phase = Phase.DISCARD
        return [*events, self.prompt(state)]

    def _discard(self, state: RummyState, seat: int, action: Action) -> list[Event]:
        assert state.log is not None
        if len(action.cards) != 1 or action.cards[0] not in state.hands[seat]:
            raise IllegalAction("Discard exactly one card from your hand.")
        card = action.cards[0]
        state.log.act(seat, action)
        state.hands[seat].remove(card)
        state.pile.append(card)
        state.drawn = None
        events = [Event("discard", EVERYONE, f"{state.name(seat)} discards {card}.", seat=seat,
                        data={"card": str(card)})]
        others = state.after(seat)
        state.window = Window(seat, card, others, set(others))
        state.phase = Phase.CLAIM
        state.turn = None
        return [*events, self.prompt(state)]

    def _find_knock(self, state: RummyState, seat: int, cards: Sequence[Card]) -> Knock:
        options = self.melder(state).knocks(state.hands[seat])
        if not options:
            raise IllegalAction("Your cards do not all form melds yet: you cannot knock.")
        if not cards:
            return options[0]  # all ten melded when possible, else the first good discard
        for k in options:
            if k.discard == cards[0]:
                return k
        raise IllegalAction(f"Discarding {cards[0]} does not leave the rest all melded.")

    def _knock(self, state: RummyState, seat: int, knock: Knock) -> list[Event]:
        if knock.discard is not None:
            state.hands[seat].remove(knock.discard)
            state.pile.append(knock.discard)
        state.knock = {
            "seat": seat,
            "melds": [notation(m) for m in knock.melds],
            "discard": None if knock.discard is None else str(knock.discard),
        }
        how = "with all ten cards" if knock.discard is None else f"discarding {knock.discard}"
        shown = "; ".join(" ".join(map(str, m)) for m in knock.melds)
        events = [Event("knock", EVERYONE, f"{state.name(seat)} knocks {how}: {shown}.", seat=seat,
                        data=dict(state.knock))]
        state.window = None
        state.turn = None
        return events + self.settle(state, seat, knock)

    def _answer(self, state: RummyState, seat: int, action: Action) -> list[Event]:
        assert state.window is not None and state.log is not None
        w = state.window
        if seat not in w.pending:
            raise NotYourTurn("You have already answered this claim window." if seat in w.order
                              else "This claim window is not yours to answer.")
        if action.type == PASS:
            state.log.act(seat, action)
            w.pending.discard(seat)
            events = [Event("pass", only(seat), "You let the discard go.", seat=seat)]
        elif action.type == self.claim_type():
            if not self.may_claim(state, seat):
                return self.refuse_claim(state, seat)
            state.log.act(seat, action, card=str(w.card))
            w.pending.discard(seat)
            w.claims[seat] = action
            events = [Event("claim_sent", only(seat), f"You {action.type} {w.card}.", seat=seat)]
        else:
            raise IllegalAction(f"The claim window is open: {self.claim_type()} the discard or pass.")
        return events + self._resolve(state)

    def _resolve(self, state: RummyState) -> list[Event]:
        """Close the window once the best claim is certain: no one earlier may still claim."""
        w = state.window
        assert w is not None
        events: list[Event] = []
        for s in w.order:
            if s in w.pending:
                return events
            if s in w.claims:
                outcome, done = self.try_claim(state, s)
                events += outcome
                if done:
                    return events
        state.window = None
        events.append(Event("claim_closed", EVERYONE, f"Nobody takes {w.card}.", data={"card": str(w.card)}))
        state.phase = Phase.DRAW
        state.turn = state.after(w.discarder)[0]
        return [*events, self.prompt(state)]

    def try_claim(self, state: RummyState, seat: int) -> tuple[list[Event], bool]:
        """The claimant takes the discard and knocks; (events, False) if it cannot."""
        w = state.window
        assert w is not None
        hand = [*state.hands[seat], w.card]
        options = self.melder(state).knocks(hand)
        if not options:
            return self.claim_failed(state, seat), False
        state.pile.pop()
        state.hands[seat].append(w.card)
        event = Event(w.claims[seat].type, EVERYONE, f"{state.name(seat)} takes {w.card} out of turn.", seat=seat,
                      data={"card": str(w.card)})
        return [event, *self._knock(state, seat, options[0])], True

    def claim_failed(self, state: RummyState, seat: int) -> list[Event]:
        """A claim that cannot knock (only Cacheta lets one through: the cutter burns)."""
        return []

    # -- views ---------------------------------------------------------------------------
    def seat_status(self, state: RummyState, s: int) -> str:
        if s not in state.playing:
            return "out" if state.stacks[s] <= 0 else "waiting"
        return "folded" if s in state.out else "in"

    def base_view(self, state: RummyState, seat: int | None, **more: Any) -> RummyView:
        seats = tuple(
            SeatView(s, state.name(s), state.stacks[s], self.put(state, s), self.seat_status(state, s),
                     len(state.hands[s]), **self.seat_flags(state, s))
            for s in range(state.n)
        )
        mine: list[Card] = list(state.hands[seat]) if seat is not None and seat in state.playing else []
        melds: tuple[tuple[str, ...], ...] = ()
        loose: tuple[str, ...] = ()
        can_knock = False
        outs: tuple[str, ...] = ()
        if mine and state.result is None:
            m = self.melder(state)
            grouped, rest = m.arrange(mine)
            melds = tuple(tuple(notation(g)) for g in grouped)
            loose = tuple(notation(rest))
            if len(mine) == 10:
                can_knock = seat == state.turn and m.goes_out(mine)
            elif len(mine) == 9:
                outs = tuple(notation(m.completing(mine)))
        w = state.window
        return RummyView(
            game=self.name,
            hand=state.hand_no,
            dealer=state.dealer,
            phase=state.phase.value,
            to_act=self.to_act(state),
            turn=state.turn,
            you=seat,
            seats=seats,
            your_cards=tuple(notation(sorted(mine, key=index))),
            your_melds=melds,
            your_loose=loose,
            can_knock=can_knock,
            your_outs=outs,
            stock=len(state.stock),
            discard_top=str(state.pile[-1]) if state.pile else None,
            discard_size=len(state.pile),
            claim_card=str(w.card) if w else None,
            answered=bool(w and seat is not None and seat in w.order and seat not in w.pending),
            knock=state.knock,
            hand_over=state.result is not None,
            match_over=self.match_over(state),
            result=state.result,
            **more,
        )

    def put(self, state: RummyState, s: int) -> int:
        return 0

    def seat_flags(self, state: RummyState, s: int) -> dict[str, bool]:
        return {}

    def match_over(self, state: Any) -> bool:
        raise NotImplementedError


# -- Pif Paf -------------------------------------------------------------------------
class PifPafState(RummyState):
    def __init__(self, options: PifPafOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats, options.chips)
        self.options: PifPafOptions = options
        self.pots = Pots(self.n)
        self.betting: BettingRound | None = None
        self.rebuys: dict[int, int] = {}


class PifPaf(RummyGame):
    name: ClassVar[str] = "pifpaf"
    title: ClassVar[str] = "Pif Paf"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8

    def options(self, raw: Mapping[str, Any]) -> PifPafOptions:
        opts: PifPafOptions = parse_options(PifPafOptions, raw, self.title)
        return opts

    def melder(self, state: RummyState) -> Melder:
        return melder(state.options.rules)

    # -- match and hand flow ------------------------------------------------------------
    def start(self, options: PifPafOptions, seats: Sequence[SeatInfo], seed: int) -> tuple[PifPafState, list[Event]]:
        if not self.min_players <= len(seats) <= self.max_players:
            raise InvalidOptions("Pif Paf is played by 3 to 8 players.")
        state = PifPafState(options, seats)
        return state, self._deal_hand(state, seed, 0)

    def next_hand(self, state: PifPafState, seed: int) -> list[Event]:
        if state.hand_no and state.result is None:
            raise IllegalAction("The hand in play is not over yet.")
        if self.match_over(state):
            raise IllegalAction("The session is over: one player holds every chip.")
        state.rebuys = {}
        if state.options.rebuy:
            for s in range(state.n):
                if state.stacks[s] <= 0:
                    state.stacks[s] = state.options.chips
                    state.rebuys[s] = state.options.chips
        dealer = state.dealer
        winner = state.result.get("winner") if state.result else None
        if state.options.dealer is DealerRule.WINNER and winner is not None and state.stacks[winner] > 0:
            dealer = int(winner)
        else:
            dealer = self._next_with_chips(state, dealer)
        return self._deal_hand(state, seed, dealer)

    def resume(self, options: PifPafOptions, seats: Sequence[SeatInfo], stacks: Sequence[int], dealer: int,
               hand_no: int, seed: int) -> tuple[PifPafState, list[Event]]:
        """A hand from a given position (used to replay a hand history)."""
        state = PifPafState(options, seats)
        state.stacks = list(stacks)
        state.hand_no = hand_no - 1
        return state, self._deal_hand(state, seed, dealer)

    def _next_with_chips(self, state: PifPafState, d: int) -> int:
        for _ in range(state.n):
            d = (d + 1) % state.n
            if state.stacks[d] > 0:
                return d
        return d

    def _deal_hand(self, state: PifPafState, seed: int, dealer: int) -> list[Event]:
        state.hand_no += 1
        state.dealer = dealer
        state.rng = random.Random(seed)
        state.pots = Pots(state.n)
        state.out = set()
        state.result = None
        state.knock = None
        state.window = None
        state.drawn = None
        order = [(dealer + 1 + i) % state.n for i in range(state.n)]
        state.playing = [s for s in order if state.stacks[s] > 0]
        log = HandLog(self.name, state.options.as_dict(), state.hand_no, seed, dealer, state.seats, state.stacks)
        if state.rebuys:
            log.head["rebuys"] = {str(s): v for s, v in state.rebuys.items()}
        state.log = log
        events = [Event("hand_start", EVERYONE, f"Hand {state.hand_no}: {state.name(dealer)} deals.",
                        data={"hand": state.hand_no, "dealer": dealer, "rebuys": dict(state.rebuys)})]
        antes = {}
        for s in state.playing:
            paid = min(state.options.ante, state.stacks[s])
            state.stacks[s] -= paid
            state.pots.add(s, paid)
            antes[str(s)] = paid
        log.head["antes"] = antes
        events.append(Event("ante", EVERYONE, f"Everyone antes: the pot is {state.pots.total}.",
                            data={"antes": antes, "pot": state.pots.total}))
        events += self.deal_cards(state, log)
        lo, hi = state.options.limits(state.n)
        state.betting = BettingRound(state.playing, state.stacks, state.pots, hi, min_raise=lo)
        state.phase = Phase.BETTING
        state.turn = state.betting.to_act
        if state.betting.done:
            return events + self._after_betting(state)
        return [*events, self.prompt(state)]

    def _after_betting(self, state: PifPafState) -> list[Event]:
        state.out = set(state.pots.folded)
        live = state.live
        if len(live) == 1:
            return self._finish(state, live[0], knock=None)
        return self.start_play(state)

    # -- the contract ----------------------------------------------------------------------
    def legal_actions(self, state: PifPafState, seat: int) -> list[Action]:
        if state.result is not None or not 0 <= seat < state.n:
            return []
        if state.phase is Phase.BETTING:
            assert state.betting is not None
            return state.betting.legal(seat)
        return self.play_legal(state, seat)

    def default_action(self, state: PifPafState, seat: int) -> Action:
        if state.phase is Phase.BETTING:
            legal = self.legal_actions(state, seat)
            for kind in (CHECK, FOLD):
                for a in legal:
                    if a.type == kind:
                        return a
            raise IllegalAction("There is nothing for this seat to do.")
        return self.play_default(state, seat)

    def apply(self, state: PifPafState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, state.n)
        if state.result is not None:
            raise NotYourTurn("The hand is over.")
        if state.phase is Phase.BETTING:
            return self._bet(state, seat, action)
        return self.play_apply(state, seat, action)

    def _bet(self, state: PifPafState, seat: int, action: Action) -> list[Event]:
        assert state.betting is not None and state.log is not None
        if seat != state.betting.to_act:
            raise NotYourTurn(f"It is {state.name(state.betting.to_act or 0)}'s turn to bet, not yours.")
        before = state.betting.level
        moved = state.betting.act(seat, action)
        state.log.act(seat, action)
        name = state.name(seat)
        if action.type == FOLD:
            text = f"{name} is out (estou fora)."
        elif action.type == CHECK:
            text = f"{name} checks."
        elif action.type == CALL:
            text = f"{name} calls {moved}."
        elif before == 0:
            text = f"{name} bets {action.amount}."
        else:
            text = f"{name} raises to {action.amount} (repique)."
        events = [Event("bet", EVERYONE, text, seat=seat,
                        data={"type": action.type, "amount": action.amount, "moved": moved})]
        state.turn = state.betting.to_act
        if state.betting.done:
            return events + self._after_betting(state)
        return [*events, self.prompt(state)]

    def settle(self, state: RummyState, seat: int, knock: Knock) -> list[Event]:
        assert isinstance(state, PifPafState)
        return self._finish(state, seat, knock=state.knock)

    def may_claim(self, state: RummyState, seat: int) -> bool:
        w = state.window
        return w is not None and self.melder(state).goes_out([*state.hands[seat], w.card])

    def _finish(self, state: PifPafState, winner: int, knock: Mapping[str, Any] | None) -> list[Event]:
        """The winner takes the pot; a side pot they cannot win goes to the next live seat after them."""
        assert state.log is not None
        ranking = [winner, *(s for s in state.after(winner) if s != winner)]
        put = list(state.pots.put)
        won = state.pots.award(ranking)
        for s in range(state.n):
            state.stacks[s] += won[s]
        state.result = {
            "deltas": {str(s): won[s] - put[s] for s in range(state.n)},
            "winner": winner,
            "pot": sum(put),
            "won": {str(s): won[s] for s in range(state.n) if won[s]},
            "knock": knock,
        }
        state.phase = Phase.OVER
        state.turn = None
        state.window = None
        how = "by knocking" if knock else "as everyone else is out"
        events = [Event("hand_end", EVERYONE, f"{state.name(winner)} wins the pot of {sum(put)} {how}.",
                        seat=winner, data=dict(state.result))]
        state.last_history = state.log.record(state.result)
        if self.match_over(state):
            champ = max(range(state.n), key=lambda s: state.stacks[s])
            events.append(Event("match_end", EVERYONE, f"{state.name(champ)} holds every chip and wins.", seat=champ))
        return events

    # -- queries -------------------------------------------------------------------------
    def match_over(self, state: Any) -> bool:
        return not state.options.rebuy and sum(1 for c in state.stacks if c > 0) <= 1

    def put(self, state: RummyState, s: int) -> int:
        assert isinstance(state, PifPafState)
        return state.pots.put[s]

    def view(self, state: PifPafState, seat: int | None) -> RummyView:
        b = state.betting if state.phase is Phase.BETTING else None
        _, hi = state.options.limits(state.n)
        return self.base_view(state, seat, pot=state.pots.total, level=b.level if b else 0, cap=hi,
                              group_suits=state.options.group_suits.value, ace_high=state.options.ace_high)

    def replay(self, record: Mapping[str, Any]) -> PifPafState:
        """Rebuild a hand from its history; the result must match the record's."""
        seats = seats_of(record)
        stacks = [int(record["start"][str(i)]) for i in range(len(seats))]
        state, _ = self.resume(self.options(record["options"]), seats, stacks, int(record["dealer"]),
                               int(record["hand"]), int(record["seed"]))
        for entry in record["actions"]:
            self.apply(state, int(entry["seat"]), action_of(entry))
        return state


GAME = PifPaf()
