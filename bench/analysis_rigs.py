"""The analysis's blunder suite: rigged positions of every game and every kind of decision, whose right and
wrong moves are known.

Each position is rigged on a real engine state, with the engines' own rules, and names a move that is plainly
wrong there (one that hands the others the match or a hand, gives a won trick away, leaves a sure knock or a
claim on the table, folds the best hand) and the right one. Its kind (``KINDS``: an envido decision, a truco
call or its answer, a card played, a draw, a discard, a knock, a bet) is what the marks are counted by.

Each answer is checked against playouts of the whole hand (``verify``): from the rigged state and from deals of
the cards the seat could not see made again, each move is played and the hand played out to its end by the bots
in every seat, many times; the right move must come out ahead in the game's unit. The analysis must then flag
the wrong move at least a mistake, and never flag the right one, whatever its seed; in the positions of
``LEVEL_RIGS`` the other move is no blunder (played out by the bots the two come out level) and only the right
move is asked about. ``make bench --only analysis`` asks over ten seeds each and prints each kind's share of wrong
moves flagged, the tests over a few (``tests/engine/test_analysis.py``).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.analysis import Position
from cardtui.engine.betting import CALL, CHECK, FOLD
from cardtui.engine.bots import odds
from cardtui.engine.cacho.rules import BET, CachoState
from cardtui.engine.cacho.rules import GAME as CACHO
from cardtui.engine.cards import Card, pack, parse_cards
from cardtui.engine.core import Action, GameView, SeatInfo
from cardtui.engine.games import get, levels
from cardtui.engine.rummy.melds import wild_cards
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PILE, STOCK, Phase, RummyView
from cardtui.engine.seen import unseen
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState

SEEDS = range(10)
KINDS = ("envido", "truco call", "card play", "draw", "discard", "knock", "bet")
"""The kinds of decision the suite counts its marks by."""

State = tuple[Any, Any, int]
"""A rigged position: the game's rules, its state, the seat to decide."""


@dataclass(frozen=True)
class Rig:
    """A rigged decision: the seat's view and legal actions, a known wrong move and the right one."""

    name: str
    game: str
    make: Callable[[], tuple[GameView, list[Action], int]]
    """→ (the seat's view, its legal actions, the seat)."""
    wrong: Action
    right: Action
    kind: str = ""
    """Which kind of decision (``KINDS``)."""
    state: Callable[[], State] | None = None
    """→ the rigged state itself, for the playouts of the whole hand (``verify``)."""

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


def rig(name: str, kind: str, game: str, make: Callable[[], State], wrong: Action, right: Action) -> Rig:
    """A rig made from a rigged state: its view and legal actions are the state's."""

    def view() -> tuple[GameView, list[Action], int]:
        rules, state, seat = make()
        return _at(rules, state, seat)

    return Rig(name, game, view, wrong, right, kind, make)


def play(*cards: str) -> Action:
    return Action("play", cards=parse_cards(" ".join(cards)))


# -- truco argentino, two players: seat 0 deals when ``dealer`` is 1 (then seat 0 is the mano) ------------------
def _argentino(us: int, them: int, dealer: int, mine: str, theirs: str, **options: Any) -> ArgentinoState:
    state, _ = ARG.resume(ARG.options(options), [SeatInfo(i, f"p{i}", i) for i in range(2)], [us, them], dealer, 1, 1)
    state.give(0, parse_cards(mine))
    state.give(1, parse_cards(theirs))
    return state


def _moves(game: Any, state: object, *moves: tuple[int, str, str]) -> None:
    """Apply ``(seat, action, cards)`` one after another."""
    for seat, kind, text in moves:
        game.apply(state, seat, Action(kind, cards=parse_cards(text) if text else ()))


def _facing_truco(us: int) -> State:
    st = _argentino(us, 29, 0, "1e 1b 3c", "4c 5o 6b")
    ARG.apply(st, 1, Action("truco"))
    return ARG, st, 0


def _won_second_trick() -> State:
    # 29–29: seat 0 took the first trick and holds the 1e, the best card: the hand, and the match, are won.
    st = _argentino(29, 29, 0, "5e 12c 1e", "4c 3b 6o")
    _moves(ARG, st, (1, "play", "4c"), (0, "play", "5e"))
    return ARG, st, 0


def _falta_on_four() -> State:
    # 0–0 of 30: the mano (seat 1) calls falta envido, worth the 30 points the leaders lack, holding 33; seat 0 holds
    # 4 (no two of a suit), which hardly a hand does not beat: accepting stakes the match on it, refusing gives 1.
    st = _argentino(0, 0, 0, "4c 11o 12b", "7e 6e 3b")
    ARG.apply(st, 1, Action("falta_envido"))
    return ARG, st, 0


def _envido_on_thirty_three() -> State:
    # 0–0: the mano (seat 1) calls envido holding 2; seat 0 holds 33: refusing gives a point away where accepting
    # takes two.
    st = _argentino(0, 0, 0, "7e 6e 1b", "2c 10b 11o")
    ARG.apply(st, 1, Action("envido"))
    return ARG, st, 0


def _real_envido_on_thirty_three() -> State:
    # 0–0: the mano (seat 1) calls real envido holding 26; seat 0 holds 33, which hardly a hand beats: refusing gives
    # 2 away where accepting takes 3, and raising to falta envido more.
    st = _argentino(0, 0, 0, "7e 6e 4b", "6c 10c 5o")
    ARG.apply(st, 1, Action("real_envido"))
    return ARG, st, 0


def _raising_a_lost_truco() -> State:
    # 10–10: seat 1 took trick 1 and leads the 1e in trick 2, then calls truco: the hand is theirs. Refusing gives 1,
    # accepting 2, raising to retruco 3.
    st = _argentino(10, 10, 0, "4o 5b 6c", "3e 1e 2o")
    _moves(ARG, st, (1, "play", "3e"), (0, "play", "4o"), (1, "play", "1e"))
    ARG.apply(st, 1, Action("truco"))
    return ARG, st, 0


def _lead_lost() -> State:
    # 10–10: seat 1 took trick 1 with the 3e and leads the 3c in trick 2; seat 0 holds the 1e and the 6c: the 1e
    # takes trick 2 and the 6c trick 3 (seat 1 has a 4 left); the 6c under the 3c loses the hand.
    st = _argentino(10, 10, 0, "5o 1e 6c", "3e 3c 4b")
    _moves(ARG, st, (1, "play", "3e"), (0, "play", "5o"), (1, "play", "3c"))
    return ARG, st, 0


# -- truco paulista: seat 0 deals, seat 1 is the mão; seats 1 and 3 are team 1 -------------------------------
def _paulista(scores: tuple[int, int], hands: Mapping[int, str], seed: int = 1, **options: Any) -> PaulistaState:
    state, _ = PAU.resume(PAU.options(options), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], list(scores), 0,
                          1, seed)
    PAU.apply(state, 1, Action("keep"))
    for seat, text in hands.items():
        state.hands[seat] = list(parse_cards(text))
    return state


def _mao_de_onze() -> State:
    # Team 1 on 11 (against 5) holds the zap and copas: the hand cannot be lost, and it ends the match.
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]
    state, _ = PAU.resume(PAU.options({}), seats, [5, 11], 0, 1, 1)
    for seat, text in enumerate(("3H 2S KS", "4C 5D 6S", "3C 2D KD", "7H 4S 5H")):
        state.hands[seat] = list(parse_cards(text))
    return PAU, state, 1


def _tie_that_wins() -> State:
    # The issue's position: seat 2 (team 0) took trick 1; in trick 2 it led the 5♦ and seat 3 played the 3♠. Seat 0
    # holds the 3♥ and the 7♣: the 3♥ ties the trick, and a tie goes to trick 1's winner; seat 1, last to play,
    # holds nothing above a 3. The 7♣ gives the trick away, and seat 3's zap takes trick 3.
    st = _paulista((0, 0), {1: "4S JS QD", 2: "2C 5D 6H", 3: "KD 3S 4C", 0: "4H 3H 7C"})
    _moves(PAU, st, (1, "play", "4S"), (2, "play", "2C"), (3, "play", "KD"), (0, "play", "4H"), (2, "play", "5D"),
           (3, "play", "3S"))
    return PAU, st, 0


def _accepting_a_lost_truco() -> State:
    # 0–0: seat 1 took trick 1 and leads the zap in trick 2, which nothing beats; seat 3 calls truco: the hand is
    # theirs. Running gives them 1, accepting 3.
    st = _paulista((0, 0), {1: "3S 4C 5H", 2: "4D 6C 7S", 3: "KS 5C 6H", 0: "4H 5S 6D"})
    _moves(PAU, st, (1, "play", "3S"), (2, "play", "4D"), (3, "play", "KS"), (0, "play", "4H"), (1, "play", "4C"),
           (2, "play", "6C"))
    PAU.apply(st, 3, Action("truco"))
    return PAU, st, 0


def _running_a_won_truco() -> State:
    # 0–0: seat 2 took trick 1 for team 0 and leads a 4 in trick 2; seat 3 calls truco, and seat 0 holds the zap,
    # which nothing beats: the hand is won. Running gives them 1, accepting takes 3.
    st = _paulista((0, 0), {1: "KS 5C 6H", 2: "3D 4D 7S", 3: "QS 5S 6D", 0: "5H 4C 6C"})
    _moves(PAU, st, (1, "play", "KS"), (2, "play", "3D"), (3, "play", "QS"), (0, "play", "5H"), (2, "play", "4D"))
    PAU.apply(st, 3, Action("truco"))
    return PAU, st, 0


def _down_instead_of_winning() -> State:
    # 0–0: team 0 took trick 1; in trick 2 seat 3 played a 5 and seat 0 holds a 3 and a 4: the 3 face up takes
    # the trick and the hand; face down, it gives the trick away.
    st = _paulista((0, 0), {1: "KS 5C 6H", 2: "2D 6C 7S", 3: "QS 5S 6D", 0: "2H 3H 4H"})
    _moves(PAU, st, (1, "play", "KS"), (2, "play", "2D"), (3, "play", "QS"), (0, "play", "2H"), (2, "play", "6C"),
           (3, "play", "5S"))
    return PAU, st, 0


# -- Cacho -----------------------------------------------------------------------------------------------
def _cacho(chips: int, hands: Sequence[str], deck: str, players: int = 2) -> CachoState:
    """A Cacho table whose seats are dealt ``hands`` (eldest first, a card each to start) and then ``deck``."""
    state, _ = CACHO.start(CACHO.options({"chips": chips}), [SeatInfo(i, f"p{i}", i) for i in range(players)], 1)
    for seat, card in zip(state.playing, parse_cards(" ".join(hands)), strict=True):
        state.hands[seat] = [card]
    state.deck = list(reversed(parse_cards(deck)))
    return state


def _cacho_all_in() -> State:
    # Heads-up, round 3: the eldest goes all in; the other holds 2C 3S 2D, which nearly any hand beats.
    state = _cacho(20, ("6C", "2C"), "6D 3S 5C 4D")
    for amount in (1, 2):
        for seat in state.playing:
            CACHO.apply(state, seat, Action(BET, amount))
    eldest, other = state.playing
    CACHO.apply(state, eldest, CACHO.legal_actions(state, eldest)[-1])
    return CACHO, state, other


def _three_sixes_fold() -> State:
    # Heads-up, round 3: the eldest holds three sixes, the best hand there is, checks, and faces a bet of 5.
    state = _cacho(20, ("6S", "2C"), "6H 3S 6D 4D")
    for amount in (1, 2):
        for seat in state.playing:
            CACHO.apply(state, seat, Action(BET, amount))
    eldest, other = state.playing
    CACHO.apply(state, eldest, Action(CHECK))
    CACHO.apply(state, other, Action("bet", 5))
    return CACHO, state, eldest


def _cacho_folded() -> State:
    # Heads-up, round 3: the eldest holds a cacho of clubs (4C 5C 6C, 35: only three sixes beat it) facing a bet
    # of 3 into a pot of 6.
    state = _cacho(20, ("4C", "3D"), "5C 2S 6C AH")
    for amount in (1, 2):
        for seat in state.playing:
            CACHO.apply(state, seat, Action(BET, amount))
    eldest, other = state.playing
    CACHO.apply(state, eldest, Action(CHECK))
    CACHO.apply(state, other, Action("bet", 3))
    return CACHO, state, eldest


# -- Pif Paf and Cacheta: a real table's state, its hands, pile and stock rigged ---------------------------------
def _rummy_state(game: str, hands: Mapping[int, str], pile: str, seat: int, players: int = 0,
                 phase: Phase = Phase.DRAW, flip: str = "", scores: Sequence[int] = (), known: Mapping[int, str] = {},
                 stock: int = 0, seed: int = 5) -> State:
    """A table of ``game`` at a draw (or, with ``phase``, a discard) of ``seat``: each seat holds ``hands`` (the
    others nine cards dealt from the rest), the pile ``pile``, the rest the stock (``stock`` of them, if given;
    those left out lie nowhere), shuffled by ``seed``."""
    rules = get(game)
    n = players or rules.min_players
    state, _ = rules.start(rules.options({}), [SeatInfo(i, f"p{i}", i) for i in range(n)], seed)
    for _ in range(50):  # Pif Paf's betting round: everyone checks or calls
        if state.phase is not Phase.BETTING:
            break
        who = rules.to_act(state)[0]
        rules.apply(state, who, next(a for a in rules.legal_actions(state, who) if a.type in ("check", "call")))
    rng = random.Random(seed)
    rest = list(pack("french104"))
    flip_card = Card.parse(flip) if flip else None
    placed = [c for text in hands.values() for c in parse_cards(text)] + list(parse_cards(pile))
    placed += [flip_card] if flip_card is not None else []
    for c in placed:
        rest.remove(c)
    rng.shuffle(rest)
    for s in range(n):
        state.hands[s] = list(parse_cards(hands[s])) if s in hands else [rest.pop() for _ in range(9)]
        state.known[s].clear()
        state.taken[s] = list(parse_cards(known.get(s, "")))
        state.known[s].update(state.taken[s])
    state.pile = list(parse_cards(pile))
    state.stock = rest[: stock or len(rest)]
    if flip_card is not None:
        state.flip, state.wilds = flip_card, wild_cards(flip_card)
    for s, points in enumerate(scores):
        state.stacks[s] = points
    state.turn, state.phase = seat, phase
    state.drawn = state.hands[seat][-1] if phase is Phase.DISCARD else None
    state.window = None
    return rules, state, seat


DRAWS = [Action(DRAW, value=STOCK), Action(DRAW, value=PILE)]


def _cacheta_ten() -> State:
    # Both players on 2 points; nine cards melded, and the pile's 6H melds all ten: a sure knock for 2 points, the
    # match. From the stock, a knock for 1 at best, most of the time.
    return _rummy_state("cacheta", {0: "3H 4H 5H 9C 9D 9S JC JD JS"}, "8C 6H", 0, flip="5C", scores=(2, 2))


def _pifpaf_out() -> State:
    # The pile's KH completes the last meld: the hand goes out now.
    return _rummy_state("pifpaf", {0: "4H 5H 6H 7C 7D 7S KC KD 2S"}, "3C KH", 0)


def _cacheta_out_for_the_match() -> State:
    # Cacheta heads-up, both on 1 point: the pile's JS melds the two jacks and lets the hand go out now (the 2S
    # thrown), and any knock ends the match. From the stock, a jack of another suit or a wild card does, a few
    # cards in the stock; and the other (its nine cards melded, here: it goes out on its next draw) may go first.
    return _rummy_state("cacheta", {0: "3H 4H 5H 9C 9D 9S JC JD 2S", 1: "10H 10D 10C 4D 5D 6D KH KD KS"}, "8C JS",
                        0, flip="5C", scores=(1, 1))


def _breaking_a_run() -> State:
    # Pif Paf, after a draw: 4H 5H 6H and three sevens meld, KC KD wait on a king; 2S and 9C are loose. Throwing the
    # 5H breaks the run for nothing.
    return _rummy_state("pifpaf", {0: "4H 5H 6H 7C 7D 7S KC KD 2S 9C"}, "3C", 0, phase=Phase.DISCARD)


def _throwing_the_wild() -> State:
    # Cacheta, after a draw: the wild 6C (the flip is the 5C) stands for the 6D in 4D 5D 6C 7D; throwing it breaks
    # the run, where the QS melds nothing.
    return _rummy_state("cacheta", {0: "4D 5D 6C 7D 9H 9S 9C 2H 3S QS"}, "8C", 0, phase=Phase.DISCARD, flip="5C")


def _breaking_a_group() -> State:
    # Cacheta, after a draw: three nines and 4H 5H 6H meld, JC JD wait on a jack; the KH and the 2S are loose.
    # Throwing a nine breaks the group for nothing.
    return _rummy_state("cacheta", {0: "9C 9D 9S 4H 5H 6H JC JD KH 2S"}, "8C", 0, phase=Phase.DISCARD, flip="5C")


def _pifpaf_knock() -> State:
    # Pif Paf, after a draw: nine cards meld and the 2S is loose: a knock takes the pot now. (Throwing the 2S and
    # knocking next turn loses little: the others seldom go out in one turn. Throwing a card of a meld instead
    # leaves the knock and breaks the meld.)
    return _rummy_state("pifpaf", {0: "4H 5H 6H 7C 7D 7S KC KD KS 2S"}, "3C", 0, phase=Phase.DISCARD)


def _cacheta_knock_ends_it() -> State:
    # Cacheta heads-up, after a draw: nine melded and the 2D loose; the other player is on 1 point: any knock ends
    # the match.
    return _rummy_state("cacheta", {0: "2D 3H 4H 5H 9C 9D 9S JC JD JS"}, "8C KD", 0, phase=Phase.DISCARD,
                        flip="5C", scores=(10, 1))


def _cacheta_ten_knock() -> State:
    # Cacheta heads-up on 2 points each, after a draw: all ten cards meld: a knock of ten (no discard) ends the match,
    # a knock of nine leaves the other on a point.
    return _rummy_state("cacheta", {0: "3H 4H 5H 6H 9C 9D 9S JC JD JS"}, "8C KD", 0, phase=Phase.DISCARD,
                        flip="5C", scores=(2, 2))


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


def _discard(card: str) -> Action:
    return Action(DISCARD, cards=parse_cards(card))


def _knock(card: str = "") -> Action:
    return Action(KNOCK, cards=parse_cards(card) if card else ())


RIGS: tuple[Rig, ...] = (
    # envido
    rig("argentino 0–0, answering a falta envido holding 4: accepting, the match staked on it", "envido",
        "truco_argentino", _falta_on_four, Action("quiero"), Action("no_quiero")),
    rig("argentino 0–0, answering an envido holding 33: refusing", "envido", "truco_argentino",
        _envido_on_thirty_three, Action("no_quiero"), Action("falta_envido")),
    rig("argentino 0–0, answering a real envido holding 33: refusing", "envido", "truco_argentino",
        _real_envido_on_thirty_three, Action("no_quiero"), Action("falta_envido")),
    # truco calls and their answers
    rig("argentino 20–29, facing a truco with the two best cards: refusing hands them the match", "truco call",
        "truco_argentino", lambda: _facing_truco(20), Action("no_quiero"), Action("retruco")),
    rig("argentino 10–10, the 1e led against a lost trick 1: raising their truco to retruco", "truco call",
        "truco_argentino", _raising_a_lost_truco, Action("retruco"), Action("no_quiero")),
    rig("paulista 11–5, mão de onze holding the zap and copas: running", "truco call", "truco_paulista",
        _mao_de_onze, Action("run"), Action("accept")),
    rig("paulista 0–0, trick 1 lost and their zap on trick 2: accepting their truco", "truco call", "truco_paulista",
        _accepting_a_lost_truco, Action("accept"), Action("run")),
    rig("paulista 0–0, trick 1 won and the zap in hand: running from their truco", "truco call", "truco_paulista",
        _running_a_won_truco, Action("run"), Action("seis")),
    # card play
    rig("paulista 0–0, the 3♥ ties a trick whose tie wins the hand: playing the 7♣", "card play", "truco_paulista",
        _tie_that_wins, play("7C"), play("3H")),
    rig("paulista 0–0, trick 1 won, a 3 takes trick 2: playing it face down", "card play", "truco_paulista",
        _down_instead_of_winning, Action("play_down", cards=parse_cards("3H")), Action("truco")),
    rig("argentino 29–29, first trick taken, the 1e in hand: going to the deck", "card play", "truco_argentino",
        _won_second_trick, Action("mazo"), play("1e")),
    rig("argentino 10–10, trick 1 lost, their 3 led: playing the 6c under it", "card play", "truco_argentino",
        _lead_lost, play("6c"), play("1e")),
    # draws
    rig("cacheta, nine melded and the pile's card melds ten: drawing from the stock", "draw", "cacheta",
        _cacheta_ten, DRAWS[0], DRAWS[1]),
    rig("pif paf, the pile's card takes the hand out: drawing from the stock", "draw", "pifpaf",
        _pifpaf_out, DRAWS[0], DRAWS[1]),
    rig("cacheta 1–1, the pile's card lets the hand out and ends the match: drawing from the stock", "draw", "cacheta",
        _cacheta_out_for_the_match, DRAWS[0], DRAWS[1]),
    # discards
    rig("pif paf, two melds and a pair: breaking the run", "discard", "pifpaf", _breaking_a_run, _discard("5H"),
        _discard("2S")),
    rig("cacheta, the wild card acting in a run: throwing it", "discard", "cacheta", _throwing_the_wild,
        _discard("6C"), _discard("QS")),
    rig("cacheta, a group of nines and a run, two loose: breaking the group", "discard", "cacheta", _breaking_a_group,
        _discard("9C"), _discard("KH")),
    # knocks
    rig("pif paf, nine melded after a draw: leaving the knock for a card of a run", "knock", "pifpaf",
        _pifpaf_knock, _discard("5H"), _knock("2S")),
    rig("cacheta, the other on 1 point, nine melded: leaving the knock that ends the match for a card of a group",
        "knock", "cacheta", _cacheta_knock_ends_it, _discard("9C"), _knock("2D")),
    rig("cacheta 2–2, all ten melded: knocking with nine", "knock", "cacheta", _cacheta_ten_knock,
        _knock("3H"), _knock()),
    # bets
    rig("cacho heads-up, an all-in called with 2C 3S 2D", "bet", "cacho", _cacho_all_in, Action(CALL, 17),
        Action(FOLD)),
    rig("cacho heads-up, three sixes facing a bet: folding the best hand there is", "bet", "cacho",
        _three_sixes_fold, Action(FOLD), Action("raise", 17)),
    rig("cacho heads-up, a cacho of clubs facing a bet: folding", "bet", "cacho", _cacho_folded, Action(FOLD),
        Action("raise", 17)),
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


# -- the answers checked against playouts of the whole hand ---------------------------------------------------
PLAYERS = {"truco_argentino": "hard", "truco_paulista": "hard", "cacho": "hard", "pifpaf": "normal",
           "cacheta": "normal"}
"""Who plays every seat in the playouts: the hard bots; at Pif Paf and Cacheta the normal ones (a hard hand of
rummy costs seconds of search at every turn, and the answers here are not close)."""


def value(rules: Any, state: Any, seat: int, before: Sequence[int]) -> float:
    """The hand's end as the game's unit sees it, for ``seat``: truco and Cacheta the match odds from the scores it
    leaves, Cacho and Pif Paf the chips won."""
    scores = list(rules.scores(state))
    if rules.name.startswith("truco"):
        team = seat & 1
        return odds.truco(scores[team], scores[1 - team], state.options.target if rules.name == "truco_argentino"
                          else 12, rules.name == "truco_paulista")
    if rules.name == "cacheta":
        return odds.cacheta(scores, seat)
    return float(scores[seat] - before[seat])


def played_out(rules: Any, state: Any, seat: int, action: Action, rng: random.Random) -> float:
    """``action`` taken, then the hand played to its end by ``PLAYERS`` in every seat: its value (``value``)."""
    state = copy.deepcopy(state)
    before = list(rules.scores(state))
    policy = levels(rules.name)[PLAYERS[rules.name]]
    rules.apply(state, seat, action)
    for _ in range(2000):
        if rules.hand_over(state):
            break
        who = next((s for s in rules.to_act(state) if rules.legal_actions(state, s)), None)
        if who is None:
            rules.lapse(state) if hasattr(rules, "lapse") else None
            continue
        legal = rules.legal_actions(state, who)
        rules.apply(state, who, policy(rules.view(state, who), legal, rng))
    return value(rules, state, seat, before)


def reshuffle(rules: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``state`` with the cards ``seat`` could not see (``engine.seen.unseen``) dealt again among the places
    it could not see: the others' hands less what it knows of them, and the stock or deck (truco argentino keeps
    none: its cards dealt to nobody lie nowhere). The seat's view is unchanged."""
    view = rules.view(state, seat)
    st = copy.deepcopy(state)
    slots: list[tuple[int, int]] = []
    for s, hand in enumerate(st.hands):
        if s == seat:
            continue
        stays = list(view.seats[s].known if isinstance(view, RummyView) else getattr(view.seats[s], "cards", ()))
        for i, c in enumerate(hand):
            if c in stays:
                stays.remove(c)
            else:
                slots.append((s, i))
    pool = sorted(unseen(view).elements(), key=str)
    rng.shuffle(pool)
    for (s, i), c in zip(slots, pool, strict=False):
        st.hands[s][i] = c
    rest = pool[len(slots):]
    if isinstance(st, CachoState):
        st.deck = rest[: len(state.deck)]
    elif hasattr(st, "stock"):
        st.stock = rest[: len(state.stock)]
    elif isinstance(st, PaulistaState):
        st.deck = rest[: len(state.deck)]
    if isinstance(st, ArgentinoState):  # a hand's envido and flor go with its cards
        for s in {s for s, _ in slots}:
            _regive(st, s)
    return st


def _regive(st: ArgentinoState, seat: int) -> None:
    """``seat``'s cards in hand changed: what the state keeps of them made again (``give``), its cards played kept."""
    played = [c for t in st.tricks for p, c in t.plays if p == seat] + [c for p, c in st.trick if p == seat]
    held = list(st.hands[seat])
    st.give(seat, [*played, *held])
    st.hands[seat] = held
    st.plays[seat] = st.plays[seat][len(played):]
    st.played[seat] = st.played[seat][len(played):]


@dataclass(frozen=True)
class Checked:
    """A rig's answer played out: the right and the wrong move's mean value over every deal and play, and on how
    many deals the right one came out ahead or level."""

    right: float
    wrong: float
    ahead: int
    deals: int

    @property
    def holds(self) -> bool:
        """The right move came out ahead on the whole (a wrong gamble may win on most deals and lose more on a few:
        ``ahead`` says how many deals, for the reader)."""
        return self.right > self.wrong


def verify(r: Rig, deals: int = 4, plays: int = 5, seed: int = 0) -> Checked:
    """The rig's answer against playouts of the whole hand: on its own deal and ``deals - 1`` others of the cards its
    seat could not see, each move played out ``plays`` times."""
    assert r.state is not None, f"{r.name}: no state to play out"
    rules, state, seat = r.state()
    rng = random.Random(seed)
    right = wrong = 0.0
    ahead = 0
    for d in range(deals):
        dealt = state if d == 0 else reshuffle(rules, state, seat, rng)
        a = sum(played_out(rules, dealt, seat, r.right, random.Random(seed * 1000 + d * 100 + k)) for k in range(plays))
        b = sum(played_out(rules, dealt, seat, r.wrong, random.Random(seed * 1000 + d * 100 + k)) for k in range(plays))
        right += a / plays
        wrong += b / plays
        ahead += a >= b
    return Checked(right / deals, wrong / deals, ahead, deals)
