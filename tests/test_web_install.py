"""The page hands out the client (server.web, server.wheels, cardtui.installing): a page of one-line installs
naming the page's own address, the client's wheel (the package the page runs), and a simple index (PEP 503)
of every wheel the client needs, as a real page on 127.0.0.1 serves them to an installer."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections.abc import AsyncIterator
from email.parser import Parser
from pathlib import Path

import aiohttp
import pytest_asyncio
from packaging.utils import canonicalize_name

from cardtui import __version__
from cardtui.installing import Offer, best, offer, wheel_name
from cardtui.server.app import Running
from cardtui.server.web.site import WebServer, install_line, local_target, open_socket
from cardtui.server.web.wheels import backend_here, needed, system, tags_of

WHEEL = wheel_name(__version__)


@pytest_asyncio.fixture
async def page(server: Running) -> AsyncIterator[WebServer]:
    web = WebServer(local_target("127.0.0.1", server.port), warm=False)
    await web.start(open_socket("127.0.0.1", 0))
    try:
        yield web
    finally:
        await web.stop()


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_the_install_page_names_its_own_address_in_every_line(page: WebServer, server: Running,
                                                                     http: aiohttp.ClientSession) -> None:
    base = f"http://127.0.0.1:{page.port}/"
    async with http.get(base + "install") as answer:
        assert answer.status == 200
        said = await answer.text()
    client = offer(base, __version__)
    connect = f"cardtui connect 127.0.0.1:{server.port}"
    for line in (client.pipx(), client.uv(), client.pip(), client.offline(), connect):
        assert line.replace("&&", "&amp;&amp;") in said, line
    assert "--index-url http://127.0.0.1:" in said and "--trusted-host 127.0.0.1 cardtui" in said
    async with http.get(base + "install", headers={"Accept-Language": "pt-BR"}) as answer:
        assert "Jogue no seu próprio terminal" in await answer.text()


async def test_the_page_offers_first_the_install_that_needs_only_the_host_where_it_serves_every_wheel(
        page: WebServer, http: aiohttp.ClientSession) -> None:
    """Where the page can serve every wheel the client needs, the line that installs from the host alone comes
    first, with the system it works on and how long it takes; the lines with PyPI after it, for any other system.
    Where a package the client needs was not installed here, the page cannot serve it: the PyPI lines come first
    and the host-only one is not offered."""
    base = f"http://127.0.0.1:{page.port}/"
    client = offer(base, __version__)
    assert page.wheels.complete(), "every package of this environment was installed from a wheel (or is cardtui)"
    async with http.get(base + "install") as answer:
        said = await answer.text()
    offline, pipx = client.offline().replace("&&", "&amp;&amp;"), client.pipx()
    assert said.index(offline) < said.index(pipx), "the host-only way first"
    assert system() in said and "nothing from the internet" in said
    page.wheels.missing.append("not-installed-here")  # a requirement this host lacks
    page.wheels.whole = None
    async with http.get(base + "install") as answer:
        said = await answer.text()
    assert pipx in said and offline not in said and "cannot hand out every package" in said


async def test_the_server_says_the_system_its_page_installs_on_alone(tmp_path: Path) -> None:
    """``ServerInfo.offline_system``: the host's system where its page serves every wheel, empty with no page; the
    start-up line and an invite say the host-only line first then, and the PyPI line after it."""
    from cardtui.client.connection import Connection
    from cardtui.client.screens.invite import install_text
    from cardtui.server.app import start

    page = "http://192.168.1.20:8080/"
    running = await start("127.0.0.1", 0, tmp_path / "store.db", web_pages=[page])
    conn = Connection.open(f"127.0.0.1:{running.port}")
    try:
        info = await conn.info()
    finally:
        await conn.close()
        await running.stop(grace=0.1)
    assert info.offline_system == system()
    client = offer(page, __version__)
    line = install_line(page)
    assert line.index(client.offline()) < line.index(client.pipx()) and system() in line
    said = install_text(list(info.client_wheels), info.offline_system).plain
    assert said.index(client.offline()) < said.index(client.pipx())
    assert install_text(list(info.client_wheels)).plain.splitlines()[1] == client.pipx(), "a page of no system"


async def test_the_page_serves_the_client_it_runs_under_its_one_name(page: WebServer,
                                                                      http: aiohttp.ClientSession) -> None:
    base = f"http://127.0.0.1:{page.port}/"
    async with http.get(base + WHEEL) as answer:
        assert answer.status == 200
        wheel = await answer.read()
    names = zipfile.ZipFile(io.BytesIO(wheel)).namelist()
    meta = Parser().parsestr(zipfile.ZipFile(io.BytesIO(wheel)).read(f"cardtui-{__version__}.dist-info/METADATA")
                             .decode())
    assert meta["Name"] == "cardtui" and meta["Version"] == __version__
    assert "cardtui/client/app.py" in names and "cardtui/server/web/page/install.html" in names
    async with http.get(base + "cardtui-0.0.1-py3-none-any.whl") as answer:
        assert answer.status == 404
        assert WHEEL in await answer.text()


async def test_the_index_lists_every_wheel_the_client_needs_with_its_hash(page: WebServer,
                                                                          http: aiohttp.ClientSession) -> None:
    base = f"http://127.0.0.1:{page.port}"
    async with http.get(f"{base}/simple/") as answer:
        projects = set(re.findall(r'href="/simple/([^/]+)/"', await answer.text()))
    assert projects == set(needed()), "cardtui and everything it needs, no more"
    assert {"cardtui", "grpcio", "textual", "linkify-it-py"} <= projects, "extras a requirement asks for are followed"
    for project in ("cardtui", "grpcio"):
        async with http.get(f"{base}/simple/{project}/") as answer:
            link = re.search(r'href="([^"#]+)#sha256=([0-9a-f]{64})"( data-requires-python="[^"]*")?',
                             await answer.text())
        assert link is not None
        async with http.get(base + link.group(1)) as answer:
            assert answer.status == 200
            assert hashlib.sha256(await answer.read()).hexdigest() == link.group(2)
    assert link.group(1).endswith(f"-{tags_of(needed()['grpcio'].dist)}.whl"), "the tags it was installed with"
    async with http.get(f"{base}/simple/GRPCio/", allow_redirects=False) as answer:
        assert answer.status == 301 and answer.headers["Location"] == "/simple/grpcio/"
    for missing in ("/simple/pytest/", "/simple/grpcio/grpcio-0.0-py3-none-any.whl"):
        async with http.get(base + missing) as answer:
            assert answer.status == 404, missing


async def test_the_wheels_answer_only_under_the_pages_own_names(page: WebServer, http: aiohttp.ClientSession) -> None:
    for path in (f"/{WHEEL}", "/simple/", "/install"):
        async with http.get(f"http://127.0.0.1:{page.port}{path}", headers={"Host": "evil.example"}) as answer:
            assert answer.status == 403, path


def test_the_lines_trust_a_page_over_https_only_as_told() -> None:
    plain = Offer(f"http://192.168.1.20:8080/{WHEEL}")
    assert plain.pipx() == f"pipx install http://192.168.1.20:8080/{WHEEL}"
    assert plain.pipx(again=True).startswith("pipx install --force ")
    assert plain.uv(again=True).startswith("uv tool install --reinstall ")
    assert plain.offline() == ("python3 -m venv cardtui && cardtui/bin/pip install --index-url "
                               "http://192.168.1.20:8080/simple/ --trusted-host 192.168.1.20 cardtui")
    secure = Offer(f"https://[fd00::7]:8443/{WHEEL}")
    assert secure.host == "fd00::7" and secure.index == "https://[fd00::7]:8443/simple/"
    assert "--pip-args='--trusted-host fd00::7'" in secure.pipx() and "--allow-insecure-host fd00::7" in secure.uv()
    wheels = [f"http://192.168.1.20:8080/{WHEEL}", f"http://10.0.0.5:8080/{WHEEL}"]
    assert best(wheels, "10.0.0.5:50051") == Offer(wheels[1]), "the page on the host the client dialled"
    assert best(wheels, "cards.local:50051") == Offer(wheels[0]) and best([], "x:1") is None
    assert f"pipx install http://192.168.1.20:8080/{WHEEL}" in install_line("http://192.168.1.20:8080/")
    assert plain.offline() in install_line("http://192.168.1.20:8080/"), "this host serves every wheel"


def test_the_wheels_name_is_the_one_its_project_normalizes_to() -> None:
    assert canonicalize_name(WHEEL.split("-")[0]) == "cardtui"
    assert re.fullmatch(r"cardtui-\d+(\.\d+)*-py3-none-any\.whl", WHEEL)


def test_the_clients_own_wheel_is_built_here_only_with_the_backend_the_project_asks_for(tmp_path: Path) -> None:
    # A venv of Python 3.11 starts with an older setuptools than pyproject.toml asks for (make play's): pip
    # then builds the wheel in an environment of its own (server.wheels.build).
    (tmp_path / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=77"]\n')
    assert backend_here(tmp_path), "this suite's venv has a setuptools the project builds with"
    (tmp_path / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools>=9999", "flit_core"]\n')
    assert not backend_here(tmp_path)
