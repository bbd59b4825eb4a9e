"""Announce a table server on the LAN over mDNS / DNS-SD, so players find it without an address.

Discovery is a convenience: multicast may be blocked, and HOST:PORT always works, so a
failure to announce is logged and the server runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceInfo
from zeroconf.asyncio import AsyncZeroconf

import cardtui
from cardtui.server.base.clock import REAL, Clock

log = logging.getLogger("cardtui.announce")

SERVICE_TYPE = "_cardtui._tcp.local."
WILDCARDS = {"", "0.0.0.0", "::", "[::]"}
MAX_LABEL = 63  # bytes in one DNS label


def instance_name(host: str | None = None) -> str:
    """The host's short name, trimmed to one DNS label: what a player sees in the list."""
    name = (host or socket.gethostname() or "cardtui").split(".")[0].strip() or "cardtui"
    return name.encode()[:MAX_LABEL].decode(errors="ignore")


def lan_addresses(ipv6: bool = False) -> list[str]:
    """The addresses of this machine's interfaces that a neighbour could dial."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                found.append(ip.ip)
            elif ipv6 and not ipaddress.ip_address(ip.ip[0]).is_link_local:
                found.append(ip.ip[0])
    unique = list(dict.fromkeys(found))
    lan = [a for a in unique if not ipaddress.ip_address(a).is_loopback]
    return lan or unique  # loopback only when there is nothing else: it means "this machine" to everyone


def announced_addresses(listen_host: str, interfaces: list[str] | None) -> list[str]:
    """The addresses a client may dial: the one listened on, or, on a wildcard, each interface's."""
    host = listen_host.strip("[]")
    if host not in WILDCARDS:
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:  # a host name: dial whatever it resolves to
            infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
            return list(dict.fromkeys(str(info[4][0]) for info in infos))
    if interfaces:
        return list(interfaces)
    return lan_addresses(ipv6=listen_host.strip("[]") == "::")


class Announcer:
    """One DNS-SD record for this server, its TXT kept current with the table count."""

    def __init__(
        self,
        port: int,
        tables: Callable[[], int],
        tls: bool = False,
        addresses: list[str] | None = None,
        interfaces: list[str] | None = None,
        name: str | None = None,
        interval: float = 3.0,
        web: str | None = None,
        clock: Clock = REAL,
    ) -> None:
        self.port = port
        self.clock = clock
        self.web = web
        """The browser page's URL, if the server has one (``serve --web``)."""
        self.tables = tables
        self.tls = tls
        self.interfaces = interfaces
        self.addresses = addresses or announced_addresses("0.0.0.0", interfaces)
        self.name = name or instance_name()
        self.interval = interval
        self.zc: AsyncZeroconf | None = None
        self.info: ServiceInfo | None = None
        self._count = -1
        self._watch: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[bool] | None = None

    def properties(self, count: int) -> dict[str, str]:
        props = {"version": cardtui.__version__, "tables": str(count), "tls": "1" if self.tls else "0"}
        if self.web:
            props["web"] = self.web
        return props

    def _service_info(self, count: int, full_name: str | None = None) -> ServiceInfo:
        # A host name of its own: two servers on one machine may listen on different addresses, and
        # address records under a shared name would merge in every client's cache.
        label = f"{self.name.replace(' ', '-')[:40]}-cardtui-{self.port}"
        return ServiceInfo(
            SERVICE_TYPE,
            full_name or f"{self.name}.{SERVICE_TYPE}",
            port=self.port,
            properties=self.properties(count),
            server=f"{label}.local.",
            parsed_addresses=self.addresses,
        )

    @property
    def registered_name(self) -> str:
        """The instance name as registered (a clash on the LAN makes zeroconf add a number)."""
        return self.info.name.removesuffix(f".{SERVICE_TYPE}") if self.info else self.name

    async def start(self) -> None:
        """Register and wait until the record is announced (probing takes a second or two)."""
        ipv4_only = all(ipaddress.ip_address(a).version == 4 for a in [*(self.interfaces or []), *self.addresses])
        self.zc = AsyncZeroconf(
            interfaces=self.interfaces or InterfaceChoice.All,
            ip_version=IPVersion.V4Only if ipv4_only else IPVersion.All,
        )
        try:
            self._count = self.tables()
            info = self._service_info(self._count)
            # The call returns a task that finishes once probing and announcing are done.
            await (await self.zc.async_register_service(info, allow_name_change=True))
            self.info = info
        except BaseException:
            await self.zc.async_close()
            self.zc = None
            raise
        self._watch = asyncio.create_task(self._keep_current(), name="cardtui-announce")

    def launch(self) -> None:
        """Register in the background: probing takes a second or two, and serving need not wait."""
        self._starting = asyncio.create_task(self._start_logged(), name="cardtui-announce-start")

    async def _start_logged(self) -> bool:
        try:
            await self.start()
        except Exception as err:  # multicast refused, a name clash, ...: the server runs on regardless
            log.warning("not announced on the LAN (%s); clients can still connect by HOST:PORT", err)
            return False
        log.info("announced on the LAN as %r", self.registered_name)
        return True

    async def announced(self) -> bool:
        """Wait for a launched registration; whether the server is now announced."""
        if self._starting is None:
            return self.info is not None
        return await asyncio.shield(self._starting)

    async def refresh(self) -> None:
        """Re-announce the TXT if the table count changed; a no-op otherwise, so cheap to call."""
        if self.zc is None or self.info is None:
            return
        count = self.tables()
        if count == self._count:
            return
        self._count = count
        info = self._service_info(count, self.info.name)  # the name as registered, clash suffix and all
        await (await self.zc.async_update_service(info))
        self.info = info

    async def _keep_current(self) -> None:
        while True:
            await self.clock.sleep(self.interval)
            try:
                await self.refresh()
            except Exception as err:  # a LAN hiccup must not stop the server
                log.warning("could not update the LAN announcement: %s", err)

    async def stop(self) -> None:
        """Say goodbye on the LAN (clients drop the entry) and close the sockets."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()  # closes what it opened
            with contextlib.suppress(asyncio.CancelledError):
                await self._starting
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        if self.zc is None:
            return
        try:
            if self.info is not None:
                await (await self.zc.async_unregister_service(self.info))
        except Exception as err:
            log.warning("could not withdraw the LAN announcement: %s", err)
        finally:
            await self.zc.async_close()
            self.zc = None
            self.info = None


def start_announcer(
    port: int,
    tables: Callable[[], int],
    tls: bool,
    listen_host: str,
    interfaces: list[str] | None = None,
    web: str | None = None,
) -> Announcer | None:
    """An announcer for a server listening on ``listen_host``, registering in the background.

    None (logged) if there is no address to announce, or only loopback ones (a server on
    127.0.0.1 is not on the LAN); ``interfaces`` given explicitly are announced on as asked.
    """
    try:
        addresses = announced_addresses(listen_host, interfaces)
    except OSError as err:
        log.warning("not announced on the LAN (%s); clients can still connect by HOST:PORT", err)
        return None
    if not addresses:
        log.warning("not announced on the LAN: this machine has no address to announce")
        return None
    if interfaces is None and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        # Nobody else can dial 127.0.0.1 of this machine: announcing it would send them to their own.
        log.info("not announced on the LAN: the server listens on %s, which only this machine can reach "
                 "(serve with --host 0.0.0.0 to let the LAN in)", listen_host)
        return None
    if interfaces is None and listen_host.strip("[]") not in WILDCARDS:
        # Listening on one address: announce there only, so nobody is sent to 127.0.0.1 of theirs.
        interfaces = [a for a in addresses if ipaddress.ip_address(a).version == 4] or None
    announcer = Announcer(port, tables, tls, addresses, interfaces, web=web)
    announcer.launch()
    return announcer
