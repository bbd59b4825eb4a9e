"""Truco players of five styles, written from how other people's bots and strong players play.

Each style reads its hand the same way (``Reading``: the chance, counted from the unseen cards, that
its team takes the hand, or the trick that decides it) and differs only in what it does with that
chance, as its source plays:

- ``tight``: calls and accepts only with the best hands, never bluffs (the conservative persona of
  MiniTruco's Gasparotto strategy; a "rock" in poker's words). Rejects weak deals at paulista.
- ``loose``: accepts nearly every call and answers envido from low numbers, calls seldom (a
  "calling station"; CTruco's passive responders).
- ``caller``: calls truco as soon as its hand is good and raises the good ones, envido from 26
  (CTruco's aggressive callers, MiniTruco's aggressive persona).
- ``bluffer``: calls truco and envido on nothing a fixed share of the time, answers by coin weighted
  by its hand (CTruco's "sneaky" caller and responder).
- ``score``: plays by the score (MiniTruco's ``partidaGanha``, CTruco's callers that open up when
  far behind): tight while ahead, loose and bluffing when far behind, accepts whatever a refusal
  would lose the match by, and bets falta envido when behind with a good envido.

Cards are played as those bots play them: the middle card to open the first trick, the lowest card
that takes a trick (or the lowest card when it cannot, or when a partner already holds it), a tie
that wins the hand, the best card into a trick that decides the hand. None gives signals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardtui.engine.bots.baselines import Policy, first
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, GameView
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.paulista.rules import DECK as PAU_DECK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.signals import SIGNAL
from cardtui.engine.truco.tricks import TieRule, hand_winner
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

TRUCO_CALLS = ("truco", "retruco", "vale_cuatro", "seis", "nove", "doze")
ENVIDOS = ("envido", "real_envido", "falta_envido")
PARTNER_TRICK = 0.3
"""The chance a partner's unseen card takes a trick, added to one's own (a partner holds three random cards)."""


@dataclass(frozen=True, slots=True)
class Style:
    """What a style does with the chance its team takes the hand (``p``) and with its envido."""

    call: float
    """Calls truco at or above this ``p``."""
    accept: float
    """Accepts a call at or above this ``p``."""
    raise_: float
    """Raises (answering, or on its turn once it may) at or above this ``p``."""
    envido: int
    """Calls envido from this many points (real envido from three more, falta from six more)."""
    envido_accept: int
    """Accepts an envido from this many points (two more for each raise before it)."""
    bluff: float = 0.0
    """How often it calls truco, or envido, on a hand far below its line."""
    coin: bool = False
    """Answers by a coin weighted by ``p`` rather than by a line."""
    by_score: bool = False
    """Plays tighter ahead, looser and bluffing far behind (the ``score`` style)."""
    keep: int = 0
    """Truco paulista's deal: keeps a hand whose two best cards add up to this strength (0: keeps every deal)."""


STYLES: dict[str, Style] = {
    "tight": Style(call=0.82, accept=0.62, raise_=0.93, envido=30, envido_accept=29, keep=17),
    "loose": Style(call=0.75, accept=0.30, raise_=0.90, envido=27, envido_accept=22),
    "caller": Style(call=0.55, accept=0.45, raise_=0.72, envido=26, envido_accept=26, keep=13),
    "bluffer": Style(call=0.65, accept=0.50, raise_=0.85, envido=27, envido_accept=26, bluff=0.30, coin=True),
    "score": Style(call=0.68, accept=0.50, raise_=0.85, envido=27, envido_accept=27, by_score=True, keep=14),
}


class Reading:
    """What one seat can count from its view: the unseen cards, and its team's chance at the hand."""

    def __init__(self, view: TrucoView) -> None:
        self.view = view
        self.paulista = view.rules is TrucoRules.PAULISTA
        self.rank = PAU_RANK if self.paulista else ARG_RANK
        self.you = view.you or 0
        self.team = self.you & 1
        seen = set(view.cards)
        for t in view.tricks:
            seen.update(p.card for p in t.plays if p.card is not None)
        seen.update(p.card for p in view.trick if p.card is not None)
        if view.paulista is not None:
            seen.update(view.paulista.rejected)
        for s in view.seats:
            if s.seat != self.you:
                seen.update(s.cards)
        deck = PAU_DECK if self.paulista else ARG_DECK
        self.unseen = sorted(self.rank[c] for c in deck if c not in seen)
        part = view.argentino
        players = part.players if part is not None else tuple(range(len(view.seats)))
        self.players = players
        self.opponents = sum(1 for s in players if s & 1 != self.team and not view.seats[s].gone)
        self.partners = sum(1 for s in players if s & 1 == self.team and s != self.you and not view.seats[s].gone)

    def beats(self, strength: int) -> float:
        """The chance one unseen card is below ``strength`` (an equal one counted half)."""
        if not self.unseen:
            return 1.0
        below = sum(1 for v in self.unseen if v < strength)
        equal = sum(1 for v in self.unseen if v == strength)
        return (below + 0.5 * equal) / len(self.unseen)

    def trick_chance(self, strength: int, against: int) -> float:
        """The chance a card of ``strength`` takes a trick from ``against`` unseen cards, a partner's help added."""
        own = self.beats(strength) ** max(0, against)
        help_ = PARTNER_TRICK if self.partners else 0.0
        return 1.0 - (1.0 - own) * (1.0 - help_)

    def table(self) -> tuple[int, bool, int]:
        """The best card on the trick in play: its strength (-1: none), whether it is this team's, and how
        many opponents are still to play in it."""
        best, ours = -1, False
        for p in self.view.trick:
            v = -1 if p.card is None or p.void else self.rank[p.card]
            if v > best:
                best, ours = v, p.seat & 1 == self.team
        played = {p.seat for p in self.view.trick}
        still = sum(1 for s in self.players if s & 1 != self.team and s not in played and not self.view.seats[s].gone)
        return best, ours, still

    def played_now(self) -> bool:
        """Whether this seat has played its card to the trick in play."""
        return any(p.seat == self.you for p in self.view.trick)

    def now(self) -> float:
        """The chance this team takes the trick in play with this seat's best card."""
        hand = [self.rank[c] for c in self.view.cards]
        best, ours, still = self.table()
        mine = -1 if self.played_now() else max(hand, default=-1)
        if ours and best >= mine:
            return self.trick_chance(best, still)
        if mine <= best:
            played = {p.seat for p in self.view.trick}
            helpers = any(s & 1 == self.team and s != self.you and s not in played for s in self.players)
            return PARTNER_TRICK * self.beats(best) if helpers else 0.0
        return self.trick_chance(mine, still)

    def hand(self) -> float:
        """The chance this team takes the hand: the tricks so far, then each trick left to one of this seat's
        cards (best first), each taken with its chance, the rules' ties applied."""
        v = self.view
        results: list[int | None] = [t.team for t in v.tricks]
        rule = TieRule.FIRST_DECIDED if self.paulista else TieRule.LAST_TAKES_ALL
        part = v.argentino
        mano = (v.paulista.mao if v.paulista is not None else part.mano if part is not None else 0) & 1
        cards = sorted((self.rank[c] for c in v.cards), reverse=True)
        chances = []
        if v.trick:
            chances.append(self.now())
            if not self.played_now():
                cards = cards[1:]
        chances += [self.trick_chance(c, self.opponents) for c in cards]
        team = self.team

        def chance(res: list[int | None], i: int) -> float:
            winner = hand_winner(res, mano, rule)
            if winner is None and (i >= len(chances) or len(res) >= 3):
                winner = hand_winner([*res, None, None, None][:3], mano, rule)
            if winner is not None:
                return 1.0 if winner == team else 0.0
            q = chances[i]
            return q * chance([*res, team], i + 1) + (1.0 - q) * chance([*res, 1 - team], i + 1)

        return chance(results, 0)

    def decisive(self) -> float:
        """The chance that matters for a call now: the trick in play's where an accepted call makes it decide the
        hand (truco paulista's ``truco_decides = trick``), else the hand's."""
        part = self.view.paulista
        if part is not None and (part.call_decides or part.trick_decides):
            if self.view.trick or self.view.tricks:
                return self.now()
            hand = sorted((self.rank[c] for c in self.view.cards), reverse=True)
            return self.trick_chance(hand[0], self.opponents) if hand else 0.0
        return self.hand()


def _envido(view: TrucoView) -> int:
    part = view.argentino
    return part.your_envido or 0 if part is not None else 0


def _score_lean(view: TrucoView, team: int) -> float:
    """How far the score pushes the ``score`` style: below 0 ahead (tighter), above 0 behind (looser)."""
    gap = view.scores[1 - team] - view.scores[team]
    return max(-1.0, min(1.0, gap / (0.4 * view.target)))


def _refusal_loses(view: TrucoView, team: int) -> bool:
    """Whether refusing the pending call gives the others the match."""
    pending = view.pending
    if pending is None:
        return False
    part = view.argentino
    won = part.points if part is not None else (0, 0)
    return view.scores[1 - team] + won[1 - team] + pending.refused >= view.target


def _lines(style: Style, view: TrucoView, team: int) -> tuple[float, float, float, float]:
    """(call, accept, raise, bluff) for this decision, moved by the score for the ``score`` style."""
    if not style.by_score:
        return style.call, style.accept, style.raise_, style.bluff
    lean = _score_lean(view, team)
    return (style.call - 0.15 * lean, style.accept - 0.15 * lean, style.raise_ - 0.1 * lean,
            max(0.0, 0.25 * lean))


def _card(view: TrucoView, legal: list[Action], reading: Reading) -> Action:
    """The card these bots play (see the module)."""
    plays = [a for a in legal if a.type == "play"]
    if not plays:
        return first(legal, "play_blind") or legal[0]
    rank = reading.rank
    by_rank = sorted(plays, key=lambda a: rank[a.cards[0]])
    best, ours, still = reading.table()
    part = view.paulista
    decides = part is not None and part.trick_decides
    results = [t.team for t in view.tricks]
    if not view.trick:  # leading
        if decides or results:
            won_first = bool(results) and results[0] == reading.team
            return by_rank[0] if won_first and len(by_rank) > 1 and not decides else by_rank[-1]
        return by_rank[len(by_rank) // 2]
    if ours and (still == 0 or best >= rank_of_three(reading)):
        return by_rank[0]
    winners = [a for a in by_rank if rank[a.cards[0]] > best]
    if winners:
        return winners[-1] if decides else winners[0]
    ties = [a for a in by_rank if rank[a.cards[0]] == best]
    if ties and results and results[0] == reading.team and still == 0:
        return ties[0]  # a tie goes to the team that took the first trick
    downs = [a for a in legal if a.type == "play_down"]
    if downs and not ours:
        low = by_rank[0].cards[0]
        return next((a for a in downs if a.cards[0] == low), by_rank[0])
    return by_rank[0]


def rank_of_three(reading: Reading) -> int:
    """The strength of a 3, the card below which a partner's winning card is worth covering."""
    return reading.rank[Card.parse("3S" if reading.view.rules is TrucoRules.PAULISTA else "3e")]


def play(style: Style, view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """One decision of ``style`` (see the module)."""
    assert isinstance(view, TrucoView)
    moves = [a for a in legal if a.type != SIGNAL] or legal
    forced = first(moves, "flor", "play_blind")
    if forced is not None:
        return forced
    reading = Reading(view)
    team = reading.team
    part = view.paulista
    if part is not None and part.phase is PaulistaPhase.DEAL:
        return _deal(style, view, moves)
    if part is not None and part.phase is PaulistaPhase.ONZE:
        both = [*view.cards, *view.seats[(reading.you + 2) % 4].cards]
        top = sorted((reading.rank[c] for c in both), reverse=True)
        need = 22 if style.keep >= 17 else 19 if not style.coin else 17
        return first(moves, "accept" if top[0] + top[1] >= need else "run") or moves[0]
    if first(moves, "announce") is not None or first(moves, "son_buenas") is not None:
        return _announce(view, moves)
    call, accept, raise_, bluff = _lines(style, view, team)
    pending = view.pending
    if pending is not None and pending.team != team:
        if pending.bet is Bet.ENVIDO:
            return _envido_answer(style, view, moves, rng)
        if pending.bet is Bet.FLOR:
            flor = view.argentino.your_flor if view.argentino is not None else None
            return first(moves, "quiero" if (flor or 0) >= 33 else "con_flor_me_achico", "no_quiero") or moves[0]
        env = _envido(view)
        envido = first(moves, "envido", "real_envido")
        if envido is not None and env >= style.envido + 2:
            return envido  # the envido goes first
        p = reading.decisive()
        if style.coin:
            yes = rng.random() < min(0.95, max(0.05, p + 0.15))
        else:
            yes = p >= accept or (style.by_score and _refusal_loses(view, team))
        raises = [a for a in moves if a.type in TRUCO_CALLS]
        if yes and raises and p >= raise_:
            return raises[0]
        answer = first(moves, "accept", "quiero") if yes else first(moves, "run", "no_quiero")
        return answer or moves[0]
    bet = _envido_call(style, view, moves, rng, team)
    if bet is not None:
        return bet
    calls = [a for a in moves if a.type in TRUCO_CALLS]
    if calls:
        p = reading.decisive()
        line = call if view.level == 0 else raise_
        if p >= line or (p < 0.35 and bluff and rng.random() < bluff):
            return calls[0]
    return _card(view, moves, reading)


def _deal(style: Style, view: TrucoView, moves: list[Action]) -> Action:
    top = sorted((PAU_RANK[c] for c in view.cards), reverse=True)
    keep = first(moves, "keep") or moves[0]
    if not style.keep or top[0] + top[1] >= style.keep or top[0] >= 11:
        return keep
    return first(moves, "pass_cards", "reject") or keep


def _announce(view: TrucoView, moves: list[Action]) -> Action:
    """Say one's envido when it takes the lead (or must be said), *son buenas* otherwise."""
    part = view.argentino
    mine = _envido(view)
    best = part.best_envido if part is not None else None
    top = view.seats[best].envido if best is not None else None
    say = next((a for a in moves if a.type == "announce"), None)
    if say is not None and (top is None or mine > top or first(moves, "son_buenas") is None):
        return say
    return first(moves, "son_buenas") or moves[0]


def _envido_answer(style: Style, view: TrucoView, moves: list[Action], rng: random.Random) -> Action:
    part = view.argentino
    env = _envido(view)
    calls = len(part.envido_calls) if part is not None else 1
    need = style.envido_accept + 2 * (calls - 1)
    if style.by_score and view.scores[1 - (view.you or 0) & 1] - view.scores[(view.you or 0) & 1] > 8:
        need -= 2
    if style.coin and rng.random() < 0.15:
        need -= 4
    if env >= need + 5:
        up = first(moves, "real_envido", "falta_envido")
        if up is not None and calls < 2:
            return up
    return first(moves, "quiero" if env >= need else "no_quiero") or moves[0]


def _envido_call(style: Style, view: TrucoView, moves: list[Action], rng: random.Random, team: int
                 ) -> Action | None:
    part = view.argentino
    if part is None or not part.may_envido or first(moves, "envido") is None:
        return None
    env = _envido(view)
    behind = view.scores[1 - team] - view.scores[team]
    if style.by_score and env >= style.envido + 3 and behind >= 10:
        return first(moves, "falta_envido", "real_envido", "envido")
    if env >= style.envido + 6:
        return first(moves, "falta_envido", "real_envido", "envido")
    if env >= style.envido + 3:
        return first(moves, "real_envido", "envido")
    if env >= style.envido:
        return first(moves, "envido")
    bluff = style.bluff or (0.2 * max(0.0, _score_lean(view, team)) if style.by_score else 0.0)
    if env < 21 and bluff and rng.random() < bluff:
        return first(moves, "envido")
    return None


def player(name: str) -> Policy:
    style = STYLES[name]

    def policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
        return play(style, view, legal, rng)

    policy.__name__ = f"truco_{name}"
    policy.__doc__ = f"The pool's ``{name}`` truco player (``engine.truco.bots.pool``)."
    return policy
