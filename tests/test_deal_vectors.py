"""The published test vectors of the deal scheme (docs/deal-vectors.json) hold for this code.

A change to a deal, to the stream, to the packs or to the chain's serialisation breaks one of
these; so does a change to the vectors file. Each game's dealing rule is also written once more, from
docs/deal.md §10 alone, in its own test module (``GameTests.deal``; the rummy games' shared one in
``tests/deal_rules.py``), and must give the vectors' deals from their packs: the document cannot go stale
unnoticed either.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardtui.engine.core import Game
from cardtui.engine.fairness import GENESIS, canonical, hand_hash, verify
from cardtui.engine.games import GAMES
from cardtui.fair import (
    LINK_TAG,
    PACKS,
    SCHEME,
    SCHEMES,
    Chain,
    DealSeed,
    FairRandom,
    commitment,
    sample_positions,
    shuffled,
    stream_block,
)
from tests.per_game import declared

DOCS = Path(__file__).resolve().parent.parent / "docs"
VECTORS = json.loads((DOCS / "deal-vectors.json").read_text(encoding="utf-8"))
SECOND = VECTORS["cardtui-deal/2"]
"""The second version's vectors (§3a): the same hands dealt from links of pledged chains."""
DEALS = [*VECTORS["deals"], *SECOND["deals"]]
STREAMS = [*VECTORS["streams"], *SECOND["streams"]]


def named(vector: dict[str, Any]) -> str:
    """A vector's test id: its scheme and its title (or table)."""
    fair = vector["history"]["fair"] if "history" in vector else vector["seed"]
    return f"{fair['scheme'][-1]}: {vector.get('title') or fair['table']}"


def pack_of(vector: dict[str, Any]) -> tuple[str, ...]:
    """The pack a vector's hand was dealt from (docs/deal.md §2): the vector names it (the second version's do), else
    its game's, by the table's options."""
    return PACKS[vector.get("pack") or GAMES[vector["game"]].pack(vector["history"]["options"])]


def seed_of(vector: dict[str, Any]) -> DealSeed:
    return DealSeed.from_record(vector["history"]["fair"] if "history" in vector else vector["seed"])


def test_the_file_names_the_scheme() -> None:
    assert VECTORS["scheme"] == SCHEMES[0] and VECTORS["genesis"] == GENESIS
    assert SECOND["scheme"] == SCHEME == SCHEMES[1] and bytes.fromhex(SECOND["link_tag"]) == LINK_TAG == \
        b"cardtui-deal/2 link\x00", "the link tag: its 20 bytes in hex, as every byte string in the file"
    for section in (VECTORS, SECOND):
        assert {d["history"]["fair"]["scheme"] for d in section["deals"]} == {section["scheme"]}
    assert {d["game"] for d in SECOND["deals"]} == set(GAMES), "a vector of every game, under the scheme of now"
    assert {d["game"] for d in VECTORS["deals"]} <= set(GAMES), "the first version's, as published"


@pytest.mark.parametrize("vector", SECOND["chains"], ids=lambda v: v["pledge"][:8])
def test_a_chain(vector: dict[str, Any]) -> None:
    """§3a: from its top, each link is SHA-256 of the tag and the link after it; the pledge is the first."""
    links = [bytes.fromhex(x) for x in vector["links"]]
    assert len(links) == vector["length"] + 1
    assert links[-1].hex() == vector["top"] and links[0].hex() == vector["pledge"]
    assert all(hashlib.sha256(LINK_TAG + links[i + 1]).digest() == links[i] for i in range(len(links) - 1))
    assert Chain.make(links[-1], length=vector["length"]).links == tuple(links)


@pytest.mark.parametrize("vector", SECOND["deals"], ids=named)
def test_every_seed_of_a_second_version_deal_follows_its_pledge(vector: dict[str, Any]) -> None:
    seed = seed_of(vector)
    assert seed.scheme == SCHEME and seed.unfollowed() == [] and seed.withheld() == []
    assert {s for s, _ in seed.pledges} == {s for s, _ in seed.player_seeds}


@pytest.mark.parametrize("vector", STREAMS, ids=named)
def test_stream(vector: dict[str, Any]) -> None:
    seed = DealSeed.from_record(vector["seed"])
    assert vector["seed"]["commitment"] == commitment(seed.server_seed) == seed.commitment
    assert seed.as_record() == vector["seed"]
    assert seed.message().hex() == vector["message"]
    assert [stream_block(seed, i).hex() for i in range(len(vector["blocks"]))] == vector["blocks"]
    rng = FairRandom(seed)
    assert [[k, str(rng.getrandbits(k))] for k, _ in vector["getrandbits"]] == vector["getrandbits"]


def test_every_number_in_the_vectors_reads_the_same_as_a_double() -> None:
    """A reader whose JSON numbers are doubles (JavaScript's JSON.parse) reads every number of the
    file exactly: a value that may need more bits (bits(k) up to 256) is written as a string."""
    def numbers(value: Any) -> list[int | float]:
        if isinstance(value, dict):
            return [n for v in value.values() for n in numbers(v)]
        if isinstance(value, list):
            return [n for v in value for n in numbers(v)]
        return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []

    found = numbers(VECTORS)
    assert found and [n for n in found if isinstance(n, int) and abs(n) > 2**53] == []
    assert max(int(v) for s in VECTORS["streams"] for _, v in s["getrandbits"]).bit_length() > 200


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_packs_come_from_the_stream(vector: dict[str, Any]) -> None:
    seed = seed_of(vector)
    rng = FairRandom(seed)
    if vector["game"] == "truco_argentino":
        pack = pack_of(vector)
        positions = sample_positions(rng, len(pack), 3 * len(vector["history"]["seats"]))
        assert positions == vector["positions"] and [pack[p] for p in positions] == vector["drawn"]
        return
    assert [shuffled(pack_of(vector), rng) for _ in vector["packs"]] == vector["packs"]


def test_the_step_by_step_draws_of_a_shuffle() -> None:
    """§6–§7 by hand: each place from the last down swaps with the first draw below it + 1."""
    vector = DEALS[0]
    pack = list(pack_of(vector))
    rng = FairRandom(seed_of(vector))
    for step in vector["draws"]:
        i, bits = step["i"], step["bits"]
        assert bits == (i + 1).bit_length()
        assert [rng.getrandbits(bits) for _ in step["drawn"]] == step["drawn"]
        assert all(d > i for d in step["drawn"][:-1]) and step["drawn"][-1] == step["j"] <= i
        pack[i], pack[step["j"]] = pack[step["j"]], pack[i]
    assert pack == vector["packs"][0]


@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_the_engine_replays_each_hand_to_the_same_deal_and_result(vector: dict[str, Any]) -> None:
    [check] = verify([vector["history"]], GAMES)
    assert check.ok and not check.unlinked, check.line()


@pytest.mark.parametrize("vector", [d for d in DEALS if "stock" in d], ids=named)
def test_the_rummy_stock_left_after_the_deal(vector: dict[str, Any]) -> None:
    record = vector["history"]
    game = GAMES[record["game"]]
    assert isinstance(game, Game)
    state, _ = game.resume(game.options(record["options"]), game.seat_infos([s["name"] for s in record["seats"]]),
                           [record["start"][str(s)] for s in range(len(record["seats"]))], record["dealer"],
                           record["hand"], seed_of(vector))
    assert [str(c) for c in reversed(state.stock)] == vector["stock"]


@pytest.mark.parametrize("vector", [d for d in DEALS if "blocks" in d], ids=named)
def test_the_paulista_blocks(vector: dict[str, Any]) -> None:
    from tools.vectors_truco_paulista import paulista_blocks

    assert paulista_blocks(vector["history"]) == vector["blocks"]


def test_the_generator_writes_the_published_file_whatever_the_bots_choose(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m tools.deal_vectors`` gives the file byte for byte, with every bot silenced: each published hand
    is played again by its own actions, and its cards drawn, events, results, packs, stocks, blocks and verify
    lines are made anew; a rule, a deal or the generator that changed shows here, a bot that changed cannot."""
    from cardtui.engine.core import Bound
    from tools.deal_vectors import pretty, vectors

    def no_bot(*_: Any) -> Any:
        raise AssertionError("a published vector asked a bot for its move")

    monkeypatch.setattr(Bound, "bot_action", no_bot)
    written = pretty(vectors()) + "\n"
    published = (DOCS / "deal-vectors.json").read_text(encoding="utf-8")
    assert written == published, "the vectors file is not what the generator writes (docs/deal.md §14: a deal " \
        "that changed is a new scheme, never an edit of the file)"


# -- the dealing rules of docs/deal.md §10, written again from the document in each game's own tests ----------
@pytest.mark.parametrize("vector", DEALS, ids=named)
def test_the_document_s_dealing_rules_give_each_vector_s_deal(vector: dict[str, Any]) -> None:
    rule = declared()[vector["game"]].deal
    assert rule is not None, f"{vector['game']} declares no deal rule (GameTests.deal)"
    assert rule(vector) == vector["history"]["deal"]


# -- the chain (§13) -------------------------------------------------------------------------
def test_the_chain() -> None:
    chain = VECTORS["chain"]
    assert "João Ñandú" in [s["name"] for s in chain[0]["history"]["seats"]]
    assert canonical(chain[0]["history"]).decode() == chain[0]["canonical"]
    previous = GENESIS
    for link in chain:
        record = link["history"]
        assert record["prev"] == previous
        assert hand_hash(record) == link["hash"]
        previous = link["hash"]
    checks = verify([link["history"] for link in chain], GAMES)
    assert all(c.ok for c in checks), [c.line() for c in checks]
    # Hand 2 waited for the history's seat 1 (the players' seat 2) and dealt without its seed: flagged,
    # not failed. In every hand two people sat without a seed in the deal: none of them is ✔.
    assert [c.dropped for c in checks] == [(), ('seat 2 Ana "la Tía"',), ()]
    assert not any(c.full for c in checks)
    assert checks[1].line().endswith('(seeds used: seat 1 João Ñandú, seat 4 李雷; seated, not in it: seat 2 Ana'
                                     ' "la Tía", seat 3 Zé \\o/)')
    assert ": ○ commitment, deal and chain check, but not every seated player's seed is in it" in checks[0].line()


def test_every_value_the_document_quotes_is_in_the_vectors() -> None:
    """deal.md quotes the vectors (hex, hashes, packs): each quoted value must be there."""
    text = (DOCS / "deal.md").read_text(encoding="utf-8")
    # the sealed part (§S1–§S10) quotes its own vectors, the group's constants among them
    data = "".join((DOCS / name).read_text(encoding="utf-8") for name in ("deal-vectors.json", "sealed-vectors.json"))
    hexes = set(re.findall(r"\b[0-9a-f]{32,}\b", text))
    assert hexes, "deal.md quotes no vector"
    assert {h for h in hexes if h not in data} == set()
    packs = re.findall(r"^(?:pack|deck|drawn)(?: \d)?: (.+)$", text, flags=re.M)
    assert packs, "deal.md quotes no pack"
    quoted = {" ".join(p) for d in DEALS for p in d.get("packs", [])} | {" ".join(d.get("drawn", [])) for d in DEALS}
    assert [p for p in packs if p.strip() not in quoted] == []


def test_a_history_that_names_an_option_value_as_it_was_once_named_still_checks_out() -> None:
    """Truco argentino's ``ties`` values were renamed (``seed`` → ``play_on``, ``traditional`` →
    ``first_trick``); a history exported before that must verify as it did."""
    vector = next(v for v in DEALS if v["game"] == "truco_argentino")
    for old in ("seed", "traditional"):
        record = json.loads(json.dumps(vector["history"]))
        record["options"]["ties"] = old
        [check] = verify([record], GAMES)
        assert check.ok, check.line()
    record["options"]["target"] = 17  # not a value the game knows: still refused
    [check] = verify([record], GAMES)
    assert not check.ok


def test_the_number_rule_of_section_13_decides_how_a_fraction_is_hashed() -> None:
    """deal.md §13: a number with a fraction or an exponent is written back as the shortest
    decimal that reads as the same double, whatever text the line held (``0.250`` is ``0.25``)."""
    said = {"0.250": "0.25", "2.5e-1": "0.25", "0.25": "0.25", "1.0": "1.0", "0.0": "0.0", "0.1": "0.1",
            "0.00001": "1e-05", "15000000000000000.0": "1.5e+16", "7": "7", "-3": "-3"}
    for text, canon in said.items():
        assert canonical(json.loads(f'{{"signals_seen": {text}}}')) == f'{{"signals_seen":{canon}}}'.encode(), text
    text = (DOCS / "deal.md").read_text(encoding="utf-8")
    assert "`0.250` and `2.5e-1` are both\n  written `0.25`" in text


def test_section_14_quotes_the_first_step_of_the_draws_as_the_vectors_hold_it() -> None:
    text = (DOCS / "deal.md").read_text(encoding="utf-8")
    quoted = re.search(r'The first step is `(\{"i": .*?\})`', text)
    assert quoted is not None
    assert json.loads(quoted.group(1)) == DEALS[0]["draws"][0]
    assert [step["i"] for step in DEALS[0]["draws"]] == list(range(len(DEALS[0]["packs"][0]) - 1, 0, -1))
    blocks = [d["blocks"] for d in DEALS if "blocks" in d]
    assert blocks and all(set(b) == {"to", "cards"} and len(b["cards"]) == 3 for bs in blocks for b in bs)


ACCOUNTING = SECOND["accounting"]
"""§12's accounting: a seat gone, a void line, a dealer fixed by the commitment, a swap."""


@pytest.mark.parametrize("vector", ACCOUNTING, ids=[v["title"][:40] for v in ACCOUNTING])
def test_each_accounting_vector_verifies_as_it_says(vector: dict[str, Any]) -> None:
    assert [c.line() for c in verify(vector["lines"], GAMES)] == vector["verify"]
    for line in vector["lines"]:
        fair = line["fair"]
        assert hashlib.sha256(bytes.fromhex(fair["server_seed"])).hexdigest() == fair["commitment"]
        assert not set(map(str, line.get("gone", ()))) & set(fair["player_seeds"]), "a gone seat has no seed"
        assert set(map(str, line.get("gone", ()))) <= set(fair["pledges"]), "a gone seat is pledged"
    committed = vector.get("commitment")
    if committed is not None:
        [line] = vector["lines"]
        assert committed["commitment"] == line["fair"]["commitment"]
        if "dealer" in committed:  # the dealer the commitment fixed deals the hand
            assert line["dealer"] == committed["dealer"]
        order = committed.get("seats_from", list(range(len(line["seats"]))))
        # pledges are named at the commitment by the seats then; the history keys them by the seats now
        assert line["fair"]["pledges"] == {str(new): committed["pledges"][str(old)] for new, old in enumerate(order)
                                           if str(old) in committed["pledges"]}
    if any("void" in line for line in vector["lines"]):
        assert any("✘ a commitment that dealt no hand" in said for said in vector["verify"])
