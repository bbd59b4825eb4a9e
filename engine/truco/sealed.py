"""Both trucos at a sealed table (``engine.sealed``; docs/rules.md, "Sealed tables").

The engine is dealt no card: each seat holds ``unseen`` cards until its client opens them, by playing them face up
or showing them. A seat the host may know (a bot's) is told to the engine when the host opens its cards
(``learn``), and from then on plays as at any table. Whatever else the engine cannot know it takes as a claim:

- a card played from a hand it cannot see is any card it has not seen elsewhere (the server and every client have
  checked, before the engine hears of it, that the seat was dealt that card);
- an envido announced, a flor sung or answered, is the number said (``Action.amount``); the rules show the winner's
  cards at the hand's end (a ``show``), and the count they make is held against it: a number the cards do not make,
  or cards never shown, gives the bet to the other team (docs/rules.md, "Sealed tables": a wrong number said gives the
  other team the bet).

Who acts when never depends on what the engine knows, only what a seat may choose does: so a sealed hand's history
replays through an engine that knows nobody's cards, every action as legal as it was at the table.

A seat whose cards cannot be opened (its person gone, their client not answering) is played by the turn clock
with the rule's weakest move, a card nobody could open played face down, which cannot win (``UNOPENED``), in any
trick; it keeps, runs or declines where the open table's clock would, and never claims an envido or a flor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardtui.engine.cards import Card
from cardtui.engine.core import N_, Action, Event
from cardtui.engine.sealed import Move, Sealed, SealedDeal
from cardtui.engine.truco.envido import Unsuited, envido
from cardtui.engine.truco.flor import flor_value

if TYPE_CHECKING:
    from cardtui.engine.truco.base import TrucoGame, TrucoState

SEALED_HELP = N_("Sealed: nobody, the host included, sees a card before it is played or shown; each player's own "
                 "client shuffles, locks and opens (browser guests cannot sit; bots are the host's seats).")

PLAY_ANY = Action("play")
"""Offered to a seat whose cards the engine cannot see: one of its own, which its client names and opens."""
DOWN_ANY = Action("play_down")
"""Truco paulista, tricks 2 and 3: one of its own cards face down, never opened."""
UNOPENED = Action("play_unopened")
"""The turn clock's move for a seat whose cards cannot be opened: a card of its own face down, which cannot win."""
SHOW_ANY = Action("show")
"""Offered to a seat that must show the cards of a claim: its client names them and opens them (with none: it does
not show them, and the claim is lost)."""
ENVIDO, FLOR = "envido", "flor"


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim the rules show at the hand's end: what ``seat`` said of its cards, and what it won its team."""

    seat: int
    kind: str
    """``envido`` or ``flor``."""
    value: int
    points: int
    """What the claim won ``seat``'s team, which goes to the other team if its cards do not bear it out."""
    round: int


def made(kind: str, cards: Sequence[Card], unsuited: Unsuited = Unsuited.SUM_TWO) -> int:
    """The count ``cards`` shown make for ``kind`` (-1: no flor)."""
    if kind == FLOR:
        return flor_value(cards)
    return envido(cards, unsuited)[0] if cards else -1


def bears_out(claim: Claim, cards: Sequence[Card], unsuited: Unsuited = Unsuited.SUM_TWO) -> bool:
    """Whether the cards shown for ``claim`` make the number said: an envido's one or two cards, a flor's three."""
    if claim.kind == FLOR:
        return len(cards) == 3 and made(FLOR, cards) == claim.value
    return len(cards) in (1, 2) and made(ENVIDO, cards, unsuited) == claim.value


def may_hold(st: TrucoState, seat: int, card: Card) -> bool:
    """Whether ``seat`` may play or show ``card`` from the cards the engine cannot see: it holds some, and the engine
    has seen ``card`` nowhere."""
    return st.unseen[seat] > 0 and card not in st.seen_cards


class TrucoSealed(Sealed):
    """A sealed truco match's hand in play, for its server."""

    def __init__(self, game: TrucoGame[TrucoState, object], state: TrucoState) -> None:  # type: ignore[type-var]
        self.game = game
        self.state = state

    def deal(self) -> SealedDeal:
        return self.game.sealed_deal(self.state)

    def learn(self, seat: int, cards: tuple[Card, ...]) -> None:
        st = self.state
        if st.known[seat] or len(cards) != st.unseen[seat] or any(c in st.seen_cards for c in cards):
            raise ValueError(f"seat {seat + 1} does not hold {len(cards)} cards nobody has seen")
        self.game.learn(st, seat, cards)

    def blind(self, seat: int) -> bool:
        return self.state.unseen[seat] > 0 and not self.state.known[seat]

    def move(self, action: Action) -> Move | None:
        return self.game.sealed_move(self.state, action)

    def action(self, move: Move, seat: int, cards: tuple[Card, ...], index: int = 0) -> Action:
        return self.game.sealed_action(self.state, move, seat, cards, index)

    def void(self) -> list[Event]:
        return self.game.void(self.state)
