"""Cacho's deal, followed from what a seat saw (docs/deal.md §10): the family's check, which its game registers as
its ``deal_check`` (``client/games/cacho.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtui.client.fairness import Seen, dealt_by, in_turn, phrase, short, shown
from cardtui.fair import FairRandom, shuffled
from cardtui.v1 import cacho_pb2, table_pb2


def cacho(pack_of: Sequence[str], rng: FairRandom, seen: Seen, me: int | None, n: int) -> list[str]:
    """A shuffled pack dealt from its end, a card to each seat a round names; a redeal reshuffles."""
    problems: list[str] = []
    pack = shuffled(pack_of, rng)
    held: dict[int, list[str]] = {}
    got: list[str] = []
    dealer = dealt_by(seen)

    def compare() -> None:
        if me is not None and got != held.get(me, []):
            problems.append(phrase("you were dealt {got}, but the deck gives your seat {dealt}", got=shown(got),
                                   dealt=shown(held.get(me, [])) or "—"))

    for _name, body in seen:
        if isinstance(body, cacho_pb2.CachoRedealt):
            compare()
            pack, held, got = shuffled(pack_of, rng), {}, []
        elif isinstance(body, cacho_pb2.CachoRoundDealt):
            if not in_turn(body.seats, dealer, n):
                problems.append(phrase("round {round} was dealt in another order than the rules' (from the"
                                       " dealer's left)", round=body.round))
            for s in body.seats:
                held.setdefault(s, []).append(pack.pop())
        elif isinstance(body, table_pb2.CardsDealt) and body.seat == me:
            got.extend(body.cards)
        elif isinstance(body, cacho_pb2.CachoShowed) and short(Counter(held.get(body.seat, [])), body.cards):
            problems.append(phrase("seat {seat} showed {cards}, not the cards the deck dealt it", seat=body.seat + 1,
                                   cards=shown(body.cards)))
    compare()
    return problems
