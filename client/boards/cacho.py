"""Cacho: seats around the table with chips and bets, cards (own face up, others down until
shown), and the pot in the middle. Deals and turns go to the left."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtui.client.boards.base import Board
from cardtui.client.cards import backs, hand
from cardtui.client.models import TableModel
from cardtui.client.words import Said, family_words, fill, fmt, who
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import cacho_pb2, table_pb2

STATUS = {
    cacho_pb2.CACHO_SEAT_STATUS_IN: (N_("in"), "green"),
    cacho_pb2.CACHO_SEAT_STATUS_PASSED: (N_("passed"), "dim"),
    cacho_pb2.CACHO_SEAT_STATUS_WAITING: (N_("sits out"), "dim"),
    cacho_pb2.CACHO_SEAT_STATUS_BUST: (N_("no chips"), "red"),
}
CATEGORY = {
    cacho_pb2.CACHO_CATEGORY_HIGH: N_("high card"),
    cacho_pb2.CACHO_CATEGORY_TWO_SUITED: N_("two of a suit"),
    cacho_pb2.CACHO_CATEGORY_CACHO: "cacho",  # the game's own word
    cacho_pb2.CACHO_CATEGORY_SIXES: N_("three sixes"),
}
"""Looked up when shown (``_``): the words are marked, not translated, at import."""


WIDE = 60
"""A board at least this wide has room for "17 chips · bet 3" in each seat's column."""
TALL = 28
"""A board at least this tall spreads the rows of seats apart."""


def worth(strength: cacho_pb2.CachoStrength) -> str:
    name = _(CATEGORY.get(strength.category, ""))
    return name if strength.category == cacho_pb2.CACHO_CATEGORY_SIXES else f"{name} ({strength.points})"


def tied_with(result: cacho_pb2.CachoResult) -> list[int]:
    """The seats whose shown hand is as good as the winner's (the pot went to the eldest of them)."""
    best = next((sh.strength for sh in result.showdown if sh.seat == result.winner), None)
    if best is None:
        return []
    return [sh.seat for sh in result.showdown if sh.seat != result.winner and sh.strength == best]


class CachoBoard(Board):
    def draw(self, model: TableModel, view: table_pb2.View) -> RenderableType:
        v = view.cacho
        panels = {s.seat: self._panel(view, s) for s in v.seats}
        gap = 3 if self.size.height >= TALL else 0
        parts: list[RenderableType] = [self.around(panels, self._centre(view), rightwards=False, gap=gap)]
        if view.hand_over and v.HasField("result"):
            parts += [Text(""), self._result(v.result)]
        if view.match_over:
            parts.append(Text(_("The match is over: one player holds every chip."), style="bold magenta"))
        return Group(*parts)

    def _panel(self, view: table_pb2.View, s: cacho_pb2.CachoSeat) -> Text:
        out = Text("▶ ", style="bold yellow") if s.seat in view.to_act else Text("  ")
        out.append_text(self.seat_name(s.seat))
        if s.seat == view.dealer:
            out.append(" " + _("(dealer)"), style="cyan")
        label, style = STATUS.get(s.status, ("", ""))
        out.append("\n  " + ngettext("{n} chip", "{n} chips", s.chips).format(n=s.chips))
        if s.put:
            out.append(self._sep() + _("bet {n}").format(n=s.put), style="yellow")
        out.append("\n  ")
        if s.cards:
            out.append_text(hand(s.cards))
        elif s.card_count:
            out.append_text(backs(s.card_count))
        else:
            out.append("—", style="dim")
        out.append("  " if self.size.width >= WIDE else "\n  ")
        out.append(_(label), style=style)
        if s.HasField("strength"):
            out.append(f"\n  {worth(s.strength)}", style="italic")
        return out

    def _sep(self, indent: str = "  ") -> str:
        """Between two facts on a line, or a new line where the seats' columns are narrow (80x24)."""
        return " · " if self.size.width >= WIDE else "\n" + indent

    def _centre(self, view: table_pb2.View) -> Text:
        v = view.cacho
        out = Text(_("Hand {n}").format(n=view.hand) + "\n" + _("Round {n}").format(n=v.round) + "\n", style="bold",
                   justify="center")
        out.append(_("Pot {n}").format(n=v.pot), style="bold yellow")
        if v.round == 3 and not view.hand_over:
            out.append("\n" + _("bet {n}").format(n=v.level) + self._sep("") + _("resto {n}").format(n=v.cap))
        return out

    def result_summary(self, model: TableModel) -> RenderableType | None:
        """Who won the pot and why (the showdown's hands, or everyone else out), each seat's chips
        before and after; at the match's end, the standing."""
        view = model.view
        if view is None or not view.HasField("cacho") or not view.cacho.HasField("result"):
            return None
        v, result = view.cacho, view.cacho.result
        head = fill(_("Hand {n}: {name} wins the pot of {pot}"),
                    {"n": view.hand, "name": who(model, result.winner), "pot": result.pot}, "bold")
        parts: list[RenderableType] = [head]
        if result.showdown:
            best = next((sh for sh in result.showdown if sh.seat == result.winner), None)
            why = Text("  " + _("at the showdown"), style="italic")
            if best is not None:
                why.append(_(", with {hand}").format(hand=worth(best.strength)), style="italic")
            parts.append(why)
            tied = tied_with(result)
            if tied:
                parts.append(Text("  ").append_text(fill(
                    _("Tied with {names}: a tie goes to the eldest, nearest the dealer's left."),
                    {"names": Text(", ").join(who(model, s) for s in tied)}, "italic")))
            shown = Table.grid(padding=(0, 2))
            for sh in sorted(result.showdown, key=lambda sh: sh.seat != result.winner):
                shown.add_row(Text("  ") + who(model, sh.seat), hand(sh.cards), Text(worth(sh.strength)))
            parts.append(shown)
        else:
            parts.append(Text("  " + _("unseen: everyone else passed or folded"), style="italic"))
        money = Table.grid(padding=(0, 2))
        money.add_row(Text("  " + _("chips"), style="dim"), Text(_("before → after"), style="dim"), Text(""))
        for s, delta in zip(v.seats, result.deltas, strict=False):
            if delta == 0 and s.status == cacho_pb2.CACHO_SEAT_STATUS_BUST:
                continue  # out of the match before this hand
            style = "green" if delta > 0 else "red" if delta < 0 else "dim"
            money.add_row(Text("  ") + who(model, s.seat), Text(f"{s.chips - delta:>6} → {s.chips}"),
                          Text(f"{delta:+d}", style=style))
        parts += [Text(""), money]
        if view.match_over:
            standing = sorted(v.seats, key=lambda s: -s.chips)
            top = Text("\n")
            top.append_text(fill(_("{name} wins the match, holding every chip."),
                                 {"name": who(model, standing[0].seat)}, "bold magenta"))
            parts.append(top)
        return Group(*parts)

    def _result(self, result: cacho_pb2.CachoResult) -> Text:
        template = (_("{name} wins the pot of {pot} at the showdown.") if result.showdown
                    else _("{name} wins the pot of {pot} unseen."))
        name = self.seat_name(result.winner)
        out = fmt(template, name=name, pot=result.pot)
        out.style = name.style
        return out


def cacho_words(name: str, body: object, model: TableModel) -> Said | None:
    if isinstance(body, cacho_pb2.CachoRoundDealt):
        n = len(body.seats)
        return Said(Text(ngettext("Round {round}: a card to each of {n} player.",
                                  "Round {round}: a card to each of {n} players.", n).format(round=body.round, n=n)),
                    "dim")
    if isinstance(body, cacho_pb2.CachoRedealt):
        return Said(Text(_("Everyone passed: the cards are dealt again.")))
    if isinstance(body, cacho_pb2.CachoShowed):
        return Said(fmt(_("{name} shows {cards}: {hand}."), name=who(model, body.seat), cards=hand(body.cards),
                        hand=worth(body.strength)))
    if isinstance(body, cacho_pb2.CachoPotWon):
        template = _("{name} wins {chips} at the showdown.") if body.showdown else _("{name} wins {chips} unseen.")
        return Said(fmt(template, name=who(model, body.seat), chips=body.chips), "bold green")
    return None


family_words("cacho", cacho_words)
