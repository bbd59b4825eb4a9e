"""The trucos' deals, followed from what a seat saw (docs/deal.md §10): each game's check, which it registers as its
``deal_check`` (``client/games/``), and the event that begins a pica-pica hand's 1v1s, where the deal stays with
the 3v3 round's dealer (``fairness.Dealing.duels``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from google.protobuf.message import Message

from cardtui.client.cards import glyphs
from cardtui.client.fairness import Seen, dealt_by, phrase, short, shown
from cardtui.fair import FairRandom, sample_positions, shuffled
from cardtui.i18n import N_
from cardtui.v1 import table_pb2, truco_pb2


def duel_begun(body: Message) -> bool:
    """Whether an event begins a pica-pica hand's three 1v1s (truco argentino for six)."""
    return isinstance(body, truco_pb2.ArgentinoRoundStarted) and body.duel


def paulista(pack: Sequence[str], rng: FairRandom, seen: Seen, me: int | None, n: int) -> list[str]:
    """A shuffled pack dealt from its front in threes: the mão first; then as the mão keeps
    (the others in turn), passes (the partner takes the mão's three) or rejects; at 11, all four."""
    problems: list[str] = []
    deck = shuffled(pack, rng)
    held: dict[int, list[str]] = {s: [] for s in range(4)}

    def give(seat: int) -> None:
        held[seat] = deck[:3]
        del deck[:3]

    for _name, body in seen:
        if isinstance(body, truco_pb2.PaulistaHandDealt):
            dealer = dealt_by(seen)
            if dealer is not None and body.mao != (dealer + 1) % 4:
                problems.append(phrase("seat {seat} was named the mão, but the mão sits at the dealer's right",
                                       seat=body.mao + 1))
            if body.ferro or body.HasField("onze_team"):
                for i in range(4):
                    give((body.mao + i) % 4)
            else:
                give(body.mao)
        elif isinstance(body, truco_pb2.PaulistaDealChoice):
            seat, partner = body.seat, (body.seat + 2) % 4
            if body.choice == truco_pb2.PAULISTA_CHOICE_KEEP:
                for s in ((seat + 1) % 4, partner, (seat + 3) % 4):
                    if not held[s]:
                        give(s)
            elif body.choice == truco_pb2.PAULISTA_CHOICE_PASS_CARDS:
                held[partner] = held[seat]
                give(seat)
            else:
                if list(body.cards) != held[seat]:
                    problems.append(phrase("the rejected cards {cards} are not the ones the deck dealt",
                                           cards=shown(body.cards)))
                give(seat)
        elif isinstance(body, table_pb2.CardsDealt | truco_pb2.PaulistaPartnerCards) and (
            isinstance(body, truco_pb2.PaulistaPartnerCards) or body.seat == me
        ):
            if list(body.cards) != held[body.seat]:
                dealt = shown(held[body.seat]) or "—"
                if body.seat == me:
                    problems.append(phrase("you were dealt {got}, but the deck gives {dealt}", got=shown(body.cards),
                                           dealt=dealt))
                else:
                    problems.append(phrase("seat {seat} was dealt {got}, but the deck gives {dealt}",
                                           seat=body.seat + 1, got=shown(body.cards), dealt=dealt))
        elif isinstance(body, truco_pb2.TrucoPlayed) and body.HasField("card"):
            if body.card not in held[body.seat]:
                problems.append(phrase("seat {seat} played {card}, a card the deck did not deal it", seat=body.seat + 1,
                                   card=glyphs(body.card)))
            else:
                held[body.seat].remove(body.card)
    return problems


def argentino(pack: Sequence[str], rng: FairRandom, seen: Seen, me: int | None, n: int) -> list[str]:
    """Three cards each from the first 3 × seats places of a shuffle cut short, one at a time
    from the mano (the seat after the dealer)."""
    problems: list[str] = []
    picks = sample_positions(rng, len(pack), 3 * n)
    dealer = next((b.dealer for _, b in seen if isinstance(b, table_pb2.HandStarted)), None)
    if dealer is None:
        return [N_("the hand's start (its dealer) never reached this client")]
    held: dict[int, list[str]] = {}
    for s in range(n):
        i = (s - dealer - 1) % n
        held[s] = [pack[picks[i]], pack[picks[n + i]], pack[picks[2 * n + i]]]
    for _name, body in seen:
        if isinstance(body, table_pb2.CardsDealt) and body.seat == me and list(body.cards) != held[me]:
            problems.append(phrase("you were dealt {got}, but the deck gives your seat {dealt}",
                                   got=shown(body.cards), dealt=shown(held[me])))
        elif isinstance(body, truco_pb2.TrucoPlayed) and body.HasField("card") and body.card not in held[body.seat]:
            problems.append(phrase("seat {seat} played {card}, a card the deck did not deal it", seat=body.seat + 1,
                                   card=glyphs(body.card)))
        elif isinstance(body, truco_pb2.ArgentinoShown) and short(Counter(held[body.seat]), body.cards):
            problems.append(phrase("seat {seat} showed {cards}, not the cards the deck dealt it", seat=body.seat + 1,
                                   cards=shown(body.cards)))
    return problems
