"""The rummy family's deal, followed from what a seat saw (docs/deal.md §10): the family's check, which each of
its games registers as its ``deal_check`` (``client/games/``), with what only that game shows of the deck.

The family deals alike: a shuffled pack dealt from its end, one card at a time round the seats dealt in, from the
dealer's left; the stock is what is left, drawn from the end until it is rebuilt. A game may turn a card up from
the deck after the deal (Cacheta's flip, Chinchón's card that starts the pile) and lay hands out at its count
(Chinchón's): each says so in its own module (``Shows``), so this check names none of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from cardtui.client.cards import glyphs
from cardtui.client.fairness import DealCheck, Seen, dealt_by, in_turn, phrase, shown
from cardtui.fair import FairRandom, shuffled
from cardtui.i18n import N_, _
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2


def _nothing(body: Message) -> None:
    return None


@dataclass(frozen=True)
class Shows:
    """What one rummy game shows of its deck beyond the deal, the draws, the discards and the knock."""

    turned_up: Callable[[Message], str | None] = _nothing
    """The card an event says the deck turned up after the deal (Cacheta's flip), or None."""
    not_next: str = ""
    """What is said where the card turned up is not the deck's next: a template with ``{card}``."""
    laid_out: Callable[[Message], list[tuple[int, str]] | None] = _nothing
    """Each card (seat, card) an event lays out of the hands at the count, every one a seat must hold; or None."""
    laid_how: str = ""
    """How a card laid out is shown, in the finding of one a seat never had (``"counted"``)."""


def check(shows: Shows = Shows()) -> DealCheck:
    """The family's check, with what ``shows`` says the game shows beyond it."""

    def follow(pack_of: Sequence[str], rng: FairRandom, seen: Seen, me: int | None, n: int) -> list[str]:
        """Every card a seat shows after the deal (a discard, its knock's melds, a hand laid out at a count) must
        be one it holds: dealt it, drawn from the stock (the deck says which), or taken from the pile (everyone saw
        which)."""
        problems: list[str] = []
        pack: list[str] | None = shuffled(pack_of, rng)
        held: dict[int, list[str]] = {}
        holds: dict[int, Counter[str]] = {}
        unseen: Counter[int] = Counter()
        """Cards a seat drew from a rebuilt stock: cards it holds that this check cannot name."""
        got: list[str] = []
        drawn: str | None = None
        dealer = dealt_by(seen)

        def holding(seat: int, card: str, how: str) -> None:
            mine = holds.setdefault(seat, Counter())
            if mine[card] > 0:
                mine[card] -= 1
            elif unseen[seat] > 0:
                unseen[seat] -= 1
            else:
                problems.append(phrase("seat {seat} {how} {card}, a card the deck never gave it", seat=seat + 1,
                                       how=_(how), card=glyphs(card)))

        for _name, body in seen:
            if isinstance(body, rummy_pb2.RummyDealt) and pack is not None:
                if not in_turn(body.seats, dealer, n):
                    problems.append(N_("the cards were dealt in another order than the rules' (from the dealer's"
                                       " left)"))
                for _round in range(body.count):
                    for s in body.seats:
                        card = pack.pop()
                        held.setdefault(s, []).append(card)
                        holds.setdefault(s, Counter())[card] += 1
            elif isinstance(body, table_pb2.CardsDealt) and body.seat == me:
                got.extend(body.cards)
            elif pack is not None and (up := shows.turned_up(body)) is not None:
                if up != pack.pop():
                    problems.append(phrase(shows.not_next, card=glyphs(up)))
            elif isinstance(body, rummy_pb2.RummyStockRebuilt):
                pack = None  # the stock is now the discard pile turned over: no longer the deck's
            elif isinstance(body, rummy_pb2.RummyDrew) and body.source == common_pb2.DRAW_SOURCE_STOCK:
                drawn = pack.pop() if pack else None
                if drawn is None:
                    unseen[body.seat] += 1
                else:
                    holds.setdefault(body.seat, Counter())[drawn] += 1
            elif isinstance(body, rummy_pb2.RummyDrew) and body.HasField("card"):  # the pile's top, seen by all
                holds.setdefault(body.seat, Counter())[body.card] += 1
            elif isinstance(body, rummy_pb2.RummyWindowClosed) and body.HasField("taken_by"):
                holds.setdefault(body.taken_by, Counter())[body.card] += 1
            elif isinstance(body, rummy_pb2.RummyDrawnCard) and body.seat == me and drawn not in (None, body.card):
                problems.append(phrase("you drew {card} from the stock, but the deck's next card is {next}",
                                       card=glyphs(body.card), next=glyphs(drawn or "?")))
            elif isinstance(body, rummy_pb2.RummyDiscarded):
                holding(body.seat, body.card, N_("discarded"))
            elif isinstance(body, rummy_pb2.RummyKnocked):
                for card in [c for meld in body.melds for c in meld.cards] + ([body.discard] if body.discard else []):
                    holding(body.seat, card, N_("knocked with"))
            elif (laid := shows.laid_out(body)) is not None:
                for seat, card in laid:
                    holding(seat, card, shows.laid_how)
        if me is not None and got != held.get(me, []):
            problems.append(phrase("you were dealt {got}, but the deck gives your seat {dealt}", got=shown(got),
                                   dealt=shown(held.get(me, [])) or "—"))
        return problems

    return follow
