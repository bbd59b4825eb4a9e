"""Deals anyone can verify (issue 14): the deal stream, the histories it leaves, and ``verify``.

Everything here is deterministic: server seeds come from seeded generators, so a failure
repeats. The 1,000-hand runs play Cacho and both trucos with the bots; Pif Paf and Cacheta
are played by a quick player that reads the state (the bots' meld search would take minutes
for 1,000 rummy hands); the bots' own fair rummy hands are verified on a smaller count.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import math
import os
import pickle
import random
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.engine.betting import CALL, CHECK, FOLD
from cardtui.engine.cards import french_deck, shuffled, spanish_deck
from cardtui.engine.core import Action
from cardtui.engine.fairness import (
    GENESIS,
    DealSeed,
    FairRandom,
    chain_link,
    commitment,
    hand_hash,
    hand_rng,
    linked,
    record_seed,
    stream_block,
    verify,
)
from cardtui.engine.games import GAMES
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PASS, PILE, STOCK, Phase
from cardtui.fair import LINK_TAG, SCHEME, SCHEMES, Chain, before
from cardtui.sim import sim_deal_seed, simulate
from tests.engine.rummy_helpers import near_sets

pytestmark = pytest.mark.xdist_group("fairness-chains")
"""The module's tests run in one test process, which plays each game's short chain of hands with bots once
(``chain``) for all the tampering tests: spread over the workers, each played them all again, some 4 s of CPU a
worker."""

REGISTRY = GAMES

CASES = [
    ("cacho", 4, {}),
    ("pifpaf", 4, {}),
    ("cacheta", 4, {}),
    ("truco_paulista", 4, {}),
    ("truco_argentino", 6, {"pica_pica": True}),
]
RUMMY = {"pifpaf", "cacheta"}


# -- playing fair hands -----------------------------------------------------------------
def _together(a: Any, b: Any) -> bool:
    """Two cards a meld could hold together (ace next to king too)."""
    if a.rank == b.rank:
        return a.suit is not b.suit
    return a.suit is b.suit and (0 < abs(a.rank - b.rank) <= 2 or {a.rank, b.rank} <= {1, 12, 13})


NEAR = near_sets(_together)
"""The cards each card could meld with."""


def quick_rummy(game: Any, state: Any, seat: int, rng: random.Random, stuck: bool = False) -> Action:
    """A cheap rummy player with the whole state in view: knocks when it can, claims a
    likely discard, keeps cards that sit near others (any card when ``stuck``, to break a
    cycle of the unshuffled restock). Legal by construction."""
    if state.phase is Phase.BETTING:
        kinds = {a.type: a for a in state.betting.legal(seat)}
        if CHECK in kinds:
            return kinds[CHECK]
        return kinds[CALL] if CALL in kinds and rng.random() < 0.85 else kinds[FOLD]
    hand = state.hands[seat]
    if state.phase is Phase.CLAIM:
        card = state.window.card
        near = NEAR[card]
        likely = sum(c in near or card == c for c in hand) >= 2
        claim = Action(game.claim_type)
        return claim if likely and game.refusal(state, seat, claim) is None else Action(PASS)
    if state.phase is Phase.KNOCK:
        k = game.knocks(state, seat)[0]
        return Action(KNOCK, cards=() if k.discard is None else (k.discard,))
    if state.phase is not Phase.DRAW and state.phase is not Phase.DISCARD:
        return game.default_action(state, seat)
    if state.phase is Phase.DRAW:
        top = state.pile[-1] if state.pile else None
        stock = bool(state.stock) or len(state.pile) > 1
        take = top is not None and (not stock or len([c for c in hand if c in NEAR[top]]) >= 2)
        return Action(DRAW, value=PILE if take else STOCK)
    wilds = getattr(state, "wilds", ())
    natural = [c for c in hand if c not in wilds]
    partners = [len([d for d in natural if d in NEAR[c]]) for c in natural]
    # In a hand that goes out, every melded card has two near partners (one and a wild): search only then.
    needed = 1 if len(natural) < len(hand) else 2
    knocks = game.knocks(state, seat) if sum(p < needed for p in partners) <= 1 else []
    if knocks:
        k = next((k for k in knocks if k.discard is None), knocks[0])
        return Action(KNOCK, cards=() if k.discard is None else (k.discard,))
    if not natural:
        return Action(DISCARD, cards=(hand[0],))
    if stuck:
        return Action(DISCARD, cards=(rng.choice(natural),))
    fewest = min(partners)
    return Action(DISCARD, cards=(rng.choice([c for c, p in zip(natural, partners, strict=True) if p == fewest]),))


def quick_fair_hands(name: str, players: int, hands: int, seed: int, table: str) -> list[dict[str, Any]]:
    """``hands`` fair rummy hands, chained, as a server would store them."""
    game = REGISTRY[name]
    opts = game.options({})
    seats = game.seat_infos([f"p{i}" for i in range(players)])
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    previous = None
    state, _ = game.start(opts, seats, sim_deal_seed(rng, table, 1, players))
    moves = 0
    while len(out) < hands:
        if game.hand_over(state):
            record = previous = linked(dict(game.history(state), table=table, hand=len(out) + 1), previous)
            out.append(record)
            moves = 0
            deal = sim_deal_seed(rng, table, len(out) + 1, players)
            if game.match_over(state):
                state, _ = game.start(opts, seats, deal)
            else:
                game.next_hand(state, deal)
            continue
        seat = game.to_act(state)[0]
        game.apply(state, seat, quick_rummy(game, state, seat, rng, stuck=moves > 400))
        moves += 1
        assert moves < 5000, "a quick rummy hand should not go on forever"
    return out


def fair_hands(name: str, players: int, options: dict[str, Any], hands: int, seed: int,
               table: str = "t") -> list[dict[str, Any]]:
    if name in RUMMY and hands > 50:
        return quick_fair_hands(name, players, hands, seed, table)
    records: list[dict[str, Any]] = []
    simulate(name, players, hands, seed, options, on_hand=records.append, fair=True, table=table)
    return records


def failures(checks: list[Any]) -> list[str]:
    return [c.line() for c in checks if not c.ok]


# -- 1,000 hands of every game (FAIR_HANDS for another count) ------------------------------
FAIR_HANDS = int(os.environ.get("FAIR_HANDS", "1000"))


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=[c[0] for c in CASES])
def test_a_thousand_fair_hands_of_every_game_verify(name: str, players: int, options: dict[str, Any]) -> None:
    records = fair_hands(name, players, options, FAIR_HANDS, seed=14, table=f"t-{name}")
    checks = verify(records, REGISTRY)
    assert len(checks) == FAIR_HANDS
    assert failures(checks) == []
    assert all(c.fair and c.ok for c in checks)
    # Every hand has its own server seed, and the chain runs from the genesis value.
    assert len({r["fair"]["commitment"] for r in records}) == FAIR_HANDS
    assert records[0]["prev"] == GENESIS
    assert all(b["prev"] == hand_hash(a) for a, b in itertools.pairwise(records))
    assert [r["hand"] for r in records] == list(range(1, FAIR_HANDS + 1))
    # Hands with no player's seed and with several, and the deal really is the stream's.
    counts = {len(r["fair"]["player_seeds"]) for r in records}
    assert {0, 1, 2, 3} <= counts
    assert all(r["seed"] == 0 for r in records)
    if name == "truco_argentino":
        assert any(r.get("pica_pica") for r in records), "pica-pica hands are verified too"
    if name in RUMMY:
        assert sum(1 for r in records if r["result"].get("knock")) > FAIR_HANDS // 2


@pytest.mark.parametrize("name", sorted(RUMMY))
def test_the_bots_fair_rummy_hands_verify(name: str) -> None:
    records = fair_hands(name, 4, {}, 12, seed=3)
    assert failures(verify(records, REGISTRY)) == []


# -- tampering ------------------------------------------------------------------------------
CHAINS: dict[str, list[dict[str, Any]]] = {}


def chain(name: str) -> list[dict[str, Any]]:
    """A short chain of fair hands per game (bots), built once; every hand has player seeds."""
    if name not in CHAINS:
        players, options = next((p, o) for n, p, o in CASES if n == name)
        records = fair_hands(name, players, options, 8, seed=21)
        assert failures(verify(records, REGISTRY)) == []
        CHAINS[name] = records
    return CHAINS[name]


def perturb(value: Any, data: st.DataObject) -> Any:
    """The same JSON value with one leaf changed (hypothesis picks which)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + data.draw(st.sampled_from([-1, 1, 2]))
    if isinstance(value, float):
        return value + data.draw(st.sampled_from([-0.5, 0.25, 1.0]))
    if isinstance(value, str):
        return value + "x" if not value else value[:-1] + ("0" if value[-1] != "0" else "1")
    if value is None:
        return 0
    if isinstance(value, list):
        if not value:
            return [0]
        i = data.draw(st.integers(0, len(value) - 1))
        return [*value[:i], perturb(value[i], data), *value[i + 1:]]
    if isinstance(value, dict):
        if not value:
            return {"0": 0}
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: perturb(value[key], data)}
    raise AssertionError(f"unexpected value {value!r}")


def flip_hex(text: str, data: st.DataObject) -> str:
    i = data.draw(st.integers(0, len(text) - 1))
    return text[:i] + format(int(text[i], 16) ^ data.draw(st.integers(1, 15)), "x") + text[i + 1:]


def other_card(card: str, pool: list[str], data: st.DataObject) -> str:
    return data.draw(st.sampled_from(sorted(set(pool) - {card})))


def tamper_player_seed(r: dict[str, Any], data: st.DataObject) -> None:
    seeds = r["fair"]["player_seeds"]
    how = data.draw(st.sampled_from(["change", "drop", "add"] if seeds else ["add"]))
    if how == "add":
        free = [str(s["seat"]) for s in r["seats"] if str(s["seat"]) not in seeds]
        seat = data.draw(st.sampled_from(free or sorted(seeds)))
        seeds[seat] = hashlib.sha256(b"extra").hexdigest()
    else:
        seat = data.draw(st.sampled_from(sorted(seeds)))
        if how == "drop":
            del seeds[seat]
        else:
            seeds[seat] = flip_hex(seeds[seat], data)


def tamper_server_seed(r: dict[str, Any], data: st.DataObject) -> None:
    r["fair"]["server_seed"] = flip_hex(r["fair"]["server_seed"], data)


def tamper_reseed(r: dict[str, Any], data: st.DataObject) -> None:
    """Another server seed with its own, matching commitment: the host deals another deck."""
    seed = hashlib.sha256(data.draw(st.binary(min_size=1, max_size=8))).digest()
    r["fair"]["server_seed"] = seed.hex()
    r["fair"]["commitment"] = commitment(seed)


def tamper_commitment(r: dict[str, Any], data: st.DataObject) -> None:
    r["fair"]["commitment"] = flip_hex(r["fair"]["commitment"], data)


def tamper_card(r: dict[str, Any], data: st.DataObject) -> None:
    seat = data.draw(st.sampled_from(sorted(s for s, cards in r["deal"].items() if cards)))
    cards = r["deal"][seat]
    i = data.draw(st.integers(0, len(cards) - 1))
    pool = [c for chain_record in CHAINS[r["game"]] for cs in chain_record["deal"].values() for c in cs]
    cards[i] = other_card(cards[i], pool, data)


def tamper_result(r: dict[str, Any], data: st.DataObject) -> None:
    r["result"] = perturb(r["result"], data)


def tamper_action(r: dict[str, Any], data: st.DataObject) -> None:
    acts = r["actions"]
    how = data.draw(st.sampled_from(["change", "drop", "swap"] if len(acts) > 1 else ["change"]))
    i = data.draw(st.integers(0, len(acts) - 1))
    if how == "drop":
        del acts[i]
    elif how == "swap":
        j = (i + 1) % len(acts)
        acts[i], acts[j] = acts[j], acts[i]
    else:
        acts[i] = perturb(acts[i], data)


def tamper_anything(r: dict[str, Any], data: st.DataObject) -> None:
    """Any key of the record at all: names, options, chips at the start, the link itself."""
    key = data.draw(st.sampled_from(sorted(r)))
    r[key] = perturb(r[key], data)


TAMPERS: dict[str, Callable[[dict[str, Any], st.DataObject], None]] = {
    "player_seed": tamper_player_seed,
    "server_seed": tamper_server_seed,
    "reseed": tamper_reseed,
    "commitment": tamper_commitment,
    "card": tamper_card,
    "result": tamper_result,
    "action": tamper_action,
    "anything": tamper_anything,
}
CAUGHT_IN_THE_LAST_HAND = ["player_seed", "server_seed", "reseed", "commitment", "card", "result"]
"""What a hand's own checks catch; anything else in the newest hand waits for the next link."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from([c[0] for c in CASES]), kind=st.sampled_from(sorted(TAMPERS)), data=st.data())
def test_altering_any_hand_before_the_last_is_caught(name: str, kind: str, data: st.DataObject) -> None:
    records = copy.deepcopy(chain(name))
    i = data.draw(st.integers(0, len(records) - 2), label="hand")
    TAMPERS[kind](records[i], data)
    assert records[i] != chain(name)[i]
    checks = verify(records[: i + 2], REGISTRY)  # the hands after the next one are not at stake
    bad = [n for n, c in enumerate(checks) if not c.ok]
    assert bad and bad[0] in (i, i + 1)
    # The next hand's link no longer matches, whatever was changed (or, with the table's id
    # changed, the next hand has lost its predecessor, and says so).
    assert any("chain link" in p for p in checks[i + 1].problems) or checks[i + 1].unlinked


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from([c[0] for c in CASES]), kind=st.sampled_from(CAUGHT_IN_THE_LAST_HAND),
       data=st.data())
def test_altering_seeds_cards_or_result_is_caught_by_the_hand_itself(name: str, kind: str,
                                                                     data: st.DataObject) -> None:
    records = copy.deepcopy(chain(name))
    i = data.draw(st.integers(0, len(records) - 1), label="hand")
    TAMPERS[kind](records[i], data)
    checks = verify(records[: i + 1], REGISTRY)
    assert not checks[i].ok, f"{kind} in hand {i} went unnoticed"
    assert all(c.ok for c in checks[:i])
    problems = " ".join(checks[i].problems)
    expected = {
        "server_seed": "commitment",
        "commitment": "commitment",
        "reseed": "",
        "player_seed": "",
        "card": "dealt cards",
        "result": "result",
    }[kind]
    assert expected in problems


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_moving_dropping_or_repeating_a_hand_breaks_the_chain(name: str) -> None:
    records = chain(name)
    swapped = [records[0], records[2], records[1], *records[3:]]
    dropped = [records[0], *records[2:]]
    repeated = [records[0], records[1], records[1], *records[2:]]
    first_dropped = records[1:]
    for altered in (swapped, dropped, repeated):
        checks = verify(altered, REGISTRY)
        assert not all(c.ok for c in checks)
        assert any("chain link" in p for c in checks for p in c.problems)
    # A file that starts past hand 1 is checked from there, with the gap said out loud.
    checks = verify(first_dropped, REGISTRY)
    assert all(c.ok for c in checks) and checks[0].unlinked and not checks[1].unlinked
    # But hand 2 cannot pass itself off as the table's first.
    fake_first = [dict(records[1], prev=GENESIS), *records[2:]]
    assert not verify(fake_first, REGISTRY)[0].ok
    # Renumbering a hand breaks its deal seed's binding to the table and hand.
    renumbered = copy.deepcopy(records)
    renumbered[-1]["hand"] += 1
    assert any("deal seed is for" in p for p in verify(renumbered, REGISTRY)[-1].problems)


def test_tables_chain_separately_and_plain_hands_are_told_apart() -> None:
    a = chain("cacho")
    b = fair_hands("truco_paulista", 4, {}, 3, seed=9, table="other")
    interleaved = [a[0], b[0], a[1], b[1], a[2], b[2]]
    assert failures(verify(interleaved, REGISTRY)) == []
    plain: list[dict[str, Any]] = []
    simulate("cacho", 3, 2, 1, on_hand=plain.append)
    checks = verify(plain, REGISTRY)
    assert [c.fair for c in checks] == [False, False] and not any(c.problems for c in checks)
    assert all("plain seed: not a fair deal" in c.line() for c in checks)
    # A fair record whose link is missing, or whose game is unknown, fails with a reason.
    no_link = {k: v for k, v in a[0].items() if k != "prev"}
    assert "no chain link" in verify([no_link], REGISTRY)[0].line()
    other_game = dict(a[0], game="poker")
    assert "no game 'poker'" in verify([other_game], REGISTRY)[0].line()


def cacho_hand(seeds: tuple[int, ...], bot: int | None, awaited: list[int], pledged: tuple[int, ...] = (),
               gone: tuple[int, ...] = ()) -> dict[str, Any]:
    """One fair Cacho hand of three seats, cut by ``seeds``, with seat ``bot`` a bot's and
    ``awaited`` as a server stores it (and a pledge named for each of ``pledged`` whose link is not in, and
    ``gone`` as a server stores it)."""
    game = REGISTRY["cacho"]
    rng = random.Random(5)
    links = {s: rng.randbytes(32) for s in seeds}
    deal = DealSeed(rng.randbytes(32), tuple(links.items()), "t-who", 1, SCHEME,
                    tuple((s, before(link)) for s, link in links.items()) + tuple((s, bytes(32)) for s in pledged))
    match, _ = game.open({}, game.seat_infos(["ana", "bia", "bot 3"]), deal)
    while not match.hand_over():
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "easy"))
    record = dict(match.history() or {}, table="t-who", hand=1, awaited=awaited)
    if gone:
        record["gone"] = list(gone)
    record["seats"] = [dict(entry, bot="easy") if entry["seat"] == bot else entry for entry in record["seats"]]
    return linked(record, None)


def test_verify_gives_a_tick_only_where_every_person_seated_cut_whatever_awaited_says() -> None:
    """From the history alone: a person seated whose seed is missing is named (seats numbered from
    1), whether the server listed them as waited for or left ``awaited`` empty; a seed at a bot's
    seat is the host's own. Only a deal every person seated cut, and nobody else, gets ✔."""
    [full] = verify([cacho_hand((0, 1), bot=2, awaited=[0, 1])], REGISTRY)
    assert full.ok and full.full
    assert full.line() == ("table t-who deal 1 (cacho): ✔ commitment, deal and chain (seeds used: seat 1 ana, seat 2"
                           " bia; seated, not in it: nobody)")
    [dropped] = verify([cacho_hand((0,), bot=2, awaited=[0, 1])], REGISTRY)
    assert dropped.ok and not dropped.full and dropped.dropped == ("seat 2 bia",)
    assert "⚠ commitment, deal and chain check, but the seed of seat 2 bia was not used" in dropped.line()
    [emptied] = verify([cacho_hand((0,), bot=2, awaited=[])], REGISTRY)  # the server emptied ``awaited``
    assert emptied.ok and not emptied.full and "✔" not in emptied.line()
    assert emptied.line() == ("table t-who deal 1 (cacho): ○ commitment, deal and chain check, but not every seated"
                              " player's seed is in it (seeds used: seat 1 ana; seated, not in it: seat 2 bia)")
    [nobody] = verify([cacho_hand((), bot=None, awaited=[])], REGISTRY)
    assert not nobody.full and ": ○ commitment, deal and chain check, but no player's seed went in: the host alone" \
        " chose this deck (seeds used: none; seated, not in it: seat 1 ana, seat 2 bia, seat 3 bot 3)" in nobody.line()
    [hosted] = verify([cacho_hand((0, 1, 2), bot=2, awaited=[0, 1])], REGISTRY)
    assert hosted.ok and not hosted.full and hosted.hosted == ("seat 3 bot 3",)
    assert "⚠ commitment, deal and chain check, but the seed of seat 3 bot 3 is the host's own" in hosted.line()


def test_verify_says_a_seat_that_had_gone_and_fails_a_pledge_the_table_has_no_seat_for() -> None:
    """A pledged seat dealt without because it had gone (``gone``) is said (○), not flagged as held back or
    dropped, and never ✔; one that pledged and is not in the deal otherwise held it back (⚠); a pledge named for
    a seat the table does not have fails the hand (exit 1 for ``cardtui verify``)."""
    [away] = verify([cacho_hand((0,), bot=2, awaited=[0, 1], pledged=(1,), gone=(1,))], REGISTRY)
    assert away.ok and not away.full and away.away == ("seat 2 bia",) and not away.withheld and not away.dropped
    assert "○ commitment, deal and chain check, but seat 2 bia had gone (the server says) before its link came" in \
        away.line()
    [held] = verify([cacho_hand((0,), bot=2, awaited=[0, 1], pledged=(1,))], REGISTRY)
    assert held.ok and held.withheld == ("seat 2 bia",) and "⚠" in held.line()
    [stranger] = verify([cacho_hand((0, 1), bot=2, awaited=[0, 1], pledged=(9,))], REGISTRY)
    assert not stranger.ok and "a pledge is named for seat 10, not at this table" in stranger.line()


# -- the stream -----------------------------------------------------------------------------
SEED = DealSeed(bytes(range(32)), ((2, b"ana"), (0, b"\x01" * 32)), "t1", 7, SCHEMES[0])
"""A ``cardtui-deal/1`` seed: stored histories of that scheme keep dealing what they dealt."""


def spec_message(table: str, hand: int, seeds: list[tuple[int, bytes]], scheme: str = "cardtui-deal/1") -> bytes:
    """The canonical encoding, written out from the module docstring's description."""
    out = scheme.encode() + b"\x00" + len(table.encode()).to_bytes(4, "big") + table.encode()
    out += hand.to_bytes(8, "big") + len(seeds).to_bytes(4, "big")
    for seat, seed in sorted(seeds):
        out += seat.to_bytes(4, "big") + len(seed).to_bytes(4, "big") + seed
    return out


def test_the_stream_is_hmac_sha256_over_the_canonical_encoding() -> None:
    message = spec_message("t1", 7, [(0, b"\x01" * 32), (2, b"ana")])
    assert SEED.message() == message
    block0 = hmac.new(bytes(range(32)), message + (0).to_bytes(8, "big"), hashlib.sha256).digest()
    block1 = hmac.new(bytes(range(32)), message + (1).to_bytes(8, "big"), hashlib.sha256).digest()
    assert stream_block(SEED, 0) == block0 and stream_block(SEED, 1) == block1
    rng = FairRandom(SEED)
    assert rng.getrandbits(256) == int.from_bytes(block0, "big")
    assert rng.getrandbits(12) == int.from_bytes(block1[:2], "big") >> 4
    assert rng.randbytes(3) == block1[2:5][::-1]  # CPython's randbytes: getrandbits(24), little-endian
    again = FairRandom(SEED)
    again.getrandbits(256)
    assert again.random() == (int.from_bytes(block1[:7], "big") >> 3) * 2.0**-53
    assert SEED.commitment == commitment(bytes(range(32))) == hashlib.sha256(bytes(range(32))).hexdigest()


def test_the_encoding_is_unambiguous() -> None:
    server = bytes(32)
    variants = [
        DealSeed(server, ((1, b"ab"),), "t", 1),
        DealSeed(server, ((1, b"a"),), "t", 1),
        DealSeed(server, ((1, b"a"), (98, b"b")), "t", 1),
        DealSeed(server, ((2, b"ab"),), "t", 1),
        DealSeed(server, ((1, b"ab"),), "t1", 1),
        DealSeed(server, ((1, b"ab"),), "t", 2),
        DealSeed(server, (), "t", 1),
        DealSeed(server, (), "", 1),
    ]
    assert len({v.message() for v in variants}) == len(variants)
    assert len({tuple(shuffled(french_deck(copies=2), hand_rng(v))) for v in variants}) == len(variants)


def test_the_same_deal_seed_deals_the_same_deck_and_a_known_one() -> None:
    deck = french_deck(copies=2)
    first = shuffled(deck, hand_rng(SEED))
    reordered = DealSeed(bytes(range(32)), ((0, b"\x01" * 32), (2, b"ana")), "t1", 7, SCHEMES[0])
    assert shuffled(deck, hand_rng(reordered)) == first
    assert reordered == SEED
    # Pinned: a change to the stream or the shuffle would strand every stored history.
    assert [str(c) for c in first[:10]] == ["4C", "9S", "JC", "7H", "QS", "KS", "AC", "JH", "5H", "2H"]
    assert [str(c) for c in shuffled(spanish_deck(), hand_rng(SEED))[:5]] == ["5c", "7c", "11b", "2c", "1b"]
    # A whole game deals the same hands from the same seed, and records the seed as `fair`.
    for name, players, options in CASES:
        game = GAMES[name]
        seats = game.seat_infos([f"p{i}" for i in range(players)])
        deals = []
        for table in ("t", "t", "u"):
            state, _ = game.start(game.options(options), seats, DealSeed(bytes(32), ((1, b"x"),), table, 1))
            deals.append([list(map(str, h)) for h in state.hands])
        assert deals[0] == deals[1] != deals[2] and any(deals[0])


def test_plain_seeds_are_what_they_always_were() -> None:
    assert hand_rng(12345).random() == random.Random(12345).random()
    assert type(hand_rng(7)) is random.Random
    assert record_seed({"seed": 99}) == 99
    fair_record = {"seed": 0, "fair": SEED.as_record()}
    assert record_seed(fair_record) == SEED
    assert fair_record["fair"]["player_seeds"] == {"0": "01" * 32, "2": b"ana".hex()}
    assert "server_seed" not in repr(SEED) and bytes(range(32)).hex() not in repr(SEED)


def test_bad_deal_seeds_are_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        DealSeed(b"short")
    with pytest.raises(ValueError, match="at most one seed"):
        DealSeed(bytes(32), ((1, b"a"), (1, b"b")))
    with pytest.raises(ValueError, match="1 to 64 bytes"):
        DealSeed(bytes(32), ((1, b""),))
    with pytest.raises(ValueError, match="bytes\\) pairs"):
        DealSeed(bytes(32), ((1, 5),))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a seat number"):
        DealSeed.from_record(dict(SEED.as_record(), player_seeds={"²": "00"}))
    with pytest.raises(ValueError, match="not valid hex"):
        DealSeed.from_record(dict(SEED.as_record(), server_seed="zz"))
    with pytest.raises(ValueError, match="scheme"):
        DealSeed.from_record(dict(SEED.as_record(), scheme="other/9"))


def test_no_mersenne_twister_stands_in_for_the_stream() -> None:
    assert FairRandom._randbelow is random.Random._randbelow_with_getrandbits
    rng = FairRandom(SEED)
    with pytest.raises(TypeError):
        rng.seed(1)
    # State, copies and pickles continue the same stream.
    rng.getrandbits(100)
    state = rng.getstate()
    ahead = [rng.getrandbits(7) for _ in range(50)]
    rng.setstate(state)
    assert [rng.getrandbits(7) for _ in range(50)] == ahead
    rng.setstate(state)
    twin, pickled = copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))
    assert [twin.getrandbits(7) for _ in range(50)] == ahead == [pickled.getrandbits(7) for _ in range(50)]
    with pytest.raises(TypeError):
        rng.setstate(random.Random(1).getstate())
    # Whole fair hands never draw from the Mersenne Twister: not the deal, not the play.
    # (A bot may keep a generator of its own for its estimates; only its calls are exempt.)
    draws = 0
    real = FairRandom.getrandbits
    in_bot = False
    engine_mt: list[str] = []

    def counted(self: FairRandom, k: int) -> int:
        nonlocal draws
        draws += 1
        return real(self, k)

    def spy(method: str) -> Callable[..., Any]:
        original = getattr(random.Random, method)

        def call(self: random.Random, *args: Any) -> Any:
            if not in_bot or isinstance(self, FairRandom):
                engine_mt.append(method)
            return original(self, *args)
        return call

    with (mock.patch.object(random.Random, "random", spy("random")),
          mock.patch.object(random.Random, "getrandbits", spy("getrandbits")),
          mock.patch.object(FairRandom, "getrandbits", counted)):
        for name, players, options in CASES:
            game = GAMES[name]
            seats = game.seat_infos([f"p{i}" for i in range(players)])
            bots = FairRandom(DealSeed(bytes(32), (), "bots", 1))
            cut = DealSeed(b"\x07" * 32, ((0, b"cut"),), "t", 1, SCHEME, ((0, before(b"cut")),))
            state, _ = game.start(game.options(options), seats, cut)
            while not game.hand_over(state):
                seat, legal = next((s, a) for s in game.to_act(state) if (a := game.legal_actions(state, s)))
                view = game.view(state, seat)
                in_bot = True
                action = game.bot(view, legal, bots)
                in_bot = False
                game.apply(state, seat, action)
            record = game.history(state)
            assert record["fair"]["player_seeds"] == {"0": b"cut".hex()}
            assert verify([linked(dict(record, table="t", hand=1), None)], REGISTRY)[0].ok
            assert isinstance(state.rng, FairRandom)
    assert engine_mt == []
    assert draws > 100
    # The spy does see the Mersenne Twister when it is used.
    with mock.patch.object(random.Random, "random", spy("random")):
        random.Random(1).random()
    assert engine_mt == ["random"]


# -- uniformity ----------------------------------------------------------------------------
SHUFFLES = 20_000


def chi_square(n: int, shuffle: Callable[[random.Random, list[int]], None]) -> float:
    """How far card positions are from uniform, in standard deviations of the chi-square
    statistic over the n × n table of (position, card) counts, (n - 1)² degrees of freedom."""
    counts = [0] * (n * n)
    for i in range(SHUFFLES):
        server = hashlib.sha256(b"uniformity %d %d" % (n, i)).digest()
        rng = FairRandom(DealSeed(server, ((i % 4, b"cut %d" % i),), "chi", i))
        cards = list(range(n))
        shuffle(rng, cards)
        for position, card in enumerate(cards):
            counts[position * n + card] += 1
    expected = SHUFFLES / n
    stat = sum((c - expected) ** 2 for c in counts) / expected
    df = (n - 1) ** 2
    return (stat - df) / math.sqrt(2 * df)


def modulo_biased(rng: random.Random, cards: list[int]) -> None:
    """A Fisher–Yates shuffle done wrong: one byte reduced modulo i + 1."""
    for i in reversed(range(1, len(cards))):
        j = rng.getrandbits(8) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@pytest.mark.parametrize("n", [104, 40])
def test_every_card_is_equally_likely_in_every_position(n: int) -> None:
    assert abs(chi_square(n, lambda rng, cards: rng.shuffle(cards))) < 6


def test_the_uniformity_test_catches_modulo_bias() -> None:
    assert chi_square(40, modulo_biased) > 6


def test_hand_hashes_are_canonical() -> None:
    record = chain("cacho")[0]
    shuffled_keys = json.loads(json.dumps(dict(reversed(list(record.items())))))
    assert hand_hash(shuffled_keys) == hand_hash(record)
    assert chain_link(None) == GENESIS and chain_link(record) == hand_hash(record)
    assert linked({"a": 1}, record)["prev"] == hand_hash(record)


# -- the shared scheme module ---------------------------------------------------------------
def test_the_shared_packs_are_the_engines_decks_and_deal_the_same() -> None:
    from cardtui import fair
    from cardtui.engine.cacho import rules as cacho
    from cardtui.engine.cards import french_deck, pack
    from cardtui.engine.truco.argentino import game as argentino
    from cardtui.engine.truco.argentino import rules as argentino_rules
    from cardtui.engine.truco.paulista import rules as paulista_rules

    decks = {"french24": cacho.DECK, "french104": tuple(french_deck(copies=2)), "french40": paulista_rules.DECK,
             "spanish40": argentino_rules.DECK}
    built_in = ("cacho", "pifpaf", "cacheta", "truco_paulista", "truco_argentino")
    assert {GAMES[g].pack({}) for g in built_in} == set(decks)
    assert {GAMES[g].pack({}) for g in GAMES} <= set(fair.PACKS), "every game's pack has its name"
    for name, deck in decks.items():
        assert fair.PACKS[name] == tuple(map(str, deck)) == tuple(map(str, pack(name))), name
        assert [str(c) for c in shuffled(deck, hand_rng(SEED))] == fair.shuffled(fair.PACKS[name], hand_rng(SEED))
    for name, cards in fair.PACKS.items():
        assert tuple(map(str, pack(name))) == cards, f"{name}: every card of every pack is one the engine knows"
    for k in (6, 12, 18):
        assert argentino.draw(hand_rng(SEED), k) == fair.sample_positions(hand_rng(SEED), 40, k)


def test_a_chain_pledges_every_link_before_any_is_seen() -> None:
    """``cardtui-deal/2`` (docs/deal.md §3a): a seat's links are fixed by its pledge, each the preimage of the one
    before under SHA-256 with the link tag: knowing a link, nobody can make the next one, and the seat has no
    choice of it either."""
    chain = Chain.make(bytes(range(32)), length=5)
    assert len(chain.links) == 6 and chain.links[-1] == bytes(range(32))
    assert all(before(chain.links[i + 1]) == chain.links[i] for i in range(5))
    assert before(b"x") == hashlib.sha256(LINK_TAG + b"x").digest()
    assert chain.after(chain.pledge) == chain.links[1] and chain.after(chain.links[4]) == chain.links[5]
    assert chain.after(chain.links[5]) is None and chain.after(b"\x00" * 32) is None
    assert Chain.make().pledge != Chain.make().pledge



@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(length=st.sampled_from([0, 1, 2, 63, 64, 65, 127, 128, 129, 200]),
       asked=st.lists(st.integers(min_value=0, max_value=260), max_size=12), top=st.binary(min_size=32, max_size=32))
def test_a_chain_keeps_a_few_links_and_gives_every_one_in_any_order(length: int, asked: list[int], top: bytes) -> None:
    """A chain keeps every ``MARK_EVERY``-th link and hashes the rest down when asked: every link, its place
    and the one after it are those of the whole chain hashed from its top, asked in any order (a seat's hands
    go in order; a dishonest server names any link), and a value that is no link has no place."""
    whole = [top]
    for _ in range(length):
        whole.append(before(whole[-1]))
    whole.reverse()
    chain = Chain.make(top, length=length)
    assert len(chain) == length + 1 and chain.pledge == whole[0] and chain.links == tuple(whole)
    assert len(chain._marks) == length // Chain.MARK_EVERY + 1 + (length % Chain.MARK_EVERY != 0)
    for i in (i % (length + 1) for i in asked):
        assert chain.link(i) == whole[i] and chain.place(whole[i]) == i
        assert chain.after(whole[i]) == (whole[i + 1] if i < length else None)
    assert chain.place(before(whole[0])) is None and chain.after(b"\x00" * 32) is None
    with pytest.raises(IndexError):
        chain.link(length + 1)
    assert top.hex() not in repr(chain) and whole[0].hex() not in repr(chain)


def test_a_second_version_deal_follows_its_pledges_and_names_who_withheld() -> None:
    chains = {0: Chain.make(bytes([1]) * 32, 3), 2: Chain.make(bytes([2]) * 32, 3)}
    pledges = tuple((seat, chain.pledge) for seat, chain in chains.items())
    links = tuple((seat, chain.links[1]) for seat, chain in chains.items())
    deal = DealSeed(bytes(range(32)), links, "t1", 7, SCHEME, pledges)
    assert deal.scheme == "cardtui-deal/2" == SCHEMES[-1]
    assert deal.message() == spec_message("t1", 7, list(links), scheme=SCHEME)
    assert deal.message() != DealSeed(bytes(range(32)), links, "t1", 7, SCHEMES[0]).message()
    assert deal.unfollowed() == [] and deal.withheld() == []
    assert DealSeed.from_record(deal.as_record()) == deal
    assert deal.as_record()["pledges"] == {"0": chains[0].pledge.hex(), "2": chains[2].pledge.hex()}
    chosen = DealSeed(bytes(range(32)), ((0, chains[0].links[1]), (2, b"ground by the host")), "t1", 7, SCHEME, pledges)
    assert chosen.unfollowed() == [2]
    held_back = DealSeed(bytes(range(32)), ((0, chains[0].links[1]),), "t1", 7, SCHEME, pledges)
    assert held_back.withheld() == [2]
    stray = DealSeed(bytes(range(32)), ((0, chains[0].links[1]), (1, b"x")), "t1", 7, SCHEME, pledges)
    assert stray.unfollowed() == [1], "a seed at a seat that pledged nothing follows no pledge"
    with pytest.raises(ValueError, match="no pledges"):
        DealSeed(bytes(32), (), "t", 1, SCHEMES[0], pledges)
    with pytest.raises(ValueError, match="not one this version knows"):
        DealSeed(bytes(32), (), "t", 1, "cardtui-deal/3")


def void_line(previous: dict[str, Any] | None, links: tuple[int, ...]) -> dict[str, Any]:
    """A commitment that dealt no hand, as the history keeps it (docs/history.md §2a), after ``previous``, with a
    link given by each seat of ``links``."""
    rng = random.Random(11)
    given = {s: rng.randbytes(32) for s in links}
    seed = DealSeed(rng.randbytes(32), tuple(given.items()), "t-who", 2, SCHEME,
                    tuple((s, before(link)) for s, link in given.items()))
    record = {"table": "t-who", "hand": 2, "game": "cacho", "void": "the table closed before this deal was dealt",
              "fair": seed.as_record(), "awaited": sorted(given), "seats": (previous or {}).get("seats", [])}
    return linked(record, previous)


def test_verify_accounts_for_every_commitment_in_a_file() -> None:
    """docs/deal.md §12: a deal number dealt twice, a link given twice, a seat said gone whose seed is in, and a
    commitment that took a link and dealt nothing each fail the file (✘, exit 1), named."""
    first = cacho_hand((0, 1), bot=2, awaited=[0, 1])
    again = linked(dict(cacho_hand((0,), bot=2, awaited=[0, 1]), prev=None), first)
    checks = verify([first, again], REGISTRY)
    assert checks[0].ok and not checks[1].ok
    assert "deal 1 of this table is in the file twice: two commitments for one deal number" in checks[1].line()
    later = json.loads(json.dumps(first))
    later["hand"] = later["fair"]["hand"] = 2  # its link given again in a later hand of the table
    reused = verify([first, linked({k: v for k, v in later.items() if k != "prev"}, first)], REGISTRY)
    assert "the link at seat 1 was given before (table t-who deal 1, seat 1): a link reused" in reused[1].line()
    [gone] = verify([cacho_hand((0, 1), bot=2, awaited=[0, 1], gone=(1,))], REGISTRY)
    assert not gone.ok and "seat 2 is said to have gone before its link came, yet its link is in the deal" in \
        gone.line()
    voided = verify([first, void_line(first, (0,))], REGISTRY)
    assert voided[0].ok and not voided[1].ok and voided[1].void
    assert ("a commitment that dealt no hand (the table closed before this deal was dealt) took the link of seat 1"
            in voided[1].line())
    untaken = verify([first, void_line(first, ())], REGISTRY)
    assert untaken[1].ok and not untaken[1].full and "○ a commitment revealed undealt" in untaken[1].line()
