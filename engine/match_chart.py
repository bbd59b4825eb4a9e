"""A match drawn hand by hand: each seat's standing before its first hand and after each, in the quantity that
means winning the match, read from the hands' histories alone (``start`` and ``result.deltas``, docs/history.md
§2 and §5), the way lichess draws a game's advantage move by move.

What winning a match is, and so what is charted, game by game:

- truco (paulista to 12, argentino to its ``target``): a team reaches the target ahead. The chart is the chance
  that the seat's team wins the match from the score, between equal players (``odds.truco``, the table of match
  odds the analysis values decisions in): 50% at 0 to 0, 100% once the match is won.
- Cacheta: the last player left with points wins. The chance that the seat is that player from everyone's points
  (``odds.cacheta``, the same table the analysis uses): one in as many as play at the start, 0 once out.
- Cacho, and Pif Paf without rebuys: a freeze-out, won by holding every chip. Between equal players the chips a
  seat holds are a fair bet hand after hand (what one wins the others lose, and no side is favoured), so its chance
  of ending with them all is its share of the chips on the table (the gambler's ruin, and the "independent chip
  model" of poker tournaments for first place): the chart is that share, the same scale as the others.
- Pif Paf with rebuys: a player who runs out is restocked, so no stack of chips ends the match (the table closes
  it); winning it is having won chips when it closes. The chart is the chips the seat has won since the match began
  (its hands' deltas summed, the chips it was restocked with not counted), in ``Unit.CHIPS``.

Any other game's chart is its entry's ``Chart.standing`` (``engine/games/<name>.py``), which says in its own
docstring what winning that game's match is.

Nothing here reads a clock or a random source: the same histories give the same chart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games import entry
from cardtui.engine.games.entry import Chart as ChartRules


@dataclass(frozen=True, slots=True)
class Point:
    """One seat's standing at one point of the match."""

    hand: int
    """The table's hand (the history's ``hand``) just played; 0 before the first hand charted."""
    value: float
    """The chance of winning the match, 0 to 1 (``Unit.MATCH``), or the chips won since it began (``Unit.CHIPS``)."""
    held: int
    """What the seat holds then: its team's points (truco), its points (Cacheta) or its chips."""


@dataclass(frozen=True, slots=True)
class SeatChart:
    """One seat's points, in the match's order: before its first hand, then after each hand."""

    seat: int
    points: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """A match drawn: the unit its values are in, the line of even chances, and each seat's points."""

    game: str
    unit: Unit
    even: float
    """The chance each seat (each team, in truco) had when all were level at the start: 1 over the players or teams
    (``Unit.MATCH``); 0, no gain and no loss (``Unit.CHIPS``). A chart draws its line across."""
    seats: tuple[SeatChart, ...]

    def of(self, seat: int) -> SeatChart | None:
        return next((c for c in self.seats if c.seat == seat), None)


def _by_seat(record: Mapping[str, Any], key: str) -> dict[int, int]:
    values = record.get(key) if key == "start" else (record.get("result") or {}).get(key)
    return {int(s): int(v) for s, v in (values or {}).items()}


def seats_of(record: Mapping[str, Any]) -> list[int]:
    return [int(s["seat"]) for s in record["seats"]]


def rebuys(record: Mapping[str, Any]) -> bool:
    """Whether the hand was played at a table that restocks a player who runs out (Pif Paf's ``rebuy`` option)."""
    return _charted(record).rebuys(record)


def unit_of(record: Mapping[str, Any]) -> Unit:
    """What a match of this history's game is charted in (see the module)."""
    return Unit.CHIPS if rebuys(record) else Unit.MATCH


def standing(record: Mapping[str, Any], held: Mapping[int, int], seat: int) -> float:
    """``seat``'s chance of winning the match with every seat holding ``held`` (a ``Unit.MATCH`` chart's value):
    truco and Cacheta from the table of match odds, a freeze-out by chips from the seat's share of them (each
    game's entry says which, ``Entry.chart``)."""
    return _charted(record).standing(record, held, seat)


def after(record: Mapping[str, Any]) -> dict[int, int]:
    """What each seat holds once the hand is over: what it began with and what the hand changed (Cacheta's points
    never below 0)."""
    start, deltas = _by_seat(record, "start"), _by_seat(record, "deltas")
    out = {s: start.get(s, 0) + deltas.get(s, 0) for s in seats_of(record)}
    return {s: max(0, v) for s, v in out.items()} if _charted(record).floor else out


def even(record: Mapping[str, Any]) -> float:
    """The line of even chances: 1 over the teams (truco) or the players in at the start (``Rules.standing``)."""
    if rebuys(record):
        return 0.0
    said = _charted(record).even
    if said is not None:
        return said
    start = entry(str(record.get("game", ""))).rules.standing(record, after=False)
    alive = sum(1 for s in seats_of(record) if start.get(s, 0) > 0)
    return 1.0 / alive if alive else 0.0


def _charted(record: Mapping[str, Any]) -> ChartRules:
    return entry(str(record.get("game", ""))).chart


def chart(records: Sequence[Mapping[str, Any]], seats: Sequence[int] | None = None) -> Chart | None:
    """The chart of one match from its finished hands' histories, in order (of ``seats``; every seat when None):
    each seat's point before the first hand (from that hand's ``start``) and after each hand. None for no hands."""
    if not records:
        return None
    first = records[0]
    unit = unit_of(first)
    wanted = list(seats) if seats is not None else seats_of(first)
    out = []
    for seat in wanted:
        start = _by_seat(first, "start")
        won = 0
        points = [Point(0, 0.0 if unit is Unit.CHIPS else standing(first, start, seat), start.get(seat, 0))]
        for record in records:
            held = after(record)
            won += _by_seat(record, "deltas").get(seat, 0)
            value = float(won) if unit is Unit.CHIPS else standing(record, held, seat)
            points.append(Point(int(record["hand"]), value, held.get(seat, 0)))
        out.append(SeatChart(seat, tuple(points)))
    return Chart(str(first.get("game", "")), unit, even(first), tuple(out))


def to_json(c: Chart) -> dict[str, Any]:
    """A chart as a JSON document (``cardtui analyze --json``'s summary line, docs/history.md §9)."""
    return {"game": c.game, "unit": str(c.unit), "even": c.even,
            "seats": [{"seat": s.seat, "points": [{"hand": p.hand, "value": p.value, "held": p.held}
                                                  for p in s.points]} for s in c.seats]}
