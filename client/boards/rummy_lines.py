"""What the rummy family (Pif Paf, Cacheta, Chinchón) puts into the shape the line mode tells every hand in
(``client.shape``): each seat's chips or points, who won the hand or its pots, the pot for ``score``, and the
terse words of its own events: a knock with its discard, or (Chinchón) a close.

A Chinchón hand ends in a count rather than a winner: the close is said as it comes ("bia closes.": the card laid
face down changes nothing once the hand is over), the count with the hand's result, once the view after it holds
every seat's points ("Chinchón! bia minus ten; you 80, with 20 left, bia 5, caio 3 has 44."): the closer's minus
ten (all seven melded; verbose: what the player's cards outside melds added too), then every seat's points, the
player's first, with the points they may still take before the target puts them out once it is near (``near``). A
player out for good hears no draw or discard of the others'. A hand nobody closed before the rebuilt stock ran out
is said void, with the points as they stand."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from google.protobuf.message import Message

from cardtui.client.boards import rummy_ear
from cardtui.client.boards.rummy_words import closes
from cardtui.client.card_names import card_words, cards_words
from cardtui.client.cards import card_text
from cardtui.client.models import TableModel, action_name
from cardtui.client.shape import (
    CHIPS,
    Family,
    Side,
    changed,
    pot_won,
    result_said,
    said_with,
    seats,
    totals_said,
)
from cardtui.i18n import _, ngettext
from cardtui.v1 import rummy_pb2, table_pb2


def _sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy":
        return []
    if closes(model):  # points against, from 0: out once past the target, and the player told what is left
        gone = {s.seat for s in view.rummy.seats if s.status == rummy_pb2.RUMMY_SEAT_STATUS_OUT}
        names = {model.name(seat) for seat in gone if seat != model.seat}
        # another past the target is said as out with its total ("bot 4 has 104, out"): at the terse level the
        # hand it goes out alone, its total unchanged after (``changed``); its own sentence is not said
        out = [Side(s.name, s.total, template=_("{total}, out").format(total=said_with(s.name, "{n}")))
               if s.name in names else s for s in seats(model, [(s.seat, s.score, False) for s in view.rummy.seats])]
        target = view.rummy.table.target
        if model.seat in gone:  # past the target for good: nothing is left to take
            return [Side(s.name, s.total, s.mine, _("you {n}, out")) if s.mine else s for s in out]
        return [Side(s.name, s.total, s.mine, _("you {n}, with {left} left").format(
            n="{n}", left=max(0, target - s.total))) if s.mine and target and near(s.total, target) else s
                for s in out]
    return seats(model, [(s.seat, s.score, s.score <= 0) for s in view.rummy.seats])


def near(total: int, target: int) -> bool:
    """Whether the points a Chinchón player may still take before the target are worth saying with their total: a
    quarter of the target or fewer, where one hand's loose cards may put them out and they play to close early.
    Further off, the total alone (the target is the table's, said with its rules; ``table`` says it)."""
    return target - total <= target // 4


def _won(model: TableModel, body: table_pb2.HandEnded) -> str:
    """Who wins a hand played for points (Cacheta): the knock that won it was just said."""
    if not body.HasField("winner"):
        return _("The hand is over")
    return _("You win the hand") if body.winner == model.seat else _("{name} wins the hand").format(
        name=model.name(body.winner))


def counted(model: TableModel, mine: bool = True) -> str:
    """A Chinchón count as a hand's result says it: a chinchón, then the closer's "minus ten" (all seven melded)
    and what the player's cards outside melds added (``mine``: the verbose level's; the terse one has it in the
    player's total, said next); "" before the count. The others' are in their totals, said after it."""
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy" or not view.rummy.HasField("result"):
        return ""
    result = view.rummy.result
    parts = []
    for n, c in enumerate(result.counts):
        if (c.seat != model.seat or not mine) and (n or c.loose):
            continue  # the others' counts are in their totals, said next: the player's is said, and the closer's
            # minus ten (a total does not show it; a close with loose cards was just heard)
        if n == 0 and not c.loose:
            parts.append(_("you minus ten") if c.seat == model.seat
                         else _("{name} minus ten").format(name=model.name(c.seat)))
        else:
            added = f"{c.points:+d}"
            parts.append(_("you {n}").format(n=added) if c.seat == model.seat else said_with(model.name(c.seat),
                                                                                             added))
    said = ", ".join(parts)
    return _("Chinchón! {count}").format(count=said) if result.chinchon else said


def _result(model: TableModel, body: Message, pots: list[str], full: bool, speak: Callable[[str], str],
            heard: dict[str, int] | None) -> str:
    assert isinstance(body, table_pb2.HandEnded)
    count = counted(model, mine=full) if closes(model) else ""
    if closes(model) and not count and not body.HasField("winner") and not any(body.deltas):
        count = (_("Void hand: the stock ran out twice and nobody closed") if full  # nobody scores (docs/rules.md §6)
                 else _("Void hand: nobody closed"))  # terse: the stock's second rebuild was just heard
    if closes(model) and not count and not full and body.HasField("winner") and _counted(model):
        # the close that won it was just heard, and the player's count is in their total: the totals alone
        said = totals_said(changed(RUMMY.sides(model), heard)) + "."
        return said[:1].upper() + said[1:]
    won = "; ".join(pots) if pots else count or _won(model, body)
    return result_said(won, model, RUMMY, heard)


def _counted(model: TableModel) -> bool:
    """The view holds the hand's count (a close counted, not a hand with no close)."""
    view = model.view
    return view is not None and view.WhichOneof("game") == "rummy" and view.rummy.HasField("result")


def _out_for_good(model: TableModel) -> bool:
    """The player is past Chinchón's target and out of the match (no reenganche taken): nothing is theirs to decide."""
    view = model.view
    return closes(model) and view is not None and any(
        s.seat == model.seat and s.status == rummy_pb2.RUMMY_SEAT_STATUS_OUT for s in view.rummy.seats)


def _said(model: TableModel, body: Message) -> str | None:
    """The terse words of a rummy event where they are not the log's (its cards as the screen writes them): a knock
    with its discard, a Chinchón close (the card laid face down is in ``last``); the count, and the player's own
    passing of the target, said with the hand's result; a claim window let go, which is not news."""
    if isinstance(body, rummy_pb2.RummyKnocked):
        mine = body.seat == model.seat
        name = model.name(body.seat)
        card = card_text(body.discard).plain if body.HasField("discard") else ""
        if closes(model):  # the card laid face down changes nothing once the hand is over (``last`` has it)
            return _("You close.") if mine else _("{name} closes.").format(name=name)
        if card:
            return (_("You knock, discarding {card}.") if mine else _("{name} knocks, discarding {card}.")).format(
                name=name, card=card)
        return _("You knock, all ten melded.") if mine else _("{name} knocks, all ten melded.").format(name=name)
    if isinstance(body, rummy_pb2.ChinchonCounted):
        return ""
    if isinstance(body, rummy_pb2.ChinchonEliminated):
        return ""  # the hand's result says it ("you 116, out", "bia 104, out"); a reenganche on offer by its choices
    if isinstance(body, rummy_pb2.ChinchonUp) and not _out_for_good(model):
        return _("Pile: {card}.").format(card=card_text(body.card).plain)  # the top the player may take, no more
    if isinstance(body, rummy_pb2.RummyStockRebuilt) and not _out_for_good(model):
        return _("New stock: {n} cards.").format(n=body.stock)  # the pile, less its top
    others = isinstance(body, (rummy_pb2.RummyDrew, rummy_pb2.RummyDiscarded)) and body.seat != model.seat
    if _out_for_good(model) and (others or isinstance(body, (rummy_pb2.ChinchonUp, rummy_pb2.RummyStockRebuilt))):
        return ""  # past the target for good: the others' play changes no choice of the player's; results are said
    if isinstance(body, table_pb2.Acted) and action_name(body.action) == "reenter":
        return ""  # the points it comes back in at follow
    if isinstance(body, table_pb2.Acted) and action_name(body.action) == "pass":
        if not closes(model):
            return ""  # a claim window let go: not news
        return _("You stay out.") if body.seat == model.seat else _("{name} stays out.").format(
            name=model.name(body.seat))  # past Chinchón's target, not coming back in
    return None


DRAWS = frozenset({"draw:stock", "draw:pile"})


def _known_turn(model: TableModel, kinds: frozenset[str], _first: bool) -> bool:
    """A turn the player knows from what was just said: a draw from the stock or the pile (its top was just said,
    with the others' turns before it; the hand's first turn too, its cards just dealt), or a discard that may be any
    card held (the card just taken from the pile among them; one that may not go is said: "discard any but king
    cups"). A close, a knock beside them is news."""
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy":
        return False
    if kinds == DRAWS:
        return True
    if kinds != {"discard"}:
        return False
    free = {c for a in model.legal if action_name(a) == "discard" for c in a.cards}
    return free >= set(view.rummy.cards)


def _pot_won(model: TableModel, body: Message, full: bool) -> str | None:
    """Each of Pif Paf's pots as it is won, with who won it, said with the result."""
    if isinstance(body, rummy_pb2.PifPafPotWon):
        return pot_won(model, body.seat, body.chips, body.uncontested and full)
    return None


def _unit(model: TableModel) -> str:
    return _("chips") if model.game in CHIPS else _("points")


def _pot(model: TableModel) -> int:
    view = model.view
    return view.rummy.pot if view is not None and view.WhichOneof("game") == "rummy" else 0


def _seat_held(model: TableModel, view: table_pb2.View, seat: int) -> list[str]:
    r = next((c for c in view.rummy.seats if c.seat == seat), None)
    if r is None:
        return []
    if model.game in CHIPS:
        parts = [ngettext("{n} chip", "{n} chips", r.score).format(n=r.score)]
    else:
        parts = [ngettext("{n} point", "{n} points", r.score).format(n=r.score)]
    parts.append(ngettext("{n} card", "{n} cards", r.card_count).format(n=r.card_count))
    if r.status == rummy_pb2.RUMMY_SEAT_STATUS_FOLDED:
        parts.append(_("out of this hand"))
    return parts


def _on_table(model: TableModel, view: table_pb2.View, full: bool) -> list[str]:
    """The pot, the flip (``full``), the stock and the pile's top."""
    out: list[str] = []
    r = view.rummy
    if r.pot:
        out.append(_("The pot holds {pot}.").format(pot=r.pot))
    if r.HasField("flip") and full:
        out.append(_("The flip is {card}; wild: {wilds}.").format(card=card_words(r.flip), wilds=cards_words(r.wilds)))
    top = _("the pile's top is {card}").format(card=card_words(r.pile[-1])) if r.pile else _("the pile is empty")
    out.append(_("{n} cards in the stock, {top}.").format(n=r.stock_count, top=top))
    return out


def _hand(model: TableModel, view: table_pb2.View, slots: Sequence[str | None]) -> str:
    """The hand in the view's order, its melds and loose cards, the card just drawn and the cards that go out."""
    r = view.rummy
    if not r.cards:
        return _("You hold no cards.")
    out = [ngettext("You hold {n} card: {cards}.", "You hold {n} cards, in the order of their numbers: {cards}.",
                    len(r.cards)).format(n=len(r.cards), cards=cards_words(r.cards))]
    if r.melds:
        out.append(_("Melds: {melds}.").format(melds="; ".join(cards_words(m.cards) for m in r.melds)))
    if r.loose:
        out.append(_("Loose: {cards}.").format(cards=cards_words(r.loose)))
    if r.HasField("drawn"):
        out.append(_("You just drew {card}.").format(card=card_words(r.drawn)))
    if r.outs:
        out.append(_("Any of these lets you go out: {cards}.").format(cards=cards_words(r.outs)))
    return " ".join(out)


RUMMY = Family(rummy_pb2.RummyView, _sides, _unit, lambda body: isinstance(body, table_pb2.HandEnded), _result,
               pot_won=_pot_won, pot=_pot, seat_held=_seat_held, taken_only=closes, said=_said,
               stacks=lambda view: {s.seat: s.score for s in view.rummy.seats}, on_table=_on_table, hand=_hand,
               cards=lambda view: list(view.rummy.cards), claims=True,
               hint_cards=lambda view: (list(view.rummy.cards), view.rummy.drawn),
               discarded=rummy_ear.discarded, on_top=rummy_ear.on_top, terse=rummy_ear.terse, known_turn=_known_turn)
