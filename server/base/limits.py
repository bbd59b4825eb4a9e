"""Limits per address: a token bucket per address and kind of request, and streams held.

Keyed by the peer's address, not its connection, so that opening a new connection does not
reset them. Their time is a ``Clock``'s (``server.clock``): the loop's, or one a test moves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from cardtui.i18n import N_
from cardtui.server.base.clock import REAL, Clock

PASSWORD_BURST = 10.0
"""Passwords an address may try at once before ``Limits.passwords_per_second`` holds it back
(a person who mistypes a few times, a client that opens a table's replays one after another)."""


@dataclass(frozen=True, slots=True)
class Limits:
    acts_per_second: float = 20.0
    chats_per_second: float = 2.0
    tables_per_minute: float = 20.0
    """Tables one address may open: a burst of this many, then one every 3 s."""
    streams_per_connection: int = 64
    streams_per_address: int = 256
    replays_per_second: float = 10.0
    """Hands one address may replay (each rebuilt by the engine): a burst of twice this, then this rate."""
    names_per_key: int = 8
    """Names one key may own on this server (people who share a machine each prove their own)."""
    refusal_log_seconds: float = 10.0
    """The log says each kind of refusal at most once in this many seconds, then how many it left out."""
    analyses_per_address: int = 4
    """Hands one address may have in the analysis pool at once (queued or at work): one guest cannot fill
    the pool's queue and leave everyone else told it is full."""
    passwords_per_second: float = 2.0
    """Passwords one address may try on locked tables and tournaments (each check is a slow
    scrypt on the host: ``passwords``): a burst of ``PASSWORD_BURST``, then this rate."""


@dataclass
class Bucket:
    rate: float
    burst: float
    clock: Clock = REAL
    tokens: float = -1.0
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.stamp = self.clock.now()

    def take(self) -> bool:
        now = self.clock.now()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def address(peer: str) -> str:
    """The address part of a gRPC peer ("ipv4:10.0.0.5:51234" → "10.0.0.5", "ipv6:[::1]:5" → "::1")."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1:].split("]", 1)[0]
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer


class RateLimiter:
    """Buckets keyed by (address, kind); addresses that go quiet are forgotten."""

    def __init__(self, limits: Limits, clock: Clock = REAL) -> None:
        self.limits = limits
        self.clock = clock
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self._swept = clock.now()

    def allow(self, peer: str, kind: str) -> bool:
        key = (address(peer), kind)
        bucket = self.buckets.get(key)
        if bucket is None:
            if kind == "act":
                rate = self.limits.acts_per_second
                bucket = Bucket(rate, max(1.0, rate * 2), self.clock)
            elif kind == "chat":
                rate = self.limits.chats_per_second
                bucket = Bucket(rate, max(1.0, rate * 3), self.clock)
            elif kind == "replay":
                rate = self.limits.replays_per_second
                bucket = Bucket(rate, max(1.0, rate * 2), self.clock)
            elif kind == "password":
                rate = self.limits.passwords_per_second
                bucket = Bucket(rate, PASSWORD_BURST, self.clock)
            else:
                bucket = Bucket(1 / 3, self.limits.tables_per_minute, self.clock)
            self.buckets[key] = bucket
        self._sweep()
        return bucket.take()

    def _sweep(self) -> None:
        now = self.clock.now()
        if now - self._swept < 60:
            return
        self._swept = now
        for key in [k for k, b in self.buckets.items() if now - b.stamp > 120]:
            del self.buckets[key]


class StreamCounter:
    """Table streams open, per connection and per address, within the limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_peer: dict[str, int] = {}
        self.by_address: dict[str, int] = {}

    def open(self, peer: str) -> tuple[str, int] | None:
        """Count a new stream; or why it may not open (a sentence's template and its count)."""
        host = address(peer)
        per_connection, per_address = self.limits.streams_per_connection, self.limits.streams_per_address
        if self.by_peer.get(peer, 0) >= per_connection:
            return N_("This connection has {n} table streams open; close one first."), per_connection
        if self.by_address.get(host, 0) >= per_address:
            return N_("Your address has {n} table streams open; close one first."), per_address
        self.by_peer[peer] = self.by_peer.get(peer, 0) + 1
        self.by_address[host] = self.by_address.get(host, 0) + 1
        return None

    def close(self, peer: str) -> None:
        host = address(peer)
        for counts, key in ((self.by_peer, peer), (self.by_address, host)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


class Throttle:
    """Lines for the log at a rate nobody outside can raise: one per kind per ``every`` seconds; the next
    line of a kind says how many like it were left out meanwhile."""

    MOST_KINDS = 512
    """Kinds remembered at once; past this, kinds whose window has passed are forgotten, and
    any others share one line."""

    def __init__(self, logger: logging.Logger, every: float, clock: Clock = REAL) -> None:
        self.log = logger
        self.every = every
        self.clock = clock
        self.kinds: dict[str, tuple[float, int]] = {}
        """Each kind's last line (``clock.now()``) and the lines left out since."""

    def let(self, kind: str) -> tuple[int, float] | None:
        """Whether a line of ``kind`` may go to the log now: None if not (it is counted as left out), else how
        many like it were left out since the last, and over how many seconds."""
        now = self.clock.now()
        if kind not in self.kinds and len(self.kinds) >= self.MOST_KINDS:
            self.kinds = {k: v for k, v in self.kinds.items() if now - v[0] < self.every}
            if len(self.kinds) >= self.MOST_KINDS:
                kind = ""
        last, quiet = self.kinds.get(kind, (-self.every, 0))
        if now - last < self.every:
            self.kinds[kind] = (last, quiet + 1)
            return None
        self.kinds[kind] = (now, 0)
        return quiet, now - last

    def say(self, level: int, kind: str, message: str, *args: object) -> None:
        let = self.let(kind)
        if let is None:
            return
        quiet, seconds = let
        if quiet:
            self.log.log(level, message + " (and %d more like it in %.0f s, not logged)", *args, quiet, seconds)
        else:
            self.log.log(level, message, *args)


class RefusalLog:
    """Refusals in the log at a rate nobody outside can raise: one line per kind of refusal (its
    status and sentence template) per ``every`` seconds (``Throttle``). A client sending thousands of
    bad requests a second costs the disk a line every few seconds, not a line a request."""

    def __init__(self, logger: logging.Logger, every: float, clock: Clock = REAL,
                 counted: Callable[[str], None] | None = None) -> None:
        self.throttle = Throttle(logger, every, clock)
        self.counted = counted
        """Told the status of every refusal, logged or not (the figures: ``server.metrics``)."""

    def refused(self, code: str, template: str, sentence: str) -> None:
        if self.counted is not None:
            self.counted(code)
        self.throttle.say(logging.INFO, f"{code} {template}", "refused (%s): %s", code, sentence)
