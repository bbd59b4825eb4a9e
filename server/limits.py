"""Per-connection rate limits: a token bucket per peer and kind of request."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Limits:
    acts_per_second: float = 20.0
    chats_per_second: float = 2.0
    tables_per_minute: float = 20.0
    """Tables one connection may open: a burst of this many, then one every 3 s."""


@dataclass
class Bucket:
    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RateLimiter:
    """Buckets keyed by (peer, kind); peers that go quiet are forgotten."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self._swept = time.monotonic()

    def allow(self, peer: str, kind: str) -> bool:
        key = (peer, kind)
        bucket = self.buckets.get(key)
        if bucket is None:
            if kind == "act":
                rate = self.limits.acts_per_second
                bucket = Bucket(rate, max(1.0, rate * 2))
            elif kind == "chat":
                rate = self.limits.chats_per_second
                bucket = Bucket(rate, max(1.0, rate * 3))
            else:
                bucket = Bucket(1 / 3, self.limits.tables_per_minute)
            self.buckets[key] = bucket
        self._sweep()
        return bucket.take()

    def _sweep(self) -> None:
        now = time.monotonic()
        if now - self._swept < 60:
            return
        self._swept = now
        for key in [k for k, b in self.buckets.items() if now - b.stamp > 120]:
            del self.buckets[key]
