"""A finished hand's analysis on screen: each decision's choices with their odds, the one chosen and the
best marked, the loss and its label; a line for the hand's summary ("Your play: 1 mistake"); a match's,
summed up: each player's accuracy and the worst three moments.

The analysis comes from the server (``Lobby.Analyze``): it may wait in the server's queue and takes a
moment to work out, so the screen says where it stands until it arrives.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtui.client.connection import error_text
from cardtui.client.footer import Footer
from cardtui.client.models import TableModel
from cardtui.client.words import label, line, who
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import analysis_pb2

LABELS: Mapping[int, str] = {
    analysis_pb2.ANALYSIS_LABEL_BEST: N_("best"),
    analysis_pb2.ANALYSIS_LABEL_GOOD: N_("as good"),
    analysis_pb2.ANALYSIS_LABEL_INACCURACY: N_("inaccuracy"),
    analysis_pb2.ANALYSIS_LABEL_MISTAKE: N_("mistake"),
    analysis_pb2.ANALYSIS_LABEL_BLUNDER: N_("blunder"),
    analysis_pb2.ANALYSIS_LABEL_MISSED_WIN: N_("missed win"),
}
STYLES: Mapping[int, str] = {
    analysis_pb2.ANALYSIS_LABEL_INACCURACY: "yellow",
    analysis_pb2.ANALYSIS_LABEL_MISTAKE: "bold dark_orange",
    analysis_pb2.ANALYSIS_LABEL_BLUNDER: "bold red",
    analysis_pb2.ANALYSIS_LABEL_MISSED_WIN: "bold red",
}
FLAGGED = frozenset(STYLES)
SERIOUS = FLAGGED - {analysis_pb2.ANALYSIS_LABEL_INACCURACY}

Updates = Callable[[], AsyncIterator[analysis_pb2.AnalyzeUpdate]]
Result = analysis_pb2.HandAnalysis | analysis_pb2.MatchAnalysis


def label_text(value: int) -> Text:
    return Text(_(LABELS.get(value, N_("best"))), style=STYLES.get(value, "green"))


def play_line(hand: analysis_pb2.HandAnalysis, seat: int) -> Text:
    """What the hand's summary says of a player's play: how many mistakes or worse."""
    n = sum(1 for m in hand.moments if m.seat == seat and m.label in SERIOUS)
    said = (ngettext("Your play: {n} mistake", "Your play: {n} mistakes", n).format(n=n) if n
            else _("Your play: no mistakes"))
    return Text(said + " · " + _("a: the analysis"), style="bold red" if n else "green")


def value_text(value: float, unit: int) -> str:
    if unit == analysis_pb2.ANALYSIS_UNIT_MATCH:
        return f"{100.0 * value:5.1f}%"
    return _("{chips} chips").format(chips=f"{value:+.2f}")


def moment_text(model: TableModel, m: analysis_pb2.AnalysisMoment, unit: int) -> Text:
    """One decision: who chose what and its label, then each choice with its odds, the best first."""
    head = line(_("step {n}").format(n=m.step), " · ", who(model, m.seat), ": ", label(model, m.chosen), " — ")
    head.append_text(label_text(m.label))
    if m.label in FLAGGED:
        head.append(" " + _("({points} points lost)").format(points=f"{m.points:.1f}"), style="dim")
    out = [head]
    for c in sorted(m.choices, key=lambda c: -c.value):
        marks = [word for word, on in ((_("best"), c.action == m.best), (_("chosen"), c.action == m.chosen)) if on]
        row = Text("   ▸ " if marks else "     ")
        row.append_text(label(model, c.action))
        row.append(f"  {value_text(c.value, unit)}")
        if marks:
            row.append("  " + ", ".join(marks), style="bold")
        out.append(row)
    return Text("\n").join(out)


def step_verdict(model: TableModel, hand: analysis_pb2.HandAnalysis, step: int) -> Text | None:
    """The verdict on the decision made at a replay's ``step``, if it was judged: for the replay's line."""
    for m in hand.moments:
        if m.step == step:
            said = label_text(m.label)
            if m.label in FLAGGED:
                said.append(" (" + _("best: {action}").format(action=label(model, m.best).plain) + ")")
            return said
    return None


def match_line(match: analysis_pb2.MatchAnalysis, seat: int) -> Text:
    """What a match's summary says of a player's play over the match: their accuracy and mistakes."""
    mine = next((a for a in match.accuracy if a.seat == seat), None)
    if mine is None or not mine.decisions:
        return Text(_("Your match: no decision to judge"), style="dim")
    said = _("Your match: accuracy {a} of 100").format(a=f"{mine.accuracy:.0f}")
    if mine.flagged:
        said += ", " + ngettext("{n} mistake", "{n} mistakes", mine.flagged).format(n=mine.flagged)
    return Text(said + " · " + _("m: the match"), style="bold red" if mine.flagged else "green")


def match_text(model: TableModel, match: analysis_pb2.MatchAnalysis) -> Text:
    """A match summed up: each player's accuracy over its hands, then its worst three moments."""
    parts = [Text(ngettext("Match {m}: {n} hand judged", "Match {m}: {n} hands judged", len(match.hands)).format(
        m=match.match, n=len(match.hands)), style="bold")]
    for a in match.accuracy:
        row = line(who(model, a.seat), "  " + _("accuracy {a} of 100").format(a=f"{a.accuracy:.0f}"))
        if a.flagged:
            row.append(" · " + ngettext("{n} mistake", "{n} mistakes", a.flagged).format(n=a.flagged), style="bold")
        parts.append(row)
    parts.append(Text(""))
    if not match.worst:
        parts.append(Text(_("No mistake worth naming: no decision lost more than an inaccuracy."), style="italic"))
    else:
        parts.append(Text(_("The worst moments"), style="bold"))
    for n, w in enumerate(match.worst, 1):
        m = w.moment
        head = line(f"{n}. ", _("hand {h}, step {s}").format(h=w.hand, s=m.step), " · ", who(model, m.seat), ": ",
                    label(model, m.chosen), " — ")
        head.append_text(label_text(m.label))
        head.append(" " + _("({points} points lost)").format(points=f"{m.points:.1f}"), style="dim")
        parts.append(head)
        parts.append(Text("   " + _("best: {action}").format(action=label(model, m.best).plain)))
    return Text("\n").join(parts)


def progress_text(update: analysis_pb2.AnalyzeUpdate) -> str | None:
    """Where an analysis asked for stands: waiting in the queue, or how far it is."""
    what = update.WhichOneof("update")
    if what == "queued":
        return ngettext("Waiting for the analysis: {n} hand before it.",
                        "Waiting for the analysis: {n} hands before it.", update.queued).format(n=update.queued)
    if what != "progress":
        return None
    p = update.progress
    said = _("Analysing: {done} of {total} decisions.").format(done=p.done, total=p.total or "?")
    if p.hands:
        said = _("Hand {n} of {hands}.").format(n=p.hand, hands=p.hands) + " " + said
    return said


def analysis_text(model: TableModel, hand: analysis_pb2.HandAnalysis) -> Text:
    """The whole analysis: each seat's accuracy, then every decision in the hand's order."""
    parts = [Text(_("Hand {n}: the decisions judged").format(n=hand.hand), style="bold")]
    for a in hand.accuracy:
        parts.append(line(who(model, a.seat), "  " + _("accuracy {a} of 100").format(a=f"{a.accuracy:.0f}")))
    if not hand.moments:
        parts.append(Text(_("No decision with a real choice to judge."), style="italic"))
    for m in hand.moments:
        parts.append(Text(""))
        parts.append(moment_text(model, m, hand.unit))
    return Text("\n").join(parts)


class AnalysisScreen(ModalScreen[Result | None]):
    """One hand's analysis, or a match's summed up, asked for when opened (or given): escape closes it."""

    BINDINGS = [Binding("escape", "close", N_("Close"))]

    def __init__(self, model: TableModel, updates: Updates | None = None, hand: Result | None = None) -> None:
        super().__init__()
        self.model = model
        self.updates = updates
        self.result = hand

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="analysis"):
            yield Static(_("Asking the server for the analysis…"), id="analysis-body")
        yield Footer()

    def on_mount(self) -> None:
        if self.result is not None:
            self._show(self.result)
        elif self.updates is not None:
            self._load()

    def _show(self, result: Result) -> None:
        self.result = result
        said = (match_text(self.model, result) if isinstance(result, analysis_pb2.MatchAnalysis)
                else analysis_text(self.model, result))
        self.query_one("#analysis-body", Static).update(said)

    @work(exclusive=True, exit_on_error=False)
    async def _load(self) -> None:
        assert self.updates is not None
        body = self.query_one("#analysis-body", Static)
        try:
            async for update in self.updates():
                what = update.WhichOneof("update")
                said = progress_text(update)
                if said is not None:
                    body.update(said)
                elif what == "analysis":
                    self._show(update.analysis)
                elif what == "match":
                    self._show(update.match)
        except Exception as err:
            body.update(Text(error_text(err), style="bold red"))

    def action_close(self) -> None:
        self.dismiss(self.result)
