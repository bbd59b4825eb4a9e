"""Both trucos on one board: the seats round the table with partners marked, your cards (by
their keys), the trick in play and the tricks so far, the score, the stake ladder, a call
awaiting its answer as a prompt, the envido and flor, signals caught, and the hand's result.

Everything drawn comes from ``view.truco`` and the legal list; the board works nothing out
from the rules. Cards are played by ``1``–``3``, each key staying with its card as dealt
(``d`` first plays one face down); every other action is the action bar's, by its letter.
At a small terminal the board draws a compact table and leaves out what matters least.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.widgets import Input

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards.base import Board, bot_tag, tapped
from cardtui.client.boards.truco_words import (
    NO,
    PAULISTA,
    TEAM_STYLE,
    YES,
    amount,
    call_word,
    gesture,
    meaning,
    my_team,
    plain_word,
    points_text,
    team_does,
    team_label,
    team_object,
    why,
)
from cardtui.client.cards import BACK, card_text, cards_text
from cardtui.client.models import TableModel, action_name
from cardtui.client.words import fill, fmt, key_for, label, line
from cardtui.i18n import _, ngettext
from cardtui.v1 import common_pb2, table_pb2, truco_pb2

T = truco_pb2
PROMPT = "bold black on yellow"
WAIT = "bold yellow"
CARD_KEYS = ("1", "2", "3")
ANSWER_ORDER = ("accept", "quiero", "run", "no_quiero", "truco", "retruco", "vale_cuatro", "seis", "nove", "doze",
                "envido", "real_envido", "falta_envido", "flor", "contra_flor", "contra_flor_al_resto",
                "con_flor_me_achico", "son_buenas")
"""The answers to a call, in the order a prompt lists them."""
WORD_ACTION = {w: T.TrucoWord.Name(w).removeprefix("TRUCO_WORD_").lower() for w in T.TrucoWord.values() if w}
"""A call's word → the action type that says it (they share their names)."""
ENVIDO_FIRST = ("envido", "real_envido", "falta_envido", "flor")
"""Calls that may answer a truco: the envido (or a flor) is settled first."""
ROOMY = 26
"""Rows the board needs to draw everything; below it the board is compact."""


class TrucoBoard(Board):
    """Truco paulista and truco argentino: one board, each game's facts from its part of the view."""

    HANDLES: ClassVar[frozenset[str]] = frozenset({"play", "play_down", "play_blind"})
    can_focus = True

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.slots: list[str | None] = []
        """Your cards as dealt, each at the place its key names; None where one was played."""
        self.dealt: tuple[int, int] = (-1, -1)
        self.face_down = False
        """``d`` was pressed: the next card key plays that card face down."""

    # -- the model, the keys ------------------------------------------------------------------
    def watch_model(self, model: TableModel | None) -> None:
        view = model.view if model is not None else None
        if view is None or not view.HasField("truco"):
            super().watch_model(model)
            return
        t = view.truco
        cards = list(t.cards)
        deal = (view.hand, t.argentino.round if t.HasField("argentino") else 0)
        held = {c for c in self.slots if c is not None}
        if deal != self.dealt or not set(cards) <= held:
            self.slots, self.dealt = list(cards), deal
        else:
            self.slots = [c if c in cards else None for c in self.slots]
        if self.face_down and not self._legal("play_down"):
            self.face_down = False
        self._keep_focus()
        super().watch_model(model)

    def _keep_focus(self) -> None:
        """The card keys are the board's: it takes the focus back from anything but the chat line."""
        if not self.is_mounted or self.model is None or self.model.spectating or not self.display:
            return  # hidden (a summary stands in for it): the screen gives it the focus back when it shows it
        focused = self.screen.focused
        if focused is not self and not isinstance(focused, Input):
            self.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key in CARD_KEYS:
            event.stop()
            self.action_slot(int(event.key))
        elif event.key == "d" and self.model is not None and self.model.game == PAULISTA:
            event.stop()
            self.action_face_down()

    def action_face_down(self) -> None:
        """``d`` (or its mark clicked): the next card goes face down, or face up again."""
        if self._legal("play_down"):
            self.face_down = not self.face_down
            self.redraw()

    def action_slot(self, n: int) -> None:
        """Play the card at place ``n`` (its key): face up, face down after ``d``, or blind."""
        action = self._card_action(n)
        if action is None:
            return
        self.face_down = False
        self.redraw()
        self.post_message(ActionBar.Chosen(action))

    def _legal(self, kind: str) -> list[common_pb2.Action]:
        if self.model is None:
            return []
        return [a for a in self.model.legal if action_name(a) == kind]

    def _card_action(self, n: int) -> common_pb2.Action | None:
        blind = self._legal("play_blind")
        if blind:
            return next((a for a in blind if a.position == n), None)
        code = self.slots[n - 1] if 0 < n <= len(self.slots) else None
        if code is None:
            return None
        kind = "play_down" if self.face_down else "play"
        return next((a for a in self._legal(kind) if list(a.cards) == [code]), None)

    # -- the board ----------------------------------------------------------------------------
    def draw(self, model: TableModel, view: table_pb2.View) -> RenderableType:
        t = view.truco
        compact = self.content_size.height < ROOMY or self.content_size.width < 60
        gap: list[tuple[int, RenderableType]] = [] if compact else [(1, Text(""))]
        parts: list[tuple[int, RenderableType]] = [
            (9, self._score(model, view, compact)),
            (7, self._ladder(model, t, compact)),
        ]
        if t.HasField("paulista") and t.paulista.rejected:
            parts.append((5, line(Text(_("Rejected") + " ", style="bold"), cards_text(t.paulista.rejected),
                                  Text(" (" + _("face up, out of play") + ")", style="dim"))))
        if t.rules == truco_pb2.TRUCO_RULES_ARGENTINO:  # the table plays an envido: its part says how it stands
            parts.append((6, self._envido(model, t, compact)))
            flor = self._flor(model, t)
            if flor is not None:
                parts.append((6, flor))
        prompt = self._prompt(model, view)
        if prompt is not None:
            parts += [*gap, (10, prompt)]
        parts += [*gap, (8, self._table(model, view, compact)), *gap]
        hand = self._hand(model, view)
        if hand is not None:
            parts.append((10, hand))
        if not view.hand_over or compact:
            tricks = self._tricks_line(model, t) if compact else self._tricks_table(model, t)
            if tricks is not None:
                parts += [*gap, (4, tricks)]
        signals = self._signals(model, t, 3 if compact else 6)
        if signals is not None:
            parts += [*gap, (3, signals)]
        if view.hand_over and t.HasField("result"):
            if compact:
                parts.append((9, self._result_line(model, t)))
            else:
                summary = self.result_summary(model)
                if summary is not None:
                    parts += [(5, Text("")), (5, summary)]
        if view.match_over:
            parts.append((9, self._match_over(model, t)))
        return Group(*self._fit(parts))

    def _fit(self, parts: list[tuple[int, RenderableType]]) -> list[RenderableType]:
        """The parts in order, leaving out the least needed until they fit the board's height.

        Each part is drawn once (to know its height) and shown as drawn; a part whose words
        did not change since the last message is not drawn again (``Board.strips``)."""
        width, height = self.content_size.width, self.content_size.height
        if width <= 0 or height <= 0 or not self.is_mounted:
            return [r for _, r in parts]
        sizes = [len(self.strips(r)) for _, r in parts]
        keep = list(range(len(parts)))
        for p in sorted(range(len(parts)), key=lambda i: (parts[i][0], -i)):
            if sum(sizes[i] for i in keep) <= height:
                break
            if parts[p][0] < 9:
                keep.remove(p)
        return [parts[i][1] for i in keep]

    # -- the score, the ladder, the envido ------------------------------------------------------
    def _score(self, model: TableModel, view: table_pb2.View, compact: bool) -> Text:
        t = view.truco
        out = Text() if compact else Text(_("Hand {n}").format(n=view.hand) + " · ", style="bold")
        if t.HasField("paulista"):
            p = t.paulista
            if p.ferro:
                out.append("MÃO DE FERRO ", style="bold red")
            elif p.HasField("onze_team"):
                out.append("MÃO DE ONZE ", style="bold red")
        if t.HasField("argentino") and t.argentino.pica_pica:
            a = t.argentino
            out.append(_("Duel {n}").format(n=a.round) + ": ", style="bold red")
            out.append_text(Text(" v ").join(self._short(model, s) for s in a.players))
            out.append(" · ")
        told = list(t.argentino.told) if t.HasField("argentino") else []
        for i, team in enumerate(self._teams(model, len(t.scores))):
            score = t.scores[team]
            if i:
                out.append(" · ")
            out.append_text(team_label(model, team))
            if len(told) == len(t.scores):
                tell = told[team]
                word = ("buena" if tell.buenas else "mala") + ("" if tell.count == 1 else "s")
                out.append(f" {tell.count} {word}", style=TEAM_STYLE[team % 2])
            else:
                out.append(f" {score}", style=TEAM_STYLE[team % 2])
            waiting = t.argentino.points if t.HasField("argentino") and not view.hand_over else []
            if team < len(waiting) and waiting[team]:
                out.append(f" (+{waiting[team]})", style="bold")
        out.append(" tentos" if t.rules == truco_pb2.TRUCO_RULES_PAULISTA else "")
        out.append(" · " + _("to {n}").format(n=t.target), style="dim")
        return out

    def _ladder(self, model: TableModel, t: truco_pb2.TrucoView, compact: bool) -> Text:
        """The truco's rungs: accepted in green, a call awaiting its answer in yellow; who may raise."""
        out = Text() if compact else Text(_("Stake {n}").format(n=t.stake) + "  ", style="bold")
        pending = t.pending if t.HasField("pending") and t.pending.bet == T.TRUCO_BET_TRUCO else None
        for i, rung in enumerate(t.ladder):
            if i:
                out.append("›" if compact else " › ", style="dim")
            said = f"{plain_word(model, rung.call)} {rung.value}"
            if i < t.level:
                out.append(said, style="green")
            elif pending is not None and rung.call == pending.call:
                out.append(f"{said}?", style="bold black on yellow")
            else:
                out.append(said, style="dim")
        if t.HasField("paulista") and t.paulista.trick_decides:
            out.append(" · " + (_("trick decides") if compact else _("this trick decides the hand")), style="bold")
        elif pending is None and not t.HasField("result"):
            raisers = list(t.raisers)
            if len(raisers) == 2:
                out.append("" if compact else " · " + _("either side may call"), style="dim")
            elif raisers:
                out.append(" · " + _("raise") + ": " if compact else " · " + _("next raise") + ": ", style="dim")
                out.append_text(team_object(model, raisers[0]))
            else:
                out.append(" · " + _("no raise now"), style="dim")
        return out

    def _envido(self, model: TableModel, t: truco_pb2.TrucoView, compact: bool) -> Text:
        """The envido: the calls made, your own, what was said, and the best so far."""
        a = t.argentino
        if a.envido_calls:
            out = Text(" + ".join(plain_word(model, w) for w in a.envido_calls), style="bold")
            out.append(" " + _("called"))
        else:
            out = Text("Envido", style="bold")
            out.append(" " + (_("not called (still open)") if a.envido_open else _("not called (closed)")), style="dim")
        if a.HasField("your_envido"):
            out.append(" · " + _("yours") + " ", style="green")
            out.append(str(a.your_envido), style="bold green")
            if a.your_envido_cards and not compact:
                out.append(" (")
                out.append_text(cards_text(a.your_envido_cards))
                out.append(")")
        said = [s for s in t.seats if s.HasField("envido")]
        if said and not compact:
            out.append(" · " + _("said") + " ")
            out.append_text(Text(", ").join(line(self._short(model, s.seat), f" {s.envido}") for s in said))
        if a.HasField("best_envido"):
            out.append(" · " + _("best") + " ")
            out.append_text(self._short(model, a.best_envido))
            best = next((s for s in said if s.seat == a.best_envido), None)
            if best is not None:
                out.append(f" {best.envido}", style="bold")
        return out

    def _flor(self, model: TableModel, t: truco_pb2.TrucoView) -> Text | None:
        a = t.argentino
        if not (a.flor_calls or a.flor_sung or a.HasField("your_flor") or a.must_flor):
            return None
        out = Text("Flor:", style="bold")
        said: list[Text] = []
        if a.flor_sung:
            said.append(line(_("sung by") + " ", Text(", ").join(self._short(model, s) for s in a.flor_sung)))
        raised = [w for w in a.flor_calls if w != T.TRUCO_WORD_FLOR]
        if raised:
            said.append(Text(" + ".join(plain_word(model, w) for w in raised), style="bold"))
        if a.flor_done:
            said.append(Text(_("settled"), style="dim"))
        if a.HasField("your_flor"):
            said.append(line(Text(_("yours") + " ", style="green"), Text(str(a.your_flor), style="bold green")))
        out.append(" ")
        out.append_text(Text(" · ").join(said))
        return out

    # -- the prompt ---------------------------------------------------------------------------
    def _prompt(self, model: TableModel, view: table_pb2.View) -> Text | None:
        t = view.truco
        if view.hand_over:
            return None
        if t.HasField("argentino") and t.argentino.HasField("announcing"):
            return self._announce_prompt(model, t)  # the envido is settled before a truco is answered
        if t.HasField("pending"):
            return self._call_prompt(model, view, t.pending)
        if t.HasField("paulista"):
            p = t.paulista
            if p.phase == T.PAULISTA_PHASE_DEAL:
                return self._deal_prompt(model, p)
            if p.phase == T.PAULISTA_PHASE_ONZE and p.HasField("onze_team"):
                return self._onze_prompt(model, p)
        if t.HasField("argentino") and t.argentino.must_flor:
            return _boxed(line(_("You hold a flor: sing it before your first card") + " — ", self._choices(["flor"])),
                          PROMPT)
        return None

    def _call_prompt(self, model: TableModel, view: table_pb2.View, call: truco_pb2.TrucoCall) -> Text:
        game = model.game
        out = line(team_label(model, call.team), ": ", Text(call_word(model, call.call), style="bold"), " — ")
        mine = self._answers(call)
        style = PROMPT if mine else WAIT
        first = [k for k in mine if k in ENVIDO_FIRST] if call.bet == T.TRUCO_BET_TRUCO else []
        if mine:
            out.append_text(self._choices([k for k in mine if k not in first]))
            if first:
                out.append(" · " + _("or first") + " ")
                out.append_text(self._choices(first))
        elif call.bet == T.TRUCO_BET_FLOR and call.call == T.TRUCO_WORD_FLOR:
            out.append_text(line(team_object(model, call.answering_team), " " + _("may answer with a flor")))
        else:
            words = " / ".join([YES[game], NO[game], *(plain_word(model, w) for w in self._raises(view.truco, call))])
            ours = my_team(model)
            if ours == call.team:
                out.append_text(line(_("waiting for") + " ", team_object(model, call.answering_team), f": {words}"))
            elif ours == call.answering_team:
                out.append(_("our answer: {words}").format(words=words))
            else:
                out.append_text(fmt(_("{team} answers {words}"), team=team_object(model, call.answering_team),
                                    words=words))
        if call.bet == T.TRUCO_BET_FLOR and call.call == T.TRUCO_WORD_FLOR:
            return _boxed(out, style)  # a flor sung is met by flores, not by quiero or no quiero
        paulista = view.truco.paulista if view.truco.HasField("paulista") else None
        decides = call.bet == T.TRUCO_BET_TRUCO and paulista is not None and \
            (paulista.call_decides or paulista.trick_decides)
        what = {T.TRUCO_BET_TRUCO: _("{yes} plays the hand for {n}"),
                T.TRUCO_BET_ENVIDO: _("{yes} plays the envido for {n}")}.get(call.bet,
                                                                              _("{yes} plays the flor for {n}"))
        out.append(" · " + what.format(yes=YES[game], n=call.value))
        if decides:
            out.append(" " + _("and this trick decides it, not best of three"), style="bold")
        out.append(f" · {NO[game]}: ")
        out.append_text(team_object(model, call.team))
        out.append(f" +{call.refused}")
        return _boxed(out, style)

    def _raises(self, t: truco_pb2.TrucoView, call: truco_pb2.TrucoCall) -> list[int]:
        """The raises the view allows the answering team: none past what ``raisers`` allows for a truco."""
        if call.bet == T.TRUCO_BET_TRUCO and call.answering_team not in t.raisers:
            return []
        return list(call.raises)

    def _answers(self, call: truco_pb2.TrucoCall) -> list[str]:
        """What this seat may answer, by action type, in the order a prompt gives them."""
        model = self.model
        if model is None or model.seat is None or my_team(model) != call.answering_team:
            return []
        offered = {action_name(a) for a in model.legal}
        allowed = {WORD_ACTION[w] for w in call.raises}
        answers = [k for k in ANSWER_ORDER if k in offered]
        if call.bet == T.TRUCO_BET_TRUCO:  # an envido may answer a truco; raises only as the view allows
            answers = [k for k in answers if k not in WORD_ACTION.values() or k in allowed or k in ENVIDO_FIRST]
        return answers

    def _choices(self, kinds: Sequence[str]) -> Text:
        """Actions as a prompt offers them: each with its key ("q Quiero / n No quiero")."""
        model = self.model
        out = Text()
        for i, kind in enumerate(kinds):
            if i:
                out.append(" / ")
            start = len(out)
            key = key_for(model, kind) if model is not None else None
            if key:
                out.append(f"{key} ", style="bold reverse")
            action = next((a for a in model.legal if action_name(a) == kind), None) if model is not None else None
            out.append_text(self._action_words(kind, action))
            if action is not None:
                out.stylize(tapped(f"choose({kind!r})"), start, len(out))
        return out

    def _action_words(self, kind: str, action: common_pb2.Action | None) -> Text:
        model = self.model
        if model is None or action is None:
            return Text(kind.replace("_", " ").capitalize())
        return label(model, action)

    def _announce_prompt(self, model: TableModel, t: truco_pb2.TrucoView) -> Text:
        a = t.argentino
        out = Text("Envido: ")
        best = next((s for s in t.seats if a.HasField("best_envido") and s.seat == a.best_envido), None)
        if a.announcing == model.seat:
            out.append(_("say yours") + " — ")
            out.append_text(self._choices([k for k in ("announce", "son_buenas") if self._legal(k)]))
            style = PROMPT
        else:
            out.append_text(self._short(model, a.announcing))
            out.append(" " + _("says a number or son buenas"))
            style = WAIT
        if best is not None and best.HasField("envido"):
            out.append_text(line(" · " + _("best so far") + " ", self._short(model, best.seat), f" {best.envido}"))
        if t.HasField("pending") and t.pending.bet == T.TRUCO_BET_TRUCO:
            ours = my_team(model)
            team = t.pending.answering_team
            if ours is None:
                then = _("then {call} awaits Team {n}'s answer")
            else:
                then = _("then {call} awaits our answer") if team == ours else _("then {call} awaits their answer")
            out.append(" · " + then.format(call=call_word(model, t.pending.call), n=team + 1))
        return _boxed(out, style)

    def _deal_prompt(self, model: TableModel, p: truco_pb2.PaulistaPart) -> Text:
        left = " (" + ngettext("{n} reject left", "{n} rejects left", p.rejects_left).format(n=p.rejects_left) + ")"
        if p.mao == model.seat:
            kinds = [k for k in ("keep", "pass_cards", "reject") if self._legal(k)]
            out = line(_("You are the mão") + ": ", self._choices(kinds), left if "reject" in kinds else "")
            return _boxed(out, PROMPT)
        if not p.rejects_left:
            template = _("{name} (the mão) keeps the cards")
        elif p.may_pass:
            template = _("{name} (the mão) keeps the cards, passes them or rejects them")
        else:
            template = _("{name} (the mão) keeps the cards or rejects them")
        out = line(fmt(template, name=self._short(model, p.mao)), left if p.rejects_left else "")
        return _boxed(out, WAIT)

    def _onze_prompt(self, model: TableModel, p: truco_pb2.PaulistaPart) -> Text:
        if my_team(model) == p.onze_team and (self._legal("accept") or self._legal("run")):
            out = Text("Mão de onze: " + _("we are on 11 and see both our hands") + " — ")
            out.append_text(self._choices([k for k in ("accept", "run") if self._legal(k)]))
            out.append(" (" + _("play it, or run from it") + ")")
            return _boxed(out, PROMPT)
        out = line("Mão de onze: ", team_does(model, p.onze_team, _("we are on 11 and decide whether to play"),
                                              _("they are on 11 and decide whether to play"),
                                              _("{team} is on 11 and decides whether to play")))
        return _boxed(out, WAIT)

    # -- the table ----------------------------------------------------------------------------
    def _table(self, model: TableModel, view: table_pb2.View, compact: bool) -> Group:
        t = view.truco
        played = {p.seat: p for p in t.trick}
        panels = {s.seat: self._panel(model, view, s, played.get(s.seat), compact) for s in t.seats}
        return self.around(panels, self._centre(view, compact), rightwards=True)

    def _panel(self, model: TableModel, view: table_pb2.View, s: truco_pb2.TrucoSeat,
               play: truco_pb2.TrucoPlay | None, compact: bool) -> Text:
        """A seat: who (▶ when the table waits on them), their cards, and the card they played."""
        t = view.truco
        out = Text("▶ " if s.seat in view.to_act else "  ", style="bold yellow")
        tags = self._tags(model, view, s, compact)
        # A seat's column (a third of the board) after the "▶ " before the name: the name is cut only where it
        # does not fit there by itself; its tags follow it on its line where they fit, else on the next.
        room = max(4, self.content_size.width // 3 - 2)
        name = self._short(model, s.seat, room)
        out.append_text(name)
        if cell_len(name.plain) + sum(cell_len(tag) + 1 for tag, _ in tags) > room:
            out.append("\n ")
        for tag, style in tags:
            out.append(f" {tag}", style=style)
        lines: list[Text] = []
        held = Text()
        if s.cards and s.seat != model.seat:  # a partner's hand, shown in a mão de onze (a replay shows all)
            held = cards_text(s.cards)
            if not compact and model.seat is not None:
                held.append(" " + _("shown"), style="italic")
        elif s.seat != model.seat and s.card_count:
            held = Text("▒" * s.card_count, style="blue") if compact else _backs(s.card_count)
        if play is not None and compact:
            held.append("  " if held else "")
            held.append_text(_played(play, compact))
        elif play is not None:
            lines.append(held)
            held = _played(play, compact)
        lines.append(held)
        if s.seat == model.seat:
            lines = [x for x in lines if x]
        if s.HasField("envido") and not compact:
            lines.append(Text(f"envido {s.envido}", style="bold"))  # the game's word
        if t.HasField("argentino") and not compact:
            lines += [line(_("shows") + " ", cards_text(x.cards)) for x in t.argentino.shown if x.seat == s.seat]
        for one in lines:
            out.append("\n  ")
            out.append_text(one)
        return out

    def _tags(self, model: TableModel, view: table_pb2.View, s: truco_pb2.TrucoSeat,
              compact: bool) -> list[tuple[str, str]]:
        t = view.truco
        tags: list[tuple[str, str]] = []
        mine = my_team(model)
        if s.seat == model.seat:
            tags.append((_("you"), "bold green"))
        elif mine is not None and s.team == mine:
            tags.append((_("us") if compact else _("partner"), "green"))
        elif mine is None and not compact:
            tags.append((_("team {n}").format(n=s.team + 1), TEAM_STYLE[s.team % 2]))
        if t.HasField("paulista") and s.seat == t.paulista.mao:
            tags.append(("mão", "cyan"))
        if t.HasField("argentino") and s.seat == t.argentino.mano and not view.hand_over:
            tags.append(("mano", "cyan"))
        if s.seat == view.dealer and not compact:
            tags.append((_("deals"), "cyan"))
        if s.gone:
            tags.append(("mazo", "italic red"))
        elif not s.playing and not view.hand_over:
            tags.append((_("out") if compact else _("sits out"), "dim italic"))
        summary = next((x for x in view.seats if x.seat == s.seat), None)
        if summary is not None and summary.bot and (summary.away or not compact):  # who plays for someone away
            tags.append((bot_tag(summary, _("away: bot")), "dim"))
        return tags

    def _centre(self, view: table_pb2.View, compact: bool) -> Text:
        t = view.truco
        done = len(t.tricks)
        out = Text(justify="center")
        if not compact:
            out.append("\n")
        if view.hand_over:
            out.append(_("hand over"), style="bold")
        else:
            out.append(_("trick {n}").format(n=done + 1), style="bold")
            out.append("\n" + _("stake {n}").format(n=t.stake), style="dim")
        return out

    def _hand(self, model: TableModel, view: table_pb2.View) -> Text | None:
        if model.seat is None:
            return None
        t = view.truco
        me = next((s for s in t.seats if s.seat == model.seat), None)
        blind = self._legal("play_blind")
        if t.HasField("paulista") and t.paulista.ferro and me is not None:
            out = Text(_("Unseen cards") + ":", style="bold")
            for n in range(1, me.card_count + 1):
                click = Style.from_meta({"@click": f"slot({n})"}) if blind else Style()
                out.append("  ")
                out.append(f"{n}", style=Style.parse("bold reverse" if blind else "dim") + click)
                out.append(" ", style=click)
                back = BACK.copy()
                back.stylize(click)
                out.append_text(back)
            if blind:
                out.append("  ← " + _("turn one up"), style="bold yellow")
            return out
        if not any(c is not None for c in self.slots):
            return None
        down = self.face_down
        out = Text(_("Face down") + ":" if down else _("Your cards") + ":", style="bold red" if down else "bold")
        for n, code in enumerate(self.slots, start=1):
            if code is None:
                continue
            playable = self._card_action(n) is not None
            click = Style.from_meta({"@click": f"slot({n})"}) if playable else Style()
            out.append("  ")
            out.append(f"{n}", style=Style.parse("bold reverse" if playable else "dim") + click)
            out.append(" ", style=click)
            shown = card_text(code)
            shown.stylize(click)
            out.append_text(shown)
        if self._legal("play_down"):
            out.append("  · ")
            start = len(out)
            if self.touch:  # the words are what to tap: no key
                out.append(_("face up") if down else _("face down"), style="bold reverse")
            else:
                out.append("d", style="bold reverse")
                out.append(" " + _("face up") if down else " " + _("face down"))
            out.stylize(tapped("face_down"), start, len(out))
        elif any(self._card_action(n) is not None for n in range(1, len(self.slots) + 1)):
            out.append("  ← " + _("your card"), style="bold yellow")
        return out

    # -- the tricks ---------------------------------------------------------------------------
    def _tricks_line(self, model: TableModel, t: truco_pb2.TrucoView) -> Text | None:
        if not t.tricks:
            return None
        out = Text(_("Tricks"), style="bold")
        for n, trick in enumerate(t.tricks, start=1):
            out.append(f"  {n} ")
            if not trick.HasField("winner"):
                out.append(_("tied"), style="dim")
                continue
            out.append_text(team_label(model, trick.team))
            best = next((p for p in trick.plays if p.seat == trick.winner), None)
            if best is not None:
                out.append(" ")
                out.append_text(_played(best, True))
        return out

    def _tricks_table(self, model: TableModel, t: truco_pb2.TrucoView) -> Table | None:
        if not t.tricks:
            return None
        seats = [s.seat for s in t.seats if any(p.seat == s.seat for tr in t.tricks for p in tr.plays)]
        grid = Table(box=None, padding=(0, 1), show_header=True, header_style="dim", pad_edge=False)
        grid.add_column(_("Trick"), style="dim")
        for seat in seats:  # a seat that changed hands this round: both, in turn ("bia→dan")
            who = list(dict.fromkeys(model.played_by.get(seat, ())))
            grid.add_column(self._short(model, seat, 8 * max(1, len(who)), "→".join(who) or None), no_wrap=True)
        grid.add_column(_("won by"))
        nth = dict.fromkeys(seats, 0)
        for n, trick in enumerate(t.tricks, start=1):
            plays = {p.seat: p for p in trick.plays}
            row: list[RenderableType] = [Text(str(n))]
            for seat in seats:
                p = plays.get(seat)
                if p is None:
                    row.append(Text("·", style="dim"))
                    continue
                shown = _played(p, True)
                if trick.HasField("winner") and seat == trick.winner:
                    shown.stylize("underline")
                row.append(shown)
            if trick.HasField("winner"):
                by = model.played_by.get(trick.winner, ())
                k = nth.get(trick.winner, 0)
                row.append(line(self._short(model, trick.winner, name=by[k] if k < len(by) else None),
                                " (", team_object(model, trick.team), ")"))
            else:
                row.append(Text(_("tied"), style="dim"))
            for p in trick.plays:
                nth[p.seat] = nth.get(p.seat, 0) + 1
            grid.add_row(*row)
        return grid

    # -- signals ------------------------------------------------------------------------------
    def _signals(self, model: TableModel, t: truco_pb2.TrucoView, last: int) -> Text | None:
        if not t.signals:
            return None
        mine = my_team(model)
        out = Text(_("Signals"), style="bold")
        for seen in list(t.signals)[-last:]:
            out.append("  ")
            if seen.seat == model.seat:
                out.append_text(fill(_("{you} {gesture}"), {"you": Text(_("you"), style="bold green"),
                                                            "gesture": Text(gesture(seen.signal))}, "bold green"))
            else:
                out.append_text(self._short(model, seen.seat))
                out.append(f" {gesture(seen.signal, seen=True)}")
                team = next((s.team for s in t.seats if s.seat == seen.seat), None)
                if mine is not None and team != mine:
                    out.append(" (" + _("caught") + ")", style="italic")
            out.append(": ")
            out.append_text(meaning(model.game, seen.signal))
        return out

    # -- the result ---------------------------------------------------------------------------
    def _result_line(self, model: TableModel, t: truco_pb2.TrucoView) -> Text:
        """The hand's result in two lines, for a small terminal: who took it and why, and the points."""
        out = self._result_title(model, t)
        out.append("\n")
        out.append_text(self._points(model, t.result))
        return out

    def _points(self, model: TableModel, r: truco_pb2.TrucoResult) -> Text:
        """Each team's points this hand, before → after: "Us +3 (4 → 7) · Them +0 (2)"."""
        out = Text()
        for i, team in enumerate(self._teams(model, len(r.points))):
            gained = r.points[team]
            if i:
                out.append(" · ")
            out.append_text(team_label(model, team))
            after = r.scores[team] if team < len(r.scores) else None
            out.append(f" +{gained}", style="bold" if gained else "dim")
            if after is not None:
                out.append(f" ({after - gained} → {after})" if gained else f" ({after})", style="dim")
        return out

    def result_summary(self, model: TableModel) -> RenderableType | None:
        """The finished hand: its tricks and who won each, the envido and flor, each team's
        points before and after, and why. None until a hand is over."""
        view = model.view
        if view is None or not view.HasField("truco") or not view.truco.HasField("result"):
            return None
        t = view.truco
        r = t.result
        parts: list[RenderableType] = [self._result_title(model, t, view.hand)]
        tricks = self._tricks_table(model, t)
        if tricks is not None:
            if t.HasField("argentino") and t.argentino.pica_pica:
                parts.append(Text(_("The last duel's tricks") + ":", style="dim"))
            parts.append(tricks)
        if t.rules == truco_pb2.TRUCO_RULES_ARGENTINO:
            parts += self._envido_result(model, t)
        if len(r.rounds) > 1:
            duel = t.HasField("argentino") and t.argentino.pica_pica
            for rd in r.rounds:
                parts.append(self._round_line(model, rd, duel))
        points = Text(_("Points") + "  ", style="bold")
        points.append_text(self._points(model, r))
        parts.append(points)
        if view.match_over:
            parts.append(self._match_over(model, t))
        return Group(*parts)

    def _result_title(self, model: TableModel, t: truco_pb2.TrucoView, hand: int = 0) -> Text:
        r = t.result
        out = Text(_("Hand {n}").format(n=hand) + ": " if hand else _("Hand over") + ": ", style="bold")
        if len(r.rounds) != 1:
            if r.HasField("team"):
                out.append_text(team_does(model, r.team, _("we gain more this hand."), _("they gain more this hand."),
                                          _("{team} gains more this hand.")))
            else:
                out.append(_("both teams gain alike."))
            return out
        rd = r.rounds[0]
        if not rd.HasField("team"):
            out.append(_("the mão de ferro is tied: nobody scores, and another iron hand follows."))
            return out
        parts = {"amount": amount(model, rd.stake), "why": self._why_text(model, t, rd)}
        if t.rules == truco_pb2.TRUCO_RULES_ARGENTINO:  # a hand of rounds (pica-pica's duels): each a round
            out.append_text(team_does(model, rd.team, _("We take the round for {amount} — {why}."),
                                      _("They take the round for {amount} — {why}."),
                                      _("{team} takes the round for {amount} — {why}."), **parts))
        else:
            out.append_text(team_does(model, rd.team, _("We take the hand for {amount} — {why}."),
                                      _("They take the hand for {amount} — {why}."),
                                      _("{team} takes the hand for {amount} — {why}."), **parts))
        return out

    def _why_text(self, model: TableModel, t: truco_pb2.TrucoView, rd: truco_pb2.TrucoRoundResult) -> str:
        if rd.reason == T.TRUCO_REASON_REFUSED and 0 <= t.level < len(t.ladder):
            refused = plain_word(model, t.ladder[t.level].call)
            return _("{no} to {call}").format(no=NO.get(model.game, "No"), call=refused)
        if rd.reason == T.TRUCO_REASON_TRICKS:
            won = [str(n) for n, tr in enumerate(t.tricks, 1) if tr.HasField("team") and tr.team == rd.team]
            tied = [str(n) for n, tr in enumerate(t.tricks, 1) if not tr.HasField("winner")]
            both = _(" and ")
            said = (ngettext("won trick {list}", "won tricks {list}", len(won)).format(list=both.join(won)) if won
                    else _("on tricks"))
            if tied:
                said += ", " + ngettext("trick {list} tied", "tricks {list} tied", len(tied)).format(
                    list=both.join(tied))
            return said
        return why(rd.reason)

    def _round_line(self, model: TableModel, rd: truco_pb2.TrucoRoundResult, duel: bool) -> Text:
        out = Text((_("Duel {n}") if duel else _("Round {n}")).format(n=rd.round) + " ", style="bold")
        out.append_text(Text(" v ").join(self._short(model, s) for s in rd.seats))
        out.append(": ")
        if rd.HasField("team"):
            out.append_text(team_does(model, rd.team, _("we take {amount} ({why})"), _("they take {amount} ({why})"),
                                      _("{team} takes {amount} ({why})"), amount=amount(model, rd.stake),
                                      why=why(rd.reason)))
            points = list(rd.points)
            if len(points) == 2 and (points[rd.team] != rd.stake or points[1 - rd.team]):
                out.append(" · " + _("with envido and flor") + ": ")
                out.append_text(points_text(model, points))
        return out

    def _envido_result(self, model: TableModel, t: truco_pb2.TrucoView) -> list[RenderableType]:
        a = t.argentino
        out: list[RenderableType] = []
        # The labels in a column as wide as the longest, a space or more after each ("Mostradas" is
        # longer than "Envido": the name ran into it).
        column = max(len("Envido"), len(_("Shown"))) + 2
        said = [s for s in t.seats if s.HasField("envido")]
        if a.envido_calls or said:
            env = Text("Envido".ljust(column), style="bold")
            env.append(" + ".join(plain_word(model, w) for w in a.envido_calls) or "—")
            if said:
                env.append(" · " + _("said") + ": ")
                env.append_text(Text(", ").join(line(self._short(model, s.seat), f" {s.envido}") for s in said))
            elif a.envido_calls:
                env.append(" · " + _("not played"), style="dim")
            out.append(env)
        if a.flor_calls or a.flor_sung:
            flor = Text("Flor".ljust(column), style="bold")
            flor.append_text(Text(", ").join(self._short(model, s) for s in a.flor_sung) or Text("—"))
            if a.flor_calls:
                flor.append(" · " + " + ".join(plain_word(model, w) for w in a.flor_calls))
            out.append(flor)
        for shown in a.shown:
            why_shown = "flor" if shown.reason == T.TRUCO_SHOW_REASON_FLOR else "envido"
            out.append(line(Text(_("Shown").ljust(column), style="bold"), self._short(model, shown.seat), " ",
                            cards_text(shown.cards), " — ", _("the {why} that won").format(why=why_shown)))
        return out

    def _match_over(self, model: TableModel, t: truco_pb2.TrucoView) -> Text:
        scores = list(t.scores)
        out = Text(_("The match is over") + ": ", style="bold magenta")
        if len(scores) == 2 and scores[0] != scores[1]:
            out.append_text(team_does(model, 0 if scores[0] > scores[1] else 1, _("we win {score}."),
                                      _("they win {score}."), _("{team} wins {score}."),
                                      score=f"{max(scores)}–{min(scores)}"))
        return out

    # -- names --------------------------------------------------------------------------------
    @staticmethod
    def _teams(model: TableModel, n: int) -> list[int]:
        """The teams in the order a reader wants them: their own first."""
        mine = my_team(model)
        teams = list(range(n))
        return sorted(teams, key=lambda t: t != mine) if mine is not None else teams

    def _short(self, model: TableModel, seat: int, width: int = 12, name: str | None = None) -> Text:
        """A seat's name (or ``name``, who held it then) in its team's colour, cut to ``width``
        (plain text, never markup)."""
        name = name or model.name(seat)
        if len(name) > width:
            name = name[: width - 1] + "…"
        team = next((s.team for s in model.view.truco.seats if s.seat == seat), seat % 2) \
            if model.view is not None else seat % 2
        return Text(name, style=TEAM_STYLE[team % 2])


def _backs(n: int) -> Text:
    return Text(" ").join(BACK.copy() for _ in range(n))


def _played(play: truco_pb2.TrucoPlay, compact: bool) -> Text:
    """A card in a trick: face up, a back when face down, struck out when its player went to the deck."""
    if not play.HasField("card"):
        out = BACK.copy()
        if not compact:
            out.append(" " + _("face down"), style="dim")
        return out
    if play.face_down:  # its own player sees it, and a replay turns it up
        out = card_text(play.card)
        out.stylize("dim on grey23")
        out.append(" " + (_("down") if compact else _("face down")), style="dim italic")
        return out
    out = card_text(play.card)
    out.stylize("on grey23")
    if play.void:
        out.stylize("strike dim")
        out.append(" " + ("mazo" if compact else _("void: went to the deck")), style="italic red")
    return out


def _boxed(text: Text, style: str) -> Text:
    """A prompt that stands out from the board."""
    out = Text(" ")
    out.append_text(text)
    out.append(" ")
    out.stylize(style)
    return out
