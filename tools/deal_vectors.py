"""The test vectors of the deal scheme (docs/deal.md §14), written to ``docs/deal-vectors.json``.

    .venv/bin/python -m tools.deal_vectors > docs/deal-vectors.json

The file is published: implementations in other languages check themselves against it, and
``tests/test_deal_vectors.py`` checks it against this code. Writing it again must give the
same file; if it does not, a deal has changed, and every stored history dealt before the
change would stop verifying. That is a new scheme (``cardtui-deal/2``), never an edit.

The first version's vectors, published before the second's, are read back from the file as they stand; the
second version's are made anew each time, and must come out the same.

Each hand here is played from a chosen position (``Game.resume``: the dealer, the scores
before the hand). A hand the file already publishes is played again by its published actions
(``SCRIPTS``, read from the file like the first version's vectors): the engine takes each one in
turn from the seat that made it and deals out, again, every card drawn, event and result, so the
file comes out the same whatever the bots now choose, and comes out different if a rule or a deal
changed (``tests/test_deal_vectors.py`` writes it again and compares). Only a hand the file does
not hold yet is played by a script where the vector needs one (a redeal, the mão's choices) and
by the easy bots elsewhere, on a fixed generator, once: from then on its actions are its script.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cardtui.engine.core import Action, Bound, Game
from cardtui.engine.fairness import GENESIS, canonical, hand_hash, linked, verify
from cardtui.engine.games import GAMES
from cardtui.engine.history import action_of
from cardtui.fair import (
    LINK_TAG,
    PACKS,
    SCHEMES,
    Chain,
    DealSeed,
    FairRandom,
    before,
    shuffled,
    stream_block,
)

Policy = Callable[[Any, int, list[Action]], Action | None]
"""A script's choice for a seat (None: let the easy bot choose)."""


def h(label: str) -> bytes:
    """A 32-byte value anyone can make again: the SHA-256 of a label."""
    return hashlib.sha256(label.encode()).digest()


SCHEME_NOW = [SCHEMES[0]]
"""The scheme the vectors being made deal by: each version's section is made with its own."""


def deal_seed(server: bytes, seeds: tuple[tuple[int, bytes], ...], table: str, hand: int) -> DealSeed:
    """A deal seed under the scheme of the section being made: ``cardtui-deal/2`` takes each seat's seed as the
    next link of its chain, and names the pledge that link follows (§3a)."""
    scheme = SCHEME_NOW[0]
    if scheme == SCHEMES[0]:
        return DealSeed(server, seeds, table, hand, scheme)
    return DealSeed(server, seeds, table, hand, scheme, tuple((seat, before(link)) for seat, link in seeds))


def seed_record(seed: DealSeed) -> dict[str, Any]:
    return seed.as_record()


class Recording(FairRandom):
    """A ``FairRandom`` that notes every ``getrandbits`` call: the vectors' step-by-step draws."""

    def __init__(self, seed: DealSeed) -> None:
        super().__init__(seed)
        self.calls: list[tuple[int, int]] = []

    def getrandbits(self, k: int, /) -> int:
        value = super().getrandbits(k)
        self.calls.append((k, value))
        return value


def stream_vector(seed: DealSeed, bits: Sequence[int]) -> dict[str, Any]:
    rng = FairRandom(seed)
    return {
        "seed": seed_record(seed),
        "message": seed.message().hex(),
        "blocks": [stream_block(seed, i).hex() for i in range(3)],
        # bits(k) as a decimal string: up to 256 bits, more than a reader's double would hold exactly
        "getrandbits": [[k, str(rng.getrandbits(k))] for k in bits],
    }


def shuffle_draws(pack: Sequence[str], seed: DealSeed) -> list[dict[str, Any]]:
    """For each place i of the shuffle, from the last down: the draws below i + 1 until one fits."""
    rng = Recording(seed)
    shuffled(pack, rng)
    calls = iter(rng.calls)
    out = []
    for i in range(len(pack) - 1, 0, -1):
        k = (i + 1).bit_length()
        tried = []
        while True:
            bits, value = next(calls)
            assert bits == k
            tried.append(value)
            if value <= i:
                break
        out.append({"i": i, "bits": k, "drawn": tried, "j": tried[-1]})
    return out


SCRIPTS: dict[tuple[str, int], list[dict[str, Any]]] = {}
"""The published second version's hands' actions, by table and hand: what each seat did, in order."""


def scripts(published: dict[str, Any]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Every hand history the published second version holds (its deals, its chain, its accounting's lines),
    by its table and hand number: its actions, the dealer's own (a redeal, a stock rebuilt) left out, since
    they follow from the seats'."""
    second = published.get(SCHEMES[1], {})
    records = [d["history"] for d in second.get("deals", [])] + [c["history"] for c in second.get("chain", [])]
    records += [line for vector in second.get("accounting", []) for line in vector["lines"] if "actions" in line]
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for record in records:
        key = (record["table"], int(record["hand"]))
        assert key not in out, f"two published hands at {key}: a script must name one"
        out[key] = [entry for entry in record["actions"] if entry.get("seat") is not None]
    return out


def replayed(match: Bound[Any, Any, Any], script: list[dict[str, Any]]) -> None:
    """A hand played by its published actions: each from the seat that made it, when that seat is to act.
    An action the rules no longer allow stops the writing of the file (the engine refuses it)."""
    for entry in script:
        seat = int(entry["seat"])
        if match.hand_over() or seat not in match.to_act():
            raise RuntimeError(f"The published action {entry} is not this seat's turn any more: a rule changed.")
        match.apply(seat, action_of(entry))
    if not match.hand_over():
        raise RuntimeError("The published actions no longer end their hand: a rule changed.")


def play(game: Game[Any, Any, Any], state: Any, policy: Policy | None, rng: random.Random,
         where: tuple[str, int] | None = None) -> None:
    """A hand played out: by its published actions if the file holds it (``where``: its table and hand),
    else by ``policy`` and the easy bots."""
    match = Bound(game, state)
    if SCHEME_NOW[0] == SCHEMES[1] and where in SCRIPTS:
        replayed(match, SCRIPTS[where])
        return
    while not match.hand_over():
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            if not legal:
                continue
            action = policy(state, seat, legal) if policy is not None else None
            match.apply(seat, action if action is not None else match.bot_action(seat, rng, "easy"))
            break
        else:
            raise RuntimeError("The hand waits on nobody.")


def hand(
    name: str, names: Sequence[str], seed: DealSeed, dealer: int, start: Sequence[int],
    options: dict[str, Any] | None = None, policy: Policy | None = None, bots: int = 1,
    recall: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One hand dealt from ``seed`` and played out; its history, as stored at hand 1 of a table.
    ``recall``: what a history says of its hand beyond its start (a pica-pica deal)."""
    game = GAMES[name]
    assert isinstance(game, Game)
    state, _ = game.resume(game.options(options or {}), game.seat_infos(list(names)), list(start), dealer,
                           seed.hand, seed, recall)
    play(game, state, policy, random.Random(bots), (seed.table, seed.hand))
    record = game.history(state)
    assert record is not None
    return linked(dict(record, table=seed.table, hand=seed.hand, match=1), None)


# -- what the games' vectors (tools/vectors_<game>.py) are made with --------------------------------
def rummy_stock(state: Any) -> list[str]:
    """The stock as it stands, the next card drawn first."""
    return [str(c) for c in reversed(state.stock)]


def rummy(game_name: str, title: str, seed: DealSeed, names: Sequence[str], dealer: int, start: Sequence[int],
          options: dict[str, Any] | None = None, policy: Policy | None = None) -> dict[str, Any]:
    game = GAMES[game_name]
    assert isinstance(game, Game)
    state, _ = game.resume(game.options(options or {}), game.seat_infos(list(names)), list(start), dealer,
                           seed.hand, seed)
    stock = rummy_stock(state)
    play(game, state, policy, random.Random(3), (seed.table, seed.hand))
    record = game.history(state)
    assert record is not None
    record = linked(dict(record, table=seed.table, hand=seed.hand, match=1), None)
    pack = shuffled(PACKS[pack_of(record)], FairRandom(seed))
    return {"title": title, "game": game_name, "pack": pack_of(record), "packs": [pack], "stock": stock,
            "history": record}


def until_rebuilt(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """Draw from the stock and throw the card drawn, claim nothing, until the stock is rebuilt once."""
    log = state.log
    if any(entry[1] is not None and entry[1].type == "rebuild" for entry in log.actions):
        return None
    for want in ("draw", "discard", "pass", "check", "fold"):
        for a in legal:
            if a.type == want and (want != "draw" or a.value == "stock"):
                if want == "discard":
                    return Action("discard", cards=(state.drawn,))
                return a
    return None


def pack_of(record: dict[str, Any]) -> str:
    """The pack a hand was dealt from: its game's, by the table's options (docs/deal.md §2)."""
    return GAMES[record["game"]].pack(record["options"])


def game_deck(record: dict[str, Any]) -> list[str]:
    return shuffled(PACKS[pack_of(record)], FairRandom(DealSeed.from_record(record["fair"])))


def chain() -> list[dict[str, Any]]:
    """Three hands of one truco paulista match at one table, each linked to the one before; the
    second dropped the seed of a seat it waited for (``awaited``)."""
    game = GAMES["truco_paulista"]
    names = ["João Ñandú", 'Ana "la Tía"', "Zé \\o/", "李雷"]
    table = "mesa-São-João"
    seats = game.seat_infos(names)
    rng = random.Random(7)
    options = {"signals_seen": 0.1}
    out: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    match = None
    for n in range(1, 4):
        seed = deal_seed(h(f"chain server {n}"), ((0, h(f"João {n}")), (3, h(f"李雷 {n}"))), table, n)
        if match is None:
            match, _ = game.open(options, seats, seed)
        else:
            match.next_hand(seed)
        if SCHEME_NOW[0] == SCHEMES[1] and (table, n) in SCRIPTS:
            replayed(match, SCRIPTS[(table, n)])
        while not match.hand_over():
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            match.apply(seat, match.bot_action(seat, rng, "easy"))
        record = match.history()
        assert record is not None
        # As a server stores it: the seats the deal waited for; in hand 2 seat 1's seed was dropped.
        awaited = [0, 1, 3] if n == 2 else [0, 3]
        record = linked(dict(record, table=table, hand=n, match=1, awaited=awaited), previous)
        out.append({"hash": hand_hash(record), "history": record})
        previous = record
    out[0]["canonical"] = canonical(out[0]["history"]).decode()
    return out


def accounting() -> list[dict[str, Any]]:
    """What a file must account for (§12, history.md §2 and §2a), each with what ``cardtui verify`` says of it:
    a seat that had gone (pledged, no seed), a commitment that dealt no hand (its ``void`` line), a dealer fixed by
    the commitment, and a match whose seats were swapped (pledges and seeds keyed by the new seats)."""
    game = GAMES["cacho"]
    names = ["ana", "bia", "caio"]
    out: list[dict[str, Any]] = []
    # A seat gone: seat 1 pledged, its stream closed before its link came; dealt without it.
    links = {0: h("gone ana")}
    seed = DealSeed(h("gone server"), tuple(links.items()), "vectors-gone", 1, SCHEMES[1],
                    ((0, before(links[0])), (1, before(h("gone bia")))))
    record = hand("cacho", names, seed, 2, [20, 20, 20])
    record = linked({k: v for k, v in record.items() if k != "prev"} | {"awaited": [0, 1], "gone": [1]}, None)
    out.append({"title": "A seat that had gone: seat 1 pledged, and is dealt without (no seed)", "lines": [record]})
    # A void: hand 1 played, then deal 2 committed, seat 0's link in, and the table closed.
    played = hand("cacho", names, deal_seed(h("void server 1"), ((0, h("void ana 1")),), "vectors-void", 1), 2,
                  [20, 20, 20])
    undealt = DealSeed(h("void server 2"), ((0, h("void ana 2")),), "vectors-void", 2, SCHEMES[1],
                       ((0, before(h("void ana 2"))),))
    void = linked({"table": "vectors-void", "hand": 2, "game": "cacho", "void": "the table closed before this deal"
                   " was dealt", "fair": undealt.as_record(), "awaited": [0], "gone": [],
                   "seats": [{"seat": i, "name": n} for i, n in enumerate(names)]}, played)
    out.append({"title": "A commitment that dealt no hand: deal 2 took seat 0's link, and the table closed",
                "lines": [played, void]})
    # A dealer fixed by the commitment (DealCommitted.dealer), before any link: the hand's dealer.
    fixed = deal_seed(h("fixed server"), ((0, h("fixed ana")), (1, h("fixed bia"))), "vectors-dealer", 1)
    record = hand("cacho", names, fixed, 0, [20, 20, 20])
    out.append({"title": "A dealer fixed by the commitment: seat 0 deals", "lines": [record],
                "commitment": {"hand": 1, "commitment": fixed.commitment, "dealer": 0, "opens_match": True,
                               "pledges": {str(s): v.hex() for s, v in fixed.pledges}}})
    # A swap: the commitment fixed the seats' new order (seats_from: new seat 0 is old seat 1); its pledges are
    # named by the old seats, the history's by the new ones, each link with its holder.
    old = {0: h("swap ana"), 1: h("swap bia")}
    order = [1, 0, 2]
    swapped = DealSeed(h("swap server"), tuple(sorted((order.index(s), link) for s, link in old.items())),
                       "vectors-swap", 1, SCHEMES[1],
                       tuple(sorted((order.index(s), before(link)) for s, link in old.items())))
    state, _ = game.resume(game.options({}), game.seat_infos([names[o] for o in order]), [20, 20, 20], 2, 1, swapped)
    play(game, state, None, random.Random(1), ("vectors-swap", 1))
    record = linked(dict(game.history(state) or {}, table="vectors-swap", hand=1, match=1, awaited=[0, 1]), None)
    out.append({"title": "Seats swapped at a match's start, as the commitment fixed them", "lines": [record],
                "commitment": {"hand": 1, "commitment": swapped.commitment, "seats_from": order,
                               "pledges": {str(s): before(link).hex() for s, link in old.items()}}})
    for vector in out:
        vector["verify"] = [check.line() for check in verify(vector["lines"], GAMES)]
    return out


def game_vectors(name: str) -> tuple[Callable[[], dict[str, Any]], ...]:
    """A game's vectors: ``DEALS`` of its own module, ``tools/vectors_<game>.py`` (none for a game without one, such
    as a test's plugged-in game; a published game's vectors missing make the file come out different)."""
    try:
        module = importlib.import_module(f"tools.vectors_{name}")
    except ModuleNotFoundError as error:
        if error.name != f"tools.vectors_{name}":
            raise
        return ()
    deals: tuple[Callable[[], dict[str, Any]], ...] = module.DEALS
    return deals


def section() -> dict[str, Any]:
    """The streams, the deals and the chain of hands, under the scheme being made (``SCHEME_NOW``)."""
    return {
        "streams": [
            stream_vector(deal_seed(bytes(range(32)), (), "t", 1), [1, 5, 8, 13, 64, 3, 200, 53]),
            stream_vector(deal_seed(h("stream server"), ((0, h("seat 0")), (3, bytes(range(64))), (5, b"\xff")),
                                    "mesa-ñ", 70000), [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 256, 9]),
        ],
        "deals": [make() for name in GAMES for make in game_vectors(name)],
        "chain": chain(),
    }


def chain_vector() -> dict[str, Any]:
    """A seat's chain (§3a): its secret top, every link from the pledge on, each the one before's preimage."""
    chain = Chain.make(h("a chain's top"), length=4)
    return {"top": chain.links[-1].hex(), "length": 4, "links": [link.hex() for link in chain.links],
            "pledge": chain.pledge.hex()}


PUBLISHED = Path(__file__).resolve().parent.parent / "docs" / "deal-vectors.json"


def vectors() -> dict[str, Any]:
    """Every version's vectors. The first version's are published and stay exactly as they were published
    (the bots and the option names that made its hands have changed since; its deals have not, and the tests
    hold them to this code): they are read back from the file. The second version's are made here, each hand the
    file already holds played by its published actions (``SCRIPTS``)."""
    SCHEME_NOW[0] = SCHEMES[0]
    published = json.loads(PUBLISHED.read_text(encoding="utf-8")) if PUBLISHED.exists() else {}
    first = {key: published[key] for key in ("streams", "deals", "chain") if key in published} or section()
    SCHEME_NOW[0] = SCHEMES[1]
    SCRIPTS.clear()
    SCRIPTS.update(scripts(published))
    second = {"scheme": SCHEMES[1], "link_tag": LINK_TAG.hex(), "chains": [chain_vector()], **section(),
              "accounting": accounting()}
    return {
        "scheme": SCHEMES[0],
        "about": "Test vectors of docs/deal.md (§14). Hex is lower case; cards are in notation (§2); a number "
                 "that may need more than 53 bits (a bits(k) value) is a string of decimal digits. The top level is "
                 "cardtui-deal/1; \"cardtui-deal/2\" holds the same under the second version, and its chains.",
        "genesis": GENESIS,
        **first,
        "cardtui-deal/2": second,
    }


def pretty(value: Any, indent: str = "") -> str:
    """JSON a person can read: whatever fits in a line stays on one, the rest opens up."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(indent) + len(flat) <= 110 or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + pretty(v, inner) for v in value) + "\n" + indent + "]"


def main() -> None:
    sys.stdout.write(pretty(vectors()) + "\n")


if __name__ == "__main__":
    import tools.deal_vectors  # each game's module reads this module's state (``SCHEME_NOW``), not __main__'s

    tools.deal_vectors.main()
