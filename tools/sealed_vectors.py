"""The test vectors of the sealed scheme (docs/deal.md, "Sealed tables"), written to ``docs/sealed-vectors.json``.

    .venv/bin/python -m tools.sealed_vectors > docs/sealed-vectors.json

Published beside the deal scheme's: an implementation in another language checks itself against them, and
``tests/sealed/test_vectors.py`` checks the file against this code (and parts of it against a second,
independent reading of the document). Every secret is the SHA-256 of a label, so anyone can make them again.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from cardtui.fair import PACKS
from cardtui.hashes import sha256
from cardtui.sealed import SCHEME
from cardtui.sealed.deck import Hand, SeatSecrets, deal
from cardtui.sealed.envelopes import BoxKey, contents, disclose, envelope_key, pledge, seal, seal_code
from cardtui.sealed.group import G, N, P, Point, card_point, derive_scalar, encode, mul, product, scalar_bytes, tag
from cardtui.sealed.plan import Dealing, Layout
from cardtui.sealed.proofs import prove
from cardtui.sealed.shuffle import ROUNDS, answer_bytes, prove_shuffle, shadow

PAULISTA, ARGENTINO = "truco_paulista", "truco_argentino"
BLOCKS, ROUND = Dealing.BLOCKS, Dealing.ROUND
TAGS = ("scalar", "point", "nonce", "proof", "hand", "order", "shadow", "shuffle", "box", "pledge", "code")


def h(label: str) -> bytes:
    """A 32-byte value anyone can make again: the SHA-256 of a label."""
    return sha256(label.encode()).digest()


def hx(point: Point) -> str:
    return encode(point).hex()


def sx(value: int) -> str:
    return scalar_bytes(value).hex()


def vectors() -> dict[str, Any]:
    out: dict[str, Any] = {"scheme": SCHEME, "group": {"name": "secp256k1", "n": f"{N:064x}", "p": f"{P:064x}",
                                                      "G": hx(G)}}
    out["tags"] = {name: tag(name).hex() for name in TAGS}
    out["points"] = {card: hx(card_point(card)) for pack in ("french40", "spanish40") for card in PACKS[pack]}
    out["scalars"] = [{"secret": h(f"scalar {i}").hex(), "label": label.hex(),
                       "scalar": sx(derive_scalar(h(f"scalar {i}"), label))}
                      for i, label in enumerate((b"", b"lock", bytes(range(40))))]
    x, b2 = derive_scalar(h("proof x"), b""), card_point("7o")
    proof = prove(x, G, mul(G, x), b2, mul(b2, x), b"a context")
    out["proof"] = {"x": sx(x), "b1": hx(G), "y1": hx(mul(G, x)), "b2": hx(b2), "y2": hx(mul(b2, x)),
                    "context": b"a context".hex(), "proof": proof.to_bytes().hex()}
    layout = Layout(ROUND, 2, 0)
    order = (layout.first, layout.dealer)
    hand = Hand("t-vectors", 3, ARGENTINO, order, PACKS["spanish40"])
    seats = [SeatSecrets(h(f"seat {seat}"), seat, hand) for seat in order]
    passes = deal(seats)
    sealed = passes.sealed(hand)
    out["hand"] = {"table": hand.table, "number": hand.number, "game": hand.game, "order": list(order),
                   "cards": list(hand.cards), "digest": hand.digest.hex()}
    out["seats"] = [{"seat": s.seat, "secret": s.secret.hex(), "lock": sx(s.lock), "order": list(s.order),
                     "keys": [sx(k) for k in s.keys], "card_keys": [sx(s.card_key(p)) for p in range(40)]}
                    for s in seats]
    out["locks"] = [{"seat": step.seat, "point": hx(step.point), "deck": [hx(p) for p in step.deck],
                     "proof": step.proof.to_bytes().hex()} for step in passes.locks]
    first_shuffle = prove_shuffle(seats[0], hand.pack, passes.locks[0].deck)
    shadow_t, shadow_order = shadow(seats[0], 0)
    out["shuffle"] = {"seat": seats[0].seat, "rounds": ROUNDS,
                      "shadow_0": {"t": sx(shadow_t), "order": list(shadow_order)},
                      "answers": [answer_bytes(a).hex() for a in first_shuffle.answers]}
    out["relocks"] = [{"seat": step.seat, "deck": [hx(p) for p in step.deck],
                       "commitments": [hx(p) for p in step.commitments],
                       "proofs": [p.to_bytes().hex() for p in step.proofs]} for step in passes.relocks]
    out["cards"] = [sealed.open(p, {s.seat: s.card_key(p) for s in seats}) for p in range(40)]
    out["layouts"] = [{"dealing": lay.dealing.value, "seats": lay.seats, "dealer": lay.dealer, "onze": lay.onze,
                       "ferro": lay.ferro, "hands": {str(k): list(v) for k, v in sorted(lay.hands().items())},
                       "grants": [{"label": g.label, "recipient": g.recipient, "places": list(g.places),
                                   "release": g.release.value} for g in lay.grants()]}
                      for lay in (layout, Layout(ROUND, 6, 5), Layout(BLOCKS, 4, 3),
                                  Layout(BLOCKS, 4, 0, onze=1), Layout(BLOCKS, 4, 2, ferro=True))]
    boxes = {seat: BoxKey(h(f"box {seat}")) for seat in order}
    out["boxes"] = [{"seat": seat, "secret": box.secret.hex(), "scalar": sx(box.scalar), "point": hx(box.point),
                     "pledge": pledge(box.point).hex()} for seat, box in sorted(boxes.items())]
    out["code"] = seal_code({seat: box.point for seat, box in boxes.items()})
    envelopes = []
    for g in layout.grants():
        for sender in order:
            if sender == g.recipient:
                continue
            keys = {(sender, p): seats[order.index(sender)].card_key(p) for p in g.places}
            shared = boxes[sender].shared(boxes[g.recipient].point)
            e = seal(boxes[sender], sender, g.recipient, boxes[g.recipient].point, hand.digest, g.label, keys)
            envelopes.append({"sender": sender, "recipient": g.recipient, "label": g.label, "shared": hx(shared),
                              "key": envelope_key(shared, hand.digest, sender, g.recipient, g.label).hex(),
                              "contents": contents(keys).hex(), "sealed": e.sealed.hex()})
    out["envelopes"] = envelopes
    mine = layout.hands()[order[0]]
    out["opened"] = {str(order[0]): {str(p): out["cards"][p] for p in mine}}
    unlock = product(s.card_key(mine[0]) for s in seats)
    out["unlock"] = {"place": mine[0], "product": sx(unlock), "point": hx(mul(sealed.cards[mine[0]], unlock))}
    shown = disclose(boxes[order[1]], order[1], order[0], boxes[order[0]].point, hand.digest)
    out["disclosure"] = {"recipient": shown.recipient, "sender": shown.sender, "shared": hx(shown.shared),
                         "proof": shown.proof.to_bytes().hex()}
    return out


def main() -> None:
    sys.stdout.write(json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
