"""The action bar: one button per legal action, each with a key that always means that action.

A game names the key of each of its action types (``gamebook.ClientGame.keys``: ``b`` bets, ``t``
calls truco), so a key never changes meaning under the finger when the choices change; an
action a game gives no key gets a number after the keyed ones. A key whose action is not on
offer does nothing. Amounts and signals are picked with +/- on one button.

The bar is one widget that draws its buttons itself, three rows high whatever it offers. Its
choices change with nearly every message; as child widgets, each button shown, hidden or
relabelled to another width laid the whole screen out again (a fifth of the client's work for a
message at a truco table). Drawn here, a change repaints the bar's three rows and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.strip import Strip
from textual.widget import Widget

from cardtui import i18n
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.textual_internals import styled
from cardtui.client.words import key_for, label, word
from cardtui.i18n import _
from cardtui.v1 import common_pb2

SIZED = ("bet", "raise")
"""Action types offered at many amounts: shown as one button with an adjustable amount."""
CYCLED = ("signal",)
"""Action types offered in many kinds: one button; +/- goes round the kinds."""
GROUPED = SIZED + CYCLED
MANY = 3
"""More choices than this are laid out as a compact keypad, so none falls off the edge."""
ROWS = 3
"""The bar's height: a row of raised buttons, or a keypad of up to three rows."""
MIN_WIDTH = 8
"""A raised button's least width, so a short word is still a target for the mouse."""


def sized_by_layout() -> Reactive[Size]:
    """A virtual size that asks for no layout of its own. Textual lays the screen out again whenever
    a widget's virtual size changes, and a layout that resized a widget changed it: a second
    layout of the whole screen, right after the first, to arrive where the first already had
    (for a widget that does not scroll, its virtual size is its size, set by that layout)."""
    return Reactive(Size(0, 0), layout=False, repaint=False)


@dataclass(frozen=True)
class Shown:
    """A button as drawn: its choice's number (also the number key), its words, and where it is."""

    number: int
    label: Text
    region: Region
    """On screen."""
    offset: Offset
    """Within the bar's own region (where a click lands on it)."""


class ActionBar(Widget):
    """The legal actions the board does not offer by its own keys."""

    COMPONENT_CLASSES = {"actionbar--button", "actionbar--hover", "actionbar--top", "actionbar--bottom",
                         "actionbar--idle"}

    model: reactive[TableModel | None] = reactive(None, always_update=True)
    virtual_size = sized_by_layout()

    class Chosen(Message):
        def __init__(self, action: common_pb2.Action) -> None:
            super().__init__()
            self.action = action

    def __init__(self, handled: frozenset[str] = frozenset(), id: str | None = None) -> None:
        super().__init__(id=id)
        self.handled = handled
        self.choices: list[list[common_pb2.Action]] = []
        self.keys: list[str] = []
        """The key of each choice, in the same order."""
        self.picked: dict[str, int] = {}
        self.labels: list[Text] = []
        """Each choice's words, in the same order."""
        self.idle_text = Text("")
        """What the bar says when it has no button."""
        self.offered: tuple[object, ...] | None = None
        """What the bar was last brought up to: the game, the language and every legal action (the
        buttons' words, keys and the idle line are drawn from these alone). Another seat's turn
        is mostly a message after a message with nothing to offer."""
        self.hovered: int | None = None
        """The number of the button under the mouse."""
        self._drawn: tuple[object, ...] = ()
        """What the lines below were drawn from: the words, the width, the mouse, the styles."""
        self._lines: list[Strip] = []
        self._places: list[Region] = []
        """Each button's place in the bar's content, in the choices' order."""

    def watch_model(self, model: TableModel | None) -> None:
        offered = None if model is None else (
            model.game, i18n.current(), tuple(a.SerializeToString() for a in model.legal))
        if offered is not None and offered == self.offered:
            return  # the same choices at the same table in the same language: the same bar
        self.offered = offered
        legal = [a for a in model.legal if action_name(a) not in self.handled] if model is not None else []
        groups: dict[str, list[common_pb2.Action]] = {}
        order: list[list[common_pb2.Action]] = []
        for a in legal:
            kind = action_name(a)
            if kind in GROUPED and kind in groups:
                groups[kind].append(a)
                continue
            group = [a]
            if kind in GROUPED:
                groups[kind] = group
            order.append(group)
        self.choices = order
        self.keys = self._keys(model, order) if model is not None else []
        self.picked = {k: v for k, v in self.picked.items() if k in groups}
        self._words()

    @staticmethod
    def _keys(model: TableModel, choices: list[list[common_pb2.Action]]) -> list[str]:
        """Each choice's key: its type's own key, else the next free number."""
        keys = [key_for(model, action_kind(group[0])) for group in choices]
        taken = {k for k in keys if k}
        numbers = (str(n) for n in range(1, 10) if str(n) not in taken)
        return [k or next(numbers, "") for k in keys]

    def _current(self, group: list[common_pb2.Action]) -> common_pb2.Action:
        i = self.picked.get(action_name(group[0]), 0)
        return group[min(i, len(group) - 1)]

    def relabel(self) -> None:
        """The buttons' words again, in the reader's language now."""
        self._words()

    def _words(self) -> None:
        """Each button's words (and the idle line) brought up to the choices; the bar is repainted
        if they changed."""
        model = self.model
        labels: list[Text] = []
        for group, key in zip(self.choices, self.keys, strict=True):
            assert model is not None
            text = Text(f"{key} ", style="bold") if key else Text("  ")
            text.append_text(label(model, self._current(group)))
            if len(group) > 1 and action_name(group[0]) in CYCLED:
                text.append(" ±", style="dim")
            elif len(group) > 1:
                text.append(f" (±: {group[0].chips}–{group[-1].chips})")
            labels.append(text)
        self.labels = labels
        self.idle_text = self._idle() if not labels else Text("")
        if self.hovered is not None and self.hovered > len(labels):
            self.hovered = None
        self.refresh()

    @property
    def buttons(self) -> list[Shown]:
        """The buttons on show, one per choice, in order (none until the bar has a size)."""
        self._draw()
        content = self.content_region
        gutter = self.styles.gutter
        return [Shown(n, text, place.translate(content.offset),
                      Offset(place.x + gutter.left, place.y + gutter.top))
                for n, (text, place) in enumerate(zip(self.labels, self._places, strict=False), start=1)]

    @property
    def text(self) -> str:
        """The bar's rows as plain text."""
        self._draw()
        return "\n".join(line.text for line in self._lines)

    def _idle(self) -> Text:
        """The bar with no button: nothing to do, or the board's own keys for what is on offer there."""
        model = self.model
        kinds: list[str] = []
        for a in model.legal if model is not None else ():
            kind = action_kind(a)
            if action_name(a) in self.handled and kind not in kinds:
                kinds.append(kind)
        if model is None or not kinds:
            return Text(_("Nothing to do right now."), style="dim")
        out = Text(_("On the board: "))
        for i, kind in enumerate(kinds):
            if i:
                out.append(" · ")
            key = key_for(model, kind)
            if key:
                out.append(f"{key} ", style="bold")
            out.append(word(model, kind))
        return out

    # -- drawing ---------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        self._draw()
        return self._lines[y] if 0 <= y < len(self._lines) else Strip.blank(self.content_size.width)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn = ()  # a theme or a class changed the colours

    def watch_disabled(self, disabled: bool) -> None:
        super().watch_disabled(disabled)
        self.refresh()

    def _draw(self) -> None:
        """The bar's rows, drawn again only when what they show changed."""
        width = self.content_size.width
        wanted = (tuple((t.plain, tuple(t.spans), t.style) for t in self.labels),
                  (self.idle_text.plain, tuple(self.idle_text.spans), self.idle_text.style),
                  width, self.hovered, self.disabled)
        if wanted == self._drawn and self._lines:
            return
        self._drawn = wanted
        if not self.labels:
            self._places = []
            self._lines = [Strip.blank(width), self._idle_line(width), Strip.blank(width)]
            return
        widths = [max(MIN_WIDTH, t.cell_len + 2) for t in self.labels]
        raised = len(self.labels) <= MANY and sum(widths) + len(widths) - 1 <= width
        self._lines, self._places = self._raised(widths, width) if raised else self._keypad(width)

    def _style(self, name: str, number: int = 0) -> Style:
        style = self.get_component_rich_style(name)
        if number and number == self.hovered and not self.disabled:
            style += self.get_component_rich_style("actionbar--hover")
        return style + Style(dim=True) if self.disabled else style

    def _face(self, text: Text, width: int, number: int, centred: bool) -> list[Segment]:
        """A button's words in its colours, padded or cut to its width: a space either side when
        raised, one before the words on a keypad's key (the gap between keys keeps them apart)."""
        right = 1 if centred else 0
        text = text.copy()
        text.truncate(max(0, width - 1 - right), overflow="ellipsis")
        inner = width - 1 - right - text.cell_len
        left = inner // 2 if centred else 0
        return self._on(text, self._style("actionbar--button", number), 1 + left, right + inner - left)

    def _on(self, text: Text, style: Style, left: int, right: int) -> list[Segment]:
        """Words with spaces either side, drawn on ``style`` (under the words' own styles)."""
        text.pad_left(left)
        text.pad_right(right)
        return list(styled(list(text.render(self.app.console)), style, ()))

    def _raised(self, widths: list[int], full: int) -> tuple[list[Strip], list[Region]]:
        """Up to three buttons in a row, each raised: a light edge above, a dark one below."""
        rows: list[list[Segment]] = [[], [], []]
        places: list[Region] = []
        x = 0
        for number, (text, width) in enumerate(zip(self.labels, widths, strict=True), start=1):
            if x:
                for row in rows:
                    row.append(Segment(" "))
                x += 1
            top = self._style("actionbar--top", number)
            bottom = self._style("actionbar--bottom", number)
            rows[0].append(Segment("▔" * width, top))
            rows[1].extend(self._face(text, width, number, centred=True))
            rows[2].append(Segment("▁" * width, bottom))
            places.append(Region(x, 0, width, ROWS))
            x += width
        return [self._strip(row, full) for row in rows], places

    def _keypad(self, width: int) -> tuple[list[Strip], list[Region]]:
        """Many choices: a keypad of flat buttons, three to a row (more columns past nine)."""
        columns = max(min(3, len(self.labels)), -(-len(self.labels) // ROWS))
        gap = 1
        cell = max(3, (width - gap * (columns - 1)) // columns)
        rows: list[list[Segment]] = [[] for _ in range(ROWS)]
        places: list[Region] = []
        for i, text in enumerate(self.labels):
            row, column = divmod(i, columns)
            if column:
                rows[row].append(Segment(" " * gap))
            rows[row].extend(self._face(text, cell, i + 1, centred=False))
            places.append(Region(column * (cell + gap), row, cell, 1))
        return [self._strip(row, width) for row in rows], places

    def _idle_line(self, width: int) -> Strip:
        text = self.idle_text.copy()
        text.truncate(max(0, width - 1), overflow="ellipsis")
        return self._strip(self._on(text, self._style("actionbar--idle"), 1, 0), width)

    def _strip(self, segments: list[Segment], width: int) -> Strip:
        """A row of the bar, its width exactly, on the bar's own colours."""
        return Strip(segments).extend_cell_length(width).crop(0, width).apply_style(self.rich_style)

    # -- the mouse -------------------------------------------------------------------
    def _at(self, event: events.MouseEvent) -> int | None:
        """The number of the button under the mouse, if any."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        return next((n for n, place in enumerate(self._places, start=1) if place.contains_point(offset)), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hovered = self._at(event)
        if hovered != self.hovered:
            self.hovered = hovered
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.hovered is not None:
            self.hovered = None
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        number = self._at(event)
        if number is not None and not self.disabled:
            self.choose(number)

    # -- choosing --------------------------------------------------------------------
    def choose(self, n: int) -> None:
        if 1 <= n <= len(self.choices):
            self.post_message(self.Chosen(self._current(self.choices[n - 1])))

    def press(self, key: str) -> bool:
        """The choice this key means, if it is on offer now; a key for anything else does nothing."""
        if key in self.keys:
            self.choose(self.keys.index(key) + 1)
            return True
        return False

    def adjust(self, step: int) -> None:
        for group in self.choices:
            if len(group) > 1:
                kind = action_name(group[0])
                i = self.picked.get(kind, 0) + step
                self.picked[kind] = i % len(group) if kind in CYCLED else max(0, min(len(group) - 1, i))
        self._words()
