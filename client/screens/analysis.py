"""A finished hand's analysis on screen: each decision's choices with their odds, the one chosen and the
best marked, the loss and its label; a line for the hand's summary ("Your play: 1 mistake"); a match's,
summed up: each player's accuracy and the worst three moments; and the drill, "try again", on a decision
that was flagged.

The analysis comes from the server (``Lobby.Analyze``): it may wait in the server's queue and takes a
moment to work out, so the screen says where it stands until it arrives.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from typing import TypeVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from cardtui.client import advice
from cardtui.client.boards.base import Board
from cardtui.client.boards.registry import board_for
from cardtui.client.cards import cards_text
from cardtui.client.connection import error_text
from cardtui.client.footer import Footer
from cardtui.client.match_chart import MatchChart
from cardtui.client.models import TableModel, holders_of, shown
from cardtui.client.words import Hanging, label, line, who
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
Hands = Callable[[int], AsyncIterator[analysis_pb2.AnalyzeUpdate]]
"""One hand's analysis asked for, by the table's number of the hand."""
R = TypeVar("R")
Result = analysis_pb2.HandAnalysis | analysis_pb2.MatchAnalysis


def label_text(value: int) -> Text:
    return Text(_(LABELS.get(value, N_("best"))), style=STYLES.get(value, "green"))


def verdict_text(m: analysis_pb2.AnalysisMoment, unit: int) -> Text:
    """A decision's label; an "as good" whose value, as shown, is below the best's said as how close it is."""
    best = next((c for c in m.choices if c.action == m.best), None)
    chosen = next((c for c in m.choices if c.action == m.chosen), None)
    if m.label == analysis_pb2.ANALYSIS_LABEL_GOOD and best is not None and chosen is not None:
        said = advice.close(lost_points(m), chosen.value, best.value, unit)
        if said is not None:
            return Text(said, style="green")
    return label_text(m.label)


def lost_points(m: analysis_pb2.AnalysisMoment) -> float:
    """What a decision lost, in points (the chosen choice's gap, told apart from nothing or not; an older server's
    analysis has only the moment's points)."""
    chosen = next((c for c in m.choices if c.action == m.chosen), None)
    return chosen.lost if chosen is not None and chosen.lost > 0 else m.points


def play_line(hand: analysis_pb2.HandAnalysis, seat: int) -> Text:
    """What the hand's summary says of a player's play: how many mistakes or worse."""
    n = sum(1 for m in hand.moments if m.seat == seat and m.label in SERIOUS)
    said = (ngettext("Your play: {n} mistake", "Your play: {n} mistakes", n).format(n=n) if n
            else _("Your play: no mistakes"))
    return Text(said + " · " + _("a: the analysis"), style="bold red" if n else "green")


def deferred_line() -> Text:
    """What a hand's summary says of a player's play the server did not analyse unasked."""
    return Text(_("Your play: a to analyse it"), style="dim")


def hand_line(number: int, said: Text) -> Text:
    """A summary's line of a player's play, for the table's log (which outlasts the summary): the hand named."""
    return Text(_("Hand {n}").format(n=number) + " · ", style="dim") + said


def value_text(value: float, unit: int) -> str:
    """A choice's value in the game's unit, named (``client.advice``)."""
    return advice.value(value, unit)


OTHERS = 4
"""Beside the best and the chosen one, how many choices a decision lists (the best valued of them): a bet of
every size is a choice, and a screen of 24 rows reads better without the twentieth."""


def moment_text(model: TableModel, m: analysis_pb2.AnalysisMoment, unit: int, why: bool = True) -> Text:
    """One decision: who chose what and its label (a flagged one: what it lost, in the unit, and why), then its
    choices with their values: the best and the chosen one first, then the best valued others (``OTHERS``; how
    many more are left unlisted). ``why``: with the reason (the drill says it above instead)."""
    head = line(_("step {n}").format(n=m.step), " · ", who(model, m.seat), ": ", label(model, m.chosen), " — ")
    head.append_text(verdict_text(m, unit))
    if m.label in FLAGGED:
        head.append(" " + advice.lost(lost_points(m)), style="dim")
    out = [head]
    said = (advice.reason_text(model, m.reason, m.best, m.chosen) if why and m.label in FLAGGED and m.HasField("reason")
            else None)
    if said is not None:
        out.append(Text("   ") + said)
    marked = [c for c in m.choices if c.action in (m.best, m.chosen)]
    others = sorted((c for c in m.choices if c not in marked), key=lambda c: -c.value)
    for c in sorted(marked, key=lambda c: -c.value) + others[:OTHERS]:
        marks = [word for word, on in ((_("best"), c.action == m.best), (_("chosen"), c.action == m.chosen)) if on]
        row = Text("   ▸ " if marks else "     ")
        row.append_text(label(model, c.action))
        row.append(f"  {value_text(c.value, unit)}")
        if marks:
            row.append("  " + ", ".join(marks), style="bold")
        out.append(row)
    if len(others) > OTHERS:
        more = len(others) - OTHERS
        out.append(Text("     " + ngettext("and {n} more choice", "and {n} more choices", more).format(n=more),
                        style="dim"))
    return Text("\n").join(out)


def step_verdict(model: TableModel, hand: analysis_pb2.HandAnalysis, step: int) -> Text | None:
    """The verdict on the decision made at a replay's ``step``, if it was judged: for the replay's line."""
    for m in hand.moments:
        if m.step == step:
            said = verdict_text(m, hand.unit)
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


def match_text(model: TableModel, match: analysis_pb2.MatchAnalysis, places: bool = False) -> Text:
    """A match summed up: each player's accuracy over its hands, then its worst three moments. ``places``: each
    hand named by its place in the match, as the table names it (else by the table's count, as replays do)."""
    parts = [Text(ngettext("Match {m}: {n} hand judged", "Match {m}: {n} hands judged", len(match.hands)).format(
        m=match.match, n=len(match.hands)), style="bold")]
    for a in match.accuracy:
        row = line(who(model, a.seat), "  " + _("accuracy {a} of 100").format(a=f"{a.accuracy:.0f}"))
        if a.flagged:
            row.append(" · " + ngettext("{n} mistake", "{n} mistakes", a.flagged).format(n=a.flagged), style="bold")
        parts.append(row)
    parts.append(Text(advice.accuracy_line(), style="dim"))
    if match.worst:
        parts.append(Text(advice.unit_line(match.unit, match.scale), style="dim"))
    parts.append(Text(""))
    if not match.worst:
        parts.append(Text(_("No mistake worth naming: no decision lost more than an inaccuracy."), style="italic"))
    else:
        parts.append(Text(_("The worst moments"), style="bold"))
    for n, w in enumerate(match.worst, 1):
        m = w.moment
        hand = list(match.hands).index(w.hand) + 1 if places and w.hand in match.hands else w.hand
        head = line(f"{n}. ", _("hand {h}, step {s}").format(h=hand, s=m.step), " · ", who(model, m.seat), ": ",
                    label(model, m.chosen), " — ")
        head.append_text(label_text(m.label))
        head.append(" " + advice.lost(lost_points(m)), style="dim")
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


def analysis_text(model: TableModel, hand: analysis_pb2.HandAnalysis, number: int | None = None) -> Text:
    """The whole analysis: each seat's accuracy, then every decision in the hand's order. ``number``: the hand
    as the table names it (its place in the match; a finished table's hands go by the table's count)."""
    parts = [Text(_("Hand {n}: the decisions judged").format(n=hand.hand if number is None else number),
                  style="bold"), Text(advice.unit_line(hand.unit, hand.scale), style="dim")]
    judged = [a for a in hand.accuracy if a.decisions]  # a seat with no decision judged has no accuracy to show
    for a in judged:
        parts.append(line(who(model, a.seat), "  " + _("accuracy {a} of 100").format(a=f"{a.accuracy:.0f}")))
    if judged:
        parts.append(Text(advice.accuracy_line(), style="dim"))
    if not hand.moments:
        parts.append(Text(_("No decision with a real choice to judge."), style="italic"))
    for m in hand.moments:
        parts.append(Text(""))
        parts.append(moment_text(model, m, hand.unit))
    return Text("\n").join(parts)


class TableClock(ModalScreen[R]):
    """A screen over a table (the analysis, the drill) with the table's turn line at its foot: a player reading
    at a table still sees whose turn it is and the seconds left (``show_turn``, from the table's own tick); hidden
    elsewhere (the replay viewer's). ``step_aside``: back to the board, when the player's turn begins."""

    def turn_static(self) -> Static:
        line = Static("", classes="turn-over")
        line.display = False
        return line

    def show_turn(self, said: Text) -> None:
        """The table's turn line now (an empty one hides it)."""
        for where in self.query(".turn-over").results(Static):
            where.display = bool(said.plain)
            where.update(said)

    def step_aside(self) -> None:
        raise NotImplementedError


class AnalysisScreen(TableClock[Result | None]):
    """One hand's analysis, or a match's summed up, asked for when opened (or given): escape closes it."""

    BINDINGS = [Binding("escape", "close", N_("Close")), Binding("t", "drill", N_("Try again"))]
    CSS_PATH = "../match_chart.tcss"

    def __init__(self, model: TableModel, updates: Updates | None = None, hand: Result | None = None,
                 number: int | None = None, places: bool = False, hands: Hands | None = None) -> None:
        super().__init__()
        self.hands = hands
        """How to ask for one hand of the match by its number (the chart's ``enter``), where the screen can."""
        self.model = model
        self.updates = updates
        self.result = hand
        self.number = number
        """The hand as the table names it (``analysis_text``)."""
        self.places = places
        """A match's hands named by their place in it (``match_text``)."""
        self.drilled = 0
        """How many of the flagged decisions the drill has put back so far (it goes round them, worst first)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="analysis"):
            yield Static(_("Asking the server for the analysis…"), id="analysis-body")
        yield self.turn_static()
        yield Footer()

    def on_mount(self) -> None:
        if self.result is not None:
            self._show(self.result)
        elif self.updates is not None:
            self._load()

    def _show(self, result: Result) -> None:
        self.result = result
        said = (match_text(self.model, result, self.places) if isinstance(result, analysis_pb2.MatchAnalysis)
                else analysis_text(self.model, result, self.number))
        self.query_one("#analysis-body", Static).update(Hanging(said))
        if isinstance(result, analysis_pb2.MatchAnalysis) and result.charts and not self.query(MatchChart):
            chart = MatchChart(self.model, result, self.model.seat, self.places, self.hands is not None)
            self.query_one("#analysis", VerticalScroll).mount(chart, before="#analysis-body")
            chart.focus()
        self.refresh_bindings()

    def on_match_chart_opened(self, message: MatchChart.Opened) -> None:
        """``enter`` on a hand of the match drawn: that hand's analysis, asked for, over this one."""
        if self.hands is not None:
            hands, number = self.hands, message.hand
            self.app.push_screen(AnalysisScreen(self.model, lambda: hands(number),
                                                number=message.place if self.places else None))

    def flagged(self) -> list[analysis_pb2.AnalysisMoment]:
        """The decisions the drill may put back: those flagged, most points lost first."""
        result = self.result
        if isinstance(result, analysis_pb2.MatchAnalysis):
            moments = [w.moment for w in result.worst]
        elif result is not None:
            moments = [m for m in result.moments if m.label in FLAGGED]
        else:
            moments = []
        return sorted(moments, key=lambda m: -m.points)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "drill":
            return bool(self.flagged())
        return True

    def action_drill(self) -> None:
        """Try again: the next flagged decision, worst first, back on screen without its odds."""
        moments = self.flagged()
        if moments:
            self.app.push_screen(DrillScreen(self.model, moments[self.drilled % len(moments)], self.unit()))
            self.drilled += 1

    def unit(self) -> int:
        result = self.result
        return result.unit if result is not None else analysis_pb2.ANALYSIS_UNIT_MATCH

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

    def step_aside(self) -> None:
        """Back to the board (the player's turn came): closed with what it holds, so that it opens again at once."""
        self.dismiss(self.result)


class DrillScreen(TableClock[None]):
    """Try again: a decision that was flagged, back on the board as the seat saw it then (the moment's ``view``),
    its choices without their values. The one picked is repeated and told whether it is the best, as good, or how
    far below the best (in the game's unit) and why; then every choice's value is shown; another may be
    picked."""

    BINDINGS = [Binding("escape", "close", N_("Close"))]

    def __init__(self, model: TableModel, moment: analysis_pb2.AnalysisMoment, unit: int) -> None:
        super().__init__()
        if moment.HasField("view"):  # the seat as its own, its view then, each seat named as it was held then
            held = shown(holders_of(moment.view.seats))
            model = replace(model, view=moment.view, legal=(), deadline=None, seat=moment.seat,
                            names=held or model.names)
        self.model = model
        self.moment = moment
        self.unit = unit
        self.picked: analysis_pb2.AnalysisChoice | None = None

    def compose(self) -> ComposeResult:
        m = self.moment
        head = line(_("step {n}").format(n=m.step), " · ", who(self.model, m.seat))
        if m.cards:
            head.append(" · " + _("holding") + " ")
            head.append_text(cards_text(m.cards))
        head.append("\n")
        head.append_text(label(self.model, m.chosen))
        head.append(" " + _("lost {amount}. Try again: which would you choose?").format(
            amount=advice.amount(lost_points(m))))
        with Horizontal(id="drill"):
            if m.HasField("view"):  # an older server's analysis has no view: the choices alone
                yield board_for(self.model.game)
            with VerticalScroll(id="drill-side"):
                yield Static(head, id="drill-head")
                yield OptionList(*[Option(label(self.model, c.action), id=str(i)) for i, c in enumerate(m.choices)],
                                 id="drill-choices")
                yield Static("", id="drill-said")
        yield self.turn_static()
        yield Footer()

    def on_mount(self) -> None:
        for board in self.query(Board):
            board.can_focus = False  # nothing is played on it (no choices, no timer): the choices are the list's
            board.model = self.model
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = self.moment.choices[int(event.option.id or 0)]
        self.picked = choice
        self.query_one("#drill-said", Static).update(Hanging(drill_text(self.model, self.moment, choice, self.unit)))

    def action_close(self) -> None:
        self.dismiss(None)

    def step_aside(self) -> None:
        self.dismiss(None)


def drill_text(model: TableModel, m: analysis_pb2.AnalysisMoment, choice: analysis_pb2.AnalysisChoice,
               unit: int) -> Text:
    """The drill's answer to a choice tried again: the choice repeated, then whether it is the best, as good (how
    far below, in the unit, within what the estimate tells apart), or how far below the best and why (the
    decision's reason); then every choice's values (``moment_text``)."""
    out = [line(_("You chose: "), label(model, choice.action))]
    if choice.label == analysis_pb2.ANALYSIS_LABEL_BEST or choice.action == m.best:
        out.append(Text(_("That is the best choice."), style="bold green"))
    elif choice.label == analysis_pb2.ANALYSIS_LABEL_GOOD:
        best = next((c for c in m.choices if c.action == m.best), choice)
        if advice.close(choice.lost, choice.value, best.value, unit) is None:
            close = _("As good as the best: {amount} below it, closer than the analysis can tell apart.")
        elif choice.points:
            close = _("Close to the best: {amount} below it, less than an inaccuracy.")
        else:
            close = _("Close to the best: {amount} below it, within what the analysis can tell apart.")
        out.append(Text(close.format(amount=advice.amount(choice.lost)), style="bold green"))
    else:
        said = line(_("{amount} below the best").format(amount=advice.amount(choice.lost or choice.points)), " (")
        said.append_text(label_text(choice.label))
        said.append(") · " + _("best: {action}").format(action=label(model, m.best).plain))
        out.append(said)
        why = advice.reason_text(model, m.reason, m.best, m.chosen) if m.HasField("reason") else None
        if why is not None:
            out.append(why)
    return Text("\n").join([*out, Text(""), moment_text(model, m, unit, why=False)])
