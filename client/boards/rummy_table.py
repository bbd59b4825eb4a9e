"""What a rummy board shows around your hand: its title (the game, the hand, the phase, the
house rules), the seats' grid, every hand where the view shows them all (a replay), Pif Paf's pot
and betting or Cacheta's flip and wild cards, and the stock and the discard pile.

Each is drawn from the view alone, at the board's width; the board lays them out and leaves out
the least needed lines when it is short (``client.boards.rummy``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from cardtui.client import gamebook
from cardtui.client.boards.base import bot_tag, holder
from cardtui.client.boards.rummy_cards import wild_kinds
from cardtui.client.boards.rummy_words import is_pifpaf
from cardtui.client.cards import card_text, cards_text
from cardtui.client.models import TableModel
from cardtui.client.words import line
from cardtui.i18n import N_, _
from cardtui.v1 import rummy_pb2, table_pb2

Phase = rummy_pb2.RummyPhase
Status = rummy_pb2.RummySeatStatus
PHASES = {
    Phase.RUMMY_PHASE_BETTING: N_("betting"),
    Phase.RUMMY_PHASE_DRAW: N_("play"),
    Phase.RUMMY_PHASE_DISCARD: N_("play"),
    Phase.RUMMY_PHASE_CLAIM: N_("claim window"),
    Phase.RUMMY_PHASE_KNOCK: N_("knock"),
    Phase.RUMMY_PHASE_OVER: N_("hand over"),
}
STATUS = {
    Status.RUMMY_SEAT_STATUS_FOLDED: (N_("folded"), "dim"),
    Status.RUMMY_SEAT_STATUS_OUT: (N_("out"), "red"),
    Status.RUMMY_SEAT_STATUS_WAITING: (N_("sits out"), "dim"),
}


def fitting(cards: Sequence[str], room: int) -> list[str]:
    """The last of these cards that fit in ``room`` cells, a space after each (and room for "… ")."""
    out: list[str] = []
    used = 2
    for code in reversed(cards):
        used += len(code) + 1
        if used > room:
            break
        out.append(code)
    return out[::-1]


def title(model: TableModel, view: table_pb2.View, width: int) -> Text:
    """The game, the hand and its phase, and the house rules that differ from the usual where the
    width leaves room for them."""
    v = view.rummy
    known = gamebook.find(model.game)
    name = known.title if known is not None else model.game
    phase = _(PHASES.get(v.phase, ""))
    out = Text(f"{name} · " + _("hand {n}").format(n=view.hand) + f" · {phase}", style="bold")
    rules = v.rules
    notes = []
    if rules.group_suits == rummy_pb2.RUMMY_GROUP_RULE_EXACTLY3:
        notes.append(_("groups of exactly 3 suits"))
    elif rules.group_suits == rummy_pb2.RUMMY_GROUP_RULE_ATLEAST3:
        notes.append(_("groups of 3+ suits"))
    if rules.ace_high:
        notes.append(_("Q-K-A counts"))
    if rules.wild_acts:
        notes.append(_("one wild per meld"))
    more = " · " + ", ".join(notes)
    if notes and out.cell_len + len(more) <= width:
        out.append(more, style="dim")
    out.no_wrap, out.overflow = True, "ellipsis"
    return out


def seats_grid(model: TableModel, view: table_pb2.View, big: bool) -> Table:
    """The seats, a row each: whose turn, the holder, chips or points, what each put in the pot,
    cards held, and notes (dealer, a bot, folded, na boa, burned, what each took from the pile)."""
    v = view.rummy
    pifpaf = is_pifpaf(model)
    grid = Table(box=None, padding=(0, 1), pad_edge=False, collapse_padding=True, show_header=True,
                 header_style="dim", show_edge=False, expand=False)
    # Where the notes are long (a dealer who folded and took cards, a bot's level, in Spanish), the
    # notes give up their room first: names (up to their cut), numbers and headings keep theirs.
    # A name is cut only past what the board's columns leave it at 80x24 (14, room for the numbers and a note
    # beside it), never where the row has room for it whole.
    longest = max((cell_len(holder(view, s.seat)) for s in v.seats), default=1)
    most = 24 if big else 14
    name_width = max(1, min(longest, most))
    grid.add_column("", no_wrap=True, width=1, min_width=1)
    grid.add_column("", no_wrap=True, overflow="ellipsis", min_width=name_width, max_width=most)
    for heading in [_("chips") if pifpaf else _("points"), *([_("in pot")] if pifpaf else []), _("cards")]:
        grid.add_column(heading, justify="right", no_wrap=True, min_width=cell_len(heading))
    grid.add_column("", overflow="ellipsis")  # the one column the table may narrow: each note is one line
    for s in v.seats:
        mark = Text("▶", style="bold yellow") if v.HasField("turn") and s.seat == v.turn else Text(" ")
        name = Text(holder(view, s.seat), style="bold green" if s.seat == model.seat else "bold")
        notes = Text(no_wrap=True, overflow="ellipsis")
        if s.seat == view.dealer:
            notes.append(_("dealer") + " ", style="cyan")
        summary = next((x for x in view.seats if x.seat == s.seat), None)
        if summary is not None and summary.bot:
            notes.append(bot_tag(summary, _("away")) + " ", style="dim")
        status, style = STATUS.get(s.status, ("", ""))
        if status:
            notes.append(_(status) + " ", style=style)
        if s.declared:
            notes.append("na boa ", style="bold yellow")
        if s.burned:
            notes.append(_("burned") + " ", style="bold red")
        if s.taken:
            notes.append(_("took") + " ", style="dim")
            shown = list(s.taken) if big else list(s.taken)[-3:]
            if len(shown) < len(s.taken):
                notes.append("… ", style="dim")
            notes.append_text(cards_text(shown))
        row: list[RenderableType] = [mark, name, Text(str(s.score))]
        if pifpaf:
            row.append(Text(str(s.put) if s.put else "·", style="" if s.put else "dim"))
        row += [Text(str(s.card_count) if s.card_count else "·", style="" if s.card_count else "dim"), notes]
        grid.add_row(*row)
    return grid


def open_hands(model: TableModel, v: rummy_pb2.RummyView) -> list[Text]:
    """Every seat's hand, where the view shows them all (a replay): a line each."""
    out = []
    for s in v.seats:
        if not s.cards:
            continue
        row = Text(f"{holder(model.view, s.seat)[:10]:<11}", style="bold")
        row.append_text(cards_text(s.cards))
        row.no_wrap, row.overflow = True, "ellipsis"
        out.append(row)
    return out


def game_line(model: TableModel, v: rummy_pb2.RummyView) -> Text | None:
    """Pif Paf's pot and betting (the bet to match, the cap, the least raise), or Cacheta's flip and
    the wild cards it makes."""
    if is_pifpaf(model):
        out = Text(_("Pot") + " ")
        out.append(str(v.pot), style="bold yellow")
        if v.HasField("betting"):
            b = v.betting
            out.append(" · " + (_("bet to match {n}").format(n=b.level) if b.level else _("no bet yet")))
            out.append(" · " + _("cap {cap} · raise by {n}+").format(cap=b.cap, n=b.min_raise))
        out.no_wrap, out.overflow = True, "ellipsis"
        return out
    if v.HasField("flip"):
        out = Text(_("Flip") + " ")
        out.append_text(card_text(v.flip))
        out.append(" · " + _("wild") + ": ")
        out.append_text(cards_text(wild_kinds(v.wilds)))
        return out
    return None


def pile_rows(v: rummy_pb2.RummyView, width: int, big: bool) -> list[Text]:
    """The stock and the discard pile: its top set apart, the discards before it in order."""
    pile = list(v.pile)
    top, under = (pile[-1], pile[:-1]) if pile else (None, [])
    if big:  # the stock and the top drawn as cards, the discards before the top between them
        recent = fitting(under, width - 16)
        between = Text("… " if len(recent) < len(under) else "", style="dim")
        between.append_text(cards_text(recent))
        pad = max(between.cell_len, 8) + 2
        edge = "bold yellow" if v.HasField("window") else "bold"
        face = card_text(top) if top is not None else Text("   ")
        rows = [
            line(Text("╭───╮", style="dim"), " " * pad, Text("╭───╮", style=edge)),
            line(Text("│", style="dim"), Text("▒▒▒" if v.stock_count else "   ", style="blue"),
                 Text("│ ", style="dim"), between, " " * (pad - 1 - between.cell_len), Text("│", style=edge), face,
                 " " * (3 - face.cell_len), Text("│", style=edge)),
            line(Text("╰───╯", style="dim"), " " * pad, Text("╰───╯", style=edge)),
            line(_("stock {n}").format(n=v.stock_count).ljust(5 + pad),
                 _("pile {n}").format(n=len(pile)) if pile else _("pile empty")),
        ]
        for row in rows:
            row.no_wrap, row.overflow = True, "crop"
        return rows
    out = Text(_("Stock") + " ")
    out.append(str(v.stock_count), style="bold")
    out.append("   " + (_("Pile ({n})").format(n=len(pile)) + " " if pile else _("Pile empty")))
    if top is not None:
        recent = fitting(under, width - out.cell_len - 6)
        if len(recent) < len(under):
            out.append("…", style="dim")
        out.append_text(cards_text(recent))
        out.append(" ▐" if recent else "▐", style="bold")
        top_text = card_text(top)
        top_text.stylize("reverse")
        out.append_text(top_text)
        out.append("▌", style="bold")
    out.no_wrap, out.overflow = True, "ellipsis"
    return [out]
