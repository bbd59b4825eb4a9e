"""Cacho: seats around the table with chips and bets, cards (own face up, others down until
shown), and the pot in the middle. Deals and turns go to the left."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from cardtui.client.boards.base import Board
from cardtui.client.cards import hand

STATUS = {"in": ("in", "green"), "out": ("out", "dim"), "waiting": ("sits out", "dim"), "bust": ("no chips", "red")}


class CachoBoard(Board):
    def draw(self) -> RenderableType:
        v = self.view
        panels = {int(s["seat"]): self._panel(v, s) for s in v["seats"]}
        parts: list[RenderableType] = [self.around(panels, self._centre(v), rightwards=False)]
        if v["hand_over"] and v.get("result"):
            parts += [Text(""), self._result(v["result"])]
        if v.get("match_over"):
            parts.append(Text("The match is over: one player holds every chip.", style="bold magenta"))
        return Group(*parts)

    def _panel(self, v: dict[str, Any], s: dict[str, Any]) -> Text:
        i = int(s["seat"])
        out = Text("▶ ", style="bold yellow") if v["to_act"] == i else Text("  ")
        out.append_text(self.seat_name(i))
        if i == v["dealer"]:
            out.append(" (dealer)", style="cyan")
        label, style = STATUS.get(s["status"], (s["status"], ""))
        out.append(f"\n  {s['chips']} chips · bet {s['put']}")
        out.append("\n  ")
        out.append_text(hand(s["cards"]) if s["cards"] else Text("—", style="dim"))
        out.append("  ")
        out.append(label, style=style)
        return out

    def _centre(self, v: dict[str, Any]) -> Text:
        out = Text(f"Hand {v['hand']}\nRound {v['round']}\n", style="bold", justify="center")
        out.append(f"Pot {v['pot']}", style="bold yellow")
        if v["round"] == 3 and not v["hand_over"]:
            out.append(f"\nbet {v['level']} · resto {v['cap']}")
        return out

    def _result(self, result: dict[str, Any]) -> Text:
        winner = int(result["winner"])
        out = self.seat_name(winner)
        out.append(f" wins the pot of {result['pot']}", style="bold")
        out.append(" at the showdown." if result.get("showdown") else " unseen.")
        return out
