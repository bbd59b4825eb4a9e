"""How a friend gets the client from a host: the wheel's name on the host's page, and the one line each
installer takes for it.

The host's page (``server.web``) serves the wheel of the package it runs at its root, under the name
``wheel_name`` gives, and every wheel its own environment installed for it as a simple index (PEP 503) at
``simple/`` (``server.wheels``). The lines are the same wherever they are shown: the page's install page,
``cardtui serve``'s first lines, an invite, and the sentence a client says when it and its server are not
of one version. So they are made here, where the server and the client both read them (this module
imports nothing but the standard library).

Two ways in. With internet, the wheel's URL: the installer takes cardtui itself from the host and its
dependencies from PyPI, for any platform. Without, the page's index alone: the host's own wheels, which
install only where they were built for (the same operating system, processor and Python as the host:
``docs/players.md`` says so). A name alone (``pip install cardtui``) is never offered: the package on a
public index under that name need not be this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

PROJECT = "cardtui"
INDEX = "simple/"
"""The page's simple index (PEP 503), under the page's root."""
INSTALL = "install"
"""The page that says every way of installing the client, under the page's root."""


def wheel_name(version: str) -> str:
    """The file name of the client's wheel (pure Python: one wheel for every platform).

    ``version`` is ``cardtui.__version__``, written in its normal form (PEP 440) so that it is the
    name the build gives the file (a test holds the two together)."""
    return f"{PROJECT}-{version}-py3-none-any.whl"


def wheel_url(page: str, version: str) -> str:
    """Where the page at ``page`` (``http://HOST:PORT/``) serves the client's wheel."""
    return _root(page) + wheel_name(version)


def _root(page: str) -> str:
    return page if page.endswith("/") else page + "/"


@dataclass(frozen=True)
class Offer:
    """The client as one page offers it: the wheel's URL, and the lines that install it from there."""

    wheel: str
    """``http(s)://HOST:PORT/cardtui-VERSION-py3-none-any.whl``."""

    @property
    def page(self) -> str:
        """The page's root, ``http(s)://HOST:PORT/``."""
        return self.wheel.rsplit("/", 1)[0] + "/"

    @property
    def host(self) -> str:
        """The page's host, as an installer's ``--trusted-host`` takes it (no brackets, no port)."""
        return urlsplit(self.wheel).hostname or ""

    @property
    def index(self) -> str:
        """The page's simple index: every wheel the host installed, for installing with no internet."""
        return self.page + INDEX

    @property
    def install_page(self) -> str:
        return self.page + INSTALL

    @property
    def secure(self) -> bool:
        """Served over HTTPS, by the host's own certificate, which no installer trusts unless told."""
        return self.wheel.startswith("https:")

    def pipx(self, again: bool = False) -> str:
        """The one line for pipx (a venv of the client's own, ``cardtui`` on the PATH). ``again``: over a
        client of another version already installed."""
        trust = f" --pip-args='--trusted-host {self.host}'" if self.secure else ""
        return f"pipx install{' --force' if again else ''}{trust} {self.wheel}"

    def uv(self, again: bool = False) -> str:
        """The one line for uv's tools (the same, with uv)."""
        trust = f" --allow-insecure-host {self.host}" if self.secure else ""
        return f"uv tool install{' --reinstall' if again else ''}{trust} {self.wheel}"

    def pip(self, windows: bool = False) -> str:
        """Plain pip into a venv of its own, ``cardtui`` beside it (``cardtui/bin/cardtui``)."""
        trust = f" --trusted-host {self.host}" if self.secure else ""
        if windows:
            return f"py -m venv cardtui; cardtui\\Scripts\\pip install{trust} {self.wheel}"
        return f"python3 -m venv cardtui && cardtui/bin/pip install{trust} {self.wheel}"

    def offline(self, windows: bool = False) -> str:
        """From the page's index alone, no internet: plain pip into a venv. The page is a host pip does
        not know, and plain HTTP, so pip is told to trust it (pip trusts no index on the network over
        HTTP unless told: ``--trusted-host``)."""
        where = f"--index-url {self.index} --trusted-host {self.host}"
        if windows:
            return f"py -m venv cardtui; cardtui\\Scripts\\pip install {where} {PROJECT}"
        return f"python3 -m venv cardtui && cardtui/bin/pip install {where} {PROJECT}"


def offer(page: str, version: str) -> Offer:
    """The client as the page at ``page`` offers it, for a server of ``version``."""
    return Offer(wheel_url(page, version))


def best(wheels: list[str] | tuple[str, ...], dialled: str) -> Offer | None:
    """Of a server's wheel URLs (``ServerInfo.client_wheels``), the one on the host this client dialled
    (a friend reaches the page where they reached the server), else the first; None if it offers none."""
    if not wheels:
        return None
    host = dialled.rpartition(":")[0].strip("[]") if ":" in dialled else dialled
    for url in wheels:
        if (urlsplit(url).hostname or "") == host:
            return Offer(url)
    return Offer(wheels[0])
