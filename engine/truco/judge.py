"""The analysis's own players at truco: the playouts a decision is judged by, answering as a strong player would.

The analysis values a truco decision by dealing the cards the seat could not see many ways and playing each choice
out to the end of the hand (``evaluate``). Who plays the hand out decides what a choice is worth: a model that runs
from a raise on a trick its side has already taken makes a raise look good on a hand that is lost, and one that
folds to an envido on most hands makes an envido called on nothing look good. The hard bot's own search plays its
deals out with the quick plain policy every bot level shares (``bots.trucosim.Policy``); the analysis plays them out
with this module's ``Player``, which keeps that policy for what it does well (its calls, its cards where no trick
decides the hand) and answers as a strong player would:

- a call, by its side's chance to take the hand, read by whichever partner can best tell it (either may answer), a
  call made before the caller played to the trick read as likelier to hold a winner (``READ``): where the trick in
  play decides the hand (``decisive``), the chance that its side holds it once every card is down, the tie rule's
  way; it never runs from a call on a trick that decides the hand and that its side surely holds, nor accepts one it
  surely loses, and a side sure of the hand calls, since a call can only add to it;
- an envido, as the hands say: accepted (or raised) by a side whose envido takes it, refused by one whose does not;
- a card in a trick its side must hold (taking it takes the hand, or losing it loses the hand): the cheapest card
  that surely holds it, or, where none does, the one that holds it most often; never a winner thrown under a
  partner's card that already holds it, nor spent where the trick cannot be held.

The analysis flags a truco decision only where these players and the hard bot's own model of the players
(``as_bots_play``) both find it loses (``engine.analysis.verdict``): a loss that one kind of opponent punishes and the
other does not is no mistake to name.

Pure: no clock, no global random state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.bots import estimates
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.core import Action
from cardtui.engine.truco.bots import search as truco_search
from cardtui.engine.truco.bots.search import AS_MODEL, ONZE_PLAY, Searcher
from cardtui.engine.truco.bots.search import evaluate as searched
from cardtui.engine.truco.bots.sim import (
    ACCEPT,
    CALL,
    E_ACCEPT,
    E_REFUSE,
    ENV_NEXT,
    ENVIDO,
    PLAY,
    REFUSE,
    E,
    Move,
    Policy,
    Sim,
)
from cardtui.engine.truco.bots.worlds import Knowledge
from cardtui.engine.truco.tricks import hand_winner
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

WORLDS = 60
"""The deals a budget of 1 counts in: the same as the bots' search (``truco_search.EVALUATE_WORLDS``), so that the
analysis spends what it spent."""
ACCEPT_AT = 0.42
"""The chance of its side's hand from which a player accepts a truco: the bots' plain policy's (``truco_search``'s
``MODEL_ACCEPT``, the model the analysis played out before)."""
READ = 3.0
"""How much likelier a player who calls a truco before playing to the trick holds a card above the table than one
who does not: what the call tells the answerer (a caller holds a winner about three times as often as it bluffs)."""


def decisive(sim: Sim) -> bool:
    """Whether the trick in play decides the hand: taken by either side, it is that side's hand (an accepted truco
    under ``truco_decides = trick``, or the tricks so far)."""
    if sim.decides == len(sim.res):
        return True
    rule, mano = sim.t.rule, sim.t.mano & 1
    return hand_winner([*sim.res, 0], mano, rule) == 0 and hand_winner([*sim.res, 1], mano, rule) == 1


class Player:
    """The analysis's model of a player at truco (see the module): ``decide`` what a seat does in a model round."""

    def __init__(self, paulista: bool, rng: random.Random, accept_at: float = ACCEPT_AT) -> None:
        self.plain = Policy(paulista, rng, accept_at=accept_at)
        """The bots' plain policy, for what this one keeps of it (calls, and cards where no trick decides)."""
        self.accept_at = accept_at

    # -- a side's chance, as the one of its players who can best tell it reads it ---------------------------
    def holds(self, sim: Sim, seat: int) -> float:
        """The chance, as ``seat`` sees it (its own cards and the cards face up), that its side takes the trick in
        play: the trick stands with its side once its best card is down (``Sim.standing``) and no player of the
        other side still to play holds a higher card; one who called a truco before playing to it holds one
        ``READ`` times as often (what the call says)."""
        team = seat & 1
        hand = sim.hands[seat]
        plays = list(sim.trick)
        if hand and not any(s == seat for s, _ in plays):
            plays.append((seat, max(hand)))
        if sim.standing(plays) != team:
            return 0.0
        return self.odds_after(sim, seat, plays, sim.caller if sim.pending >= 0 else -1)

    def held(self, sim: Sim, team: int) -> float:
        """The chance that ``team`` takes the trick in play, as the player of it who can best tell reads it (either
        partner may answer a call)."""
        return max((self.holds(sim, s) for s in sim.t.players if s & 1 == team and s not in sim.left), default=0.0)

    def chance(self, sim: Sim, seat: int, held: float) -> float:
        """``seat``'s side's chance to take the hand, ``held`` its chance to take the trick in play: where that trick
        decides the hand (or would, once a call pending is accepted), that chance; else the plain policy's rough read
        of the hand, with the trick's: taken, it may take the hand, or lost, lose it."""
        if decisive(sim) or (sim.t.trick_mode and sim.pending >= 0):
            return held
        team = seat & 1
        rough = max(self.plain.hand_odds(sim, s) for s in sim.t.players if s & 1 == team and s not in sim.left)
        rule, mano = sim.t.rule, sim.t.mano & 1
        if hand_winner([*sim.res, team], mano, rule) == team:  # taking the trick takes the hand
            return held + (1.0 - held) * rough
        if hand_winner([*sim.res, 1 - team], mano, rule) == 1 - team:  # losing it loses the hand
            return held * rough
        return rough

    # -- the decisions ----------------------------------------------------------------------------------------
    def decide(self, sim: Sim, seat: int) -> Move:
        if sim.e_pending >= 0:
            return self.envido_answer(sim, seat)
        if sim.pending >= 0:
            return self.answer(sim, seat)
        move = self.plain.decide(sim, seat)
        if move[0] == PLAY:
            return (PLAY, self.card(sim, seat, move[1]))
        if move[0] != CALL and decisive(sim) and sim.may_call(seat & 1) and self.held(sim, seat & 1) >= 1.0:
            return (CALL, 0)  # a sure hand: a call can only add to it
        return move

    def answer(self, sim: Sim, seat: int) -> Move:
        """A truco (or a raise) to answer, by the side's chance to take the hand: raised from ``raise_at`` (or a
        trick it surely holds that decides the hand: never run from), accepted from ``ACCEPT_AT``, refused below it
        (and a trick that decides the hand and that it surely loses is never accepted). Envido first, as the plain
        policy calls it."""
        team = seat & 1
        if sim.t.rules is not TrucoRules.PAULISTA and sim.calls == 1 and sim.may_envido(seat) and sim.env[seat] >= 29:
            return (ENVIDO, E)
        held = self.held(sim, team)
        if sim.t.trick_mode or decisive(sim):
            if held >= 1.0:
                return (CALL, 0) if sim.may_call(team) else (ACCEPT, 0)
            if held <= 0.0 and decisive(sim):
                return (REFUSE, 0)
        p = self.chance(sim, seat, held)
        if p >= self.plain.raise_at:
            return (CALL, 0) if sim.may_call(team) else (ACCEPT, 0)
        return (ACCEPT, 0) if p >= self.accept_at else (REFUSE, 0)

    def envido_answer(self, sim: Sim, seat: int) -> Move:
        """An envido to answer, as the hands say: accepted (or raised, where a raise is left) by a side whose best
        envido takes it from the caller's side, refused by one whose envido does not (the model settles an envido as
        the engine does: nearer the mano first, an equal envido not taking it)."""
        best = -1
        for s in sim.t.players:
            if best < 0 or sim.env[s] > sim.env[best]:
                best = s
        if best & 1 != seat & 1:
            return (E_REFUSE, 0)
        raises = ENV_NEXT.get(sim.e_calls, ())
        return (ENVIDO, raises[0]) if raises and len(sim.e_calls) < 2 else (E_ACCEPT, 0)

    def card(self, sim: Sim, seat: int, plain: int) -> int:
        """The card to play: the plain policy's, except in a trick its side must hold (taking it takes the hand, or
        losing it loses the hand), where the cheapest card that surely holds it is played (or the lowest, where the
        side surely holds it already), else the one that holds it most often (the lowest, where none can)."""
        hand = sim.hands[seat]
        team = seat & 1
        rule, mano = sim.t.rule, sim.t.mano & 1
        critical = sim.decides == len(sim.res) or hand_winner([*sim.res, team], mano, rule) == team or hand_winner(
            [*sim.res, 1 - team], mano, rule) == 1 - team
        if len(hand) <= 1 or not critical:
            return plain
        ordered = sorted(set(hand))
        if sim.trick and sim.standing() == team and self.odds_after(sim, seat, sim.trick) >= 1.0:
            return ordered[0]
        best, best_odds = ordered[0], -1.0
        for v in ordered:
            plays = [*sim.trick, (seat, v)]
            if sim.standing(plays) != team:
                continue
            p = self.odds_after(sim, seat, plays)
            if p >= 1.0:
                return v
            if p > best_odds:
                best, best_odds = v, p
        return best

    def odds_after(self, sim: Sim, seat: int, plays: Sequence[tuple[int, int]], caller: int = -1) -> float:
        """As ``seat`` sees it: the chance that no player of the other side still to play after ``plays`` holds a
        card above the highest of them (``caller``, who called the truco, ``READ`` times likelier to)."""
        team = seat & 1
        played = {s for s, _ in plays}
        rest = [s for s in sim.order if s & 1 != team and s not in played and sim.hands[s]]
        if not rest:
            return 1.0
        top = max(v for _, v in plays)
        copies = self.plain.copies
        gone = sim.gone
        mine = sim.hands[seat]
        tie_loses = sim.standing([*plays, (rest[0], top)]) != team  # a tie that gives the other side the trick
        low = top if tie_loses else top + 1
        higher = sum(copies[v] - gone[v] for v in range(low, len(copies))) - sum(1 for v in mine if v >= low)
        if higher <= 0:
            return 1.0
        unseen = sum(copies) - len(mine) - sim.seen
        p = 1.0
        i = 0
        for s in rest:
            clear = 1.0
            for _ in sim.hands[s]:
                clear *= max(0.0, 1 - higher / max(1, unseen - i))
                i += 1
            if s == caller:
                beats = READ * (1.0 - clear)
                clear = 1.0 - beats / (beats + clear) if beats + clear > 0.0 else 0.0
            p *= clear
        return p


def play_out(sim: Sim, player: Player) -> None:
    """Play the round to its end by ``player`` for every seat."""
    while not sim.done:
        seat = sim.actor()
        sim.apply(seat, player.decide(sim, seat))


def as_bots_play(view: TrucoView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
                 ) -> Evaluation:
    """Every legal choice valued as the hard bot values it: its search, its deals read by what the others did, its
    model's players (who accept a truco from a poorer hand than the plain policy's: ``truco_search.HARD_ACCEPT``).
    The other kind of player the analysis judges a truco decision against (``engine.analysis.verdict``)."""
    worlds = budget.deals(truco_search.EVALUATE_WORLDS)
    return Searcher(view, legal, rng, worlds, reads=True, accept_at=truco_search.HARD_ACCEPT).evaluate()


def evaluate(view: TrucoView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice but a signal of ``view``'s seat, in match odds, played out by ``Player`` on deals of the
    cards it could not see, each weighed as the bots' search weighs it (by what the others did: ``Searcher``). The
    deal of truco paulista (keep, pass, reject), which the analysis does not judge, is the bots' search's."""
    if view.paulista is not None and view.paulista.phase is PaulistaPhase.DEAL:
        return searched(view, legal, rng, budget)
    searcher = Searcher(view, legal, rng, budget.deals(WORLDS), reads=True)
    k = Knowledge.of(view, reads=True)
    groups = searcher.choices()
    if not groups:
        return weighed(Unit.MATCH, [], [], [])
    player = Player(view.rules is TrucoRules.PAULISTA, rng)
    onze = view.paulista is not None and view.paulista.phase is PaulistaPhase.ONZE
    team = searcher.team
    values: list[list[float]] = [[] for _ in groups]
    weights: list[float] = []
    for _ in range(searcher.worlds):
        hands = k.deal(rng)
        sim = k.sim(hands)
        if onze:
            sim.stake_base = 3
        weights.append(searcher.likelihood(sim) * k.weight(hands))
        for j, (_, move) in enumerate(groups):
            c = sim.copy()
            if move is None:  # running from a mão de onze: the others take 1
                c.done = True
                c.pts[1 - team] += 1
            else:
                if move != ONZE_PLAY and move != AS_MODEL:
                    c.apply(searcher.you, move)
                play_out(c, player)
            values[j].append(searcher.value(c))
    return weighed(Unit.MATCH, [g for g, _ in groups], values, weights)
