"""Guests in a browser: the same Textual client, served over a websocket by textual-serve.

Each browser session runs its own ``cardtui connect SERVER --ask-name`` process, which asks
the guest's name and then talks to the table server over gRPC like any terminal client (its
own connection, so the same per-connection rate limits apply). The processes are forked from
a warm parent that has imported the client once (``cardtui.guest_parent``, forking
through ``cardtui.server.web.guests``), so a guest
costs a fraction of a fresh interpreter and sees its name prompt at once. The page and its
assets (xterm.js, its stylesheet, the Roboto Mono font) come from the installed textual-serve
package: nothing is fetched from the internet, so the page works on a LAN without one.

A guest cannot take the host down: every size it sends is clamped (its process draws a screen
of that size), a message that is not one of the page's is dropped, the websocket must come
from the page's own origin (or one the host allows), every request must name the page by one of
the names it is served on (no DNS rebinding), and its process is ended in every path
out of the session; a process that outlives its guest anyway is killed by a sweep, and counts
against the limits until it is gone.

Limits: a few sessions per browser address at once and a cap on all of them, each session
being a process on the host. With a certificate and key the page is served over HTTPS (and
the websocket over WSS).

The page also hands out the client for a friend's own terminal (``cardtui.installing`` writes the lines,
``server.wheels`` makes the wheels): ``/install`` says how, in the browser's language, with this page's own
address in every line; ``/cardtui-VERSION-py3-none-any.whl`` is the client's wheel, the package this page
runs; ``/simple/`` is a simple index (PEP 503) of every wheel the client needs as this host installed
them, for a friend with no internet on the same platform.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import html
import ipaddress
import json
import logging
import math
import os
import signal
import socket
import ssl
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler
from packaging.utils import canonicalize_name
from textual_serve.server import Server

from cardtui import __version__, i18n
from cardtui.i18n import _, ngettext
from cardtui.installing import INDEX, INSTALL, offer, wheel_name
from cardtui.server.base.clock import REAL, Clock
from cardtui.server.web.guests import QUIT_SECONDS, STDERR_KEPT, GuestProcess, Launcher, WarmLauncher, client_args
from cardtui.server.web.wheels import NoWheel, Wheelhouse, offline_system, system

log = logging.getLogger("cardtui.web")

PAGE = Path(__file__).resolve().parent / "page"
MAX_MESSAGE = 64 * 1024
"""The largest websocket message a browser may send (keys, mouse, resizes: all small)."""
COLUMNS = (20, 320)
"""The narrowest and widest terminal a guest may ask for. Its process draws a screen of that size:
320 columns is a 4K screen at the page's largest font, and a bound on what a guest may cost."""
ROWS = (10, 120)
"""The shortest and tallest terminal a guest may ask for (see ``COLUMNS``)."""
HOSTS_SECONDS = 10.0
"""This machine's addresses are looked up again (an address can change) at most this often, when a
request names an address not known to be the machine's."""
SILENCE_SECONDS = 15.0
"""``WebLimits.silence``'s default."""
READ_TURNS = 3
"""Turns of the loop a session's keeper gives the browser's waiting bytes to be read (the socket's reader, the
websocket's parser, the session's own reader) before judging the browser silent."""
REAP_SECONDS = 2.0
"""How often the sweep looks for a session process whose guest has gone."""
LOCAL_HINT = "this machine only; --host 0.0.0.0 opens it to the LAN"


@dataclass(frozen=True, slots=True)
class WebLimits:
    per_address: int = 4
    """Browser sessions one address may have open at once."""
    total: int = 32
    """Browser sessions open at once, all addresses together (each is a process on the host)."""
    silence: float = SILENCE_SECONDS
    """Seconds a browser may say nothing before it is pinged; it has as long again to answer, or its session
    ends (a tab gone without a goodbye: a phone's network lost, a laptop shut), freeing its place."""


@dataclass(frozen=True, slots=True)
class WebOptions:
    """``serve --web``: where the page listens (on the server's host) and its limits."""

    port: int = 8080
    limits: WebLimits = WebLimits()
    tls: tuple[Path, Path] | None = None
    """The server's certificate and key files: the page over HTTPS, and sessions trust the certificate."""
    origins: tuple[str, ...] = ()
    """Web origins besides the page's own whose pages may open sessions (``*``: any)."""


def session_command(target: str, tls_ca: Path | None = None, lang: str = "en") -> list[str]:
    """The ``cardtui`` arguments of one browser session: the client, asking the guest's name."""
    return client_args(target, lang, tls_ca)


def terminal_size(width: object, height: object) -> tuple[int, int] | None:
    """The terminal size a browser asked for, within ``COLUMNS`` and ``ROWS``; None if what it sent
    is not a pair of numbers."""
    w, h = _number(width), _number(height)
    if w is None or h is None:
        return None
    return int(max(COLUMNS[0], min(COLUMNS[1], w))), int(max(ROWS[0], min(ROWS[1], h)))


def _number(value: object) -> float | None:
    """A finite number from JSON or a query string, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


BELL_COOKIE = "cardtui_bell"
"""The page's cookie that keeps a guest's bell on (set by the page when the guest turns it on)."""
TOUCH_COOKIE = "cardtui_touch"
"""The page's cookie on a touch screen (its pointer coarse): the guest's table is played by taps, its words
name no keys."""


def invited(table: str, code: str) -> tuple[str, str]:
    """The table and code of an invite's link, as a guest's process may be given them: a table id is
    a few hex digits, a code letters, digits and dashes; anything else is dropped (the guest opens
    the lobby), so nothing a URL holds reaches a command line unread."""
    table = table if 0 < len(table) <= 32 and all(c in "0123456789abcdef" for c in table) else ""
    readable = 0 < len(code) <= 16 and all(c.isascii() and (c.isalnum() or c == "-") for c in code)
    code = code if table and readable else ""
    return table, code


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL or an ``Origin`` header, lower case, default ports left out;
    None if it has no host."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme)
    return f"{scheme}://{host}" + ("" if port is None or port == default else f":{port}")


def host_name(header: str) -> str | None:
    """The name in a ``Host`` header (``name[:port]``, ``[v6]:port``), lower case, brackets and an
    IPv6 zone left out; None if it holds none."""
    try:
        name = urlsplit(f"//{header.strip()}").hostname
    except ValueError:
        return None
    return name.split("%", 1)[0] if name else None


def this_machine() -> set[str]:
    """The names a browser on the LAN may reach this machine by: ``localhost``, its host name (and
    that name's ``.local``, which mDNS answers), and the address of each of its interfaces."""
    import ifaddr

    names = {"localhost"}
    host = socket.gethostname().strip().lower()
    if host:
        names |= {host, f"{host}.local"} if "." not in host else {host}
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = (ip.ip if isinstance(ip.ip, str) else ip.ip[0]).split("%", 1)[0]
            names.add(_address(address) or address.lower())
    return names


def _address(name: str) -> str | None:
    """``name`` as an IP address is written plainly (``0:0::1`` is ``::1``), or None if it is none."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return None


def browser_language(request: web.Request) -> str:
    """The language a browser asks for (``Accept-Language``, in its order), if one of ours; else
    the server's own."""
    for part in request.headers.get("Accept-Language", "").split(","):
        lang = i18n.normalize(part.split(";")[0].strip())
        if lang is not None:
            return lang
    return i18n.choose()


def local_target(listen_host: str, port: int) -> str:
    """Where a process on this machine dials a server listening on ``listen_host``."""
    host = listen_host.strip("[]")
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def web_urls(listen_host: str, port: int, tls: bool = False) -> tuple[list[str], bool]:
    """The page's URLs as a browser would type them, and whether they reach this machine only."""
    from cardtui.server.ops.announce import announced_addresses

    try:
        addresses = announced_addresses(listen_host, None)
    except OSError:
        addresses = []
    if not addresses:
        addresses = [listen_host.strip("[]") or "127.0.0.1"]
    scheme = "https" if tls else "http"
    urls = [f"{scheme}://{f'[{a}]' if ':' in a else a}:{port}/" for a in addresses]
    local = all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses)
    return urls, local


def install_line(page: str) -> str:
    """The start-up line that gives friends the client for their terminal: one line, and the page with the others.
    Where the page can serve every wheel the client needs, the line that needs only this host comes first (for a
    friend on this host's system: nothing from the internet), then the one for any system."""
    client = offer(page, __version__)
    system = offline_system()
    if system:
        return _("Friends' terminals get the client from this host alone ({system}): {offline} · any other system, "
                 "with PyPI for what it needs: {line} · every way: {page}").format(
            system=system, offline=client.offline(), line=client.pipx(), page=client.install_page)
    return _("Friends' terminals get the client in one line: {line} (uv, pip, no internet: {page})").format(
        line=client.pipx(), page=client.install_page)


def describe(listen_host: str, port: int, tls: bool = False) -> str:
    """The URL (or URLs) to tell guests; a loopback bind says it is for this machine only."""
    urls, local = web_urls(listen_host, port, tls)
    return f"{urls[0]} ({LOCAL_HINT})" if local else " ".join(urls)


def html_text(text: str) -> str:
    """``text`` as HTML text or an attribute's value."""
    return html.escape(text, quote=True)


def open_socket(host: str, port: int) -> socket.socket:
    """Bind the page's port now, so its URL is known (and can be told) before serving starts."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            from cardtui.server.ops.ports import in_use

            raise OSError(in_use(host, port, "the page for browsers") + " Choose another with --web-port.") from err
        why = os.strerror(err.errno).lower() if err.errno else str(err)
        raise OSError(f"Cannot listen for browsers on {host}:{port}: {why}.") from err


def ssl_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def unreadable_origin(origins: Sequence[str]) -> str | None:
    """The first of ``origins`` (flags) that is neither ``*`` nor a scheme and a host, or None."""
    return next((o for o in origins if o != "*" and origin_of(o) is None), None)


@dataclass(eq=False)
class GuestSession:
    """One browser tab: its websocket and its client's process, and the traffic between them.

    Only what textual-serve's page sends is passed on, checked: keys (``stdin``), a terminal
    size (``resize``, clamped), focus and blur; ``ping`` is answered here. Whatever else comes
    is dropped.
    """

    address: str
    ws: web.WebSocketResponse
    process: GuestProcess | None = None
    finished: bool = False
    """The tab has gone (or is going): the process is to end."""
    size: tuple[int, int] = (80, 24)
    stderr: bytearray = field(default_factory=bytearray)
    silence: float = SILENCE_SECONDS
    """``WebLimits.silence``: how long the browser may say nothing before it is asked, and then to answer."""
    heard: float = 0.0
    """When the browser last sent anything (the loop's clock), a pong included."""

    async def run(self) -> None:
        """Pass traffic both ways until the tab or the process ends, or the browser stops answering."""
        self.heard = asyncio.get_running_loop().time()
        tasks = [asyncio.ensure_future(self.pump_output()), asyncio.ensure_future(self.pump_input()),
                 asyncio.ensure_future(self.keep_alive()), asyncio.ensure_future(self.keep_stderr())]
        try:
            await asyncio.wait(tasks[:3], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def pump_output(self) -> None:
        """The process's screen to the browser (textual-serve's packets: D data, M meta)."""
        assert self.process is not None
        stdout = self.process.stdout
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            for _ in range(10):  # the app says it is one before it draws
                if await stdout.readline() in (b"__GANGLION__\n", b""):
                    break
            while True:
                kind = await stdout.readexactly(1)
                payload = await stdout.readexactly(int.from_bytes(await stdout.readexactly(4), "big"))
                if kind == b"D":
                    await self.ws.send_bytes(payload)
                elif kind == b"M" and json.loads(payload).get("type") == "exit":
                    return  # the guest quit the app: the page says the session ended

    async def keep_alive(self) -> None:
        """Ask a browser silent for ``silence`` seconds (a ping), and return (ending the session) if nothing
        has come back ``silence`` seconds later.

        What came back is judged after the loop has had its turns to read it. aiohttp's own heartbeat judged
        by a timer alone: a host too busy to run its loop for half the heartbeat right after a ping (a busy
        machine's scheduler) found the browser's answer and its own deadline due together, ran the deadline
        first, and closed a tab that had answered at once."""
        loop = asyncio.get_running_loop()
        while True:
            quiet = loop.time() - self.heard
            if quiet < self.silence:
                await asyncio.sleep(self.silence - quiet)
                continue
            asked = loop.time()
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.ping()
            await asyncio.sleep(self.silence)
            for _turn in range(READ_TURNS):  # what arrived while the host was busy, read before judging
                await asyncio.sleep(0)
            if self.heard < asked:
                log.info("a browser session from %s said nothing for %.0f s, nor answered a ping: ended",
                         self.address, loop.time() - self.heard)
                return

    async def pump_input(self) -> None:
        """The browser's keys and sizes to the process, checked; until the tab goes. A ping is answered
        (autoping is off: ``keep_alive`` counts the pongs)."""
        async for message in self.ws:
            self.heard = asyncio.get_running_loop().time()
            if message.type == WSMsgType.PING:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.pong(message.data)
                continue
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await self.send(b"D", data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                size = terminal_size(data.get("width"), data.get("height"))
                if size is not None and size != self.size:
                    self.size = size
                    await self.send_meta({"type": "resize", "width": size[0], "height": size[1]})
            elif kind in ("focus", "blur"):
                await self.send_meta({"type": kind})
            elif kind == "ping" and isinstance(data, str) and len(data) <= 32:
                await self.ws.send_json(["pong", data])

    async def keep_stderr(self) -> None:
        """Keep the tail of what the process says on stderr, for the log if it fails."""
        assert self.process is not None
        with contextlib.suppress(ConnectionError):
            while chunk := await self.process.stderr.read(4096):
                self.stderr += chunk
                del self.stderr[:-STDERR_KEPT]

    async def send(self, kind: bytes, payload: bytes) -> None:
        assert self.process is not None
        stdin = self.process.stdin
        stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
        await stdin.drain()

    async def send_meta(self, meta: dict[str, object]) -> None:
        await self.send(b"M", json.dumps(meta).encode())

    async def end(self) -> None:
        """Ask the app to quit (it tells the table server it is leaving), give it ``QUIT_SECONDS``,
        then kill it: in every path, cancellation included, the kill is sent."""
        self.finished = True
        process = self.process
        if process is None:
            return
        try:
            if not process.gone:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await asyncio.wait_for(self.send_meta({"type": "quit"}), QUIT_SECONDS)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), QUIT_SECONDS)
                if not process.gone:
                    log.warning("a browser session from %s did not quit in %.0f s; killed", self.address,
                                QUIT_SECONDS)
        finally:
            process.kill()
            process.close_pipes()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), QUIT_SECONDS)

    @property
    def gone(self) -> bool:
        """Nothing of the session is left on the host."""
        return self.finished and (self.process is None or self.process.gone)


class WebServer(Server):
    """The page, its assets and one client process per websocket, within the limits."""

    def __init__(
        self,
        target: str,
        *,
        tls: tuple[Path, Path] | None = None,
        tls_ca: Path | None = None,
        limits: WebLimits | None = None,
        origins: Sequence[str] = (),
        title: str = "cardtui",
        warm: bool = True,
        clock: Clock = REAL,
    ) -> None:
        super().__init__(" ".join(["cardtui", *session_command(target, tls_ca)]), title=title, templates_path=PAGE)
        self.target = target
        self.clock = clock
        self.tls = tls
        self.limits = limits or WebLimits()
        self.any_origin = "*" in origins
        self.origins = {o for o in (origin_of(u) for u in origins if u != "*") if o is not None}
        self.hosts = {h for h in (host_name(urlsplit(o).netloc) for o in self.origins) if h is not None}
        """The names the page is served on besides this machine's own: those of ``--web-origin``."""
        self.own: set[str] = set()
        """This machine's names and addresses, as last looked up (``this_machine``), and the page's."""
        self.own_at = -math.inf
        self.bound = ""
        """The address the page's socket is bound to."""
        self.launcher = (WarmLauncher if warm else Launcher)(target, tls_ca)
        self.sessions: set[GuestSession] = set()
        self.wheels = Wheelhouse()
        """The client's wheel and those it needs, made the first time a friend asks (server.wheels)."""
        self.runner: web.AppRunner | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.port = 0

    @property
    def by_address(self) -> dict[str, int]:
        """Sessions per browser address, counting every one whose process is still on the host."""
        counts: dict[str, int] = {}
        for session in self.sessions:
            counts[session.address] = counts.get(session.address, 0) + 1
        return counts

    @property
    def open_sessions(self) -> int:
        return len(self.sessions)

    async def start(self, sock: socket.socket) -> None:
        """Serve on an already bound socket (see ``open_socket``)."""
        self.port = int(sock.getsockname()[1])
        bound = str(sock.getsockname()[0])
        self.bound = _address(bound) or bound.lower()
        self.look_up_own()
        await self.launcher.start()
        app = await self._make_app()
        self.runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=QUIT_SECONDS)
        await self.runner.setup()
        context = ssl_context(*self.tls) if self.tls is not None else None
        await web.SockSite(self.runner, sock, ssl_context=context).start()
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep_forever())

    async def stop(self) -> None:
        """Close every session (their processes quit) and stop listening."""
        for session in list(self.sessions):
            await session.ws.close(code=WSCloseCode.GOING_AWAY, message=b"The server is shutting down.")
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        if self.sweeper is not None:
            self.sweeper.cancel()
            self.sweeper = None
        for session in list(self.sessions):
            session.finished = True
        self.sweep()
        await self.launcher.close()
        self.wheels.close()

    def sweep(self) -> None:
        """Kill the process of every session whose tab has gone; forget those that are gone."""
        for session in list(self.sessions):
            if session.gone:
                self.sessions.discard(session)
            elif session.finished and session.process is not None:
                session.process.kill()

    async def sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(REAP_SECONDS)
            self.sweep()

    def look_up_own(self) -> None:
        self.own = this_machine() | {self.bound}
        self.own_at = self.clock.now()

    def foreign_host(self, request: web.Request) -> str | None:
        """The ``Host`` of a request that names none of the names the page is served on, or None.

        A page elsewhere cannot read this one, nor open its websocket with this page's ``Origin``
        (``foreign_origin``), unless its own name comes to point here: DNS rebinding, where
        ``evil.example`` resolves to the attacker's server and then to this machine, and the
        browser, seeing one origin, lets that page do what this one may. Its requests then name
        ``evil.example`` in ``Host``, not this machine. So only this machine's names and
        addresses (``this_machine``, and the address the page is bound to) and the hosts of
        ``--web-origin`` are served; ``--web-origin *`` lets any page in, and so any name. A
        client that sends no ``Host`` is no browser, and is let through."""
        sent = request.headers.get("Host")
        if sent is None or self.any_origin:
            return None
        name = host_name(sent)
        if name is None:
            return sent[:200]
        address = _address(name)
        if (address or name) in self.own or name in self.hosts:
            return None
        if address is not None and ipaddress.ip_address(address).is_loopback:
            return None  # this machine's, whatever its interfaces say
        if address is not None and self.clock.now() - self.own_at > HOSTS_SECONDS:
            self.look_up_own()  # an address this machine took since
            if address in self.own:
                return None
        return sent[:200]

    @web.middleware
    async def guard_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request, the page's assets and websocket too, names a host the page is served on."""
        foreign = self.foreign_host(request)
        if foreign is not None:
            log.info("refused a request from %s for %r: the page is not served under that name", request.remote,
                     foreign)
            raise web.HTTPForbidden(text="This page is not served under that name: open the room's own address.")
        return await handler(request)

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard_host])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            # An invite's link: the same page, its guest taken to the table once named (client.invite_links).
            web.get("/table/{table}", self.handle_index, name="invite"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/ws/table/{table}", self.handle_websocket, name="invite-websocket"),
            web.get("/ws/table/{table}/{code}", self.handle_websocket, name="invite-websocket-code"),
            # The page asked with ?screen-reader=1: the guest's client in lines, for a screen reader (client.lines).
            web.get("/ws/reader", self.handle_websocket, name="reader-websocket"),
            web.get("/ws/reader/table/{table}", self.handle_websocket, name="reader-invite-websocket"),
            web.get("/ws/reader/table/{table}/{code}", self.handle_websocket, name="reader-invite-websocket-code"),
            web.static("/static", self.statics_path, name="static"),
            # The client for a friend's terminal (cardtui.installing, server.wheels): how, its wheel, an index.
            web.get(f"/{INSTALL}", self.handle_install, name="install"),
            web.get(r"/{wheel:cardtui-[^/]+\.whl}", self.handle_own_wheel, name="own-wheel"),
            web.get(f"/{INDEX}", self.handle_simple, name="simple"),
            web.get(f"/{INDEX}{{project}}/", self.handle_project, name="simple-project"),
            web.get(f"/{INDEX}{{project}}/{{file}}", self.handle_wheel_file, name="simple-file"),
        ])
        return app

    def page_of(self, request: web.Request) -> str:
        """This page's root as the asking browser (or installer) reached it: the address it typed."""
        return f"{'https' if request.secure else 'http'}://{request.host}/"

    @aiohttp_jinja2.template("install.html")
    async def handle_install(self, request: web.Request) -> dict[str, Any]:
        """How a friend installs the client from here, each line naming this page's own address."""
        page = self.page_of(request)
        client = offer(page, __version__)
        dialled, _colon, port = self.target.rpartition(":")
        host = dialled.strip("[]")
        if host in ("127.0.0.1", "::1", "localhost", ""):  # the server is this machine's: reached where the page is
            host = urlsplit(page).hostname or "127.0.0.1"
        server = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        whole = self.wheels.complete()
        packages = len(self.wheels.index())
        lang = browser_language(request)
        with i18n.speaking(lang):
            words = {
                "title": _("{title}: the client for your terminal").format(title=self.title),
                "heading": _("Play from your own terminal"),
                "needs": _("You need Python 3.11 or later, then one of these lines: each installs the client this "
                           "room runs, cardtui {version}, and the {n} packages it needs.").format(
                    version=__version__, n=packages - 1),
                "online_said": _("Any system, with internet"),
                "online_where": _("The client from this page, what it needs from PyPI ({n} downloads from the "
                                  "internet): a few minutes, longer on a slow connection.").format(n=packages - 1),
                "then": _("Then sit down (after pip: cardtui/bin/cardtui, in the folder it made):"),
                "offline_said": _("From this host alone: the quickest here, no internet") if whole
                else _("No internet here?"),
                "offline_where": (_("On the same system as the host ({system}): every file comes from this host, "
                                    "nothing from the internet; a minute or two. The host hands out the very files "
                                    "it installed, so another system (another operating system, processor or "
                                    "Python) needs the way below.") if whole else
                                  _("This host cannot hand out every package the client needs (one was not "
                                    "installed from a wheel here): use the lines above, with internet.")
                                  ).format(system=system()),
                "windows": _("In Windows Terminal (PowerShell), with Python from python.org:"),
                "files_said": _("The files:"),
                "browser": _("Or play in this browser, with nothing to install"),
            }
        return {**words, "lang": lang.replace("_", "-"), "whole": whole, "pipx": client.pipx(), "uv": client.uv(),
                "pip": client.pip(), "offline": client.offline(), "connect": f"cardtui connect {server}",
                "windows_line": f"{client.pip(windows=True)}\ncardtui\\Scripts\\cardtui connect {server}",
                "wheel": client.wheel, "wheel_name": wheel_name(__version__), "index": client.index}

    async def _served(self, key: str) -> Path:
        """The wheel of ``key`` (normalized), made if need be; a sentence and 503 if it cannot be made."""
        try:
            return await self.wheels.wheel(key)
        except NoWheel as err:
            log.warning("a wheel the page was asked for cannot be made: %s", err)
            raise web.HTTPServiceUnavailable(text=str(err)) from None

    async def handle_own_wheel(self, request: web.Request) -> web.StreamResponse:
        """The client's wheel, under the one name it has (``installing.wheel_name``)."""
        if request.match_info["wheel"] != wheel_name(__version__):
            raise web.HTTPNotFound(text=f"This page serves {wheel_name(__version__)}, the client it runs.")
        return web.FileResponse(await self._served("cardtui"), headers={"Content-Type": "application/zip"})

    async def handle_simple(self, request: web.Request) -> web.Response:
        """The index's root (PEP 503): a link to each project's page."""
        links = "".join(f'<a href="/{INDEX}{key}/">{html_text(key)}</a><br/>\n' for key in sorted(self.wheels.index()))
        return web.Response(text=f"<!DOCTYPE html>\n<html><body>\n{links}</body></html>\n", content_type="text/html")

    async def handle_project(self, request: web.Request) -> web.Response:
        """A project's page (PEP 503): its one wheel, with its hash and the Python it requires."""
        asked = request.match_info["project"]
        key = canonicalize_name(asked)
        if key != asked:  # PEP 503: a name that is not normalized is sent to the one that is
            raise web.HTTPMovedPermanently(f"/{INDEX}{key}/")
        if key not in self.wheels.index():
            raise web.HTTPNotFound(text=f"{key} is not among the wheels this page serves.")
        path = await self._served(key)
        python = self.wheels.index()[key].requires_python
        needs = f' data-requires-python="{html_text(python)}"' if python else ""
        link = (f'<a href="/{INDEX}{key}/{path.name}#sha256={self.wheels.digest(path)}"{needs}>'
                f"{html_text(path.name)}</a><br/>\n")
        return web.Response(text=f"<!DOCTYPE html>\n<html><body>\n{link}</body></html>\n", content_type="text/html")

    async def handle_wheel_file(self, request: web.Request) -> web.StreamResponse:
        """A wheel of the index, by the name its project's page gave it."""
        key = request.match_info["project"]
        if key not in self.wheels.index():
            raise web.HTTPNotFound(text=f"{key} is not among the wheels this page serves.")
        path = await self._served(key)
        if request.match_info["file"] != path.name:
            raise web.HTTPNotFound(text=f"{key}'s wheel here is {path.name}.")
        return web.FileResponse(path, headers={"Content-Type": "application/zip"})

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: the command that started us prints the URL."""

    @aiohttp_jinja2.template("index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        scheme = "wss" if request.secure else "ws"
        lang = browser_language(request)
        with i18n.speaking(lang):
            words = {"opening": _("{title}: opening a table room for you…").format(title=self.title),
                     "reader_said": _("What the table says"),
                     "ended": _("The session ended."), "again": _("Open a new one"), "keys_said": _("Keys"),
                     "own_terminal": _("Play from your own terminal"),  # the client for it: /install
                     # The keys a phone's keyboard lacks, on the page under the terminal (touch screens only):
                     # each sends the terminal its key's bytes (index.html), its words as the footer says them.
                     "keys": [(name, key, word) for name, key, word in (
                         ("escape", "esc", _("Back")), ("enter", "↵", _("Enter")), ("help", "?", _("Help")),
                         ("chat", "/", _("Chat")), ("phrases", "!", _("Phrases")),
                         ("language", "^l", _("Language")), ("bell", "^g", _("Bell")))]}
        return {"title": self.title, "static": "/static/", "websocket_url": f"{scheme}://{request.host}/ws",
                "lang": lang.replace("_", "-"), **words}

    def refusal(self, address: str, lang: str = "en") -> str | None:
        """Why a new session from ``address`` is refused now (a sentence under 123 bytes, in the
        browser's language if it fits), or None."""
        if self.by_address.get(address, 0) >= self.limits.per_address:
            n = self.limits.per_address
            english = f"This address already has {n} session{'s' if n != 1 else ''} open: close one to open another."
            with i18n.speaking(lang):
                said = ngettext("This address already has {n} session open: close one to open another.",
                                "This address already has {n} sessions open: close one to open another.",
                                n).format(n=n)
        elif self.open_sessions >= self.limits.total:
            english = "The room is full: every browser seat on this server is taken. Try again later."
            with i18n.speaking(lang):
                said = _("The room is full: every browser seat on this server is taken. Try again later.")
        else:
            return None
        return said if len(said.encode()) < 123 else english

    def foreign_origin(self, request: web.Request) -> str | None:
        """The ``Origin`` of a websocket request that neither is this page's nor is allowed, or None.

        Browsers always send it: a page elsewhere that opens our websocket (to spend the host's
        sessions, or to play as whoever visits it) is known by it. A client that is not a
        browser sends none, and gains nothing it could not have by lying, so it is let through."""
        sent = request.headers.get("Origin")
        if sent is None or self.any_origin:
            return None
        origin = origin_of(sent)
        own = origin_of(f"{'https' if request.secure else 'http'}://{request.host}")
        if origin is not None and (origin == own or origin in self.origins):
            return None
        return sent[:200]

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        foreign = self.foreign_origin(request)
        if foreign is not None:
            log.info("refused a browser session from %s: its page is at %r, not here", address, foreign)
            raise web.HTTPForbidden(text="This page is not served here: open the room's own address.")
        # No heartbeat of aiohttp's, and pings answered here: GuestSession.keep_alive says why.
        ws = web.WebSocketResponse(autoping=False, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        lang = browser_language(request)
        reason = self.refusal(address, lang)
        if reason is not None:
            log.info("refused a browser session from %s: %s", address, reason)
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=reason.encode())
            return ws
        size = terminal_size(request.query.get("width", 80), request.query.get("height", 24)) or (80, 24)
        table, code = invited(request.match_info.get("table", ""), request.match_info.get("code", ""))
        session = GuestSession(address, ws, size=size, silence=self.limits.silence)
        self.sessions.add(session)  # counted from now until its process is gone
        try:
            # The bell at the guest's turn, on if their browser remembers it so (client.turn_bell).
            bell = request.cookies.get(BELL_COOKIE) == "on"
            reader = request.path.startswith("/ws/reader")
            touch = request.cookies.get(TOUCH_COOKIE) == "1"
            session.process = await self.launcher.launch(*size, lang, table, code, bell, reader, touch)
            log.info("browser session from %s (%d open, pid %d)", address, self.open_sessions, session.process.pid)
            await session.run()
        except (asyncio.CancelledError, ConnectionError):
            pass
        except Exception:
            log.exception("a browser session from %s failed", address)
        finally:
            try:
                await session.end()
            finally:
                if session.stderr.strip() and session.process is not None:
                    log.warning("browser session from %s (pid %d) said: %s", address, session.process.pid,
                                session.stderr.decode(errors="replace").strip()[-2000:])
                if session.gone:
                    self.sessions.discard(session)
                with contextlib.suppress(Exception):
                    await ws.close()
        return ws


async def serve_forever(
    host: str,
    port: int,
    target: str,
    *,
    tls: tuple[Path, Path] | None = None,
    tls_ca: Path | None = None,
    limits: WebLimits | None = None,
    origins: Sequence[str] = (),
) -> None:
    """``cardtui web``: serve browsers for the table server at ``target`` until SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    sock = open_socket(host, port)
    server = WebServer(target, tls=tls, tls_ca=tls_ca, limits=limits, origins=origins)
    try:
        await server.start(sock)
    except BaseException:
        sock.close()
        raise
    print(f"cardtui web on {describe(host, server.port, tls is not None)} for the table server {target}",
          flush=True)
    print(install_line(web_urls(host, server.port, tls is not None)[0][0]), flush=True)
    await stop.wait()
    await server.stop()
