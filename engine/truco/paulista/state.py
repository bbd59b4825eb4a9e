"""A truco paulista match in play: the scores, and the hand being dealt and played."""

from __future__ import annotations

from collections.abc import Sequence

from cardtui.engine.cards import Card
from cardtui.engine.core import IllegalAction, NotYourTurn, SeatInfo
from cardtui.engine.truco.base import TrucoState
from cardtui.engine.truco.ladder import Ladder
from cardtui.engine.truco.paulista.rules import LADDER, ONZE_STAKE, TARGET, PaulistaOptions, TrucoDecides
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
        self.passed_cards: list[Card] = []
        """The cards the mão passed to its partner (the mão saw them)."""
        self.rejects = 0
        self.rejected: list[Card] = []
        self.onze = -1
        """The team on 11 in a mão de onze, or -1."""
        self.onze_played = False
        self.ferro = False
        self.trick: list[tuple[int, Card | None, bool]] = []
        """The trick in play: (seat, card, face down)."""
        self.to_play: list[int] = []
        self.results: list[int | None] = []
        """Each finished trick's winning team, or None for a tie."""
        self.trick_plays: list[tuple[tuple[tuple[int, Card | None, bool], ...], int | None]] = []
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


def under_cap(score: int, stake: int) -> bool:
    """A team may call or raise unless winning ``stake`` already takes it to 12."""
    return stake < TARGET and score + stake < TARGET


def raise_gate(st: PaulistaState, team: int) -> IllegalAction | None:
    """Why ``team`` may not take the truco up a rung now (calling on a turn, or answering), or None.

    No truco in a mão de onze or de ferro; a call waits for its answer; once accepted with
    ``truco_decides = trick`` the trick in play decides, else only the acceptors raise; and
    no call or raise by a team that winning the stake would already take to 12.
    """
    if st.ferro or st.onze >= 0:
        return IllegalAction("There is no truco in a mão de onze or a mão de ferro.")
    truco = st.truco
    if truco.pending >= 0:
        if team == truco.pending:
            return NotYourTurn("Your team's call is waiting for an answer.")
        stake = LADDER.accepted(truco.calls)
    else:
        if truco.level and st.options.truco_decides is TrucoDecides.TRICK:
            return IllegalAction("The truco was accepted: the trick in play decides the hand.")
        if truco.level and truco.owner != team:
            return IllegalAction("Only the team that accepted the last call may raise it.")
        stake = st.stake
    if not truco.next_calls():
        return IllegalAction("Doze is the highest call; there is nothing above it.")
    if not under_cap(st.scores[team], stake):
        return IllegalAction("You may not raise past what your team needs to win.")
    return None
