"""The easy truco bots: the old heuristics (``engine.truco.bots.today``), with the blunders taken out.

Before the heuristics decide, a few checks that need no search settle what is certain:

- a truco whose deciding trick is already lost is refused, one certainly won is raised or
  accepted, and one whose refusal hands the other side the match is never refused;
- a seat that certainly takes the deciding trick calls truco (unless the match is already won);
- a trick that decides the hand is led with the best card, and a tie that wins the hand is taken;
- a partner's signal counts only while the card it promised is still in hand;
- a strong envido calls falta envido when that is worth more than the envido, and a weak hand
  calls a truco now and then (a bluff).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from cardtui.engine.bots.baselines import first as _find
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.truco.bots import today as old
from cardtui.engine.truco.bots.search import can_only_lose
from cardtui.engine.truco.bots.worlds import SIGNAL_STRENGTHS, Knowledge
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.tricks import hand_winner
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

CALLS = ("truco", "retruco", "vale_cuatro", "seis", "nove", "doze")
BLUFF = 0.08


class Read:
    """What the checks need to know of the table, from the seat's view."""

    def __init__(self, view: TrucoView) -> None:
        self.view = view
        self.k = Knowledge.of(view)
        self.rank = self.k.rank
        self.you = self.k.you
        self.team = self.you & 1
        self.paulista = view.rules is TrucoRules.PAULISTA
        unseen = [self.rank[c] for c in self.k.pool]
        self.unseen = unseen
        self.top_unseen = max(unseen, default=-1)

    @property
    def trick_decides(self) -> bool:
        """The trick in play decides the hand (an accepted truco, or the tricks so far)."""
        part = self.view.paulista
        if part is not None and part.trick_decides:
            return True
        results = [t.team for t in self.view.tricks]
        return self._decided([*results, self.team]) == self.team and self._decided([*results, 1 - self.team]) == (
            1 - self.team)

    @property
    def call_decides(self) -> bool:
        """An accepted truco now would make the trick in play decide the hand."""
        part = self.view.paulista
        return self.trick_decides or (part is not None and part.call_decides)

    def _decided(self, results: list[int | None]) -> int | None:
        mano_team = self.k.mano & 1
        return hand_winner(results, mano_team, self.k.table().rule)

    def table_best(self) -> tuple[int, int]:
        best, seat = -1, -1
        for p in self.view.trick:
            if p.card is not None and not p.void and not p.face_down and self.rank[p.card] > best:
                best, seat = self.rank[p.card], p.seat
        return best, seat

    def to_play(self) -> list[int]:
        """The seats still to play in the trick in play, this one included if it has not played."""
        done = {p.seat for p in self.view.trick}
        return [s for s in self.k.players if s not in done and self.view.seats[s].card_count]

    def trick_certain(self) -> int:
        """+1 when this seat's team certainly takes the trick in play with its best card, -1 when it
        certainly loses it, 0 when it depends on cards it cannot see."""
        best, holder = self.table_best()
        ours = holder >= 0 and holder & 1 == self.team
        mine = max((self.rank[c] for c in self.view.cards), default=-1)
        if any(p.seat == self.you for p in self.view.trick):
            mine = -1
        top = max(mine, best if ours else -1)
        rest = [s for s in self.to_play() if s != self.you]
        opponents = [s for s in rest if s & 1 != self.team]
        partners = [s for s in rest if s & 1 == self.team]
        if top > best or (ours and top == best):
            if not opponents or top > self.top_unseen:
                return 1
            return 0
        # Behind: certain loss only if no partner still to play could beat it.
        if best > self.top_unseen and not (mine > best):
            return -1
        if not partners and mine < best:
            return -1
        return 0

    def tie_wins(self) -> bool:
        results = [t.team for t in self.view.tricks]
        return self._decided([*results, None]) == self.team


def _fresh_signals(view: TrucoView, rank: dict[Card, int]) -> TrucoView:
    """The view with partners' signals whose promised card has been played taken out."""
    played: dict[int, set[int]] = {}
    for plays in [*(t.plays for t in view.tricks), view.trick]:
        for p in plays:
            if p.card is not None and not p.face_down:
                played.setdefault(p.seat, set()).add(rank[p.card])
    keep = tuple(
        s for s in view.signals
        if s.seat == view.you or not (SIGNAL_STRENGTHS.get(s.signal, frozenset()) & played.get(s.seat, set()))
    )
    return view if keep == view.signals else dataclasses.replace(view, signals=keep)


def _card(read: Read, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """A card by the checks: a trick that decides is led high; a tie that wins is taken."""
    plays = sorted((a for a in legal if a.type == "play"), key=lambda a: read.rank[a.cards[0]])
    if not plays:
        return None
    best, holder = read.table_best()
    ours = holder >= 0 and holder & 1 == read.team
    if read.trick_decides and not ours:
        winners = [a for a in plays if read.rank[a.cards[0]] > best]
        if not read.view.trick:
            return plays[-1]
        if winners:
            return winners[0]
    if not ours and read.tie_wins():
        wins_or_ties = [a for a in plays if read.rank[a.cards[0]] >= best]
        if wins_or_ties:
            return wins_or_ties[0]
    return None


def _answer(read: Read, legal: Sequence[Action]) -> Action | None:
    """Answering a truco by the checks: never refuse into a lost match, never accept a lost trick."""
    v = read.view
    pending = v.pending
    if pending is None or pending.bet is not Bet.TRUCO or pending.team == read.team:
        return None
    accept = _find(legal, "accept", "quiero")
    refuse = _find(legal, "run", "no_quiero")
    if accept is None or refuse is None:
        return None
    theirs = v.scores[1 - read.team] + (v.argentino.points[1 - read.team] if v.argentino else 0)
    if theirs + pending.refused >= v.target:
        raise_ = _find(legal, *CALLS)
        return raise_ if raise_ is not None and read.call_decides and read.trick_certain() > 0 else accept
    if read.call_decides:
        certain = read.trick_certain()
        if certain < 0:
            return refuse
        if certain > 0:
            return _find(legal, *CALLS) or accept
    return None


def _call(read: Read, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """Calling a truco by the checks: with a certain winner of the deciding trick, and now and then a bluff."""
    v = read.view
    call = _find(legal, *CALLS)
    if call is None or v.pending is not None or not any(a.type == "play" for a in legal):
        return None
    mine = v.scores[read.team] + (v.argentino.points[read.team] if v.argentino else 0)
    if mine + v.stake >= v.target:
        return None  # the stake already wins the match: a call changes nothing
    if read.call_decides and read.trick_certain() > 0:
        return call
    if rng.random() < BLUFF and not v.tricks and v.level == 0:
        return call
    return None


def _envido(read: Read, legal: Sequence[Action]) -> Action | None:
    part = read.view.argentino
    if part is None or not part.may_envido or part.your_envido is None:
        return None
    falta = _find(legal, "falta_envido")
    env = part.your_envido
    if falta is not None and env >= 32 and (part.falta >= 4 or max(read.view.scores) >= read.view.target - 4):
        return falta
    return None


def _choose(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The easy bot's action for ``view.you``: the checks first, then the old heuristics."""
    part = view.paulista
    playing = part is None or part.phase is PaulistaPhase.PLAY
    read = Read(view) if playing and view.cards else None
    if read is not None:
        for pick in (_answer(read, legal), _envido(read, legal), _call(read, legal, rng)):
            if pick is not None:
                return pick
    fresh = _fresh_signals(view, Knowledge.rank_of(part is not None))
    action = old.choose_paulista(fresh, legal, rng) if part is not None else old.choose_argentino(fresh, legal, rng)
    if read is not None and action.type == "play":
        return _card(read, legal, rng) or action
    return action


def choose(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The easy bot's action for ``view.you``; never a move that can only lose (``truco_search.can_only_lose``):
    such a choice is made again without it."""
    action = _choose(view, legal, rng)
    if not can_only_lose(view, legal, action):
        return action
    rest = [a for a in legal if not can_only_lose(view, legal, a)]
    return _choose(view, rest, rng) if rest else action
