"""Pif Paf and Cacheta: one board for both rummy games, drawn from ``view.rummy`` alone.

The seats (chips or points, what each put in the pot, cards held, na boa, burned, what each
took from the pile), the stock and the discard pile (its top set apart, the discards before
it in order), Cacheta's flip and wild cards or Pif Paf's pot and betting, the claim window
(its card, its countdown, and only for a seat that may take it, the keys to do so), and
your hand: grouped into its melds with gaps between them, wild cards marked (``*`` acting as
wild, ``°`` standing as itself), the card just drawn underlined with the cursor put on it.

The board takes the focus: ``←``/``→`` pick a card, ``shift+←``/``→`` move it, ``o`` sorts
(melds, suit, rank), ``d`` discards the picked card and ``k`` knocks. Drawing, claiming or
cutting, passing, na boa and the bets are the action bar's, each on a key of its own
(``game_keys``). Every fact comes from the view and the legal list; the board sends only an
action the server listed.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from google.protobuf.message import Message
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards.base import Board, bot_tag, holder
from cardtui.client.cards import card_text, cards_text, glyphs
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.words import SILENT, Said, family_words, fill, fmt, game_keys, game_words, key_for, line, who
from cardtui.i18n import N_, _, current, ngettext
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2

SORTS = (N_("melds"), N_("suit"), N_("rank"))
OWN = N_("your order")
"""The order the player made by moving cards: kept as cards come and go."""
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
"""Suits alternate colours when a hand is sorted by suit."""
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
ACTING = "*"
"""After a wild card acting as wild in its meld."""
ITSELF = "°"
"""After a wild card standing as itself."""

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

KEYS = {
    "pifpaf": {"draw:stock": "s", "draw:pile": "p", "discard": "d", "knock": "k", "claim": "c", "pass": "x",
               "check": "c", "call": "c", "bet": "b", "raise": "r", "fold": "f"},
    "cacheta": {"draw:stock": "s", "draw:pile": "p", "discard": "d", "knock": "k", "cut": "c", "pass": "x",
                "declare": "n"},
}
"""One key per action at each game. ``c`` is claim or cut in a claim window and check or call
while betting: never both on offer at once. ``d`` and ``k`` are the board's own."""
LABELS = {
    "pifpaf": {"draw:stock": N_("Stock"), "draw:pile": N_("Pile"), "claim": N_("Claim"), "pass": N_("Pass"),
               "discard": N_("Discard"), "knock": N_("Knock")},
    "cacheta": {"draw:stock": N_("Stock"), "draw:pile": N_("Pile"), "cut": N_("Cut"), "pass": N_("Pass"),
                "declare": "Na boa", "discard": N_("Discard"), "knock": N_("Knock")},
}
"""Every action's label, the board's own (discard, knock) too: the action bar's line "On the board:
d Discard" and a replay's step say them."""


def rank_of(code: str) -> int:
    r = code[:-1]
    return RANKS.get(r) or int(r)


def by_suit(code: str) -> tuple[int, int]:
    return SUIT_ORDER.get(code[-1], 9), rank_of(code)


def by_rank(code: str) -> tuple[int, int]:
    return rank_of(code), SUIT_ORDER.get(code[-1], 9)


def wild_kinds(wilds: Sequence[str]) -> list[str]:
    """The wild cards, each kind once (two decks hold two of each)."""
    return sorted(set(wilds), key=by_suit)


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


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", abs(n)).format(n=n)


def is_pifpaf(model: TableModel) -> bool:
    return model.game == "pifpaf"


@dataclass(frozen=True)
class Slot:
    """A card of your hand and where the view put it: a meld (its index) or loose (-1)."""

    code: str
    group: int
    acting: bool
    """A wild card acting as wild in its meld."""


def slots(v: rummy_pb2.RummyView) -> list[Slot]:
    """Your cards as the view groups them: each meld in turn, then the loose cards."""
    out: list[Slot] = []
    for i, meld in enumerate(v.melds):
        acting = max((j for j, c in enumerate(meld.cards) if c == meld.wild), default=-1) if meld.HasField(
            "wild") else -1
        out += [Slot(c, i, j == acting) for j, c in enumerate(meld.cards)]
    out += [Slot(c, -1, False) for c in sorted(v.loose, key=by_suit)]
    grouped = Counter(s.code for s in out)
    for c in v.cards:  # cards the view did not group (the hand is over, or you are out of it)
        if grouped[c]:
            grouped[c] -= 1
        else:
            out.append(Slot(c, -1, False))
    return out


def meld_text(meld: rummy_pb2.RummyMeld, wilds: Sequence[str]) -> Text:
    """A meld's cards, the card acting as wild marked."""
    out = Text()
    acting = max((j for j, c in enumerate(meld.cards) if c == meld.wild), default=-1) if meld.HasField("wild") else -1
    for j, c in enumerate(meld.cards):
        if j:
            out.append(" ")
        out.append_text(card_text(c))
        if j == acting:
            out.append(ACTING, style="bold magenta")
        elif c in wilds:
            out.append(ITSELF, style="magenta")
    return out


def melds_text(melds: Sequence[rummy_pb2.RummyMeld], wilds: Sequence[str]) -> Text:
    out = Text()
    for i, meld in enumerate(melds):
        if i:
            out.append(" │ ", style="dim")
        out.append_text(meld_text(meld, wilds))
    return out


PICK = Binding.Group(N_("Pick"), compact=True)
MOVE = Binding.Group(N_("Move"), compact=True)


class RummyBoard(Board):
    """The table for Pif Paf and Cacheta; which game it is shows only in what the view fills in."""

    can_focus = True
    HANDLES: ClassVar[frozenset[str]] = frozenset({"discard", "knock"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "pick(-1)", N_("Pick"), key_display="←", group=PICK),
        Binding("right", "pick(1)", N_("Pick"), key_display="→", group=PICK),
        Binding("shift+left", "move(-1)", N_("Move"), key_display="⇧←", group=MOVE),
        Binding("shift+right", "move(1)", N_("Move"), key_display="⇧→", group=MOVE),
        Binding("home", "pick_end(0)", N_("First"), show=False),
        Binding("end", "pick_end(1)", N_("Last"), show=False),
        # Said where they apply (the prompt, the action bar), so the footer keeps room for the rest.
        Binding(KEYS["pifpaf"]["discard"], "discard", N_("Discard"), show=False),
        Binding(KEYS["pifpaf"]["knock"], "knock", N_("Knock"), show=False),
        Binding("o", "sort", N_("Sort")),
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sort = SORTS[0]
        self.order: list[str] = []
        """Your cards in the order shown."""
        self.cursor = 0
        self.drawn: str | None = None
        """The card just drawn, as the last view said."""
        self.window_shown: str | None = None
        """The seconds the claim window's countdown showed when last drawn."""
        self.hand_drawn: tuple[tuple[object, ...], list[tuple[int, RenderableType, int]]] | None = None
        """Your hand's lines (``_hand``) and what they were made from."""
        self.playing = False
        """Whether the viewer has a seat (the board's keys are shown only then)."""

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        """The claim window's countdown, drawn again when the seconds it shows change (the clock
        ticks twice a second; the board shows whole seconds)."""
        v = self._rummy()
        model = self.model
        if (v is not None and v.HasField("window") and model is not None and model.deadline is not None
                and self._seconds_left(model.deadline) != self.window_shown):
            self.redraw()

    @staticmethod
    def _seconds_left(deadline: float) -> str:
        return f"{max(0, deadline - time.monotonic()):.0f}"

    def _rummy(self) -> rummy_pb2.RummyView | None:
        model = self.model
        if model is None or model.view is None or model.view.WhichOneof("game") != "rummy":
            return None
        return model.view.rummy

    # -- the hand, in the order shown ------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A spectator has no hand: the board's keys are for players only."""
        if action in ("pick", "pick_end", "move", "sort", "discard", "knock"):
            return self.model is not None and self.model.seat is not None
        return True

    def watch_model(self, model: TableModel | None) -> None:
        playing = model is not None and model.seat is not None
        if playing != self.playing:
            self.playing = playing
            self.refresh_bindings()
        v = self._rummy()
        if v is None:
            super().watch_model(model)
            return
        picked = self.picked()
        was = (self.order, self.cursor)
        self.order = self._arranged(v)
        drawn = v.drawn if v.HasField("drawn") else None
        if drawn is not None and drawn != self.drawn and drawn in self.order:
            self.cursor = len(self.order) - 1 - self.order[::-1].index(drawn)  # the cursor goes to the new card
        elif picked is not None and picked in self.order and not (
                self.cursor < len(self.order) and self.order[self.cursor] == picked):
            self.cursor = self.order.index(picked)  # stays on the picked card (not on its twin of the other deck)
        self.drawn = drawn
        self.cursor = max(0, min(self.cursor, len(self.order) - 1))
        if (self.order, self.cursor) != was:
            self.repaint_at_paint()  # the hand as shown moved though the view did not: its lines compared
        super().watch_model(model)

    def _arranged(self, v: rummy_pb2.RummyView) -> list[str]:
        cards = list(v.cards)
        if self.sort == "suit":
            return sorted(cards, key=by_suit)
        if self.sort == "rank":
            return sorted(cards, key=by_rank)
        if self.sort == OWN:  # your order: cards kept where you put them, new ones at the end
            left = Counter(cards)
            kept = []
            for c in self.order:
                if left[c]:
                    kept.append(c)
                    left[c] -= 1
            for c in cards:
                if left[c]:
                    kept.append(c)
                    left[c] -= 1
            return kept
        return [s.code for s in slots(v)]

    def picked(self) -> str | None:
        if not self.order:
            return None
        return self.order[max(0, min(self.cursor, len(self.order) - 1))]

    def shown(self, v: rummy_pb2.RummyView) -> list[Slot]:
        """The cards in the order shown, each with its meld."""
        pool: dict[str, list[Slot]] = {}
        for s in slots(v):
            pool.setdefault(s.code, []).append(s)
        return [pool[c].pop(0) if pool.get(c) else Slot(c, -1, False) for c in self.order]

    # -- keys ------------------------------------------------------------------------------
    def action_pick(self, step: int) -> None:
        if self.order:
            self.cursor = (self.cursor + step) % len(self.order)
            self.redraw()

    def action_pick_end(self, last: int) -> None:
        if self.order:
            self.cursor = len(self.order) - 1 if last else 0
            self.redraw()

    def action_move(self, step: int) -> None:
        """Move the picked card one place along: the hand keeps your order from now on."""
        i, j = self.cursor, self.cursor + step
        if not 0 <= i < len(self.order) or not 0 <= j < len(self.order):
            return
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.cursor = j
        self.sort = OWN
        self.redraw()

    def action_sort(self) -> None:
        picked = self.picked()
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)] if self.sort in SORTS else SORTS[0]
        v = self._rummy()
        if v is not None:
            self.order = self._arranged(v)
            if picked is not None and picked in self.order:
                self.cursor = self.order.index(picked)
        self.redraw()

    def _legal(self, kind: str) -> list[common_pb2.Action]:
        return [a for a in self.model.legal if action_name(a) == kind] if self.model is not None else []

    def _send(self, action: common_pb2.Action) -> None:
        self.post_message(ActionBar.Chosen(action))

    def action_discard(self) -> None:
        picked = self.picked()
        discards = self._legal("discard")
        match = next((a for a in discards if list(a.cards) == [picked]), None)
        if match is not None:
            self._send(match)
        elif not discards:
            self.notify(self._not_now("discard"), severity="warning")
        else:
            said = (_("You cannot discard {card}.").format(card=glyphs(picked)) if picked
                    else _("You cannot discard that."))
            self.notify(said, severity="warning")

    def action_knock(self) -> None:
        knocks = self._legal("knock")
        if not knocks:
            self.notify(self._not_now("knock"), severity="warning")
            return
        v = self._rummy()
        loose = list(v.loose) if v is not None else []
        picked = self.picked()
        match = (next((a for a in knocks if list(a.cards) == [picked]), None)
                 or next((a for a in knocks if not a.cards), None)
                 or (knocks[0] if len(knocks) == 1 else None)
                 or next((a for a in knocks if list(a.cards)[:1] == loose[:1] and len(loose) == 1), None))
        if match is None:
            choices = ", ".join(glyphs(a.cards[0]) for a in knocks if a.cards)
            self.notify(_("Pick the card you discard as you knock: {cards}.").format(cards=choices), severity="warning")
            return
        self._send(match)

    def _not_now(self, what: str) -> str:
        model, v = self.model, self._rummy()
        if model is None or v is None or model.seat is None:
            return _("You are watching: you cannot play.")
        if v.phase == Phase.RUMMY_PHASE_DRAW and v.turn == model.seat:
            return _("Draw first: {stock} from the stock, {pile} from the pile.").format(
                stock=key_for(model, "draw:stock"), pile=key_for(model, "draw:pile"))
        if what == "knock" and v.turn == model.seat and v.phase == Phase.RUMMY_PHASE_DISCARD:
            return _("Your cards do not all form melds yet: you cannot knock.")
        return _("You cannot knock now.") if what == "knock" else _("You cannot discard now.")

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, model: TableModel, view: table_pb2.View) -> RenderableType:
        v = view.rummy
        width, height = self.size.width or 60, self.size.height or 20
        big = height >= 26 and width >= 60
        parts: list[tuple[int, RenderableType, int]] = []
        """(priority, renderable, lines): the lowest priorities go first when the board is short."""

        parts.append((9, self._title(model, view, width), 1))
        if view.hand_over and v.HasField("result"):
            summary = self.result_summary(model)
            if summary is not None:
                parts.append((8, summary, self._lines(summary, width)))
            parts += [(8, row, 1) for row in self._open_hands(model, v)]
        else:
            parts.append((8, self._seats(model, view, big), len(v.seats) + 1))
            parts += [(8, row, 1) for row in self._open_hands(model, v)]
            game = self._game_line(model, v)
            if game is not None:
                parts.append((7, game, 1))
            if big:
                parts.append((2, Text(""), 1))
            parts += [(8, row, 1) for row in self._pile(v, width, big)]
            if big:
                parts.append((2, Text(""), 1))
            window = self._window(model, v)
            if window is not None:
                parts.append((9, window, self._lines(window, width)))
            if v.cards:
                if big:
                    parts.append((2, Text(""), 1))
                parts += self._hand(model, v, width, big)
            prompt = self._prompt(model, view)
            if prompt is not None:
                parts.append((9, prompt, self._lines(prompt, width)))
        if view.match_over:
            end = self._match_end(model, v)
            parts.append((9, end, self._lines(end, width)))
        return Group(*self._fit(parts, height))

    def _lines(self, r: RenderableType, width: int) -> int:
        """How many lines a renderable takes at this width (drawn once: shown as drawn here)."""
        if self.is_mounted and self.size.width == width:
            return len(self.strips(r))
        return len(self.app.console.render_lines(r, self.app.console.options.update_width(max(1, width)), pad=False))

    @staticmethod
    def _fit(parts: list[tuple[int, RenderableType, int]], height: int) -> list[RenderableType]:
        """Leave out the least needed lines until the rest fit the board's height."""
        keep = list(parts)
        while sum(n for _, _, n in keep) > height:
            low = min(p for p, _, _ in keep)
            if low >= 8:
                break
            i = max(i for i, (p, _, _) in enumerate(keep) if p == low)
            del keep[i]
        return [r for _, r, _ in keep]

    def _title(self, model: TableModel, view: table_pb2.View, width: int) -> Text:
        v = view.rummy
        name = "Pif Paf" if is_pifpaf(model) else "Cacheta"
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

    def _seats(self, model: TableModel, view: table_pb2.View, big: bool) -> Table:
        v = view.rummy
        pifpaf = is_pifpaf(model)
        grid = Table(box=None, padding=(0, 1), pad_edge=False, collapse_padding=True, show_header=True,
                     header_style="dim", show_edge=False, expand=False)
        # Where the notes are long (a dealer who folded and took cards, a bot's level, in Spanish), the
        # notes give up their room first: names (up to their cut), numbers and headings keep theirs.
        longest = max((cell_len(s.name) for s in v.seats), default=1)
        name_width = max(1, min(longest, 16 if big else 10))
        grid.add_column("", no_wrap=True, width=1, min_width=1)
        grid.add_column("", no_wrap=True, overflow="ellipsis", min_width=name_width, max_width=16 if big else 10)
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

    def _open_hands(self, model: TableModel, v: rummy_pb2.RummyView) -> list[Text]:
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

    def _game_line(self, model: TableModel, v: rummy_pb2.RummyView) -> Text | None:
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

    def _pile(self, v: rummy_pb2.RummyView, width: int, big: bool) -> list[Text]:
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

    def _window(self, model: TableModel, v: rummy_pb2.RummyView) -> Text | None:
        if not v.HasField("window"):
            return None
        w = v.window
        out = Text(_("Window on") + " ", style="bold yellow")
        out.append_text(card_text(w.card))
        if w.discarder == model.seat:
            out.append(" (" + _("your discard") + ")", style="yellow")
        else:
            out.append(" (", style="yellow")
            out.append_text(fill(_("{name}'s discard"), {"name": Text(model.name(w.discarder))}, "yellow"))
            out.append(")", style="yellow")
        if model.deadline is not None:  # at 0 s the window is closing (the server closes it): no "0 s"
            self.window_shown = self._seconds_left(model.deadline)
            out.append(f" · {self.window_shown} s" if self.window_shown != "0" else " · " + _("closing"),
                       style="bold")
        take = self._legal("claim") or self._legal("cut")
        if take and not v.answered:
            action = take[0]
            key, kind = key_for(model, action_kind(action)), action_name(action)
            out.append("\n")
            if kind == "claim" or w.card in v.outs:
                out.append(_("It completes your hand") + ": ", style="bold")
            else:
                out.append(_("Not one of your outs (a cut burns)") + ": ", style="bold red")
            out.append(f"{key}", style="bold reverse")
            out.append(" " + (_("cut") if kind == "cut" else _("claim")))
            passing = key_for(model, "pass")
            if passing and self._legal("pass"):
                out.append(" · ")
                out.append(f"{passing}", style="bold reverse")
                out.append(" " + _("pass"))
        elif v.answered:
            out.append(" · " + _("you have answered"), style="dim")
        elif model.seat is not None and model.seat != w.discarder:
            passing = key_for(model, "pass")
            if passing and self._legal("pass"):  # anyone may let it go: saying so tells nothing of the cards
                out.append("\n" + _("Not yours to take") + ": ", style="dim")
                out.append(f"{passing}", style="bold reverse")
                out.append(" " + _("let it go (it stays open its whole time unless everyone does)"), style="dim")
            else:
                out.append("\n" + _("Not yours to take: play resumes after it."), style="dim")
        return out

    def _gaps(self, shown: Sequence[Slot]) -> list[str]:
        """What goes before each card: a gap between melds (or suits), a dotted rule before the loose cards."""
        out = [""]
        for prev, s in itertools.pairwise(shown):
            if self.sort in ("melds", OWN) and prev.group != s.group and (prev.group >= 0 or s.group >= 0):
                out.append(" ┆ " if self.sort == "melds" and s.group < 0 else "  ")
            elif self.sort == "suit" and prev.code[-1] != s.code[-1]:
                out.append("  ")
            elif self.sort == "melds" and s.group < 0 and prev.code[-1] != s.code[-1]:
                out.append(" ")  # the loose cards, a little apart by suit
            else:
                out.append("")
        return out

    def _hand(self, model: TableModel, v: rummy_pb2.RummyView, width: int,
              big: bool) -> list[tuple[int, RenderableType, int]]:
        """Your hand's lines, made again only when what they show changed: most messages are
        another seat's play, and a hand of eleven cards is some hundred pieces of text."""
        key = (width, big, current(), self.sort, tuple(self.order), self.cursor, model.seat is None,
               tuple(m.SerializeToString() for m in v.melds), tuple(v.loose), tuple(v.cards), tuple(v.wilds),
               v.drawn if v.HasField("drawn") else None, tuple(v.outs))
        if self.hand_drawn is None or self.hand_drawn[0] != key:
            self.hand_drawn = (key, self._hand_lines(model, v, width, big))
        return list(self.hand_drawn[1])

    def _hand_lines(self, model: TableModel, v: rummy_pb2.RummyView, width: int,
                    big: bool) -> list[tuple[int, RenderableType, int]]:
        wilds = set(v.wilds)
        shown = self.shown(v)
        gaps = self._gaps(shown)
        cursor = self.cursor if model.seat is not None else -1
        drawn = v.drawn if v.HasField("drawn") else None
        codes = [s.code for s in shown]
        drawn_at = len(codes) - 1 - codes[::-1].index(drawn) if drawn is not None and drawn in codes else -1
        boxed = big and sum(5 + len(g) for g in gaps) <= width
        if not boxed and sum(len(c) + 2 + len(g) for c, g in zip(codes, gaps, strict=True)) > width:
            gaps = [g.replace("  ", " ") for g in gaps]
        rows = [Text() for _ in range(4 if boxed else 2)]
        for i, s in enumerate(shown):
            for row in rows[:-1]:
                row.append(gaps[i], style="dim")
            rows[-1].append(" " * len(gaps[i]))
            mark, mark_style = ((ACTING, "bold magenta") if s.acting else (ITSELF, "magenta") if s.code in wilds
                                else ("", ""))
            edge = "bold yellow" if i == cursor else "green" if i == drawn_at else "dim"
            face = card_text(s.code)
            if i == drawn_at:
                face.stylize("underline")
            if i == cursor:
                face.stylize("reverse")
            if boxed:
                rows[0].append("╭───╮", style=edge)
                rows[1].append_text(line(Text("│", style=edge), face, " " * (3 - face.cell_len), Text("│", style=edge)))
                rows[2].append_text(line(Text("╰─", style=edge), Text(mark or "─", style=mark_style or edge),
                                         Text("─╯", style=edge)))
                under = "  ▲  " if i == cursor else " new " if i == drawn_at else "     "
            else:
                rows[0].append_text(face)
                rows[0].append(mark, style=mark_style)
                rows[0].append(" ")
                size = face.cell_len + len(mark) + 1
                new = _("new")[:size - 1]
                under = ("▲" if i == cursor else new if i == drawn_at and size > 3 else "^" if i == drawn_at
                         else "").center(size - 1).ljust(size)
            rows[-1].append(under, style="bold yellow" if i == cursor else "green")
        rows[-1].rstrip()
        for row in rows:
            row.no_wrap, row.overflow = True, "crop"
        head = Text(_("Your hand"), style="bold")
        head.append(f" · {_(self.sort)}")
        if drawn is not None:
            head.append(" · " + _("you drew") + " ")
            head.append_text(card_text(drawn))
        hint = " · " + _("←/→ pick · ⇧←/→ move · o sorts")
        if head.cell_len + len(hint) <= width:
            head.append(hint, style="dim")
        head.no_wrap, head.overflow = True, "ellipsis"
        out: list[tuple[int, RenderableType, int]] = [(6, head, 1)]
        out += [(9, row, 1) for row in rows[:-1]]
        out.append((5, rows[-1], 1))
        if wilds & set(v.cards):
            legend = _("{acting} acting as wild · {itself} wild as itself").format(acting=ACTING, itself=ITSELF)
            out.append((3, Text(legend, style="dim"), 1))
        if v.outs:
            outs = Text(_("Outs") + ": ", style="yellow")
            outs.append_text(cards_text(v.outs))
            outs.append(" (" + _("each lets you go out") + ")" if len(v.outs) < 6 else "", style="dim")
            outs.no_wrap, outs.overflow = True, "ellipsis"
            out.append((7, outs, 1))
        return out

    def _prompt(self, model: TableModel, view: table_pb2.View) -> Text | None:
        """What to do now, in plain words with the keys."""
        v = view.rummy
        me = model.seat
        turn = v.turn if v.HasField("turn") else None
        mine = next((s for s in v.seats if s.seat == me), None)
        out = Text()

        def key(kind: str) -> Text:
            return Text(f"{key_for(model, kind) or '?'}", style="bold reverse")

        if mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_FOLDED:
            out.append(_("You folded: you sit out the rest of this hand."), style="dim")
        elif mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_OUT:
            out.append(_("You are out of the game."), style="dim")
        elif mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_WAITING:
            out.append(_("You sit out this hand."), style="dim")
        elif v.phase == Phase.RUMMY_PHASE_BETTING and turn == me:
            out.append(_("Your bet"), style="bold")
            call = self._legal("call")
            if call:
                out.append(": " + _("{n} to call.").format(n=call[0].chips))
            else:
                out.append(": " + _("nobody has bet yet."))
            out.append(" " + _("± sets the amount."), style="dim")
        elif v.phase == Phase.RUMMY_PHASE_DRAW and turn == me:
            out.append(_("Draw") + ": ", style="bold")
            out.append_text(fmt(_("{key} from the stock"), key=key("draw:stock")))
            if v.pile and any(action_kind(a) == "draw:pile" for a in model.legal):
                out.append(" · ")
                out.append_text(fmt(_("{key} takes {card}"), key=key("draw:pile"), card=card_text(v.pile[-1])))
        elif v.phase == Phase.RUMMY_PHASE_DISCARD and turn == me:
            out.append(_("Discard") + ": ", style="bold")
            picked = self.picked()
            out.append_text(fmt(_("←/→ pick, {key} discards {card}"), key=key("discard"),
                                card=card_text(picked) if picked else Text(_("it"))))
            if self._legal("knock"):
                out.append(" · ")
                out.append_text(key("knock"))
                out.append(" " + _("knocks!"), style="bold green")
        elif v.phase == Phase.RUMMY_PHASE_KNOCK and turn == me:
            out.append(_("You took the discard") + ": ", style="bold")
            out.append_text(key("knock"))
            out.append(" " + _("knocks."), style="bold green")
        elif turn is not None and v.phase in (Phase.RUMMY_PHASE_DRAW, Phase.RUMMY_PHASE_DISCARD,
                                                Phase.RUMMY_PHASE_BETTING, Phase.RUMMY_PHASE_KNOCK):
            doing = {Phase.RUMMY_PHASE_DRAW: _("{name} to draw."), Phase.RUMMY_PHASE_DISCARD: _("{name} to discard."),
                     Phase.RUMMY_PHASE_BETTING: _("{name} to bet."), Phase.RUMMY_PHASE_KNOCK: _("{name} to knock.")}
            out.append_text(fmt(doing[v.phase], name=who(model, turn)))
        if self._legal("declare"):
            if out:
                out.append("  ")
            out.append_text(key("declare"))
            out.append(" " + _("declares na boa"), style="bold yellow")
        return out if out else None

    def _match_end(self, model: TableModel, v: rummy_pb2.RummyView) -> Text:
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

    # -- the hand's end ----------------------------------------------------------------------
    def result_summary(self, model: TableModel) -> RenderableType | None:
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
            if not k.HasField("claimed"):
                template = _("{name} knocks")
            else:
                template = _("{name} knocks with the claimed {card}") if pifpaf else _(
                    "{name} knocks cutting the line with {card}")
            claimed = card_text(k.claimed) if k.HasField("claimed") else Text("")
            head.append_text(fmt(template, name=who(model, k.seat), card=claimed))
            melded = Text("  ")
            melded.append_text(melds_text(k.melds, wilds))
            melded.append("\n  ")
            if k.HasField("discard"):
                melded.append(_("discards") + " ")
                melded.append_text(card_text(k.discard))
            else:
                melded.append(_("all ten melded, no discard"))
            parts: list[RenderableType] = [head, melded]
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
            if s.seat == r.winner:
                note.append(_("wins"), style="bold green")
            if s.seat in gone or (pifpaf and s.score == 0 and delta < 0):
                note.append(_("out of the game") if not pifpaf else _("no chips left"), style="bold red")
            grid.add_row(name, Text(str(s.score - delta)), Text("→", style="dim"), Text(str(s.score), style="bold"),
                         change, note)
        parts.append(grid)
        return Group(*parts)


# -- the log -----------------------------------------------------------------------------------
def you(model: TableModel, seat: int) -> Text:
    """The seat's person, or "You" for the viewer."""
    return Text(_("You"), style="bold green") if seat == model.seat else who(model, seat)


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
        if body.HasField("discard"):
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
    # The common events, as a rummy table says them.
    if isinstance(body, table_pb2.Acted) and action_name(body.action) in ("claim", "cut"):
        return SILENT  # what came of it follows: the card taken, or burned
    if isinstance(body, table_pb2.Acted) and action_name(body.action) == "pass":
        return Said(says(model, body.seat, _("You let it go."), _("{name} lets it go.")), "dim")
    if isinstance(body, table_pb2.HandEnded) and not is_pifpaf(model):
        lost = [(s, d) for s, d in enumerate(body.deltas) if d]
        if body.HasField("winner"):
            out = says(model, body.winner, _("You win the hand"), _("{name} wins the hand"))
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
for _game, _keys in KEYS.items():
    game_keys(_game, _keys)
    game_words(_game, LABELS[_game])
