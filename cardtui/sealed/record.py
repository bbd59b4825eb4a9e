"""A sealed hand written down: every message of the deal and the play in order, as JSON (docs/history.md, "sealed"),
and its replay through a fresh ledger, which names the first seat at fault as the table did.

The record is what the server journals (a table resumes from it), what the hand's history keeps under ``sealed``, and
what ``cardtui verify`` checks. Nothing in it opens a card that was not opened at the table. Its shape:

``{"scheme", "hand": {"table", "number", "game", "order", "cards"}, "layout": {"dealing", "seats", "dealer",
"onze", "ferro"}, "boxes": {seat: point}, "steps": [...]}``, each step an object whose ``step`` is one of ``lock``,
``relock``, ``envelope``, ``shuffle``, ``proofs``, ``withheld``, ``dispute``, ``reject``, ``pass``, ``keep``,
``choose``, ``play``, ``down``, ``show``, ``claim``, ``end``, with its fields beside it, in hex where they are
bytes (points, proofs, scalars, sealed envelopes, a shuffle's answers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtui.sealed import SCHEME
from cardtui.sealed.deck import Hand, Lock
from cardtui.sealed.envelopes import Disclosure, Envelope
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import Point, decode, encode, scalar_bytes, scalar_from
from cardtui.sealed.ledger import Ledger, Opening
from cardtui.sealed.plan import Dealing, Layout
from cardtui.sealed.proofs import Proof
from cardtui.sealed.shuffle import ShuffleProof, answer_bytes, answer_from

Step = dict[str, Any]
Judge = Callable[[str, int, Sequence[str]], bool]
"""Whether cards shown make a claim: ``judge(kind, value, cards)`` (the truco family's envido and flor)."""


def _p(point: Point) -> str:
    return encode(point).hex()


def _pt(text: str) -> Point:
    return decode(bytes.fromhex(text))


def opening_step(opening: Opening) -> dict[str, Any]:
    return {"seat": opening.seat, "place": opening.place, "card": opening.card,
            "keys": {str(seat): scalar_bytes(key).hex() for seat, key in sorted(opening.keys.items())}}


def _opening(data: Mapping[str, Any]) -> Opening:
    return Opening(int(data["seat"]), int(data["place"]), str(data["card"]),
                   {int(seat): scalar_from(bytes.fromhex(key)) for seat, key in data["keys"].items()})


@dataclass
class Recorder:
    """Writes a sealed hand down as its messages come, in the record's form."""

    hand: Hand
    layout: Layout
    boxes: Mapping[int, Point]
    steps: list[Step] = field(default_factory=list)

    def lock(self, step: Lock) -> None:
        self.steps.append({"step": "lock", "seat": step.seat, "point": _p(step.point),
                           "deck": [_p(p) for p in step.deck], "proof": step.proof.to_bytes().hex()})

    def relock(self, seat: int, deck: Sequence[Point], commitments: Sequence[Point]) -> None:
        self.steps.append({"step": "relock", "seat": seat, "deck": [_p(p) for p in deck],
                           "commitments": [_p(p) for p in commitments]})

    def shuffle(self, proof: ShuffleProof) -> None:
        self.steps.append({"step": "shuffle", "seat": proof.seat,
                           "answers": [answer_bytes(a).hex() for a in proof.answers]})

    def proofs(self, seat: int, proofs: Sequence[Proof]) -> None:
        self.steps.append({"step": "proofs", "seat": seat, "proofs": [p.to_bytes().hex() for p in proofs]})

    def envelope(self, envelope: Envelope) -> None:
        self.steps.append({"step": "envelope", "sender": envelope.sender, "recipient": envelope.recipient,
                           "label": envelope.label,
                           "sealed": envelope.sealed.hex()})

    def withheld(self) -> None:
        self.steps.append({"step": "withheld"})

    def dispute(self, disclosure: Disclosure) -> None:
        self.steps.append({"step": "dispute", "recipient": disclosure.recipient, "sender": disclosure.sender,
                           "shared": _p(disclosure.shared), "proof": disclosure.proof.to_bytes().hex()})

    def reject(self, openings: Sequence[Opening]) -> None:
        self.steps.append({"step": "reject", "cards": [opening_step(o) for o in openings]})

    def simple(self, what: str, seat: int | None = None, place: int | None = None) -> None:
        """``pass``, ``keep``, ``end``; ``choose`` and ``down`` with the seat and the place."""
        self.steps.append({"step": what} if seat is None else {"step": what, "seat": seat, "place": place})

    def play(self, opening: Opening) -> None:
        self.steps.append({"step": "play", **opening_step(opening)})

    def show(self, opening: Opening) -> None:
        self.steps.append({"step": "show", **opening_step(opening)})

    def claim(self, seat: int, kind: str, value: int, places: Sequence[int]) -> None:
        self.steps.append({"step": "claim", "seat": seat, "kind": kind, "value": value, "places": list(places)})

    def record(self) -> dict[str, Any]:
        h, lay = self.hand, self.layout
        return {"scheme": SCHEME,
                "hand": {"table": h.table, "number": h.number, "game": h.game, "order": list(h.order),
                         "cards": list(h.cards)},
                "layout": {"dealing": lay.dealing.value, "seats": lay.seats, "dealer": lay.dealer, "onze": lay.onze,
                           "ferro": lay.ferro},
                "boxes": {str(seat): _p(point) for seat, point in sorted(self.boxes.items())},
                "steps": list(self.steps)}


@dataclass(frozen=True)
class Replayed:
    """A record replayed: the ledger it left, the seat named (None for a hand without fault) and how many steps
    were read before it."""

    ledger: Ledger | None
    cheat: Cheat | None
    steps: int
    problem: str = ""
    """A record that cannot be read (not a seat's fault: the record itself), in words."""


def replay(record: Mapping[str, Any], judge: Judge | None = None) -> Replayed:
    """Every step of ``record`` through a fresh ledger that checks everything (as the server's does)."""
    try:
        h, lay = record["hand"], record["layout"]
        if record.get("scheme") != SCHEME:
            return Replayed(None, None, 0, f"not a {SCHEME} record")
        hand = Hand(str(h["table"]), int(h["number"]), str(h["game"]), tuple(int(s) for s in h["order"]),
                    tuple(str(c) for c in h["cards"]))
        layout = Layout(Dealing(str(lay["dealing"])), int(lay["seats"]), int(lay["dealer"]),
                        None if lay.get("onze") is None else int(lay["onze"]), bool(lay.get("ferro")))
        boxes = {int(seat): _pt(point) for seat, point in record["boxes"].items()}
        ledger = Ledger(hand, layout, boxes, full=True)
    except (KeyError, TypeError, ValueError) as error:
        return Replayed(None, None, 0, f"the record's hand cannot be read: {error}")
    claims: list[tuple[int, str, int, list[int]]] = []
    for index, step in enumerate(record.get("steps", ())):
        try:
            apply_step(ledger, step, claims, judge)
        except Cheat as cheat:
            return Replayed(ledger, cheat, index)
        except (KeyError, TypeError, ValueError, StopIteration) as error:
            return Replayed(ledger, None, index, f"step {index + 1} cannot be read: {error}")
    return Replayed(ledger, None, len(record.get("steps", ())))


def apply_step(ledger: Ledger, step: Mapping[str, Any], claims: list[tuple[int, str, int, list[int]]],
               judge: Judge | None) -> None:
    """One step of a record through ``ledger`` (a replay's, or a table's taking its journal back)."""
    match step["step"]:
        case "lock":
            ledger.add_lock(Lock(int(step["seat"]), _pt(step["point"]), tuple(_pt(p) for p in step["deck"]),
                                 Proof.from_bytes(bytes.fromhex(step["proof"]))))
        case "relock":
            ledger.add_relock(int(step["seat"]), tuple(_pt(p) for p in step["deck"]),
                              tuple(_pt(p) for p in step["commitments"]))
        case "shuffle":
            ledger.add_shuffle(ShuffleProof(int(step["seat"]),
                                            tuple(answer_from(bytes.fromhex(a)) for a in step["answers"])))
        case "proofs":
            ledger.add_proofs(int(step["seat"]), tuple(Proof.from_bytes(bytes.fromhex(p)) for p in step["proofs"]))
        case "envelope":
            ledger.add_envelope(Envelope(int(step["sender"]), int(step["recipient"]), str(step["label"]),
                                         bytes.fromhex(step["sealed"])))
        case "withheld":
            named = ledger.withheld()
            if named:
                raise named[0]
        case "dispute":
            raise ledger.dispute(Disclosure(int(step["recipient"]), int(step["sender"]), _pt(step["shared"]),
                                            Proof.from_bytes(bytes.fromhex(step["proof"]))))
        case "reject":
            ledger.reject([_opening(o) for o in step["cards"]])
        case "pass":
            ledger.pass_block()
        case "keep":
            ledger.keep()
        case "choose":
            ledger.choose(int(step["seat"]), int(step["place"]))
        case "play":
            ledger.play(_opening(step))
        case "down":
            ledger.play_down(int(step["seat"]), int(step["place"]))
        case "show":
            ledger.show(_opening(step))
        case "claim":
            claims.append((int(step["seat"]), str(step["kind"]), int(step["value"]), [int(p) for p in step["places"]]))
        case "end":
            for seat, kind, value, places in claims:
                if any(p not in ledger.opened or p not in ledger.holdings.get(seat, ()) for p in places):
                    raise Cheat(seat, Fault.FALSE_CLAIM, f"it said {kind} {value} and did not show its cards")
                if judge is not None and not judge(kind, value, [ledger.opened[p] for p in places]):
                    raise Cheat(seat, Fault.FALSE_CLAIM, f"it said {kind} {value}; its cards shown do not make it")
            ledger.audit()
        case other:
            raise ValueError(f"no such step: {other!r}")
