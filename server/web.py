"""Guests in a browser: the same Textual client, served over a websocket by textual-serve.

Each browser session runs its own ``cardtui connect SERVER --ask-name`` process, which asks
the guest's name and then talks to the table server over gRPC like any terminal client (its
own connection, so the same per-connection rate limits apply). The page and its assets
(xterm.js, its stylesheet, the Roboto Mono font) come from the installed textual-serve
package: nothing is fetched from the internet, so the page works on a LAN without one.

Limits: a few sessions per browser address at once and a cap on all of them, each session
being a process on the host. With a certificate and key the page is served over HTTPS (and
the websocket over WSS).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import shlex
import signal
import socket
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from cardtui import i18n
from cardtui.i18n import _, ngettext

log = logging.getLogger("cardtui.web")

PAGE = Path(__file__).resolve().parent / "web_page"
QUIT_SECONDS = 3.0
"""How long a session's process has to quit when its browser leaves, before it is killed."""
MAX_MESSAGE = 64 * 1024
"""The largest websocket message a browser may send (keys, mouse, resizes: all small)."""
LOCAL_HINT = "this machine only; --host 0.0.0.0 opens it to the LAN"


@dataclass(frozen=True, slots=True)
class WebLimits:
    per_address: int = 4
    """Browser sessions one address may have open at once."""
    total: int = 32
    """Browser sessions open at once, all addresses together (each is a process on the host)."""


@dataclass(frozen=True, slots=True)
class WebOptions:
    """``serve --web``: where the page listens (on the server's host) and its limits."""

    port: int = 8080
    limits: WebLimits = WebLimits()
    tls: tuple[Path, Path] | None = None
    """The server's certificate and key files: the page over HTTPS, and sessions trust the certificate."""


def session_command(target: str, tls_ca: Path | None = None) -> str:
    """The command one browser session runs: the client, asking the guest's name."""
    args = [sys.executable, "-m", "cardtui.cli", "connect", target, "--ask-name"]
    if tls_ca is not None:
        args += ["--tls-ca", str(tls_ca.resolve())]
    return "exec " + shlex.join(args)  # textual-serve runs it through a shell: no shell left behind


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
    from cardtui.server.announce import announced_addresses

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


def describe(listen_host: str, port: int, tls: bool = False) -> str:
    """The URL (or URLs) to tell guests; a loopback bind says it is for this machine only."""
    urls, local = web_urls(listen_host, port, tls)
    return f"{urls[0]} ({LOCAL_HINT})" if local else " ".join(urls)


def open_socket(host: str, port: int) -> socket.socket:
    """Bind the page's port now, so its URL is known (and can be told) before serving starts."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as err:
        why = os.strerror(err.errno).lower() if err.errno else str(err)
        raise OSError(f"Cannot listen for browsers on {host}:{port}: {why}.") from err


def ssl_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


class GuestSession(AppService):
    """One browser's client process; it gets a few seconds to quit, then it is killed."""

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(super().stop(), QUIT_SECONDS)
        except TimeoutError:
            log.warning("a browser session did not quit in %.0f s; killed", QUIT_SECONDS)
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


class WebServer(Server):
    """The page, its assets and one client process per websocket, within the limits."""

    def __init__(
        self,
        target: str,
        *,
        tls: tuple[Path, Path] | None = None,
        tls_ca: Path | None = None,
        limits: WebLimits | None = None,
        title: str = "cardtui",
    ) -> None:
        super().__init__(session_command(target, tls_ca), title=title, templates_path=PAGE)
        self.target = target
        self.tls = tls
        self.limits = limits or WebLimits()
        self.by_address: dict[str, int] = {}
        self.sockets: set[web.WebSocketResponse] = set()
        self.runner: web.AppRunner | None = None
        self.port = 0

    @property
    def open_sessions(self) -> int:
        return sum(self.by_address.values())

    async def start(self, sock: socket.socket) -> None:
        """Serve on an already bound socket (see ``open_socket``)."""
        self.port = int(sock.getsockname()[1])
        app = await self._make_app()
        self.runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=QUIT_SECONDS)
        await self.runner.setup()
        context = ssl_context(*self.tls) if self.tls is not None else None
        await web.SockSite(self.runner, sock, ssl_context=context).start()

    async def stop(self) -> None:
        """Close every session (their processes quit) and stop listening."""
        for ws in list(self.sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"The server is shutting down.")
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: the command that started us prints the URL."""

    @aiohttp_jinja2.template("index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        scheme = "wss" if request.secure else "ws"
        lang = browser_language(request)
        with i18n.speaking(lang):
            words = {"opening": _("{title}: opening a table room for you…").format(title=self.title),
                     "ended": _("The session ended."), "again": _("Open a new one")}
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

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        address = request.remote or "?"
        lang = browser_language(request)
        reason = self.refusal(address, lang)
        if reason is not None:
            log.info("refused a browser session from %s: %s", address, reason)
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=reason.encode())
            return ws
        width = max(20, min(500, _int(request.query.get("width"), 80)))
        height = max(10, min(300, _int(request.query.get("height"), 24)))
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.sockets.add(ws)
        session: GuestSession | None = None

        async def close() -> None:
            await ws.close()

        try:
            session = GuestSession(
                f"{self.command} --lang {lang}", write_bytes=ws.send_bytes, write_str=ws.send_str, close=close,
                download_manager=self.download_manager,
            )
            await session.start(width, height)
            log.info("browser session from %s (%d open)", address, self.open_sessions)
            await self._process_messages(ws, session)
        except (asyncio.CancelledError, ConnectionError):
            pass
        except Exception:
            log.exception("a browser session from %s failed", address)
        finally:
            self.sockets.discard(ws)
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]
            if session is not None:
                await session.stop()
            await ws.close()
        return ws


def _int(text: str | None, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default


async def serve_forever(
    host: str,
    port: int,
    target: str,
    *,
    tls: tuple[Path, Path] | None = None,
    tls_ca: Path | None = None,
    limits: WebLimits | None = None,
) -> None:
    """``cardtui web``: serve browsers for the table server at ``target`` until SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    sock = open_socket(host, port)
    server = WebServer(target, tls=tls, tls_ca=tls_ca, limits=limits)
    try:
        await server.start(sock)
    except BaseException:
        sock.close()
        raise
    print(f"cardtui web on {describe(host, server.port, tls is not None)} for the table server {target}",
          flush=True)
    await stop.wait()
    await server.stop()
