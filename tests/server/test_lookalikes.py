"""One name, one person, in every alphabet and every case: players, teams and tables.

The sweep takes Unicode's whole confusables table (UTS #39, as ``confusable_homoglyphs`` ships
it), not a list of examples: for each owned name of a set of common Latin, Greek and Cyrillic
names, written as its owner might (as written, lower case, upper case), every substitution of
one of its characters by one the table says looks like it must be refused. It calls the one
function every name goes through (``names.read_name``) directly, so it takes well under a
second; the cases below it go over the wire to a real server.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest_asyncio
from confusable_homoglyphs.confusables import confusables_data
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.identity import create
from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.server.base.names import Name, read_name
from cardtui.server.base.text import BadText
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, players_pb2, tournament_pb2, tournament_pb2_grpc
from tests.conftest import create as create_table
from tests.server.test_identity import prove, refused
from tests.server.test_tournaments import request, sign_in

OWNED = (
    "Maria", "Ana", "José", "Paulo", "Lila", "Emma", "Olivia", "Lucas", "Sofía", "João", "Iván", "Bruno", "Kate",
    "Hannah", "Tomás", "Camila", "Diego", "Valentina", "Nicolás", "Beatriz", "William", "Pedro", "Luiz", "Yolanda",
    "Μαρία", "Νίκος", "Ελένη", "Γιώργος", "Κώστας", "Θανάσης", "Δημήτρης", "Σοφία", "Αθηνά", "Χρήστος",
    "Миша", "Иван", "Ольга", "Наташа", "Мария", "Катя", "Борис", "Таня", "Алексей", "Юлия", "Вера", "Олег",
)
"""Common first names of the three alphabets whose letters are most often mistaken for each other."""

APART = (
    ("Maria", "Mario"), ("Ana", "Ena"), ("lila", "lola"), ("Ivan", "Iván"), ("Paulo", "Pablo"), ("Marla", "Maria"),
    ("Emma", "Emmy"), ("ana", "anna"), ("José", "Josué"), ("Миша", "Маша"), ("Μαρία", "Μαρίνα"), ("Олег", "Олеся"),
    ("Luiz", "Luis"), ("bia", "bea"), ("Camila", "Camilo"), ("Nina", "Nino"),
)
"""Names that differ to the eye: none may be refused for looking like the other."""

_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def confusables() -> dict[str, set[str]]:
    """Each entry of the table and everything it is listed as looking like, both ways."""
    graph: dict[str, set[str]] = {}
    for char, glyphs in confusables_data.items():
        linked = {str(g["c"]).translate(_MARKS) for g in glyphs}
        graph.setdefault(char.translate(_MARKS), set()).update(linked)
        for other in linked:
            graph.setdefault(other, set()).add(char.translate(_MARKS))
    return graph


def substitutes(graph: dict[str, set[str]], char: str) -> set[str]:
    """What may stand for ``char``: what it is listed with, and what is listed with those (two
    characters that both look like one prototype look like each other)."""
    near = graph.get(char, set())
    return {far for other in near for far in graph.get(other, set())} | near - {char}


def refused_beside(owned: Name, typed: str) -> bool:
    """Whether ``typed`` is refused beside the owned name: no name at all, the same name, or one alike."""
    try:
        name = read_name(typed)
    except BadText:
        return True
    return name.key == owned.key or name.looks_like(owned)


def spellings() -> Iterator[tuple[str, str]]:
    """Each owned name as its owner might write it, and each one-character substitution of it."""
    graph = confusables()
    for written in OWNED:
        for owned in dict.fromkeys((written, written.lower(), written.upper())):
            for at, char in enumerate(owned):
                for other in sorted(substitutes(graph, char)):
                    yield owned, owned[:at] + other + owned[at + 1:]



def test_the_written_out_prototypes_are_the_installed_tables() -> None:
    """The server reads the prototypes from ``cardtui.server.base.prototypes``, written out from the package's table:
    they are the pairs the package gives now, whole (a package with a new table fails here until
    ``python -m tools.prototypes`` writes them again), and the written module is what that tool writes."""
    from cardtui.server.base.names import _prototypes, derive_prototypes
    from tools.prototypes import TARGET, written

    held = _prototypes()
    assert held == derive_prototypes(), "stale: run python -m tools.prototypes"
    assert len(held) > 6000 and held["\u0430"] == "a" and held["0"] == "O"
    assert TARGET.read_text(encoding="utf-8") == written()


def test_every_confusable_substitution_of_an_owned_name_is_refused() -> None:
    assert len(confusables()) > 9000, "the whole table, not a part of it"
    tried, passed = 0, []
    for owned, typed in spellings():
        tried += 1
        if not refused_beside(read_name(owned), typed):
            passed.append(f"{typed!r} beside {owned!r} ({', '.join(f'U+{ord(c):04X}' for c in typed)})")
    assert tried > 10_000, tried
    assert not passed, f"{len(passed)} of {tried} pass: {passed[:20]}"


@functools.cache
def small_capitals() -> dict[str, str]:
    """The Latin small capitals, by Unicode's names: ``ᴍ`` is an ``M`` drawn small. (Found when a test asks, not as
    the module is imported: every worker imports it to collect, and a walk over all of Unicode is not free.)"""
    return {chr(c): unicodedata.name(chr(c)) for c in range(0x110000)
            if unicodedata.name(chr(c), "").startswith(("LATIN LETTER SMALL CAPITAL ",
                                                         "LATIN CAPITAL LETTER SMALL CAPITAL "))}


def test_the_small_capitals_are_all_where_the_names_look_for_them() -> None:
    """Every character whose Unicode name says it is a small capital lies in the blocks the names read them from."""
    from cardtui.server.base.names import _SMALL_CAPITAL_BLOCKS

    everywhere = [c for c in range(0x110000) if "SMALL CAPITAL" in unicodedata.name(chr(c), "")]
    assert len(everywhere) > 50
    assert [hex(c) for c in everywhere if not any(a <= c < b for a, b in _SMALL_CAPITAL_BLOCKS)] == []


def test_a_small_capital_in_place_of_its_letter_in_an_owned_name_is_refused() -> None:
    """``ᴍike`` beside an owned ``mike``, ``ᴀnna`` beside ``anna``: each small capital of a plain letter, in place of
    that letter (either case) anywhere in an owned name, is the same name to the eye. (Most of them are not in
    ``confusables.txt``, or are mapped there to another small letter.)"""
    plain = {c: name.split("SMALL CAPITAL ")[1] for c, name in small_capitals().items()
             if len(name.split("SMALL CAPITAL ")[1]) == 1}
    assert len(plain) >= 24, sorted(plain)
    tried, passed = 0, []
    for small, letter in sorted(plain.items()):
        for owned in (f"{letter.lower()}ana", f"ana{letter.lower()}o", f"{letter}ara"):
            at = owned.lower().index(letter.lower())
            typed = owned[:at] + small + owned[at + 1:]
            tried += 1
            if not refused_beside(read_name(owned), typed):
                passed.append(f"{typed!r} beside {owned!r}")
    assert not passed, f"{len(passed)} of {tried} pass: {passed}"


@functools.cache
def invisible() -> list[str]:
    """Characters drawn as nothing: format and control characters, variation selectors, the grapheme
    joiner, Mongolian selectors, the Hangul fillers, a blank braille cell, Khmer and musical marks
    (found when the test asks, as ``small_capitals``)."""
    return sorted(
        {chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cf", "Cc")
         and not chr(c).isspace() and chr(c) not in "\x1b\x9b"}  # (spaces and escapes are made plain, visibly)
        | {chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x034F, 0x180B, 0x180C, 0x180D,
                            0x180F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x17B4, 0x17B5, 0x1D159, 0x1D173)})


def test_an_invisible_character_anywhere_in_an_owned_name_is_refused() -> None:
    passed, unseen = [], invisible()
    for owned in ("Maria", "Миша", "Νίκος", "lila"):
        name = read_name(owned)
        for at in range(len(owned) + 1):
            passed += [(owned, at, f"U+{ord(c):04X}") for c in unseen
                       if not refused_beside(name, owned[:at] + c + owned[at:])]
    assert len(unseen) > 400
    assert not passed, passed[:20]


@settings(max_examples=300, deadline=None, database=None)
@given(st.data())
def test_many_substitutions_at_once_and_in_any_case_are_refused(data: st.DataObject) -> None:
    graph = confusables()
    written = data.draw(st.sampled_from(OWNED), label="owned")
    owned = data.draw(st.sampled_from((written, written.lower(), written.upper(), written.title())), label="as")
    typed = "".join(data.draw(st.sampled_from(sorted(substitutes(graph, c) | {c})), label=f"for {c}") for c in owned)
    assert refused_beside(read_name(owned), typed), (owned, typed)


def test_names_that_differ_to_the_eye_are_told_apart() -> None:
    for one, other in APART:
        assert not refused_beside(read_name(one), other), (one, other)
        assert not refused_beside(read_name(other), one), (other, one)


# -- over the wire --------------------------------------------------------------------------

LOOKALIKES = {
    # Capitals of Cyrillic and Greek whose small letters look like no Latin one (М Н В Т К, Μ Η Β Τ Κ Ν).
    "\u041caria": "Maria", "\u041danna": "Hanna", "\u0412runo": "Bruno", "\u0422omás": "Tomás", "\u041aate": "Kate",
    "\u039caria": "Maria", "\u0397anna": "Hanna", "\u0392runo": "Bruno", "\u03a4omás": "Tomás", "\u039aate": "Kate",
    "\u039dina": "Nina",
    "paul0": "paulo", "Iila": "lila", "li\u0307la": "lila", "M\u0438\u0448\u0430": "\u041c\u0438\u0448\u0430",
    "MARlA": "Maria",
}
"""What an outsider sat under beside owned names, and whose it looks like."""


@pytest_asyncio.fixture
async def roomy(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(tables_per_minute=1e9))
    try:
        yield running
    finally:
        await running.stop(grace=0.1)


async def test_a_look_alike_of_an_owned_name_is_refused_to_a_guest_and_to_another_key(
    roomy: Running, tmp_path: Path
) -> None:
    mallory = create(tmp_path / "mallory.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{roomy.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        for n, owner in enumerate(sorted(set(LOOKALIKES.values()))):
            await prove(lobby, create(tmp_path / f"owner{n}.pem"), owner)
        table_id = await create_table(roomy, game="pifpaf", seats=8, bots=0)
        for typed, owner in LOOKALIKES.items():
            expected = f"That name looks like {owner!r}, which belongs to another player."
            said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=typed)))
            assert said == expected, (typed, said)
            said = await refused(lobby.Hello(players_pb2.HelloRequest(name=typed, public_key=mallory.public_key)))
            assert said == expected, (typed, said)
        # A bot's name, in any case or with a zero for its o, is nobody's.
        for typed in ("b0t 7", "BOT", "Bot (easy)"):
            for call in (lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=typed)),
                         lobby.Hello(players_pb2.HelloRequest(name=typed, public_key=mallory.public_key))):
                said = await refused(call, grpc.StatusCode.INVALID_ARGUMENT)
                assert said == "Names starting with 'bot' are the bots'; choose another name.", (typed, said)
        # Names that only resemble an owned one in the letters they share are anyone's.
        for name in ("Mario", "Marla", "Nino", "Pablo", "lola", "Маша"):
            joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name))
            assert joined.token, name


async def test_a_team_is_one_team_however_its_name_is_spelled_and_never_another_players_name(
    roomy: Running,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{roomy.port}") as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        ana, bia, carl, dora, eva, mallory = [await sign_in(lobby, n) for n in
                                              ("ana", "bia", "carl", "dora", "eva", "mallory")]
        created = await stub.CreateTournament(request(game="truco_paulista", rounds=1, table_size=4, max_entries=4))
        tid = created.tournament.id

        def register(who: players_pb2.ProveResponse, team: str) -> object:
            return stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=who.session, team=team))

        # Another player's name, or one drawn like it, or a bot's: no team goes by it.
        said = await refused(register(mallory, "ana"))
        assert said == "The name 'ana' belongs to another player on this server; choose another name.", said
        said = await refused(register(mallory, "\u0430na"))
        assert said == "That name looks like 'ana', which belongs to another player.", said
        said = await refused(register(mallory, "BOT 1"), grpc.StatusCode.INVALID_ARGUMENT)
        assert said == "Names starting with 'bot' are the bots'; choose another name.", said
        said = await refused(register(mallory, "Rio\u200b"), grpc.StatusCode.INVALID_ARGUMENT)
        assert said == ("A name cannot hold U+200B ZERO WIDTH SPACE; use letters, digits and the punctuation on a "
                        "keyboard."), said
        # Typed precomposed or decomposed, with a Cyrillic А, in fullwidth letters or capitals: one team.
        await register(ana, "Jos\u00e9e")
        await register(bia, "Jose\u0301e")
        await register(carl, "Ases")
        await register(dora, "\u0410ses")
        for team, shown in (("\uff21\uff53\uff45\uff53", "Ases"), ("JOSÉE", "Josée")):
            said = await refused(register(eva, team), grpc.StatusCode.FAILED_PRECONDITION)
            assert said == f"The team {shown!r} is complete.", said
        got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
        assert [(e.team, list(e.names)) for e in got.entries] == [("Josée", ["ana", "bia"]), ("Ases", ["carl", "dora"])]

        # In a game of one against one an entry is its player: no team's name to pass for another.
        single = (await stub.CreateTournament(request(game="cacho", rounds=1, table_size=2, max_entries=4))).tournament
        said = await refused(stub.Register(tournament_pb2.RegisterRequest(tournament_id=single.id,
                                                                          session=mallory.session, team="ana")),
                             grpc.StatusCode.INVALID_ARGUMENT)
        assert said == "At Cacho each entry is one player, under their own name: leave the team's name out.", said
        for who, team in ((mallory, ""), (eva, "EVA")):
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=single.id, session=who.session, team=team))
        got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=single.id))
        assert [(e.team, list(e.names)) for e in got.entries] == [("mallory", ["mallory"]), ("eva", ["eva"])]


async def test_a_table_or_tournament_name_is_read_as_every_name_is(roomy: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{roomy.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        for name, char in (("Mesa\u00adda Ana", "U+00AD SOFT HYPHEN"), ("Mesa\u200bda Ana", "U+200B ZERO WIDTH SPACE"),
                           ("Mesa \u202eanA", "U+202E RIGHT-TO-LEFT OVERRIDE")):
            sentence = f"A name cannot hold {char}; use letters, digits and the punctuation on a keyboard."
            said = await refused(lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, name=name)),
                                 grpc.StatusCode.INVALID_ARGUMENT)
            assert said == sentence, said
            said = await refused(stub.CreateTournament(request(game="cacho", table_size=2, name=name)),
                                 grpc.StatusCode.INVALID_ARGUMENT)
            assert said == sentence, said
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, name="  Mesa  da Zé "))
        assert created.table.name == "Mesa da Zé", "shown as typed, its spaces folded"
        # A round's table is named after its tournament by the server, cut with … when long: not refused.
        made = await stub.CreateTournament(request(game="cacho", table_size=2, max_entries=2, rounds=1,
                                                   bots_fill=True, name="Campeonato de Cacho Gran"))
        state = await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=made.tournament.id,
                                                                       owner_token=made.owner_token))
        [table] = state.tables
        stored = roomy.store.tables.table_config(table.table_id)
        assert stored is not None and stored[0]["name"] == "Campeonato de Cacho… 1.1", stored
