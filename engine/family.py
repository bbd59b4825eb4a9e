"""A family of games as the shared code asks it: rummy, truco, Cacho.

Games come in families: Pif Paf and Cacheta are rummy, the two trucos are truco, Cacho is Cacho. A family is a
folder of the engine (``engine/rummy/``, ``engine/truco/``, ``engine/cacho/``): its rules and the records every
game of it shows (one view record, one set of events), its bots, and an object that answers what the shared code
asks of a seat's view (``Family``): what the seat holds and has seen, the deck it is dealt from, what a decision
there is played for, how a hand of it is evaluated and searched, why a decision was flagged. The shared code
(the analysis, the advice, the search, the simulator, the server) asks the family of a view (``of``), never the
name of a game and never the shape of a view: a view says its family by its type, as its family registered it.
Within a family, a game's own facts are data its view carries (the rummy table's pack, hand size and scoring),
never told apart by which fields happen to be filled in.

Each family's folder registers its ``Family`` when it is imported (its ``__init__``): a view of a family exists
only once its records are imported, and with them its family.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody, GameView

if TYPE_CHECKING:
    from cardtui.engine.advice import Reason
    from cardtui.engine.bots.estimates import Budget, Evaluation

T = TypeVar("T")


class Solved(Protocol):
    """A hand's end solved over every deal a seat could be facing (a family's ``solve``): its choices in groups that
    play alike, how many deals, each group's value where every deal gives it one, the choices best on every deal."""

    @property
    def groups(self) -> tuple[tuple[Action, ...], ...]: ...

    @property
    def deals(self) -> int: ...

    def exact(self) -> tuple[float, ...] | None: ...

    def right(self) -> tuple[Action, ...]: ...


class Family(ABC):
    """One family of games: what the shared code asks of its views (see the module)."""

    name: ClassVar[str]
    """The family's name: its folder's (``rummy``) and its wire message's (``View.rummy``)."""
    view: ClassVar[type[GameView]]
    """The view record every game of the family shows."""
    whole_hands: ClassVar[bool] = False
    """A deal of its search is a whole hand played out turn by turn, far dearer than one of a few cards: the
    analysis spends its budget on fewer looks (``engine.analysis.plan``)."""
    melds: ClassVar[bool] = False
    """Its hands are made of melds: a seat may ask which melds a card of its hand is in (``hints``)."""
    judges_twice: ClassVar[bool] = False
    """A decision it plays out is judged against two kinds of player, the bots' own model (``bots_model``) and the
    analysis's players (``played_out``), and flagged only where both find it loses (``engine.analysis.verdict``)."""
    parts: ClassVar[tuple[str, ...]] = ()
    """The fields of its view (and of the view's parts) that only some of its games fill in: what a game shows,
    read where it is there, never asked to tell which game it is (``tools.game_shapes`` holds the code to that).
    Which game it is, and what follows from it (a pack, a hand's size, a scoring), is data the view carries."""

    @abstractmethod
    def deck(self, view: GameView) -> Sequence[Card]:
        """Every copy of every card of the pack ``view``'s table is dealt from."""

    @abstractmethod
    def seen(self, view: GameView) -> Counter[Card]:
        """The copies of each card whose place ``view``'s seat knows (``engine.seen``); empty for a spectator."""

    @abstractmethod
    def held(self, view: GameView) -> tuple[Card, ...]:
        """The seat's own cards in its view (none for a spectator)."""

    @abstractmethod
    def evaluate(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
        """Every legal choice of the seat, valued from what it knew (``engine.bots.search``)."""

    def stake(self, view: GameView, base: float) -> float:
        """What a decision is played for, in the unit its evaluation counts in, ``base`` the chips the hand is played
        for (``engine.analysis.at_stake``): ``base`` itself, unless the family says otherwise."""
        return base

    def judged(self, view: GameView) -> bool:
        """Whether the analysis judges a decision made at this view (a choice its search can tell apart)."""
        return True

    def reason(self, view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
        """Why ``chosen`` stands where it does beside ``best``, in facts the seat knew (``engine.advice``); None where
        the family works none out."""
        return None

    def detour(self, view: GameView, legal: Sequence[Action]) -> Action | None:
        """A seat's action off the bots' path, for a simulation to write what bots seldom do (``cardtui.sim``); None
        to let the bot play."""
        return None

    def hints(self, view: GameView, card: Card) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """The melds ``card`` (one of the seat's) is in or one card short of, each as the cards from the hand and
        the cards any one of which would complete it (table.proto's ``Hint``): none where the family has no melds."""
        return []

    def solve(self, view: GameView, legal: Sequence[Action]) -> Solved | None:
        """The rest of the hand solved exactly over every deal the seat could be facing, where few cards are left
        (``engine.analysis.verdict``); None where the family solves none (its playouts judge instead)."""
        return None

    def played_out(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation | None:
        """Every legal choice valued by the analysis's own players, who answer as strong players do, where the
        family has them; None to value them by the bots' search (``evaluate``) alone."""
        return None

    def bots_model(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation | None:
        """Every legal choice valued against the bots' own model of the players, where that differs from
        ``evaluate``; None where it does not."""
        return None

    def claims(self, options: object) -> Callable[[str, int, Sequence[str]], bool] | None:
        """Whether a claim shown at a sealed table holds (kind, the number said, the cards shown), as a table with
        these options (its history's) counts it; None where the family has no sealed tables."""
        return None

    def rules_only(self) -> None:
        """This process's bots search in processes of their own (a server's table workers): what the family's rules
        remember for their own questions (legal moves, a hand's end) may be kept small. Nothing, unless the family
        says otherwise."""
        return None

    def chips_won(self, body: EventBody) -> tuple[int, int] | None:
        """The seat and the chips it took, when ``body`` is a pot won (a player's record counts them)."""
        return None

    def called(self, body: EventBody) -> tuple[int, int] | None:
        """The seat and its team, when ``body`` is a call a player's record counts as won if its side takes the
        round's stake (truco's truco)."""
        return None

    def round_ended(self, body: EventBody) -> tuple[int | None] | None:
        """When ``body`` ends a round the calls before it were for: the team that took their stake by a call (None
        when nobody did, as a tie or the envido decided it)."""
        return None



FAMILIES: dict[type[GameView], Family] = {}
"""Every registered family, by the type of its view."""


def register(family: Family) -> Family:
    """Add a family (its folder does, as it is imported); another family's view type is refused."""
    known = FAMILIES.get(family.view)
    if known is not None and known is not family:
        raise ValueError(f"{family.view.__name__} belongs to the {known.name} family already.")
    FAMILIES[family.view] = family
    return family


def of(view: GameView) -> Family:
    """The family of ``view``; ``ValueError`` for a view no family registered."""
    for cls in type(view).__mro__:
        found = FAMILIES.get(cls)
        if found is not None:
            return found
    raise ValueError(f"No family of games shows a {type(view).__name__}.")


def named(name: str) -> Family:
    """The family called ``name``; ``ValueError`` for none."""
    for family in FAMILIES.values():
        if family.name == name:
            return family
    raise ValueError(f"There is no family of games called {name[:40]!r}.")


def asked(body: EventBody, question: Callable[[Family, EventBody], T | None]) -> T | None:
    """The first registered family's answer to ``question`` about an event's ``body`` (each answers None for an
    event not its own)."""
    name = question.__name__
    for each in FAMILIES.values():
        found: T | None = getattr(each, name)(body)  # the family's own answer, not the base's None
        if found is not None:
            return found
    return None
