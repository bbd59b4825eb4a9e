"""Why a rummy decision was flagged, in facts the seat knew (``engine.advice`` has the records and says which kind a
decision's reason is): a draw, a claim or a pass as a draw, a knock made or left as a knock, a discard as a discard,
Pif Paf's bets as a bet.

The facts count cards outside melds, at every rummy game alike: at Chinchón, whose hands count points, the fewest
cards (not the cards of the arrangement that leaves the fewest points, which may be more, and which ties leave
open), and a close's cards melded are the most that a close the rules allow melds of the seven it keeps. The live
cards are the pack's own (the Spanish ones at Chinchón, a joker among them). A player past Chinchón's target
coming back in or not is given no reason: neither is a draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtui.engine.advice import DiscardReason, DrawReason, KnockReason, Reason, pot_reason
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.melds import Melder, Ruleset, melder
from cardtui.engine.rummy.records import CLAIM, DISCARD, DRAW, KNOCK, PILE, Phase, RummyView, Scoring
from cardtui.engine.rummy.records import PASS as RUMMY_PASS
from cardtui.engine.rummy.records import SeatStatus as RummyStatus
from cardtui.engine.seen import unseen


def live(view: RummyView) -> Counter[Card]:
    """Each kind of card's copies the seat had not seen (``engine.seen``): not in its hand, the discard pile or
    the turned card, nor known to be in another seat's hand (taken from the pile and not thrown since)."""
    return unseen(view)


def loose(m: Melder, hand: Sequence[Card]) -> int:
    """The fewest cards ``hand`` leaves outside melds."""
    return len(m.arrange(hand)[1])


def helping(m: Melder, hand: Sequence[Card], left: Counter[Card]) -> int:
    """Live copies of the cards that would bring ``hand`` (nine cards) no further from going out: a card with
    which the ten leave no more cards outside melds than the nine do (the card joins a meld, or takes a loose
    one's place, which is then thrown)."""
    now = loose(m, hand)
    return sum(n for c, n in left.items() if n and loose(m, [*hand, c]) <= now)


def fewest(m: Melder, hand: Sequence[Card]) -> int:
    """Ten cards less the discard that leaves fewest outside melds: how many it leaves."""
    return min(loose(m, _without(hand, c)) for c in set(hand))


def reason(view: RummyView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
    """Why ``chosen`` stands where it does beside ``best`` (``engine.advice``), from the seat's view alone."""
    rules = rules_of(view)
    # Cards, not points: the melder that leaves the fewest cards loose (the same melds at every game).
    m = melder(Ruleset(rules.group, ace_high=rules.ace_high, wild_acts=rules.wild_acts, pack=rules.pack), view.wilds)
    left = live(view)
    count = sum(left.values())
    hand = list(view.cards)
    types = {chosen.type, best.type}
    if view.phase is Phase.REENTRY:
        return None
    if view.phase is Phase.BETTING:
        return pot_reason(view.pot, legal, -1.0, sum(1 for s in view.seats if s.status is RummyStatus.IN) - 1)
    if types & {DRAW, CLAIM, RUMMY_PASS}:
        card = (view.window.card if view.window is not None and CLAIM in types
                else view.pile[-1] if view.pile and any(a.type == DRAW and a.value == PILE for a in legal) else None)
        taking = fewest(m, [*hand, card]) if card is not None else -1
        out = card is not None and m.goes_out([*hand, card])
        ten = card is not None and m.all_melded([*hand, card])
        return DrawReason(card, loose(m, hand), taking, out, ten, helping(m, hand, left), count, bool(rules.points))
    if KNOCK in types:
        knocks = [a for a in legal if a.type == KNOCK]
        if not knocks:
            return None
        if rules.points:  # Chinchón: a close keeps seven, of which the best close the rules allow melds this many
            melded = max(len(hand) - 1 - loose(m, _without(hand, a.cards[0])) for a in knocks if a.cards)
        else:  # a knock with no discard melds every card held, the drawn one too
            size = view.table.hand_size
            melded = size + 1 if any(not a.cards for a in knocks) else size
        thrown = next((a.cards[0] for a in (chosen, best) if a.type == DISCARD and a.cards), None)
        outs = tens = -1
        # A knock scored in points lost by the others (Cacheta) takes more for every card melded: the table says so.
        knock_scored = view.table.scoring is Scoring.KNOCK
        if thrown is not None:
            kept = _without(hand, thrown)
            outs = sum(n for c, n in left.items() if n and m.goes_out([*kept, c]))
            if knock_scored:
                tens = sum(n for c, n in left.items() if n and m.all_melded([*kept, c]))
        others = [s.score for s in view.seats if s.seat != view.you and s.status is RummyStatus.IN and s.score > 0]
        lowest = min(others) if knock_scored and others else -1
        return KnockReason(melded, outs, count, view.stock_count, thrown, tens, lowest, bool(rules.points))
    if chosen.type == DISCARD and best.type == DISCARD and chosen.cards and best.cards:
        a, b = chosen.cards[0], best.cards[0]
        kept_a, kept_b = _without(hand, a), _without(hand, b)
        return DiscardReason(a, loose(m, kept_a), helping(m, kept_a, left), b, loose(m, kept_b),
                             helping(m, kept_b, left), count)
    return None


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest
