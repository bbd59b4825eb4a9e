"""An analysis's numbers and reasons in words: one unit per game, and why a decision was flagged.

Each game's analysis speaks one unit (``AnalysisUnit``): points of match odds for truco and Cacheta
(one point is one percent of the chance to win the match), chips for Cacho and Pif Paf. Every number
a player reads of a decision (a choice's value, the loss, how far a choice stands below the best) is
in that unit and names it, so that "9.4 points lost" and "-0.23 chips" never stand side by side
meaning different things. Accuracy (0 to 100) is another scale, said once in a short line.

A flagged decision's reason (``AnalysisReason``) comes typed from the server, worked out from what the
seat knew then (``engine.advice``); here it is said in the reader's language. The analysis screen, its
drill and ``cardtui analyze`` all speak through this module.
"""

from __future__ import annotations

from rich.text import Text

from cardtui.client.cards import card_text
from cardtui.client.models import TableModel
from cardtui.client.words import word
from cardtui.i18n import _, ngettext
from cardtui.v1 import analysis_pb2, common_pb2


def match_odds(unit: int) -> bool:
    return unit != analysis_pb2.ANALYSIS_UNIT_CHIPS


def unit_line(unit: int) -> str:
    """The unit, named once at the top of an analysis."""
    if match_odds(unit):
        return _("In points of match odds: 1 point is 1% of your chance to win the match.")
    return _("In chips: what each choice was worth in chips at the end of the hand.")


def accuracy_line() -> str:
    """What accuracy measures, said once."""
    return _("Accuracy (0 to 100) measures how close the choices came to the best: 100 is always the best.")


def amount(x: float, unit: int) -> str:
    """A loss or a gap in the unit, named: "9.4 points", "0.23 chips"."""
    if match_odds(unit):
        points = 100.0 * x
        return ngettext("{n} point", "{n} points", 1 if f"{points:.1f}" == "1.0" else 2).format(n=f"{points:.1f}")
    return ngettext("{n} chip", "{n} chips", 1 if f"{x:.2f}" == "1.00" else 2).format(n=f"{x:.2f}")


def value(x: float, unit: int) -> str:
    """A choice's value in the unit: the chance to win the match in points ("54.7 points"), or the chips it
    ends the hand with against those held at the decision ("-0.23 chips")."""
    if match_odds(unit):
        return amount(x, unit)
    return ngettext("{n} chip", "{n} chips", 1 if f"{x:+.2f}" == "+1.00" else 2).format(n=f"{x:+.2f}")


def lost(x: float, unit: int) -> str:
    """A decision's loss, in the unit: "(9.4 points lost)", "(0.57 chips lost)" (each its own sentence: the word
    for lost agrees with the unit's in Portuguese and Spanish)."""
    if match_odds(unit):
        n = f"{100.0 * x:.1f}"
        return ngettext("({n} point lost)", "({n} points lost)", 1 if n == "1.0" else 2).format(n=n)
    n = f"{x:.2f}"
    return ngettext("({n} chip lost)", "({n} chips lost)", 1 if n == "1.00" else 2).format(n=n)


def close(gap: float, chosen: float, best: float, unit: int) -> str | None:
    """A choice labelled as good whose value, as shown beside the best's, is not the same: "close: 1.2 points below
    the best", said instead of "as good", which the figures would belie; None where the two read alike."""
    if value(chosen, unit) == value(best, unit):
        return None
    return _("close: {amount} below the best").format(amount=amount(gap, unit))


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
    if what == "envido":
        return _envido(model, reason.envido)
    if what == "truco":
        return _truco(reason.truco, chosen)
    if what == "draw":
        return _draw(reason.draw)
    if what == "discard":
        return _discard(reason.discard)
    if what == "knock":
        return _knock(reason.knock)
    if what == "bet":
        return _bet(reason.bet, best)
    return ""


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
            out.append(said if played else _("Your best card, played now: {what}").format(what=said))
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
    return ""


def _draw(r: analysis_pb2.DrawAdvice) -> str:
    parts = []
    if r.card and r.goes_out:
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
    return _("Throwing the {chosen} kept {cl} cards outside melds, with {co} live cards to help them; throwing "
             "the {best} kept {bl}, with {bo} (of {unseen} unseen).").format(
        chosen=_card(r.chosen), cl=r.chosen_loose, co=r.chosen_outs, best=_card(r.best), bl=r.best_loose,
        bo=r.best_outs, unseen=r.unseen)


def _knock(r: analysis_pb2.KnockAdvice) -> str:
    said = _("Knocking then melded {melded} of your cards.").format(melded=r.melded)
    if r.discard and r.outs >= 0:
        said += " " + _("Playing on, throwing the {card}, {outs} of the {unseen} unseen cards would take you out, "
                        "with {stock} left in the stock.").format(card=_card(r.discard), outs=r.outs,
                                                                   unseen=r.unseen, stock=r.stock)
    return said


def _bet(r: analysis_pb2.BetAdvice, best: common_pb2.Action | None) -> str:
    if r.call:
        said = _("The pot held {pot} chips and staying in cost {call}: the pot odds ask for a win {needed} of the "
                 "time.").format(pot=r.pot, call=r.call, needed=_pct(r.needed))
    else:
        said = _("The pot held {pot} chips and staying in was free.").format(pot=r.pot)
    if r.chance >= 0:
        said += " " + ngettext(
            "Against one hand dealt at random from the cards you had not seen, yours wins {p} of the time; {n} "
            "other player was still in.",
            "Against one hand dealt at random from the cards you had not seen, yours wins {p} of the time; {n} "
            "other players were still in.", r.opponents).format(n=r.opponents, p=_pct(r.chance))
    odds = r.chance ** max(1, r.opponents) if r.chance >= 0 else -1.0  # about, against every player still in
    if best is not None and r.call and r.chance >= 0:
        # The odds weigh a chance against random hands; the verdict comes from playing the hand out. Where
        # they point different ways, say so, or the reason reads as arguing against its own verdict.
        folds = best.type == common_pb2.ACTION_TYPE_FOLD
        if folds and odds >= r.needed:
            said += " " + _("So the odds alone favour staying in; but the playouts, which play the hand to its end "
                            "as the players would bet it, find folding loses less.")
        elif not folds and odds < r.needed:
            said += " " + _("So the odds alone say fold; but the playouts, which play the hand to its end as the "
                            "players would (later rounds, the others folding), find staying in loses less.")
    return said
