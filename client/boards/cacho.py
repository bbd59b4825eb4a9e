"""Cacho: seats with chips and bets, cards (own face up, others down until shown), the pot."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from client.boards.base import Board
from client.cards import hand

STATUS = {"in": ("in", "green"), "out": ("out", "dim"), "waiting": ("sits out", "dim"), "bust": ("no chips", "red")}


class CachoBoard(Board):
    def draw(self) -> RenderableType:
        v = self.view
        head = Text(f"Hand {v['hand']} · Round {v['round']} · Pot {v['pot']}", style="bold")
        if v["round"] == 3 and not v["hand_over"]:
            head.append(f" · bet {v['level']} (resto {v['cap']})")
        grid = Table(box=None, expand=False, padding=(0, 2), show_header=True, header_style="dim")
        for col in ("", "Player", "Chips", "In pot", "Cards", ""):
            grid.add_column(col)
        for s in v["seats"]:
            i = s["seat"]
            mark = Text("▶", style="bold yellow") if v["to_act"] == i else Text(" ")
            if i == v["dealer"]:
                mark.append(" D", style="bold cyan")
            label, style = STATUS.get(s["status"], (s["status"], ""))
            grid.add_row(mark, self.seat_name(i), Text(str(s["chips"])), Text(str(s["put"])),
                         hand(s["cards"]), Text(label, style=style))
        parts: list[RenderableType] = [head, Text(""), grid]
        if v["hand_over"] and v.get("result"):
            parts += [Text(""), self._result(v["result"])]
        if v.get("match_over"):
            parts.append(Text("The match is over: one player holds every chip.", style="bold magenta"))
        return Group(*parts)

    def _result(self, result: dict[str, Any]) -> Text:
        winner = int(result["winner"])
        out = self.seat_name(winner)
        out.append(f" wins the pot of {result['pot']}", style="bold")
        out.append(" at the showdown." if result.get("showdown") else " unseen.")
        return out
