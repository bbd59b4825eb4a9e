"""Both trucos: seats round the table with partners marked, the tricks, the stake ladder,
the envido, any call awaiting an answer, signals caught, and the score.

The board only draws the view the server sent; what may be done is the action bar's.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtui.client.boards.base import Board
from cardtui.client.cards import card, hand
from cardtui.client.labels import GESTURES, SEEN, label, meaning
from cardtui.v1 import common_pb2

TEAM_STYLE = ("bold dodger_blue1", "bold dark_orange")
PROMPT = "bold black on yellow"
WAIT = "bold yellow"

class TrucoBoard(Board):
    """What both trucos share; each game adds its score, ladder and prompts."""

    GAME = ""
    TITLE = "Truco"

    # -- the whole board ---------------------------------------------------------------
    def draw(self) -> RenderableType:
        v = self.view
        parts: list[RenderableType] = [self.title_line(v), self.score_line(v), *self.ladder(v)]
        prompt = self.prompt(v)
        if prompt is not None:
            parts.append(prompt)
        parts += [Text(""), self.table(v)]
        tricks = self.tricks(v)
        if tricks is not None:
            parts += [Text(""), tricks]
        signals = self.signals(v)
        if signals is not None:
            parts.append(signals)
        if v.get("hand_over") and v.get("result"):
            parts += [Text(""), self.result(v)]
        if v.get("match_over"):
            parts.append(Text("The match is over.", style="bold magenta"))
        return Group(*parts)

    # -- who is who ----------------------------------------------------------------------
    def my_team(self) -> int | None:
        return None if self.seat is None else self.seat & 1

    def team_name(self, team: int) -> Text:
        """"Us" / "Them" to a seated player, "Team 1" / "Team 2" to a spectator."""
        mine = self.my_team()
        out = Text(f"Team {team + 1}", style=TEAM_STYLE[team])
        if mine is not None:
            out.append(" (us)" if team == mine else " (them)", style=TEAM_STYLE[team])
        return out

    def who(self, seat: int, v: dict[str, Any]) -> str:
        if seat < len(self.seats) and self.seats[seat][0]:
            return self.seats[seat][0]
        seats = v.get("seats", [])
        return str(seats[seat]["name"]) if seat < len(seats) else f"seat {seat + 1}"

    def partner(self, seat: int) -> bool:
        return self.seat is not None and seat != self.seat and seat & 1 == self.seat & 1

    # -- the table -----------------------------------------------------------------------
    def table(self, v: dict[str, Any]) -> Table:
        # Play goes counter-clockwise: the next player sits on the viewer's right.
        played = {int(s): c for s, c in v.get("trick", [])}
        panels = {int(s["seat"]): self.seat_panel(v, s, played.get(int(s["seat"]))) for s in v["seats"]}
        return self.around(panels, self.centre(v), rightwards=True)

    def seat_panel(self, v: dict[str, Any], s: dict[str, Any], played: str | None) -> Text:
        i = int(s["seat"])
        team = int(s["team"])
        to_act = v.get("to_act") or []
        out = Text("▶ " if i in to_act else "  ", style="bold yellow")
        out.append_text(self.seat_name(i))
        out.append("\n  ")
        out.append("partner" if self.partner(i) else f"Team {team + 1}", style=TEAM_STYLE[team])
        for word in self.roles(v, i):
            out.append(f" · {word}", style="cyan")
        note = self.seat_note(v, s)
        if note is not None:
            out.append("\n  ")
            out.append_text(note)
        out.append("\n  ")
        cards = s.get("cards") or []
        if cards:
            out.append_text(hand(cards))
            if i != self.seat and any(c is not None for c in cards):
                out.append(" shown", style="italic")
        elif not self.playing(v, i):
            out.append("not in this round", style="dim italic")
        elif v.get("phase") == "deal":
            out.append("not dealt yet", style="dim")
        elif not v.get("hand_over"):
            out.append("no cards left", style="dim")
        out.append("\n  ")
        if played is not None:
            out.append("plays ", style="dim")
            out.append_text(card(None if played == "down" else played))
            if played == "down":
                out.append(" face down", style="dim")
        return out

    def roles(self, v: dict[str, Any], seat: int) -> list[str]:
        out = []
        if seat == v.get("dealer"):
            out.append("dealer")
        return out

    def seat_note(self, v: dict[str, Any], s: dict[str, Any]) -> Text | None:
        return None

    def playing(self, v: dict[str, Any], seat: int) -> bool:
        return True

    def centre(self, v: dict[str, Any]) -> Text:
        done = len(v.get("tricks", []))
        out = Text("\n")
        if v.get("hand_over"):
            out.append("hand over", style="bold")
        else:
            out.append(f"trick {min(done + 1, 3)} of 3", style="bold")
        out.append(f"\nstake {v.get('stake', 1)}", style="dim")
        return out

    # -- the tricks so far -----------------------------------------------------------------
    def tricks(self, v: dict[str, Any]) -> Table | None:
        done = v.get("tricks") or []
        if not done:
            return None
        seats = [int(s["seat"]) for s in v["seats"] if self.playing(v, int(s["seat"])) or self._in_tricks(done, s)]
        grid = Table(box=None, padding=(0, 1), show_header=True, header_style="dim")
        grid.add_column("Trick", style="dim")
        for i in seats:
            grid.add_column(Text(self.who(i, v)[:10]), no_wrap=True)
        grid.add_column("Won by")
        for k, t in enumerate(done, start=1):
            plays = {int(s): c for s, c in t["cards"]}
            winner = t.get("winner")
            row: list[RenderableType] = [Text(str(k))]
            for i in seats:
                c = plays.get(i)
                if c is None:
                    row.append(Text("·", style="dim"))
                    continue
                shown = card(None if c == "down" else c)
                if i == winner:
                    shown.stylize("underline")
                row.append(shown)
            if winner is None:
                row.append(Text("tied", style="dim"))
            else:
                row.append(self.team_name(int(winner) & 1))
            grid.add_row(*row)
        return grid

    @staticmethod
    def _in_tricks(done: list[dict[str, Any]], s: dict[str, Any]) -> bool:
        return any(int(p) == int(s["seat"]) for t in done for p, _ in t["cards"])

    # -- signals -------------------------------------------------------------------------
    def signals(self, v: dict[str, Any]) -> Text | None:
        seen = v.get("signals") or []
        if not seen:
            return None
        out = Text("\nSignals: ", style="bold")
        for k, (seat, name) in enumerate(seen[-4:]):
            if k:
                out.append(" · ")
            seat = int(seat)
            if seat == self.seat:
                out.append("you: ", style="bold green")
                out.append(GESTURES.get(name, name))
            else:
                out.append(self.who(seat, v), style=TEAM_STYLE[seat & 1])
                if self.seat is not None and seat & 1 != self.seat & 1:
                    out.append(" (caught)", style="italic")
                out.append(f" {SEEN.get(name, name)}")
            what = meaning(self.GAME, name)
            if what:
                out.append(f" ({what})", style="dim")
        return out

    # -- per game ------------------------------------------------------------------------
    def title_line(self, v: dict[str, Any]) -> Text:
        return Text(f"{self.TITLE} · hand {v.get('hand', 0)}", style="bold")

    def score_line(self, v: dict[str, Any]) -> Text:
        return Text("")

    def ladder(self, v: dict[str, Any]) -> list[Text]:
        return []

    def prompt(self, v: dict[str, Any]) -> Text | None:
        return None

    def result(self, v: dict[str, Any]) -> Text:
        return Text("The hand is over.", style="bold")

    def call_word(self, kind: str) -> str:
        return label(self.GAME, common_pb2.Action(type=kind))


def rungs(steps: list[tuple[str, int]], stake: int, proposed: int | None) -> Text:
    """A stake ladder: the stake standing in reverse video, a proposed raise in yellow."""
    out = Text()
    for k, (word, value) in enumerate(steps):
        if k:
            out.append(" › ", style="dim")
        text = f"{word} {value}".strip()
        if value == stake:
            out.append(f" {text} ", style="bold reverse")
        elif proposed is not None and value == proposed:
            out.append(text, style="bold yellow underline")
        elif value < stake:
            out.append(text, style="dim strike")
        else:
            out.append(text, style="dim")
    return out


class PaulistaBoard(TrucoBoard):
    """Truco paulista: four seats, tentos to 12, mão de onze and mão de ferro."""

    GAME = "truco_paulista"
    TITLE = "Truco paulista"
    STEPS = [("", 1), ("Truco!", 3), ("Seis!", 6), ("Nove!", 9), ("Doze!", 12)]
    CALLS = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}

    def title_line(self, v: dict[str, Any]) -> Text:
        out = super().title_line(v)
        if v.get("ferro"):
            out.append(" · MÃO DE FERRO", style="bold red")
        elif v.get("onze") is not None:
            out.append(" · MÃO DE ONZE", style="bold red")
        return out

    def score_line(self, v: dict[str, Any]) -> Text:
        out = Text()
        for team, score in enumerate(v.get("scores", [0, 0])):
            if team:
                out.append("   ")
            out.append_text(self.team_name(team))
            out.append(f" {score} tento{'' if score == 1 else 's'}", style=TEAM_STYLE[team])
        out.append("   · to 12", style="dim")
        return out

    def ladder(self, v: dict[str, Any]) -> list[Text]:
        pending = v.get("pending")
        out = Text("Stake  ", style="bold")
        out.append_text(rungs(self.STEPS, int(v.get("stake", 1)), int(pending[1]) if pending else None))
        raiser = v.get("raise_team")
        if raiser is not None and not pending and not v.get("hand_over"):
            out.append("  · next raise: ", style="dim")
            out.append_text(self.team_name(int(raiser)))
        lines = [out]
        if v.get("rejected"):
            rej = Text("Rejected  ", style="dim")
            rej.append_text(hand(v["rejected"]))
            lines.append(rej)
        return lines

    def roles(self, v: dict[str, Any], seat: int) -> list[str]:
        out = super().roles(v, seat)
        if seat == v.get("mao"):
            out.append("mão")
        return out

    def prompt(self, v: dict[str, Any]) -> Text | None:
        if v.get("hand_over"):
            return None
        mine = self.my_team()
        pending = v.get("pending")
        if pending:
            team, value = int(pending[0]), int(pending[1])
            out = Text()
            out.append_text(self.team_name(team))
            out.append(f" calls {self.call_word(self.CALLS.get(value, 'truco'))} for {value} — ")
            if mine is None:
                out.append(f"team {2 - team} to answer", style="bold")
                return _boxed(out, WAIT)
            if team == mine:
                out.append("waiting for their answer")
                return _boxed(out, WAIT)
            out.append("your answer: Aceito, Corro" + (" or a raise" if value < 12 else ""))
            return _boxed(out, PROMPT)
        phase = v.get("phase")
        if phase == "deal":
            out = Text(f"{self.who(int(v['mao']), v)} (the mão) keeps the cards, passes them to the partner, "
                       f"or rejects them ({v.get('rejects', 0)} of 3 rejected).")
            return _boxed(out, PROMPT if v.get("mao") == self.seat else WAIT)
        if phase == "onze":
            team = int(v["onze"])
            out = Text("Mão de onze: ")
            out.append_text(self.team_name(team))
            out.append(" is on 11 and sees both its hands — Aceito plays for 3, Corro gives the others 1. "
                       "No truco this hand.")
            return _boxed(out, PROMPT if team == mine else WAIT)
        if v.get("ferro"):
            return _boxed(Text("Mão de ferro: every card is face down, unseen by all — turn them up blind."), WAIT)
        return None

    def result(self, v: dict[str, Any]) -> Text:
        r = v["result"]
        team = int(r.get("winner_team", 0))
        out = Text()
        out.append_text(self.team_name(team))
        out.append(f" wins the hand for {r.get('stake', 1)}.", style="bold")
        return out


class ArgentinoBoard(TrucoBoard):
    """Truco argentino: 2, 4 or 6 seats, malas and buenas, envido, the deck, pica-pica."""

    GAME = "truco_argentino"
    TITLE = "Truco argentino"
    STEPS = [("", 1), ("Truco", 2), ("Retruco", 3), ("Vale cuatro", 4)]
    LEVEL = {"truco": 2, "retruco": 3, "vale cuatro": 4}
    ENVIDO = {"envido": "Envido", "real_envido": "Real envido", "falta_envido": "Falta envido"}

    def title_line(self, v: dict[str, Any]) -> Text:
        out = super().title_line(v)
        if v.get("pica_pica"):
            players = v.get("players") or []
            out.append(" · pica-pica 1v1: ", style="bold red")
            out.append(" v ".join(self.who(int(p), v) for p in players))
        return out

    def score_line(self, v: dict[str, Any]) -> Text:
        out = Text()
        texts = v.get("score_text") or [str(s) for s in v.get("scores", [0, 0])]
        for team, text in enumerate(texts):
            if team:
                out.append("   ")
            out.append_text(self.team_name(team))
            out.append(f" {text}", style=TEAM_STYLE[team])
        out.append(f"   · to {v.get('target', 30)}", style="dim")
        points = v.get("points") or [0, 0]
        if any(points) and not v.get("hand_over"):
            out.append(f" · this hand +{points[0]}/+{points[1]}", style="dim")
        return out

    def ladder(self, v: dict[str, Any]) -> list[Text]:
        pending = v.get("pending")
        proposed = self.LEVEL.get(pending[2]) if pending and pending[0] == "truco" else None
        out = Text("Truco   ", style="bold")
        out.append_text(rungs(self.STEPS, int(v.get("stake", 1)), proposed))
        raiser = v.get("raise_team")
        if raiser is not None and not pending and not v.get("hand_over"):
            out.append("  · next raise: ", style="dim")
            out.append_text(self.team_name(int(raiser)))
        env = Text("Envido  ", style="bold")
        calls = v.get("envido_calls") or []
        if calls:
            env.append(" + ".join(self.ENVIDO.get(c, c) for c in calls), style="bold")
            if pending and pending[0] == "envido":
                env.append(" — awaiting an answer", style="yellow")
            elif v.get("announcing") is not None:
                env.append(" — quiero: ")
                env.append(self.who(int(v["announcing"]), v))
                env.append(" to announce")
            elif v.get("envido_done"):
                env.append(" — settled", style="dim")
        else:
            env.append("not called", style="dim")
            if v.get("may_envido"):
                env.append(" · you may still call it", style="green")
        best = v.get("best_envido")
        if best is not None:
            env.append(" · best so far ")
            env.append(self.who(int(best), v))
            spoken = v["seats"][int(best)].get("envido")
            if spoken is not None:
                env.append(f" {spoken}", style="bold")
        mine = v.get("your_envido")
        if mine is not None and not v.get("hand_over"):
            env.append(f" · your envido {mine}", style="green")
        return [out, env]

    def roles(self, v: dict[str, Any], seat: int) -> list[str]:
        out = super().roles(v, seat)
        if seat == v.get("mano") and not v.get("hand_over"):
            out.append("mano")
        return out

    def playing(self, v: dict[str, Any], seat: int) -> bool:
        players = v.get("players")
        return not players or seat in players

    def seat_note(self, v: dict[str, Any], s: dict[str, Any]) -> Text | None:
        out = Text()
        if not self.playing(v, int(s["seat"])) and not v.get("hand_over"):
            out.append("sits out this 1v1", style="dim italic")
        if s.get("gone"):
            out.append("went to the deck", style="italic red")
        if s.get("envido") is not None:
            if out:
                out.append(" · ")
            out.append(f"envido {s['envido']}", style="bold")
            if v.get("best_envido") == s["seat"]:
                out.append(" ★", style="bold yellow")
        shown = {int(k): c for k, c in v.get("shown", [])}
        if int(s["seat"]) in shown:
            if out:
                out.append(" · ")
            out.append("shows ")
            out.append_text(hand(shown[int(s["seat"])]))
        return out or None

    def prompt(self, v: dict[str, Any]) -> Text | None:
        if v.get("hand_over"):
            return None
        mine = self.my_team()
        pending = v.get("pending")
        if pending:
            kind, team, call = str(pending[0]), int(pending[1]), str(pending[2])
            word = self.ENVIDO.get(call) or call.capitalize()
            out = Text()
            out.append_text(self.team_name(team))
            out.append(f" calls {word}! — ")
            if mine is None:
                out.append(f"team {2 - team} to answer", style="bold")
                return _boxed(out, WAIT)
            if team == mine:
                out.append("waiting for their answer")
                return _boxed(out, WAIT)
            top = call in ("vale cuatro", "falta_envido")
            out.append("your answer: Quiero, No quiero" + ("" if top else " or a raise"))
            if kind == "truco" and v.get("may_envido"):
                out.append(" — or Envido first")
            return _boxed(out, PROMPT)
        ann = v.get("announcing")
        if ann is not None:
            if ann == self.seat:
                return _boxed(Text("Envido quiero: announce your envido (Tengo) or say Son buenas."), PROMPT)
            out = Text("Envido quiero: ")
            out.append(self.who(int(ann), v))
            out.append(" announces.")
            return _boxed(out, WAIT)
        return None

    def result(self, v: dict[str, Any]) -> Text:
        r = v["result"]
        pts = r.get("points", {})
        out = Text("Hand over: ", style="bold")
        for team in (0, 1):
            if team:
                out.append(", ")
            out.append_text(self.team_name(team))
            out.append(f" +{pts.get(str(team), 0)}")
        out.append(".")
        return out


def _boxed(text: Text, style: str) -> Text:
    """A prompt line that stands out from the board."""
    out = Text(" ")
    out.append_text(text)
    out.append(" ")
    out.stylize(style)
    return out
