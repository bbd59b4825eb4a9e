"""``cardtui analyze HISTORY.jsonl``: each decision of exported hands judged offline (``engine.analysis``).

Text for people (every analysed decision with its choices, the odds of each, the one chosen and
the best marked, the loss and the label; then each player's accuracy and the worst three
moments, and each match drawn hand by hand: ``engine.match_chart``), JSON for tools (one
``cardtui-analysis/1`` document a line, then a summary line).
A long file shows a progress bar on standard error while it works (when that is a terminal).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from cardtui.client import advice
from cardtui.client.models import TableModel
from cardtui.client.words import label
from cardtui.engine import analysis, match_chart
from cardtui.engine.analysis import FLAGGED, HandAnalysis, Label, Moment
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.core import Action
from cardtui.i18n import N_, _, ngettext
from cardtui.server.base import wire
from cardtui.server.hands.said import reason_message, scale_message
from cardtui.v1 import analysis_pb2, common_pb2

LABELS: Mapping[Label, str] = {
    Label.BEST: N_("best"),
    Label.GOOD: N_("as good"),
    Label.INACCURACY: N_("inaccuracy"),
    Label.MISTAKE: N_("mistake"),
    Label.BLUNDER: N_("blunder"),
    Label.MISSED_WIN: N_("missed win"),
}
LONG = 20
"""Decisions from which a file is long enough for a progress bar."""


def label_word(label: Label) -> str:
    return _(LABELS[label])


def wire_unit(unit: Unit) -> int:
    return analysis_pb2.ANALYSIS_UNIT_MATCH if unit is Unit.MATCH else analysis_pb2.ANALYSIS_UNIT_CHIPS


def value_text(value: float, unit: Unit) -> str:
    """A choice's value in the game's one unit, as the analysis screen says it (``client.advice``): points of
    match odds (the chance of winning the match), or chips."""
    return advice.value(value, wire_unit(unit))


def lost_points(m: Moment, unit: Unit) -> float:
    """What a decision lost, in points (the one scale of a loss, ``engine.analysis.points``), told apart or not."""
    return analysis.points(m.loss, unit, m.stake)


def error_text(error: float, unit: Unit) -> str:
    if error != error or error == float("inf"):
        return "±?"
    return f"±{100.0 * error:.1f}" if unit is Unit.MATCH else f"±{error:.2f}"


def holder_name(entry: Mapping[str, Any]) -> str:
    """A seat's holder as the history names it (docs/history.md §2.1), as the table's log does: "ana (bot)"
    while a bot plays for ana, a bot by its name."""
    name = str(entry.get("name", ""))
    return _("{name} (bot)").format(name=name) if entry.get("away") and entry.get("bot") else name


@dataclass(frozen=True)
class Named:
    """A hand's analysis with the names of its seats as they were at each of its steps: ``names`` as dealt
    (the history's ``seats``), ``changes`` each change of hands from the step it took effect (its ``holders``)."""

    analysis: HandAnalysis
    names: Mapping[int, str]
    changes: tuple[tuple[int, int, str], ...] = ()
    """(the step from which, seat, who): ``holders``, its ``from`` read as the replay's step."""

    @classmethod
    def of(cls, a: HandAnalysis, record: Mapping[str, Any]) -> Named:
        names = {int(s["seat"]): holder_name(s) for s in record["seats"]}
        steps = {int(e["seq"]): n for n, e in enumerate((e for e in record["actions"] if e.get("seat") is not None),
                                                         1)}
        changes = tuple((steps.get(int(h["from"]), len(steps) + 1), int(h["seat"]), holder_name(h))
                        for h in record.get("holders") or ())
        return cls(a, names, changes)

    def name(self, seat: int, step: int) -> str:
        """Who held ``seat`` at ``step``."""
        found = self.names.get(seat, f"#{seat}")
        for since, changed, who in self.changes:
            if changed == seat and since <= step:
                found = who
        return found

    def model(self) -> TableModel:
        return TableModel(common_pb2.TableSummary(game=self.analysis.game), None)

    def said(self, action: Action) -> str:
        """An action in words, in the reader's language, as the table says it ("Falta envido", "Play 11♧")."""
        return label(self.model(), wire.action_message(action)).plain

    def why(self, m: Moment) -> str:
        """A flagged decision's reason in words, as the analysis screen says it ("" without one)."""
        return (advice.reason_words(self.model(), reason_message(m.reason), wire.action_message(m.best),
                                    wire.action_message(m.chosen)) if m.reason is not None else "")


def moment_lines(m: Moment, unit: Unit, named: Named) -> list[str]:
    """One decision: who chose what, the verdict, then each choice with its odds."""
    verdict = label_word(m.label)
    best, chosen = m.of(m.best), m.of(m.chosen)
    if m.label is Label.GOOD and best is not None and chosen is not None:
        verdict = advice.close(lost_points(m, unit), chosen.value, best.value, wire_unit(unit)) or verdict
    head = _("step {step}, {name}: {action} — {label}").format(step=m.step, name=named.name(m.seat, m.step),
                                                               action=named.said(m.chosen), label=verdict)
    if m.label in FLAGGED:
        head += " " + advice.lost(lost_points(m, unit))
    out = ["  " + head]
    why = named.why(m) if m.label in FLAGGED else ""
    if why:
        out.append("      " + why)
    for c in sorted(m.choices, key=lambda c: -c.value):
        marks = []
        if analysis.same(c.action, m.best):
            marks.append(_("best"))
        if analysis.same(c.action, m.chosen):
            marks.append(_("chosen"))
        out.append(f"      {'▸' if marks else ' '} {named.said(c.action):<22} {value_text(c.value, unit):>12} "
                   f"{error_text(c.error, unit):>7}  {', '.join(marks)}".rstrip())
    return out


def hand_lines(named: Named) -> list[str]:
    a = named.analysis
    flagged = sum(1 for m in a.moments if m.label in FLAGGED)
    out = [_("{game}, table {table}, hand {hand}: {n} decisions judged, {flagged} flagged").format(
        game=a.game, table=a.table or "-", hand=a.hand, n=len(a.moments), flagged=flagged),
        "  " + advice.unit_line(wire_unit(a.unit), scale_message())]
    for m in a.moments:
        out += moment_lines(m, a.unit, named)
    return out


def summary_lines(hands: Sequence[Named]) -> list[str]:
    seats, worst = analysis.summary([h.analysis for h in hands])
    held: dict[int, dict[str, None]] = {}  # each seat's holders, in order, each once
    for h in hands:
        for seat, name in h.names.items():
            held.setdefault(seat, {})[name] = None
        for _step, seat, name in h.changes:
            held.setdefault(seat, {})[name] = None
    names = {seat: ", ".join(who) for seat, who in held.items()}
    by_hand = {h.analysis.hand: h for h in hands}
    out = [advice.accuracy_line()]
    for s in seats:
        counts = ", ".join(f"{label_word(Label(k))} {v}" for k, v in s.counts.items() if v)
        out.append(f"  {names.get(s.seat, f'#{s.seat}'):<16} {s.accuracy:5.1f}  "
                   + ngettext("{n} decision", "{n} decisions", s.decisions).format(n=s.decisions)
                   + (f"; {counts}" if counts else ""))
    if worst:
        out.append(_("The worst moments:"))
        for w in worst:
            m = w.moment
            named = by_hand.get(w.hand, hands[0])
            out.append("  " + _("hand {hand}, step {step}, {name}: {action} — {label} {lost}; best: {best}").format(
                hand=w.hand, step=m.step, name=named.name(m.seat, m.step), action=named.said(m.chosen),
                label=label_word(m.label), lost=advice.lost(lost_points(m, named.analysis.unit)),
                best=named.said(m.best)))
    return out


SPARKS = "▁▂▃▄▅▆▇█"
"""A value drawn in one character, low to high (a text chart's row)."""
COLUMNS = 16
"""Hands a row of figures holds (so that a long match wraps into rows a terminal of 80 columns keeps whole)."""


def matches(records: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The records grouped into their matches (a table's match: the history's ``table`` and ``match``), each in the
    file's order: a match's chart is drawn from its own hands."""
    out: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    for r in records:
        out.setdefault((str(r.get("table", "")), int(r.get("match", 0))), []).append(r)
    return list(out.values())


def spark(values: Sequence[float], low: float, high: float) -> str:
    span = high - low
    return "".join(SPARKS[min(len(SPARKS) - 1, int((v - low) / span * len(SPARKS)))] if span > 0 else SPARKS[0]
                   for v in values)


def figure(value: float, unit: Unit) -> str:
    return f"{100.0 * value:.0f}" if unit is Unit.MATCH else f"{value:+.0f}"


def chart_lines(records: Sequence[Mapping[str, Any]], seats: Sequence[int] | None, names: Mapping[int, str]
                ) -> list[str]:
    """One match drawn as text: what is charted, each seat's values as a row of bars, then the figures hand by hand
    (``engine.match_chart``: the chance of winning the match in %, or the chips won)."""
    chart = match_chart.chart(records, seats)
    if chart is None or not chart.seats:
        return []
    first = records[0]
    what = (_("each one's chance of winning it (%), before the first hand and after each")
            if chart.unit is Unit.MATCH else _("the chips each one has won, before the first hand and after each"))
    out = [_("Match {match} of table {table} drawn: {what}").format(
        match=first.get("match", 0), table=first.get("table") or "-", what=what)]
    width = max(len(names.get(c.seat, f"#{c.seat}")) for c in chart.seats)
    every = [p.value for c in chart.seats for p in c.points]
    low, high = (0.0, 1.0) if chart.unit is Unit.MATCH else (min(every), max(every))
    for c in chart.seats:
        values = [p.value for p in c.points]
        out.append(f"  {names.get(c.seat, f'#{c.seat}'):<{width}}  {spark(values, low, high)}  "
                   f"{figure(values[0], chart.unit)} → {figure(values[-1], chart.unit)}")
    hands = [p.hand for p in chart.seats[0].points]
    head = _("hand")
    width = max(width, len(head))
    for at in range(0, len(hands), COLUMNS):
        row = slice(at, at + COLUMNS)
        out.append(f"  {head:<{width}}" + "".join(f"{h:>5}" for h in hands[row]))
        for c in chart.seats:
            out.append(f"  {names.get(c.seat, f'#{c.seat}'):<{width}}"
                       + "".join(f"{figure(p.value, chart.unit):>5}" for p in c.points[row]))
    return out


class Bar:
    """A progress bar on a terminal's standard error, drawn at most ten times a second."""

    def __init__(self, total: int, out: IO[str]) -> None:
        self.total, self.out, self.done, self._drawn = total, out, 0, 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self._drawn >= 0.1 or self.done >= self.total:
            self._drawn = now
            width = 30
            filled = width * self.done // max(1, self.total)
            self.out.write("\r" + _("analysing") + f" [{'#' * filled}{'.' * (width - filled)}] "
                           f"{self.done}/{self.total}")
            self.out.flush()

    def end(self) -> None:
        self.out.write("\n")
        self.out.flush()


def read(path: str) -> list[dict[str, Any]]:
    """The hand histories of a JSON Lines file; ``ValueError`` naming a line that is not one."""
    with open(path, encoding="utf-8") if path != "-" else sys.stdin as f:
        lines = list(f)
    records = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if not isinstance(record, dict) or "actions" not in record:
            raise ValueError(_("line {n} of {file} is not a hand history.").format(n=n, file=path))
        records.append(record)
    return records


def run(path: str, hand: int | None, seat: int | None, as_json: bool, seed: int, out: IO[str], err: IO[str],
        bar: Callable[[int], Bar | None] | None = None) -> int:
    """The command's work; its exit status."""
    try:
        records = read(path)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print(f"cardtui: {e}", file=err)
        return 2
    if hand is not None:
        records = [r for r in records if int(r.get("hand", 0)) == hand]
    if not records:
        print("cardtui: " + _("there are no hand histories in {file}.").format(file=path)
              if hand is None else "cardtui: " + _("there is no hand {hand} in {file}.").format(hand=hand, file=path),
              file=err)
        return 1
    seats = None if seat is None else [seat]
    try:
        total = sum(analysis.decisions(r, seats) for r in records)
    except (ValueError, KeyError, TypeError) as e:
        print("cardtui: " + _("a hand of {file} does not replay: {why}").format(file=path, why=e), file=err)
        return 2
    progress = (bar or (lambda n: Bar(n, err) if n >= LONG and err.isatty() else None))(total)
    done: list[Named] = []
    for record in records:
        try:
            a = analysis.analyse(record, seed=seed, seats=seats,
                                 progress=(lambda n, _t: progress.step() if n else None) if progress else None)
        except (ValueError, KeyError, TypeError) as e:
            if progress is not None:
                progress.end()
            print("cardtui: " + _("hand {hand} does not replay: {why}").format(hand=record.get("hand"), why=e),
                  file=err)
            return 2
        done.append(Named.of(a, record))
        if as_json:
            print(json.dumps(analysis.to_json(a), ensure_ascii=False), file=out)
        else:
            print("\n".join(hand_lines(done[-1])), file=out)
    if progress is not None:
        progress.end()
    if as_json:
        seats_summary, worst = analysis.summary([n.analysis for n in done])
        print(json.dumps({"format": "cardtui-analysis-summary/1", "seats": [
            {"seat": s.seat, "decisions": s.decisions, "accuracy": s.accuracy, "counts": dict(s.counts)}
            for s in seats_summary], "worst": [{"hand": w.hand, "step": w.moment.step, "seat": w.moment.seat,
                                                "label": str(w.moment.label), "points": w.moment.points}
                                               for w in worst],
            "charts": [dict(match_chart.to_json(c), table=str(m[0].get("table", "")), match=int(m[0].get("match", 0)))
                       for m in matches(records) if (c := match_chart.chart(m, seats)) is not None]}), file=out)
    else:
        print("\n".join(summary_lines(done)), file=out)
        for m in matches(records):
            print("\n".join(chart_lines(m, seats, {int(e["seat"]): holder_name(e) for e in m[0]["seats"]})), file=out)
    return 0
