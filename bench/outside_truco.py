"""Truco paulista against bots written elsewhere: MiniTruco's two strategies, asked over a pipe, at our table.

MiniTruco (github.com/chesterbr/minitruco-android, BSD-3-Clause) has been played by many people for
years; its bots are two strategies, ``EstrategiaGasparotto`` and ``EstrategiaSellani``, each a
function of a ``SituacaoJogo`` (what a seat sees: its cards, the cards on the table, the tricks'
results, the stake, the score). It plays paulista with fixed manilhas (its *manilha velha* mode:
4C, 7H, AS, 7D, our ranking), so its strategies can sit at our table.

This module is a bridge: our referee, their decisions. Each decision is put to the strategy as MiniTruco's own
seat (``JogadorBot``) puts it, and ``bench.outside_proof`` holds the two to each other: the same deals, played in
MiniTruco's house (``bench.outside_house``) and here, give the same decisions and the same points wherever the
two rule sets agree (``bench/marks.md`` lists where they do not, and whom each difference favours). What a
``JogadorBot`` does that the bridge does too:

- a call is put to both partners: the team accepts when either does, and runs only when both refuse (its
  strategies refuse on purpose to leave a call to the partner); a mão de 11 likewise;
- ``valorProximaAposta`` is the seat's own count, as ``JogadorBot`` keeps it: 3 until a call is accepted, then
  three above the stake for the team that accepted and 0 for the team whose call was; 0 at 11 points; on its
  turn also 0 where our rules allow no call (a strategy that asks for one then would play its first card);
- ``posJogadorQueAbriuRodada`` is the seat that led the trick in play (a raise given as an answer does not
  lead it); ``podeFechada`` follows MiniTruco's rule (from the second trick, and not after one's partner played
  face down in the same trick);
- ``resultadoRodada`` holds, for a trick not yet played this hand, the result the same trick had in an earlier
  hand (MiniTruco's referee does not clear it between hands, and the strategies read it).

The strategies' doubts are seeded from the situation (the driver's ``seed``), so the same situation decides
alike here and in MiniTruco's house.

Nothing of MiniTruco is in this repository. Point ``CARDTUI_MINITRUCO`` at the classes of its ``core`` module as
built from a checkout (a directory of ``.class`` files, or a jar); this module compiles its own small driver
(``bench/outside/MiniTrucoDriver.java``) against them into a temporary directory and runs it with ``java``, one
request a line. Where the variable, ``java`` or ``javac`` is missing, ``missing()`` says why and the bench skips
these players, saying so.

The bridge needs the table itself (a partner's cards, to put a call to it): it plays through ``arena``'s
``watch``, as ``measure`` (``python -m bench.outside_truco gasparotto --deals 100``) and the marks run it. What
they do at our table that MiniTruco does not know: the mão keeps every deal (no pass, no rejection), they give no
signals, play a mão de ferro's cards blind (our rule) and answer a call only yes or no (MiniTruco raises only on
its own turn). Under the default ``truco_decides = trick`` they play as if the hand went on;
``{"truco_decides": "hand"}`` is the game they know.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtui.arena import ArenaResult, arena
from cardtui.engine.cards import Card, Suit
from cardtui.engine.core import Action, GameView, Match
from cardtui.engine.truco.paulista.state import PaulistaState
from cardtui.engine.truco.signals import SIGNAL
from cardtui.engine.truco.views import PaulistaPhase, TrucoView

ENV = "CARDTUI_MINITRUCO"
DRIVER = Path(__file__).parent / "outside" / "MiniTrucoDriver.java"
_SUIT = {Suit.HEARTS: "c", Suit.DIAMONDS: "o", Suit.SPADES: "e", Suit.CLUBS: "p"}
_FACE = {1: "A", 11: "J", 12: "Q", 13: "K"}
CALL_WORDS = ("truco", "seis", "nove", "doze")


def missing() -> str | None:
    """Why the outside bots cannot run here (None when they can)."""
    where = os.environ.get(ENV, "")
    if not where:
        return f"{ENV} is not set (point it at MiniTruco's core classes, a directory or a jar)"
    if not Path(where).exists():
        return f"{ENV} names {where}, which does not exist"
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            return f"there is no {tool} on the PATH"
    return None


def card(c: Card) -> str:
    """A card in MiniTruco's notation: its letter and suit (copas, ouros, espadas, paus)."""
    return f"{_FACE.get(c.rank, str(c.rank))}{_SUIT[c.suit]}"


class Driver:
    """The Java process that asks the strategies, started on first use and ended at exit."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()
        self.errors = 0
        """Requests a strategy failed on (answered as MiniTruco's own player does: the first card, a no)."""

    def start(self) -> subprocess.Popen[str]:
        why = missing()
        if why is not None:
            raise RuntimeError(f"The outside bots cannot run: {why}.")
        core = os.environ[ENV]
        digest = hashlib.sha256(DRIVER.read_bytes() + core.encode()).hexdigest()[:16]
        out = Path(tempfile.gettempdir()) / f"cardtui-minitruco-driver-{digest}"
        if not (out / "MiniTrucoDriver.class").exists():
            out.mkdir(exist_ok=True)
            subprocess.run(["javac", "-nowarn", "-cp", core, "-d", str(out), str(DRIVER)], check=True,
                           capture_output=True, text=True)
        proc = subprocess.Popen(["java", "-Xss8m", "-cp", f"{core}{os.pathsep}{out}", "MiniTrucoDriver"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, bufsize=1)
        atexit.register(proc.kill)
        return proc

    def ask(self, request: str) -> tuple[str, str]:
        """The strategy's answer to ``request``, and the situation it read (the driver's ``canon``)."""
        with self.lock:
            if self.proc is None:
                self.proc = self.start()
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(request + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline().strip()
        if not answer:
            raise RuntimeError("The MiniTruco driver stopped answering.")
        said, _, canon = answer.partition("\t")
        return said, canon


DRIVER_PROCESS = Driver()


@dataclass
class Asked:
    """One decision put to a strategy: what the proof compares with MiniTruco's house."""

    hand: int
    op: str
    pos: int
    situation: str
    answer: str


@dataclass
class Memory:
    """What a MiniTruco seat carries from one hand to the next at one match: each trick's last result (the
    referee's ``resultadoRodada``, never cleared between hands), and the decisions put to the strategies."""

    match: Any = None
    log: Any = None
    """The hand history of the hand in play: when another replaces it, its tricks' results are folded in."""
    slots: list[int] = field(default_factory=lambda: [0, 0, 0])
    asked: list[Asked] = field(default_factory=list)
    hand: int = 0


def _code(team: int | None) -> int:
    """A trick's result as MiniTruco writes it: 1 for its team 1 (our team 0), 2 for the other, 3 for a tie."""
    return 3 if team is None else team + 1


class Bridge:
    """MiniTruco's strategy ``strategy`` (G or S) at our table (see the module): a policy with a ``watch``."""

    def __init__(self, strategy: str, salt: int | None = None) -> None:
        self.strategy = strategy
        self.salt = salt
        """Mixed into every decision's seed (None: a fresh one drawn from the seat's rng at each decision)."""
        self.memory = Memory()
        self.keep = False
        """Keep every decision put to the strategies (``memory.asked``), for the proof."""

    # -- the table ------------------------------------------------------------------------------------
    def watch(self, match: Match, seat: int) -> None:
        state = getattr(match, "state")  # noqa: B009 - the table, to read a partner's cards from
        m = self.memory
        if m.match is not match:
            self.memory = m = Memory(match=match)
        if state.log is not m.log:
            self.fold(m.log)
            m.log = state.log
            m.hand += 1

    def fold(self, log: Any) -> None:
        """The results of a hand now over into the slots its tricks fill (the later ones keep older results)."""
        record = log.history() if log is not None else None
        if record is None:
            return
        for i, trick in enumerate(record["result"]["tricks"][:3]):
            winner = trick["winner"]
            self.memory.slots[i] = _code(None if winner is None else int(winner) & 1)

    def state(self) -> PaulistaState:
        match = self.memory.match
        if match is None:
            raise RuntimeError("MiniTruco's bots at our table need the table itself (to put a call to both "
                               "partners): play them through bench.outside_truco.measure or the marks, which "
                               "show it to them (arena's watch).")
        state = getattr(match, "state")  # noqa: B009
        assert isinstance(state, PaulistaState)
        return state

    # -- what a JogadorBot tells its strategy ----------------------------------------------------------
    def situation(self, st: PaulistaState, seat: int, turn_call: bool | None = None) -> str:
        """The fields of the ``SituacaoJogo`` MiniTruco's seat ``seat + 1`` would be given now (see the driver):
        ``turn_call`` says, on its turn, whether our rules let it call (None: it is answering or deciding)."""
        results = [_code(t) for t in st.results[:3]] + self.memory.slots[len(st.results):3]
        truco = st.truco
        on11 = max(st.scores) >= 11
        team = seat & 1
        if on11:
            nxt = 0
        elif truco.level == 0:
            nxt = 3
        else:
            stake = st.stake
            nxt = stake + 3 if truco.owner == team and stake < 12 else 0
        if turn_call is not None and not turn_call:
            nxt = 0
        caller = truco.caller + 1 if truco.pending >= 0 else 0
        playing = st.phase is PaulistaPhase.PLAY and bool(st.to_play)
        leader = st.trick[0][0] if st.trick else st.to_play[0] if playing else st.mao
        partner = (seat + 2) % 4
        down = bool(st.results) and not any(s == partner and d for s, _, d in st.trick)
        played = ["-"] * 12
        for i, plays in enumerate([*(p for p, _ in st.trick_plays), st.trick][:3]):
            for s, c, d in plays:
                played[i * 4 + s] = "xx" if d else card(c)
        hand = ",".join(card(c) for c in st.hands[seat]) or "-"
        trick = min(3, len(st.results) + 1)
        return (f"{seat + 1} {trick} {results[0]} {results[1]} {results[2]} {st.stake} {nxt} {caller} "
                f"{leader + 1} {st.scores[0]} {st.scores[1]} {int(down)} {hand} {','.join(played)}")

    def ask(self, op: str, st: PaulistaState, seat: int, salt: int, turn_call: bool | None = None) -> int | None:
        """The strategy's answer for ``seat`` (None where it failed, as MiniTruco's own seat then falls back)."""
        extra = ""
        if op == "X":
            extra = " " + (",".join(card(c) for c in st.hands[(seat + 2) % 4]) or "-")
        said, canon = DRIVER_PROCESS.ask(f"{op} {self.strategy} {salt} {self.situation(st, seat, turn_call)}{extra}")
        if self.keep:
            self.memory.asked.append(Asked(self.memory.hand, op, seat + 1, canon, said))
        try:
            return int(said)
        except ValueError:
            DRIVER_PROCESS.errors += 1
            return None

    # -- deciding ---------------------------------------------------------------------------------------
    def __call__(self, view: GameView, legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(view, TrucoView) and view.paulista is not None
        moves = [a for a in legal if a.type != SIGNAL] or legal
        part = view.paulista
        salt = self.salt if self.salt is not None else rng.getrandbits(48)
        if part.phase is PaulistaPhase.DEAL:
            return _pick(moves, "keep") or moves[0]
        blind = _pick(moves, "play_blind")
        if blind is not None:
            return blind
        st = self.state()
        you = view.you or 0
        partner = (you + 2) % 4
        if part.phase is PaulistaPhase.ONZE or _pick(moves, "accept") is not None:
            op = "X" if part.phase is PaulistaPhase.ONZE else "A"
            mine = self.ask(op, st, you, salt)
            theirs = self.ask(op, st, partner, salt)  # MiniTruco's referee puts it to both partners
            if mine is None and theirs is None:
                yes = int(rng.random() < 0.5) if op == "X" else 0
            else:
                yes = int(bool(mine) or bool(theirs))
            return _pick(moves, "accept" if yes else "run") or moves[0]
        call = next((a for a in moves if a.type in CALL_WORDS), None)
        choice = self.ask("J", st, you, salt, turn_call=call is not None)
        if choice is None:
            choice = 0
        if choice == -1:
            if call is not None:
                return call
            choice = 0  # a call out of its time: MiniTruco's own player then plays its first card
        down = choice >= 10
        index = choice - 10 if down else choice
        cards = view.cards
        if not cards:
            return moves[0]
        c = cards[min(index, len(cards) - 1)]
        if down and self.situation(st, you).split()[11] == "1":
            face_down = Action("play_down", cards=(c,))
            if face_down in moves:
                return face_down
        return Action("play", cards=(c,)) if Action("play", cards=(c,)) in moves else moves[0]


def _pick(legal: list[Action], *types: str) -> Action | None:
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None


gasparotto = Bridge("G")
"""MiniTruco's ``EstrategiaGasparotto`` at our table."""
sellani = Bridge("S")
"""MiniTruco's ``EstrategiaSellani`` at our table."""

PLAYERS = {"minitruco-gasparotto": "bench.outside_truco:gasparotto", "minitruco-sellani": "bench.outside_truco:sellani"}
"""The outside players by name, as the arena loads them (``module:function``)."""
BRIDGES = {"bench.outside_truco:gasparotto": gasparotto, "bench.outside_truco:sellani": sellani}


def watch_for(name: str) -> Callable[[Match, int], None] | None:
    """The ``watch`` the arena must show the table to for the player ``name`` (None: it needs none)."""
    bridge = BRIDGES.get(PLAYERS.get(name, name))
    return bridge.watch if bridge is not None else None


def measure(strategy: str, a: str, deals: int, seed: int, options: dict[str, Any] | None = None,
            seconds: float = 0.0) -> ArenaResult:
    """``a`` (one of ours) against MiniTruco's ``strategy`` at our table, on ``deals`` duplicate deals."""
    name = f"bench.outside_truco:{strategy}"
    return arena("truco_paulista", 4, a, name, deals, seed, options, seconds=seconds, watch=watch_for(name))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("strategy", choices=("gasparotto", "sellani"))
    ap.add_argument("--player", default="hard")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=606)
    ap.add_argument("--options", default="", help='table options as JSON: {"truco_decides": "hand"} is their game')
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after this many seconds (0: every deal)")
    args = ap.parse_args()
    # Run as ``python -m``, this file is ``__main__``; the arena loads the players from ``bench.outside_truco``,
    # a module of its own, whose bridges are the ones the table must be shown to.
    from bench import outside_truco

    r = outside_truco.measure(args.strategy, args.player, args.deals, args.seed,
                              json.loads(args.options) if args.options else None, args.seconds)
    for line in r.lines():
        print(line)
    print(f"  requests the strategies failed on: {outside_truco.DRIVER_PROCESS.errors}")


if __name__ == "__main__":
    main()
