"""Truco benchmarks: engine speed under random play, and the bots against random play.

``run()`` plays full truco argentino matches to 30 for 2, 4 and 6 players, the policy
picking uniformly among every legal action of every seat that may act (calls, answers,
envido, flor, going to the deck; signals left out, as they change nothing), and prints
matches/s, hands/s and µs of CPU per action, with flor (the full rules) and without. When
``pytruco`` (Uruguayan truco, PyPI) is installed, the same loop runs on it in the same run
and the ratio of µs per action is printed; pytruco always plays with flor, so the ratio is
taken against our figure with flor. When ``pytrucoengine`` (truco argentino, PyPI: no flor, no
going to the deck, no signals) is installed, it plays the same way and both ratios are printed;
the mark is our full rules (with flor) at most its time per action (×1.0).
``bot_vs_random`` plays a bot team against a random team and gives the bot team's win rate with a
95% confidence interval.
"""

from __future__ import annotations

import builtins
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.truco.argentino.game import GAME as ARGENTINO
from cardtui.sim import versus_random

SECONDS = 3.0
clock = time.process_time
"""Every figure is this process's CPU time: on a machine shared with other work, waiting for a
core is not the engine's cost (both engines run in this one thread, so the ratio is fair)."""


@dataclass(frozen=True, slots=True)
class Speed:
    players: int
    matches: int
    hands: int
    actions: int
    seconds: float

    @property
    def us_per_action(self) -> float:
        return self.seconds / self.actions * 1e6


def argentino_speed(players: int, seconds: float = SECONDS, seed: int = 1, flor: bool = True) -> Speed:
    """Random play of whole matches to 30 for about ``seconds``."""
    rng = random.Random(seed)
    game = ARGENTINO
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(players)]
    options = game.options({"flor": flor})
    matches = hands = actions = 0
    t0 = clock()
    while clock() - t0 < seconds:
        state, _ = game.start(options, seats, rng.randrange(1 << 30))
        while True:
            while not game.hand_over(state):
                moves: list[tuple[int, Action]] = []
                for s in range(players):
                    for a in game.legal_actions(state, s):
                        if a.type != "signal":
                            moves.append((s, a))
                seat, action = moves[int(rng.random() * len(moves))]
                game.apply(state, seat, action)
                actions += 1
            hands += 1
            if game.match_over(state):
                break
            game.next_hand(state, rng.randrange(1 << 30))
        matches += 1
    return Speed(players, matches, hands, actions, clock() - t0)


def pytruco_speed(players: int, seconds: float = SECONDS, seed: int = 1) -> Speed | None:
    """The same loop on pytruco (``chis`` lists each seat's legal moves, ``hacer`` applies one)."""
    try:
        from pytruco.pdt.chi import chis  # type: ignore[import-untyped]
        from pytruco.pdt.partida import Partida  # type: ignore[import-untyped]
    except ImportError:
        return None
    rng = random.Random(seed)
    random.seed(seed)  # pytruco deals from the global generator
    matches = hands = actions = 0
    blue, red = ["a", "b", "c"][: players // 2], ["x", "y", "z"][: players // 2]
    t0 = clock()
    while clock() - t0 < seconds:
        match = Partida(30, blue, red, verbose=False)
        while not match.terminada():
            moves = [m for chi in chis(match) for m in chi]
            move = moves[int(rng.random() * len(moves))]
            packets = move.hacer(match)
            actions += 1
            hands += any(p.message.cod in _round_over() for p in packets)
        matches += 1
    return Speed(players, matches, hands, actions, clock() - t0)


def pytrucoengine_speed(players: int, seconds: float = SECONDS, seed: int = 1) -> tuple[Speed, int] | None:
    """The same loop on pytrucoengine, and how many of its matches broke off (see below).

    pytrucoengine drives the match itself and asks the host for each move
    (``signals.get_action(player, names)``, answered ``"name"`` or ``"jugar_carta,i"``); the
    host here picks uniformly among the named actions and the cards not yet played, and
    counts the moves. Its display hooks (the ``signals`` methods) are silenced, so only its
    game logic is timed. Two of its flaws are worked around: the released package deals from
    an empty deck (``Cards`` never fills it), so a full one is given at each round; and a
    round ended by a refused call after a tied trick looks for the caller it has cleared
    and raises, which ends that match (the moves made so far still count; the number of such
    matches is returned).
    """
    try:
        from pyTrucoEngine.card import cards_dict  # type: ignore[import-untyped]
        from pyTrucoEngine.cards import Cards  # type: ignore[import-untyped]
        from pyTrucoEngine.controllers import round_controller  # type: ignore[import-untyped]
        from pyTrucoEngine.controllers.game_controller import game_controller  # type: ignore[import-untyped]
        from pyTrucoEngine.handlers.signals import signals  # type: ignore[import-untyped]
        from pyTrucoEngine.player import Player  # type: ignore[import-untyped]
        from pyTrucoEngine.table import Table  # type: ignore[import-untyped]
    except ImportError:
        return None

    class FullDeck(Cards):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.clon_cards = list(cards_dict)

    round_controller.Cards = FullDeck

    class RandomHost(signals):  # type: ignore[misc]
        def __init__(self, seats: list[Any], rng: random.Random) -> None:
            super().__init__(seats)
            self.rng = rng
            self.moves = 0

        def get_action(self, player: Any, names: Any = "") -> str:
            self.moves += 1
            moves: list[str] = []
            for name in names:
                if name == "jugar_carta":
                    moves += [f"jugar_carta,{i}" for i, c in enumerate(player.cartas) if c not in player.cartasJugadas]
                else:
                    moves.append(name)
            return moves[int(self.rng.random() * len(moves))]

    for hook in _PTE_HOOKS:
        setattr(RandomHost, hook, _quiet)
    rng = random.Random(seed)
    random.seed(seed)  # pytrucoengine deals from the global generator
    matches = actions = broken = 0
    t0 = clock()
    while clock() - t0 < seconds:
        table = Table(players, 0, 0)
        seats = [Player(i) for i in range(players)]
        for p in seats:
            table.add_player(p)
        host = RandomHost(seats, rng)
        try:
            game_controller(set(table.getTeams()), seats, host).start()
        except AttributeError:
            broken += 1
        actions += host.moves
        matches += 1
    return Speed(players, matches, 0, actions, clock() - t0), broken


def _quiet(*args: Any) -> None:
    return None


_PTE_HOOKS = (
    "sendMessageAll", "sendMessageToPlayer", "showCards", "showMsgStartGame", "start_new_round", "start_new_hand",
    "showMsgFinishHand", "showMsgFinishRound", "showMsgFinishGame", "giveCards", "show_points_for_team",
    "showCardPlaying", "showError", "showResultaTheHand", "returnStatus", "winEmpate", "win", "winGameTeam",
    "quiero", "noquiero", "envido", "real_envido", "falta_envido", "showEnvido", "showWinnerEnvido", "truco",
    "retruco", "vale_4",
)
"""pytrucoengine's display hooks: printing and logging, which a host replaces."""


def _round_over() -> frozenset[Any]:
    from pytruco.enco.codmsg import CodMsg  # type: ignore[import-untyped]

    return frozenset({CodMsg.NUEVA_RONDA, CodMsg.NUEVA_PARTIDA})


def run(print: Callable[..., None] = builtins.print, seconds: float = SECONDS) -> dict[int, float]:
    """Print the speed figures; returns µs per action by player count."""
    out: dict[int, float] = {}
    for players in (2, 4, 6):
        ours = argentino_speed(players, seconds)
        sin_flor = argentino_speed(players, seconds, flor=False)
        out[players] = ours.us_per_action
        print(
            f"truco argentino, {players} players: {ours.matches / ours.seconds:,.0f} matches/s, "
            f"{ours.hands / ours.seconds:,.0f} hands/s, {ours.us_per_action:.1f} µs per action "
            f"with flor ({sin_flor.us_per_action:.1f} sin flor)"
        )
        engine = pytrucoengine_speed(players, seconds)
        if engine is None:
            print("  pytrucoengine is not installed: no baseline (pip install pytrucoengine).")
        else:
            pte, broken = engine
            ratio = ours.us_per_action / pte.us_per_action
            print(
                f"  pytrucoengine, {players} players: {pte.matches / pte.seconds:,.1f} matches/s, "
                f"{pte.us_per_action:.1f} µs per action ({broken} of {pte.matches} matches broke off); ours "
                f"×{ratio:.2f} of its time per action with flor, ×{sin_flor.us_per_action / pte.us_per_action:.2f} "
                f"sin flor: mark ≤ ×1.0 {'met' if ratio <= 1.0 else 'NOT met'}"
            )
        theirs = pytruco_speed(players, seconds)
        if theirs is None:
            print("  pytruco is not installed: no baseline (pip install pytruco).")
            continue
        print(
            f"  pytruco, {players} players: {theirs.matches / theirs.seconds:,.1f} matches/s, "
            f"{theirs.us_per_action:.1f} µs per action; ours takes "
            f"{ours.us_per_action / theirs.us_per_action:.3f} of its time per action "
            f"({theirs.us_per_action / ours.us_per_action:.0f}× faster)"
        )
    return out


def bots(print: Callable[..., None] = builtins.print, matches: int = 200) -> None:
    """Print the bot team's win rate against a random team, with 95% intervals."""
    for name, counts in (("truco_argentino", (2, 4, 6)), ("truco_paulista", (4,))):
        for players in counts:
            print(versus_random(name, players, matches).line(f"{name}, {players} players, bots vs random"))


if __name__ == "__main__":
    run()
    bots()
