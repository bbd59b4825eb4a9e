"""Cacho bots by level: the search behind ``normal`` and ``hard`` (``easy`` is ``cacho_easy``).

The search deals the other players' cards many ways from the cards this seat cannot see,
weighs each deal by how likely it makes what they did (who bet in each round, who bet or
raised in the third), and plays each candidate action out on every deal: the rest of the
hand follows a plain model policy for every seat, then the showdown. An action is worth the
chips it leaves this seat with on average; in a winner-takes-all match a seat's chance of
winning goes with its share of the chips, so chips are the match's own measure.

Hand strengths and equities come from exact tables over the 24-card deck: the chance that a
hand (one, two or three cards, completed at random) beats one random hand of three.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from functools import cache
from itertools import combinations

from cardtui.engine.betting import BET as OPEN
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE, Pots
from cardtui.engine.bots import estimates
from cardtui.engine.bots.bluffs import bet_bluff_rate
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.cacho.rules import BET, DECK, PASS, CachoView, SeatStatus, strength
from cardtui.engine.cards import Card
from cardtui.engine.core import Action

INDEX = {c: i for i, c in enumerate(DECK)}
N = len(DECK)


@cache
def key(hand: tuple[int, ...]) -> int:
    """A three-card hand's strength as one number (higher beats lower)."""
    cat, pts = strength([DECK[i] for i in hand])
    return cat * 100 + pts


@cache
def _all_keys() -> dict[tuple[int, ...], int]:
    return {h: key(h) for h in combinations(range(N), 3)}


@cache
def _equity3() -> dict[tuple[int, ...], float]:
    """``equity`` of every three-card hand at once: the hands disjoint from one that it beats are every
    hand it beats, less those sharing a card with it (by inclusion and exclusion over its cards)."""
    keys = _all_keys()
    everyone = sorted(keys.values())
    by_card: dict[tuple[int, ...], list[int]] = {}
    for h, k in keys.items():
        for part in (*((c,) for c in h), *combinations(h, 2)):
            by_card.setdefault(part, []).append(k)
    for ks in by_card.values():
        ks.sort()

    def below(ks: list[int], k: int) -> float:  # hands under k, an equal one counting half
        return bisect_left(ks, k) + 0.5 * (bisect_right(ks, k) - bisect_left(ks, k))

    rest = math.comb(N - 3, 3)
    out = {}
    for h, k in keys.items():
        won = below(everyone, k) - sum(below(by_card[(c,)], k) for c in h)
        won += sum(below(by_card[pair], k) for pair in combinations(h, 2)) - 0.5  # h itself: equal, counted once
        out[h] = won / rest
    return out


@cache
def equity(hand: tuple[int, ...]) -> float:
    """The chance that ``hand`` (sorted card indices, 1 to 3 of them), completed to three at random,
    beats one random hand of three from the rest (an equal hand counts half)."""
    if len(hand) == 3:
        return _equity3()[hand]
    rest = [i for i in range(N) if i not in hand]
    return sum(equity(tuple(sorted((*hand, c)))) for c in rest) / len(rest)


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


# -- the model policy: how every seat plays in a hand played out, and what others' actions tell --------
R1_AT, R2_AT = 0.40, 0.50
R3_BET_AT, R3_RAISE_AT = 0.62, 0.86


def _power(cards: tuple[int, ...], opponents: int) -> float:
    """The chance that ``cards`` beat ``opponents`` hands: remembered by the cards in order, so that the memo holds
    each hand once (a few thousand entries, filled in a process's first hands) and not each of its orderings (six
    times as many, still filling a bots' process through a night: bench/marks.md, "A night on a small host")."""
    return _sorted_power(tuple(sorted(cards)), opponents)


@cache
def _sorted_power(cards: tuple[int, ...], opponents: int) -> float:
    return equity(cards) ** max(1, opponents)


@cache
def p_bet_early(rnd: int, cards: tuple[int, ...]) -> float:
    """The model's chance of betting in round 1 or 2 with these cards, however many are in.

    A bet there buys one more card for a chip or two: players stay on a card's promise against one
    hand, not on beating every seat at the table. Scaled to the count (the chance of beating all
    three at four), the model passed round 1 with anything but a six: the deals played out had three
    tight opponents where a table has loose ones, and a bet in round 1 read as a six."""
    return 0.05 + 0.9 * _sig((equity(tuple(sorted(cards))) - (R1_AT if rnd == 1 else R2_AT)) / 0.05)


def p_aggressive(cards: tuple[int, ...], opponents: int) -> float:
    """The model's chance of betting or raising in round 3 with these cards."""
    return 0.05 + 0.9 * _sig((_power(cards, opponents) - R3_BET_AT) / 0.07)


def p_call(cards: tuple[int, ...], opponents: int, owe: int, pot: int) -> float:
    """The model's chance of calling ``owe`` into ``pot`` (rather than folding)."""
    need = owe / (pot + owe) + 0.15 * owe / max(1, pot)
    return 0.03 + 0.94 * _sig((_power(cards, opponents) - min(0.95, need)) / 0.05)


class Hand:
    """A Cacho hand in play on a known deal: rounds 1 to 3 and the showdown (no redeals: all passing ends it)."""

    __slots__ = ("bet", "bettors", "cap_fixed", "cards", "done", "in_play", "level", "order", "pending", "pots",
                 "rnd", "stacks")

    def __init__(self) -> None:
        self.order: list[int] = []
        self.cards: dict[int, tuple[int, ...]] = {}
        self.stacks: list[int] = []
        self.pots = Pots(0)
        self.rnd = 1
        self.pending: list[int] = []
        self.bettors: list[int] = []
        self.bet: dict[int, int] = {}
        self.level = 0
        self.done = False
        self.cap_fixed = 0
        self.in_play: list[int] = []  # ``order`` less the folded; replaced, never changed in place (copies share it)

    def copy(self) -> Hand:
        h = Hand()  # a compiled class is made by its __init__: its fields are set again below
        h.order = self.order
        h.cards = self.cards
        h.stacks = list(self.stacks)
        h.pots = Pots(len(self.stacks))
        h.pots.put = list(self.pots.put)
        h.pots.folded = set(self.pots.folded)
        h.rnd = self.rnd
        h.pending = list(self.pending)
        h.bettors = list(self.bettors)
        h.bet = dict(self.bet)
        h.level = self.level
        h.done = self.done
        h.cap_fixed = self.cap_fixed
        h.in_play = self.in_play
        return h

    @property
    def live(self) -> list[int]:
        return self.in_play

    def fold(self, seat: int) -> None:
        self.pots.folded.add(seat)
        self.in_play = [s for s in self.in_play if s != seat]

    def cap(self) -> int:
        return min((self.stacks[s] + self.bet.get(s, 0) for s in self.live), default=0)

    def actor(self) -> int:
        return -1 if self.done or not self.pending else self.pending[0]

    def seen(self, seat: int) -> tuple[int, ...]:
        return self.cards[seat][: self.rnd]

    # -- rounds 1 and 2 ----------------------------------------------------------------------
    def early(self, seat: int, bet: bool) -> None:
        self.pending.pop(0)
        if bet:
            amount = min(1 if self.rnd == 1 else 2, self.stacks[seat])
            self.stacks[seat] -= amount
            self.pots.put[seat] += amount
            self.bettors.append(seat)
        elif self.rnd == 1:
            self.fold(seat)
        if self.pending:
            return
        if self.rnd == 1:
            if not self.bettors:
                self.done = True  # all passed: a redeal, nothing won or lost
                return
        elif self.bettors:
            for s in self.live:
                if s not in self.bettors:
                    self.fold(s)
        live = self.live
        if len(live) == 1:
            self.done = True
            return
        self.rnd += 1
        self.bettors = []
        if self.rnd == 2:
            self.pending = list(live)
        else:
            self.open_three()

    def open_three(self) -> None:
        self.rnd = 3
        self.bet = {s: 0 for s in self.live}
        self.level = 0
        self.pending = [s for s in self.live if self.stacks[s] > 0]
        if len(self.live) <= 1:
            self.pending = []

    # -- round 3 ---------------------------------------------------------------------------
    def owe(self, seat: int) -> int:
        return min(self.level - self.bet[seat], self.stacks[seat])

    def raise_range(self, seat: int) -> tuple[int, int]:
        return max(self.level + 1, 1), min(self.cap(), self.bet[seat] + self.stacks[seat])

    def late(self, seat: int, kind: str, to: int = 0) -> None:
        if kind == FOLD:
            self.fold(seat)
            self.pending.pop(0)
        elif kind in (CHECK, CALL):
            self.pending.pop(0)
            self._move(seat, self.owe(seat))
        else:
            self._move(seat, to - self.bet[seat])
            self.level = to
            i = self.order.index(seat)
            after = self.order[i + 1 :] + self.order[:i]
            self.pending = [s for s in after if s not in self.pots.folded and self.stacks[s] > 0]
        if not self.pending or len(self.live) <= 1:
            self.pending = []
            self.done = True

    def _move(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bet[seat] += chips
        self.pots.put[seat] += chips

    # -- the end ----------------------------------------------------------------------------
    def final(self, seat: int) -> int:
        """``seat``'s chips once the hand is over (a redeal leaves everyone where they are)."""
        live = self.live
        put = self.pots.put
        if self.rnd == 1 and not self.bettors and not any(put):
            return self.stacks[seat]
        level = put[live[0]] if live else 0
        if level > 0 and all(put[s] == level for s in live):  # one pot, no side pots: the best live hand takes it
            if seat not in live:
                return self.stacks[seat]
            best = max(live, key=lambda s: (key(tuple(sorted(self.cards[s]))), -self.order.index(s)))
            return self.stacks[seat] + (sum(put) if best == seat else 0)
        if len(live) > 1:
            ranking = sorted(live, key=lambda s: (key(tuple(sorted(self.cards[s]))), -self.order.index(s)),
                             reverse=True)
        else:
            ranking = live
        won = self.pots.award(ranking)
        return self.stacks[seat] + won[seat]


class Model:
    """The model policy, deterministic given the deal: thresholds on equity against the seats still in."""

    def decide(self, h: Hand, seat: int) -> tuple[str, int]:
        opponents = len(h.live) - 1
        if h.rnd < 3:
            return (BET, 0) if p_bet_early(h.rnd, h.seen(seat)) >= 0.5 else (PASS, 0)
        cards = h.cards[seat]
        owe = h.owe(seat)
        lo, hi = h.raise_range(seat)
        power = _power(cards, opponents)
        pot = sum(h.pots.put)
        if lo <= hi and power >= (R3_RAISE_AT if owe else R3_BET_AT):
            to = max(lo, min(hi, h.level + max(1, (pot + owe) // 2)))
            return (RAISE, to)
        if not owe:
            return (CHECK, 0)
        return (CALL, 0) if p_call(cards, opponents, owe, pot) >= 0.5 else (FOLD, 0)

    def play_out(self, h: Hand) -> None:
        while not h.done:
            seat = h.actor()
            if seat < 0:
                h.done = True
                break
            kind, to = self.decide(h, seat)
            if h.rnd < 3:
                h.early(seat, kind == BET)
            else:
                h.late(seat, kind, to)


MODEL = Model()


# -- what a seat knows, and the search -------------------------------------------------------------
def below(rng: random.Random, n: int) -> int:
    """A number from 0 to ``n - 1``, drawn as ``random.Random`` draws one (``_randbelow``)."""
    bits = n.bit_length()
    r: int = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``, drawn the very same way, without its checks and general cases: a
    search deals thousands of times a decision, and the library's own took a third of a Cacho analysis's
    time once the rest was compiled."""
    n = len(population)
    size = 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)
    out: list[int] = []
    if n <= size:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            out.append(pool[j])
            pool[j] = pool[n - i - 1]
        return out
    taken: set[int] = set()
    for _ in range(k):
        j = below(rng, n)
        while j in taken:
            j = below(rng, n)
        taken.add(j)
        out.append(population[j])
    return out


class Search:
    """One decision: ``worlds`` weighted deals, every candidate played out on each."""

    def __init__(self, view: CachoView, legal: list[Action], rng: random.Random, worlds: int,
                 temper: float = 1.0) -> None:
        self.view = view
        self.temper = temper
        """The power each deal's likelihood is raised to: below 1, what the others did is read less
        sharply than the model plays it (people bet and call more loosely than the model)."""
        self.legal = legal
        self.rng = rng
        self.worlds = worlds
        self.you = view.you if view.you is not None else 0
        self.alive: list[int] = []

    def hand(self) -> tuple[Hand, list[int]]:
        """The hand in play as far as the seat knows it (others' cards to be dealt), and the unseen cards."""
        v = self.view
        n = len(v.seats)
        order = [(v.dealer + 1 + i) % n for i in range(n)]
        h = Hand()
        h.order = [s for s in order if v.seats[s].status is not SeatStatus.WAITING
                   and v.seats[s].status is not SeatStatus.BUST]
        h.stacks = [s.chips for s in v.seats]
        h.pots = Pots(n)
        h.pots.put = [s.put for s in v.seats]
        h.rnd = v.round
        for s in v.seats:
            if s.seat in h.order and s.status is SeatStatus.PASSED and v.round == 3:
                h.pots.folded.add(s.seat)
            if s.seat in h.order and s.status is SeatStatus.PASSED and v.round < 3 and s.put == 0:
                h.pots.folded.add(s.seat)
        mine = [INDEX[c] for c in v.seats[self.you].cards]
        unseen = [i for i in range(N) if i not in mine]
        live = h.in_play = [s for s in h.order if s not in h.pots.folded]
        i = h.order.index(self.you)
        if v.round < 3:
            # Before this seat, in order: who bet this round (round 2: put beyond round 1's chip).
            floor = 1 if v.round == 2 else 0
            h.bettors = [s for s in h.order[:i] if v.seats[s].status is SeatStatus.IN and v.seats[s].put > floor]
            h.pending = [s for s in h.order[i:] if v.seats[s].status is SeatStatus.IN]
        else:
            pre = max((v.seats[s].put for s in live), default=0) - v.level
            h.bet = {s: max(0, v.seats[s].put - pre) for s in live}
            h.level = v.level
            if v.level == 0:  # those before this seat checked; those after have not spoken
                rest = h.order[i + 1 :]
            else:  # those who have not matched the last raise, going round from this seat
                rest = [s for s in h.order[i + 1 :] + h.order[:i] if s in h.bet and h.bet[s] < v.level]
            h.pending = [self.you, *(s for s in rest if s in live and h.stacks[s] > 0)]
        return h, unseen

    def likelihood(self, h: Hand, deal: dict[int, tuple[int, ...]]) -> float:
        v = self.view
        w = 1.0
        opponents = max(1, len(h.live) - 1)
        for s, cards in deal.items():
            seat = v.seats[s]
            if v.round >= 2 and s in h.live:
                w *= p_bet_early(1, cards[:1])
            if v.round == 3 and s in h.live:
                pre = max((v.seats[x].put for x in h.live), default=0) - v.level
                w *= p_bet_early(2, cards[:2]) if pre >= 3 else 1 - p_bet_early(2, cards[:2])
                if h.bet.get(s, 0) > 0:
                    w *= p_aggressive(cards, opponents) if h.bet[s] == v.level else 0.5
            if v.round == 2 and seat.put >= 3:
                w *= p_bet_early(2, cards[:2])
        return w

    def candidates(self) -> list[tuple[Action, str, int]]:
        out: list[tuple[Action, str, int]] = []
        if self.view.round < 3:
            return [(a, a.type, 0) for a in self.legal]
        raises = [a for a in self.legal if a.type in (OPEN, RAISE)]
        for a in self.legal:
            if a.type in (FOLD, CHECK, CALL, PASS, BET) and a not in raises:
                out.append((a, a.type, 0))
        if raises:
            pot = self.view.pot
            level = self.view.level
            wanted = {raises[0].amount, raises[-1].amount}
            for frac in (0.33, 0.5, 1.0, 2.0):
                want = level + max(1, round(frac * (pot + level)))
                wanted.add(min(raises, key=lambda a: abs(a.amount - want)).amount)
            if equity(card_ids(self.view.seats[self.you].cards)) >= 1.0:
                # Nobody can beat it: a bet about the pot gets paid; everything only makes everyone fold.
                wanted = {w for w in wanted if w <= level + max(1, pot)} or {raises[0].amount}
            out += [(a, RAISE, a.amount) for a in raises if a.amount in wanted]
        if any(kind == CHECK for _, kind, _ in out):
            # A fold when a check is free is never better: the seat may still fold to a bet. The play-outs
            # make this seat's later choices with the model, which calls more than it should, so they
            # rated a free check below a fold and the search folded weak hands nobody had bet against.
            out = [c for c in out if c[1] != FOLD]
        return out

    def evaluate(self) -> Evaluation:
        """Every legal action (each amount a raise may take) valued in chips on the same weighed deals:
        the chips this seat holds once the hand is over, less what it holds now."""
        cands = [(a, RAISE if a.type in (OPEN, RAISE) and self.view.round == 3 else a.type, a.amount)
                 for a in self.legal]
        values, weights = self.play_outs(cands, race_every=0)
        now = self.view.seats[self.you].chips
        rows = [[x - now for x in row] for row in values]
        return weighed(Unit.CHIPS, [[a] for a, _, _ in cands], rows, weights)

    def play_outs(self, cands: list[tuple[Action, str, int]], race_every: int | None = None
                  ) -> tuple[list[list[float]], list[float]]:
        """Each candidate's chips on each kept deal, and the deals' weights; every ``race_every`` deals
        (``BATCH`` by default, 0 never) a candidate clearly behind leaves (its row stops growing: ``race``)."""
        race_every = BATCH if race_every is None else race_every
        base, unseen = self.hand()
        others = [s for s in base.order if s != self.you]
        mine = tuple(INDEX[c] for c in self.view.seats[self.you].cards)
        alive = list(range(len(cands)))
        values: list[list[float]] = [[] for _ in cands]
        weights: list[float] = []
        rng = self.rng
        for n in range(1, self.worlds + 1):
            cards = sample(rng, unseen, 3 * len(others) + 3 - len(mine))
            deal = {s: tuple(cards[3 * i : 3 * i + 3]) for i, s in enumerate(others)}
            me = (*mine, *cards[3 * len(others) :])
            h = base.copy()
            h.cards = {**deal, self.you: me}
            w = self.likelihood(h, {s: deal[s] for s in others if s in h.live})
            if self.temper != 1.0:
                w **= self.temper
            if w > 0:
                weights.append(w)
                for j in alive:
                    _, kind, to = cands[j]
                    c = h.copy()
                    if c.rnd < 3:
                        c.early(self.you, kind == BET)
                    else:
                        c.late(self.you, kind, to)
                    if self.you in c.pots.folded and not c.pots.put[self.you]:
                        # Out with nothing put in: however the others play on, this seat's chips stay.
                        values[j].append(c.stacks[self.you])
                        continue
                    MODEL.play_out(c)
                    values[j].append(c.final(self.you))
            if race_every and n % race_every == 0 and len(weights) >= race_every:
                alive = race(alive, values, weights)
                if len(alive) == 1:
                    break
        self.alive = alive
        return values, weights

    def decide(self) -> Action:
        """Every candidate is played out on the same deals, so two candidates are compared deal by deal.
        Every ``BATCH`` deals, a candidate whose shortfall behind the leader is ``CLEAR`` standard
        errors out of reach leaves the race: clear choices end after a few dozen deals, close ones
        use every deal allowed."""
        cands = self.candidates()
        if len(cands) == 1:
            return cands[0][0]
        values, weights = self.play_outs(cands)
        alive = self.alive
        if not weights:
            return cands[0][0]
        best = max(alive, key=lambda j: sum((w * v for w, v in zip(weights, values[j], strict=True)), 0.0))
        return cands[best][0]


BATCH = 30
"""Deals between two looks at the race."""
CLEAR = 3.0
"""Standard errors by which a candidate must trail the leader to leave the race."""
CLOSE = 0.05
"""Chips: when every candidate left is, by ``CLEAR`` standard errors, within this much of the leader,
the choice no longer matters and the race ends."""


def race(alive: list[int], values: list[list[float]], weights: list[float]) -> list[int]:
    """The candidates still in the race: those not ``CLEAR``-ly behind the leader, deal by deal.

    The shortfall's error is that of a weighted mean of per-deal differences (the deals are weighed by
    how well they explain what was seen), with the weights' effective count for the sample size. A
    candidate that did exactly as the leader on every deal (no error at all) leaves too: the two are
    the same choice here. When all that are left are surely ``CLOSE`` to the leader, the leader alone
    is left."""
    sw = sum(weights, 0.0)
    n_eff = sw * sw / sum((w * w for w in weights), 0.0)
    means = {j: sum((w * v for w, v in zip(weights, values[j], strict=True)), 0.0) / sw for j in alive}
    lead = max(alive, key=lambda j: means[j])
    kept = [lead]
    close = True
    for j in alive:
        if j == lead:
            continue
        diffs = [a - b for a, b in zip(values[lead], values[j], strict=True)]
        mean = means[lead] - means[j]
        spread = sum((w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)), 0.0)
        error = CLEAR * math.sqrt(spread / sw / n_eff)
        if mean > error or (error == 0.0 and mean == 0.0):
            continue
        kept.append(j)
        close = close and mean + error < CLOSE
    return [lead] if close else sorted(kept)


NORMAL_WORLDS = 30
"""Deals normal searches: enough to beat simple play, few enough that close choices fall to the deals' luck."""
HARD_WORLDS = 300


def _alone(view: CachoView, legal: list[Action]) -> Action | None:
    """Everyone else has passed before the last round: a lone bettor takes the pot back unseen, so bet
    (passing too would only deal again)."""
    me = view.you if view.you is not None else 0
    others = [s for s in view.seats if s.seat != me and s.status is SeatStatus.IN]
    bet = next((a for a in legal if a.type == BET), None)
    return bet if view.round < 3 and not others and bet is not None else None


def normal(view: CachoView, legal: list[Action], rng: random.Random) -> Action:
    """The normal Cacho bot: the search on a few deals."""
    return _alone(view, legal) or Search(view, legal, rng, NORMAL_WORLDS).decide()


TEMPER = 0.5
"""Hard's ``Search.temper``. With the model's likelihood as it is, four players' deals are weighed so
unevenly that a few dozen of 300 decide (an effective count of 2 to 8): after a bet and a call, a
31 two of a suit folded as often as not. Its square root keeps the reading and spreads the weight."""
WEAK = 0.25
"""Below this chance of beating every other hand still in, a hand opening the betting in round 3
bets only as a bluff (``bluffs``), at the rate that leaves a caller indifferent."""
VALUE = 0.5
"""From this chance up, a hand is a value hand (the search bets it as it likes)."""


@cache
def _shares(opponents: int) -> tuple[float, float]:
    """How often a hand of three has a value hand (``VALUE``) and a weak one (``WEAK``) against this many."""
    powers = [_power(h, opponents) for h in combinations(range(N), 3)]
    return sum(p >= VALUE for p in powers) / len(powers), sum(p < WEAK for p in powers) / len(powers)


def _mixed(view: CachoView, legal: list[Action], rng: random.Random) -> tuple[Action | None, list[Action]]:
    """Round 3, nobody has bet yet, a weak hand: a bluff drawn now (about half the pot), or the legal
    actions left to the search (no bet: the search is not left to bluff every time its model folds)."""
    me = view.seats[view.you or 0]
    opponents = sum(1 for s in view.seats if s.status is SeatStatus.IN and s.seat != me.seat)
    opens = [a for a in legal if a.type == OPEN]
    if view.round < 3 or not opens or not opponents or _power(card_ids(me.cards), opponents) >= WEAK:
        return None, legal
    bet = min(opens, key=lambda a: abs(a.amount - max(1, view.pot // 2)))
    value, weak = _shares(opponents)
    if rng.random() < bet_bluff_rate(view.pot, bet.amount, value, weak):
        return bet, legal
    return None, [a for a in legal if a.type != OPEN]


def hard(view: CachoView, legal: list[Action], rng: random.Random) -> Action:
    """The hard Cacho bot: the search on many deals, its likelihood tempered, weak bets mixed."""
    alone = _alone(view, legal)
    if alone is not None:
        return alone
    bluff, rest = _mixed(view, legal, rng)
    if bluff is not None:
        return bluff
    return Search(view, rest, rng, HARD_WORLDS, temper=TEMPER).decide()


def card_ids(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(sorted(INDEX[c] for c in cards))


def evaluate(view: CachoView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY) -> Evaluation:
    """Every legal choice of ``view``'s seat, in chips, from hard's search with ``budget``."""
    return Search(view, legal, rng, budget.deals(HARD_WORLDS), temper=TEMPER).evaluate()
