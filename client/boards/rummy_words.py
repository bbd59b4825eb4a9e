"""Pif Paf, Cacheta and Chinchón in words: every rummy event as a log line.

A sentence about the viewer's own seat is said to them ("You draw 7♥ from the stock."), about
another seat with its holder's name; the claim window that opens after each discard is not news,
what came of it is (the card claimed, or cut for and burned). A Chinchón close and its count are said as that
game says them (``closes``). Each action's key and label are the game's own (``client.games.pifpaf``,
``client.games.cacheta``, ``client.games.chinchon``).
"""

from __future__ import annotations

import re

from google.protobuf.message import Message
from rich.text import Text

from cardtui.client.boards.rummy_cards import melds_text, wild_kinds
from cardtui.client.cards import card_text, cards_text
from cardtui.client.models import TableModel, action_name
from cardtui.client.words import SILENT, Said, family_words, fmt, line, who
from cardtui.i18n import _, ngettext
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2

BOARD_KEYS = {"discard": "d", "knock": "k"}
ENDS_IN_A_NUMBER = re.compile(r"\d\W*$")
"""A name that ends in a number ("bot 2"): a number said right after it runs into it, for the ear."""
"""The rummy board's own keys (``client.boards.rummy``), the same at each rummy game; its other keys are each
game's own (``client.games.pifpaf``, ``client.games.cacheta``)."""


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", abs(n)).format(n=n)


def is_pifpaf(model: TableModel) -> bool:
    return model.game == "pifpaf"


def closes(model: TableModel) -> bool:
    """Whether this table counts the cards left outside melds against every player (Chinchón): there a player
    *closes* (cortar), laying the card it closes with face down, where the other rummy games knock."""
    v = model.view
    return (v is not None and v.WhichOneof("game") == "rummy"
            and v.rummy.table.scoring == rummy_pb2.RUMMY_SCORING_DEADWOOD)


def void_sentence() -> str:
    """A Chinchón hand nobody closed before the rebuilt stock ran out (docs/rules.md §6), in the reader's
    language."""
    return _("The stock ran out a second time and nobody closed: the hand is void, nobody scores.")


def says(model: TableModel, seat: int, mine: str, theirs: str, **parts: str | int | Text) -> Text:
    """A sentence about a seat: ``mine`` (in the reader's language) if the seat is the viewer's
    ("You draw {card}."), else ``theirs`` ("{name} draws {card}."), the subject in its colour."""
    if seat == model.seat:
        said = fmt(mine, **parts)
        first = len(said.plain) - len(said.plain.lstrip())
        word = said.plain.lstrip().split(" ")[0]
        said.stylize("bold green", first, first + len(word))
        return said
    return fmt(theirs, name=who(model, seat), **parts)


def counted_text(model: TableModel, body: rummy_pb2.ChinchonCounted) -> Text:
    """A close's count, each seat in turn from the closer: its points, with the cards it left out and laid off."""
    out = Text(_("Chinchón!") + " " if body.chinchon else "")
    out.append(_("The count") + ": ")
    for i, c in enumerate(body.counts):
        if i:
            out.append("; ")
        name = who(model, c.seat)
        if ENDS_IN_A_NUMBER.search(name.plain):  # "bot 2 has +7": not "bot 2 +7", two numbers run together
            out.append_text(fmt(_("{name} has {n}"), name=name, n=f"{c.points:+d}"))
        else:
            out.append_text(name)
            out.append(f" {c.points:+d}")
        if c.loose:
            out.append(" (")
            out.append_text(fmt(_("left out: {cards}"), cards=cards_text(list(c.loose))))
            out.append(")")
        elif i == 0:
            out.append(" (" + _("all seven melded") + ")")
        if c.laid_off:
            out.append(" (")
            out.append_text(fmt(_("laid off: {cards}"), cards=cards_text(list(c.laid_off))))
            out.append(")")
    out.append(".")
    return out


def rummy_words(name: str, body: Message, model: TableModel) -> Said | None:
    """Every rummy event in plain words; the window that opens after each discard is not news."""
    R = rummy_pb2
    if isinstance(body, R.RummyDealt):
        if model.seat in body.seats:
            return None  # "You receive …" says it
        n = len(body.seats)
        return Said(Text(ngettext("{count} cards to each of {n} player.", "{count} cards to each of {n} players.", n)
                         .format(count=body.count, n=n)), "dim")
    if isinstance(body, R.RummyDrew):
        if body.source == common_pb2.DRAW_SOURCE_PILE:
            return Said(says(model, body.seat, _("You take {card} from the pile."),
                             _("{name} takes {card} from the pile."), card=card_text(body.card)))
        if body.seat == model.seat:
            return None  # "You draw 7♥" follows
        return Said(says(model, body.seat, _("You draw from the stock."), _("{name} draws from the stock.")), "dim")
    if isinstance(body, R.RummyDrawnCard):
        return Said(says(model, body.seat, _("You draw {card} from the stock."),
                         _("{name} draws {card} from the stock."), card=card_text(body.card)))
    if isinstance(body, R.RummyStockRebuilt):
        return Said(Text(_("The stock ran out: the pile, less its top card, is turned over as the new stock "
                           "({n} cards).").format(n=body.stock)), "yellow")
    if isinstance(body, R.RummyDiscarded):
        return Said(says(model, body.seat, _("You discard {card}."), _("{name} discards {card}."),
                         card=card_text(body.card)))
    if isinstance(body, R.RummyWindowOpened):
        return None
    if isinstance(body, R.RummyWindowClosed):
        if not body.HasField("taken_by"):
            return None
        if is_pifpaf(model):
            took = says(model, body.taken_by, _("You claim {card}!"), _("{name} claims {card}!"),
                        card=card_text(body.card))
        else:
            took = says(model, body.taken_by, _("You cut the line for {card}!"),
                        _("{name} cuts the line for {card}!"), card=card_text(body.card))
        return Said(took, "bold yellow")
    if isinstance(body, R.RummyKnocked):
        melds = melds_text(body.melds, list(model.view.rummy.wilds) if model.view is not None and
                           model.view.WhichOneof("game") == "rummy" else [])
        if closes(model):
            out = says(model, body.seat, _("You close with {card}: {melds}."), _("{name} closes with {card}: {melds}."),
                       melds=melds, card=card_text(body.discard))
        elif body.HasField("discard"):
            out = says(model, body.seat, _("You knock: {melds}, discarding {card}."),
                       _("{name} knocks: {melds}, discarding {card}."), melds=melds, card=card_text(body.discard))
        else:
            out = says(model, body.seat, _("You knock: {melds}, all ten melded."),
                       _("{name} knocks: {melds}, all ten melded."), melds=melds)
        return Said(out, "bold")
    if isinstance(body, R.PifPafAntes):
        paid = [a for a in body.antes if a]
        if paid and all(a == paid[0] for a in paid):
            return Said(Text(_("Everyone antes {n}: the pot is {pot}.").format(n=paid[0], pot=body.pot)), "dim")
        antes = Text(", ").join(line(who(model, s), f" {a}") for s, a in enumerate(body.antes) if a)
        return Said(fmt(_("Antes: {antes}; the pot is {pot}."), antes=antes, pot=body.pot), "dim")
    if isinstance(body, R.PifPafRebought):
        return Said(says(model, body.seat, _("You buy back in with {n} chips."),
                         _("{name} buys back in with {n} chips."), n=body.chips), "yellow")
    if isinstance(body, R.PifPafPotWon):
        if body.side:
            mine, theirs = ((_("You win a side pot of {n}: everyone else folded."),
                             _("{name} wins a side pot of {n}: everyone else folded.")) if body.uncontested else
                            (_("You win a side pot of {n}."), _("{name} wins a side pot of {n}.")))
        else:
            mine, theirs = ((_("You win the pot of {n}: everyone else folded."),
                             _("{name} wins the pot of {n}: everyone else folded.")) if body.uncontested else
                            (_("You win the pot of {n}."), _("{name} wins the pot of {n}.")))
        return Said(says(model, body.seat, mine, theirs, n=body.chips), "bold green")
    if isinstance(body, R.CachetaFlipped):
        return Said(fmt(_("The flip is {card}: {wilds} are wild."), card=card_text(body.flip),
                        wilds=cards_text(wild_kinds(body.wilds), sep=" " + _("and") + " ")))
    if isinstance(body, R.CachetaDeclared):
        return Said(says(model, body.seat, _("You declare na boa!"), _("{name} declares na boa!")), "bold yellow")
    if isinstance(body, R.CachetaBurned):
        return Said(says(model, body.seat,
                         _("You cut for {card} and could not knock: burned, no more cuts this hand."),
                         _("{name} cut for {card} and could not knock: burned, no more cuts this hand."),
                         card=card_text(body.card)), "bold red")
    if isinstance(body, R.CachetaEliminated):
        return Said(says(model, body.seat, _("You are out of points: out of the game."),
                         _("{name} is out of points: out of the game.")), "red")
    if isinstance(body, R.CachetaStandings):
        out = Text(_("Standings") + ": ")
        for i, p in enumerate(body.places):
            if i:
                out.append(", ")
            out.append(f"{p.place}. ")
            out.append_text(who(model, p.seat))
            out.append(f" ({points(p.points)}")
            if p.HasField("vp"):
                out.append(f", {p.vp} VP, {p.gp} GP")
            out.append(")")
        out.append(".")
        return Said(out, "bold magenta")
    if isinstance(body, R.ChinchonUp):
        return Said(fmt(_("{card} is turned up to start the pile."), card=card_text(body.card)), "dim")
    if isinstance(body, R.ChinchonCounted):
        return Said(counted_text(model, body), "bold")
    if isinstance(body, R.ChinchonEliminated):
        return Said(says(model, body.seat, _("You pass the target with {n}: out of the match."),
                         _("{name} passes the target with {n}: out of the match."), n=points(body.points)), "red")
    if isinstance(body, R.ChinchonReentered):
        return Said(says(model, body.seat, _("You come back in, at {n}."), _("{name} comes back in, at {n}."),
                         n=points(body.points)), "bold yellow")
    # The common events, as a rummy table says them.
    if isinstance(body, table_pb2.Acted) and action_name(body.action) in ("claim", "cut"):
        return SILENT  # what came of it follows: the card taken, or burned
    if isinstance(body, table_pb2.Acted) and action_name(body.action) == "pass":
        if closes(model):  # past Chinchón's target, not coming back in: there are no claims to let go
            return Said(says(model, body.seat, _("You stay out."), _("{name} stays out.")), "dim")
        return Said(says(model, body.seat, _("You let it go."), _("{name} lets it go.")), "dim")
    if isinstance(body, table_pb2.HandEnded) and not is_pifpaf(model):
        lost = [(s, d) for s, d in enumerate(body.deltas) if d]
        if body.HasField("winner"):
            out = says(model, body.winner, _("You win the hand"), _("{name} wins the hand"))
        elif closes(model) and not lost:
            return Said(Text(void_sentence()), "bold yellow")
        else:
            out = Text(_("The hand is over"))
        out.append(": " if lost else ".")
        for i, (s, d) in enumerate(lost):
            if i:
                out.append(", ")
            out.append_text(who(model, s))
            out.append(f" {d:+d}")
        if lost:
            one = all(abs(d) == 1 for _s, d in lost) and len(lost) == 1
            out.append(" " + (ngettext("point.", "points.", 1) if one else ngettext("point.", "points.", 2)))
        return Said(out, "bold green")
    return None


family_words("rummy", rummy_words)
