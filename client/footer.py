"""The footer, its key descriptions in the reader's language.

Bindings are declared once, at import, with English descriptions (marked ``N_`` where they are
declared); this footer looks each up when it is drawn, so a language switched at run time shows
in the footer at its next refresh (``refresh_bindings``).

Textual's footer composes itself again (every key's widget removed and mounted anew, with its
CSS) whenever the focus moves or a screen refreshes its bindings. A table's keys come and go
several times a hand (More/less while there is an amount to change, Go on while a summary is
open), so this one keeps every key it has shown on its screen: a key that goes is hidden, one
that comes back is shown in its place, one whose state changed (enabled, tooltip) is changed in
place. It composes again only for a key it never had, or the language.

The command palette's hint is left out: at 80 columns its room goes to the screen's own keys
(``ctrl+p`` still opens it, and the help says so).

A key is shown whole or not at all: when the keys on offer run past the footer's width (a
language with longer words, a narrow terminal), some give way, hidden whole rather than cut
("^l Idio"): first those the screen names (``footer_gives_way``; the app's Quit by default:
ctrl+q quits anywhere, and the help says so), then from the right. Each key's width is read
from the footer as last laid out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from cardtui.client.textual_internals import FooterKey, FooterLabel, KeyGroup
from cardtui.i18n import _, current

Ident = tuple[str, ...]
"""What a footer item is, whatever its state: its actions, keys and words."""


@dataclass(frozen=True)
class Item:
    """One item of the footer: a key, or a group of keys with one label (More/less)."""

    keys: tuple[tuple[Binding, bool, str], ...]
    """Each key's binding, whether it is enabled, its tooltip."""
    group: Binding.Group | None = None

    @property
    def ident(self) -> Ident:
        words = (self.group.description,) if self.group is not None else ()
        return (*words, *(f"{b.key}\0{b.action}\0{b.description}\0{b.key_display}" for b, _e, _t in self.keys))


class Footer(TextualFooter):
    def __init__(self, *, show_command_palette: bool = False, compact: bool = False) -> None:
        super().__init__(show_command_palette=show_command_palette, compact=compact)
        self.shown: Hashable = None
        """What the footer shows now (see ``showing``): the same again changes nothing."""
        self.order: list[Ident] = []
        """Every item composed, left to right (those not on offer now hidden)."""
        self.items: dict[Ident, Item] = {}
        """Each item as last on offer (its keys' state then)."""
        self.live: list[Ident] = []
        """The items on offer now, in order."""
        self.parts: dict[Ident, tuple[Widget, ...]] = {}
        """Each composed item's widgets: its key, or its group and the group's label."""
        self.language = ""
        """The language the items were composed in."""
        self.widths: dict[Ident, int] = {}
        """Each item's width, as last laid out (cells, its margins included)."""
        self.gave_way: frozenset[Ident] = frozenset()
        """Items on offer hidden because the footer is too narrow for them all."""

    @staticmethod
    def showing(screen: Screen[object]) -> Hashable:
        """Everything the footer's keys are made of: each shown key's binding and state, the language."""
        keys = tuple((key, b.binding, b.enabled, b.tooltip) for key, b in screen.active_bindings.items()
                     if b.binding.show)
        return keys, current(), leaves_out(screen)

    def keys_shown(self) -> list[FooterKey]:
        """The keys on show, left to right (a key kept for later, or giving way, is hidden)."""
        live = set(self.live) - self.gave_way
        keys: list[FooterKey] = []
        for ident in self.order:
            for widget in self.parts.get(ident, ()) if ident in live else ():
                if isinstance(widget, FooterKey):
                    keys.append(widget)
                elif isinstance(widget, KeyGroup):
                    keys += widget.query_children(FooterKey)
        return keys

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        shown = self.showing(screen)
        if shown == self.shown and self._bindings_ready:
            return
        items = offered(screen)
        self.items.update((item.ident, item) for item in items)
        self.live = [item.ident for item in items]
        if self._bindings_ready and self.language == current() and self._in_place():
            self.shown = shown
            self.call_after_refresh(self._fit)
            return
        self.order = merged(self.order, self.live) if self.language == current() else list(self.live)
        if self.language != current():
            self.widths = {}  # other words, other widths
        if screen.app.app_focus:  # else composed when the app has the focus again (as Textual's)
            self.shown = shown
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit)  # once the new keys are laid out

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)

    def _screen_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Measure the items as laid out; hide whole those that do not fit (see the module's note).

        Only on show: a screen under another (the lobby under a dialog) is not laid out again until
        it is on show, and its keys' places as last laid out are not where they are now; it is
        measured when it is on show again. A key shown or hidden here moves the others: they are
        measured again once laid out."""
        if not self.is_attached or self.screen is not self.app.screen:
            return
        self._measure()
        gave_way = self._giving_way()
        if gave_way != self.gave_way:
            self.gave_way = gave_way
            self._show_live()
            self.call_after_refresh(self._fit)

    def _measure(self) -> None:
        """Each shown item's width as laid out: from its first widget's left edge to its last one's
        right edge, margins included (the room it takes from the next one). An item's own widgets
        only: where the next one sits may be where it sat before a key between them came or went."""
        for ident in self.order:
            widgets = [w for w in self.parts.get(ident, ()) if w.display]
            if not widgets or not all(w.region.width for w in widgets):
                continue
            start = widgets[0].region.x - widgets[0].styles.margin.left
            self.widths[ident] = widgets[-1].region.right + widgets[-1].styles.margin.right - start

    def _giving_way(self) -> frozenset[Ident]:
        """The items on offer to hide so that the rest fit: those the screen lets go first, then
        from the right (an item never laid out counts as fitting until it is measured)."""
        room = self.size.width
        total = sum(self.widths.get(ident, 0) for ident in self.live)
        if total <= room:
            return frozenset()
        first = gives_way(self.screen)
        ranked = [ident for action in first for ident in self.live  # an action named without its arguments
                  if any(b.action.partition("(")[0] == action for b, _e, _t in self.items[ident].keys)]
        ranked += [ident for ident in reversed(self.live) if ident not in ranked]
        hidden: set[Ident] = set()
        for ident in ranked:
            if total <= room:
                break
            if ident in self.widths:
                total -= self.widths[ident]
                hidden.add(ident)
        return frozenset(hidden)

    def _show_live(self) -> None:
        """The items on offer shown, those giving way and the rest hidden."""
        live = set(self.live) - self.gave_way
        for ident, widgets in self.parts.items():
            for widget in widgets:
                if widget.display != (ident in live):
                    widget.display = ident in live

    def _in_place(self) -> bool:
        """The items on offer shown, the rest hidden, each key's state brought up to date, if
        every item on offer is composed already and in the order it is offered in (else False:
        nothing changed)."""
        if any(ident not in self.parts for ident in self.live):
            return False
        at = [self.order.index(ident) for ident in self.live]
        if at != sorted(at):
            return False
        live = set(self.live) - self.gave_way
        for ident, widgets in self.parts.items():
            on = ident in live
            for widget in widgets:
                if widget.display != on:
                    widget.display = on
            if on:
                self._state(self.items[ident], widgets)
        return True

    @staticmethod
    def _state(item: Item, widgets: tuple[Widget, ...]) -> None:
        """Each key's enabled state and tooltip as the item has them now."""
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        for group in (w for w in widgets if isinstance(w, KeyGroup)):
            keys += group.query_children(FooterKey)
        for key, (binding, enabled, tooltip) in zip(keys, item.keys, strict=True):
            if key._disabled != (not enabled):
                key._disabled = not enabled
                key.set_class(not enabled, "-disabled")
            tip = _(tooltip) if tooltip else (_(binding.description) if item.group is not None else "")
            if (key.tooltip or "") != tip:
                key.tooltip = tip or None

    def compose(self) -> Iterator[Widget]:
        self._forget_removed_keys()
        if not self._bindings_ready:
            return
        self.language = current()
        self.parts = {}
        live = set(self.live) - self.gave_way
        for ident in self.order:
            widgets = tuple(self._widgets(self.items[ident]))
            for widget in widgets:
                widget.display = ident in live
            self.parts[ident] = widgets
            yield from widgets

    def _widgets(self, item: Item) -> Iterator[Widget]:
        """An item's widgets, as Textual's footer makes them, in the reader's language."""
        if item.group is not None:
            yield KeyGroup(*(self._key(binding, "", enabled, _(tooltip or binding.description), "-grouped")
                             for binding, enabled, tooltip in item.keys),
                           classes="-compact" if item.group.compact else "")
            yield FooterLabel(_(item.group.description))
            return
        for binding, enabled, tooltip in item.keys:
            yield self._key(binding, _(binding.description), enabled, _(tooltip) if tooltip else "")

    def _key(self, binding: Binding, description: str, enabled: bool, tooltip: str, classes: str = "") -> FooterKey:
        """A key's widget, as Textual's footer makes it, born with the footer's ``compact`` and its class.
        Textual's key starts compact and takes the footer's value once mounted, and each change of its
        class styled it again: twice more for every key of every footer composed, a third of the client's
        styling in a hand played by keys (``bench/marks.md``). The same key, styled once."""
        key = FooterKey(binding.key, self.app.get_key_display(binding), description, binding.action,
                        disabled=not enabled, tooltip=tooltip, classes=classes)
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact", update=False)
        return key.data_bind(compact=Footer.compact)

    def _forget_removed_keys(self) -> None:
        """Drop the keys a recompose removed from the footer's watchers.

        Each key is bound to the footer's ``compact`` (``data_bind``), and Textual keeps every
        bound key in the footer's watchers until ``compact`` next changes, which it never does:
        every recompose left the removed keys alive with their styles, caches and message queues,
        for as long as the footer lived. Called as the footer composes again, after the old keys went.
        """
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for bound in watchers.values():
            bound[:] = [(node, callback) for node, callback in bound if node is self or node.is_attached]


def offered(screen: Screen[object]) -> list[Item]:
    """The footer's items for a screen's keys now, as Textual's footer groups them (a key per
    action, the keys of a group with several together), less those the screen leaves out."""
    left_out = leaves_out(screen)
    by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
    for _node, binding, enabled, tooltip in screen.active_bindings.values():
        if binding.show and binding.action not in left_out:
            by_action[binding.action].append((binding, enabled, tooltip))
    items: list[Item] = []
    for group, runs in groupby(by_action.values(), lambda keys: keys[0][0].group):
        firsts = tuple(keys[0] for keys in runs)
        if group is not None and len(firsts) > 1:
            items.append(Item(firsts, group))
        else:
            items += [Item((key,)) for key in firsts]
    return items


def merged(before: list[Ident], now: list[Ident]) -> list[Ident]:
    """The items on offer now, in their order, with each earlier one not on offer kept (hidden)
    right after the item it followed before."""
    out = list(now)
    for i, ident in enumerate(before):
        if ident in out:
            continue
        after = next((out.index(prev) + 1 for prev in reversed(before[:i]) if prev in out), 0)
        out.insert(after, ident)
    return out


def gives_way(screen: Screen[object]) -> tuple[str, ...]:
    """The actions whose keys a screen hides first when its footer is too narrow for them all
    (``footer_gives_way``; the app's Quit if it says none)."""
    first: object = getattr(screen, "footer_gives_way", ("quit",))
    return tuple(first) if isinstance(first, tuple) else ("quit",)


def leaves_out(screen: Screen[object]) -> frozenset[str]:
    """The actions a screen keeps out of its footer for now (``footer_leaves_out``; none if it says none):
    their keys still work, the room goes to a key that matters more there."""
    left: object = getattr(screen, "footer_leaves_out", frozenset())
    return left if isinstance(left, frozenset) else frozenset()
