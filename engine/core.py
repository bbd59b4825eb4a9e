"""The contract every game implements, and the records that cross it.

A game is a pure state machine: ``start`` makes a match from options, seats and a seed;
``apply`` takes one seat's action and returns the events it caused, each a typed record
with its audience; ``view`` is the one place that decides what a seat (or a spectator) may
see. Nothing here reads a clock, does I/O or touches global random state.

Two layers, so that servers and simulators hold no ``Any``:

- ``Game[S, O, V]`` is one game's rules, generic in its state, options and view records.
  Its methods take the state; the hand lifecycle (start, next hand, resume, replay) is
  written once here on top of a few hooks each game fills in.
- ``Rules`` and ``Match`` are what the server and the simulator are typed against: a game
  seen from outside (its name, its options, how to open or replay a match), and one match
  in play with its state bound in. ``Game.open`` returns a ``Match``.

Besides each seat's view and the spectators', every game has an *open* view (``open_view``):
every card face up, for nobody in particular. Only replays of finished hands show it
(``replay_steps``); nothing sends it while a hand is in play.

The records that cross the contract (``engine.records``) and its refusals (``engine.errors``) live
below it, so that what it builds on can use them; they are named here too, so that a game takes
its whole contract from one module.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from cardtui.engine.errors import N_ as N_
from cardtui.engine.errors import IllegalAction as IllegalAction
from cardtui.engine.errors import InvalidOptions as InvalidOptions
from cardtui.engine.errors import NotYourTurn as NotYourTurn
from cardtui.engine.fairness import Seed, record_seed
from cardtui.engine.history import action_of, seats_of, start_of
from cardtui.engine.options import OptionSpec, Raw, describe, read, values
from cardtui.engine.records import EVERYONE as EVERYONE
from cardtui.engine.records import SPECTATOR as SPECTATOR
from cardtui.engine.records import Action as Action
from cardtui.engine.records import Audience as Audience
from cardtui.engine.records import Event as Event
from cardtui.engine.records import EventBody as EventBody
from cardtui.engine.records import GameOptions as GameOptions
from cardtui.engine.records import GameView as GameView
from cardtui.engine.records import MatchState as MatchState
from cardtui.engine.records import ReplayStep as ReplayStep
from cardtui.engine.records import SeatInfo as SeatInfo
from cardtui.engine.records import copied as copied
from cardtui.engine.records import only as only

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from cardtui.engine.sealed import Sealed

JsonObject = dict[str, Any]
"""A hand history: a JSON document whose keys docs/history.md fixes."""


S = TypeVar("S", bound=MatchState)
O = TypeVar("O", bound=GameOptions)  # noqa: E741
V = TypeVar("V", bound=GameView)

Bot = Callable[[V, list[Action], random.Random], Action]
"""A bot sees only its seat's view and the legal actions; chance comes from the rng."""

DEFAULT_LEVEL = "normal"
"""The bot level a seat gets when nobody chose one."""


class SeatMemory(Protocol):
    """What one seat's bot keeps of the match it plays (``Game.memory``), built only from what that seat saw: its
    own actions with its view as it took them, and its view after each action of the match. A bot's view is one
    moment; some of what a player learns is spread over the match (how the other team answers one's calls), and
    this carries it from one decision to the next. It is a value (frozen, picklable: it travels with a
    ``Decision`` to a worker), and a pure function of the match's actions, so a match replayed from its actions
    (a table restored after a restart) hands its bots the same memory."""

    def heeds(self, action: Action) -> bool:
        """Whether this seat's ``action`` is one it keeps something of (``acted``): its view is made only then."""
        ...

    def acted(self, view: Any, legal: Sequence[Action], action: Action) -> SeatMemory:
        """The memory after this seat takes ``action``, seeing ``view`` with ``legal`` open to it."""
        ...

    @property
    def watching(self) -> bool:
        """Whether it waits on something the seat will see (``saw``): asked after each action only then."""
        ...

    def saw(self, view: Any) -> SeatMemory:
        """The memory after the seat sees ``view`` (after any seat's action)."""
        ...


class Match(ABC):
    """One match in play: what the server's table and the simulator drive."""

    rules: Rules

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Everything this seat may do now, out-of-turn calls included."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Do it and return what happened; ``IllegalAction`` and no change if not allowed."""

    @abstractmethod
    def view(self, seat: int | None) -> GameView:
        """Exactly what ``seat`` (or a spectator, ``None``) may see."""

    @abstractmethod
    def views(self, seats: Sequence[int | None]) -> list[GameView]:
        """The views of several audiences of the same moment (what a fan-out sends after a change)."""

    @abstractmethod
    def open_view(self) -> GameView:
        """Every card face up: never for a hand in play's audiences (replays and checks only)."""

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats whose action the hand is waiting for (the turn timer runs on these)."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """What a seat does when its turn timer runs out."""

    @abstractmethod
    def timeout_ms(self) -> int | None:
        """A window the rules themselves time (a claim window), else None: the table's timer."""

    @abstractmethod
    def keep_time(self) -> None:
        """A clock runs this match (a server's table): a window the rules time stays open its
        whole time, whoever may act in it, and ``lapse`` closes it."""

    @abstractmethod
    def lapse(self) -> list[Event]:
        """The time of the window the rules time ran out (see ``keep_time``)."""

    @abstractmethod
    def catch_up(self, seat: int, action: Action) -> list[Event]:
        """Replaying a journal: what the clock did before ``seat``'s ``action`` (a window whose
        time ran out, which no journal step records)."""

    @abstractmethod
    def hand_over(self) -> bool: ...

    @abstractmethod
    def match_over(self) -> bool: ...

    @abstractmethod
    def logged(self) -> int:
        """The entries with a seat that the history of the hand in play holds so far: not every
        action makes one (letting a window go that one could not take), and a window's end
        writes some (the passes of those who could have claimed)."""

    @abstractmethod
    def history(self) -> JsonObject | None:
        """The hand history of the last finished hand (docs/history.md)."""

    @abstractmethod
    def next_hand(self, seed: Seed) -> list[Event]:
        """Deal the next hand of a match whose last hand is over (a plain seed, or a fair deal's)."""

    @abstractmethod
    def next_dealer(self) -> int:
        """Who deals the next hand (``next_hand``), known before its deal: the table names it in the hand's
        commitment, before any player's seed is seen."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Where each seat stands: chips, points, or its team's score."""

    @abstractmethod
    def bot_action(self, seat: int, rng: random.Random, level: str = DEFAULT_LEVEL) -> Action:
        """What the game's bot of ``level`` does for ``seat`` now, seeing only that seat's view."""

    @abstractmethod
    def decision(self, seat: int, level: str = DEFAULT_LEVEL) -> Decision | Action:
        """What ``bot_action`` would decide from, taken now: the action itself when there is
        nothing to decide (no bot, or nothing legal: the default action)."""

    def sealed(self) -> Sealed | None:
        """At a sealed table (``engine.sealed``), the hand in play as its server drives it; None elsewhere."""
        return None

    def memory(self, seat: int) -> SeatMemory | None:
        """What ``seat``'s bot keeps of this match so far (``Game.memory``); None for a game whose bots keep nothing."""
        return None


@dataclass(frozen=True)
class Decision:
    """A bot's choice to make, as it stands at one moment: the game, the bot's level, the
    seat's view and its legal actions.

    A bot reads nothing else, so the choice may be made anywhere (another process) while
    the match moves on; whoever asked checks that nothing moved before applying it.
    """

    game: str
    level: str
    view: GameView
    legal: tuple[Action, ...]
    memory: SeatMemory | None = None
    """What the seat's bot keeps of the match (``Game.memory``), for a level whose bot reads it."""


class Rules(ABC):
    """A game seen from outside: what a room offers, checks and opens."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    usual_players: ClassVar[int]
    """How many usually sit at this game: a new table's form starts from it (the most allowed is rarely
    what people play: truco argentino is mostly a game for two, Cacheta for four)."""
    teams: ClassVar[bool] = False
    """Played in partnerships: teams alternate seats (``team = seat % 2``)."""
    family_name: ClassVar[str] = ""
    """The family the game belongs to (``engine.family``: ``rummy``, ``truco``, ``cacho``): its view is that
    family's, and so are its shared mechanisms."""
    sealed_dealt: ClassVar[bool] = False
    """A server deals this game's sealed tables (docs/deal.md, "Sealed tables"): every step of its hand that
    opens or moves a hidden card is relayed sealed. A game that offers the option without it is refused."""

    @property
    def player_counts(self) -> tuple[int, ...]:
        """How many may sit at a table of this game."""
        return tuple(range(self.min_players, self.max_players + 1))

    @property
    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every option: name, kind, range or choices, default and a line of help."""

    @abstractmethod
    def check_options(self, raw: Mapping[str, Raw]) -> dict[str, Raw]:
        """Validate raw options; every option with its value (defaults filled in)."""

    @abstractmethod
    def open(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo], seed: Seed) -> tuple[Match, list[Event]]:
        """A new match with its first hand dealt (from ``hand_rng(seed)``, engine.fairness)."""

    @abstractmethod
    def pack(self, raw: Mapping[str, Raw]) -> str:
        """The pack a table with these options is dealt from, by its name in ``cardtui.fair.PACKS`` (docs/deal.md
        §2): a game's only pack, or the one its options choose."""

    @abstractmethod
    def opening_dealer(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo]) -> int:
        """Who deals a new match's first hand (``open``), known before its deal."""

    @abstractmethod
    def replay_match(self, record: Mapping[str, Any]) -> Match:
        """A finished hand rebuilt from its history, ending in the same result."""

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """The levels a bot seat may be given, weakest first (empty: one bot, no levels)."""
        return ()

    @abstractmethod
    def decide(self, decision: Decision, rng: random.Random) -> Action:
        """Make a bot's choice (see ``Match.decision``): in any process that imported the game."""

    @abstractmethod
    def replay_steps(self, record: Mapping[str, Any]) -> list[ReplayStep]:
        """A finished hand from its history, step by step: the deal, then each seat's action,
        each with its events and the open view after them. ``ValueError`` if the history
        does not end the hand."""

    def standing(self, record: Mapping[str, Any], after: bool = True) -> dict[int, int]:
        """Each seat's standing as ``scores`` gives it (higher better; 0 or less, out of the match where the game
        puts players out), before the hand a history records or after it, from the history alone: its ``start``,
        its ``result.deltas`` and its options. What a game counts and what ``scores`` gives are the same here (chips,
        points, a team's score); a game whose points count against says otherwise."""
        deltas = record["result"]["deltas"] if after else {}
        return {int(s): int(v) + int(deltas.get(s, 0)) for s, v in record["start"].items()}

    def seat_infos(self, names: Sequence[str]) -> list[SeatInfo]:
        """Seats for ``names``; in partnership games teams alternate round the table."""
        return [SeatInfo(i, name, i % 2 if self.teams else i) for i, name in enumerate(names)]


class Game(Rules, Generic[S, O, V]):
    """One game's rules over its own state, options and view records.

    A game fills in the hooks (``new_state``, ``deal``, ``set_start`` and the play methods);
    the hand lifecycle is written once below.
    """

    options_type: ClassVar[type[DataclassInstance]]
    bot: Bot[V] | None = None
    levels: Mapping[str, Bot[V]] = {}
    """Bots by level (``engine.bots`` fills them in); ``bot`` plays when a level is not among them."""
    memory: Callable[[], SeatMemory] | None = None
    """A seat's memory of the match as it starts (``SeatMemory``), for a game whose bots keep one; the entry that
    names the bots gives it (the rules cannot name their bots)."""
    remembering: frozenset[str] = frozenset()
    """The levels whose bot reads that memory: it is handed to it as ``memory=``."""

    @property
    def bot_levels(self) -> tuple[str, ...]:
        return tuple(self.levels)

    def bot_of(self, level: str) -> Bot[V] | None:
        """The bot that plays at ``level`` (the game's own for a level it does not name)."""
        return self.levels.get(level, self.bot)

    def decide(self, decision: Decision, rng: random.Random) -> Action:
        bot = self.bot_of(decision.level)
        if bot is None:
            raise ValueError(f"{self.name} has no bot to decide with.")
        if decision.memory is not None:
            remembers = cast(Callable[..., Action], bot)
            return remembers(cast(V, decision.view), list(decision.legal), rng, memory=decision.memory)
        return bot(cast(V, decision.view), list(decision.legal), rng)  # a view of this game, as it made it

    # -- options -------------------------------------------------------------------------
    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        return describe(self.options_type)

    def options(self, raw: Mapping[str, Raw]) -> O:
        """The options record from raw values; ``InvalidOptions`` with a sentence if bad."""
        opts: O = read(self.options_type, raw, self.title)
        return opts

    def check_options(self, raw: Mapping[str, Raw]) -> dict[str, Raw]:
        return values(self.options(raw))

    pack_name: ClassVar[str] = ""
    """The pack every table of this game is dealt from (``cardtui.fair.PACKS``), where no option chooses it."""

    def pack_of(self, options: O) -> str:
        """The pack a table with ``options`` is dealt from: ``pack_name``, unless an option chooses it."""
        return self.pack_name

    def pack(self, raw: Mapping[str, Raw]) -> str:
        return self.pack_of(self.options(raw))

    # -- hooks ---------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, options: O, seats: Sequence[SeatInfo]) -> S:
        """A match before its first hand."""

    @abstractmethod
    def deal(self, state: S, seed: Seed, dealer: int) -> list[Event]:
        """Deal the next hand (its number one more than the last) with ``dealer`` dealing,
        from ``hand_rng(seed)``; the hand's ``HandLog`` records the seed."""

    @abstractmethod
    def set_start(self, state: S, start: Sequence[int]) -> None:
        """Chips, points or team scores per seat, as a hand history's ``start`` gives them."""

    def first_dealer(self, state: S) -> int:
        return len(state.seats) - 1

    def next_dealer(self, state: S) -> int:
        """Who deals the hand after the one just over. Pure: the table asks it before the deal, to name the
        dealer in the hand's commitment (docs/deal.md §1), and the deal asks it again."""
        return (state.dealer + 1) % len(state.seats)

    def before_next(self, state: S) -> None:
        """What the next hand's deal sets up beyond its dealer (truco argentino: a pica-pica round)."""

    # -- the hand lifecycle ----------------------------------------------------------------
    def start(self, options: O, seats: Sequence[SeatInfo], seed: Seed) -> tuple[S, list[Event]]:
        if len(seats) not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidOptions("{game} is played by {counts} players, not {n}.", game=self.title, counts=counts,
                                 n=len(seats))
        state = self.new_state(options, seats)
        return state, self.deal(state, seed, self.first_dealer(state))

    def next_hand(self, state: S, seed: Seed) -> list[Event]:
        if state.hand_no and not self.hand_over(state):
            raise IllegalAction("The hand in play is not over yet.")
        if self.match_over(state):
            raise IllegalAction("The match is over.")
        dealer = self.next_dealer(state)
        self.before_next(state)
        return self.deal(state, seed, dealer)

    def opening_dealer(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo]) -> int:
        """Who deals a new match's first hand at ``seats``: what the table names in its commitment."""
        return self.first_dealer(self.new_state(self.options(raw), seats))

    def resume(
        self, options: O, seats: Sequence[SeatInfo], start: Sequence[int], dealer: int, hand_no: int, seed: Seed,
        record: Mapping[str, Any] | None = None,
    ) -> tuple[S, list[Event]]:
        """A hand from a given position (what a hand history starts from)."""
        state = self.new_state(options, seats)
        self.set_start(state, start)
        state.hand_no = hand_no - 1
        if record is not None:
            self.recall(state, record)
        return state, self.deal(state, seed, dealer)

    def recall(self, state: S, record: Mapping[str, Any]) -> None:
        """Before a replay deals: what the hand history says of its hand beyond its start
        (truco argentino: whether it is a pica-pica deal). Nothing, for most games."""

    def replay(self, record: Mapping[str, Any]) -> S:
        """Rebuild a hand from its history; the result must match the record's."""
        steps = self.replaying(record)
        state = next(steps)[-1]
        for _ in steps:
            pass  # each step moves the same state on
        return state

    def replaying(self, record: Mapping[str, Any]) -> Iterator[tuple[int | None, Action | None, list[Event], S]]:
        """A hand rebuilt from its history one step at a time: the deal (no seat, no action),
        then each seat's action as the history has it; each step's events, and the state after.
        The dealer's entries (a redeal, a stock rebuilt) are skipped: they follow from the
        actions before them."""
        seats = seats_of(record)
        known = {spec.name for spec in self.option_specs}  # an option a later version added is ignored
        options = self.options({k: v for k, v in record["options"].items() if k in known})
        state, events = self.resume(
            options, seats, start_of(record, len(seats)), int(record["dealer"]),
            int(record["hand"]), record_seed(record), record,
        )
        yield None, None, events, state
        self.keep_time(state)  # as the table played it: a timed window closes when the next action shows it did
        for entry in record["actions"]:
            if entry.get("seat") is None:
                continue  # what the dealer does (a redeal): it follows from the actions before it
            seat, action = int(entry["seat"]), action_of(entry)
            if self.keep_outdated(state, seat, action):
                yield seat, action, [], state  # a step of the history that moves nothing
                continue
            yield seat, action, [*self.catch_up(state, seat, action), *self.apply(state, seat, action)], state

    def replay_steps(self, record: Mapping[str, Any]) -> list[ReplayStep]:
        steps = []
        state: S | None = None
        for seat, action, events, state in self.replaying(record):
            steps.append(ReplayStep(seat, action, tuple(events), self.open_view(state)))
        if state is None or not self.hand_over(state):
            raise ValueError("That hand history does not finish its hand: only finished hands replay.")
        return steps

    # -- Rules -----------------------------------------------------------------------------
    def open(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo], seed: Seed) -> tuple[Match, list[Event]]:
        state, events = self.start(self.options(raw), seats, seed)
        return Bound(self, state), events

    def replay_match(self, record: Mapping[str, Any]) -> Match:
        return Bound(self, self.replay(record))

    # -- play ------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    @abstractmethod
    def apply(self, state: S, seat: int, action: Action) -> list[Event]: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> V: ...

    def views(self, state: S, seats: Sequence[int | None]) -> list[V]:
        """Several audiences' views at once; a game may share the work their views have in common."""
        return [self.view(state, seat) for seat in seats]

    @abstractmethod
    def open_view(self, state: S) -> V:
        """The table with every card face up (``you`` None): every hand, every card played face
        down, every signal. What a replay of a finished hand shows; never sent during one."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def default_action(self, state: S, seat: int) -> Action: ...

    def timeout_ms(self, state: S) -> int | None:
        return None

    def keep_time(self, state: S) -> None:
        """See ``Match.keep_time``: nothing, for a game whose rules time no window."""

    def lapse(self, state: S) -> list[Event]:
        return []

    def catch_up(self, state: S, seat: int, action: Action) -> list[Event]:
        return []

    def keep_outdated(self, state: S, seat: int, action: Action) -> bool:
        """Replaying a history: if ``seat``'s ``action`` is an entry an earlier version wrote that
        changes nothing here (docs/history.md §4), keep it in the hand's history as written, so the
        replay's history is the record's, and return True: it is not played (a replay shows it as a
        step that moves nothing, an analysis does not judge it). False for most games."""
        return False

    def sealed(self, state: S) -> Sealed | None:
        """See ``Match.sealed``: None for a game that deals no sealed hands, or a match that is not sealed."""
        return None

    def logged(self, state: S) -> int:
        """See ``Match.logged``: every game keeps its hand's ``HandLog`` as ``state.log``."""
        log = getattr(state, "log", None)
        return 0 if log is None else sum(1 for seat, _, _ in log.actions if seat is not None)

    @abstractmethod
    def hand_over(self, state: S) -> bool: ...

    @abstractmethod
    def match_over(self, state: S) -> bool: ...

    @abstractmethod
    def history(self, state: S) -> JsonObject | None: ...

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """Where each seat stands: chips, points, or its team's score."""


class Bound(Match, Generic[S, O, V]):
    """A ``Game`` and one match's state, as a ``Match``."""

    def __init__(self, game: Game[S, O, V], state: S) -> None:
        self.rules = self.game = game
        self.state = state
        self.memories: dict[int, SeatMemory] = {}
        """Each seat's memory of the match (``Game.memory``), kept from the actions applied here alone."""

    def legal_actions(self, seat: int) -> list[Action]:
        return self.game.legal_actions(self.state, seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        start = self.game.memory
        if start is None:
            return self.game.apply(self.state, seat, action)
        mind = self.memories.get(seat) or start()
        if mind.heeds(action):
            mind = mind.acted(self.game.view(self.state, seat), self.game.legal_actions(self.state, seat), action)
        events = self.game.apply(self.state, seat, action)  # refused (IllegalAction): nothing remembered either
        self.memories[seat] = mind
        for s, m in self.memories.items():
            if m.watching:
                self.memories[s] = m.saw(self.game.view(self.state, s))
        return events

    def memory(self, seat: int) -> SeatMemory | None:
        start = self.game.memory
        if start is None:
            return None
        return self.memories.get(seat) or start()

    def view(self, seat: int | None) -> V:
        return self.game.view(self.state, seat)

    def views(self, seats: Sequence[int | None]) -> list[GameView]:
        return list(self.game.views(self.state, seats))

    def open_view(self) -> V:
        return self.game.open_view(self.state)

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def default_action(self, seat: int) -> Action:
        return self.game.default_action(self.state, seat)

    def timeout_ms(self) -> int | None:
        return self.game.timeout_ms(self.state)

    def keep_time(self) -> None:
        self.game.keep_time(self.state)

    def lapse(self) -> list[Event]:
        return self.game.lapse(self.state)

    def catch_up(self, seat: int, action: Action) -> list[Event]:
        return self.game.catch_up(self.state, seat, action)

    def logged(self) -> int:
        return self.game.logged(self.state)

    def hand_over(self) -> bool:
        return self.game.hand_over(self.state)

    def match_over(self) -> bool:
        return self.game.match_over(self.state)

    def history(self) -> JsonObject | None:
        return self.game.history(self.state)

    def next_hand(self, seed: Seed) -> list[Event]:
        return self.game.next_hand(self.state, seed)

    def next_dealer(self) -> int:
        return self.game.next_dealer(self.state)

    def scores(self) -> tuple[int, ...]:
        return self.game.scores(self.state)

    def bot_action(self, seat: int, rng: random.Random, level: str = DEFAULT_LEVEL) -> Action:
        decision = self.decision(seat, level)
        if isinstance(decision, Action):
            return decision
        return self.game.decide(decision, rng)

    def sealed(self) -> Sealed | None:
        return self.game.sealed(self.state)

    def decision(self, seat: int, level: str = DEFAULT_LEVEL) -> Decision | Action:
        legal = self.game.legal_actions(self.state, seat)
        if self.game.bot_of(level) is None or not legal:
            return self.game.default_action(self.state, seat)
        sealed = self.game.sealed(self.state)
        if sealed is not None and sealed.blind(seat):  # no bot can choose from cards nobody here can see
            return self.game.default_action(self.state, seat)
        memory = self.memory(seat) if level in self.game.remembering else None
        return Decision(self.game.name, level, self.game.view(self.state, seat), tuple(legal), memory)


def check_seat(seat: int, n: int) -> None:
    if not 0 <= seat < n:
        raise IllegalAction("There is no seat {seat} at this table.", seat=seat)
