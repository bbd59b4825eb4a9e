"""Positions whose best play the rules decide, generated from played hands, and how the analysis judges them.

The blunder suite (``bench.analysis_rigs``) holds a few positions rigged by hand. This suite finds its own in hands
played by cheap players (``cheap``, mostly, and the easy bot; now and then a move at random, so that what they
seldom do comes up), at every game and tie rule, a seat's card swapped for one dealt to nobody where that makes a
tie (``_swapped``), and keeps those whose right and wrong moves follow from the rules and what the deciding seat can
see, whatever the cards it cannot (``decide``), by reasoning of its own: the ranks and tie rules as docs/rules.md
states them (``bench.recount``'s), never the analysis's end game or its playouts. Each family:

- **last card**: the seat's last card surely takes a trick that decides the hand (nothing unseen is as high, or no
  one of the other side is left to play): played face up, or a call before it, is right; played face down, or
  going to the deck, gives the hand away;
- **lost, facing a call**: the other side calls (or raises) with the trick that decides the hand theirs on the table
  and every card of the seat's side down: running is right; accepting or raising only gives them more, and they
  can see it (their call is added to a played hand where it was legal, the hand otherwise played on without it);
- **won, facing a call**: the other side calls (or raises) and the seat holds a card that surely takes the trick
  that decides the hand: raising is right (it can only add to the stake: the other side either runs, leaving what
  accepting gives, or accepts and loses more), or accepting where no raise is legal; running gives the hand away.
  Accepting where a raise is legal is neither: it is as good as the raise only against a side that always runs
  from it, and an opponent who cannot see the seat's card may accept (the analysis may rightly call it a mistake);
- **tie** (one family for each tie rule: truco paulista's, and truco argentino's ``play_on`` and ``first_trick``):
  the seat is last to play in a trick the other side's card holds (not tied already), a card of the seat's ties it,
  and the tie gives its side the hand by the table's tie rule, where a card below gives the other side the hand: the
  tying card (or one above) is right.

At the other games the rules decide less: the cards a seat cannot see, and what the others will do, leave most
choices to judgement. Three positions are decided all the same (``found_other``):

- **three sixes (Cacho)**: a seat holding three sixes in the last round (a hand no other can beat: the pack holds
  four sixes) is dealt them in a hand played by the bots, its own cards given to where the sixes were: folding is
  wrong (it gives up what it put in, where any other move takes the pot); calling is right where no bet or raise is
  legal (else checking, calling and every raise are each as good as the others' answers make them: none is wrong);
- **going out (Pif Paf)**: a seat that can knock (or claim a discard it can knock with): the knock takes every pot
  it is in, the most the hand can give, so it is right; nothing else is wrong for sure (the seat may go out later);
- **the knock that wins the match (Cacheta)**: tables of one point each, where any knock takes every other player
  out: knocking (or cutting the line with a discard it can knock with) wins the match, so it is right.

What is counted (``Tally.admit``): a truco position only where the exact end game (``engine.truco.endgame``, the
analysis's own, so this is the rules' reading checked against it, not the other way round) solves it on every deal
of the cards the seat cannot see and finds each right move the best and each wrong move below a right one on every
deal: where it does not, the position is left out and named (a disagreement to look into), and where there are too
many deals to list, left out and counted. And no two positions alike: one a family a hand, and two truco positions
that differ only by suits or seat numbers (``likeness``) are one. The hands are those of a match of each table
played on hand after hand (``Tables``), so that positions come at every score.

A move is wrong only where it leaves the seat's side worse off in the unit that decides the game, the match odds
by the score (a run that gives away the match point anyway is no worse than accepting). The marks (``run``):
no right move flagged, at least 95% of the wrong moves flagged a mistake or worse, each family with at least
``MARK_POSITIONS`` positions (``make bench --only decided``).
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.analysis_rigs import _regive
from bench.recount import ARGENTINO_DECK, ARGENTINO_RANK, PAULISTA_DECK, PAULISTA_RANK, hand_won, trick_result
from cardtui.engine import analysis
from cardtui.engine.analysis import FLAGGED, SERIOUS, Position
from cardtui.engine.bots import odds
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.games import get
from cardtui.engine.records import GameView
from cardtui.engine.truco import endgame
from cardtui.engine.truco.envido import envido as envido_score
from cardtui.engine.truco.flor import flor_value
from cardtui.engine.truco.tricks import TieRule
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

LAST, LOST, WON = "last card", "lost, facing a call", "won, facing a call"
TIES: Mapping[object, str] = {"paulista": "tie (paulista)", TieRule.LAST_TAKES_ALL: "tie (play on)",
                               TieRule.FIRST_DECIDED: "tie (first trick)"}
NUTS, OUT, ENDS = "three sixes (Cacho)", "going out (Pif Paf)", "the knock that wins the match (Cacheta)"
FAMILIES = (LAST, LOST, WON, *TIES.values())
"""The truco families."""
OTHERS = (NUTS, OUT, ENDS)
"""The other games' families."""
CALLS = frozenset({"truco", "retruco", "vale_cuatro", "seis", "nove", "doze"})
RUNS = frozenset({"run", "no_quiero", "mazo"})
ACCEPTS = frozenset({"accept", "quiero"})
OPTION_SETS: tuple[tuple[str, Mapping[str, Any], int], ...] = (
    ("truco_paulista", {}, 4),
    ("truco_paulista", {"truco_decides": "hand"}, 4),
    ("truco_argentino", {}, 2),
    ("truco_argentino", {"ties": "first_trick"}, 2),
    ("truco_argentino", {}, 4),
    ("truco_argentino", {"ties": "first_trick", "target": 15}, 4),
    ("truco_argentino", {"pica_pica": False}, 6),
)
"""Both trucos, each tie rule, two, four and six players."""
OTHER_SETS: tuple[tuple[str, Mapping[str, Any], int, str], ...] = (
    ("cacho", {}, 3, NUTS),
    ("cacho", {}, 4, NUTS),
    ("pifpaf", {}, 3, OUT),
    ("cacheta", {"start_points": 1}, 2, ENDS),
    ("cacheta", {"start_points": 1}, 3, ENDS),
)
"""The other games' tables, each with the family it gives."""
RANDOM = 0.2
"""The share of moves made at random among the legal ones."""
MARK_POSITIONS = 300
"""Positions each family must hold for its marks to count."""
MARK_WRONG = 0.95
"""The share of wrong moves flagged a mistake or worse."""


@dataclass(frozen=True)
class Decided:
    """A decision whose right and wrong moves the rules decide, with where it came from."""

    family: str
    view: GameView
    legal: tuple[Action, ...]
    seat: int
    right: tuple[Action, ...]
    wrong: tuple[Action, ...]
    where: str
    source: str = ""
    """The hand it came from (its table, seed and number): one position a family a hand is judged."""

    def position(self, chosen: Action) -> Position:
        return Position(1, self.seat, self.view, self.legal, chosen)


# -- what the seat can see, by the rules ----------------------------------------------------------------------
class Seen:
    """One truco seat's decision, read from its view by docs/rules.md: the ranks, the tricks and the tie rule."""

    def __init__(self, view: TrucoView) -> None:
        self.view = view
        self.paulista = view.rules is TrucoRules.PAULISTA
        self.rank = PAULISTA_RANK if self.paulista else ARGENTINO_RANK
        self.you = view.you if view.you is not None else 0
        self.team = self.you % 2
        part = view.argentino
        self.first_decided = self.paulista or (part is not None and part.ties is TieRule.FIRST_DECIDED)
        self.mano_team = (view.paulista.mao if view.paulista is not None else part.mano if part is not None else 0) % 2
        self.results = [self._team(trick_result(self._plays(t.plays))[0]) for t in view.tricks]
        self.table = self._plays(view.trick)
        self.played = {s for s, _ in self.table}
        players = part.players if part is not None else tuple(range(len(view.seats)))
        self.still = [s for s in players if s not in self.played and view.seats[s].card_count > 0
                      and not view.seats[s].gone]
        """Seats still to play to this trick (the seat itself among them if it has not played)."""
        self.unseen = self._unseen()

    def _plays(self, plays: Sequence[Any]) -> list[tuple[int, int]]:
        return [(p.seat, -1 if p.card is None or p.face_down or p.void else self.rank[p.card]) for p in plays]

    @staticmethod
    def _team(seat: int | None) -> int | None:
        return None if seat is None else seat % 2

    def _unseen(self) -> list[int]:
        """The strengths of the cards the seat has not seen: the deck less its own, every card face up this hand,
        the cards rejected or passed (paulista), shown or played in an earlier duel (argentino), a partner's it
        sees."""
        v = self.view
        seen: set[Card] = set(v.cards)
        for plays in (*(t.plays for t in v.tricks), v.trick):
            seen.update(p.card for p in plays if p.card is not None)
        for s in v.seats:
            seen.update(s.cards)
        if v.paulista is not None:
            seen.update(v.paulista.rejected)
            seen.update(v.paulista.passed_cards)
        if v.argentino is not None:
            seen.update(v.argentino.earlier)
            for shown in v.argentino.shown:
                seen.update(shown.cards)
        deck = PAULISTA_DECK if self.paulista else ARGENTINO_DECK
        return [self.rank[c] for c in deck if c not in seen]

    def decides(self) -> bool:
        """Whether whoever takes the trick in play takes the hand (an accepted truco under ``truco_decides = trick``,
        or the tricks so far)."""
        if self.view.paulista is not None and self.view.paulista.trick_decides:
            return True
        return (hand_won([*self.results, self.team], self.mano_team, self.first_decided) == self.team
                and hand_won([*self.results, 1 - self.team], self.mano_team, self.first_decided) == 1 - self.team)

    def standing(self, plays: Sequence[tuple[int, int]]) -> int | None:
        """The side the trick goes to with ``plays`` down, a tie as the table's rule settles the hand by it (None:
        a tie that decides nothing yet, or no card that can win)."""
        winner, first = trick_result(plays)
        if winner is not None:
            return winner % 2
        if first is None:
            return None
        return hand_won([*self.results, None], self.mano_team, self.first_decided)

    def takes(self, card: Card) -> bool:
        """Whether ``card``, played now, surely takes the trick: above every card down, and no one of the other side
        still to play, or no card unseen as high."""
        v = self.rank[card]
        if any(x >= v for _, x in self.table):
            return False
        others = [s for s in self.still if s % 2 != self.team and s != self.you]
        return not others or not any(x >= v for x in self.unseen)

    def odds(self, ours: int, theirs: int) -> float:
        """The match odds of the seat's side with ``ours`` and ``theirs`` more points (this round's envido in)."""
        v = self.view
        won = v.argentino.points if v.argentino is not None else (0, 0)
        return odds.truco(v.scores[self.team] + won[self.team] + ours, v.scores[1 - self.team] + won[1 - self.team]
                          + theirs, v.target, self.paulista)


def decide(view: TrucoView, legal: Sequence[Action]) -> tuple[str, tuple[Action, ...], tuple[Action, ...]] | None:
    """The family of ``view``'s decision and its right and wrong moves, where the rules decide them; else None."""
    if view.you is None or view.hand_over or (view.paulista is not None and (
            view.paulista.phase is not PaulistaPhase.PLAY or view.paulista.ferro)):
        return None
    moves = [a for a in legal if a.type != "signal"]
    seen = Seen(view)
    pending = view.pending
    if pending is not None and pending.bet.value == "truco" and pending.team != seen.team:
        return _facing(seen, moves, pending.value, pending.refused)
    if pending is not None or view.turn != view.you:
        return None
    if len(view.cards) == 1:
        return _last(seen, moves) or _tie(seen, moves)
    return _tie(seen, moves)


def _split(moves: Sequence[Action], right: Callable[[Action], bool], worse: Callable[[Action], bool]
           ) -> tuple[tuple[Action, ...], tuple[Action, ...]] | None:
    r = tuple(a for a in moves if right(a))
    w = tuple(a for a in moves if worse(a))
    return (r, w) if r and w else None


def _facing(seen: Seen, moves: Sequence[Action], value: int, refused: int
            ) -> tuple[str, tuple[Action, ...], tuple[Action, ...]] | None:
    """A call of the other side to answer, in a hand the seat's side has surely lost (the other side's card holds a
    trick that gives it the hand, and every player of the seat's side has played to it: the other side sees it too)
    or surely won (the seat holds a card that surely takes a trick that gives its side the hand, or its side's card
    holds such a trick with no one of the other side left to play)."""
    v = seen.view
    them = 1 - seen.team
    if v.paulista is not None and (v.paulista.trick_decides or v.paulista.call_decides):
        gives = {seen.team: True, them: True}  # accepted, the trick in play decides the hand
    else:
        gives = {t: hand_won([*seen.results, t], seen.mano_team, seen.first_decided) == t for t in (seen.team, them)}
    ours_to_play = [s for s in seen.still if s % 2 == seen.team]
    theirs_to_play = [s for s in seen.still if s % 2 == them]
    holds = seen.standing(seen.table) if seen.table else None
    if gives[them] and holds == them and not ours_to_play:
        run, accept = seen.odds(0, refused), seen.odds(0, value)
        split = _split(moves, lambda a: a.type in RUNS, lambda a: (a.type in ACCEPTS or a.type in CALLS) and (
            seen.odds(0, _raised(v, value)) if a.type in CALLS else accept) < run)
        return (LOST, *split) if split else None
    takes = seen.you in seen.still and any(seen.takes(c) for c in v.cards)
    won = takes or (holds == seen.team and not theirs_to_play)
    if gives[seen.team] and won:
        accept, run = seen.odds(value, 0), seen.odds(0, refused)
        raises = any(a.type in CALLS for a in moves)
        split = _split(moves, lambda a: a.type in CALLS or (a.type in ACCEPTS and not raises),
                       lambda a: a.type in RUNS and run < accept)
        return (WON, *split) if split else None
    return None


def _raised(view: TrucoView, value: int) -> int:
    """What the raise over a call worth ``value`` is worth."""
    ladder = [st.value for st in view.ladder]
    higher = [x for x in ladder if x > value]
    return higher[0] if higher else value


def _alone(seen: Seen) -> bool:
    """Whether no partner of the seat still has a card to play this hand (what the seat does, its side does)."""
    return not any(s.seat % 2 == seen.team and s.seat != seen.you and s.card_count > 0 for s in seen.view.seats)


def _last(seen: Seen, moves: Sequence[Action]) -> tuple[str, tuple[Action, ...], tuple[Action, ...]] | None:
    """The seat's last card, which surely takes a trick that decides the hand, where a card face down (or the deck)
    surely loses it: the other side's card holds the trick, and no partner is left to play."""
    card = seen.view.cards[0]
    if not seen.decides() or not seen.takes(card) or not _alone(seen):
        return None
    if seen.standing([*seen.table, (seen.you, -1)]) != 1 - seen.team:
        return None
    stake = seen.view.stake
    if not seen.odds(0, stake) < seen.odds(stake, 0):
        return None
    split = _split(moves, lambda a: a.type == "play" or a.type in CALLS, lambda a: a.type in ("play_down", "mazo"))
    return (LAST, *split) if split else None


def _tie(seen: Seen, moves: Sequence[Action]) -> tuple[str, tuple[Action, ...], tuple[Action, ...]] | None:
    """The last card of a trick, one that ties it where the tie gives the seat's side the hand, beside one below it
    that gives the other side the hand."""
    v = seen.view
    if seen.still != [seen.you] or not seen.table:
        return None
    top = max(x for _, x in seen.table)
    holder = trick_result(seen.table)[0]
    if holder is None or holder % 2 == seen.team or not any(seen.rank[c] == top for c in v.cards):
        return None  # (a tie already down leaves a card below it as good as the tying one)
    if seen.standing([*seen.table, (seen.you, top)]) != seen.team:
        return None
    if hand_won([*seen.results, 1 - seen.team], seen.mano_team, seen.first_decided) != 1 - seen.team:
        return None
    stake = v.stake
    if not seen.odds(0, stake) < seen.odds(stake, 0):
        return None
    rule = "paulista" if v.argentino is None else v.argentino.ties

    def below(a: Action) -> bool:
        return (a.type == "play" and seen.rank[a.cards[0]] < top) or a.type == "play_down" or (
            a.type == "mazo" and _alone(seen))

    split = _split(moves, lambda a: a.type == "play" and seen.rank[a.cards[0]] >= top, below)
    return (TIES[rule], *split) if split else None


# -- from played hands ------------------------------------------------------------------------------------------
def families(game: str, options: Mapping[str, Any]) -> frozenset[str]:
    """The families a table of ``game`` with ``options`` can give: every one but the ties of the other rules."""
    rules: Mapping[str, object] = {"play_on": TieRule.LAST_TAKES_ALL, "first_trick": TieRule.FIRST_DECIDED}
    rule = "paulista" if game == "truco_paulista" else rules[str(options.get("ties", "play_on"))]
    return frozenset({LAST, LOST, WON, TIES[rule]})


CARDS = "cards"
"""The cheapest player of all (``cheap``): a card at random, a call now and then, every call accepted."""
LEVELS = (CARDS, CARDS, "easy")
"""Who plays the truco hands, a seat's drawn at each match's start: mostly the cheap player (the rare positions, a
tie above all, want hands that reach their last trick, many of them, not good play), and the easy bot, so that the
hands look like play too; a move at random now and then brings what neither would do."""
OTHER_LEVELS = ("easy",)
"""Who plays the other games' hands: the easy bot."""
CALL_NOW = 0.15
"""How often the cheap player calls (or raises) where it may: the stakes vary."""


def cheap(legal: Sequence[Action], rng: random.Random) -> Action:
    """The cheap player's move: a call accepted (or now and then raised), now and then a call of its own, else a
    card face up at random (or whatever else the rules ask for: a deal's choice, an envido's answer)."""
    moves = [a for a in legal if a.type != "signal"] or list(legal)
    calls = [a for a in moves if a.type in CALLS]
    if calls and rng.random() < CALL_NOW:
        return calls[0]
    accepts = [a for a in moves if a.type in ACCEPTS]
    if accepts:
        return accepts[0]
    plays = [a for a in moves if a.type == "play"]
    return rng.choice(plays or moves)


class Tables:
    """A match of each table kind, each played on hand after hand (a new match where one ends), so that hands come at
    every score; each seat's bot drawn from ``levels`` at each match's start."""

    def __init__(self, rng: random.Random, levels: Sequence[str]) -> None:
        self.rng, self.levels = rng, levels
        self.matches: dict[int, tuple[Any, list[str]]] = {}

    def hand(self, kind: int, game: str, options: Mapping[str, Any], players: int) -> tuple[Any, list[str]]:
        """The match of table ``kind`` with a hand to play, and its seats' bots."""
        rules = get(game)
        held = self.matches.get(kind)
        if held is not None and held[0].hand_over() and not held[0].match_over():
            held[0].next_hand(self.rng.getrandbits(63))
            return held
        names = [f"p{i}" for i in range(players)]
        match, _ = rules.open(dict(options), rules.seat_infos(names), self.rng.getrandbits(32))
        held = self.matches[kind] = (match, [self.rng.choice(self.levels) for _ in range(players)])
        return held


def found(seed: int = 0, sets: Sequence[tuple[str, Mapping[str, Any], int]] = OPTION_SETS,
          wanted: Callable[[], frozenset[str]] = lambda: frozenset(FAMILIES), until: float = math.inf,
          levels: Sequence[str] = LEVELS) -> Iterator[Decided]:
    """Every decided decision met in hands played by the bots of ``levels`` (a move at random now and then), set
    after set, hand after hand of a match of each; where a seat may call into a trick that may decide the hand, also
    its call added (the hand then played on without it), for the other side's answer (``_may_decide``); and a tie's
    card swapped in where one would make a tie (``_swapped``). ``wanted``: the families still wanted (a table that
    can give none of them is not played); none wanted, or past ``until`` (``time.perf_counter``'s), the search
    ends."""
    rng = random.Random(seed)
    tables = Tables(rng, levels)
    hand = 0
    while wanted() and time.perf_counter() < until:
        for kind, (game, options, players) in enumerate(sets):
            need = wanted() & families(game, options)
            if not need:
                continue
            match, bots = tables.hand(kind, game, options, players)
            hand += 1
            where = f"{game} {players}p {dict(options) or 'defaults'}, seed {seed}, hand {hand}"
            for _ in range(400):
                if match.hand_over():
                    break
                seat = next((s for s in match.to_act() if match.legal_actions(s)), None)
                if seat is None:
                    break
                legal = match.legal_actions(seat)
                view = match.view(seat)
                yield from _judged(match, seat, legal, where, where, view)
                if need & set(TIES.values()):
                    yield from _swapped(match, seat, where, view)
                calls = [a for a in legal if a.type in CALLS]
                if calls and need & {LOST, WON} and _may_decide(view):
                    called = copy.deepcopy(match)
                    called.apply(seat, calls[0])
                    answer = next((s for s in called.to_act() if called.legal_actions(s) and s % 2 != seat % 2), None)
                    if answer is not None:
                        yield from _judged(called, answer, called.legal_actions(answer), f"{where}, a call added",
                                           where)
                moves = [a for a in legal if a.type != "signal"] or legal
                action = (rng.choice(moves) if rng.random() < RANDOM else cheap(legal, rng) if bots[seat] == CARDS
                          else match.bot_action(seat, rng, bots[seat]))
                match.apply(seat, action)


def _may_decide(view: GameView) -> bool:
    """Whether a call by ``view``'s seat may leave the other side facing a hand it has surely lost or won: the trick
    in play gives the hand to whichever side takes it (``decide`` then tells)."""
    if not isinstance(view, TrucoView) or view.you is None:
        return False
    if view.paulista is not None and view.paulista.trick_decides:
        return True
    if view.paulista is not None and view.paulista.call_decides:
        return True
    seen = Seen(view)
    return any(hand_won([*seen.results, t], seen.mano_team, seen.first_decided) == t for t in (0, 1))


def _swapped(match: Any, seat: int, where: str, view: GameView) -> Iterator[Decided]:
    """Where ``seat`` is last to play to a trick held by the other side and holds no card of its rank: one of its
    cards (the lowest that can be) swapped for a card of that rank dealt to nobody, then the decision judged (a tie's
    family is rare in play). Never where a flor was sung, nor where the swap would give the seat a flor, nor change
    the envido it announced (or showed), which the seat's cards dealt must agree with (the others' announcements say
    nothing of the seat's cards, and the analysis reads the seat's own hand from the cards)."""
    if not isinstance(view, TrucoView) or view.turn != seat or view.pending is not None or not view.cards:
        return
    seen = Seen(view)
    if seen.still != [seat] or not seen.table:
        return
    top = max(x for _, x in seen.table)
    holder = trick_result(seen.table)[0]
    if holder is None or holder % 2 == seen.team or any(seen.rank[c] == top for c in view.cards):
        return
    part = view.argentino
    if part is not None and (part.flor_sung or part.flor_calls or any(s.seat == seat for s in part.shown)):
        return
    announced = part is not None and view.seats[seat].envido is not None
    if part is None:
        spare = [c for c in match.state.deck if PAULISTA_RANK[c] == top]
    else:
        dealt = {c for cards in match.state.dealt for c in cards}
        spare = [c for c in ARGENTINO_DECK if ARGENTINO_RANK[c] == top and c not in dealt]
    st = match.state
    for old in sorted(view.cards, key=lambda c: seen.rank[c]):
        for new in spare:
            if part is not None:
                dealt = [new if c == old else c for c in st.dealt[seat]]
                if (st.options.flor and flor_value(dealt) >= 0) or (
                        announced and envido_score(dealt, st.options.envido_unsuited)[0] != st.env[seat]):
                    continue  # a flor the round would have had to sing, or another envido than it announced
            state = copy.deepcopy(st)
            state.hands[seat][state.hands[seat].index(old)] = new
            if part is None:
                state.deck[state.deck.index(new)] = old
            else:
                _regive(state, seat)
            swapped = copy.copy(match)
            swapped.state = state
            yield from (d for d in _judged(swapped, seat, swapped.legal_actions(seat),
                                           f"{where}, the {old} swapped for the {new}, dealt to nobody", where)
                        if d.family in TIES.values())
            return


def _judged(match: Any, seat: int, legal: list[Action], where: str, source: str, view: GameView | None = None
            ) -> Iterator[Decided]:
    view = match.view(seat) if view is None else view
    if not isinstance(view, TrucoView):
        return
    said = decide(view, legal)
    if said is not None:
        family, right, wrong = said
        yield Decided(family, view, tuple(legal), seat, right, wrong, where, source)


# -- the other games ----------------------------------------------------------------------------------------
def found_other(seed: int = 0, sets: Sequence[tuple[str, Mapping[str, Any], int, str]] = OTHER_SETS,
                wanted: Callable[[], frozenset[str]] = lambda: frozenset(OTHERS), until: float = math.inf,
                levels: Sequence[str] = OTHER_LEVELS) -> Iterator[Decided]:
    """The decided positions of Cacho, Pif Paf and Cacheta (see the module) met in hands played by the bots of
    ``levels`` (a move at random now and then), table after table, hand after hand of a match of each; none wanted,
    or past ``until``, the search ends."""
    rng = random.Random(seed)
    tables = Tables(rng, levels)
    hand = 0
    while wanted() and time.perf_counter() < until:
        for kind, (game, options, players, family) in enumerate(sets):
            if family not in wanted():
                continue
            match, bots = tables.hand(kind, game, options, players)
            hand += 1
            where = f"{game} {players}p {dict(options) or 'defaults'}, seed {seed}, hand {hand}"
            for _ in range(600):
                if match.hand_over():
                    break
                seats = [s for s in match.to_act() if match.legal_actions(s)]
                if not seats:
                    break
                for seat in seats:
                    yield from (_nuts(match, seat, where) if family == NUTS else _going_out(match, seat, family, where))
                seat = seats[0]
                legal = match.legal_actions(seat)
                moves = [a for a in legal if a.type != "signal"] or legal
                action = rng.choice(moves) if rng.random() < RANDOM else match.bot_action(seat, rng, bots[seat])
                match.apply(seat, action)


def _nuts(match: Any, seat: int, where: str) -> Iterator[Decided]:
    """Cacho's last round, ``seat`` to bet: dealt three sixes (its own cards put where the sixes were), folding is
    wrong, and a call is right where it is the one other move."""
    state = match.state
    if getattr(state, "round", 0) != 3 or seat not in match.to_act():
        return
    rigged = copy.deepcopy(match)
    hands, deck = rigged.state.hands, rigged.state.deck
    mine = hands[seat]
    for c in [c for c in mine if c.rank != 6]:
        six = next(x for x in (*deck, *(x for h in hands for x in h)) if x.rank == 6 and x not in mine)
        place = deck if six in deck else next(h for h in hands if six in h)
        place[place.index(six)] = c
        mine[mine.index(c)] = six
    legal = rigged.legal_actions(seat)
    wrong = tuple(a for a in legal if a.type == "fold")
    others = [a for a in legal if a.type != "fold"]
    right = tuple(others) if len(others) == 1 else ()
    if wrong:
        yield Decided(NUTS, rigged.view(seat), tuple(legal), seat, right, wrong, f"{where}, dealt three sixes", where)


def _going_out(match: Any, seat: int, family: str, where: str) -> Iterator[Decided]:
    """A rummy seat that can knock, or take the discard out of turn and knock: the knock is right."""
    legal = match.legal_actions(seat)
    right = [a for a in legal if a.type == "knock"]
    for a in legal:
        if a.type in ("claim", "cut"):
            took = copy.deepcopy(match)
            took.apply(seat, a)
            if any(b.type == "knock" for b in took.legal_actions(seat)):
                right.append(a)
    if right and len(legal) > len(right):
        yield Decided(family, match.view(seat), tuple(legal), seat, tuple(right), (), where, where)


# -- what is counted -----------------------------------------------------------------------------------------
def confirmed(d: Decided) -> str | None:
    """Why the exact end game (``engine.truco.endgame``) does not bear out a truco position's right and wrong moves,
    or None where it does: solved on every deal of the cards the seat cannot see, each right move's value is the best
    and each wrong move's below a right one's on every deal. The other games' positions are decided by how they are
    made (None)."""
    if d.family not in FAMILIES:
        return None
    assert isinstance(d.view, TrucoView)
    solution = endgame.solve(d.view, d.legal)
    if solution is None:
        return "beyond the end game's reach"
    groups = solution.groups

    def values(a: Action) -> list[float]:
        j = next(j for j, group in enumerate(groups) if any(analysis.same(a, b) for b in group))
        return [low for low, _ in solution.ranges[j]]

    right = solution.right()
    if not all(any(analysis.same(a, b) for b in right) for a in d.right):
        return "a right move is not the best on every deal"
    best = [max(vs) for vs in zip(*(values(a) for a in d.right), strict=True)]
    for a in d.wrong:
        if not all(w < b - endgame.EPSILON for w, b in zip(values(a), best, strict=True)):
            return f"{a.describe()} is not below a right move on every deal"
    return None


def likeness(d: Decided) -> tuple[object, ...]:
    """What makes two positions one for the suite: a truco position's family and table, the strengths of the seat's
    cards and of every card down (seats counted from the seat), the tricks' winners, the call it faces, the stake and
    the score (two positions alike in these but for suits or seat numbers are solved alike); another game's, its
    hand (``source``)."""
    v = d.view
    if not isinstance(v, TrucoView) or d.family not in FAMILIES:
        return (d.family, d.source)
    rank = PAULISTA_RANK if v.rules is TrucoRules.PAULISTA else ARGENTINO_RANK
    n = len(v.seats)

    def plays(ps: Sequence[Any]) -> tuple[tuple[int, int], ...]:
        return tuple(((p.seat - d.seat) % n, -1 if p.card is None or p.face_down or p.void else rank[p.card])
                     for p in ps)

    team = d.seat % 2
    return (d.family, d.where.split(",")[0], tuple(sorted(rank[c] for c in v.cards)),
            tuple(plays(t.plays) for t in v.tricks), plays(v.trick),
            None if v.pending is None else (v.pending.value, v.pending.refused), v.stake,
            v.scores[team], v.scores[1 - team], None if v.argentino is None else v.argentino.points[team])


# -- the marks ---------------------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Each family's positions, right moves flagged, and wrong moves flagged a mistake or worse."""

    positions: Counter[str] = field(default_factory=Counter)
    rights: Counter[str] = field(default_factory=Counter)
    right_flagged: Counter[str] = field(default_factory=Counter)
    wrongs: Counter[str] = field(default_factory=Counter)
    wrong_flagged: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)
    seconds: float = 0.0
    twins: Counter[str] = field(default_factory=Counter)
    """Positions left out as one already counted (``likeness``), or a second of its family from one hand."""
    unsolved: Counter[str] = field(default_factory=Counter)
    """Truco positions left out where the end game lists too many deals to solve them."""
    disputed: list[str] = field(default_factory=list)
    """Truco positions left out where the end game does not bear the rules' reading out (``confirmed``)."""
    taken: set[tuple[object, ...]] = field(default_factory=set)

    def admit(self, d: Decided) -> bool:
        """Whether ``d`` is counted: no position like it nor of its family from its hand counted yet, and (truco)
        borne out by the end game. Whatever is left out is counted by why."""
        alike, hand = likeness(d), (d.family, d.source)
        if alike in self.taken or hand in self.taken:
            self.twins[d.family] += 1
            return False
        why = confirmed(d)
        if why is not None:
            if why.startswith("beyond"):
                self.unsolved[d.family] += 1
            else:
                self.disputed.append(f"[{d.family}] {d.where}: {why}")
            return False
        self.taken |= {alike, hand}
        return True


def judge(d: Decided, tally: Tally, seed: int = 1) -> None:
    """The analysis of ``d`` with each right and each wrong move chosen in turn."""
    start = time.process_time()
    tally.positions[d.family] += 1
    for move in d.right:
        m = analysis.analyse_position(d.position(move), seed)
        tally.rights[d.family] += 1
        if m.label in FLAGGED:
            tally.right_flagged[d.family] += 1
            tally.misses.append(f"right flagged [{d.family}] {d.where}: {move.describe()} {m.label}, best "
                                f"{m.best.describe()}")
    for move in d.wrong:
        m = analysis.analyse_position(d.position(move), seed)
        tally.wrongs[d.family] += 1
        if m.label in SERIOUS:
            tally.wrong_flagged[d.family] += 1
        else:
            tally.misses.append(f"wrong not flagged [{d.family}] {d.where}: {move.describe()} {m.label}, best "
                                f"{m.best.describe()}")
    tally.seconds += time.process_time() - start


PROGRESS = 120.0
"""Seconds between two lines of a run's progress."""


def _in_turn(*sources: Iterator[Decided]) -> Iterator[Decided]:
    """The positions of each source in turn, one at a time, until every source is done."""
    live = list(sources)
    while live:
        for source in list(live):
            d = next(source, None)
            if d is None:
                live.remove(source)
            else:
                yield d


def run(print: Callable[[str], None], quick: bool = False, seconds: float = 3600.0, per_family: int = 0,
        families: Sequence[str] = (*FAMILIES, *OTHERS), judging: bool = True) -> bool:
    """Positions of each of ``families``, up to ``per_family`` each (``MARK_POSITIONS`` by default; a tenth with
    ``quick``), each counted once and (truco) only where the end game bears it out (``Tally.admit``), or until
    ``seconds`` (the truco families and the other games' in turn); each judged; the marks printed. A family with no
    right move (or no wrong one) has no mark of that kind. ``judging`` False: the positions found and counted,
    none judged (what finding them costs)."""
    want = per_family or (MARK_POSITIONS // 10 if quick else MARK_POSITIONS)
    tally = Tally()
    start, cpu = time.perf_counter(), time.process_time()
    print(f"-- positions the rules decide, from played hands: up to {want} of each family (truco: each borne out by "
          "the exact end game; no two alike), every right and wrong move judged by the analysis")

    def wanted(among: Sequence[str]) -> frozenset[str]:
        return frozenset(f for f in among if f in families and tally.positions[f] < want)

    told = start
    for d in _in_turn(found(wanted=lambda: wanted(FAMILIES), until=start + seconds),
                      found_other(wanted=lambda: wanted(OTHERS), until=start + seconds)):
        if tally.positions[d.family] < want and tally.admit(d):
            if judging:
                judge(d, tally)
            else:
                tally.positions[d.family] += 1
        if time.perf_counter() - told > PROGRESS:
            told = time.perf_counter()
            print(f"  after {told - start:.0f} s: " + "; ".join(
                f"{f} {tally.positions[f]} ({tally.right_flagged[f]} right flagged, {tally.wrong_flagged[f]} of "
                f"{tally.wrongs[f]} wrong)" for f in families))
    met = True
    for f in families:
        n = tally.positions[f]
        wrong = tally.wrong_flagged[f] / max(1, tally.wrongs[f])
        ok = (n >= (want if quick else MARK_POSITIONS) and tally.right_flagged[f] == 0
              and (not tally.wrongs[f] or wrong >= MARK_WRONG))
        met &= ok
        if not judging:
            print(f"  {f}: {n} positions found, none judged")
            continue
        wrongs = (f"wrong moves flagged a mistake or worse {tally.wrong_flagged[f]} of {tally.wrongs[f]} "
                  f"({100 * wrong:.1f}%, mark ≥ {100 * MARK_WRONG:.0f}%)" if tally.wrongs[f] else "no wrong move")
        print(f"  {f}: {n} positions; right moves flagged {tally.right_flagged[f]} of {tally.rights[f]} (mark 0); "
              + wrongs + ("" if ok else ": NOT met"))
    print(f"  left out: alike to one counted (or a second of its family from one hand) {sum(tally.twins.values())}"
          f" ({', '.join(f'{f} {n}' for f, n in tally.twins.most_common())}); beyond the end game's reach "
          f"{sum(tally.unsolved.values())} ({', '.join(f'{f} {n}' for f, n in tally.unsolved.most_common())}); "
          f"not borne out by the end game {len(tally.disputed)}")
    for miss in [*tally.disputed[:10], *tally.misses[:20]]:
        print("  " + miss)
    decisions = sum(tally.rights.values()) + sum(tally.wrongs.values())
    print(f"  {sum(tally.positions.values())} positions, {decisions} moves judged in "
          f"{time.perf_counter() - start:.0f} s, {time.process_time() - cpu:.0f} s of CPU "
          f"({tally.seconds / max(1, decisions):.3f} s of it a move judged)"
          + ("" if met else ": NOT all met"))
    return met and judging
