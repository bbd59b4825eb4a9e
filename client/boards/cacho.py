"""Cacho: seats around the table with chips and bets, cards (own face up, others down until
shown), and the pot in the middle. Deals and turns go to the left."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtui.client.boards.base import Board
from cardtui.client.cards import backs, hand
from cardtui.client.models import TableModel
from cardtui.client.words import Said, family_words, game_keys, line, who
from cardtui.v1 import cacho_pb2, table_pb2

STATUS = {
    cacho_pb2.CACHO_SEAT_STATUS_IN: ("in", "green"),
    cacho_pb2.CACHO_SEAT_STATUS_PASSED: ("passed", "dim"),
    cacho_pb2.CACHO_SEAT_STATUS_WAITING: ("sits out", "dim"),
    cacho_pb2.CACHO_SEAT_STATUS_BUST: ("no chips", "red"),
}
CATEGORY = {
    cacho_pb2.CACHO_CATEGORY_HIGH: "high card",
    cacho_pb2.CACHO_CATEGORY_TWO_SUITED: "two of a suit",
    cacho_pb2.CACHO_CATEGORY_CACHO: "cacho",
    cacho_pb2.CACHO_CATEGORY_SIXES: "three sixes",
}


WIDE = 60
"""A board at least this wide has room for "17 chips · bet 3" in each seat's column."""
TALL = 28
"""A board at least this tall spreads the rows of seats apart."""


def worth(strength: cacho_pb2.CachoStrength) -> str:
    name = CATEGORY.get(strength.category, "")
    return name if strength.category == cacho_pb2.CACHO_CATEGORY_SIXES else f"{name} ({strength.points})"


class CachoBoard(Board):
    def draw(self, model: TableModel, view: table_pb2.View) -> RenderableType:
        v = view.cacho
        panels = {s.seat: self._panel(view, s) for s in v.seats}
        gap = 3 if self.size.height >= TALL else 0
        parts: list[RenderableType] = [self.around(panels, self._centre(view), rightwards=False, gap=gap)]
        if view.hand_over and v.HasField("result"):
            parts += [Text(""), self._result(v.result)]
        if view.match_over:
            parts.append(Text("The match is over: one player holds every chip.", style="bold magenta"))
        return Group(*parts)

    def _panel(self, view: table_pb2.View, s: cacho_pb2.CachoSeat) -> Text:
        out = Text("▶ ", style="bold yellow") if s.seat in view.to_act else Text("  ")
        out.append_text(self.seat_name(s.seat))
        if s.seat == view.dealer:
            out.append(" (dealer)", style="cyan")
        label, style = STATUS.get(s.status, ("", ""))
        out.append(f"\n  {s.chips} chips")
        if s.put:
            out.append(f"{self._sep()}bet {s.put}", style="yellow")
        out.append("\n  ")
        if s.cards:
            out.append_text(hand(s.cards))
        elif s.card_count:
            out.append_text(backs(s.card_count))
        else:
            out.append("—", style="dim")
        out.append("  " if self.size.width >= WIDE else "\n  ")
        out.append(label, style=style)
        if s.HasField("strength"):
            out.append(f"\n  {worth(s.strength)}", style="italic")
        return out

    def _sep(self, indent: str = "  ") -> str:
        """Between two facts on a line, or a new line where the seats' columns are narrow (80x24)."""
        return " · " if self.size.width >= WIDE else "\n" + indent

    def _centre(self, view: table_pb2.View) -> Text:
        v = view.cacho
        out = Text(f"Hand {view.hand}\nRound {v.round}\n", style="bold", justify="center")
        out.append(f"Pot {v.pot}", style="bold yellow")
        if v.round == 3 and not view.hand_over:
            out.append(f"\nbet {v.level}{self._sep('')}resto {v.cap}")
        return out

    def result_summary(self, model: TableModel) -> RenderableType | None:
        """Who won the pot and why (the showdown's hands, or everyone else out), each seat's chips
        before and after; at the match's end, the standing."""
        view = model.view
        if view is None or not view.HasField("cacho") or not view.cacho.HasField("result"):
            return None
        v, result = view.cacho, view.cacho.result
        head = Text(f"Hand {view.hand}: ", style="bold")
        head.append_text(who(model, result.winner))
        head.append(f" wins the pot of {result.pot}", style="bold")
        parts: list[RenderableType] = [head]
        if result.showdown:
            best = next((sh for sh in result.showdown if sh.seat == result.winner), None)
            why = Text("  at the showdown", style="italic")
            if best is not None:
                why.append(f", with {worth(best.strength)}", style="italic")
            parts.append(why)
            shown = Table.grid(padding=(0, 2))
            for sh in sorted(result.showdown, key=lambda sh: sh.seat != result.winner):
                shown.add_row(Text("  ") + who(model, sh.seat), hand(sh.cards), Text(worth(sh.strength)))
            parts.append(shown)
        else:
            parts.append(Text("  unseen: everyone else passed or folded", style="italic"))
        money = Table.grid(padding=(0, 2))
        money.add_row(Text("  chips", style="dim"), Text("before → after", style="dim"), Text(""))
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
            top.append_text(who(model, standing[0].seat))
            top.append(" wins the match, holding every chip.", style="bold magenta")
            parts.append(top)
        return Group(*parts)

    def _result(self, result: cacho_pb2.CachoResult) -> Text:
        out = self.seat_name(result.winner)
        out.append(f" wins the pot of {result.pot}", style="bold")
        out.append(" at the showdown." if result.showdown else " unseen.")
        return out


def cacho_words(name: str, body: object, model: TableModel) -> Said | None:
    if isinstance(body, cacho_pb2.CachoRoundDealt):
        return Said(Text(f"Round {body.round}: a card to each of {len(body.seats)} players."), "dim")
    if isinstance(body, cacho_pb2.CachoRedealt):
        return Said(Text("Everyone passed: the cards are dealt again."))
    if isinstance(body, cacho_pb2.CachoShowed):
        return Said(line(who(model, body.seat), " shows ", hand(body.cards), f": {worth(body.strength)}."))
    if isinstance(body, cacho_pb2.CachoPotWon):
        how = "at the showdown" if body.showdown else "unseen"
        return Said(line(who(model, body.seat), f" wins {body.chips} {how}."), "bold green")
    return None


family_words("cacho", cacho_words)
game_keys("cacho", {"pass": "p", "fold": "f", "check": "c", "call": "c", "bet": "b", "raise": "r"})
