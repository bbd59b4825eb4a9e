"""An analysis's numbers and reasons in words: one scale of points for every loss, and why a decision was flagged.

A loss is said in one scale in every game, *points* (``PointsScale``, the server's: 125 for a whole stake of the
decision lost, an inaccuracy from 5, a mistake from 10, a blunder from 15): what a decision lost, how far another
choice stands below the best, the drill's "close: 3 points below the best". A choice's own value is in its game's
unit, named and never called points: the chance to win the match for truco and Cacheta ("54.7%"), the chips it ends
the hand with for Cacho and Pif Paf ("-0.23 chips"). Accuracy (0 to 100) is another scale, said once in a short
line.

A flagged decision's reason (``AnalysisReason``) comes typed from the server, worked out from what the
seat knew then (``engine.advice``); here it is said in the reader's language, a sentence at a time, each from
a capital. The analysis screen, its drill, the line mode and ``cardtui analyze`` all speak through this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from cardtui.client.cards import card_text
from cardtui.client.models import TableModel
from cardtui.client.words import word
from cardtui.i18n import _, ngettext
from cardtui.v1 import analysis_pb2, common_pb2


def match_odds(unit: int) -> bool:
    return unit != analysis_pb2.ANALYSIS_UNIT_CHIPS


def _figure(n: float) -> str:
    """Points as said: whole from 10 up, a tenth below (where a line falls)."""
    return f"{n:.0f}" if abs(n) >= 10 else f"{n:.1f}"


def unit_line(unit: int, scale: analysis_pb2.PointsScale | None = None) -> str:
    """The unit of the values and the scale of the losses, said once at the top of an analysis (``scale``: the
    server's points; an older server sends none, and the lines go unsaid)."""
    if match_odds(unit):
        said = _("A choice's value is your chance to win the match.")
    else:
        said = _("A choice's value is the chips it ends the hand with.")
    if scale is None or scale.stake <= 0:
        return said + " " + _("What a choice lost is in points.")
    if match_odds(unit):
        line = _("What a choice lost is in points: {stake} are a whole stake of the hand at the score; above "
                 "{inaccuracy} it is an inaccuracy, above {mistake} a mistake, above {blunder} a blunder.")
    else:  # chips: the stake is the hand's own, whatever the score
        line = _("What a choice lost is in points: {stake} are a whole stake of the hand; above {inaccuracy} it is "
                 "an inaccuracy, above {mistake} a mistake, above {blunder} a blunder.")
    return said + " " + line.format(stake=_figure(scale.stake), inaccuracy=_figure(scale.inaccuracy),
                                    mistake=_figure(scale.mistake), blunder=_figure(scale.blunder))


def accuracy_line() -> str:
    """What accuracy measures, said once."""
    return _("Accuracy (0 to 100) measures how close the choices came to the best: 100 is always the best.")


def amount(points: float) -> str:
    """A loss or a gap, in points: "9.4 points", "32 points"."""
    n = _figure(points)
    return ngettext("{n} point", "{n} points", 1 if n == "1.0" else 2).format(n=n)


def value(x: float, unit: int) -> str:
    """A choice's value in its game's unit: the chance to win the match ("54.7%"), or the chips it ends the hand
    with against those held at the decision ("-0.23 chips")."""
    if match_odds(unit):
        return f"{100.0 * x:.1f}%"
    n = f"{x:+.2f}"
    return ngettext("{n} chip", "{n} chips", 1 if n == "+1.00" else 2).format(n=n)


def lost(points: float) -> str:
    """A decision's loss in points: "(9.4 points lost)"."""
    n = _figure(points)
    return ngettext("({n} point lost)", "({n} points lost)", 1 if n == "1.0" else 2).format(n=n)


def close(points: float, chosen: float, best: float, unit: int) -> str | None:
    """A choice labelled as good whose value, as shown beside the best's, is not the same: "close: 1.2 points below
    the best" (its gap in points), said instead of "as good", which the figures would belie; None where the two
    read alike."""
    if value(chosen, unit) == value(best, unit):
        return None
    return _("close: {amount} below the best").format(amount=amount(points))


def sentence(text: str) -> str:
    """``text`` as a sentence of its own: from a capital (a part said after a colon starts in lower case)."""
    return text[:1].upper() + text[1:]


def _pct(share: float) -> str:
    return f"{100.0 * share:.0f}%"


def _card(code: str) -> str:
    return card_text(code).plain


def reason_text(model: TableModel, reason: analysis_pb2.AnalysisReason,
                best: common_pb2.Action | None = None, chosen: common_pb2.Action | None = None) -> Text | None:
    """Why a decision stood where it did, in words, from what the seat knew then; None without a reason.
    ``best``: the choice the analysis found best, for a reason that must say why it is not the one the
    reason's own figures point to; ``chosen``: the choice made (a truco reason names the card it played)."""
    said = reason_words(model, reason, best, chosen)
    return Text(said, style="italic") if said else None


def reason_words(model: TableModel, reason: analysis_pb2.AnalysisReason,
                 best: common_pb2.Action | None = None, chosen: common_pb2.Action | None = None) -> str:
    """``reason_text``'s sentence, plain (the command line's)."""
    what = reason.WhichOneof("reason")
    said = REASONS.get(what) if what else None
    return said(model, getattr(reason, what), best, chosen) if said is not None and what else ""


def _envido(model: TableModel, r: analysis_pb2.EnvidoAdvice) -> str:
    if r.call and r.beats_caller >= 0:
        said = _("Your envido was {n}. Whoever calls {call} usually holds {floor} or more: against such a hand "
                 "yours wins {p} of the time.").format(n=r.envido, call=word(model, r.call), floor=r.caller,
                                                       p=_pct(r.beats_caller))
    else:
        said = _("Your envido was {n}: it beats {p} of the hands the others could hold.").format(
            n=r.envido, p=_pct(r.beats))
    return said + " " + _("Score {mine} to {theirs}, playing to {target}.").format(
        mine=r.mine, theirs=r.theirs, target=r.target)


PLAYS = frozenset({common_pb2.ACTION_TYPE_PLAY, common_pb2.ACTION_TYPE_PLAY_DOWN})


def _truco(r: analysis_pb2.TrucoAdvice, chosen: common_pb2.Action | None = None) -> str:
    parts = []
    if r.first >= 0:
        if r.second >= 0:
            parts.append(_("Your best card beats {p} of the cards you had not seen; your second, {q}.").format(
                p=_pct(r.first), q=_pct(r.second)))
        else:
            parts.append(_("Your last card beats {p} of the cards you had not seen.").format(p=_pct(r.first)))
    if r.won or r.lost:
        parts.append(_("Tricks so far: {won} won, {lost} lost.").format(won=r.won, lost=r.lost))
    if r.trick:
        parts += _trick(r, chosen is not None and chosen.type in PLAYS)
    return " ".join(parts)


def _trick(r: analysis_pb2.TrucoAdvice, played: bool) -> list[str]:
    """The trick in play: the cards on the table and who holds it, what the card (played, or the seat's best)
    and the best choice's card do to it, and what it decides."""
    out = []
    if r.table:
        cards = ", ".join(_card(c) for c in r.table)
        if r.high_side == analysis_pb2.TRUCO_SIDE_YOURS:
            holds = _("your side's {card} holds it").format(card=_card(r.high))
        elif r.high_side == analysis_pb2.TRUCO_SIDE_THEIRS:
            holds = _("their {card} holds it").format(card=_card(r.high))
        elif r.high_side == analysis_pb2.TRUCO_SIDE_NEITHER:
            holds = _("it stands tied at the {card}").format(card=_card(r.high))
        else:
            holds = _("no card there can win it")
        out.append(_("On the table in trick {n}: {cards}; {holds}.").format(n=r.trick, cards=cards, holds=holds))
    if r.card:
        said = _outcome(r.card_does, _card(r.card))
        if said:
            out.append(sentence(said) if played else _("Your best card, played now: {what}").format(what=said))
    if r.best_card:
        said = _outcome(r.best_does, _card(r.best_card))
        if said:
            out.append(_("The best choice: {what}").format(what=said))
    if r.tie_goes == analysis_pb2.TRUCO_SIDE_YOURS:
        out.append(_("A tie of this trick gives your side the hand."))
    elif r.tie_goes == analysis_pb2.TRUCO_SIDE_THEIRS:
        out.append(_("A tie of this trick gives the other side the hand."))
    elif r.tie_goes == analysis_pb2.TRUCO_SIDE_NEITHER:
        out.append(_("A tie of this trick decides nothing yet."))
    if r.decides:
        out.append(_("Taking this trick takes the hand."))
    return out


def _outcome(does: int, card: str) -> str:
    """What a card does to the trick as the table stands, as a sentence."""
    if does == analysis_pb2.TRUCO_OUTCOME_LEADS:
        return _("the {card} leads the trick.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_TAKES:
        return _("the {card} takes the trick as it stands.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_KEPT:
        return _("with the {card} the trick stays your partner's.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_TIES:
        return _("with the {card} the trick stands tied.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_LOSES:
        return _("the {card} leaves the trick to the other side.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_DOWN:
        return _("the {card} face down cannot win the trick.").format(card=card)
    if does == analysis_pb2.TRUCO_OUTCOME_SURE:
        return _("the {card} takes the trick whatever the other side still plays.").format(card=card)
    return ""


def _draw(r: analysis_pb2.DrawAdvice) -> str:
    parts = []
    if r.card and r.goes_out and r.closes:  # Chinchón: going out is a close with all seven kept melded
        parts.append(_("Taking the {card} let you close with all seven cards melded, for -10.").format(
            card=_card(r.card)))
    elif r.card and r.goes_out:
        parts.append(_("Taking the {card} let you go out with all ten cards melded.").format(card=_card(r.card))
                     if r.all_ten else _("Taking the {card} let you go out now.").format(card=_card(r.card)))
    elif r.card and r.taking >= 0:
        parts.append(ngettext("Taking the {card} left {n} card outside melds (now {now}).",
                              "Taking the {card} left {n} cards outside melds (now {now}).", r.taking).format(
            card=_card(r.card), n=r.taking, now=r.loose))
    parts.append(ngettext("From the stock, {outs} of the {unseen} unseen card would help your hand.",
                          "From the stock, {outs} of the {unseen} unseen cards would help your hand.",
                          r.unseen).format(outs=r.outs, unseen=r.unseen))
    return " ".join(parts)


def _discard(r: analysis_pb2.DiscardAdvice) -> str:
    """Each count said with its own noun, singular or plural as the count asks ("1 live card")."""
    def loose(n: int) -> str:
        return ngettext("{n} card outside melds", "{n} cards outside melds", n).format(n=n)

    def live(n: int) -> str:
        return ngettext("{n} live card", "{n} live cards", n).format(n=n)

    return _("Throwing the {chosen} kept {chosen_loose}, with {chosen_live} to help; throwing the {best} kept "
             "{best_loose}, with {best_live} (of {unseen} unseen).").format(
        chosen=_card(r.chosen), chosen_loose=loose(r.chosen_loose), chosen_live=live(r.chosen_outs),
        best=_card(r.best), best_loose=loose(r.best_loose), best_live=live(r.best_outs), unseen=r.unseen)


def _knock(r: analysis_pb2.KnockAdvice) -> str:
    if r.closes:
        return _close(r)
    said = _("Knocking then melded {melded} of your cards.").format(melded=r.melded)
    if r.discard and r.outs >= 0:
        said += " " + _("Playing on, throwing the {card}, {outs} of the {unseen} unseen cards would take you out, "
                        "with {stock} left in the stock.").format(card=_card(r.discard), outs=r.outs,
                                                                   unseen=r.unseen, stock=r.stock)
    if r.discard and r.tens >= 0:
        said += " " + ngettext(
            "{tens} of them would meld all ten: a knock of ten takes 2 points from every other player, one of nine 1.",
            "{tens} of them would meld all ten: a knock of ten takes 2 points from every other player, one of nine 1.",
            r.tens).format(tens=r.tens)
        if r.fewest > 0:
            said += " " + ngettext("The fewest points another player holds: {n}.",
                                   "The fewest points another player holds: {n}.", r.fewest).format(n=r.fewest)
    return said


def _close(r: analysis_pb2.KnockAdvice) -> str:
    """Chinchón's close (cortar): it keeps seven of the eight cards, and all seven melded count -10."""
    said = ngettext("Closing then melded {melded} of the seven cards kept.",
                    "Closing then melded {melded} of the seven cards kept.", r.melded).format(melded=r.melded)
    if r.discard and r.outs >= 0:
        said += " " + ngettext(
            "Playing on, throwing the {card}, {outs} of the {unseen} unseen cards would meld all seven, a close for "
            "-10, with {stock} left in the stock.",
            "Playing on, throwing the {card}, {outs} of the {unseen} unseen cards would meld all seven, a close for "
            "-10, with {stock} left in the stock.", r.outs).format(card=_card(r.discard), outs=r.outs,
                                                                   unseen=r.unseen, stock=r.stock)
    return said


def _bet(r: analysis_pb2.BetAdvice, best: common_pb2.Action | None) -> str:
    if r.call:
        said = _("The pot held {pot} chips and staying in cost {call}: the pot odds ask for a win {needed} of the "
                 "time.").format(pot=r.pot, call=r.call, needed=_pct(r.needed))
    else:
        said = _("The pot held {pot} chips and staying in was free.").format(pot=r.pot)
    if r.chance < 0:
        return said
    said += " " + _("Against one hand dealt at random from the cards you had not seen, yours wins {p} of the "
                    "time.").format(p=_pct(r.chance))
    odds = r.chance
    if r.opponents > 1:
        odds = r.chance_all if r.chance_all >= 0 else r.chance ** r.opponents
        if r.opponents == 2:
            said += " " + _("Against both other players still in, about {q}.").format(q=_pct(odds))
        else:
            said += " " + ngettext(
                "Against the {n} other player still in, about {q}.",
                "Against all {n} other players still in, about {q}.", r.opponents).format(n=r.opponents, q=_pct(odds))
    if not r.call:
        return said
    said += " " + (_("That is at least what the pot odds ask for.") if odds >= r.needed
                   else _("That is less than the pot odds ask for."))
    if best is not None:
        # The odds weigh a chance against random hands; the verdict comes from playing the hand out. Where they point
        # different ways, say so, or the reason reads as arguing against its own verdict.
        folds = best.type == common_pb2.ACTION_TYPE_FOLD
        if folds and odds >= r.needed:
            said += " " + _("So the odds alone favour staying in; but the playouts, which play the hand to its end "
                            "as the players would bet it, find folding loses less.")
        elif not folds and odds < r.needed:
            said += " " + _("So the odds alone say fold; but the playouts, which play the hand to its end as the "
                            "players would (later rounds, the others folding), find staying in loses less.")
    return said


Reason = Callable[[TableModel, Any, "common_pb2.Action | None", "common_pb2.Action | None"], str]
REASONS: dict[str, Reason] = {
    "envido": lambda model, r, _best, _chosen: _envido(model, r),
    "truco": lambda _model, r, _best, chosen: _truco(r, chosen),
    "draw": lambda _model, r, _best, _chosen: _draw(r),
    "discard": lambda _model, r, _best, _chosen: _discard(r),
    "knock": lambda _model, r, _best, _chosen: _knock(r),
    "bet": lambda _model, r, best, _chosen: _bet(r, best),
}
"""Each kind of reason (``AnalysisReason.reason``) and its words, from the reason's own message, the best choice
and the choice made: a kind is the decision's (a draw, a bet), not a family's (Pif Paf's and Cacho's bets are
said alike); a kind this client does not know says nothing."""
