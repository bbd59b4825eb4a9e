"""The published vectors of the sealed scheme (docs/sealed-vectors.json) hold for this code, and for a second reading
of docs/deal.md's "Sealed tables" written here from the document alone, in plain Python integers (no libsecp256k1):
the curve's arithmetic, the hashes to points and scalars, the hand's digest, a lock, a relock, an opening, a proof,
an envelope. The document cannot go stale unnoticed, nor the file."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from cardtui.sealed.group import decode, encode
from cardtui.sealed.group import mul as fast_mul
from tools.sealed_vectors import vectors

DOCS = Path(__file__).resolve().parents[2] / "docs"
V: dict[str, Any] = json.loads((DOCS / "sealed-vectors.json").read_text(encoding="utf-8"))

# secp256k1 in affine coordinates, as SEC 2 gives it: y² = x³ + 7 over F_p; points as (x, y), None the identity.
P = int(V["group"]["p"], 16)
N = int(V["group"]["n"], 16)
Pt = tuple[int, int] | None


def add(a: Pt, b: Pt) -> Pt:
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % P == 0:
        return None
    if a == b:
        slope = 3 * a[0] * a[0] * pow(2 * a[1], -1, P) % P
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
    x = (slope * slope - a[0] - b[0]) % P
    return x, (slope * (a[0] - x) - a[1]) % P


def mul(point: Pt, k: int) -> Pt:
    result: Pt = None
    for bit in bin(k % N)[2:]:
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


def lift(x: int, odd: bool) -> Pt:
    rhs = (pow(x, 3, P) + 7) % P
    y = pow(rhs, (P + 1) // 4, P)
    if y * y % P != rhs:
        return None
    return x, (P - y if (y & 1) != odd else y)


def point(text: str) -> Pt:
    data = bytes.fromhex(text)
    assert len(data) == 33 and data[0] in (2, 3)
    return lift(int.from_bytes(data[1:], "big"), data[0] == 3)


def enc(p: Pt) -> str:
    assert p is not None
    return (bytes([2 + (p[1] & 1)]) + p[0].to_bytes(32, "big")).hex()


def tag(name: str) -> bytes:
    return f"cardtui-sealed/1 {name}".encode() + b"\x00"


def framed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def scalar(secret: bytes, label: bytes) -> int:
    return int.from_bytes(hmac.new(secret, tag("scalar") + label, "sha512").digest(), "big") % (N - 1) + 1


def sx(text: str) -> int:
    return int(text, 16)


def test_the_file_is_what_the_code_writes() -> None:
    assert json.loads(json.dumps(vectors())) == V


def test_the_tags_scalars_and_card_points_follow_the_document() -> None:
    for name, value in V["tags"].items():
        assert tag(name).hex() == value
    for item in V["scalars"]:
        assert scalar(bytes.fromhex(item["secret"]), bytes.fromhex(item["label"])) == sx(item["scalar"])
    for card, value in list(V["points"].items())[::7]:
        counter = 0
        while True:
            x = hashlib.sha256(tag("point") + framed(b"card " + card.encode()) + u32(counter)).digest()
            counter += 1
            found = lift(int.from_bytes(x, "big"), False) if int.from_bytes(x, "big") < P else None
            if found is not None:
                break
        assert enc(found) == value, card
    assert len(set(V["points"].values())) == 80


def test_the_hand_digest_the_seats_secrets_and_a_lock_follow_the_document() -> None:
    hand = V["hand"]
    parts = [tag("hand"), framed(hand["table"].encode()), hand["number"].to_bytes(8, "big"),
             framed(hand["game"].encode()), u32(len(hand["order"])), *(u32(s) for s in hand["order"]),
             u32(len(hand["cards"])), *(framed(c.encode()) for c in hand["cards"])]
    digest = hashlib.sha256(b"".join(parts)).digest()
    assert digest.hex() == hand["digest"]
    first = V["seats"][0]
    secret, seat = bytes.fromhex(first["secret"]), first["seat"]
    label = framed(digest) + u32(seat)
    assert scalar(secret, label + framed(b"lock")) == sx(first["lock"])
    assert [scalar(secret, label + framed(b"card") + u32(j)) for j in range(3)] == [sx(k) for k in first["keys"][:3]]
    order = sorted(range(40), key=lambda p: hmac.new(secret, tag("order") + label + u32(p), "sha256").digest())
    assert order == first["order"]
    assert pow(sx(first["keys"][5]), -1, N) == sx(first["card_keys"][5])
    # the first lock: each place m of the deck handed on is the lock times the pack's card at order[m]
    lock = V["locks"][0]
    s = sx(first["lock"])
    assert enc(mul(point(V["group"]["G"]), s)) == lock["point"]
    for m in (0, 17, 39):
        card = hand["cards"][order[m]]
        assert enc(mul(point(V["points"][card]), s)) == lock["deck"][m]


def test_a_relock_an_opening_and_a_proof_follow_the_document() -> None:
    first, second = V["seats"]
    s = sx(first["lock"])
    before, after = V["locks"][-1]["deck"], V["relocks"][0]["deck"]
    for j in (0, 21):
        k = sx(first["keys"][j])
        assert enc(mul(point(before[j]), k * pow(s, -1, N))) == after[j]
        assert enc(mul(point(V["group"]["G"]), k)) == V["relocks"][0]["commitments"][j]
    place = V["unlock"]["place"]
    unlock = sx(first["card_keys"][place]) * sx(second["card_keys"][place]) % N
    assert unlock == sx(V["unlock"]["product"])
    opened = mul(point(V["relocks"][-1]["deck"][place]), unlock)
    assert enc(opened) == V["points"][V["cards"][place]]
    assert sorted(V["cards"]) == sorted(V["hand"]["cards"])
    # the proof: R1 = z·B1 − c·Y1, R2 = z·B2 − c·Y2, and c = SHA-256(tag ‖ transcript ‖ R1 ‖ R2) mod n
    pr = V["proof"]
    raw = bytes.fromhex(pr["proof"])
    c, z = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    b1, y1, b2, y2 = (point(pr[k]) for k in ("b1", "y1", "b2", "y2"))
    r1, r2 = add(mul(b1, z), mul(y1, N - c)), add(mul(b2, z), mul(y2, N - c))
    transcript = framed(bytes.fromhex(pr["context"])) + b"".join(bytes.fromhex(pr[k]) for k in ("b1", "y1", "b2", "y2"))
    digest = hashlib.sha256(tag("proof") + transcript + bytes.fromhex(enc(r1)) + bytes.fromhex(enc(r2))).digest()
    assert int.from_bytes(digest, "big") % N == c


def test_the_envelopes_and_the_seal_code_follow_the_document() -> None:
    boxes = {b["seat"]: b for b in V["boxes"]}
    for b in V["boxes"]:
        assert scalar(bytes.fromhex(b["secret"]), framed(b"box")) == sx(b["scalar"])
        assert hashlib.sha256(tag("pledge") + bytes.fromhex(b["point"])).hexdigest() == b["pledge"]
    digest = bytes.fromhex(V["hand"]["digest"])
    for e in V["envelopes"]:
        shared = mul(point(boxes[e["sender"]]["point"]), sx(boxes[e["recipient"]]["scalar"]))
        assert enc(shared) == e["shared"]
        key = hmac.new(bytes.fromhex(e["shared"]), tag("box") + framed(digest) + u32(e["sender"])
                       + u32(e["recipient"]) + framed(e["label"].encode()), "sha256").digest()
        assert key.hex() == e["key"]
        assert ChaCha20Poly1305(key).decrypt(bytes(12), bytes.fromhex(e["sealed"]), None).hex() == e["contents"]
        raw = bytes.fromhex(e["contents"])
        count = int.from_bytes(raw[:4], "big")
        assert len(raw) == 4 + 40 * count
    data = tag("code") + u32(len(boxes)) + b"".join(u32(s) + bytes.fromhex(boxes[s]["point"]) for s in sorted(boxes))
    number = int.from_bytes(hashlib.sha256(data).digest()[:8], "big") % 10**6
    assert V["code"] == f"{number:06d}"[:3] + " " + f"{number:06d}"[3:]


def test_the_first_locks_shuffle_proof_follows_the_document() -> None:
    """Each shadow deck made again from its answer, and the challenge of them all asking the sides answered."""
    sh, first = V["shuffle"], V["seats"][0]
    secret, digest = bytes.fromhex(first["secret"]), bytes.fromhex(V["hand"]["digest"])
    label = framed(digest) + u32(first["seat"]) + framed(b"shadow") + u32(0)
    assert scalar(secret, label) == sx(sh["shadow_0"]["t"])
    head = tag("shadow") + framed(digest) + u32(first["seat"]) + u32(0)
    order = sorted(range(40), key=lambda p: hmac.new(secret, head + u32(p), "sha256").digest())
    assert order == sh["shadow_0"]["order"]
    # the curve's arithmetic here is the library's (960 multiplications in plain integers take half a minute); the
    # shadows' making, their order and the challenge are read from the document alone
    before = [decode(bytes.fromhex(V["points"][c])) for c in V["hand"]["cards"]]
    after = [decode(bytes.fromhex(x)) for x in V["locks"][0]["deck"]]
    shadows: list[list[bytes]] = []
    sides = []
    for text in sh["answers"][:sh["rounds"]]:
        raw = bytes.fromhex(text)
        side, k, order = raw[0], int.from_bytes(raw[1:33], "big"), list(raw[33:])
        sides.append(side)
        if side == 0:
            shadows.append([encode(fast_mul(before[order[m]], k)) for m in range(40)])
        else:
            back = [b""] * 40
            for m in range(40):
                back[order[m]] = encode(fast_mul(after[m], pow(k, -1, N)))
            shadows.append(back)
    data = tag("shuffle") + digest + u32(first["seat"]) + b"".join(encode(p) for p in after)
    data += b"".join(p for shadow in shadows for p in shadow)
    bits = hashlib.sha256(data).digest()
    assert [(bits[r // 8] >> (7 - r % 8)) & 1 for r in range(sh["rounds"])] == sides
