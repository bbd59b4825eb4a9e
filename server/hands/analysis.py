"""``Lobby.Analyze``: a finished hand's decisions judged, to whoever may see them.

Who may have which seat's analysis (``analysis.proto`` says it for clients):

- a table still playing: a seat's holder, with their seat token, of that seat's decisions in the
  table's finished hands that they made themselves (a decision made while someone else held the
  seat, or a bot stood in for them, is not theirs); spectators and the other seats get nothing;
- a table that has finished: anyone who may replay its hands (``server.replays``), every seat.

Only stored hands are analysed, and a hand is stored only once it is over: a hand in play never is,
and nothing of it reaches anyone through an analysis. Each seat's analysis is kept in the store once
made (``Hands.add_analysis``), so a hand is analysed once; the work runs in the analysis pool
(``server.analysis_pool``), never on the loop, and whoever waits is told where it stands.

A hand is analysed when someone asks (``a`` after a hand, the replay viewer): asked with nobody
asking (``when_idle``, for a hand's summary line), only a game whose analysis is cheap is analysed,
and only while a worker of the pool is free, so that many tables' summaries never fill the pool.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from cardtui.engine import analysis, match_chart
from cardtui.engine.analysis import HandAnalysis, Label
from cardtui.engine.bots.estimates import Unit
from cardtui.server.base import wire
from cardtui.server.base.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unavailable,
    quote,
)
from cardtui.server.hands.replays import Replays, seats_by_step
from cardtui.server.hands.said import reason_message, scale_message
from cardtui.server.lobby.room import Room
from cardtui.server.lobby.routes import Router
from cardtui.server.processes.analysis_pool import AnalysisPool, Status
from cardtui.server.store import token_digest
from cardtui.v1 import analysis_pb2, table_pb2

T = TypeVar("T")

log = logging.getLogger("cardtui.analysis")

MATCH_HANDS = 200
"""Hands of one match analysed at most (the last ones): a match's analysis is bounded work."""
UNITS = {Unit.MATCH: analysis_pb2.ANALYSIS_UNIT_MATCH, Unit.CHIPS: analysis_pb2.ANALYSIS_UNIT_CHIPS}
LABELS = {
    Label.BEST: analysis_pb2.ANALYSIS_LABEL_BEST, Label.GOOD: analysis_pb2.ANALYSIS_LABEL_GOOD,
    Label.INACCURACY: analysis_pb2.ANALYSIS_LABEL_INACCURACY, Label.MISTAKE: analysis_pb2.ANALYSIS_LABEL_MISTAKE,
    Label.BLUNDER: analysis_pb2.ANALYSIS_LABEL_BLUNDER, Label.MISSED_WIN: analysis_pb2.ANALYSIS_LABEL_MISSED_WIN,
}


def seed_of(table_id: str, hand: int) -> int:
    """The search's seed for a stored hand: from its place, so that it is the same wherever it is analysed."""
    return int.from_bytes(hashlib.sha256(f"{table_id}:{hand}".encode()).digest()[:6], "big")


def _finite(x: float) -> float:
    return -1.0 if x != x or x in (float("inf"), float("-inf")) else x


def moment_message(m: analysis.Moment, unit: Unit, views: Mapping[int, table_pb2.View] | None = None
                   ) -> analysis_pb2.AnalysisMoment:
    """One judged decision as the wire gives it, each choice with the label it would have had, and the table as the
    seat saw it then (``views``, by step; the drill draws it)."""
    best = m.of(m.best)
    choices = []
    for c in m.choices:
        said, lost = analysis.label(c, best, unit, m.stake) if best is not None else (Label.BEST, 0.0)
        choices.append(analysis_pb2.AnalysisChoice(
            action=wire.action_message(c.action), value=c.value, error=_finite(c.error), gap=c.gap,
            gap_error=_finite(c.gap_error), label=LABELS[said], points=lost,
            lost=analysis.points(c.gap, unit, m.stake)))
    return analysis_pb2.AnalysisMoment(
        step=m.step, seat=m.seat, chosen=wire.action_message(m.chosen), best=wire.action_message(m.best),
        choices=choices, loss=m.loss, points=m.points, label=LABELS[m.label], accuracy=m.accuracy, deals=m.deals,
        cards=[str(c) for c in m.held], view=(views or {}).get(m.step),
        reason=reason_message(m.reason) if m.reason is not None else None)


def views_at(record: Mapping[str, Any], steps: Iterable[int]) -> dict[int, table_pb2.View]:
    """The seat's own view just before each of ``steps`` (its decisions), as it was sent to the seat live, the
    seats named as they were held then: the hand replayed (``analysis.positions``, as a replay's steps are
    made); no views for a history this engine cannot replay (nor could it
    be analysed)."""
    wanted = set(steps)
    seats = seats_by_step(record)
    try:
        return {p.step: wire.view_message(p.view, seats=seats[min(p.step, len(seats) - 1)])
                for p in analysis.positions(record) if p.step in wanted}
    except ValueError:
        return {}


def accuracy_messages(seats: Sequence[analysis.SeatSummary]) -> list[analysis_pb2.SeatAccuracy]:
    return [analysis_pb2.SeatAccuracy(seat=s.seat, decisions=s.decisions, accuracy=s.accuracy,
                                      flagged=sum(s.counts.get(str(lab), 0) for lab in analysis.SERIOUS))
            for s in seats]


def message(hand: HandAnalysis, record: Mapping[str, Any] | None = None) -> analysis_pb2.HandAnalysis:
    """An analysis as the wire gives it; with the hand's ``record``, each decision with the seat's view then."""
    seats, _ = analysis.summary([hand])
    views = views_at(record, (m.step for m in hand.moments)) if record is not None else {}
    return analysis_pb2.HandAnalysis(
        table_id=hand.table, hand=hand.hand, game=hand.game, unit=UNITS[hand.unit], stake=hand.stake,
        seats=list(hand.seats), moments=[moment_message(m, hand.unit, views) for m in hand.moments],
        accuracy=accuracy_messages(seats), scale=scale_message())


@dataclass(frozen=True, slots=True)
class Kept:
    """One hand's analysis as the store keeps it (each asked-for seat's JSON) and whose part of it is given (a
    live table's ``holder`` of ``seat``: the decisions they made): what the pool's builder reads."""

    record: dict[str, Any]
    texts: tuple[str, ...]
    holder: str | None = None
    seat: int = 0

    def judged(self) -> HandAnalysis:
        whole = merged(self.record, [analysis.from_json(json.loads(t)) for t in self.texts])
        if self.holder is None:
            return whole
        mine = held_by(self.record, self.seat, self.holder)
        return dataclasses.replace(whole, moments=tuple(m for m in whole.moments if m.step in mine))


def by_seat(text: str, seats: Sequence[int]) -> list[str]:
    """A pool's analysis (JSON) as the store keeps it: one JSON for each of ``seats``."""
    done = analysis.from_json(json.loads(text))
    return [json.dumps(analysis.to_json(done.only([s]))) for s in seats]


def message_bytes(kept: Kept) -> bytes:
    """A hand's analysis as the wire gives it, serialized (``message``): what the pool's builder makes, in its own
    process."""
    return message(kept.judged(), kept.record).SerializeToString()


def match_bytes(table_id: str, match: int, hands: Sequence[Kept]) -> bytes:
    """A match's analyses summed up as the wire gives it, serialized (``match_message``): what the pool's builder
    makes, in its own process."""
    return match_message(table_id, match, [k.judged() for k in hands], [k.record for k in hands]).SerializeToString()


def match_message(table_id: str, match: int, hands: Sequence[HandAnalysis],
                  records: Sequence[Mapping[str, Any]] = ()) -> analysis_pb2.MatchAnalysis:
    """A match's analyses summed up as the wire gives it: each seat's accuracy, the worst three moments (with the
    ``records`` of its hands, each with the seat's view then), and with the records each seat's match drawn hand by
    hand (``engine.match_chart``)."""
    seats, worst = analysis.summary(hands)
    of = {h.hand: h for h in hands}
    record_of = {int(r["hand"]): r for r in records}
    views = {hand: views_at(record_of[hand], [w.moment.step for w in worst if w.hand == hand])
             for hand in {w.hand for w in worst} if hand in record_of}
    return analysis_pb2.MatchAnalysis(
        table_id=table_id, match=match, game=hands[0].game if hands else "",
        unit=UNITS[hands[0].unit] if hands else analysis_pb2.ANALYSIS_UNIT_UNSPECIFIED,
        hands=[h.hand for h in hands], accuracy=accuracy_messages(seats),
        worst=[analysis_pb2.WorstMoment(
            hand=w.hand, moment=moment_message(w.moment, of[w.hand].unit, views.get(w.hand))) for w in worst],
        charts=chart_messages(match_chart.chart(records, [s.seat for s in seats])), scale=scale_message())


def chart_messages(chart: match_chart.Chart | None) -> list[analysis_pb2.MatchChart]:
    """A match drawn, each seat's chart as the wire gives it (``engine.match_chart``)."""
    if chart is None:
        return []
    return [analysis_pb2.MatchChart(seat=c.seat, unit=UNITS[chart.unit], even=chart.even, points=[
        analysis_pb2.MatchPoint(hand=p.hand, value=p.value, held=p.held) for p in c.points]) for c in chart.seats]


def merged(record: Mapping[str, Any], parts: Sequence[HandAnalysis]) -> HandAnalysis:
    """Several seats' analyses of one hand as one, their decisions in the hand's order."""
    first = parts[0]
    moments = tuple(sorted((m for p in parts for m in p.moments), key=lambda m: m.step))
    seats = tuple(sorted({s for p in parts for s in p.seats}))
    return HandAnalysis(first.game, str(record.get("table", first.table)), int(record["hand"]), first.match,
                        first.unit, first.stake, first.seed, first.budget, seats, moments)


def held_by(record: Mapping[str, Any], seat: int, name: str) -> set[int]:
    """The steps at which ``name`` held ``seat`` and decided for themselves (no bot standing in)."""
    return {step for step, seats in enumerate(seats_by_step(record))
            if seat < len(seats) and seats[seat].name == name and not seats[seat].bot}


def unanalysed(table_id: str, hand: int, error: BaseException) -> FailedPrecondition:
    """The refusal for a hand the pool could not analyse (said in the host's log, with why)."""
    log.error("table %s hand %d was not analysed: %s", table_id, hand, error)
    return FailedPrecondition("That hand could not be analysed on this server.")


class Analyses:
    """The room's analyses: who may have which, from the store or the pool."""

    def __init__(self, room: Room, replays: Replays, pool: AnalysisPool | None, router: Router | None = None,
                 per_address: int = 4) -> None:
        self.room, self.replays, self.pool, self.router = room, replays, pool, router
        self.per_address = per_address
        """Jobs one address may have in the pool at once (``Limits.analyses_per_address``)."""
        self._asked: dict[str, set[tuple[Any, ...]]] = {}
        """Each address's jobs in the pool, by key, while they are queued or at work."""

    def _last_stored(self, table_id: str) -> int:
        last = self.room.store.hands.last_hand(table_id)
        return int(last["hand"]) if last is not None else 0

    def _seats_of(self, table_id: str) -> range:
        """The seats a live table has: the room's own table's, else those of its last stored hand."""
        table = self.room.tables.get(table_id)
        if table is not None:
            return range(len(table.seating))
        last = self.room.store.hands.last_hand(table_id)
        return range(len(last["seats"])) if last is not None else range(0)

    def _holder(self, table_id: str, token: str) -> tuple[int | None, str] | None:
        """The seat (None: watching) and name a token of a live table gives, None if it opens
        no part of it: from the room for a table this process drives, else from the store (a table
        a worker or another host drives: its finished hands are analysed here, in the lobby's pool)."""
        table = self.room.tables.get(table_id)
        if table is not None:
            grant = self.room.find(token) if token else None
            return None if grant is None or grant.table is not table else (grant.seat, grant.name)
        found = self.room.store.tables.token_grant(token_digest(token)) if token else None
        return None if found is None or found[0] != table_id else (found[1], found[2])

    async def allowed(self, table_id: str, hand: int, token: str, password: str, seat: int | None
                      ) -> tuple[dict[str, Any], list[int], str | None]:
        """The hand's history (``hand`` 0: the table's last finished hand), the seats this caller may
        have, and whose decisions only (a live table's holder), or the refusal that says why not."""
        table = self.room.tables.get(table_id)
        live = table is not None or (self.router is not None and self.router.elsewhere(table_id) is not None)
        holder: str | None = None
        if live:
            held = self._holder(table_id, token)
            if held is None:
                raise PermissionDenied("That table is still playing: a seat's analysis is its holder's alone "
                                       "until the table has finished.")
            if held[0] is None:
                raise PermissionDenied("Spectators see the analysis of a table's hands once it has finished.")
            if seat is not None and seat != held[0]:
                if seat not in self._seats_of(table_id):
                    raise InvalidArgument("There is no seat {seat} at this table.", seat=seat)
                raise PermissionDenied("That seat's analysis is its holder's alone while the table plays.")
            last = table.hands_played if table is not None else self._last_stored(table_id)
            hand = hand or last
            if (table is not None and hand == table.in_play) or (table is None and hand == last + 1):
                raise FailedPrecondition("Hand {hand} is still being played: it is analysed once it is over.",
                                         hand=hand)
            seats, holder = [held[0]], held[1]
        else:
            await self.replays.open(table_id, token, password)
            seats = []
            if hand == 0:
                hand = self._last_stored(table_id)
        line = self.room.store.hands.hand(table_id, hand) if hand > 0 else None
        if line is None:
            raise NotFound("Table {table} has no finished hand {hand}.", table=quote(table_id), hand=hand)
        record: dict[str, Any] = json.loads(line)
        if record.get("options", {}).get("sealed"):
            raise FailedPrecondition("A sealed hand is not analysed: nobody, the host included, knows the cards "
                                     "that were never opened.")
        every = [int(s["seat"]) for s in record["seats"]]
        if seat is not None and seat not in every:
            raise InvalidArgument("There is no seat {seat} in that hand.", seat=seat)
        if not seats:
            seats = [seat] if seat is not None else every
        return record, seats, holder

    def match_of(self, table_id: str, record: dict[str, Any]) -> list[dict[str, Any]]:
        """The stored hands of ``record``'s match, in order (at most ``MATCH_HANDS``, the last ones)."""
        match, hand = record.get("match"), int(record["hand"])
        out = [record]
        for step in (-1, 1):
            h = hand + step
            while h > 0 and len(out) < MATCH_HANDS:
                line = self.room.store.hands.hand(table_id, h)
                other = json.loads(line) if line is not None else None
                if other is None or other.get("match") != match:
                    break
                if step < 0:
                    out.insert(0, other)
                else:
                    out.append(other)
                h += step
        return out

    async def analyze(self, table_id: str, hand: int, token: str, password: str, seat: int | None,
                      when_idle: bool = False, match: bool = False, address: str = ""
                      ) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
        """The analysis of a hand's seats this caller may have (``allowed``), from the store or the pool;
        ``match``: of every hand of its match, summed up. ``when_idle``: asked with nobody asking (a hand's
        summary), so made only where it is cheap and a worker is free now (``analysis.cheap``) and the caller's
        ``address`` has room in the pool, else ``deferred``."""
        record, seats, holder = await self.allowed(table_id, hand, token, password, seat)
        records = self.match_of(table_id, record) if match else [record]
        wanted = [seats if holder is not None or seat is not None else [int(s["seat"]) for s in r["seats"]]
                  for r in records]
        missing = any(s not in self.room.store.hands.analyses(table_id, int(r["hand"]))
                      for r, want in zip(records, wanted, strict=True) for s in want)
        if missing and when_idle and (not analysis.cheap(str(record.get("game", ""))) or self.pool is None
                                      or not self.pool.idle or self._full(address)):
            yield analysis_pb2.AnalyzeUpdate(deferred=True)
            return
        done: list[Kept] = []
        for n, (r, want) in enumerate(zip(records, wanted, strict=True), 1):
            async for item in self._judged(table_id, r, want, holder, address):
                if isinstance(item, Kept):
                    done.append(item)
                    continue
                if match and item.WhichOneof("update") == "progress":
                    item.progress.hand, item.progress.hands = n, len(records)
                yield item
        update = analysis_pb2.AnalyzeUpdate()
        if match:
            update.match.MergeFromString(await self._built(match_bytes, table_id, int(record.get("match", 0)), done))
        else:
            update.analysis.MergeFromString(await self._built(message_bytes, done[0]))
        yield update

    async def _built(self, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)`` (a message's bytes, the store's JSON) by the pool's builder, off this loop (here where
        there is no pool)."""
        return make(*args) if self.pool is None else await self.pool.build(make, *args)

    def _full(self, address: str, key: tuple[Any, ...] | None = None) -> bool:
        """Whether ``address`` has its share of the pool already (asking again for one of its own, ``key``, joins
        it)."""
        asked = self._asked.get(address, set())
        return key not in asked and len(asked) >= self.per_address

    def _done(self, address: str, key: tuple[Any, ...]) -> None:
        mine = self._asked.get(address)
        if mine is not None:
            mine.discard(key)
            if not mine:
                del self._asked[address]

    async def _judged(self, table_id: str, record: dict[str, Any], seats: list[int], holder: str | None,
                      address: str = "") -> AsyncIterator[analysis_pb2.AnalyzeUpdate | Kept]:
        """One hand's analysis of ``seats`` (a live table's ``holder``: the decisions they made), from the
        store or the pool: where it waits and how far it is, then the analysis."""
        hand = int(record["hand"])
        kept = self.room.store.hands.analyses(table_id, hand)
        missing = [s for s in seats if s not in kept]
        if missing:
            if self.pool is None:
                raise FailedPrecondition("This server does not analyse hands.")
            updates: asyncio.Queue[Status] = asyncio.Queue()
            key = (table_id, hand, tuple(missing))
            if self._full(address, key):
                raise ResourceExhausted("This address has {n} hands being analysed already; wait for one of them.",
                                        n=len(self._asked.get(address, ())))
            work = self.pool.submit(key, json.dumps(record), seed_of(table_id, hand), missing, updates.put_nowait)
            if work is None:
                raise ResourceExhausted("Too many hands are waiting to be analysed; ask again in a while.")
            asked = self._asked.setdefault(address, set())
            if key not in asked:
                asked.add(key)
                work.add_done_callback(lambda _done: self._done(address, key))
            waiting: asyncio.Future[Status] | None = None
            try:
                while not work.done():
                    waiting = asyncio.ensure_future(updates.get())
                    await asyncio.wait((waiting, work), return_when=asyncio.FIRST_COMPLETED)
                    if not waiting.done():
                        waiting.cancel()
                        continue
                    status = waiting.result()
                    if status.started:
                        yield analysis_pb2.AnalyzeUpdate(
                            progress=analysis_pb2.AnalysisProgress(done=status.done, total=status.total))
                    else:
                        yield analysis_pb2.AnalyzeUpdate(queued=status.ahead)
                try:
                    result = work.result()
                except BrokenProcessPool:
                    raise Unavailable("The analysis stopped before it was done; ask for it again.") from None
                except (ValueError, KeyError, asyncio.CancelledError) as e:
                    raise unanalysed(table_id, hand, e) from None
            finally:  # a caller gone mid-way leaves no read of the queue behind
                if waiting is not None and not waiting.done():
                    waiting.cancel()
                self.pool.forget(work, updates.put_nowait)
            try:
                texts = await self._built(by_seat, result, missing)
            except (ValueError, KeyError) as e:
                raise unanalysed(table_id, hand, e) from None
            for s, text in zip(missing, texts, strict=True):
                self.room.store.hands.add_analysis(table_id, hand, s, text)
                kept[s] = text
        yield Kept(record, tuple(kept[s] for s in seats), holder, seats[0])
