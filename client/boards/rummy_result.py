"""The end of a rummy hand and of a game: the knock (its melds and discard), the pot taken
unseen or a void hand, each seat's chips or points before and after with those it put out of the game, and the
final standings. The table's summary of a hand is this account (``Board.result_summary``).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtui.client.boards.rummy_cards import melds_text
from cardtui.client.boards.rummy_table import Status
from cardtui.client.boards.rummy_words import closes, is_pifpaf, points, void_sentence
from cardtui.client.cards import card_text
from cardtui.client.models import TableModel
from cardtui.client.words import fmt, who
from cardtui.i18n import _
from cardtui.v1 import rummy_pb2


def hand_result(model: TableModel) -> RenderableType | None:
    """The finished hand: the knock (melds and discard) or the pot taken unseen, and each seat's
    chips or points before and after, with those it put out of the game."""
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy" or not view.rummy.HasField("result"):
        return None
    v = view.rummy
    r = v.result
    pifpaf = is_pifpaf(model)
    wilds = list(v.wilds)
    head = Text(_("Hand {n}").format(n=view.hand) + ": ", style="bold")
    if r.HasField("knock"):
        k = r.knock
        if closes(model):
            template = _("{name} closes with {card}")
        elif not k.HasField("claimed"):
            template = _("{name} knocks")
        else:
            template = _("{name} knocks with the claimed {card}") if pifpaf else _(
                "{name} knocks cutting the line with {card}")
        claimed = (card_text(k.claimed) if k.HasField("claimed") else
                   card_text(k.discard) if closes(model) and k.HasField("discard") else Text(""))
        head.append_text(fmt(template, name=who(model, k.seat), card=claimed))
        melded = Text("  ")
        melded.append_text(melds_text(k.melds, wilds))
        melded.append("\n  ")
        if closes(model):
            melded.append(_("the card it closed with goes face down"))
        elif k.HasField("discard"):
            melded.append(_("discards") + " ")
            melded.append_text(card_text(k.discard))
        else:
            melded.append(_("all ten melded, no discard"))
        parts: list[RenderableType] = [head, melded]
    elif closes(model):
        head.append(void_sentence())
        parts = [head]
    else:
        head.append_text(fmt(_("{name} takes the pot of {pot} unseen: everyone else folded."),
                             name=who(model, r.winner), pot=v.pot))
        parts = [head]
    unit = _("chips") if pifpaf else _("points")
    grid = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, header_style="dim")
    grid.add_column("", no_wrap=True, overflow="ellipsis", max_width=14)
    grid.add_column(unit, justify="right", no_wrap=True)
    grid.add_column("", no_wrap=True)
    grid.add_column("", justify="right", no_wrap=True)
    grid.add_column("", justify="right", no_wrap=True)
    grid.add_column("", no_wrap=True)
    gone = set(r.eliminated)
    for s in v.seats:
        delta = r.deltas[s.seat] if s.seat < len(r.deltas) else 0
        if s.status == Status.RUMMY_SEAT_STATUS_OUT and not delta and s.seat not in gone:
            continue  # out before this hand
        name = who(model, s.seat)  # as the log names them when the hand ended
        tone = "green" if delta > 0 else "red" if delta < 0 else "dim"
        change = Text(f"{delta:+d}" if delta else "·", style=tone)
        note = Text()
        if r.HasField("winner") and s.seat == r.winner:
            note.append(_("wins"), style="bold green")
        if s.seat in gone or (pifpaf and s.score == 0 and delta < 0):
            if note:
                note.append(" · ")
            note.append(_("out of the game") if not pifpaf else _("no chips left"), style="bold red")
        grid.add_row(name, Text(str(s.score - delta)), Text("→", style="dim"), Text(str(s.score), style="bold"),
                     change, note)
    parts.append(grid)
    return Group(*parts)


def game_end(model: TableModel, v: rummy_pb2.RummyView) -> Text:
    """The game's final standings: each seat's place and points (and Cacheta's VP and GP)."""
    out = Text(_("The game is over."), style="bold magenta")
    for p in v.standings:
        out.append(f"\n  {p.place}. ")
        out.append_text(who(model, p.seat))
        out.append(f" · {points(p.points)}")
        if p.HasField("vp"):
            out.append(f" · {p.vp} VP")
        if p.HasField("gp"):
            out.append(f" · {p.gp} GP")
    return out
