"""Deals consistent with what one truco seat knows, and the model round (``trucosim``) built on each.

A seat knows the cards it has seen (``engine.seen``: its own, every card played face up, the
cards rejected face up and those it passed, paulista; its partner's cards in a mão de onze),
the envido each player announced, and the signals it saw; its view says the table's rules (its
tie rule, how it counts an unsuited envido). ``Knowledge.of(view)`` gathers that;
``Knowledge.deal(rng)`` deals the unseen cards to the other seats, each seat's whole hand (cards
played and cards held) agreeing with what it announced and signalled; ``Knowledge.sim(hands)``
builds the round on such a deal. Signals are read by the table of signals (docs/rules.md): the
eyebrow for the top card, the wink for the second, lips aside for the third or fourth, then a 3,
a 2, an ace, bad cards (close the eyes) and a good envido (tilt the head).

What the others did tells about their cards too, less surely than an announced envido: a
truco called or accepted, an envido called, refused, or not called by one who played a card
while it could have been, a mão de onze played. ``Knowledge.of(view, reads=True)`` lists
those acts (``Read``) and ``weight(hands)`` says how likely a deal makes all of them, each
by how often a sound player does it with such cards (``Reading``): a deal is weighed by that,
never dropped, since players bluff.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

from cardtui.engine.cards import Card
from cardtui.engine.seen import seen
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.bots.sim import OURS, E, F, R, Referee, Sim, Table
from cardtui.engine.truco.envido import Unsuited, envido
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.rules import DECK as PAU_DECK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.signals import Signal
from cardtui.engine.truco.tricks import TieRule
from cardtui.engine.truco.views import PaulistaPhase, TrucoPlay, TrucoRules, TrucoView

Check = Callable[[Sequence[Card]], bool]
Read = Callable[[dict[int, list[Card]]], float]
"""One act of the others, read: how likely a deal of the unseen cards makes it (0 to 1)."""

SIGNAL_STRENGTHS: dict[Signal, frozenset[int]] = {
    Signal.EYEBROW: frozenset({14}),
    Signal.WINK: frozenset({13}),
    Signal.LIPS_ASIDE: frozenset({12, 11}),
    Signal.BITE_LIP: frozenset({10}),
    Signal.KISS: frozenset({9}),
    Signal.OPEN_MOUTH: frozenset({8}),
}
"""Seed 003's signals for cards, by the strengths they promise (the same in both games' rank tables)."""
GOOD_ENVIDO = 27
BAD_CARDS = 8
"""Close the eyes: no card as good as an ace."""
ENVIDO_WORDS = {Word.ENVIDO: E, Word.REAL_ENVIDO: R, Word.FALTA_ENVIDO: F}


def signal_for(cards: Sequence[Card], rank: dict[Card, int], envido_points: int | None) -> Signal | None:
    """The signal that tells a partner about these cards (docs/rules.md, "Signals"), or None."""
    if not cards:
        return None
    best = max(rank[c] for c in cards)
    for signal, strengths in SIGNAL_STRENGTHS.items():
        if best in strengths:
            return signal
    if envido_points is not None and envido_points >= 30:
        return Signal.TILT_HEAD
    return Signal.CLOSE_EYES if best < BAD_CARDS else None


@dataclass
class Knowledge:
    """What one seat knows of the round in play."""

    view: TrucoView
    rules: TrucoRules
    rank: dict[Card, int]
    you: int
    players: tuple[int, ...]
    mano: int
    held: dict[int, int]
    """How many cards each other seat in the round still holds."""
    played: dict[int, list[Card]]
    """Cards each seat played face up this round."""
    down: dict[int, int]
    """How many each seat played face down (or lost to the deck)."""
    known: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    """Other seats' cards this seat sees (a partner's in a mão de onze)."""
    pool: list[Card] = field(default_factory=list)
    checks: dict[int, list[Check]] = field(default_factory=dict)
    unsuited: Unsuited = Unsuited.SUM_TWO
    blind: bool = False
    """A mão de ferro: this seat's own cards are unseen too."""
    reads: list[Read] = field(default_factory=list)
    """The others' acts this round, read (empty unless asked for)."""
    referee: Referee = OURS
    """How the table takes an answer to a truco (``sim.Referee``)."""
    _listed: dict[int, list[tuple[Card, ...]]] = field(default_factory=dict)

    @staticmethod
    def rank_of(paulista: bool) -> dict[Card, int]:
        return PAU_RANK if paulista else ARG_RANK

    @staticmethod
    def of(view: TrucoView, reads: bool = False, referee: Referee = OURS) -> Knowledge:
        paulista = view.rules is TrucoRules.PAULISTA
        rank = PAU_RANK if paulista else ARG_RANK
        you = view.you if view.you is not None else 0
        part = view.argentino
        if part is not None:
            players, mano = part.players, part.mano
        else:
            assert view.paulista is not None
            players, mano = tuple((view.paulista.mao + i) % 4 for i in range(4)), view.paulista.mao
        played: dict[int, list[Card]] = {s: [] for s in players}
        down: dict[int, int] = {s: 0 for s in players}
        for plays in [*(t.plays for t in view.tricks), view.trick]:
            for p in plays:
                if p.card is not None and not p.face_down:
                    played.setdefault(p.seat, []).append(p.card)
                else:
                    down[p.seat] = down.get(p.seat, 0) + 1
        blind = view.paulista is not None and view.paulista.ferro
        k = Knowledge(view, view.rules, rank, you, tuple(players), mano,
                      {s: view.seats[s].card_count for s in players if s != you or blind}, played, down)
        k.blind = blind
        k.referee = referee
        known = seen(view)  # what the seat has seen: the cards the others cannot hold
        for s in players:
            if s != you and view.seats[s].cards:
                k.known[s] = view.seats[s].cards
        partner = (you + 2) % 4
        passed = view.paulista.passed_cards if view.paulista is not None else ()
        if passed and partner in players and partner not in k.known:
            # The mão passed its first three cards: its partner holds them, less those it has played.
            left = tuple(c for c in passed if c not in played.get(partner, ()))
            if len(left) == view.seats[partner].card_count:
                k.known[partner] = left
            else:  # it played one of them face down: which, the mão cannot tell
                known.subtract(left)
                k.checks[partner] = [_within(frozenset(left), played.get(partner, ()))]
        deck = PAU_DECK if paulista else ARG_DECK
        k.pool = [c for c in deck if known[c] <= 0]
        k.unsuited = part.envido_unsuited if part is not None else Unsuited.SUM_TWO
        for s in players:
            if s == you or s in k.known:
                continue
            checks: list[Check] = k.checks.get(s, [])
            announced = view.seats[s].envido
            if part is not None and announced is not None:
                checks.append(_envido_is(announced, k.unsuited))
            for seen_signal in view.signals:
                if seen_signal.seat == s:
                    check = _signal_check(seen_signal.signal, rank, k.unsuited)
                    if check is not None and (down[s] == 0 or seen_signal.signal is Signal.CLOSE_EYES):
                        checks.append(check)
            if checks:
                k.checks[s] = checks
        if part is not None:
            k._conceded()
        if reads:
            Reading(k).gather()
        return k

    def _conceded(self) -> None:
        """An envido settled: each player of the losing team announced less, or said *son buenas*
        (the engine asks every one of them), so none holds more than the winner's."""
        v = self.view
        part = v.argentino
        if part is None or part.announcing is not None or part.best_envido is None:
            return
        best = part.best_envido
        top = v.seats[best].envido
        if top is None:
            return
        for s in self.players:
            if s & 1 != best & 1 and s != self.you and s not in self.known and v.seats[s].envido is None:
                self.checks.setdefault(s, []).append(_envido_at_most(top, self.unsuited))

    def weight(self, hands: dict[int, list[Card]]) -> float:
        """How likely this deal makes what the others did this round (1 with nothing read)."""
        w = 1.0
        for read in self.reads:
            w *= read(hands)
        return w

    def whole(self, seat: int, hands: dict[int, list[Card]]) -> list[Card]:
        """``seat``'s three cards on this deal: those it played and those it holds."""
        return [*self.played.get(seat, ()), *hands.get(seat, ())]

    # -- dealing the unseen cards -----------------------------------------------------------
    def fits(self, seat: int, cards: Sequence[Card]) -> bool:
        whole = [*self.played.get(seat, ()), *cards]
        return all(check(whole) for check in self.checks.get(seat, ()))

    def deal(self, rng: random.Random) -> dict[int, list[Card]]:
        """The other seats' cards still held, dealt from the unseen cards agreeing with what the seat knows.

        Seats with something to agree with (an envido announced, a signal seen) are dealt first, each
        by drawing until its hand agrees (or, when that is rare, from every hand that agrees); the rest
        share what is left at random.
        """
        others = self._hidden()
        out: dict[int, list[Card]] = {}
        left = self.pool
        constrained = [s for s in others if s in self.checks]
        if constrained:
            left = list(left)
            for s in constrained:
                pick = self._fitting(s, left, self.held[s], rng)
                out[s] = pick
                for c in pick:
                    left.remove(c)
        rest = [s for s in others if s not in self.checks]
        need = sum(self.held[s] for s in rest)
        return self._shared(out, rest, rng.sample(left, min(need, len(left))))

    def every_deal(self, limit: int) -> list[dict[int, list[Card]]] | None:
        """Every way the unseen cards can lie in the other seats' hands, when there are at most ``limit`` of them
        and nothing read from a signal or an announcement narrows a seat's hand (None otherwise): in the last trick
        each hidden hand is one card, and the search can weigh each deal once rather than a sample of them."""
        others = self._hidden()
        if any(s in self.checks for s in others):
            return None
        need = sum(self.held[s] for s in others)
        if need > len(self.pool) or math.perm(len(self.pool), need) > limit:
            return None
        return [self._shared({}, others, list(cards)) for cards in permutations(self.pool, need)]

    def _hidden(self) -> list[int]:
        """The seats whose cards still held this seat does not know."""
        return [s for s in self.players if (s != self.you or self.blind) and s not in self.known]

    def _shared(self, out: dict[int, list[Card]], seats: list[int], cards: list[Card]) -> dict[int, list[Card]]:
        """``out`` with ``cards`` handed out in turn to ``seats``, each as many as it holds, and the known hands."""
        i = 0
        for s in seats:
            out[s] = cards[i : i + self.held[s]]
            i += self.held[s]
        return self._with_known(out)

    def _fitting(self, seat: int, left: list[Card], k: int, rng: random.Random) -> list[Card]:
        k = min(k, len(left))
        listed = self._listed.get(seat)
        if listed is None:
            for _ in range(40):
                pick = rng.sample(left, k)
                if self.fits(seat, pick):
                    return pick
            # Rare hands (a high envido announced): list every fitting hand once for this decision.
            listed = self._listed[seat] = [c for c in combinations(self.pool, k) if self.fits(seat, c)]
        free = set(left)
        for _ in range(20):
            if not listed:
                break
            hand = listed[int(rng.random() * len(listed))]
            if all(c in free for c in hand):
                return list(hand)
        fitting = [c for c in listed if all(x in free for x in c)]
        return list(rng.choice(fitting)) if fitting else rng.sample(left, k)

    def _with_known(self, out: dict[int, list[Card]]) -> dict[int, list[Card]]:
        for s, cards in self.known.items():
            out[s] = list(cards)
        if not self.blind:
            out[self.you] = list(self.view.cards)
        return out

    # -- the model round on a deal -------------------------------------------------------------
    def table(self, trick_mode: bool | None = None) -> Table:
        v = self.view
        part = v.argentino
        paulista = v.paulista
        onze = paulista is not None and (paulista.onze_team is not None or paulista.ferro)
        if trick_mode is None:
            trick_mode = paulista is not None and (paulista.call_decides or paulista.trick_decides)
        falta = part.falta if part is not None else 1
        last_takes_all = part is not None and part.ties is TieRule.LAST_TAKES_ALL  # the table's own tie rule
        return Table(len(v.seats), self.players, self.mano, self.rules, trick_mode, last_takes_all,
                     v.target, onze, falta, self.referee)

    def sim(self, hands: dict[int, list[Card]], table: Table | None = None) -> Sim:
        v = self.view
        t = table or self.table()
        rank = self.rank
        sim = Sim(t)
        for s, cards in hands.items():
            sim.hands[s] = [rank[c] for c in cards]
        sim.res = [tr.team for tr in v.tricks]
        sim.trick = [(p.seat, -1 if p.card is None or p.void or p.face_down else rank[p.card]) for p in v.trick]
        sim.leader = self._leader()
        live = [s for s in self.players if v.seats[s].playing or v.rules is TrucoRules.PAULISTA]
        if sim.trick:
            start = sim.trick[0][0]
        elif v.turn is not None:
            start = v.turn  # the table's own word on who leads (at ours, the leader by the tie rule above)
        else:
            start = sim.leader
        p = list(self.players)
        i = p.index(start) if start in p else 0
        done = {s for s, _ in sim.trick}
        sim.order = [s for s in [*p[i:], *p[:i]] if s in live and s not in done]
        first = v.tricks[0].plays if v.tricks else v.trick
        for play in first:
            sim.played0[play.seat] = True
        pending = v.pending
        sim.level = v.level
        sim.calls = v.level
        if pending is not None and pending.bet is Bet.TRUCO:
            sim.pending = pending.team
            sim.caller = pending.seat
            sim.calls = [st.call for st in v.ladder].index(pending.call) + 1
        if v.level:
            sim.owner = v.raisers[0] if len(v.raisers) == 1 else (1 - sim.pending if sim.pending >= 0 else -1)
        passed = self.partner_passed()
        if passed is not None:
            sim.passed = passed
        if v.paulista is not None and v.paulista.trick_decides:
            sim.decides = len(v.tricks)
        if v.paulista is not None and v.paulista.onze_team is not None and v.paulista.phase is not PaulistaPhase.ONZE:
            sim.stake_base = 3
        sim.scores = [v.scores[0], v.scores[1]]
        sim.left = tuple(s for s in self.players if v.seats[s].gone)
        part = v.argentino
        if part is not None:
            sim.pts = [part.points[0], part.points[1]]
            sim.e_open = part.envido_open and not part.flor_sung
            sim.e_calls = tuple(ENVIDO_WORDS[w] for w in part.envido_calls if w in ENVIDO_WORDS)
            if pending is not None and pending.bet is Bet.ENVIDO:
                sim.e_pending = pending.team
            env = [0] * t.n
            for s in self.players:
                whole = [*self.played.get(s, ()), *hands.get(s, ())]
                env[s] = envido(whole, self.unsuited)[0] if len(whole) == 3 else (v.seats[s].envido or 0)
            if part.your_envido is not None:
                env[self.you] = part.your_envido
            sim.env = env
        gone = sim.gone
        for cards in self.played.values():
            for c in cards:
                gone[rank[c]] += 1
                sim.seen += 1
        if v.paulista is not None:
            for c in v.paulista.rejected:
                gone[rank[c]] += 1
                sim.seen += 1
        return sim

    def partner_passed(self) -> int | None:
        """The partner who refused the call this seat answers, handing it on (``Referee.team_answers``): a
        partner of the answering team no longer among those to act. None where there is none."""
        v = self.view
        pending = v.pending
        if not self.referee.team_answers or pending is None or pending.bet is not Bet.TRUCO:
            return None
        if pending.team == self.you & 1:
            return None
        for s in self.players:
            if s != self.you and s & 1 == self.you & 1 and s not in v.to_act:
                return s
        return None

    def _leader(self) -> int:
        """Who led (or leads) the trick in play, from the tricks so far."""
        leader = self.mano
        for t in self.view.tricks:
            if self.rules is TrucoRules.PAULISTA:
                best, seat = -1, -1
                for p in t.plays:
                    v = -1 if p.card is None or p.face_down else self.rank[p.card]
                    if v > best:
                        best, seat = v, p.seat
                leader = seat if seat >= 0 else t.plays[0].seat
            elif t.winner is not None:
                leader = t.winner
        return leader


def _within(cards: frozenset[Card], played: Sequence[Card]) -> Check:
    """A hand (its cards played face up and held) whose cards held are all among ``cards``."""

    def check(whole: Sequence[Card]) -> bool:
        return all(c in cards for c in whole if c not in played)

    return check


def _envido_at_most(points: int, unsuited: Unsuited) -> Check:
    def check(cards: Sequence[Card]) -> bool:
        return len(cards) != 3 or envido(cards, unsuited)[0] <= points

    return check


def _envido_is(points: int, unsuited: Unsuited) -> Check:
    def check(cards: Sequence[Card]) -> bool:
        return len(cards) != 3 or envido(cards, unsuited)[0] == points

    return check


def _signal_check(signal: Signal, rank: dict[Card, int], unsuited: Unsuited) -> Check | None:
    strengths = SIGNAL_STRENGTHS.get(signal)
    if strengths is not None:
        return lambda cards: any(rank[c] in strengths for c in cards)
    if signal is Signal.CLOSE_EYES:
        return lambda cards: all(rank[c] < BAD_CARDS for c in cards)
    if signal is Signal.TILT_HEAD:
        return lambda cards: len(cards) != 3 or envido(cards, unsuited)[0] >= GOOD_ENVIDO
    return None


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def power(cards: Sequence[Card], rank: dict[Card, int]) -> float:
    """0 to 1: the mean of the two best cards' strengths (14 the top card)."""
    top = sorted((rank[c] for c in cards), reverse=True)[:2]
    return sum(top) / (14.0 * len(top)) if top else 0.0


class Reading:
    """How a sound player acts with given cards, as chances: what the search reads the others' acts by.

    Each chance has a floor, since anyone may bluff or slow-play: an act makes a deal that explains it
    less likely, never impossible. The thresholds are where the model players (``trucosim.Policy``)
    act: a truco from a hand about as good as the mean of a 3 and a 2 with an ace, an envido from 27.
    """

    CALL_AT = 0.70
    CALL_SPREAD = 0.06
    CALL_FLOOR = 0.15
    ACCEPT_AT = 0.58
    ACCEPT_SPREAD = 0.07
    ACCEPT_FLOOR = 0.10
    ENVIDO_AT = 26.5
    ENVIDO_SPREAD = 1.5
    ENVIDO_FLOOR = 0.08
    ENVIDO_OK_AT = 24.5
    ENVIDO_OK_SPREAD = 2.0
    ENVIDO_OK_FLOOR = 0.05
    ONZE_AT = 0.70
    ONZE_SPREAD = 0.05
    ONZE_FLOOR = 0.10

    def __init__(self, k: Knowledge) -> None:
        self.k = k

    @staticmethod
    def chance(x: float, at: float, spread: float, floor: float) -> float:
        return floor + (1.0 - floor) * _sig((x - at) / spread)

    # -- what each act says --------------------------------------------------------------------
    def _team_power(self, team: int, hands: dict[int, list[Card]]) -> float:
        k = self.k
        return max((power(k.whole(s, hands), k.rank) for s in k.players if s & 1 == team), default=0.0)

    def _team_envido(self, team: int, hands: dict[int, list[Card]]) -> int:
        k = self.k
        best = 0
        for s in k.players:
            if s & 1 == team:
                whole = k.whole(s, hands)
                if len(whole) == 3:
                    best = max(best, envido(whole, k.unsuited)[0])
        return best

    def truco_called(self, team: int) -> Read:
        return lambda hands: self.chance(self._team_power(team, hands), self.CALL_AT, self.CALL_SPREAD,
                                         self.CALL_FLOOR)

    def truco_accepted(self, team: int) -> Read:
        return lambda hands: self.chance(self._team_power(team, hands), self.ACCEPT_AT, self.ACCEPT_SPREAD,
                                         self.ACCEPT_FLOOR)

    def envido_called(self, team: int) -> Read:
        return lambda hands: self.chance(self._team_envido(team, hands), self.ENVIDO_AT, self.ENVIDO_SPREAD,
                                         self.ENVIDO_FLOOR)

    def envido_refused(self, team: int) -> Read:
        return lambda hands: 1.0 - self.chance(self._team_envido(team, hands), self.ENVIDO_OK_AT,
                                               self.ENVIDO_OK_SPREAD, self.ENVIDO_OK_FLOOR)

    def envido_passed(self, seat: int) -> Read:
        """``seat`` played a card without calling the envido it could have called."""
        k = self.k

        def read(hands: dict[int, list[Card]]) -> float:
            whole = k.whole(seat, hands)
            if len(whole) != 3:
                return 1.0
            return 1.0 - self.chance(envido(whole, k.unsuited)[0], self.ENVIDO_AT, self.ENVIDO_SPREAD,
                                     self.ENVIDO_FLOOR)

        return read

    def truco_passed(self, seat: int) -> Read:
        """A partner refused the call and handed it to this seat: it did not think its hand worth accepting."""
        k = self.k
        return lambda hands: 1.0 - self.chance(power(k.whole(seat, hands), k.rank), self.ACCEPT_AT,
                                               self.ACCEPT_SPREAD, self.ACCEPT_FLOOR)

    def onze_played(self, team: int) -> Read:
        k = self.k

        def read(hands: dict[int, list[Card]]) -> float:
            both = [c for s in k.players if s & 1 == team for c in k.whole(s, hands)]
            return self.chance(power(both, k.rank), self.ONZE_AT, self.ONZE_SPREAD, self.ONZE_FLOOR)

        return read

    # -- the acts of this round, from the view ---------------------------------------------------
    def gather(self) -> None:
        """Every act of the other side this round the view lets one tell (a pending call is read by the
        search itself, at the moment it was made)."""
        k = self.k
        v = k.view
        mine = k.you & 1
        theirs = 1 - mine
        part = v.argentino
        if part is not None:
            for team, act in self._truco_acts():
                if team == theirs:
                    k.reads.append(self.truco_called(team) if act == "call" else self.truco_accepted(team))
            self._envido_acts(theirs)
        elif v.paulista is not None:
            p = v.paulista
            if p.onze_team == theirs and p.phase is PaulistaPhase.PLAY and not p.ferro:
                k.reads.append(self.onze_played(theirs))
            passed = k.partner_passed()
            if passed is not None and passed not in k.known:
                k.reads.append(self.truco_passed(passed))
            for team, act in self._truco_acts():
                if team == theirs:
                    k.reads.append(self.truco_called(team) if act == "call" else self.truco_accepted(team))

    def _truco_acts(self) -> list[tuple[int, str]]:
        """Who called and who accepted each rung already answered, where the view tells (the team that
        accepted last is the one that may raise; the calls alternate)."""
        v = self.k.view
        pending = v.pending
        if pending is not None and pending.bet is Bet.TRUCO:
            calls = [st.call for st in v.ladder].index(pending.call) + 1
            last_caller = pending.team
            answered = calls - 1
        elif v.level and len(v.raisers) == 1:
            answered = calls = v.level
            last_caller = 1 - v.raisers[0]
        else:
            return []
        out: list[tuple[int, str]] = []
        for rung in range(1, answered + 1):
            caller = last_caller if (calls - rung) % 2 == 0 else 1 - last_caller
            out += [(caller, "call"), (1 - caller, "accept")]
        return out

    def _envido_acts(self, theirs: int) -> None:
        k = self.k
        v = k.view
        part = v.argentino
        assert part is not None
        calls = part.envido_calls
        pending = v.pending is not None and v.pending.bet is Bet.ENVIDO
        if not calls:
            if part.flor_sung or v.level:
                return  # a truco accepted may have closed the envido before they played: nothing to tell
            for s in k.players:
                if s & 1 == theirs and s not in k.known and any(p.seat == s for p in _first_trick(v)):
                    k.reads.append(self.envido_passed(s))
            return
        if pending:
            assert v.pending is not None
            last = v.pending.team
        elif part.best_envido is not None:
            return  # accepted: the numbers announced tell far more
        else:  # refused: the callers of the last call took the points
            if part.points[0] == part.points[1]:
                return
            last = 0 if part.points[0] > part.points[1] else 1
            if last == mine_team(k):
                k.reads.append(self.envido_refused(theirs))
        # Every call the other side made, besides a pending one (the search reads that one).
        for i in range(len(calls) - (1 if pending else 0)):
            team = last if (len(calls) - 1 - i) % 2 == 0 else 1 - last
            if team == theirs:
                k.reads.append(self.envido_called(theirs))


def mine_team(k: Knowledge) -> int:
    return k.you & 1


def _first_trick(view: TrucoView) -> tuple[TrucoPlay, ...]:
    return view.tricks[0].plays if view.tricks else view.trick
