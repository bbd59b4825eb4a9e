"""The analysis's blunder suite: rigged positions of every game whose right and wrong moves are known.

Each position is rigged with the engines' own rules and names a move that is plainly wrong there
(one that hands the others the match, gives a won hand away, or leaves a sure knock on the pile)
and the right one. The analysis must flag the wrong move at least a mistake, and never flag the
right one, whatever its seed; in the positions of ``LEVEL_RIGS`` the other move is no blunder
(played out by the bots the two come out level) and only the right move is asked about. ``make
bench --only analysis`` asks over ten seeds each, the tests over a few
(``tests/engine/test_analysis.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtui.engine.analysis import Position
from cardtui.engine.betting import CALL, FOLD
from cardtui.engine.cacho import BET
from cardtui.engine.cacho import GAME as CACHO
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, GameView, SeatInfo
from cardtui.engine.games import get
from cardtui.engine.melds import wild_cards
from cardtui.engine.rummy_records import DRAW, PILE, STOCK, Phase, RummyView
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.paulista.game import GAME as PAU

SEEDS = range(10)


@dataclass(frozen=True)
class Rig:
    """A rigged decision: the seat's view and legal actions, a known wrong move and the right one."""

    name: str
    game: str
    make: Callable[[], tuple[GameView, list[Action], int]]
    """→ (the seat's view, its legal actions, the seat)."""
    wrong: Action
    right: Action

    def position(self, chosen: Action) -> Position:
        view, legal, seat = self.make()
        assert self.wrong in legal and self.right in legal, f"{self.name}: a move of the rig is not legal"
        return Position(1, seat, view, tuple(legal), chosen)


@dataclass(frozen=True)
class Level:
    """A rigged decision whose right move is known and whose other is no blunder: the analysis must never flag the
    right one (the choices played out by the bots come out level, or the right one ahead)."""

    name: str
    game: str
    make: Callable[[], tuple[GameView, list[Action], int]]
    right: Action

    def position(self) -> Position:
        view, legal, seat = self.make()
        assert self.right in legal, f"{self.name}: the right move is not legal"
        return Position(1, seat, view, tuple(legal), self.right)


def _at(game: Any, state: object, seat: int) -> tuple[GameView, list[Action], int]:
    return game.view(state, seat), game.legal_actions(state, seat), seat


def _argentino(us: int, them: int, dealer: int, mine: str, theirs: str) -> ArgentinoState:
    state, _ = ARG.resume(ARG.options({}), [SeatInfo(i, f"p{i}", i) for i in range(2)], [us, them], dealer, 1, 1)
    state.give(0, parse_cards(mine))
    state.give(1, parse_cards(theirs))
    return state


def _facing_truco(us: int) -> tuple[GameView, list[Action], int]:
    st = _argentino(us, 29, 0, "1e 1b 3c", "4c 5o 6b")
    ARG.apply(st, 1, Action("truco"))
    return _at(ARG, st, 0)


def _won_second_trick() -> tuple[GameView, list[Action], int]:
    # 29–29: seat 0 took the first trick and holds the 1e, the best card: the hand, and the match, are won.
    st = _argentino(29, 29, 0, "5e 12c 1e", "4c 3b 6o")
    for seat, card in ((1, "4c"), (0, "5e")):
        ARG.apply(st, seat, Action("play", cards=parse_cards(card)))
    return _at(ARG, st, 0)


def _mao_de_onze() -> tuple[GameView, list[Action], int]:
    # Team 1 on 11 (against 5) holds the zap and copas: the hand cannot be lost, and it ends the match.
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]
    state, _ = PAU.resume(PAU.options({}), seats, [5, 11], 0, 1, 1)
    for seat, text in enumerate(("3H 2S KS", "4C 5D 6S", "3C 2D KD", "7H 4S 5H")):
        state.hands[seat] = list(parse_cards(text))
    return _at(PAU, state, 1)


def _cacho_all_in() -> tuple[GameView, list[Action], int]:
    # Heads-up, round 3: the eldest goes all in; the other holds 2C 3S 2D, which nearly any hand beats.
    state, _ = CACHO.start(CACHO.options({"chips": 20}), [SeatInfo(i, f"p{i}", i) for i in range(2)], 1)
    for seat, card in zip(state.playing, parse_cards("6C 2C"), strict=True):
        state.hands[seat] = [card]
    state.deck = list(reversed(parse_cards("6D 3S 5C 4D")))
    for amount in (1, 2):
        for seat in state.playing:
            CACHO.apply(state, seat, Action(BET, amount))
    eldest, other = state.playing
    CACHO.apply(state, eldest, CACHO.legal_actions(state, eldest)[-1])
    return _at(CACHO, state, other)


def _rummy(game: str, **changes: Any) -> RummyView:
    """A real table's view for the seat to draw, with ``changes`` made to it."""
    rules = get(game)
    match, _ = rules.open({}, [SeatInfo(i, f"p{i}", i) for i in range(rules.min_players)], 5)
    for _ in range(200):
        view = match.view(match.to_act()[0])
        assert isinstance(view, RummyView)
        if view.phase is Phase.DRAW:
            return dataclasses.replace(view, **changes)
        seat = match.to_act()[0]
        match.apply(seat, next(a for a in match.legal_actions(seat) if a.type in ("check", "call", "pass")))
    raise AssertionError("no draw")


DRAWS = [Action(DRAW, value=STOCK), Action(DRAW, value=PILE)]


def _cacheta_ten() -> tuple[GameView, list[Action], int]:
    # Both players on 2 points; nine cards melded, and the pile's 6H melds all ten: a sure knock for 2
    # points, the match. From the stock, a knock for 1 at best, most of the time.
    flip = Card.parse("5C")
    view = _rummy("cacheta", flip=flip, wilds=wild_cards(flip), cards=parse_cards("3H 4H 5H 9C 9D 9S JC JD JS"),
                  pile=parse_cards("8C 6H"))
    view = dataclasses.replace(view, seats=tuple(dataclasses.replace(s, score=2) for s in view.seats))
    return view, list(DRAWS), view.you or 0


def _pifpaf_out() -> tuple[GameView, list[Action], int]:
    # The pile's KH completes the last meld: the hand goes out now.
    view = _rummy("pifpaf", flip=None, wilds=(), cards=parse_cards("4H 5H 6H 7C 7D 7S KC KD 2S"),
                  pile=parse_cards("3C KH"))
    return view, list(DRAWS), view.you or 0


Make = Callable[[], tuple[GameView, list[Action], int]]


def _kept(taken: tuple[Card, ...], pile: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``taken`` a seat still holds, where each card back on the pile is the one it took."""
    left = list(pile)
    out = []
    for c in taken:
        if c in left:
            left.remove(c)
        else:
            out.append(c)
    return tuple(out)


def _waiting(cards: str, pile: str, taken: tuple[str, str, str], stock: int) -> Make:
    """Pif Paf, three players: the seat to draw is one card from going out, a card no meld of its wants is on the
    pile, and ``taken`` are the cards each seat took from the pile (this seat's, then the next two in turn). Only the
    stock can take the hand out; the pile's card, taken, goes straight back. Played out from here by normal or by
    hard the two draws come out level; the search once put the pile up to a quarter of a chip ahead (its quick
    policy threw away a card of the wait after the stock's draw), and the analysis flagged the stock's draw."""

    def make() -> tuple[GameView, list[Action], int]:
        view = _rummy("pifpaf", flip=None, wilds=(), cards=parse_cards(cards), pile=parse_cards(pile),
                      stock_count=stock)
        you = view.you or 0
        seats = tuple(dataclasses.replace(s, card_count=9, taken=parse_cards(taken[(s.seat - you) % 3]),
                                          known=_kept(parse_cards(taken[(s.seat - you) % 3]), view.pile))
                      for s in view.seats)
        view = dataclasses.replace(view, seats=seats)
        return view, list(DRAWS), view.you or 0

    return make


RIGS: tuple[Rig, ...] = (
    Rig("argentino 20–29, facing a truco with the two best cards: refusing hands them the match", "truco_argentino",
        lambda: _facing_truco(20), Action("no_quiero"), Action("retruco")),
    Rig("argentino 29–29, first trick taken, the 1e in hand: going to the deck", "truco_argentino",
        _won_second_trick, Action("mazo"), Action("play", cards=parse_cards("1e"))),
    Rig("paulista 11–5, mão de onze holding the zap and copas: running", "truco_paulista",
        _mao_de_onze, Action("run"), Action("accept")),
    Rig("cacho heads-up, an all-in called with 2C 3S 2D", "cacho", _cacho_all_in, Action(CALL, 17), Action(FOLD)),
    Rig("cacheta, nine melded and the pile's card melds ten: drawing from the stock", "cacheta",
        _cacheta_ten, DRAWS[0], DRAWS[1]),
    Rig("pif paf, the pile's card takes the hand out: drawing from the stock", "pifpaf",
        _pifpaf_out, DRAWS[0], DRAWS[1]),
)

LEVEL_RIGS: tuple[Level, ...] = (
    # From a hand of normal bots (seed 1, three players): the search put the pile 0.26 chips ahead and the analysis
    # called the stock's draw an inaccuracy on one seed of ten; normal playing the same deals out, the stock
    # +0.09 chips (-0.05 to +0.23, 400 deals), hard +0.04 (-0.13 to +0.21, 300 deals).
    Level("pif paf, waiting on KC, KD or JS, a useless 2C on a long pile: drawing from the stock", "pifpaf",
          _waiting("AS AH AD 4D 5D 6D QS KS KH", "2C 5H 7C 3C 2D 5H 7D 2S 9S 6C JC 8H 6C 3D 5C AD 9H 2H 6H QD 2C",
                   ("KH", "JC 10H", ""), 56), DRAWS[0]),
    Level("pif paf, waiting on KC, KD or JS, a useless 2C early: drawing from the stock", "pifpaf",
          _waiting("AS AH AD 4D 5D 6D QS KS KH", "2C 5H 7C 9S 2C", ("", "", ""), 69), DRAWS[0]),
    Level("pif paf, two groups and a wait on the kings or JS, a useless 9C: drawing from the stock", "pifpaf",
          _waiting("2S 2H 2D 3S 3H 3D QS KS KH", "7C 10D 9C", ("", "", ""), 70), DRAWS[0]),
    Level("pif paf, two outs (AS, AC) and a useless JS: drawing from the stock", "pifpaf",
          _waiting("AH AD 6S 6H 6D 8S 8H 8C 10D", "7H 8D 4C 9D 9H 2S 9S 3D 5C 4S JS",
                   ("AH 8S 6H", "2C 3H QD", "7C 10S"), 66), DRAWS[0]),
)
"""Positions where the right move is no blunder's opposite: one card from going out, only the stock can take the
hand out, and the pile's useless card, taken, goes straight back."""
