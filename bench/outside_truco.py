"""Truco paulista against bots written elsewhere: MiniTruco's two strategies, asked over a pipe.

MiniTruco (github.com/chesterbr/minitruco-android, BSD-3-Clause) has been played by many people for
years; its bots are two strategies, ``EstrategiaGasparotto`` and ``EstrategiaSellani``, each a
function of a ``SituacaoJogo`` (what a seat sees: its cards, the cards on the table, the tricks'
results, the stake, the score). It plays paulista with fixed manilhas (its *manilha velha* mode:
4C, 7H, AS, 7D, our ranking), so its strategies can sit at our table as they are.

Nothing of MiniTruco is in this repository. Point ``CARDTUI_MINITRUCO`` at the classes of its
``core`` module as built from a checkout (a directory of ``.class`` files, or a jar); this module
compiles its own small driver (``bench/outside/MiniTrucoDriver.java``) against them into a
temporary directory and runs it with ``java``, one request a line. Where the variable, ``java`` or
``javac`` is missing, ``missing()`` says why and the bench skips these players, saying so.

The players, for ``cardtui arena`` (run from the repository's root, so that ``bench`` imports):
``PYTHONPATH=. cardtui arena truco_paulista hard bench.outside_truco:gasparotto --players 4``, and
``bench.outside_truco:sellani``. What they do at our table that MiniTruco does not know: the mão
keeps every deal (no pass, no rejection), gives no signals, plays a mão de ferro's first card, and
answers a call only yes or no (MiniTruco raises only on its own turn). Under the default
``truco_decides = trick`` they play as if the hand went on; ``{"truco_decides": "hand"}`` is the
game they know.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import random
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from cardtui.engine.cards import Card, Suit
from cardtui.engine.core import Action, GameView
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

    def ask(self, request: str) -> str:
        with self.lock:
            if self.proc is None:
                self.proc = self.start()
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(request + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline().strip()
        if not answer:
            raise RuntimeError("The MiniTruco driver stopped answering.")
        return answer


DRIVER_PROCESS = Driver()


def _leader(view: TrucoView) -> int:
    """Who leads the trick in play: its first card's seat, else the seat to play (or to call)."""
    if view.trick:
        return view.trick[0].seat
    if view.turn is not None:
        return view.turn
    if view.pending is not None:
        return view.pending.seat
    assert view.paulista is not None
    return view.paulista.mao


def situation(view: TrucoView, legal: list[Action]) -> str:
    """The fields of a ``SituacaoJogo`` for this seat (see the driver): positions are seats plus one,
    which play in our order (seat s, then s + 1); MiniTruco's team 1 (positions 1 and 3) is our team 0."""
    you = view.you or 0
    results = [0, 0, 0]
    for i, t in enumerate(view.tricks[:3]):
        results[i] = 3 if t.team is None else t.team + 1
    calls = [a for a in legal if a.type in CALL_WORDS]
    next_stake = view.your_raise.value if calls and view.your_raise is not None else 0
    pending = view.pending.seat + 1 if view.pending is not None else 0
    played = ["-"] * 12
    for i, plays in enumerate([*(t.plays for t in view.tricks), view.trick][:3]):
        for p in plays:
            played[i * 4 + p.seat] = "xx" if p.card is None or p.face_down else card(p.card)
    down = "1" if any(a.type == "play_down" for a in legal) else "0"
    hand = ",".join(card(c) for c in view.cards) or "-"
    trick = min(3, len(view.tricks) + 1)
    return (f"{you + 1} {trick} {results[0]} {results[1]} {results[2]} {view.stake} {next_stake} {pending} "
            f"{_leader(view) + 1} {view.scores[0]} {view.scores[1]} {down} {hand} {','.join(played)}")


def _pick(legal: list[Action], *types: str) -> Action | None:
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None


def _answer(raw: str) -> int | None:
    try:
        return int(raw)
    except ValueError:
        DRIVER_PROCESS.errors += 1
        return None


def decide(strategy: str, view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """MiniTruco's ``strategy`` (G or S) at this seat: its answer to the situation, as one of ours."""
    assert isinstance(view, TrucoView) and view.paulista is not None
    moves = [a for a in legal if a.type != SIGNAL] or legal
    part = view.paulista
    seed = rng.getrandbits(48)
    if part.phase is PaulistaPhase.DEAL:
        return _pick(moves, "keep") or moves[0]
    blind = _pick(moves, "play_blind")
    if blind is not None:
        return blind
    base = f"{strategy} {seed} {situation(view, legal)}"
    if part.phase is PaulistaPhase.ONZE:
        partner = view.seats[((view.you or 0) + 2) % 4].cards
        yes = _answer(DRIVER_PROCESS.ask(f"X {base} {','.join(card(c) for c in partner) or '-'}"))
        if yes is None:
            yes = int(rng.random() < 0.5)
        return _pick(moves, "accept" if yes else "run") or moves[0]
    if _pick(moves, "accept") is not None:
        yes = _answer(DRIVER_PROCESS.ask(f"A {base}"))
        return _pick(moves, "accept" if yes else "run") or moves[0]
    choice = _answer(DRIVER_PROCESS.ask(f"J {base}"))
    if choice is None:
        choice = 0
    if choice == -1:
        call = next((a for a in moves if a.type in CALL_WORDS), None)
        if call is not None:
            return call
        choice = 0  # a call out of its time: MiniTruco's own player then plays its first card
    down = choice >= 10
    index = choice - 10 if down else choice
    cards = view.cards
    if not cards:
        return moves[0]
    c = cards[min(index, len(cards) - 1)]
    if down:
        face_down = Action("play_down", cards=(c,))
        if face_down in moves:
            return face_down
    return Action("play", cards=(c,)) if Action("play", cards=(c,)) in moves else moves[0]


def gasparotto(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """MiniTruco's ``EstrategiaGasparotto``."""
    return decide("G", view, legal, rng)


def sellani(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """MiniTruco's ``EstrategiaSellani``."""
    return decide("S", view, legal, rng)


PLAYERS = {"minitruco-gasparotto": "bench.outside_truco:gasparotto", "minitruco-sellani": "bench.outside_truco:sellani"}
"""The outside players by name, as the arena loads them (``module:function``)."""
