"""Invites (docs/players.md, "Friends at the table in seconds"): a table's code, its links and its QR code.

Attacked as an outsider would: a code typed at another server, a code mistyped, a code that is no
code, a code of a table that has closed, the plain code of a table with a password (it opens no
lock), the owner's code asked without the owner's token, and an invite that must never carry a seat
token or the password. The QR code is decoded from the screen as drawn, by a decoder the tests alone
use (zxing-cpp), and the links are followed by a real terminal client and a real browser.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import aiohttp
import grpc
import pytest
import zxingcpp

from cardtui.client.app import CardApp
from cardtui.client.invite_links import Link, page_link, read_link
from cardtui.client.screens.invite import CodeScreen, InviteScreen, QrCode, qr_lines
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import drawn_lines, notices
from cardtui.server.app import Running, start
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc
from tests.client.test_table_flow import SMALL
from tests.client.waiting import at_table, in_lobby, settled, until
from tests.conftest import Player, bots_wait, create, started
from tests.waiting import eventually_async

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


async def lobby(server: Running) -> tuple[grpc.aio.Channel, lobby_pb2_grpc.LobbyStub]:
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    return channel, lobby_pb2_grpc.LobbyStub(channel)


async def refused(call: object, code: grpc.StatusCode) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await call  # type: ignore[misc]
    assert err.value.code() == code, err.value.details()
    return err.value.details() or ""


def decode(lines: list[str]) -> str:
    """What a QR code drawn with half blocks says: each cell two modules, upper and lower, scaled up
    into a grey image the decoder reads."""
    scale = 4
    width = max(len(line) for line in lines)
    rows: list[list[int]] = []
    for line in lines:
        line = line.ljust(width)
        upper = [0 if ch in "▀█" else 255 for ch in line]
        lower = [0 if ch in "▄█" else 255 for ch in line]
        for half in (upper, lower):
            pixels = [v for v in half for _ in range(scale)]
            rows += [pixels] * scale
    quiet = [255] * (len(rows[0]) + 8 * scale)
    image = [quiet] * 4 * scale + [[255] * 4 * scale + r + [255] * 4 * scale for r in rows] + [quiet] * 4 * scale
    data = bytes(v for row in image for v in row)
    view = memoryview(data).cast("B", (len(image), len(image[0])))
    found = zxingcpp.read_barcodes(view)
    assert found, "no QR code could be read"
    return str(found[0].text)


def test_the_qr_code_decodes_to_the_link() -> None:
    link = page_link("http://192.168.1.20:8080/", "3fa2c1d0")
    assert decode(qr_lines(link)) == link == "http://192.168.1.20:8080/table/3fa2c1d0"
    assert decode(qr_lines(link + "?code=K7M2QX9P")) == link + "?code=K7M2QX9P"


def test_links_read_as_invites() -> None:
    assert read_link("cardtui://192.168.1.20:50051/table/3fa2c1d0") == Link("192.168.1.20:50051", "3fa2c1d0")
    assert read_link("cardtui://host:7/table/ab?code=K7M2-QX9P") == Link("host:7", "ab", "K7M2-QX9P")
    assert read_link("http://192.168.1.20:8080/table/ab") == Link(None, "ab")
    assert read_link(" k7m2-qx9p ") == Link(code="k7m2-qx9p")
    with pytest.raises(ValueError, match="not an invite"):
        read_link("cardtui://host:7/tables")


async def test_codes_open_their_table_and_nothing_else(server: Running, tmp_path: Path) -> None:
    open_table = await create(server, game="cacho", seats=3, bots=1, bot_delay_ms=60_000, name="aberta")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        stub = lobby_pb2_grpc.LobbyStub(ch)
        locked = await stub.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", seats=3, bots=1, bot_delay_ms=60_000, name="trancada", password="segredo"))
        invite = await stub.Invite(lobby_pb2.InviteRequest(table_id=open_table))
        assert len(invite.code) == 8 and invite.table.id == open_table and not invite.opens_lock
        assert invite.servers == [f"127.0.0.1:{server.port}"] and invite.local
        typed = f" {invite.code[:4].lower()}-{invite.code[4:]}"
        opened = await stub.OpenInvite(lobby_pb2.OpenInviteRequest(code=typed))
        assert opened.table.id == open_table, "case and dashes do not matter"
        # The plain code of a locked table opens the table, not its lock.
        plain = await stub.Invite(lobby_pb2.InviteRequest(table_id=locked.table.id))
        assert not plain.opens_lock
        said = await refused(stub.JoinTable(lobby_pb2.JoinTableRequest(table_id=locked.table.id, name="bia",
                                                                       invite=plain.code)),
                             grpc.StatusCode.PERMISSION_DENIED)
        assert "password" in said
        # The code that opens it is its owner's to give.
        await refused(stub.Invite(lobby_pb2.InviteRequest(table_id=locked.table.id, with_password=True)),
                      grpc.StatusCode.PERMISSION_DENIED)
        await refused(stub.Invite(lobby_pb2.InviteRequest(table_id=locked.table.id, with_password=True,
                                                          owner_token="not-the-owner")),
                      grpc.StatusCode.PERMISSION_DENIED)
        key = await stub.Invite(lobby_pb2.InviteRequest(table_id=locked.table.id, with_password=True,
                                                        owner_token=locked.owner_token))
        assert key.opens_lock and key.code != plain.code
        wire = key.SerializeToString()
        assert b"segredo" not in wire and locked.owner_token.encode() not in wire, "never the password nor a token"
        joined = await stub.JoinTable(lobby_pb2.JoinTableRequest(table_id=locked.table.id, name="bia",
                                                                 invite=key.code))
        assert joined.seat >= 0
        # A code that is no code, a code mistyped, one of another server, one of a closed table.
        said = await refused(stub.OpenInvite(lobby_pb2.OpenInviteRequest(code="hello")),
                             grpc.StatusCode.INVALID_ARGUMENT)
        assert "8 letters and digits" in said
        other = await start("127.0.0.1", 0, tmp_path / "other.db")
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{other.port}") as och:
                there = lobby_pb2_grpc.LobbyStub(och)
                theirs = await create(other, game="cacho", seats=2, bots=1, bot_delay_ms=60_000)
                foreign = (await there.Invite(lobby_pb2.InviteRequest(table_id=theirs))).code
        finally:
            await other.stop(grace=0.1)
        said = await refused(stub.OpenInvite(lobby_pb2.OpenInviteRequest(code=foreign)), grpc.StatusCode.NOT_FOUND)
        if server.room.invites.ours(foreign):
            # Its last two symbols are a check of the server's own: one foreign code in 1,024 passes it, and is then
            # what a mistyped code of this server is.
            assert "closed, or the code is mistyped" in said, said
        else:
            assert "not an invite of this server" in said and "connect to the server that gave it" in said
        server.room.finish(server.room.tables[open_table], "closed")
        said = await refused(stub.OpenInvite(lobby_pb2.OpenInviteRequest(code=invite.code)), grpc.StatusCode.NOT_FOUND)
        assert "has closed" in said


async def test_the_invite_on_screen_decodes_to_its_link_and_a_code_opens_the_table(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=1, bot_delay_ms=60_000, name="amigos")
    server.room.invites.where = server.room.invites.where.__class__(
        (f"127.0.0.1:{server.port}",), ("http://127.0.0.1:8080/",), True)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby_screen = await in_lobby(pilot)
        await pilot.press("g")  # not a table of ana's: the room's own invite
        await until(pilot, lambda: isinstance(app.screen, InviteScreen) and app.screen.invite is not None)
        assert "this room" in str(app.screen.query_one("#invite-title").render())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby_screen)
        await app.push_screen(InviteScreen(app.conn, table_id))  # type: ignore[arg-type]
        screen = app.screen
        assert isinstance(screen, InviteScreen)
        await until(pilot, lambda: screen.invite is not None and "table/" in screen.query_one(QrCode).data)
        await settled(pilot)  # drawn as it says
        qr = screen.query_one(QrCode)
        region = qr.region
        lines = [line.text[region.x:region.x + region.width] for line in drawn_lines(screen)[region.y:region.bottom]]
        link = f"http://127.0.0.1:8080/table/{table_id}"
        assert decode(lines) == link, "the QR code as drawn says the page's link to the table"
        text = str(screen.query_one("#invite-text").render())
        assert link in text and f"cardtui connect 'cardtui://127.0.0.1:{server.port}/table/{table_id}'" in text
        code = screen.invite.code  # type: ignore[union-attr]
        assert f"{code[:4]}-{code[4:]}" in text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby_screen)
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, CodeScreen))
        await pilot.press(*"zzzz-zzzz", "enter")  # a code this server did not make: said, and asked again
        await until(pilot, lambda: isinstance(app.screen, CodeScreen) and bool(app.screen.problem))
        assert "not an invite of this server" in app.screen.problem  # type: ignore[attr-defined]
        assert not [n for n in notices(app) if "not an invite" in str(n.message)], "said once, in the dialog"
        await pilot.press(*f"{code[:4].lower()} {code[4:]}", "enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen.model.summary.id == table_id and app.screen.seat is not None  # type: ignore[attr-defined]


async def test_cardtui_connect_with_an_invite_sits_at_its_table(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=1, bot_delay_ms=60_000, name="convite")
    link = read_link(f"cardtui://127.0.0.1:{server.port}/table/{table_id}")
    app = CardApp(link.server or "", "bia", join=link)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen.model.summary.id == table_id  # type: ignore[attr-defined]
    elsewhere = read_link(f"cardtui://10.9.8.7:{server.port}/table/{table_id}")
    app = CardApp(f"127.0.0.1:{server.port}", "caio", join=elsewhere)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: any("10.9.8.7" in str(n.message) for n in notices(app)), "the invite refused")
        await settled(pilot)
        assert isinstance(app.screen, LobbyScreen), "another server's invite opens nothing here"
        said = next(str(n.message) for n in notices(app) if "10.9.8.7" in str(n.message))
        assert "this client is connected to" in said and f"cardtui connect 'cardtui://10.9.8.7:{server.port}" in said


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (make test installs Debian's chromium)")
async def test_the_link_opens_the_table_in_a_real_browser_whose_tab_rings_at_the_guests_turn(
        server: Running, tmp_path: Path) -> None:
    """The page's link sits the guest at its table once named; then, the bell turned on (ctrl+g), the
    tab's title says the turn's countdown and the page makes one sound as the guest's turn begins;
    the browser keeps the choice for its next session."""
    from tools.web_shots import STARTING, Device, Page, launch, open_page

    assert CHROMIUM is not None
    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600,
                            name="navegador")
    guests = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=4, total=8))
    await guests.start(open_socket("127.0.0.1", 0))
    device = Device("laptop", 1366, 768, 1.0, False, "Dora")
    browser, devtools = await launch(CHROMIUM, device, tmp_path / "profile")

    async def value(page: Page, expression: str) -> object:
        return (await page.call("Runtime.evaluate", expression=expression, returnByValue=True))["result"].get("value")

    async def page_until(page: Page, expression: str, what: str) -> None:
        """Until the page's ``expression`` holds (looked at as the page goes on)."""
        await eventually_async(lambda: value(page, expression), what)

    try:
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, devtools, device)
            await page.call("Page.bringToFront")
            await page.call("Page.navigate", url=page_link(f"http://127.0.0.1:{guests.port}/", table_id))
            await page.wait_for("Your name at the tables", timeout=STARTING)
            await page.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            await page.call("Input.insertText", text=device.guest)
            await page.key("Enter", "Enter", 13, "\r")
            await page.wait_for(lambda t: "seat " in t.splitlines()[0] and "navegador" in t.splitlines()[0])
            table = await started(server, table_id)
            assert [s.name for s in table.seating.seats if s.token is not None] == ["Dora"]
            seat = next(s.index for s in table.seating.seats if s.token is not None)
            assert await value(page, "window.cardtuiBells || 0") == 0, "off by default"
            # The table stands at the bot's turn (its moves wait a minute), Dora's first turn, if it was
            # hers, played for her (as her own move), and the page shows it: the bell is turned on
            # between two turns of hers, never during one her page has yet to hear of.
            match = table.match
            assert match is not None
            if seat in match.to_act():
                table.act(seat, match.legal_actions(seat)[0])
            bot = next(s for s in table.seating.seats if s.index != seat)
            assert match.to_act() == (bot.index,), "the bot's turn, standing"
            await page.wait_for(f"{bot.name} to act", timeout=60)
            await page.key("g", "KeyG", 71, ctrl=True)
            await page.wait_for("Bell on")
            await page_until(page, "document.cookie.includes('cardtui_bell=on')", "the browser keeping the bell")
            assert await value(page, "window.cardtuiBells || 0") == 0, "no turn of hers began"
            # The table goes on: the bot plays at once, and Dora's next turn is the first since the
            # bell was turned on.
            bots_wait(table, 0.05)
            await page_until(page, "(window.cardtuiBells || 0) > 0", "the bell at Dora's turn")
            assert table.match is not None and seat in table.match.to_act(), "it rang at her turn"
            await page_until(page, "document.title.includes('your turn')", "the countdown in the tab's title")
            title = str(await value(page, "document.title"))
            assert title.split(" s · ")[0].isdigit() and title.endswith("cardtui"), title
            assert await value(page, "window.cardtuiBells") == 1, "once for the turn"
            assert await value(page, "window.cardtuiSounds || 0") == 1, "and a sound"
            # The next session this browser opens starts with the bell on: ctrl+g turns it off.
            await page.call("Page.navigate", url=f"http://127.0.0.1:{guests.port}/")
            await page.wait_for("Your name at the tables", timeout=STARTING)
            await page.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            await page.call("Input.insertText", text="Eva")
            await page.key("Enter", "Enter", 13, "\r")
            await page.wait_for(lambda t: "People" in t and "Eva @" in t)
            await page.key("g", "KeyG", 71, ctrl=True)
            await page.wait_for("Bell off")
            await page_until(page, "!document.cookie.includes('cardtui_bell')", "the browser forgetting the bell")
            await page.ws.close()
    finally:
        browser.terminate()
        browser.wait(10)
        await guests.stop()


async def test_the_table_under_an_invite_shows_the_match_begun_while_it_was_open(server: Running) -> None:
    """The host shows the invite while waiting; a friend sits and the match begins; the invite
    closed, the board shows the match, not the seats it was waiting for."""
    table_id = await create(server, game="cacho", seats=2, bots=0, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot)
        await settled(pilot)
        assert "Waiting for players" in "\n".join(line.text for line in drawn_lines(screen))
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, InviteScreen) and app.screen.invite is not None)
        bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
        await until(pilot, lambda: screen.model.view is not None and screen.model.view.WhichOneof("game") == "cacho")
        await settled(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        await settled(pilot)
        drawn = "\n".join(line.text for line in drawn_lines(screen))
        assert "Waiting for players" not in drawn and "bia" in drawn and "Pot" in drawn, drawn
        await bia.close()


def test_cardtui_connect_reads_an_invite(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``cardtui connect 'cardtui://HOST:PORT/table/ID?code=CODE'`` opens the client on that server,
    bound for that table with that code; the page's link, or one that is no invite, is refused with
    a sentence before anything is dialled."""
    from cardtui import cli

    opened: list[tuple[str, Link | None, bool]] = []
    monkeypatch.setattr(CardApp, "run", lambda self: opened.append((self.target, self.join, self.bell_on)))
    monkeypatch.setenv("CARDTUI_PASSWORD", "")
    assert cli.main(["connect", "cardtui://192.168.1.20:50051/table/3fa2c1d0?code=K7M2-QX9P", "--guest",
                     "--name", "bia", "--bell"]) == 0
    assert opened == [("192.168.1.20:50051", Link("192.168.1.20:50051", "3fa2c1d0", "K7M2-QX9P"), True)]
    for link, words in (("http://192.168.1.20:8080/table/3fa2c1d0", "is not a cardtui invite"),
                        ("cardtui://192.168.1.20:50051/tables", "is not an invite"),
                        ("cardtui://192.168.1.20:notaport/table/ab", "no port")):
        assert cli.main(["connect", link, "--guest", "--name", "bia"]) == 2
        assert words in capsys.readouterr().err, link
    assert len(opened) == 1


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_an_invite_to_a_full_table_says_so_in_the_lobby_and_offers_to_watch(server: Running, lang: str) -> None:
    """``cardtui connect`` with an invite to a table whose every seat has a person: the lobby says why the player
    is there and not at the table, whole at 80x24, the cursor on that table, and s watches it; a private
    table says that it takes no spectators."""
    from textual.widgets import DataTable

    from cardtui.i18n import _, speaking

    open_id = await create(server, game="cacho", seats=2, bots=0, name="noite")
    closed_id = await create(server, game="cacho", seats=2, bots=0, name="fechada", private=True)
    for table_id in (open_id, closed_id):
        for name in ("ana", "bia"):
            await Player(f"127.0.0.1:{server.port}").join(table_id, name)
    with speaking(lang):
        for table_id, watch in ((closed_id, False), (open_id, True)):
            link = read_link(f"cardtui://127.0.0.1:{server.port}/table/{table_id}")
            app = CardApp(link.server or "", "cris", join=link)
            async with app.run_test(size=SMALL) as pilot:
                lobby = await in_lobby(pilot)
                await until(pilot, lambda lobby=lobby: lobby.query_one("#why-line").display, "the lobby to say why")
                await settled(pilot)
                said = (_("Table {name} is full: all {seats} seats are taken. Press s to watch it.") if watch else
                        _("Table {name} is full: all {seats} seats are taken, and it takes no spectators.")).format(
                    name="noite" if watch else "fechada", seats=2)
                assert lang == "en" or not said.startswith("Table "), "said in the reader's language"
                screen = "\n".join(line.text for line in drawn_lines(lobby))
                assert " ".join(said.split()) in " ".join(screen.split()), f"whole on screen:\n{screen}"
                assert not notices(app), "said once, in the lobby, not in a toast as well"
                assert lobby.rows[lobby.query_one("#tables", DataTable).cursor_row] == table_id, "the cursor on it"
                if watch:
                    await pilot.press("s")
                    await until(pilot, lambda app=app: isinstance(app.screen, TableScreen))
                    assert app.screen.spectating  # type: ignore[attr-defined]
                    assert app.screen.model.summary.id == table_id  # type: ignore[attr-defined]
