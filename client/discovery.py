"""Find table servers on the LAN (DNS-SD ``_cardtui._tcp``), so ``cardtui connect`` needs no address.

Browsing is bounded in time and never required: with multicast blocked it finds nothing,
and HOST:PORT still works.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from dataclasses import dataclass

from zeroconf import DNSQuestionType, InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from cardtui.i18n import _, ngettext

log = logging.getLogger("cardtui.discovery")

SERVICE_TYPE = "_cardtui._tcp.local."
# Ask for multicast answers: a unicast answer goes to port 5353 on this host, where another
# responder (avahi, a server in this very process) may share the port and take it instead.
QUESTION = DNSQuestionType.QM


@dataclass(frozen=True)
class Found:
    """One server that answered: where to dial it and what its TXT record says."""

    name: str
    host: str
    port: int
    version: str
    tables: int
    tls: bool
    web: str = ""
    """The page where browsers join, when the server has one (``serve --web``)."""

    @property
    def target(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def line(self) -> str:
        tables = ngettext("{n} table", "{n} tables", self.tables).format(n=self.tables)
        tls = ", TLS" if self.tls else ""
        web = ", " + _("browsers: {url}").format(url=self.web) if self.web else ""
        return f"{self.name} — {self.target} (cardtui {self.version or '?'}, {tables}{tls}{web})"


def _text(props: dict[bytes, bytes | None], key: str) -> str:
    value = props.get(key.encode())
    return value.decode(errors="replace") if value else ""


def _found(info: AsyncServiceInfo) -> Found | None:
    addresses = info.parsed_scoped_addresses(IPVersion.All)
    if not addresses or not info.port:
        return None
    # Prefer an IPv4 LAN address: the likeliest to be dialable from here.
    addresses.sort(key=lambda a: (":" in a, ipaddress.ip_address(a.split("%")[0]).is_loopback))
    props = info.properties
    try:
        tables = int(_text(props, "tables") or 0)
    except ValueError:
        tables = 0
    return Found(
        name=info.name.removesuffix(f".{SERVICE_TYPE}"),
        host=addresses[0],
        port=info.port,
        version=_text(props, "version"),
        tables=tables,
        tls=_text(props, "tls") == "1",
        web=_text(props, "web"),
    )


async def discover(timeout: float = 2.0, interfaces: list[str] | None = None) -> list[Found]:
    """Browse for ``timeout`` seconds; every server that answered in time, sorted by name."""
    ipv4_only = interfaces is not None and all(ipaddress.ip_address(a).version == 4 for a in interfaces)
    version = IPVersion.V4Only if ipv4_only or interfaces is None else IPVersion.All
    try:
        azc = AsyncZeroconf(interfaces=interfaces or InterfaceChoice.All, ip_version=version)
    except OSError as err:  # no multicast here: nothing to find, not a failure
        log.info("cannot browse the LAN: %s", err)
        return []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    lookups: dict[str, asyncio.Task[Found | None]] = {}

    async def resolve(name: str) -> Found | None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        wait_ms = max(100, int((deadline - loop.time()) * 1000))
        if await info.async_request(azc.zeroconf, wait_ms, question_type=QUESTION):
            return _found(info)
        return None

    def changed(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            task = lookups.pop(name, None)
            if task is not None:
                task.cancel()
        else:  # added, or its TXT changed: look it up (again)
            old = lookups.get(name)
            if old is not None:
                old.cancel()
            lookups[name] = asyncio.ensure_future(resolve(name))

    browser = AsyncServiceBrowser(azc.zeroconf, SERVICE_TYPE, handlers=[changed], question_type=QUESTION)
    try:
        await asyncio.sleep(max(0.0, deadline - loop.time()))
        tasks = list(lookups.values())
        done, pending = await asyncio.wait(tasks, timeout=0.25) if tasks else (set(), set())
        for task in pending:
            task.cancel()
        found = []
        for task in done:
            if not task.cancelled() and task.exception() is None and (result := task.result()) is not None:
                found.append(result)
    finally:
        await browser.async_cancel()
        for task in lookups.values():
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*lookups.values(), return_exceptions=True)
        await azc.async_close()
    return sorted(found, key=lambda f: (f.name.lower(), f.target))
