"""No dominated move: rigged truco positions at every score band that ends a match, each level asked.

Each position is rigged with the engines' own rules and names the choices that can only lose
there; every level is asked over ``SEEDS`` seeds (a signal first is made, and the level asked
again), and must never pick one. The positions, by what makes the choice dominated:

- a bluff that only adds a way to lose: a bet on a weak hand whose acceptance, if lost, takes
  the others to the target where not betting would not, for a refusal that does not win the
  match (an envido at 20–29 of 30 or 28 facing a truco, real or falta envido at 20–27, a truco or
  a retruco that the others' two or three points end the match by, a vale cuatro that takes
  them from 26 to 30, the same bands in a match to 15, truco paulista's truco against a team
  on 9 or 10, a seis against one on 6 to 8): a sound answerer accepts every one;
- a refusal that hands the others the match, where accepting can only do better;
- running from a mão de onze the team on 11 cannot lose (both of the two best cards in hand).

A mão de ferro offers no choice a bet could make (no truco is allowed, every card is played
blind), so it has no position here. ``tests/engine/test_bot_dominated.py`` runs the suite.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import LEVELS
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState

SEEDS = range(10)
LEVEL_NAMES = ("easy", "normal", "hard")
ENVIDOS = frozenset({"envido", "real_envido", "falta_envido"})
WEAK_ARG = "4c 5b 6e"
"""The weakest truco argentino hand: no card above a 6, an envido of 11."""
WEAK_PAU = "4H 5D 6S"
"""The weakest truco paulista hand."""


@dataclass(frozen=True)
class Position:
    """A rigged decision and the choices that can only lose there."""

    name: str
    family: str
    make: Callable[[int], tuple[Any, object, int]]
    """seed → (game, state, seat to decide)."""
    dominated: frozenset[str]


def decide(game: Any, state: object, seat: int, policy: Callable[..., Action], seed: int) -> Action:
    """``policy``'s decision for ``seat``; a signal first is made, and the policy asked again."""
    state = copy.deepcopy(state)
    rng = random.Random(seed)
    for _ in range(3):
        action = policy(game.view(state, seat), game.legal_actions(state, seat), rng)
        if action.type != "signal":
            return action
        game.apply(state, seat, action)
    raise AssertionError("the bot only signals")


# -- truco argentino, two players to 30: seat 0 is "us"; dealer 1 makes seat 0 the mano ------------------
def argentino(us: int, them: int, mano: bool = True, seed: int = 1, mine: str = WEAK_ARG,
              theirs: str = "7e 3o 2c", target: int = 30) -> ArgentinoState:
    state, _ = ARG.resume(ARG.options({"target": target}), [SeatInfo(i, f"p{i}", i) for i in range(2)], [us, them],
                          1 if mano else 0, 1, seed)
    state.give(0, parse_cards(mine))
    state.give(1, parse_cards(theirs))
    return state


def arg_position(name: str, build: Callable[[int], ArgentinoState], dominated: Sequence[str]) -> Position:
    return Position(name, "truco_argentino", lambda s: (ARG, build(s), 0), frozenset(dominated))


def _facing_truco(us: int, them: int) -> Callable[[int], ArgentinoState]:
    def build(seed: int) -> ArgentinoState:
        st = argentino(us, them, mano=False, seed=seed)
        ARG.apply(st, 1, Action("truco"))
        return st

    return build


def _owning_the_raise(us: int, them: int) -> Callable[[int], ArgentinoState]:
    """The others called truco and we accepted; they played their first card: our turn, retruco ours to call."""
    def build(seed: int) -> ArgentinoState:
        st = argentino(us, them, mano=False, seed=seed)
        ARG.apply(st, 1, Action("truco"))
        ARG.apply(st, 0, Action("quiero"))
        ARG.apply(st, 1, Action("play", cards=parse_cards("2c")))
        return st

    return build


def _they_call(us: int, them: int, word: str) -> Callable[[int], ArgentinoState]:
    def build(seed: int) -> ArgentinoState:
        st = argentino(us, them, mano=False, seed=seed)
        ARG.apply(st, 1, Action(word))
        return st

    return build


def _facing_retruco(us: int, them: int) -> Callable[[int], ArgentinoState]:
    """We are mano and called truco on nothing; they raised to retruco: quiero, no quiero or vale cuatro."""
    def build(seed: int) -> ArgentinoState:
        st = argentino(us, them, seed=seed)
        ARG.apply(st, 0, Action("truco"))
        ARG.apply(st, 1, Action("retruco"))
        return st

    return build


def _argentino_positions() -> list[Position]:
    out = []
    for us in (0, 20, 26):
        out.append(arg_position(f"argentino {us}–29, mano, envido 11: any envido", lambda s, u=us: argentino(
            u, 29, seed=s), ENVIDOS))
        out.append(arg_position(f"argentino {us}–28, mano, envido 11: any envido, a truco on nothing",
                                lambda s, u=us: argentino(u, 28, seed=s), ENVIDOS | {"truco"}))
        out.append(arg_position(f"argentino {us}–27, mano, envido 11: real or falta envido",
                                lambda s, u=us: argentino(u, 27, seed=s), ("real_envido", "falta_envido")))
    out.append(arg_position("argentino 28–29, mano, envido 11: any envido (a refusal does not win: the round is "
                            "still theirs to take)", lambda s: argentino(28, 29, seed=s), ENVIDOS))
    for us in (20, 27):
        out.append(arg_position(f"argentino {us}–28, facing a truco, envido 11: any envido",
                                _facing_truco(us, 28), ENVIDOS))
        out.append(arg_position(f"argentino {us}–29, facing a truco: refusing", _facing_truco(us, 29),
                                ("no_quiero", "mazo")))
        out.append(arg_position(f"argentino {us}–27, truco accepted, ours to raise on nothing: retruco",
                                _owning_the_raise(us, 27), ("retruco",)))
    # At 20 nothing this round can take us past them; at 27 a vale cuatro could.
    out.append(arg_position("argentino 20–29, facing an envido: refusing", _they_call(20, 29, "envido"),
                            ("no_quiero", "mazo")))
    # A vale cuatro accepted and lost takes them from 26 to 30; the retruco only to 29, and refused it brings us 3.
    for us in (20, 26):
        out.append(arg_position(f"argentino {us}–26, facing a retruco on nothing: vale cuatro",
                                _facing_retruco(us, 26), ("vale_cuatro",)))
    # The same bands in a match to 15: 12 to 14.
    for us, them, words in ((5, 14, ENVIDOS), (10, 13, ENVIDOS | {"truco"}), (3, 12, {"real_envido", "falta_envido"})):
        out.append(arg_position(
            f"argentino to 15, {us}–{them}, mano, envido 11: {', '.join(sorted(words))}",
            lambda s, u=us, t=them: argentino(u, t, seed=s, target=15), words))
    out.append(arg_position("argentino to 15, 9–14, facing a truco: refusing",
                            lambda s: _they_call_to(9, 14, "truco", s), ("no_quiero", "mazo")))
    return out


def _they_call_to(us: int, them: int, word: str, seed: int) -> ArgentinoState:
    st = argentino(us, them, mano=False, seed=seed, target=15)
    ARG.apply(st, 1, Action(word))
    return st


# -- truco paulista to 12: seat 0 deals, seat 1 is the mão; team 1 (seats 1 and 3) is "us" -------------------
SEATS4 = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]


def paulista(us: int, them: int, seed: int = 1, **hands: str) -> PaulistaState:
    state, _ = PAU.resume(PAU.options({}), SEATS4, [them, us], 0, 1, seed)
    if state.phase.value == "deal":
        PAU.apply(state, 1, Action("keep"))
    for key, text in hands.items():
        state.hands[int(key[1:])] = list(parse_cards(text))
    return state


def pau_position(name: str, build: Callable[[int], PaulistaState], seat: int, dominated: Sequence[str]
                 ) -> Position:
    return Position(name, "truco_paulista", lambda s: (PAU, build(s), seat), frozenset(dominated))


def _paulista_positions() -> list[Position]:
    out = []
    others = {"s0": "3H 2S KS", "s2": "3C 2D KD", "s3": "QC JD 7S"}
    for us, them in ((0, 9), (5, 10), (10, 10)):
        out.append(pau_position(f"paulista {us}–{them}, the mão on nothing: truco",
                                lambda s, u=us, t=them: paulista(u, t, s, s1=WEAK_PAU, **others), 1, ("truco",)))

    def seis(seed: int, them: int) -> PaulistaState:
        st = paulista(3, them, seed, s1="5C 3S 4S", s2="4C 7H AS", s3=WEAK_PAU, s0="QC JD 7S")
        PAU.apply(st, 1, Action("play", cards=parse_cards("5C")))
        PAU.apply(st, 2, Action("truco"))
        return st

    for them in (6, 8):
        out.append(pau_position(f"paulista 3–{them}, facing a truco on nothing: seis", lambda s, t=them: seis(s, t),
                                3, ("seis",)))

    def onze(seed: int) -> PaulistaState:
        state, _ = PAU.resume(PAU.options({}), SEATS4, [5, 11], 0, 1, seed)
        for seat, text in enumerate(("3H 2S KS", "4C 5D 6S", "3C 2D KD", "7H 4S 5H")):
            state.hands[seat] = list(parse_cards(text))
        return state

    out.append(pau_position("paulista 11–5, mão de onze holding the zap and copas: running", onze, 1, ("run",)))
    return out


POSITIONS: tuple[Position, ...] = (*_argentino_positions(), *_paulista_positions())


def dominated_picks(position: Position, level: str) -> list[str]:
    """The dominated choices ``level`` made at ``position``, one entry per seed that made one."""
    picks = []
    for seed in SEEDS:
        game, state, seat = position.make(seed)
        legal = {a.type for a in game.legal_actions(state, seat)}
        assert position.dominated & legal, f"{position.name}: none of {sorted(position.dominated)} is legal"
        action = decide(game, state, seat, LEVELS[position.family][level], seed)
        if action.type in position.dominated:
            picks.append(action.type)
    return picks


def run(print: Callable[[str], None]) -> int:
    """Every position at every level; prints each and returns how many dominated choices were made."""
    print(f"-- no dominated move: {len(POSITIONS)} rigged positions, {len(SEEDS)} seeds each, levels "
          f"{', '.join(LEVEL_NAMES)}")
    total = 0
    for p in POSITIONS:
        counts = {level: len(dominated_picks(p, level)) for level in LEVEL_NAMES}
        total += sum(counts.values())
        made = ", ".join(f"{level} {n}" for level, n in counts.items())
        print(f"  {p.name}: dominated choice made {made} times" + ("" if not any(counts.values()) else ": NOT met"))
    print(f"  dominated choices in all: {total} (mark: 0): {'met' if total == 0 else 'NOT met'}")
    return total
