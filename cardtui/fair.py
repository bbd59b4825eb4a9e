"""The fair-deal scheme ``cardtui-deal/1``: commit, cut, shuffle, reveal (issue 14).

At a real table the server draws a secret 256-bit seed and publishes its SHA-256 (the
*commitment*) before the hand; each seated person's client adds a seed of its own (the
*cut*); the deck is then shuffled by a stream that only those seeds, the table and the
hand number decide; when the hand ends the server seed is revealed.

This module is the scheme alone: pure (hmac, random, and the package's SHA-256,
``cardtui.hashes``, itself the standard library's), importing nothing else of cardtui.
The engine deals through it and the client checks its deals through it, so that the two
can never disagree on a byte; ``cardtui.engine.fairness`` adds what only the engine can
do (replaying a whole hand history, the chain of histories).

The specification is ``docs/deal.md`` (with its test vectors, ``docs/deal-vectors.json``);
each part below names the section it implements. In short:

- message = ``b"cardtui-deal/1\\x00"`` ‖ u32 len(table) ‖ table (UTF-8) ‖ u64 hand ‖
  u32 count ‖ for each player seed, by seat: u32 seat ‖ u32 len(seed) ‖ seed (§4);
- block *i* = HMAC-SHA256(key = server seed, message ‖ u64 i); ``getrandbits(k)`` takes the
  stream's next ⌈k/8⌉ bytes, big-endian, and keeps the top k bits (§5);
- j below n is ``getrandbits(n.bit_length())`` drawn again while it is ≥ n (§6), and a shuffle
  swaps ``x[i]`` with ``x[j]``, j below i + 1, for i from len(x) - 1 down to 1 (§7): CPython's
  ``random.shuffle`` does exactly this through ``_randbelow_with_getrandbits``, and the test
  vectors hold it to that;
- the packs (§2) and how each game deals from them (§9–§10: Cacho and the rummy games from
  the end of the shuffled pack, truco paulista from its front in threes, truco argentino from
  ``sample_positions``, §8).

No 64-bit generator stands between the seeds and the deck: a 104-card deck has about 552
bits of orderings, and every one of them is reachable.
"""

from __future__ import annotations

import hmac
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardtui.hashes import sha256

SCHEMES = ("cardtui-deal/1", "cardtui-deal/2")
"""Every version of the scheme this module deals and checks by (docs/deal.md §16)."""
SCHEME = SCHEMES[-1]
"""The scheme a table deals by now: ``cardtui-deal/2``, whose players' seeds are the links of chains pledged
before any of them is seen (§3a). Its name is in histories (``fair.scheme``), on the wire and in the stream's
message; ``cardtui-deal/1`` hands are still read and checked."""

SEED_BYTES = 32
"""A server seed is 32 bytes (256 bits), and so is the seed a client sends."""
MAX_PLAYER_SEED = 64
"""A player's seed is 1 to 64 bytes."""

_STATE = "cardtui-fair-random/1"
LINK_TAG = b"cardtui-deal/2 link\x00"
"""What a link is hashed with to give the one before it (docs/deal.md §3a)."""
CHAIN_LINKS = 4096
"""How many hands a pledged chain lasts (a client that sits again pledges a new one)."""


def commitment(server_seed: bytes) -> str:
    """The published commitment to a server seed: its SHA-256, in hex."""
    return sha256(server_seed).hexdigest()


def before(link: bytes) -> bytes:
    """The value a link follows in its chain: ``SHA-256(LINK_TAG ‖ link)`` (docs/deal.md §3a). A seat's pledge is
    the first value of its chain; its link for a hand is the one whose ``before`` the hand's commitment names."""
    return sha256(LINK_TAG + link).digest()


class Chain:
    """A seat's hash chain (docs/deal.md §3a): link 0 is the pledge sent when sitting down, and each hand
    takes the next link, ``before(link(i + 1)) == link(i)``. Every link is fixed when the pledge is made, so no
    seat, the host's own included, can choose its contribution to a hand after seeing another's.

    Only every ``MARK_EVERY``-th link is kept (and the top), 65 of the 4,097: any other is hashed down from the
    kept one above it, at most ``MARK_EVERY - 1`` hashes, and the run of links last asked about is remembered,
    as a seat's hands go through its chain in order. Every link kept was 300 KB of small objects for each seat
    a client holds (a browser guest's process among them); this is 3 KB."""

    MARK_EVERY = 64
    __slots__ = ("_length", "_marks", "_run", "_run_at")

    def __init__(self, marks: tuple[bytes, ...], length: int) -> None:
        self._marks = marks
        """Link ``k * MARK_EVERY`` for each k, and the top (link ``length``) last."""
        self._length = length
        self._run: tuple[bytes, ...] = ()
        """The links of the run last hashed down, from link ``_run_at`` on."""
        self._run_at = -1

    @classmethod
    def make(cls, top: bytes | None = None, length: int = CHAIN_LINKS) -> Chain:
        """A new chain from a secret ``top`` (random when not given): its last link, link ``length``."""
        link = top if top is not None else secrets.token_bytes(SEED_BYTES)
        marks = [link]
        for i in range(length - 1, -1, -1):
            link = before(link)
            if i % cls.MARK_EVERY == 0:
                marks.append(link)
        return cls(tuple(reversed(marks)), length)

    def __len__(self) -> int:
        """How many links: the pledge and one for each hand it lasts."""
        return self._length + 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chain) and (self._marks, self._length) == (other._marks, other._length)

    def __hash__(self) -> int:
        return hash((self._marks, self._length))

    def __repr__(self) -> str:  # never a link: the top is the seat's secret until its hands are dealt
        return f"Chain({len(self)} links)"

    @property
    def pledge(self) -> bytes:
        return self._marks[0]

    def _runs(self, start: int) -> tuple[int, tuple[bytes, ...]]:
        """The run of links from the kept one at or below ``start`` to the one before the next kept one: where it
        starts, and its links. ``_marks[k + 1]`` is link ``min((k + 1) * MARK_EVERY, length)``, hashed down."""
        k = start // self.MARK_EVERY
        at = k * self.MARK_EVERY
        if at != self._run_at:
            link = self._marks[k + 1]
            run = []
            for _ in range(min(at + self.MARK_EVERY, self._length) - at):
                link = before(link)
                run.append(link)
            run.reverse()
            self._run, self._run_at = tuple(run), at
        return self._run_at, self._run

    def link(self, i: int) -> bytes:
        """Link ``i`` (0: the pledge; ``len(self) - 1``: the top)."""
        if not 0 <= i < len(self):
            raise IndexError(f"a chain of {len(self)} links has no link {i}")
        if i == self._length:
            return self._marks[-1]
        at, run = self._runs(i)
        return run[i - at]

    @property
    def links(self) -> tuple[bytes, ...]:
        """Every link, in order, hashed down again from the top: for the spec's vectors and the tests."""
        return tuple(self.link(i) for i in range(len(self)))

    def place(self, link: bytes) -> int | None:
        """Where ``link`` is in the chain (0: the pledge), or None if it is none of its links. The run last asked
        about is looked in first, then each from the start (a hand names the link after the one before it)."""
        if link == self._marks[-1]:
            return self._length
        runs = range(0, self._length, self.MARK_EVERY)
        for start in (max(self._run_at, 0), *runs) if runs else ():
            at, run = self._runs(start)
            if link in run:
                return at + run.index(link)
        return None

    def after(self, expect: bytes) -> bytes | None:
        """The link that follows ``expect`` (the one a hand's commitment names for this seat), or None if ``expect``
        is no link of this chain but its last."""
        at = self.place(expect)
        return self.link(at + 1) if at is not None and at + 1 < len(self) else None


def _unhex(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"The {what} is not a hex string.")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError(f"The {what} is not valid hex.") from None


@dataclass(frozen=True, slots=True)
class DealSeed:
    """Everything that decides a fair hand's deck: the server's seed, the players' seeds
    (one per seat that sent one, kept in seat order), the table and the hand number there
    (docs/deal.md §3).

    The server seed stays out of ``repr`` so that a log line cannot reveal it early.
    """

    server_seed: bytes = field(repr=False)
    player_seeds: tuple[tuple[int, bytes], ...] = ()
    table: str = ""
    hand: int = 0
    scheme: str = SCHEME
    pledges: tuple[tuple[int, bytes], ...] = ()
    """``cardtui-deal/2``: each pledged seat the hand took a link from, and the value that link follows (the
    commitment named them before any link was seen, §3a). Not part of the message: it decides no card."""

    def __post_init__(self) -> None:
        if self.scheme not in SCHEMES:
            raise ValueError(f"The deal scheme {self.scheme!r} is not one this version knows ({', '.join(SCHEMES)}).")
        if self.pledges and self.scheme == SCHEMES[0]:
            raise ValueError(f"{SCHEMES[0]} has no pledges.")
        object.__setattr__(self, "pledges", tuple(sorted(self.pledges)))
        if not isinstance(self.server_seed, bytes) or len(self.server_seed) != SEED_BYTES:
            raise ValueError(f"A server seed is {SEED_BYTES} bytes (256 bits).")
        if not isinstance(self.table, str) or len(self.table.encode()) > 1024:
            raise ValueError("A table id is a string of at most 1024 bytes.")
        if not isinstance(self.hand, int) or isinstance(self.hand, bool) or not 0 <= self.hand < 1 << 63:
            raise ValueError("A hand number is a whole number from 0.")
        if not all(isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], int)
                   and isinstance(pair[1], bytes) for pair in self.player_seeds):
            raise ValueError("The players' seeds are (seat number, bytes) pairs.")
        seeds = tuple(sorted(self.player_seeds))
        seats = [seat for seat, _ in seeds]
        if len(set(seats)) != len(seats):
            raise ValueError("Each seat contributes at most one seed to a hand.")
        for seat, seed in seeds:
            if not 0 <= seat < 1 << 16:
                raise ValueError(f"There is no seat {seat}.")
            if not 1 <= len(seed) <= MAX_PLAYER_SEED:
                raise ValueError(f"A player's seed is 1 to {MAX_PLAYER_SEED} bytes; seat {seat}'s is {len(seed)}.")
        object.__setattr__(self, "player_seeds", seeds)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def message(self) -> bytes:
        """The canonical encoding the stream's HMAC runs over (before the block counter): docs/deal.md §4."""
        table = self.table.encode()
        parts = [self.scheme.encode() + b"\x00", len(table).to_bytes(4, "big"), table, self.hand.to_bytes(8, "big"),
                 len(self.player_seeds).to_bytes(4, "big")]
        for seat, seed in self.player_seeds:
            parts += [seat.to_bytes(4, "big"), len(seed).to_bytes(4, "big"), seed]
        return b"".join(parts)

    def as_record(self) -> dict[str, Any]:
        """The hand history's ``fair`` object: the commitment, every seed and the reveal (docs/deal.md §3)."""
        record: dict[str, Any] = {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "server_seed": self.server_seed.hex(),
            "player_seeds": {str(seat): seed.hex() for seat, seed in self.player_seeds},
            "table": self.table,
            "hand": self.hand,
        }
        if self.scheme != SCHEMES[0]:
            record["pledges"] = {str(seat): value.hex() for seat, value in self.pledges}
        return record

    def unfollowed(self) -> list[int]:
        """``cardtui-deal/2``: the seats whose seed is not the link their pledge names (§3a), or was never pledged."""
        pledged = dict(self.pledges)
        return [seat for seat, seed in self.player_seeds if pledged.get(seat) != before(seed)]

    def withheld(self) -> list[int]:
        """``cardtui-deal/2``: the pledged seats with no link in the deal: whoever held it back had two decks to
        choose from (§3a)."""
        seeded = {seat for seat, _ in self.player_seeds}
        return [seat for seat, _ in self.pledges if seat not in seeded]

    @staticmethod
    def from_record(fair: Mapping[str, Any]) -> DealSeed:
        """Read a history's ``fair`` object back; ``ValueError`` with a sentence if it is malformed."""
        if not isinstance(fair, Mapping):
            raise ValueError("The fair record is not an object.")
        scheme = fair.get("scheme", SCHEMES[0])
        if scheme not in SCHEMES:
            raise ValueError(f"The deal scheme {scheme!r} is not one this version knows ({', '.join(SCHEMES)}).")

        def by_seat(key: str, what: str) -> list[tuple[int, bytes]]:
            values = fair.get(key, {})
            if not isinstance(values, Mapping):
                raise ValueError(f"The players' {what}s are not an object of seat: hex.")
            out = []
            for seat, value in values.items():
                if not (str(seat).isascii() and str(seat).isdigit()):
                    raise ValueError(f"{seat!r} in the players' {what}s is not a seat number.")
                out.append((int(seat), _unhex(value, f"{what} of seat {seat}")))
            return out

        seeds = by_seat("player_seeds", "seed")
        pledges = by_seat("pledges", "pledge") if scheme != SCHEMES[0] else []
        hand = fair.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool):
            raise ValueError("The fair record's hand is not a whole number.")
        table = fair.get("table")
        if not isinstance(table, str):
            raise ValueError("The fair record's table is not a string.")
        return DealSeed(_unhex(fair.get("server_seed"), "revealed server seed"), tuple(seeds), table, hand, scheme,
                        tuple(pledges))


def stream_block(seed: DealSeed, counter: int) -> bytes:
    """Block ``counter`` of the deal stream: HMAC-SHA256(server seed, message ‖ u64 counter) (docs/deal.md §5)."""
    return hmac.new(seed.server_seed, seed.message() + counter.to_bytes(8, "big"), sha256).digest()


class FairRandom(random.Random):
    """A ``random.Random`` whose every draw comes from a deal seed's HMAC-SHA256 stream (docs/deal.md §5–§6).

    ``getrandbits`` and ``random`` are the only sources, so CPython's ``shuffle``,
    ``randrange``, ``choice`` and ``sample`` use rejection sampling through
    ``_randbelow_with_getrandbits``; the base class's Mersenne Twister is never seeded
    nor read, and ``seed()`` refuses rather than fall back to it.
    """

    def __init__(self, seed: DealSeed) -> None:  # no super().__init__: it would seed the base generator
        if not isinstance(seed, DealSeed):
            raise TypeError("A fair deal's generator is made from a DealSeed.")
        self._deal = seed
        self._mac = hmac.new(seed.server_seed, seed.message(), sha256)
        self._block = 0
        self._buf = b""
        self._pos = 0
        self.gauss_next = None

    @property
    def deal_seed(self) -> DealSeed:
        return self._deal

    def _take(self, n: int) -> bytes:
        pos, end = self._pos, self._pos + n
        if end > len(self._buf):
            buf = self._buf[pos:]
            while len(buf) < n:
                mac = self._mac.copy()
                mac.update(self._block.to_bytes(8, "big"))
                buf += mac.digest()
                self._block += 1
            self._buf, pos, end = buf, 0, n
        self._pos = end
        return self._buf[pos:end]

    def getrandbits(self, k: int, /) -> int:
        """bits(k) of docs/deal.md §5: the next ⌈k/8⌉ bytes, big-endian, their top k bits."""
        if k <= 0:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0
        n = (k + 7) >> 3
        pos = self._pos
        if pos + n > len(self._buf):  # past the blocks made so far: the next ones (most draws are within)
            return int.from_bytes(self._take(n), "big") >> ((n << 3) - k)
        self._pos = pos + n
        return int.from_bytes(self._buf[pos:pos + n], "big") >> ((n << 3) - k)

    def random(self) -> float:
        """random() of docs/deal.md §5: bits(53) / 2**53."""
        return self.getrandbits(53) * (2.0**-53)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("A fair deal's generator draws only from its deal seed: it cannot be reseeded.")

    def getstate(self) -> tuple[Any, ...]:
        """Where the stream stands (not a Mersenne Twister state): for copies and pickles."""
        return (_STATE, self._deal, self._block, self._buf, self._pos)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if not (isinstance(state, tuple) and len(state) == 5 and state[0] == _STATE
                and isinstance(state[1], DealSeed)):
            raise TypeError("Only a fair deal generator's own state can be restored into it.")
        _, deal, block, buf, pos = state
        self.__init__(deal)  # type: ignore[misc]
        self._block, self._buf, self._pos = int(block), bytes(buf), int(pos)

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (self._deal,), self.getstate())


# -- the packs, and how cards leave them ------------------------------------------------------
def _french(ranks: Sequence[str], copies: int = 1) -> tuple[str, ...]:
    return tuple(f"{r}{s}" for _ in range(copies) for s in "SHDC" for r in ranks)


def _spanish(ranks: Sequence[int], jokers: int = 0) -> tuple[str, ...]:
    return (*(f"{r}{s}" for s in "eboc" for r in ranks), *("JK",) * jokers)


_FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SPANISH_40 = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
_SPANISH_48 = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
PACKS: dict[str, tuple[str, ...]] = {
    "french24": _french(_FRENCH_RANKS[:6]),
    "french40": _french(("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")),
    "french104": _french(_FRENCH_RANKS, copies=2),
    "spanish40": _spanish(_SPANISH_40),
    "spanish41": _spanish(_SPANISH_40, jokers=1),
    "spanish42": _spanish(_SPANISH_40, jokers=2),
    "spanish48": _spanish(_SPANISH_48),
    "spanish49": _spanish(_SPANISH_48, jokers=1),
    "spanish50": _spanish(_SPANISH_48, jokers=2),
}
"""Every pack a table may be dealt from, by name, each in notation in the order its shuffle starts from: docs/deal.md
§2. A game names the pack each table of it plays with (its rules, by the table's options: the hand history's
``pack``), so that a pack an option chooses is said as plainly as a game's only one."""

T = TypeVar("T")


def shuffled(pack: Sequence[T], rng: random.Random) -> list[T]:
    """A shuffled copy of ``pack``: ``rng.shuffle`` (Fisher–Yates with rejection sampling), docs/deal.md §6–§7."""
    out = list(pack)
    rng.shuffle(out)
    return out


def sample_positions(rng: random.Random, size: int, k: int) -> list[int]:
    """Places in a pack of ``size`` of the ``k`` cards dealt: a Fisher–Yates shuffle cut short (docs/deal.md §8).

    These are the draws of ``rng.sample(range(size), k)``: j below the cards left, by
    rejection sampling; the card at j is dealt and the last card left takes its place.
    """
    pool = list(range(size))
    out = []
    for left in range(size, size - k, -1):
        bits = left.bit_length()
        j = rng.getrandbits(bits)
        while j >= left:
            j = rng.getrandbits(bits)
        out.append(pool[j])
        pool[j] = pool[left - 1]
    return out
