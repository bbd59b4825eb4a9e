"""The footer's keys: a screen that refreshes its bindings over and over (a table does, several
times a message) does not pile up keys, and keys that come and go are shown and hidden in place."""

from __future__ import annotations

import gc
from collections.abc import Iterator

from textual.app import App
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from cardtui.client.footer import Footer
from cardtui.client.textual_internals import FooterKey, drawn_lines
from tests.client.waiting import settled


class Keys(App[None]):
    BINDINGS = [Binding("a", "apple", "Apple"), Binding("b", "bee", "Bee")]

    def compose(self) -> Iterator[Widget]:
        yield Footer()

    def action_apple(self) -> None:
        """A key to show in the footer."""

    def action_bee(self) -> None:
        """Another."""


async def test_the_footer_keeps_no_key_a_refresh_replaced() -> None:
    app = Keys()
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.query_one(Footer)
        await settled(pilot)
        for _ in range(10):
            app.screen.refresh_bindings()  # the footer composes its keys again
            await settled(pilot)
        shown = list(footer.query(FooterKey).results(FooterKey))
        assert [k.description for k in shown] == ["Apple", "Bee"]
        bound = [node for node, _ in getattr(footer, "__watchers", {}).get("compact", [])]
        assert sorted(map(id, bound)) == sorted(map(id, shown)), f"{len(bound)} keys bound, {len(shown)} shown"
        gc.collect()
        alive = [o for o in gc.get_objects() if isinstance(o, FooterKey)]
        assert len(alive) == len(shown), f"{len(alive)} footer keys alive, {len(shown)} shown"


class Coming(App[None]):
    """A key that comes and goes (as More/less and Go on do at a table), a pair of grouped keys
    that come and go together, and one that is greyed out at times."""

    BINDINGS = [
        Binding("a", "apple", "Apple"),
        Binding("g", "go", "Go on"),
        Binding("plus", "step(1)", "More", group=Binding.Group("More/less", compact=True)),
        Binding("minus", "step(-1)", "Less", group=Binding.Group("More/less", compact=True)),
        Binding("b", "bee", "Bee"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.offer = False
        self.greyed = False

    def compose(self) -> Iterator[Widget]:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("go", "step"):
            return self.offer
        if action == "bee":
            return None if self.greyed else True
        return True

    def action_apple(self) -> None:
        """Always on offer."""

    def action_go(self) -> None:
        """On offer at times."""

    def action_step(self, step: int) -> None:
        """On offer at times, with its pair."""

    def action_bee(self) -> None:
        """Greyed out at times."""


async def test_keys_that_come_and_go_are_shown_and_hidden_in_place() -> None:
    app = Coming()
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.query_one(Footer)

        async def change(offer: bool, greyed: bool = False) -> list[str]:
            app.offer, app.greyed = offer, greyed
            app.screen.refresh_bindings()
            await settled(pilot)
            return [k.key for k in footer.keys_shown()]

        assert await change(False) == ["a", "b"]
        assert await change(True) == ["a", "g", "plus", "minus", "b"]  # composed once more: new keys
        composed = set(map(id, footer.query(FooterKey)))
        for offer in (False, True, False):
            assert await change(offer) == (["a", "g", "plus", "minus", "b"] if offer else ["a", "b"])
            assert set(map(id, footer.query(FooterKey))) == composed, "no key mounted again"
        bottom = "".join(s.text for s in drawn_lines(app.screen)[-1])
        assert "Apple" in bottom and "Bee" in bottom and "Go on" not in bottom and "More/less" not in bottom
        await change(True)
        bottom = "".join(s.text for s in drawn_lines(app.screen)[-1])
        assert bottom.index("Apple") < bottom.index("Go on") < bottom.index("More/less") < bottom.index("Bee")
        await change(True, greyed=True)
        bee = next(k for k in footer.keys_shown() if k.key == "b")
        assert bee.has_class("-disabled") and set(map(id, footer.query(FooterKey))) == composed
        await change(True, greyed=False)
        assert not bee.has_class("-disabled")


class Tight(App[None]):
    """A lobby's footer, nearly full: on a table of yours Close (wider) takes Quit's place; the keys
    then fill 79 of 80 columns, and 78 elsewhere."""

    def on_mount(self) -> None:
        self.push_screen(TightLobby())


class TightLobby(Screen[None]):
    BINDINGS = [Binding("a", "other('a')", "Aaaaaaaaaaaa"), Binding("b", "other('b')", "Bbbbbbbbbbbbb"),
                Binding("d", "other('d')", "Dddddddddddd"), Binding("e", "other('e')", "Eeeeeeeeee"),
                Binding("c", "close", "Fechar"), Binding("ctrl+q", "quit", "Sair", priority=True),
                Binding("f", "other('f')", "Ffffffff")]

    def __init__(self) -> None:
        super().__init__()
        self.mine = False

    def compose(self) -> Iterator[Widget]:
        yield Footer(compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.mine if action == "close" else True

    @property
    def footer_leaves_out(self) -> frozenset[str]:
        return frozenset({"quit"}) if self.mine else frozenset()

    def action_other(self, key: str) -> None:
        """A key of the lobby's."""

    def action_close(self) -> None:
        """Close the table."""

    def action_quit(self) -> None:
        self.app.exit()


class Asking(ModalScreen[None]):
    def compose(self) -> Iterator[Widget]:
        yield Static("Close it?")


async def test_keys_that_fit_show_whatever_the_footer_measured_before_its_keys_were_laid_out() -> None:
    """A key that comes in place is measured before it is laid out, and one that went still has
    its room on the screen: measured then, the keys looked wider than they are, and the last
    stayed hidden though all fit. Under a dialog, the lobby is not laid out at all: what changed
    there is measured when the dialog goes."""
    app = Tight()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        lobby = app.screen
        assert isinstance(lobby, TightLobby)
        footer = lobby.query_one(Footer)

        async def mine(yours: bool) -> list[str]:
            lobby.mine = yours
            lobby.refresh_bindings()
            await settled(pilot)
            return [k.key for k in footer.keys_shown()]

        elsewhere, yours = ["a", "b", "d", "e", "ctrl+q", "f"], ["a", "b", "d", "e", "c", "f"]
        for _ in range(2):
            assert await mine(False) == elsewhere
            assert await mine(True) == yours, "all fit: Close in Quit's place"
        app.push_screen(Asking())
        await settled(pilot)
        await mine(False)  # the table closed, under the dialog: not laid out there, not measured
        app.pop_screen()
        await settled(pilot)
        assert [k.key for k in footer.keys_shown()] == elsewhere, "the table closed: Quit is back"
        assert all(k.region.right <= 80 for k in footer.keys_shown())
