"""Meld search for the rummy games: exact, and fast enough to ask often.

A hand is a multiset of cards from the table's pack (``Ruleset.pack``: two French decks hold at most
two of each card, a Spanish pack one, and may hold jokers). It goes out
when all its cards split into melds: *sequences* (3+ consecutive cards of one suit, ace low,
ace high only where the rules allow, never K-A-2; consecutive in the pack's ranks, so that a Spanish
pack of 40 runs 6 7 10 11) and *groups* (3+ cards of one rank, with
exactly or at least three distinct suits, never a suit more than twice). Some
cards are wild (Cacheta's, by the flip; a joker): each meld may hold at most one wild card *acting as
wild*; a wild card that is a card of the pack may always stand as itself, a joker never does.

How it is fast: every meld that fits in a hand is listed once per ruleset, as bit masks
keyed by its lowest card (and once more per wild set, the few that hold a wild card
standing as itself: a wild card in hand has a bit of its own). Each kind of natural card of the pack has its bit
(``Layout``: rank-major, the ranks in the order runs follow). A hand is two masks (cards held at least once, cards
held twice); the search always covers the hand's lowest card next, so it never tries the
same split twice in a different order. Wild cards sort last, so they are chosen as jokers
only once the natural cards that need them are known, and a hand of nothing but wild cards
(at most four) is settled by brute force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import TypeVar

from cardtui.engine.cards import FRENCH_SUITS, SPANISH_SUITS, Card, Suit, pack

MAX_HAND = 10
"""No hand in these games holds more than ten cards, so no longer meld is ever listed."""


FRENCH = "french104"
"""Pif Paf's and Cacheta's pack: two French decks."""


class GroupRule(StrEnum):
    """How many distinct suits a group must show (Pif Paf's option ``group_suits``)."""

    EXACTLY3 = "exactly3"
    ATLEAST3 = "atleast3"
    DISTINCT = "distinct"
    """Three or four of a rank, each suit once: a single pack's groups, a joker acting for a missing suit only."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What counts as a meld. Wild cards themselves are per hand (Cacheta's flip)."""

    group: GroupRule = GroupRule.EXACTLY3
    ace_high: bool = False
    """Q-K-A allowed as well as A-2-3; K-A-2 never is."""
    wild_acts: bool = False
    """Wild cards may act as wild, at most one per meld (Cacheta)."""
    pack: str = FRENCH
    """The pack the table is dealt from (``cardtui.fair.PACKS``): its cards, and the order its runs follow."""
    points: tuple[int, ...] = ()
    """What a card left outside melds counts, by its rank (a joker's at 0): the best arrangement leaves the fewest
    points loose (Chinchón). Empty: every card counts one, and it leaves the fewest cards loose."""

    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Ruleset:
        """Itself, as ``Knock``'s: compiled, a frozen dataclass cannot be copied field by field."""
        return self


PIFPAF = Ruleset()
CACHETA = Ruleset(GroupRule.ATLEAST3, ace_high=True, wild_acts=True)

SUITS: tuple[Suit, ...] = FRENCH_SUITS
CARDS: tuple[Card, ...] = tuple(Card.of(r, s) for r in range(1, 14) for s in SUITS)
"""All 52 kinds of French card, rank-major: a card's index is ``(rank - 1) * 4 + suit`` (its bit in Pif Paf's and
Cacheta's searches)."""
ORDER: tuple[Card, ...] = (*CARDS, *(Card.of(r, s) for r in range(1, 13) for s in SPANISH_SUITS),
                           Card.parse("JK"))
"""Every card a rummy pack holds, in the order hands are sorted in: the French ones first (their index is their
place in ``CARDS``), then the Spanish ones rank-major, then the joker."""
_INDEX = {c: i for i, c in enumerate(ORDER)}


def index(card: Card) -> int:
    """The card's place in ``ORDER``: what hands are sorted by (and a French card's bit in Pif Paf's searches)."""
    try:
        return _INDEX[card]
    except KeyError:
        raise ValueError(f"{card} is not a card of a rummy pack.") from None


class Layout:
    """A pack as the meld search sees it: each kind of natural card at a bit of its own, rank-major with the ranks
    in the order runs follow (so a Spanish pack of 40 runs 7 then 10), how many copies of a card it holds, and its
    jokers. Built once per pack (``layout``)."""

    __slots__ = ("bit", "copies", "jokers", "kinds", "name", "place", "ranks", "size", "suits")

    def __init__(self, name: str) -> None:
        cards = pack(name)
        naturals = [c for c in cards if c.suit is not Suit.JOKER]
        self.name = name
        self.suits: tuple[Suit, ...] = tuple(dict.fromkeys(c.suit for c in naturals))
        self.ranks: tuple[int, ...] = tuple(sorted({c.rank for c in naturals}))
        """The ranks in the order runs follow them, the ace first."""
        self.place = {r: i for i, r in enumerate(self.ranks)}
        self.kinds: tuple[Card, ...] = tuple(Card.of(r, s) for r in self.ranks for s in self.suits)
        """Each kind of natural card, at its bit."""
        self.size = len(self.kinds)
        self.bit = {c: i for i, c in enumerate(self.kinds)}
        self.copies = max(sum(1 for c in naturals if c is k) for k in self.kinds)
        self.jokers = len(cards) - len(naturals)

    def __copy__(self) -> Layout:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Layout:
        return self


_LAYOUTS: dict[str, Layout] = {}


def layout(name: str) -> Layout:
    """The (kept) layout of the pack called ``name``."""
    found = _LAYOUTS.get(name)
    if found is None:
        found = _LAYOUTS[name] = Layout(name)
    return found


def wild_cards(flip: Card) -> tuple[Card, Card]:
    """Cacheta's wild cards: the rank above the flip (K → A) in the flip's colour."""
    rank = flip.rank % 13 + 1
    suits = (Suit.HEARTS, Suit.DIAMONDS) if flip.suit.red else (Suit.SPADES, Suit.CLUBS)
    return (Card.of(rank, suits[0]), Card.of(rank, suits[1]))


# -- what a meld is -----------------------------------------------------------------
def _group_ok(suit_counts: Sequence[int], rule: GroupRule) -> bool:
    if any(n > (1 if rule is GroupRule.DISTINCT else 2) for n in suit_counts):
        return False
    distinct = sum(1 for n in suit_counts if n)
    return distinct == 3 if rule is GroupRule.EXACTLY3 else distinct >= 3


def is_meld(cards: Sequence[Card], rules: Ruleset) -> bool:
    """Whether these cards, each standing as itself, form one meld."""
    if len(cards) < 3:
        return False
    lay = _LAYOUTS.get(rules.pack) or layout(rules.pack)
    place = lay.place
    bit = lay.bit
    first = cards[0]
    group = run = True
    places = []
    for c in cards:
        if c not in bit:
            return False  # a joker never stands as itself, nor does a card of another pack
        group = group and c.rank == first.rank
        run = run and c.suit is first.suit
        places.append(place[c.rank])
    if group:
        return _group_ok([sum(1 for c in cards if c.suit is s) for s in lay.suits], rules.group)
    if not run or len(set(places)) != len(places):
        return False
    low = sorted(places)
    if low[-1] - low[0] == len(low) - 1:
        return True
    if rules.ace_high and low[0] == 0:
        high = sorted(len(lay.ranks) if p == 0 else p for p in low)
        return high[-1] - high[0] == len(high) - 1
    return False


def is_meld_with_wilds(cards: Sequence[Card], rules: Ruleset, wilds: Iterable[Card]) -> bool:
    """A meld as the rules read: naturally, or with exactly one wild card acting as another."""
    if is_meld(cards, rules):
        return True
    if not rules.wild_acts:
        return False
    wild = set(wilds)
    for i, c in enumerate(cards):
        if c in wild:
            rest = list(cards[:i]) + list(cards[i + 1 :])
            if any(is_meld([*rest, x], rules) for x in _stand_ins(rest, rules)):
                return True
    return False


def _stand_ins(rest: Sequence[Card], rules: Ruleset) -> Sequence[Card]:
    """The cards a wild card may act as beside ``rest``: of the rank of its first card, or of its suit (no other
    makes a meld with it)."""
    kinds = layout(rules.pack).kinds
    if not rest:
        return kinds
    first = rest[0]
    return [x for x in kinds if x.rank == first.rank or x.suit is first.suit]


def acting_wild(meld: Sequence[Card], rules: Ruleset, wilds: Iterable[Card]) -> Card | None:
    """The card acting as wild in this meld, or None when every card stands as itself.

    A wild card that fits the meld as itself is not acting; of the others, the last one is
    named (the searches put the card chosen to act last).
    """
    if not rules.wild_acts or is_meld(meld, rules):
        return None
    wild = set(wilds)
    for i in range(len(meld) - 1, -1, -1):
        c = meld[i]
        if c in wild:
            rest = [*meld[:i], *meld[i + 1 :]]
            if any(is_meld([*rest, x], rules) for x in _stand_ins(rest, rules)):
                return c
    return None


@cache
def _natural_melds(rules: Ruleset) -> tuple[tuple[int, ...], ...]:
    """Every natural meld of at most ``MAX_HAND`` cards, as sorted bits of the pack's ``Layout``."""
    lay = layout(rules.pack)
    n, suits = len(lay.ranks), len(lay.suits)
    out: list[tuple[int, ...]] = []
    for place in range(n):
        for counts in _suit_counts(suits, lay.copies):
            if _group_ok(counts, rules.group) and 3 <= sum(counts) <= MAX_HAND:
                out.append(tuple(sorted(place * suits + s for s in range(suits) for _ in range(counts[s]))))
    top = n + 1 if rules.ace_high else n
    for s in range(suits):
        for length in range(3, min(MAX_HAND, n) + 1):
            for start in range(top - length + 1):
                places = [p % n for p in range(start, start + length)]
                out.append(tuple(sorted(p * suits + s for p in places)))
    return tuple(out)


def _suit_counts(suits: int, copies: int) -> list[tuple[int, ...]]:
    """Every way a group may hold each suit, none to ``copies`` times."""
    out: list[tuple[int, ...]] = [()]
    for _ in range(suits):
        out = [(*o, k) for o in out for k in range(copies + 1)]
    return out


# -- the search tables --------------------------------------------------------------
MEMO = 50_000
"""Entries each of a melder's memos holds before it starts again (a few megabytes at most), where it is the
process's only melder."""
MEMO_BUDGET = 40_000
"""Entries the memos of all of a process's melders hold together: each memo's share is this over the memos of the
melders built so far, ``MEMO`` at most. Cacheta deals one of 26 sets of wild cards, each with a melder of its own,
and at ``MEMO`` entries a memo, a process that had seen them all held twenty-six melders' memos full: a table worker
and its bots' processes kept growing through a night (bench/marks.md, "A night on a small host"). Shared, they hold
together a few megabytes (some 180 bytes an entry). At 200,000 a bots' process was still filling them hours into a
night, some 36 MB in all, for no speed: the same 3,000 bots' decisions at Pif Paf, Cacheta and Chinchón, every
level, took as long at 40,000 (bench/marks.md, "The bots' process in its second hour")."""
Entry = tuple[int, int, int, int]
"""A natural meld part as masks: (cards once, cards twice, ~once, cards that drop to one)."""
HoleEntry = tuple[int, int, int, int, int]
"""A part one card short of a meld, and the mask of cards that complete it."""


@dataclass(frozen=True, slots=True)
class Knock:
    """A way to go out: the discard (None: all ten cards melded) and the melds shown."""

    discard: Card | None
    melds: tuple[tuple[Card, ...], ...]

    def __copy__(self) -> Knock:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Knock:
        """Itself: a value no one changes. Compiled, a frozen dataclass cannot be rebuilt field by field as
        ``copy`` rebuilds one (``FrozenInstanceError``), and a rummy state with a knock in it is copied."""
        return self


class _Tables:
    """A ruleset's meld parts over the pack's natural cards, each at its own bit: shared by every set of wild cards.

    A wild card in hand has a bit of its own above the pack's (``Melder``), never its own, so a part that holds a
    wild card's own bit never matches a hand: these tables serve every wild set as they are, and a melder adds only
    the parts that hold its wild cards standing as themselves (``Melder._build``)."""

    def __init__(self, rules: Ruleset) -> None:
        size = layout(rules.pack).size
        self.nat: list[list[Entry]] = [[] for _ in range(size)]
        self.jok: list[list[Entry]] = [[] for _ in range(size)]
        self.hole: list[list[HoleEntry]] = [[] for _ in range(size)]
        self.holej: list[list[HoleEntry]] = [[] for _ in range(size)]
        _fill(self.nat, self.jok, self.hole, self.holej, _natural_melds(rules), rules.wild_acts, lambda m: True, size)


@cache
def _tables(rules: Ruleset) -> _Tables:
    return _Tables(rules)


def _entry(positions: Sequence[int]) -> tuple[int, Entry]:
    m1 = m2 = 0
    for p in positions:
        b = 1 << p
        if m1 & b:
            m2 |= b
        m1 |= b
    return min(positions), (m1, m2, ~m1, m1 & ~m2)


def _fill(
    nat: list[list[Entry]],
    jok: list[list[Entry]],
    hole: list[list[HoleEntry]],
    holej: list[list[HoleEntry]],
    melds: Iterable[tuple[int, ...]],
    joker: bool,
    keep: Callable[[tuple[int, ...]], bool],
    size: int,
) -> None:
    """List the melds' parts by their lowest card, shortest first: the melds themselves (``nat``), each less one
    card that a joker stands for (``jok``), each less one card with the cards that complete it (``hole``), and
    each less two, one of them a joker's (``holej``). Only the parts ``keep`` accepts are listed."""
    nats: set[tuple[int, ...]] = set()
    joks: set[tuple[int, ...]] = set()
    holes: dict[tuple[int, ...], int] = {}
    holejs: dict[tuple[int, ...], int] = {}
    for m in melds:
        if keep(m):
            nats.add(m)
        for i in _distinct_positions(m):
            part = m[:i] + m[i + 1 :]
            if joker and keep(part):
                joks.add(part)
            x = m[i]
            if x < size:
                if keep(part):
                    holes[part] = holes.get(part, 0) | (1 << x)
                if joker:
                    for j in _distinct_positions(part):
                        rest = part[:j] + part[j + 1 :]
                        if rest and keep(rest):
                            holejs[rest] = holejs.get(rest, 0) | (1 << x)
    for table, parts in ((nat, nats), (jok, joks)):
        for part in sorted(parts, key=len):
            low, e = _entry(part)
            if low < size:
                table[low].append(e)
    for htable, hparts in ((hole, holes), (holej, holejs)):
        for part, xs in sorted(hparts.items(), key=lambda kv: len(kv[0])):
            low, e = _entry(part)
            if low < size:
                htable[low].append((*e, xs))


E = TypeVar("E", Entry, HoleEntry)


def _merged(shared: list[list[E]], own: list[list[E]]) -> list[list[E]]:
    """The shared lists, with a melder's own parts merged in (shortest first) where it has any."""
    out = list(shared)
    for c, extra in enumerate(own):
        if extra:
            out[c] = sorted(shared[c] + extra, key=lambda e: e[0].bit_count() + e[1].bit_count())
    return out


class Melder:
    """The meld search for one ruleset and one set of wild cards (none in Pif Paf)."""

    def __init__(self, rules: Ruleset, wilds: Iterable[Card] = ()) -> None:
        self.rules = rules
        lay = self.layout = layout(rules.pack)
        size = self.size = lay.size
        self.wilds = tuple(sorted(set(wilds), key=index)) if rules.wild_acts else ()
        wild_idx = [lay.bit[c] for c in self.wilds if c in lay.bit]
        self._homes = tuple(lay.bit.get(c, size) for c in self.wilds)
        """Each wild card's place among the pack's kinds (``kinds_of``): its own bit, or for a joker the bit after
        the natural cards'."""
        # Bit positions: each natural card at its own; each wild card at a bit of its own above them (52, 53 in a
        # French pack), so wild cards sort last and the tables of natural parts serve every wild set (``_Tables``).
        self._card_at = lay.kinds + self.wilds
        self._bit = dict(lay.bit)
        for k, w in enumerate(self.wilds):
            self._bit[w] = size + k
        self.wild_mask = sum(1 << (size + k) for k in range(len(self.wilds)))
        self._home_mask = sum(1 << i for i in wild_idx)
        """The wild cards' own bits: never set in a hand, never a card that completes one."""
        self.natural_mask = (1 << size) - 1 - self._home_mask
        self._weights: tuple[int, ...] = tuple(rules.points[c.rank] for c in self._card_at) if rules.points else ()
        """Each bit's points where the rules count points (``Ruleset.points``), else none: every card counts one."""
        shared = _tables(rules)
        self.nat: list[list[Entry]] = shared.nat
        self.jok: list[list[Entry]] = shared.jok
        self.hole: list[list[HoleEntry]] = shared.hole
        self.holej: list[list[HoleEntry]] = shared.holej
        self._build()
        self._end: dict[tuple[int, int, int], bool] = {}
        self._end_hole: dict[tuple[int, int, int], int] = {}
        # What the searches found, kept across calls (a bot asks about nearly the same hand many times),
        # each emptied once it holds MEMO entries.
        self._go_memo: dict[tuple[int, int, int], bool] = {}
        self._hole_memo: dict[tuple[int, int, int], int] = {}
        self._best_memo: dict[tuple[int, int], tuple[int, list[tuple[Card, ...]]]] = {}
        self._left_memo: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._wilds_alone: dict[tuple[int, int], tuple[int, int, int, tuple[tuple[Card, ...], ...]]] = {}
        self.memo_cap = MEMO
        """Entries each memo holds before it starts again: its share of ``MEMO_BUDGET`` (``melder``)."""
        self._partners: tuple[tuple[int, ...], ...] | None = None
        """For each bit, the masks of the other cards of the natural melds that hold it, none a superset of another
        (``joins``): built at its first use."""

    # -- building ----------------------------------------------------------------
    def _build(self) -> None:
        """Add the parts that hold a wild card standing as itself, at the wild card's own bit."""
        if not self.wilds:
            return
        size = self.size
        slot = {i: size + k for k, i in enumerate(self._homes) if i < size}
        melds = [
            tuple(sorted(slot.get(i, i) for i in m)) for m in _natural_melds(self.rules) if any(i in slot for i in m)
        ]
        nat: list[list[Entry]] = [[] for _ in range(size)]
        jok: list[list[Entry]] = [[] for _ in range(size)]
        hole: list[list[HoleEntry]] = [[] for _ in range(size)]
        holej: list[list[HoleEntry]] = [[] for _ in range(size)]
        _fill(nat, jok, hole, holej, melds, True, lambda part: part[-1] >= size, size)
        self.nat = _merged(self.nat, nat)
        self.jok = _merged(self.jok, jok)
        self.hole = _merged(self.hole, hole)
        self.holej = _merged(self.holej, holej)

    # -- hands as masks ------------------------------------------------------------
    def masks(self, cards: Iterable[Card]) -> tuple[int, int]:
        """(cards held at least once, cards held twice); a third copy is refused."""
        a = b = 0
        for c in cards:
            bit = 1 << self._bit[c]
            if b & bit:
                raise ValueError(f"A hand cannot hold three {c}: there are two decks.")
            if a & bit:
                b |= bit
            a |= bit
        return a, b

    # -- the searches ----------------------------------------------------------------
    def _go(self, a: int, b: int, d: int) -> bool:
        """Can these cards all be melded, with up to ``d`` (0 or 1) left over as the discard?"""
        if not a & self.natural_mask:
            return self._endgame(a, b, d)
        key = (a, b, d)
        hit = self._go_memo.get(key)
        if hit is None:
            hit = self._go_memo[key] = self._go_search(a, b, d)
        return hit

    def _go_search(self, a: int, b: int, d: int) -> bool:
        low = a & -a
        c = low.bit_length() - 1
        for m1, m2, n1, m1x in self.nat[c]:
            if a & m1 == m1 and b & m2 == m2 and self._go((a & n1) | (b & m1x), b & n1, d):
                return True
        if a & self.wild_mask:
            for m1, m2, n1, m1x in self.jok[c]:
                if a & m1 == m1 and b & m2 == m2:
                    a2, b2 = (a & n1) | (b & m1x), b & n1
                    w = a2 & self.wild_mask
                    while w:
                        t = w & -w
                        w ^= t
                        if self._go(a2 ^ t if not b2 & t else a2, b2 & ~t, d):
                            return True
        if d:
            return self._go(a if b & low else a ^ low, b & ~low, 0)
        return False

    def _endgame(self, a: int, b: int, d: int) -> bool:
        """Only wild cards left (at most four): settle it by trying every split."""
        if not a:
            return True
        key = (a, b, d)
        hit = self._end.get(key)
        if hit is None:
            hit = _brute(self._cards_of(a, b), self.rules, self.wilds, d)
            self._end[key] = hit
        return hit

    def _hole(self, a: int, b: int, d: int, memo: dict[tuple[int, int, int], int]) -> int:
        """The natural cards X that let these cards plus X all meld (``d``: one discard)."""
        key = (a, b, d)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not a & self.natural_mask:
            acc = self._endgame_hole(a, b, d)
            memo[key] = acc
            return acc
        acc = 0
        low = a & -a
        c = low.bit_length() - 1
        wild = self.wild_mask
        natural = self.natural_mask  # a shared part's completing cards may name a wild card's own index
        go = self._go
        for m1, m2, n1, m1x, xs in self.hole[c]:
            xs &= natural
            if xs & ~acc and a & m1 == m1 and b & m2 == m2 and go((a & n1) | (b & m1x), b & n1, d):
                acc |= xs
        if a & wild:
            for m1, m2, n1, m1x, xs in self.holej[c]:
                xs &= natural
                if xs & ~acc and a & m1 == m1 and b & m2 == m2:
                    a2, b2 = (a & n1) | (b & m1x), b & n1
                    w = a2 & wild
                    while w:
                        t = w & -w
                        w ^= t
                        if go(a2 ^ t if not b2 & t else a2, b2 & ~t, d):
                            acc |= xs
                            break
        for m1, m2, n1, m1x in self.nat[c]:
            if a & m1 == m1 and b & m2 == m2:
                acc |= self._hole((a & n1) | (b & m1x), b & n1, d, memo)
        if a & wild:
            for m1, m2, n1, m1x in self.jok[c]:
                if a & m1 == m1 and b & m2 == m2:
                    a2, b2 = (a & n1) | (b & m1x), b & n1
                    w = a2 & wild
                    while w:
                        t = w & -w
                        w ^= t
                        acc |= self._hole(a2 ^ t if not b2 & t else a2, b2 & ~t, d, memo)
        if d:
            acc |= self._hole(a if b & low else a ^ low, b & ~low, 0, memo)
        memo[key] = acc
        return acc

    def _endgame_hole(self, a: int, b: int, d: int) -> int:
        """The natural cards X that let these wild cards plus X all meld (``d``: one discard), tried by brute force
        only where X could meld: where the wild cards meld alone and one is discarded, every X does (as the discard);
        else X is in a meld, whose cards but one wild acting stand as themselves, so X shares its rank or its suit
        with a wild card standing beside it (a Cacheta hand's last wild cards name one or two suits, not four)."""
        key = (a, b, d)
        hit = self._end_hole.get(key)
        if hit is None:
            cards = self._cards_of(a, b)
            if d and _brute(cards, self.rules, self.wilds, 0):
                hit = self.natural_mask
            else:
                ranks = {c.rank for c in cards}
                suits = {c.suit for c in cards}
                hit = 0
                for p in range(self.size):
                    bit = 1 << p
                    x = self._card_at[p]
                    if (bit & self.natural_mask and (x.rank in ranks or x.suit in suits)
                            and _brute((*cards, x), self.rules, self.wilds, d)):
                        hit |= bit
            self._end_hole[key] = hit
        return hit

    def _cards_of(self, a: int, b: int) -> tuple[Card, ...]:
        out: list[Card] = []
        while a:
            t = a & -a
            a ^= t
            c = self._card_at[t.bit_length() - 1]
            out.append(c)
            if b & t:
                out.append(c)
        return tuple(out)

    # -- queries -------------------------------------------------------------------
    def _trim(self) -> None:
        cap = self.memo_cap
        for memo in (self._go_memo, self._hole_memo, self._best_memo, self._left_memo):
            if len(memo) > cap:
                memo.clear()

    def all_melded(self, hand: Iterable[Card]) -> bool:
        """Every card in melds, none left over."""
        self._trim()
        return self._go(*self.masks(hand), 0)

    def goes_out(self, hand: Iterable[Card]) -> bool:
        """After drawing: all ten melded, or nine melded and one to discard."""
        self._trim()
        return self._go(*self.masks(hand), 1)

    def joins(self, hand: Iterable[Card], card: Card) -> bool:
        """Whether ``card`` makes a meld with some of these cards (always, where cards are wild). A hand that does
        not all meld without ``card`` and goes out with it holds ``card`` in a meld, so a claim this refuses needs
        no search (``goes_out``): most discards meet no two cards that meld with them."""
        if self.wilds:
            return True
        partners = self._partners
        if partners is None:
            partners = self._partners = self._partners_of()
        bit = self._bit
        a = 0
        for c in hand:
            a |= 1 << bit[c]
        outside = ~a
        return any(not others & outside for others in partners[bit[card]])

    def _partners_of(self) -> tuple[tuple[int, ...], ...]:
        found: list[set[int]] = [set() for _ in range(self.size)]
        for m in _natural_melds(self.rules):
            mask = 0
            for p in m:
                mask |= 1 << p
            for p in set(m):
                found[p].add(mask & ~(1 << p))
        return tuple(
            tuple(sorted(o for o in masks if not any(q != o and q & o == q for q in masks))) for masks in found
        )

    def discards(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        """The cards whose discard leaves the rest all melded (distinct, in index order)."""
        out = []
        for c in sorted(set(hand), key=index):
            rest = list(hand)
            rest.remove(c)
            if self.all_melded(rest):
                out.append(c)
        return tuple(out)

    def completing(self, hand: Iterable[Card]) -> tuple[Card, ...]:
        """Every card that, added to this hand, lets it go out (na boa when not empty)."""
        cards = list(hand)
        a, b = self.masks(cards)
        self._trim()
        xs = self._hole(a, b, 1, self._hole_memo)
        out = [self._card_at[p] for p in range(self.size) if xs >> p & 1 and not b >> p & 1]
        for w in self.wilds:
            bit = 1 << self._bit[w]
            if not b & bit and self._go(a | bit, b | (a & bit), 1):
                out.append(w)
        return tuple(sorted(out, key=index))

    def filling(self, hand: Iterable[Card]) -> tuple[Card, ...]:
        """Every card that, added to this hand, melds all of it with none left over (Cacheta's ten-card knock)."""
        a, b = self.masks(hand)
        self._trim()
        xs = self._hole(a, b, 0, self._hole_memo)
        out = [self._card_at[p] for p in range(self.size) if xs >> p & 1 and not b >> p & 1]
        for w in self.wilds:
            bit = 1 << self._bit[w]
            if not b & bit and self._go(a | bit, b | (a & bit), 0):
                out.append(w)
        return tuple(sorted(out, key=index))

    def split(self, hand: Iterable[Card]) -> tuple[tuple[Card, ...], ...] | None:
        """The hand as melds (each card in one), or None when it does not all meld."""
        cards = tuple(hand)
        a, b = self.masks(cards)
        found = self._split(a, b)
        if found is None:
            return None
        return tuple(sorted(found, key=lambda m: [index(c) for c in m]))

    def _split(self, a: int, b: int) -> list[tuple[Card, ...]] | None:
        if not a & self.natural_mask:
            cards = self._cards_of(a, b)
            return _brute_split(cards, self.rules, self.wilds)
        c = (a & -a).bit_length() - 1
        options: list[tuple[Entry, int]] = [(e, 0) for e in self.nat[c]]
        if a & self.wild_mask:
            options += [(e, 1) for e in self.jok[c]]
        for (m1, m2, n1, m1x), joker in options:
            if a & m1 != m1 or b & m2 != m2:
                continue
            a2, b2 = (a & n1) | (b & m1x), b & n1
            meld = self._cards_of(m1, m2)
            if not joker:
                rest = self._split(a2, b2)
                if rest is not None:
                    return [meld, *rest]
                continue
            w = a2 & self.wild_mask
            while w:
                t = w & -w
                w ^= t
                rest = self._split(a2 ^ t if not b2 & t else a2, b2 & ~t)
                if rest is not None:
                    return [(*meld, self._card_at[t.bit_length() - 1]), *rest]
        return None

    def knocks(self, hand: Sequence[Card]) -> list[Knock]:
        """Every way this hand (after drawing) goes out: ten melded first, then each discard."""
        out: list[Knock] = []
        if not self.goes_out(hand):
            return out  # one search settles most hands
        whole = self.split(hand)
        if whole is not None:
            out.append(Knock(None, whole))
        for c in self.discards(hand):
            rest = list(hand)
            rest.remove(c)
            melds = self.split(rest)
            assert melds is not None
            out.append(Knock(c, melds))
        return out

    # -- hands as masks over the pack's kinds (the bots' rollouts: no card objects on the way) -------------
    def kinds_of(self) -> tuple[Card, ...]:
        """The cards of a mask the rollouts play with, by bit: the pack's natural kinds (``Layout``), then its joker
        where it has one."""
        return self.layout.kinds + ((Card.parse("JK"),) if self.layout.jokers else ())

    def _in(self, x: int) -> int:
        """A mask over the pack's kinds (``kinds_of``) as this search's bits (wild cards moved to their own bits)."""
        size = self.size
        out = x & ((1 << size) - 1) & ~self._home_mask
        for k, w in enumerate(self._homes):
            out |= (x >> w & 1) << (size + k)
        return out

    def _out(self, x: int) -> int:
        """This search's bits as a mask over the pack's kinds (``_in`` undone)."""
        size = self.size
        out = x & ((1 << size) - 1)
        for k, w in enumerate(self._homes):
            out |= (x >> (size + k) & 1) << w
        return out

    def loose_masks(self, once: int, twice: int) -> tuple[int, int, int]:
        """The cards ``arrange`` leaves outside melds, for a hand given as two masks over the pack's kinds (the cards
        held at least once, the cards held twice): the same two masks of the loose cards, and how many."""
        self._trim()
        _, la, lb = self._left(self._in(once), self._in(twice))
        return self._out(la), self._out(lb), la.bit_count() + lb.bit_count()

    def goes_out_masks(self, once: int, twice: int) -> bool:
        """``goes_out`` for a hand given as two masks over the pack's kinds (``kinds_of``)."""
        self._trim()
        return self._go(self._in(once), self._in(twice), 1)

    def _left(self, a: int, b: int) -> tuple[int, int, int]:
        """``_best`` counting, not listing: the cards melded, and the masks of the cards left (the same choice
        among equals as ``_best``, so both leave the same cards)."""
        if not a & self.natural_mask:
            n, la, lb, _ = self._alone(a, b) if a else (0, a, b, ())
            return n, la, lb
        key = (a, b)
        memo = self._left_memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        low = a & -a
        c = low.bit_length() - 1
        n, la, lb = self._left(a if b & low else a ^ low, b & ~low)
        best = (n, la, lb | low) if la & low else (n, la | low, lb)
        for m1, m2, n1, m1x in self.nat[c]:
            if a & m1 == m1 and b & m2 == m2:
                n, la, lb = self._left((a & n1) | (b & m1x), b & n1)
                size = self._weight(m1) + self._weight(m2) if self._weights else m1.bit_count() + m2.bit_count()
                if n + size > best[0]:
                    best = (n + size, la, lb)
        if a & self.wild_mask:
            for m1, m2, n1, m1x in self.jok[c]:
                if a & m1 == m1 and b & m2 == m2:
                    a2, b2 = (a & n1) | (b & m1x), b & n1
                    w = a2 & self.wild_mask
                    while w:  # as in ``_best``: each wild card that may act
                        t = w & -w
                        w ^= t
                        n, la, lb = self._left(a2 ^ t if not b2 & t else a2, b2 & ~t)
                        size = (self._weight(m1) + self._weight(m2) + self._weight(t) if self._weights
                                else m1.bit_count() + m2.bit_count() + 1)
                        if n + size > best[0]:
                            best = (n + size, la, lb)
        memo[key] = best
        return best

    def arrange(self, hand: Iterable[Card]) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """The hand's best partial arrangement: melds covering most cards, and the rest (melds of wild cards
        alone included: KD KH KH, one acting as KS)."""
        cards = list(hand)
        a, b = self.masks(cards)
        self._trim()
        _, melds = self._best(a, b, self._best_memo)
        rest = list(cards)
        for m in melds:
            for c in m:
                rest.remove(c)
        return tuple(melds), tuple(sorted(rest, key=index))

    def _weight(self, mask: int) -> int:
        """The points of the cards of one mask (``Ruleset.points``)."""
        total = 0
        weights = self._weights
        while mask:
            t = mask & -mask
            mask ^= t
            total += weights[t.bit_length() - 1]
        return total

    def deadwood(self, hand: Iterable[Card]) -> int:
        """What the cards the best arrangement leaves outside melds count (``Ruleset.points``; with none, how many)."""
        _, rest = self.arrange(hand)
        if not self._weights:
            return len(rest)
        return sum(self._weights[self._bit[c]] for c in rest)

    def _alone(self, a: int, b: int) -> tuple[int, int, int, tuple[tuple[Card, ...], ...]]:
        """Only wild cards left (four at most): the most of them that meld by themselves (each meld one acting as
        wild, the others standing as themselves: KD KH KH(as KS)), the masks of those left, and the melds."""
        key = (a, b)
        hit = self._wilds_alone.get(key)
        if hit is None:
            cards = self._cards_of(a, b)
            hit = (0, a, b, ())
            for size in range(len(cards), 2, -1):
                for combo in combinations(range(len(cards)), size):
                    split = _brute_split([cards[i] for i in combo], self.rules, self.wilds)
                    if split is not None:
                        la, lb = self.masks(c for i, c in enumerate(cards) if i not in combo)
                        worth = sum(self._weights[self._bit[cards[i]]] for i in combo) if self._weights else size
                        hit = (worth, la, lb, tuple(split))
                        break
                if hit[0]:
                    break
            self._wilds_alone[key] = hit
        return hit

    def _best(
        self, a: int, b: int, memo: dict[tuple[int, int], tuple[int, list[tuple[Card, ...]]]]
    ) -> tuple[int, list[tuple[Card, ...]]]:
        if not a & self.natural_mask:
            n, _, _, alone = self._alone(a, b) if a else (0, 0, 0, ())
            return n, list(alone)
        key = (a, b)
        hit = memo.get(key)
        if hit is not None:
            return hit
        low = a & -a
        c = low.bit_length() - 1
        best = self._best(a if b & low else a ^ low, b & ~low, memo)
        for m1, m2, n1, m1x in self.nat[c]:
            if a & m1 == m1 and b & m2 == m2:
                n, rest = self._best((a & n1) | (b & m1x), b & n1, memo)
                size = self._weight(m1) + self._weight(m2) if self._weights else m1.bit_count() + m2.bit_count()
                if n + size > best[0]:
                    best = (n + size, [self._cards_of(m1, m2), *rest])
        if a & self.wild_mask:
            for m1, m2, n1, m1x in self.jok[c]:
                if a & m1 == m1 and b & m2 == m2:
                    a2, b2 = (a & n1) | (b & m1x), b & n1
                    w = a2 & self.wild_mask
                    while w:  # which wild card acts matters: another may be wanted standing as itself
                        t = w & -w
                        w ^= t
                        n, rest = self._best(a2 ^ t if not b2 & t else a2, b2 & ~t, memo)
                        size = (self._weight(m1) + self._weight(m2) + self._weight(t) if self._weights
                                else m1.bit_count() + m2.bit_count() + 1)
                        if n + size > best[0]:
                            meld = (*self._cards_of(m1, m2), self._card_at[t.bit_length() - 1])
                            best = (n + size, [meld, *rest])
        memo[key] = best
        return best


def _distinct_positions(m: tuple[int, ...]) -> list[int]:
    """Indices into ``m`` of its distinct values (removing either copy is the same)."""
    return [i for i in range(len(m)) if i == 0 or m[i] != m[i - 1]]


# -- tiny hands by brute force (only wild cards left: four at most) --------------------
def _brute_split(
    cards: Sequence[Card], rules: Ruleset, wilds: Sequence[Card]
) -> list[tuple[Card, ...]] | None:
    if not cards:
        return []
    first, rest = cards[0], list(cards[1:])
    for size in range(2, len(rest) + 1):
        for combo in combinations(range(len(rest)), size):
            meld = (first, *(rest[i] for i in combo))
            if is_meld_with_wilds(meld, rules, wilds):
                left = [c for i, c in enumerate(rest) if i not in combo]
                found = _brute_split(left, rules, wilds)
                if found is not None:
                    return [meld, *found]
    return None


def _brute(cards: Sequence[Card], rules: Ruleset, wilds: Sequence[Card], d: int) -> bool:
    if _brute_split(cards, rules, wilds) is not None:
        return True
    return bool(d) and any(
        _brute_split(list(cards[:i]) + list(cards[i + 1 :]), rules, wilds) is not None
        for i in range(len(cards))
    )


_MELDERS: dict[tuple[Ruleset, frozenset[Card]], Melder] = {}
_BUDGET = [MEMO_BUDGET]
"""This process's budget (``memo_budget``)."""


def memo_budget(entries: int) -> None:
    """Set the entries the memos of this process's melders hold together (``MEMO_BUDGET`` unless set). A process
    whose bots search elsewhere asks a few questions a turn (legal moves, a hand's end) and needs little: a small
    budget fills within its first hands instead of over a night."""
    _BUDGET[0] = entries
    _share()


def _share() -> None:
    if _MELDERS:
        share = min(MEMO, _BUDGET[0] // (4 * len(_MELDERS)))
        for each in _MELDERS.values():  # the memos' budget shared anew among every melder built
            each.memo_cap = share


def melder(rules: Ruleset, wilds: Iterable[Card] = ()) -> Melder:
    """The (cached) search for a ruleset and wild set: tables are built once per pair."""
    key = (rules, frozenset(wilds) if rules.wild_acts else frozenset())
    m = _MELDERS.get(key)
    if m is None:
        if rules.wild_acts and key[1] and rules.pack == FRENCH:
            # Every wild set a flip makes, at once (a tenth of a second, some 12 MB): a process that plays
            # Cacheta meets them all in its first hours, and built as they came they kept a table worker growing
            # through a night.
            for flip in CARDS:
                wild = frozenset(wild_cards(flip))
                if (rules, wild) not in _MELDERS:
                    _MELDERS[rules, wild] = Melder(rules, wild)
            m = _MELDERS.get(key) or _MELDERS.setdefault(key, Melder(rules, key[1]))
        else:
            m = Melder(rules, key[1])
            _MELDERS[key] = m
        _share()
    return m

