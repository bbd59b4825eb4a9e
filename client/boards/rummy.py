"""Pif Paf and Cacheta: seats with chips or points, stock and discard, and your hand.

Your hand is shown grouped into its best partial melds (as the view gives them) or sorted
by suit or by rank (``s`` toggles); ``←``/``→`` pick a card, ``d`` discards it and ``k``
knocks (with it as the discard when a discard is needed). Everything else (draw, claim,
pass, declare, cut, bets) is in the numbered action bar. The board only ever sends an
action the server listed as legal.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards.base import Board
from cardtui.client.cards import card, hand
from cardtui.v1 import common_pb2

SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}
VIEWS = ("melds", "suit", "rank")
STATUS = {
    "in": ("in", "green"), "folded": ("folded", "dim"), "out": ("out", "red"), "waiting": ("sits out", "dim"),
}
PHASES = {
    "betting": "betting round", "draw": "draw", "discard": "discard", "claim": "claim window", "over": "hand over",
}


def rank_of(code: str) -> int:
    r = code[:-1]
    return RANK.get(r) or int(r)


class RummyBoard(Board):
    """The table for both rummy games; the view says which (``flip`` only in Cacheta)."""

    can_focus = True
    HANDLES: ClassVar[frozenset[str]] = frozenset({"discard", "knock"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Card ←", show=False),
        Binding("right", "move(1)", "Card →"),
        Binding("d", "discard", "Discard"),
        Binding("k", "knock", "Knock"),
        Binding("s", "sort", "Sort"),
    ]

    def __init__(self, seat: int | None, id: str | None = None) -> None:
        super().__init__(seat, id=id)
        self.cursor = 0
        self.arrange = 0

    # -- the hand, in the order shown ----------------------------------------------------
    def shown_hand(self) -> list[str]:
        v = self.view
        cards: list[str] = list(v.get("your_cards") or [])
        mode = VIEWS[self.arrange]
        if mode == "melds":
            grouped = [c for meld in v.get("your_melds") or [] for c in meld]
            rest = list(cards)
            for c in grouped:
                if c in rest:
                    rest.remove(c)
            return grouped + sorted(rest, key=lambda c: (SUIT_ORDER.get(c[-1], 9), rank_of(c)))
        if mode == "suit":
            return sorted(cards, key=lambda c: (SUIT_ORDER.get(c[-1], 9), rank_of(c)))
        return sorted(cards, key=lambda c: (rank_of(c), SUIT_ORDER.get(c[-1], 9)))

    def selected(self) -> str | None:
        cards = self.shown_hand()
        if not cards:
            return None
        self.cursor = max(0, min(self.cursor, len(cards) - 1))
        return cards[self.cursor]

    # -- keys --------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        n = len(self.shown_hand())
        if n:
            self.cursor = (self.cursor + step) % n
            self.refresh()

    def action_sort(self) -> None:
        self.arrange = (self.arrange + 1) % len(VIEWS)
        self.refresh()

    def _send(self, action: common_pb2.Action | None, why: str) -> None:
        if action is None:
            self.notify(why, severity="warning")
            return
        self.post_message(ActionBar.Chosen(action))

    def action_discard(self) -> None:
        chosen = self.selected()
        match = next((a for a in self.legal if a.type == "discard" and list(a.cards) == [chosen]), None)
        self._send(match, "You cannot discard now." if not any(a.type == "discard" for a in self.legal)
                   else f"You cannot discard {chosen}.")

    def action_knock(self) -> None:
        knocks = [a for a in self.legal if a.type == "knock"]
        chosen = self.selected()
        match = next((a for a in knocks if not a.cards), None) or next(
            (a for a in knocks if list(a.cards) == [chosen]), None
        ) or (knocks[0] if knocks else None)
        self._send(match, "Your cards do not all form melds yet: no knock.")

    # -- drawing -----------------------------------------------------------------------
    def draw(self) -> RenderableType:
        v = self.view
        parts: list[RenderableType] = [self._head(v), Text("")]
        parts.append(self._seats(v))
        parts += [Text(""), self._middle(v)]
        if v.get("you") is not None:
            parts += [Text(""), self._hand(v)]
        if v.get("knock"):
            parts += [Text(""), self._knock(v["knock"])]
        if v.get("hand_over") and v.get("result"):
            parts.append(self._result(v["result"]))
        standings = v.get("standings") or ()
        if standings:
            parts.append(Text("Standings: " + ", ".join(
                f"{s.get('name', s.get('seat'))} {s.get('vp', '')}VP {s.get('gp', '')}GP".strip()
                for s in standings), style="dim"))
        if v.get("match_over"):
            parts.append(Text("The game is over.", style="bold magenta"))
        return Group(*parts)

    def _head(self, v: dict[str, Any]) -> Text:
        title = "Cacheta" if v.get("game") == "cacheta" else "Pif Paf"
        out = Text(f"{title} · hand {v['hand']} · {PHASES.get(v['phase'], v['phase'])}", style="bold")
        if v.get("game") == "pifpaf":
            out.append(f" · pot {v['pot']}")
            if v["phase"] == "betting":
                out.append(f" · bet {v['level']} (limit {v['cap']})")
        rules = []
        if v.get("ace_high"):
            rules.append("Q-K-A allowed")
        rules.append("groups: exactly 3 suits" if v.get("group_suits") == "exactly3" else "groups: 3+ suits")
        out.append("  (" + ", ".join(rules) + ")", style="dim")
        return out

    def _seats(self, v: dict[str, Any]) -> Table:
        grid = Table(box=None, padding=(0, 2), header_style="dim")
        points = "Points" if v.get("game") == "cacheta" else "Chips"
        for col in ("", "Player", points, "In pot" if v.get("game") == "pifpaf" else "", "Cards", ""):
            grid.add_column(col)
        waiting = set(v.get("to_act") or ())
        for s in v["seats"]:
            i = s["seat"]
            mark = Text("▶", style="bold yellow") if i in waiting else Text(" ")
            if i == v["dealer"]:
                mark.append(" D", style="bold cyan")
            label, style = STATUS.get(s["status"], (s["status"], ""))
            notes = Text(label, style=style)
            if s.get("declared"):
                notes.append(" · na boa", style="bold yellow")
            if s.get("burned"):
                notes.append(" · burned", style="bold red")
            put = Text(str(s["put"])) if v.get("game") == "pifpaf" else Text("")
            grid.add_row(mark, self.seat_name(i), Text(str(s["chips"])), put, Text(f"{s['cards']}"), notes)
        return grid

    def _middle(self, v: dict[str, Any]) -> Text:
        out = Text("Stock ")
        out.append(f"{v['stock']}", style="bold")
        out.append("   Discard ")
        if v.get("discard_top"):
            out.append_text(card(v["discard_top"]))
            out.append(f" ({v['discard_size']})", style="dim")
        else:
            out.append("—", style="dim")
        if v.get("flip"):
            out.append("   Flip ")
            out.append_text(card(v["flip"]))
            out.append("   Wild ")
            out.append_text(hand(list(v.get("wilds") or [])))
        if v["phase"] == "claim" and v.get("claim_card"):
            out.append("\n")
            out.append("Claim window on ", style="bold yellow")
            out.append_text(card(v["claim_card"]))
            if v.get("you") in (v.get("to_act") or ()):
                take = "cut the line" if v.get("game") == "cacheta" else "claim it"
                out.append(f" — {take} or pass", style="yellow")
            elif v.get("answered"):
                out.append(" — answered", style="yellow")
        return out

    def _hand(self, v: dict[str, Any]) -> Text:
        cards = self.shown_hand()
        chosen = self.selected()
        wilds = set(v.get("wilds") or ())
        melded = {c for meld in v.get("your_melds") or [] for c in meld}
        out = Text(f"Your hand ({VIEWS[self.arrange]}, s to change): ", style="bold")
        for i, code in enumerate(cards):
            face = card(code)
            if code in wilds:
                face.append("*", style="bold magenta")
            if VIEWS[self.arrange] == "melds" and code in melded:
                face.stylize("underline")
            if i == self.cursor and code == chosen:
                face.stylize("reverse")
            out.append(" ")
            out.append_text(face)
        if v.get("can_knock"):
            out.append("\nYou can knock: press k.", style="bold green")
        outs = v.get("your_outs") or ()
        if outs:
            out.append("\nOne card away: ", style="yellow")
            out.append_text(hand(list(outs)))
        return out

    def _knock(self, knock: dict[str, Any]) -> Text:
        out = self.seat_name(int(knock["seat"]))
        out.append(" knocks: ", style="bold")
        for meld in knock.get("melds") or []:
            out.append("[")
            out.append_text(hand(list(meld)))
            out.append("] ")
        if knock.get("discard"):
            out.append("discarding ")
            out.append_text(card(knock["discard"]))
        return out

    def _result(self, result: dict[str, Any]) -> Text:
        deltas = result.get("deltas") or {}
        out = Text("Hand result: ", style="bold")
        out.append(", ".join(f"{self.seats[int(s)][0] if int(s) < len(self.seats) else s} {int(d):+d}"
                             for s, d in deltas.items() if int(d)))
        return out
