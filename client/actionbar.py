"""The action bar: one button per legal action, each with a key that always means that action.

A game names the key of each of its action types (``words.game_keys``: ``b`` bets, ``t``
calls truco), so a key never changes meaning under the finger when the choices change; an
action a game gives no key gets a number after the keyed ones. A key whose action is not on
offer does nothing. Amounts and signals are picked with +/- on one button.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.widgets import Button, Static

from cardtui import i18n
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.words import key_for, label, word
from cardtui.i18n import _
from cardtui.v1 import common_pb2

SIZED = ("bet", "raise")
"""Action types offered at many amounts: shown as one button with an adjustable amount."""
CYCLED = ("signal",)
"""Action types offered in many kinds: one button; +/- goes round the kinds."""
GROUPED = SIZED + CYCLED
MANY = 3
"""More choices than this are laid out as a compact grid, so none falls off the edge."""


def sized_by_layout() -> Reactive[Size]:
    """A virtual size that asks for no layout of its own. Textual lays the screen out again whenever
    a widget's virtual size changes, and a layout that resized the bar or a button changed it: a
    second layout of the whole screen, right after the first, to arrive where the first already had
    (the bar and its buttons do not scroll: their virtual size is their size, set by that layout)."""
    return Reactive(Size(0, 0), layout=False, repaint=False)


class ActionBar(Horizontal):
    """The legal actions the board does not offer by its own keys."""

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
        self.idle_words: tuple[object, ...] = ()
        """What the idle line says now."""
        self.offered: tuple[object, ...] | None = None
        """What the bar was last brought up to: the game, the language and every legal action (the
        buttons' words, keys and the idle line are drawn from these alone). Another seat's turn
        is mostly a message after a message with nothing to offer."""

    def watch_model(self, model: TableModel | None) -> None:
        offered = None if model is None else (
            model.game, i18n.current(), tuple(a.SerializeToString() for a in model.legal))
        if offered is not None and offered == self.offered and self.is_mounted:
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
        self._render_buttons()

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
        self._render_buttons()

    @property
    def buttons(self) -> list[ActButton]:
        """The buttons on show, one per choice, in order."""
        return [b for b in self.query_children(ActButton) if b.display]

    def compose(self) -> ComposeResult:
        said = self._idle()
        self.idle_words = (said.plain, tuple(said.spans))
        yield IdleLine(said, classes="idle")

    def _render_buttons(self) -> None:
        """The bar brought up to the choices. Its widgets are kept from one message to the next
        (a label or a hidden button changed in place): mounting widgets anew on every message
        cost a layout of the whole screen each time. A button is mounted only when there are
        more choices than ever before."""
        if not self.is_mounted:
            return
        many = len(self.choices) > MANY
        if self.has_class("-many") != many:
            self.set_class(many, "-many")
        idle = self.query_one(".idle", Static)
        if idle.display != (not self.choices):
            idle.display = not self.choices
        if not self.choices:
            said = self._idle()
            words = (said.plain, tuple(said.spans))
            if words != self.idle_words:  # the same words again: no layout, no repaint
                self.idle_words = words
                idle.update(said)
        kept = list(self.query_children(ActButton))
        model = self.model
        fresh: list[ActButton] = []
        for n, (group, key) in enumerate(zip(self.choices, self.keys, strict=True), start=1):
            assert model is not None
            action = self._current(group)
            text = Text(f"{key} ", style="bold") if key else Text("  ")
            text.append_text(label(model, action))
            if len(group) > 1 and action_name(group[0]) in CYCLED:
                text.append(" ±", style="dim")
            elif len(group) > 1:
                text.append(f" (±: {group[0].chips}–{group[-1].chips})")
            if n <= len(kept):
                button = kept[n - 1]
                button.label = text  # repaints only if the words changed
                if not button.display:
                    button.display = True
            else:
                button = ActButton(n, text)
                fresh.append(button)
            button.number = n
        for button in kept[len(self.choices):]:
            if button.display:
                button.display = False
        if fresh:
            self.mount_all(fresh)

    def on_mount(self) -> None:
        self._render_buttons()

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
        self._render_buttons()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if isinstance(event.button, ActButton):
            self.choose(event.button.number)


class IdleLine(Static):
    """The bar's line when it has no button (its size is the layout's: no second layout)."""

    virtual_size = sized_by_layout()


class ActButton(Button):
    """A numbered action; the number is also its key."""

    can_focus = False
    virtual_size = sized_by_layout()

    def __init__(self, number: int, text: str | Text) -> None:
        super().__init__(text, classes="act")
        self.number = number

    def watch_label(self, before: Content, after: Content) -> None:
        """A label of another width needs the bar laid out again (the same width: a repaint)."""
        if before.cell_length != after.cell_length:
            self.refresh(layout=True)
