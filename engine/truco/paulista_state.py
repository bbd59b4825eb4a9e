"""A truco paulista match in play: the scores, and the hand being dealt and played."""

from __future__ import annotations

from collections.abc import Sequence

from cardtui.engine.cards import Card
from cardtui.engine.core import SeatInfo
from cardtui.engine.truco.base import TrucoState
from cardtui.engine.truco.ladder import Ladder
from cardtui.engine.truco.paulista_rules import LADDER, ONZE_STAKE, PaulistaOptions
from cardtui.engine.truco.views import PaulistaPhase


class PaulistaState(TrucoState):
    """One match; the hand in play is dealt from a deck shuffled by ``rng``."""

    def __init__(self, options: PaulistaOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats)
        self.options = options
        self.deck: list[Card] = []
        self.hands: list[list[Card]] = [[], [], [], []]
        self.phase = PaulistaPhase.OVER
        self.passed = False
        self.rejects = 0
        self.rejected: list[Card] = []
        self.onze = -1
        """The team on 11 in a mão de onze, or -1."""
        self.onze_played = False
        self.ferro = False
        self.trick: list[tuple[int, Card, bool]] = []
        """The trick in play: (seat, card, face down)."""
        self.to_play: list[int] = []
        self.results: list[int | None] = []
        """Each finished trick's winning team, or None for a tie."""
        self.trick_plays: list[tuple[tuple[tuple[int, Card, bool], ...], int | None]] = []
        self.truco = Ladder(LADDER)
        self.decides_from = -1
        """``truco_decides = trick``: the trick (by index) that decides the hand once a truco is accepted."""

    @property
    def mao(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def stake(self) -> int:
        """What the hand is played for now."""
        return ONZE_STAKE if self.onze_played else LADDER.stake(self.truco.level)
