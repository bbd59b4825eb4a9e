"""Three languages: the catalogs are complete and compiled, plural rules are each locale's, the
language is chosen as documented, a message no catalog has is said in English, refusals come
from a real server as typed Problems and are said in the reader's language, and --help speaks
it too."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import re
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import grpc
import pytest
from babel.messages.catalog import Catalog

from cardtui import i18n
from cardtui.cli import main
from cardtui.client.connection import PROBLEM_METADATA, Connection, error_text, problem_of
from cardtui.i18n import _, ngettext, render, speaking
from cardtui.server.app import Running
from cardtui.server.base import wire
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from cardtui.v1 import common_pb2, lobby_pb2
from tests.conftest import create, started
from tests.waiting import eventually_async
from tools import catalogs

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


# -- the catalogs ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def code_messages() -> Catalog:
    """The messages in the code, extracted once (Babel's reading of the sources is most of what a
    check costs) for the catalog checks, which run in one test process to share it."""
    return catalogs.extract()


@pytest.fixture
def extracted(code_messages: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each check extracts its own copy of the code's messages: a test's changes stay its own."""
    monkeypatch.setattr(catalogs, "extract", lambda: copy.deepcopy(code_messages))


@pytest.mark.xdist_group("catalogs")
@pytest.mark.usefixtures("extracted")
def test_every_message_in_the_code_is_translated_and_compiled() -> None:
    """The messages are extracted from the code now (Babel): each has a non-empty, non-fuzzy
    translation in pt_BR and in es, and each .mo is the compiled .po (``make i18n`` if not)."""
    assert catalogs.problems() == []


@pytest.mark.xdist_group("catalogs")
@pytest.mark.usefixtures("extracted")
def test_a_new_message_shows_up_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check does fail: a message the catalogs lack is named."""
    template = catalogs.extract()
    template.add("A sentence nobody has translated yet.", None, [("client/x.py", 1)])
    monkeypatch.setattr(catalogs, "extract", lambda: template)
    found = catalogs.problems()
    assert "pt_BR: not in the catalog: 'A sentence nobody has translated yet.'" in found
    assert "es: not in the catalog: 'A sentence nobody has translated yet.'" in found


@pytest.mark.xdist_group("catalogs")
@pytest.mark.usefixtures("extracted")
def test_a_stale_compiled_catalog_shows_up(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    stale = tmp_path / "cardtui.mo"
    stale.write_bytes(b"not the compiled catalog")
    real = catalogs.mo_path
    monkeypatch.setattr(catalogs, "mo_path", lambda lang: stale if lang == "es" else real(lang))
    assert any(p.startswith("es:") and "is stale" in p for p in catalogs.problems())


def test_the_catalogs_ship_in_the_package() -> None:
    for lang in ("pt_BR", "es"):
        assert (ROOT / "cardtui" / "locale" / lang / "LC_MESSAGES" / "cardtui.mo").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.mo"' in pyproject


# -- plural rules -----------------------------------------------------------------------------
def test_plural_rules_are_each_locales() -> None:
    """pt_BR says 0 in the singular (n > 1 is plural); Spanish, like English, only 1."""
    assert catalogs.read("pt_BR").plural_expr == "(n > 1)"
    assert catalogs.read("es").plural_expr == "(n != 1)"
    with speaking("pt_BR"):
        assert [ngettext("{n} chip", "{n} chips", n).format(n=n) for n in (0, 1, 2)] == [
            "0 ficha", "1 ficha", "2 fichas"]
    with speaking("es"):
        assert [ngettext("{n} chip", "{n} chips", n).format(n=n) for n in (0, 1, 2)] == [
            "0 fichas", "1 ficha", "2 fichas"]
    with speaking("en"):
        assert ngettext("{n} chip", "{n} chips", 0).format(n=0) == "0 chips"


# -- choosing the language ----------------------------------------------------------------------
@pytest.mark.parametrize(("tag", "lang"), [
    ("pt", "pt_BR"), ("pt_BR", "pt_BR"), ("pt-BR", "pt_BR"), ("pt_BR.UTF-8", "pt_BR"), ("es", "es"),
    ("es_AR.UTF-8", "es"), ("es-ES", "es"), ("en_US.UTF-8", "en"), ("fr_FR", None), ("C", None), ("", None),
])
def test_language_tags(tag: str, lang: str | None) -> None:
    assert i18n.normalize(tag) == lang


def test_the_flag_wins_then_the_environment_then_english() -> None:
    env = {"LANG": "es_AR.UTF-8", "CARDTUI_LANG": "pt"}
    assert i18n.choose("es", env) == "es"
    assert i18n.choose(None, env) == "pt_BR"
    assert i18n.choose(None, {"LANG": "es_AR.UTF-8"}) == "es"
    assert i18n.choose(None, {"LC_ALL": "C", "LANG": "pt_BR"}) == "en"  # the first set decides
    assert i18n.choose(None, {}) == "en"
    assert i18n.choose("klingon", {"LANG": "pt_BR"}) == "pt_BR"
    assert i18n.flag_in(["connect", "--lang", "es", "host"]) == "es"
    assert i18n.flag_in(["--lang=pt-BR", "play"]) == "pt-BR"


def test_the_language_last_chosen_comes_after_the_flag_and_cardtui_lang_before_the_system(tmp_path: Path) -> None:
    assert i18n.choose(None, {"LANG": "es_AR.UTF-8"}, remembered="pt_BR") == "pt_BR"
    assert i18n.choose(None, {"LANG": "es_AR.UTF-8", "CARDTUI_LANG": "en"}, remembered="pt_BR") == "en"
    assert i18n.choose("es", {}, remembered="pt_BR") == "es"
    assert i18n.choose(None, {"LANG": "es_AR.UTF-8"}, remembered="klingon") == "es"
    file = tmp_path / "cfg" / "language"
    assert i18n.remembered(file) is None
    i18n.remember("es", file)
    assert i18n.remembered(file) == "es"
    file.write_bytes(b"\xff\xfe")
    assert i18n.remembered(file) is None, "an unreadable file is as if there were none"


def test_each_person_starts_in_the_language_they_last_chose(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The first time, the system's locale; after ctrl+l, the language chosen, kept in the config
    directory: every connect started in English."""
    monkeypatch.delenv("CARDTUI_LANG")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    first = help_text("--help")
    assert first.startswith("uso: cardtui") and "muestra esta ayuda y sale" in first, first[:200]
    i18n.use("en")
    i18n.remember("pt_BR")
    assert (tmp_path / "config" / "cardtui" / "language").read_text().strip() == "pt_BR"
    assert "mostra esta ajuda e sai" in help_text("--help")


async def test_ctrl_l_is_remembered_by_a_persons_client_not_by_a_browser_guests(server: Running,
                                                                               tmp_path: Path) -> None:
    from cardtui.client.app import CardApp
    from tests.client.test_languages import SMALL, until_lobby

    file = tmp_path / "config" / "cardtui" / "language"
    for remember, kept in ((False, None), (True, "pt_BR")):
        app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=remember)
        async with app.run_test(size=SMALL) as pilot:
            await until_lobby(pilot, app)
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert i18n.current() == "pt_BR"
        i18n.use("en")
        assert i18n.remembered(file) == kept


def test_the_language_goes_round() -> None:
    assert [i18n.next_language(lang) for lang in i18n.LANGUAGES] == ["pt_BR", "es", "en"]


# -- what no catalog has ------------------------------------------------------------------------
def test_a_message_no_catalog_has_is_said_in_english() -> None:
    with speaking("pt_BR"):
        assert _("Seat {seat} is taken.").format(seat=2) == "O lugar 2 está ocupado."
        assert _("A sentence from a newer server.") == "A sentence from a newer server."
        assert render("A sentence from a newer server, seat {seat}.", {"seat": "3"}) == (
            "A sentence from a newer server, seat 3.")
        assert render("Seat {seat} is taken.", {}) == "O lugar {seat} está ocupado."  # no args: as is
        assert render("Seat {seat} is taken.", {"other": "1"}) == "Seat {seat} is taken."  # fields that do not fit


def test_game_terms_are_not_in_the_catalogs() -> None:
    """Truco calls stay in the language of the game: no catalog translates them."""
    for lang in ("pt_BR", "es"):
        catalog = catalogs.read(lang)
        for term in ("Truco!", "Seis!", "Aceito", "Corro", "Quiero", "No quiero", "¡Envido!", "Son buenas", "Na boa"):
            assert catalog.get(term) is None, (lang, term)


VOSEO = re.compile(
    r"\b(vos|sos|podés|tenés|querés|sabés|jugás|sentás|conectás|recibís|jugá|usá|pedí|pedila|pedile|contestá|"
    r"aceptá|corré|subí|subilo|elegí|descartá|robá|quedate|pasalas|rechazalas|dejá|dejala|dejalo|escribí|"
    r"escribilo|escribila|apretá|copiá|cantá|cantala|firmalo|probá|abrí|mirá|tomá|cortá|esperá|cerrá|pasá|jugala|"
    r"decí|poné|sacá|declará|empezá|indicá|revisá|apostá|repasá|conectate|guardala|repetilo|servilo|suscribite|"
    r"fijate|vení|andá|hacé|tocá|volvé|sentate)\b", re.IGNORECASE)
"""Voseo: the pronoun, and the forms of the verbs a card room asks for (Spanish speaks *tú* here)."""
PRESENT = re.compile(r"\b\w+(?:ás|és|ís)\b")
NOT_VOSEO = {"más", "después", "demás", "además", "atrás", "jamás", "quizás", "estás", "país", "inglés", "francés",
             "interés", "través", "detrás", "portugués", "cortés", "japonés"}
"""Words ending as a voseo present does (podés, tenés) that are not one."""


def test_spanish_speaks_tu_throughout() -> None:
    """The catalog and the rules pages address the reader as tú, never vos ("Podés contestar un
    Truco" beside "puedes gritar Truco")."""
    said = [(str(m.id), m.string if isinstance(m.string, str) else " ".join(m.string))
            for m in catalogs.read("es") if m.id]
    said += [(page.name, page.read_text(encoding="utf-8")) for page in (ROOT / "client" / "rules" / "es").glob("*.md")]
    found = [(where, m.group(0)) for where, text in said for m in VOSEO.finditer(text)]
    found += [(where, m.group(0)) for where, text in said for m in PRESENT.finditer(text)
              if m.group(0).lower() not in NOT_VOSEO]
    assert not found, found


def test_the_engine_knows_no_language() -> None:
    """The engine marks its refusals (a no-op ``N_`` of its own), never imports gettext or i18n."""
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if not any(word in text for word in ("gettext", "i18n", "babel")):
            continue  # an import of one names it: only the modules with the word are parsed
        tree = ast.parse(text)
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "gettext" or n.endswith("i18n") or n == "babel" for n in names), path


# -- refusals from a real server ------------------------------------------------------------------
def test_the_client_and_the_server_agree_on_the_metadata_key() -> None:
    assert PROBLEM_METADATA == wire.PROBLEM_METADATA


async def test_refusals_are_said_in_the_readers_language(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=0, password="segredo")
    conn = Connection.open(f"127.0.0.1:{server.port}")
    try:
        with pytest.raises(grpc.aio.AioRpcError) as wrong:
            await conn.join(table_id, "ana", "errada")
        err = wrong.value
        assert err.code() == grpc.StatusCode.PERMISSION_DENIED
        assert err.details() == "That table's password is wrong."  # old clients read the English
        problem = problem_of(err)
        assert problem == common_pb2.Problem(id="That table's password is wrong.")
        with speaking("pt_BR"):
            assert error_text(err) == "A senha dessa mesa está errada."
        with speaking("es"):
            assert error_text(err) == "La contraseña de esa mesa está mal."
        assert error_text(err) == "That table's password is wrong."

        ana = await conn.join(table_id, "ana", "segredo")
        with pytest.raises(grpc.aio.AioRpcError) as taken:
            await conn.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="bia", seat=ana.seat,
                                                                  password="segredo"))
        problem = problem_of(taken.value)
        assert problem is not None and problem.id == "Seat {seat} is taken." and dict(problem.args) == {"seat": "0"}
        with speaking("pt_BR"):
            assert error_text(taken.value) == "O lugar 0 está ocupado."

        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await conn.join("nope", "ana")
        with speaking("es"):
            assert error_text(missing.value) == "No existe la mesa 'nope'."
    finally:
        await conn.close()


async def test_an_engine_refusal_comes_as_an_id_with_arguments(server: Running) -> None:
    """The engine's IllegalAction carries its template and arguments; the server passes both on."""
    table_id = await create(server, game="cacho", seats=2, bots=0)
    conn = Connection.open(f"127.0.0.1:{server.port}")
    try:
        ana = await conn.join(table_id, "ana")
        await conn.join(table_id, "bia")
        await started(server, table_id)
        async def out_of_turn() -> grpc.aio.AioRpcError | None:  # whoever is on turn passes; then ana is out of it
            try:
                await conn.act(ana.token, common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS))
            except grpc.aio.AioRpcError as err:
                if "turn" in (err.details() or ""):
                    return err
            return None

        refused = await eventually_async(out_of_turn, "ana's pass refused as out of her turn")
        assert refused is not None and refused.code() == grpc.StatusCode.FAILED_PRECONDITION, refused
        problem = problem_of(refused)
        assert problem is not None and problem.id == "It is {name}'s turn, not yours."
        with speaking("pt_BR"):
            assert error_text(refused) == f"É a vez de {problem.args['name']}, não a sua."
        with speaking("es"):
            assert error_text(refused) == f"Le toca a {problem.args['name']}, no a ti."
    finally:
        await conn.close()


# -- the command line ---------------------------------------------------------------------------
def help_text(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(list(argv))
    return out.getvalue()


def test_help_in_each_language() -> None:
    pt = help_text("--lang", "pt_BR", "--help")
    assert pt.startswith("uso: cardtui") and "hospeda um servidor de mesas" in pt and "mostra esta ajuda e sai" in pt
    es = help_text("serve", "--help", "--lang=es")
    assert es.startswith("uso: cardtui serve") and "puerto donde escuchar" in es
    en = help_text("--lang", "en", "--help")
    assert en.startswith("usage: cardtui") and "host a table server" in en


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "identity"]) == 2
    assert "choose one of en, pt_BR, es" in capsys.readouterr().err


# -- the browser page -----------------------------------------------------------------------------
async def test_the_browser_page_speaks_the_browsers_language(server: Running) -> None:
    guests = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=0, total=8))
    await guests.start(open_socket("127.0.0.1", 0))
    try:
        base = f"http://127.0.0.1:{guests.port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/", headers={"Accept-Language": "fr-FR, pt-BR;q=0.8, en;q=0.5"}) as r:
                page = await r.text()
            assert '<html lang="pt-BR">' in page and "A sessão terminou." in page and "Abrir outra" in page
            async with http.get(f"{base}/", headers={"Accept-Language": "es-AR,es;q=0.9"}) as r:
                assert "abriendo una sala de mesas para ti" in await r.text()
            async with http.get(f"{base}/", headers={"Accept-Language": "de"}) as r:
                assert "The session ended." in await r.text()  # none of ours: the server's own, English here
            ws = await http.ws_connect(f"{base}/ws", headers={"Accept-Language": "es"})
            closed = await ws.receive()  # per_address=0: refused, in the browser's language
            assert closed.extra == "Esta dirección ya tiene 0 sesiones abiertas: cierra una para abrir otra."
    finally:
        await guests.stop()
    assert guests.refusal("10.0.0.1", "es") == (
        "Esta dirección ya tiene 0 sesiones abiertas: cierra una para abrir otra.")
    assert guests.refusal("10.0.0.1") == "This address already has 0 sessions open: close one to open another."
