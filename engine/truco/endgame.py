"""The exact end game of a truco hand, for the analysis: where few cards are left, every deal solved.

Where few cards remain to be played (``within``: at most the last two tricks' cards, and few enough deals), the
analysis need not sample playouts played by a model of the players. Every deal of the cards the seat could not
see is listed (``deals``: what it saw, ``engine.seen``, through ``truco_worlds.Knowledge``, with the envido it
heard announced and the signals it caught), and on each one the rest of the hand is solved exactly: a minimax
over the cards, the calls and their answers, in match odds by the score (``odds.truco``), the seat's side taking
the most and the other side the least of them.

A minimax lets the other side answer a call knowing every card, which a player at the table does not: one who
cannot tell whether a call is a bluff may run from it, or raise it. So each value is an interval (``Range``):
where the side to decide a call or its answer could not tell the hand's winner from what it sees (its own cards
and the cards face up: ``Solver.sure``), it may decide either way, and the value spans its choices; where it could
(a raise on a trick its side has already taken, their cards all on the table), it decides as the minimax says.
The low end is the plain minimax, the other side deciding every time as the cards say.

What the analysis takes from it (``Solution``):

- where every deal gives each choice one and the same value (each interval a point, the same on every deal),
  the verdict is that value, known exactly (``exact``);
- a choice whose minimax is the best on every deal is never flagged (``right``).

Pure: no clock, no global random; the deals are listed, not drawn.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from cardtui.engine.bots import odds
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.truco.bots.search import Searcher
from cardtui.engine.truco.bots.sim import ACCEPT, CALL, DOWN, MAZO, PLAY, REFUSE, Move, Sim, copies
from cardtui.engine.truco.bots.worlds import Knowledge
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

CARDS_LEFT = 2
"""The most cards any seat may still hold: the last two tricks' cards (see ``DEALS``)."""
DEALS = 2000
"""The most deals of the unseen cards (card by card) the end game lists where a seat holds two cards: each deal's
rest of the hand is a tree of cards and calls of its own. The last two tricks of two players (595 deals at most) take
a fraction of a second; of four, tens of thousands of deals, seconds or minutes (``bench/marks.md``, "The exact end
game")."""
LAST_DEALS = 30_000
"""The same in the last trick, where every seat holds one card at most: the cards play themselves, so a deal's value
is that of every other deal the same side takes the trick on (``Solver.forced``), and only listing the deals costs:
the last trick of four players, three unseen cards among thirty (about 22,000 deals), takes a fraction of a
second."""
MOVES = frozenset({PLAY, DOWN, CALL, ACCEPT, REFUSE, MAZO})
"""The choices the end game solves; any other (an envido, a flor) leaves the decision to the playouts."""
LATER = frozenset({PLAY, CALL, ACCEPT, REFUSE})
"""The moves looked at after the decision itself. Not a card face down: where every card is known, a card face up
is never worse for its side than the same card face down (it can win or tie the trick, where face down it cannot),
nor going to the deck, which gives what a refusal or a lost trick would give."""
EPSILON = 1e-12
"""Two values of match odds closer than this are one."""

Range = tuple[float, float]
"""A value as an interval of match odds: the minimax (the other side always deciding as the cards say), and the
most the other side's uninformed choices could leave the seat."""
Hands = dict[int, list[Card]]


@dataclass(frozen=True, slots=True)
class Solution:
    """Each choice of a decision solved on every deal of the unseen cards."""

    groups: tuple[tuple[Action, ...], ...]
    """The legal actions, grouped as one choice where they are one move (cards of one strength)."""
    ranges: tuple[tuple[Range, ...], ...]
    """``ranges[j][d]``: choice ``j``'s value on deal ``d``."""
    deals: int
    """The deals of the unseen cards, card by card (those that differ only by suits solved once)."""

    def exact(self) -> tuple[float, ...] | None:
        """Each choice's value, where every deal gives it that one value (and the other side's choices cannot
        move it); None where any choice's value depends on the deal."""
        out = []
        for row in self.ranges:
            low, high = row[0]
            if high - low > EPSILON or any(abs(lo - low) > EPSILON or abs(hi - high) > EPSILON for lo, hi in row):
                return None
            out.append(low)
        return tuple(out)

    def right(self) -> tuple[Action, ...]:
        """The actions whose choice has the best minimax on every deal: never to be flagged."""
        best = [max(self.ranges[j][d][0] for j in range(len(self.groups))) for d in range(len(self.ranges[0]))]
        return tuple(a for j, group in enumerate(self.groups)
                     if all(self.ranges[j][d][0] >= best[d] - EPSILON for d in range(len(best))) for a in group)


def within(view: TrucoView) -> bool:
    """Whether ``view``'s decision is of the end game's kind: a truco hand in play, past its deal and its envido,
    no seat holding more than ``CARDS_LEFT`` cards (the deals' count is checked by ``solve``)."""
    if view.you is None or view.hand_over:
        return False
    paulista, part = view.paulista, view.argentino
    if paulista is not None and (paulista.phase is not PaulistaPhase.PLAY or paulista.ferro):
        return False
    if part is not None and (part.envido_open or part.announcing is not None or part.must_flor):
        return False
    if view.pending is not None and view.pending.bet is not Bet.TRUCO:
        return False
    return all(s.card_count <= CARDS_LEFT for s in view.seats) and len(view.cards) <= CARDS_LEFT


def deals(k: Knowledge, most: int = DEALS) -> tuple[list[Hands], int] | None:
    """Every deal of the unseen cards to the seats that hold them, agreeing with what the seat knows (``k.fits``:
    an envido announced, a signal seen), one for each way the cards' strengths can lie (suits do not decide a
    trick), and how many deals there are card by card; None where they are more than ``most``."""
    others = [s for s in k.players if s != k.you and s not in k.known and k.held.get(s, 0) > 0]
    left = len(k.pool)
    count = 1
    for s in others:
        count *= math.comb(max(0, left), k.held[s])
        left -= k.held[s]
    if count > most or left < 0:
        return None
    if not any(s in k.checks for s in others):
        return _by_strength(k, others), count
    found: dict[tuple[tuple[int, ...], ...], Hands] = {}
    listed = 0

    def deal(i: int, pool: list[Card], hands: Hands) -> None:
        nonlocal listed
        if i == len(others):
            listed += 1
            key = tuple(tuple(sorted(k.rank[c] for c in hands[s])) for s in others)
            if key not in found:
                found[key] = {s: list(cards) for s, cards in hands.items()}
            return
        s = others[i]
        for hand in combinations(pool, k.held[s]):
            if not k.fits(s, hand):
                continue
            hands[s] = list(hand)
            deal(i + 1, [c for c in pool if c not in hand], hands)
        hands.pop(s, None)

    deal(0, list(k.pool), {})
    return [k._with_known(hands) for hands in found.values()], listed


def _by_strength(k: Knowledge, others: Sequence[int]) -> list[Hands]:
    """Every deal of the unseen cards, one for each way their strengths can lie among ``others`` (where no seat has
    a check to agree with, a deal is its strengths: its cards are any of the unseen of those strengths)."""
    by: dict[int, list[Card]] = {}
    for c in k.pool:
        by.setdefault(k.rank[c], []).append(c)
    strengths = sorted(by)
    out: list[Hands] = []

    def deal(i: int, left: dict[int, int], hands: Hands) -> None:
        if i == len(others):
            out.append(k._with_known({s: list(cards) for s, cards in hands.items()}))
            return
        s = others[i]
        for held in combinations_with_replacement(strengths, k.held[s]):
            need = Counter(held)
            if any(left[v] < n for v, n in need.items()):
                continue
            taken = {v: by[v][len(by[v]) - left[v]:len(by[v]) - left[v] + n] for v, n in need.items()}
            hands[s] = [c for cards in taken.values() for c in cards]
            deal(i + 1, {v: left[v] - need.get(v, 0) for v in left}, hands)
        hands.pop(s, None)

    deal(0, {v: len(cards) for v, cards in by.items()}, {})
    return out


def solve(view: TrucoView, legal: Sequence[Action], most: int | None = None) -> Solution | None:
    """Every choice of ``view``'s seat solved on every deal of the cards it had not seen; None where the decision is
    not of the end game's kind (``within``), a choice is outside what the end game solves, or the deals are more
    than ``most``.

    The plain minimax comes first, on every deal. Only where it gives each choice one value on every deal is the
    other side's information looked at (``Solver.ranged``), deal by deal until a deal shows that what the other side
    cannot tell moves a value (the verdict then cannot be exact, and the rest need not be looked at)."""
    if not within(view):
        return None
    searcher = Searcher(view, list(legal), random.Random(0), 1)
    grouped = searcher.choices()
    moves = [move for _, move in grouped]
    if not grouped or any(move is None or move[0] not in MOVES for move in moves):
        return None
    k = Knowledge.of(view)
    if k.blind:
        return None
    last = len(view.cards) <= 1 and all(s.card_count <= 1 for s in view.seats)
    listed = deals(k, most if most is not None else LAST_DEALS if last else DEALS)
    if listed is None or not listed[0]:
        return None
    hands, count = listed
    solver = Solver(view, k)
    sims = [k.sim(h) for h in hands]
    plain = solver.forced if last else solver.minimax
    low = [[plain(_applied(sim, k.you, move)) for sim in sims] for move in moves if move is not None]
    ranges = [[(v, v) for v in row] for row in low]
    if all(max(row) - min(row) <= EPSILON for row in low):
        for d, sim in enumerate(sims):
            looked = [solver.ranged(_applied(sim, k.you, move)) for move in moves if move is not None]
            for j, r in enumerate(looked):
                ranges[j][d] = r
            if any(hi - lo > EPSILON for lo, hi in looked):
                break
    return Solution(tuple(tuple(g) for g, _ in grouped), tuple(tuple(r) for r in ranges), count)


class Solver:
    """The rest of a hand solved on one deal, its values kept across deals by the state they stand on."""

    def __init__(self, view: TrucoView, k: Knowledge) -> None:
        self.you = k.you
        self.team = k.you & 1
        self.paulista = view.rules is TrucoRules.PAULISTA
        self.target = view.target
        self.copies = copies(self.paulista)
        self.plain: dict[tuple[object, ...], float] = {}
        self.memo: dict[tuple[object, ...], Range] = {}
        self.won: dict[tuple[object, ...], int] = {}
        self.told: dict[tuple[tuple[object, ...], int], bool] = {}

    def value(self, sim: Sim) -> float:
        """The seat's side's match odds from the score the hand leaves."""
        mine = sim.scores[self.team] + sim.pts[self.team]
        theirs = sim.scores[1 - self.team] + sim.pts[1 - self.team]
        return odds.truco(mine, theirs, self.target, self.paulista)

    def minimax(self, sim: Sim) -> float:
        """The rest of the hand from ``sim``, every seat knowing every card: the seat's side takes the most."""
        if sim.done:
            return self.value(sim)
        key = state(sim)
        found = self.plain.get(key)
        if found is not None:
            return found
        seat = sim.actor()
        values = [self.minimax(_applied(sim, seat, m)) for m in sim.legal(seat) if m[0] in LATER]
        out = max(values) if seat & 1 == self.team else min(values)
        self.plain[key] = out
        return out

    def forced(self, sim: Sim) -> float:
        """``minimax`` where every seat holds one card at most: the cards play themselves (a card face down is never
        better than face up where every card is known), so the calls and answers are played over who takes the trick,
        and two deals the same side takes it on have one value (solved once, on the first)."""
        if sim.done:
            return self.value(sim)
        plays = [*sim.trick, *((s, sim.hands[s][0]) for s in sim.order if sim.hands[s])]
        side = sim.standing(plays)
        key = (state(sim, cards=False), self.winner(sim) if side is None else side)
        found = self.plain.get(key)
        if found is None:
            found = self.plain[key] = self.minimax(sim)
        return found

    def ranged(self, sim: Sim) -> Range:
        """The rest of the hand from ``sim``: the seat's side takes the most, the other side the least where it can
        tell the hand's winner, and where it cannot, either of its choices (``sure``)."""
        if sim.done:
            v = self.value(sim)
            return v, v
        key = state(sim)
        found = self.memo.get(key)
        if found is not None:
            return found
        seat = sim.actor()
        moves = [m for m in sim.legal(seat) if m[0] in LATER]
        values = {m: self.ranged(_applied(sim, seat, m)) for m in moves}
        if seat & 1 == self.team:
            out = (max(v[0] for v in values.values()), max(v[1] for v in values.values()))
        else:
            out = self.theirs(sim, seat, values, key)
        self.memo[key] = out
        return out

    def theirs(self, sim: Sim, seat: int, values: dict[Move, Range], key: tuple[object, ...]) -> Range:
        """The other side's decision: its cards as the minimax says (it plays its own cards, whose worth it sees);
        its calls and answers so too where it can tell who takes the hand, else either way."""
        low = min(v[0] for v in values.values())
        if self.sure(sim, seat, key):
            return low, min(v[1] for v in values.values())
        plays = [v for m, v in values.items() if m[0] in (PLAY, DOWN)]
        options = [v for m, v in values.items() if m[0] not in (PLAY, DOWN)]
        if plays:
            options.append((min(v[0] for v in plays), min(v[1] for v in plays)))
        return low, max(v[1] for v in options)

    # -- what a seat of the other side can tell -------------------------------------------------------------
    def sure(self, sim: Sim, seat: int, key: tuple[object, ...]) -> bool:
        """Whether the side deciding at ``seat`` can tell, from what each of its players sees (their own cards and
        the cards face up), which side takes the hand: the same side takes it however the cards they cannot see
        lie. An answer is its whole side's (either partner may give it), so each of them must be able to tell; a
        call is the caller's."""
        answering = sim.pending >= 0
        deciders = [s for s in sim.t.players if s & 1 == seat & 1] if answering else [seat]
        for s in deciders:
            told = self.told.get((key, s))
            if told is None:
                told = self.told[(key, s)] = self.tells(sim, s)
            if not told:
                return False
        return True

    def tells(self, sim: Sim, seat: int) -> bool:
        """Whether ``seat`` can tell which side takes the hand: it does when the best and the worst its unseen
        cards could be for its side (every card it cannot see with its partners at the top of what is left and
        with the others at the bottom, then the other way) give the hand to one side, the truco accepted or not.
        A higher card never harms its holder's side, so between those two lies every deal it cannot rule out."""
        left = [n - g for n, g in zip(self.copies, sim.gone, strict=True)]
        for v in sim.hands[seat]:
            left[v] -= 1
        held = [v for v in range(1, len(left)) if left[v] > 0]
        if not held:
            return True
        top, bottom = held[-1], held[0]
        base = [sim]
        if sim.t.trick_mode and sim.decides < 0 and (sim.pending >= 0 or sim.may_call(0) or sim.may_call(1)):
            accepted = sim.copy()  # a truco accepted makes the trick in play decide the hand
            accepted.pending = -1
            accepted.decides = len(accepted.res)
            base.append(accepted)
        return all(self.winner(_dealt(b, seat, top, bottom)) == self.winner(_dealt(b, seat, bottom, top)) for b in base)

    def winner(self, sim: Sim) -> int:
        """The side that takes the hand with every card played as the minimax says and no call made: each side's
        players play for their side to take it."""
        if sim.done:
            return 0 if sim.pts[0] > sim.pts[1] else 1
        key = state(sim)
        found = self.won.get(key)
        if found is not None:
            return found
        seat = sim.actor()
        if sim.pending >= 0:
            out = self.winner(_applied(sim, seat, (ACCEPT, 0)))
        else:
            moves = [m for m in sim.legal(seat) if m[0] == PLAY]
            results = [self.winner(_applied(sim, seat, m)) for m in moves]
            out = seat & 1 if seat & 1 in results else results[0]
        self.won[key] = out
        return out


def _dealt(sim: Sim, seat: int, ours: int, theirs: int) -> Sim:
    """``sim`` with every card ``seat`` cannot see made ``ours`` in its partners' hands and ``theirs`` in the other
    side's, the points so far set to nothing (only who takes the hand is asked)."""
    c = sim.copy()
    for s in range(len(c.hands)):
        if s != seat and c.hands[s]:
            c.hands[s] = [ours if s & 1 == seat & 1 else theirs] * len(c.hands[s])
    c.pts = [0, 0]
    return c


def _applied(sim: Sim, seat: int, move: Move) -> Sim:
    c = sim.copy()
    c.apply(seat, move)
    return c


def state(sim: Sim, cards: bool = True) -> tuple[object, ...]:
    """What the rest of a hand depends on: two model rounds with the same state have the same solution (``cards``:
    the cards held and on the table too; without them, the rest of the state, with who plays next)."""
    held = (tuple(tuple(sorted(h)) for h in sim.hands), tuple(sim.trick), tuple(sim.gone)) if cards else (
        tuple(len(h) for h in sim.hands), tuple(s for s, _ in sim.trick))
    return (*held, tuple(sim.order), tuple(sim.res), sim.leader, sim.level, sim.calls, sim.pending, sim.owner,
            sim.decides, tuple(sim.pts), sim.done, sim.left, sim.stake_base, tuple(sim.scores))
