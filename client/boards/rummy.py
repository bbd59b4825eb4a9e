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
(``gamebook.ClientGame.keys``). Every fact comes from the view and the legal list; the board sends only an
action the server listed.

What the board shows around your hand (``rummy_table``), the hand's and the game's end
(``rummy_result``), the cards' orders and melds (``rummy_cards``) and every event in words
(``rummy_words``, with the board's own keys) have modules of their own.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards.base import Board, tapped
from cardtui.client.boards.rummy_cards import ACTING, ITSELF, Slot, by_rank, by_suit, slots
from cardtui.client.boards.rummy_result import game_end, hand_result
from cardtui.client.boards.rummy_table import Phase, Status, game_line, open_hands, pile_rows, seats_grid, title
from cardtui.client.boards.rummy_words import BOARD_KEYS, closes
from cardtui.client.cards import card_text, cards_text, glyphs
from cardtui.client.models import TableModel, action_kind, action_name
from cardtui.client.words import fill, fmt, key_for, line, who
from cardtui.i18n import N_, _, current
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2

SORTS = (N_("melds"), N_("suit"), N_("rank"))
OWN = N_("your order")
"""The order the player made by moving cards: kept as cards come and go."""

PICK = Binding.Group(N_("Pick"), compact=True)
MOVE = Binding.Group(N_("Move"), compact=True)


class RummyBoard(Board):
    """The table for Pif Paf and Cacheta; which game it is shows only in what the view fills in."""

    can_focus = True
    HANDLES: ClassVar[frozenset[str]] = frozenset({"discard", "knock"})
    FOOTER_GIVES_WAY: ClassVar[tuple[str, ...] | None] = ("quit", "invite", "language", "move", "sort", "help")
    """At 80 columns the hint (h), the chat (/) and the phrases (!) stay in the footer: Quit, Invite and Language
    give way first (ctrl+q and ctrl+l work anywhere, the help lists every key), then moving and sorting the hand
    (the help and the rules say them), then the rules' key."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "pick(-1)", N_("Pick"), key_display="←", group=PICK),
        Binding("right", "pick(1)", N_("Pick"), key_display="→", group=PICK),
        Binding("shift+left", "move(-1)", N_("Move"), key_display="⇧←", group=MOVE),
        Binding("shift+right", "move(1)", N_("Move"), key_display="⇧→", group=MOVE),
        Binding("home", "pick_end(0)", N_("First"), show=False),
        Binding("end", "pick_end(1)", N_("Last"), show=False),
        # Said where they apply (the prompt, the action bar), so the footer keeps room for the rest.
        Binding(BOARD_KEYS["discard"], "discard", N_("Discard"), show=False),
        Binding(BOARD_KEYS["knock"], "knock", N_("Knock"), show=False),
        Binding("o", "sort", N_("Sort")),
        # On request, the melds the picked card joins or would complete, from your own cards only.
        Binding("h", "hint", N_("Hint")),  # a short word: the footer keeps it at 80 columns in every language
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # Cards and the prompt's keys answer a click (``tapped``) without the links' underline: a hand
        # of boxed cards underlined edge to edge reads worse, and the keys are marked already.
        self.set_reactive(RummyBoard.auto_links, False)
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
        """A spectator has no hand: the board's keys are for players only. On a touch screen a card is picked by
        a tap, so the arrows' picking and moving are not offered (the key row would name keys a phone lacks)."""
        if self.touch and action in ("pick", "pick_end", "move"):
            return False
        if action in ("pick", "pick_at", "pick_end", "move", "sort", "discard", "knock", "hint", "choose"):
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

    def action_pick_at(self, i: int) -> None:
        """A card of the hand clicked (tapped): picked, as ←/→ would pick it."""
        if 0 <= i < len(self.order):
            self.cursor = i
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

    class HintAsked(Message):
        """The player asks which melds the picked card joins (the table screen asks the server)."""

        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def action_hint(self) -> None:
        picked = self.picked()
        if picked is None:
            first = _("Tap a card of your hand first.") if self.touch else _("Pick a card of your hand first (←/→).")
            self.notify(first, severity="warning")
            return
        self.post_message(self.HintAsked(picked))

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
            said = _("Pick the card you close with: {cards}.") if self.model is not None and closes(self.model) else _(
                "Pick the card you discard as you knock: {cards}.")
            self.notify(said.format(cards=choices), severity="warning")
            return
        self._send(match)

    def _not_now(self, what: str) -> str:
        model, v = self.model, self._rummy()
        if model is None or v is None or model.seat is None:
            return _("You are watching: you cannot play.")
        if v.phase == Phase.RUMMY_PHASE_DRAW and v.turn == model.seat:
            return _("Draw first: {stock} from the stock, {pile} from the pile.").format(
                stock=key_for(model, "draw:stock"), pile=key_for(model, "draw:pile"))
        if what == "knock" and v.turn == model.seat and v.phase == Phase.RUMMY_PHASE_DISCARD and closes(model):
            return _("Your cards outside melds count more than this table closes with ({limit} at most).").format(
                limit=v.table.limit)
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

        parts.append((9, title(model, view, width), 1))
        if view.hand_over and v.HasField("result"):
            summary = self.result_summary(model)
            if summary is not None:
                parts.append((8, summary, self._lines(summary, width)))
            parts += [(8, row, 1) for row in open_hands(model, v)]
        else:
            parts.append((8, seats_grid(model, view, big), len(v.seats) + 1))
            parts += [(8, row, 1) for row in open_hands(model, v)]
            game = game_line(model, v)
            if game is not None:
                parts.append((7, game, 1))
            if big:
                parts.append((2, Text(""), 1))
            parts += [(8, row, 1) for row in pile_rows(v, width, big)]
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
            end = game_end(model, v)
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
            start = len(out)
            out.append(f"{key}", style="bold reverse")
            out.append(" " + (_("cut") if kind == "cut" else _("claim")))
            out.stylize(tapped(f"choose({action_kind(action)!r})"), start, len(out))
            passing = key_for(model, "pass")
            if passing and self._legal("pass"):
                out.append(" · ")
                start = len(out)
                out.append(f"{passing}", style="bold reverse")
                out.append(" " + _("pass"))
                out.stylize(tapped("choose('pass')"), start, len(out))
        elif v.answered:
            out.append(" · " + _("you have answered"), style="dim")
        elif model.seat is not None and model.seat != w.discarder:
            passing = key_for(model, "pass")
            if passing and self._legal("pass"):  # anyone may let it go: saying so tells nothing of the cards
                out.append("\n" + _("Not yours to take") + ": ", style="dim")
                start = len(out)
                out.append(f"{passing}", style="bold reverse")
                out.append(" " + _("let it go (it stays open its whole time unless everyone does)"), style="dim")
                out.stylize(tapped("choose('pass')"), start, len(out))
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
        key = (width, big, current(), self.sort, tuple(self.order), self.cursor, model.seat is None, self.can_focus,
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
        cursor = self.cursor if model.seat is not None and self.can_focus else -1  # none on a board not played on
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
            click = tapped(f"pick_at({i})") if cursor >= 0 else None
            if i == drawn_at:
                face.stylize("underline")
            if i == cursor:
                face.stylize("reverse")
            starts = [len(row) for row in rows]
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
            if click is not None:  # the card, its box and the mark under it: a finger's width to tap
                for row, start in zip(rows, starts, strict=True):
                    row.stylize(click, start, len(row))
        rows[-1].rstrip()
        for row in rows:
            row.no_wrap, row.overflow = True, "crop"
        head = Text(_("Your hand"), style="bold")
        head.append(f" · {_(self.sort)}")
        if drawn is not None:
            head.append(" · " + _("you drew") + " ")
            head.append_text(card_text(drawn))
        hint = " · " + (_("tap a card to pick it") if self.touch else _("←/→ pick · ⇧←/→ move · o sorts"))
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
        acting = me if self.can_focus else None  # a board not played on (the drill) says whose turn, no keys
        out = Text()

        def key(kind: str) -> Text:
            return Text(f"{key_for(model, kind) or '?'}", style="bold reverse")

        def click(kind: str, said: Text) -> Text:
            """A key and its words, clicked (tapped) as the key is pressed."""
            said.stylize(tapped(kind if kind in self.HANDLES else f"choose({kind!r})"))
            return said

        if mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_FOLDED:
            out.append(_("You folded: you sit out the rest of this hand."), style="dim")
        elif mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_OUT:
            out.append(_("You are out of the game."), style="dim")
        elif mine is not None and mine.status == Status.RUMMY_SEAT_STATUS_WAITING:
            out.append(_("You sit out this hand."), style="dim")
        elif v.phase == Phase.RUMMY_PHASE_BETTING and turn == acting:
            out.append(_("Your bet"), style="bold")
            call = self._legal("call")
            if call:
                out.append(": " + _("{n} to call.").format(n=call[0].chips))
            else:
                out.append(": " + _("nobody has bet yet."))
            out.append(" " + (_("More and Less set the amount.") if self.touch else _("± sets the amount.")),
                       style="dim")
        elif v.phase == Phase.RUMMY_PHASE_DRAW and turn == acting:
            out.append(_("Draw") + ": ", style="bold")
            out.append_text(click("draw:stock", fmt(_("{key} from the stock"), key=key("draw:stock"))))
            if v.pile and any(action_kind(a) == "draw:pile" for a in model.legal):
                out.append(" · ")
                out.append_text(click("draw:pile", fmt(_("{key} takes {card}"), key=key("draw:pile"),
                                                       card=card_text(v.pile[-1]))))
        elif v.phase == Phase.RUMMY_PHASE_DISCARD and turn == acting:
            out.append(_("Discard") + ": ", style="bold")
            picked = self.picked()
            card = card_text(picked) if picked else Text(_("it"))
            said = _("tap a card, {key} discards {card}") if self.touch else _("←/→ pick, {key} discards {card}")
            out.append_text(click("discard", fmt(said, key=key("discard"), card=card)))
            if self._legal("knock"):
                out.append(" · ")
                closing = fmt(_("{key} closes with {card}"), key=key("knock"), card=card) if closes(model) else line(
                    key("knock"), Text(" " + _("knocks!"), style="bold green"))
                out.append_text(click("knock", closing))
        elif v.phase == Phase.RUMMY_PHASE_KNOCK and turn == acting:
            out.append(_("You took the discard") + ": ", style="bold")
            out.append_text(click("knock", line(key("knock"), Text(" " + _("knocks."), style="bold green"))))
        elif turn is not None and v.phase in (Phase.RUMMY_PHASE_DRAW, Phase.RUMMY_PHASE_DISCARD,
                                                Phase.RUMMY_PHASE_BETTING, Phase.RUMMY_PHASE_KNOCK):
            doing = {Phase.RUMMY_PHASE_DRAW: _("{name} to draw."), Phase.RUMMY_PHASE_DISCARD: _("{name} to discard."),
                     Phase.RUMMY_PHASE_BETTING: _("{name} to bet."), Phase.RUMMY_PHASE_KNOCK: _("{name} to knock.")}
            out.append_text(fmt(doing[v.phase], name=who(model, turn)))
        if self._legal("declare"):
            if out:
                out.append("  ")
            out.append_text(click("declare", line(key("declare"), Text(" " + _("declares na boa"),
                                                                       style="bold yellow"))))
        return out if out else None

    # -- the hand's end ----------------------------------------------------------------------
    def result_summary(self, model: TableModel) -> RenderableType | None:
        """The finished hand: the knock (melds and discard) or the pot taken unseen, and each seat's
        chips or points before and after, with those it put out of the game (``rummy_result``)."""
        return hand_result(model)
