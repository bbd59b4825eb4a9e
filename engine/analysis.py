"""The analysis of a finished hand: at each of a seat's decisions, what each legal choice was worth.

A hand history plus the engine replays the hand exactly; at every decision with a real choice the
analysis asks what each legal choice was worth (at the ``estimates.ANALYSIS`` budget), judged from the
deciding seat's view at that moment: its own cards and everything public, never the revealed deal
(double-dummy judgement misleads in hidden-card games). The cards the seat could not see are dealt many
ways, each consistent with what was public; so a decision's analysis does not change when they are
reshuffled. Who values the choices (``verdict``): at truco, where few cards are left, the exact end game
(``engine.truco.endgame``: every deal listed, the rest of the hand solved); else the hard bot's search and the
analysis's own players (``engine.truco.judge``), a choice flagged only where both find it loses; at the other
games, the bots' search (``engine.bots.search.evaluate``).

Values are in the unit that decides the game (``estimates.Unit``): the chance of winning the match
for truco and Cacheta, the chips the hand ends with for Cacho and Pif Paf. A loss is turned into
*points*, 125 for each stake of the decision lost, so that gnubg's equity thresholds (0.04 and 0.08 of
the stake for doubtful and bad) fall on 5 and 10 points and the labels read alike in every game. The
stake is the decision's (``at_stake``), in its unit:

- chips: the hand's (``stake``), or in Pif Paf the pot with the betting round's bets in it;
- match odds: what one stake of the hand is worth to the match at the score (``match_stake``: half the
  odds between taking and losing it), as gnubg reads a loss of match equity as money equity. A hand at 0
  to 0 moves a match little, and one near its end much: read as bare percentage points (lichess's scale
  for a game of one move after another), no card played early in a match could ever be a mistake.

A decision is labelled only when its loss is above twice the standard error of the loss (the gap to
the best choice measured deal by deal): what the estimate cannot tell apart is "as good". It gets the
label whose threshold lies below its loss less two standard errors (``MARGIN``): a loss near a line
gets the label below it, whatever the deals drawn, and the analysis looks again on more deals while a
verdict sits near a line (``settled``). The thresholds (``THRESHOLDS``) start from lichess's 5 / 10 / 15
points and gnubg's equity ones, checked on self-play: in hands of hard bot against hard bot, few
of the bot's own decisions are flagged a mistake or worse (``make bench --only analysis``).

Nothing here reads a clock or global random state: a hand analysed with the same seed gives the
same analysis, and each decision's generator is drawn from the seed and the decision's place in the
hand, never from a card.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cardtui.engine import advice, family, games
from cardtui.engine.advice import Reason
from cardtui.engine.bots import estimates, search
from cardtui.engine.bots.estimates import Budget, Estimate, Evaluation, Unit
from cardtui.engine.bots.odds import FLOOR as FLOOR
from cardtui.engine.bots.odds import match_stake as match_stake
from cardtui.engine.bots.players import Policy
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, Game, GameView
from cardtui.engine.fairness import record_seed
from cardtui.engine.games import GAMES
from cardtui.engine.history import action_entry, action_of, seats_of, start_of

FORMAT = "cardtui-analysis/1"
"""The ``format`` of an analysis as JSON (docs/history.md §9)."""


class Label(StrEnum):
    """How a decision is judged. The README says what each means to a player."""

    BEST = "best"
    """The choice the search values highest."""
    GOOD = "good"
    """Below the best by less than a threshold, or by less than the estimate can tell apart."""
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    MISSED_WIN = "missed_win"
    """A sure win of the match was on the table (every deal of the unseen cards won it) and the
    choice made left it."""


def cheap(game: str) -> bool:
    """Whether the game's hand is analysed in well under a second of one core (``make bench --only analysis``), so
    that a hand's summary may say how its player played it without anyone asking (its entry's
    ``analysed_unasked``). A Pif Paf or Cacheta hand takes longer (its decisions played out whole hands at a
    time, up to a second or two of one core): it is analysed only when asked for. False for a game the room
    does not know."""
    return game in games.ENTRIES and games.entry(game).analysed_unasked

FLAGGED = (Label.INACCURACY, Label.MISTAKE, Label.BLUNDER, Label.MISSED_WIN)
"""The labels that say a decision lost something."""
SERIOUS = (Label.MISTAKE, Label.BLUNDER, Label.MISSED_WIN)
"""A mistake or worse: what a hand's summary line counts."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The losses, in points, from which each label starts."""

    inaccuracy: float
    mistake: float
    blunder: float


THRESHOLDS = Thresholds(inaccuracy=5.0, mistake=10.0, blunder=15.0)
"""gnubg's 0.04 / 0.08 of a stake fall on 5 / 10; its 0.16 ("very bad") would be 20: a blunder here is 0.12 of a
stake (lichess's 5 / 10 / 15 points of win probability, the lines it started from)."""
CHIP_POINTS = 125.0
"""Points per stake lost (``points``)."""
SEPARATION = 2.0
"""A loss is told apart from a tie when it exceeds this many of its standard errors."""
MARGIN = 2.0
"""A label's line counts only below the loss less this many of its standard errors (``grade``)."""
SURE = 1e-9
"""A match value within this of 1, on every deal, is a sure win."""
DRILL_POINTS = THRESHOLDS.inaccuracy
"""The drill's "within a few points of the best": as good as an unflagged choice."""


Choice = Estimate
"""One legal choice at a decision, as the search valued it: its value, error, gap to the best and
the gap's error (``estimates.Estimate``, kept as the search gave it or as a longer look revalued it)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision of one seat: its choices, what it chose, and the verdict."""

    step: int
    """The replay's step of this action (the deal is step 0, each seat's action one more)."""
    seat: int
    chosen: Action
    best: Action
    choices: tuple[Choice, ...]
    loss: float
    """How far the chosen choice stands below the best, in the unit (0 when it is the best)."""
    loss_error: float
    points: float
    """The loss in points (see the module), counted only where the estimate tells it from a tie."""
    label: Label
    accuracy: float
    """0 to 100, lichess's curve of the points lost."""
    deals: int
    """The deals of the unseen cards the verdict was judged on."""
    held: tuple[Card, ...] = ()
    """The seat's own cards at the decision (what it knew of its hand: the drill shows them)."""
    stake: float = 1.0
    """The chips the decision was played for (``at_stake``; 1 for match odds): its points are the loss over it."""
    reason: Reason | None = None
    """Why, in facts the seat knew (``engine.advice``): worked out for a flagged decision only."""

    def of(self, action: Action) -> Choice | None:
        """The choice ``action`` is (the same cards in any order), or None when it was not legal."""
        for c in self.choices:
            if same(c.action, action):
                return c
        return None


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """Every analysed decision of one hand, in the order they were made."""

    game: str
    table: str
    hand: int
    match: int
    unit: Unit
    stake: float
    """Chips per stake (games played for chips; 1 for match odds)."""
    seed: int
    budget: float
    """The search's budget (``estimates.Budget.scale``)."""
    seats: tuple[int, ...]
    """The seats analysed."""
    moments: tuple[Moment, ...]

    def of_seat(self, seat: int) -> tuple[Moment, ...]:
        return tuple(m for m in self.moments if m.seat == seat)

    def flagged(self, seat: int, labels: Sequence[Label] = SERIOUS) -> int:
        """How many of ``seat``'s decisions carry one of ``labels`` (a hand summary's count)."""
        return sum(1 for m in self.moments if m.seat == seat and m.label in labels)

    def only(self, seats: Sequence[int]) -> HandAnalysis:
        """The same analysis kept to ``seats`` (what one person may be shown)."""
        keep = tuple(s for s in self.seats if s in seats)
        return HandAnalysis(self.game, self.table, self.hand, self.match, self.unit, self.stake, self.seed,
                            self.budget, keep, tuple(m for m in self.moments if m.seat in keep))


@dataclass(frozen=True, slots=True)
class Position:
    """A seat's decision as a replay meets it: what the seat saw, could do and did."""

    step: int
    seat: int
    view: GameView
    legal: tuple[Action, ...]
    chosen: Action


# -- the verdict on one decision -------------------------------------------------------------------
def same(a: Action, b: Action) -> bool:
    """One action, whatever order its cards are named in."""
    return a == b or (a.type == b.type and a.amount == b.amount and a.value == b.value
                      and sorted(map(str, a.cards)) == sorted(map(str, b.cards)))


def as_legal(action: Action, legal: Sequence[Action]) -> Action:
    """``action`` as the legal actions name it: a history names what a move turned out to move (the card
    a blind play turned up), the legal action only what was chosen (which card, unseen)."""
    for a in legal:
        if same(a, action):
            return a
    for a in legal:
        if not a.cards and (a.type, a.amount, a.value) == (action.type, action.amount, action.value):
            return a
    return action


def points(loss: float, unit: Unit, stake: float) -> float:
    """A loss in the unit as points: ``CHIP_POINTS`` a stake lost, the decision's stake in the unit (``at_stake``:
    chips, or the match odds a stake of the hand is worth at the score)."""
    return CHIP_POINTS * loss / stake


def accuracy(lost: float) -> float:
    """Lichess's accuracy of a move that lost ``lost`` points of win probability: 100 for none,
    about 65 for a mistake's 10, falling towards 0."""
    return max(0.0, min(100.0, 103.1668100711649 * math.exp(-0.04354415386753951 * lost) - 3.166924740191411))


def label(choice: Choice, best: Choice, unit: Unit, stake: float,
          thresholds: Thresholds = THRESHOLDS) -> tuple[Label, float]:
    """The label of ``choice`` beside ``best``, and the points it lost (0 unless told apart): the label whose
    line lies below the loss less ``MARGIN`` of its standard errors (``grade``)."""
    if choice.gap <= 0.0 or same(choice.action, best.action):
        return Label.BEST, 0.0
    lost = points(choice.gap, unit, stake)
    if choice.gap <= SEPARATION * choice.gap_error:
        return Label.GOOD, 0.0
    rank = grade(lost, points(choice.gap_error, unit, stake), thresholds)
    if rank == 0:
        return Label.GOOD, lost
    if unit is Unit.MATCH and best.value >= 1.0 - SURE and best.error <= SURE and choice.value < 1.0 - SURE:
        return Label.MISSED_WIN, lost
    return (Label.INACCURACY, Label.MISTAKE, Label.BLUNDER)[rank - 1], lost


def judge(position: Position, evaluation: Evaluation, stake: float, *looks: Evaluation) -> Moment:
    """The verdict on one decision from the search's evaluation of every choice, and, where some were looked
    at again (``analyse_position``), from the last look: the choices it holds are valued by it. Each of the
    others was left out of a longer look for trailing that look's best, which no later look put above the
    best: it is put below the best by that gap, measured deal by deal on the deals of the last look that
    held it. (Its value from a look of a few deals, read beside the best's from many others, showed a
    discard left out for trailing on the same deals above the best, a luckier few deals its only merit.)"""
    if not looks:
        choices = evaluation.choices
        best = evaluation.best()
        deals = evaluation.deals
    else:
        fresh = looks[-1]
        top = fresh.best()
        out = []
        for e in evaluation.choices:
            again = next((f for f in fresh.choices if same(f.action, e.action)), None)
            if again is not None:
                out.append(again)
                continue
            last = next(look for look in (*reversed(looks), evaluation)
                        if any(same(f.action, e.action) for f in look.choices))
            mine = _row(last, e.action)
            gap, error = above(last, _row(last, last.best().action), mine)
            out.append(Choice(e.action, top.value - gap, last.choices[mine].error, gap, error))
        choices = tuple(out)
        best = top
        deals = fresh.deals
    mine_choice = next((c for c in choices if same(c.action, position.chosen)), None)
    if mine_choice is None:
        raise ValueError(f"{position.chosen.describe()!r} was not a legal choice at step {position.step}.")
    verdict, lost = label(mine_choice, best, evaluation.unit, stake)
    return Moment(position.step, position.seat, position.chosen, best.action, choices, mine_choice.gap,
                  mine_choice.gap_error, lost, verdict, accuracy(lost), deals, held(position.view), stake)


def held(view: GameView) -> tuple[Card, ...]:
    """A seat's own cards in its view (its family's: ``engine.family``)."""
    return family.of(view).held(view)




def retry(analysis: HandAnalysis, moment: Moment, action: Action) -> tuple[bool, float]:
    """The drill: is ``action``, tried again at ``moment``, within a few points of the best? Also the
    points it stands below the best. ``ValueError`` when it was not a legal choice there."""
    choice = moment.of(action)
    best = moment.of(moment.best)
    if choice is None or best is None:
        raise ValueError(f"{action.describe()!r} was not a legal choice at step {moment.step}.")
    verdict, lost = label(choice, best, analysis.unit, moment.stake)
    return verdict in (Label.BEST, Label.GOOD) or lost <= DRILL_POINTS, lost


# -- a hand, decision by decision ------------------------------------------------------------------
def stake(record: Mapping[str, Any]) -> float:
    """The chips a hand is played for, to scale a chip loss by: Pif Paf's antes (the pot every
    hand starts from; a decision after the betting round is played for the pot, ``at_stake``), Cacho's
    first two bets (what a player in for the third round has put in): each game's entry says (``Entry.stake``)."""
    return games.entry(str(record.get("game", ""))).stake(record)


def at_stake(view: GameView, base: float) -> float:
    """What a decision is played for, in the unit, ``base`` the hand's chips (``stake``): in Pif Paf the pot as it
    stands, the bets of its betting round in it; in truco and Cacheta, the match odds one stake of the hand is
    worth at this score (``match_stake``). A draw or a discard that gives up a tenth of the chance to take a pot
    of twelve chips costs 1.2 chips; measured against the three of the antes it was 50 points, a blunder. gnubg
    likewise measures a loss against the cube's value when the move was made, not the stake the game started
    from, and in a match counts it in money equity by what the game is worth to the match (``match_stake``).
    Each family says (``engine.family.Family.stake``)."""
    return family.of(view).stake(view, base)


def positions(record: Mapping[str, Any]) -> Iterator[Position]:
    """Every action of a seat in the hand, with the seat's view and legal actions just before it.

    The hand is replayed as ``Game.replaying`` does it, but each view is taken before its action is
    applied. ``ValueError`` for a history this engine cannot replay."""
    rules = GAMES.get(str(record.get("game", "")))
    if not isinstance(rules, Game):
        raise ValueError(f"There is no game called {str(record.get('game', ''))[:40]!r} here.")
    seats = seats_of(record)
    known = {spec.name for spec in rules.option_specs}
    options = rules.options({k: v for k, v in (record.get("options") or {}).items() if k in known})
    state, _ = rules.resume(options, seats, start_of(record, len(seats)), int(record["dealer"]), int(record["hand"]),
                            record_seed(record), record)
    rules.keep_time(state)
    step = 0
    for entry in record["actions"]:
        if entry.get("seat") is None:
            continue
        step += 1
        seat, action = int(entry["seat"]), action_of(entry)
        if rules.keep_outdated(state, seat, action):
            continue  # an entry an earlier version wrote that moves nothing: no decision to judge
        rules.catch_up(state, seat, action)
        legal = tuple(rules.legal_actions(state, seat))
        yield Position(step, seat, rules.view(state, seat), legal, as_legal(action, legal))
        rules.apply(state, seat, action)


def choices(position: Position) -> int:
    """How many real choices the seat had (a signal is talk, not a move)."""
    return sum(1 for a in position.legal if a.type != "signal")


def worth_judging(position: Position) -> bool:
    """A decision with more than one real choice, where the seat made a move (not a signal). Pif Paf's betting
    round is not judged: the search plays the others' answers to a bet as the normal bot answers, one kind of
    player among many, too narrow to call a bet or a check a mistake. Nor is truco paulista's deal (keep, pass or
    reject): the search plays each out from a model deal of the cards to come, where keeping three cards and
    passing them to the partner are the same hands in another order, and the model's plain play put one five
    points of match odds above the other (holding 4S 7D 2C at 0 to 0): its noise, not the choice's worth. Each
    family says which decisions its search can judge (``engine.family.Family.judged``)."""
    view = position.view
    return family.of(view).judged(view) and position.chosen.type != "signal" and choices(position) > 1


def decision_rng(seed: int, step: int, seat: int) -> random.Random:
    """A decision's own generator: from the analysis's seed and the decision's place, never a card."""
    return random.Random(f"cardtui-analysis:{seed}:{step}:{seat}")


SCREEN = estimates.PLAY
"""The first look at every choice of a decision: the hard bot's own budget."""
CONTENDERS = 3
"""Beside the choice made, how many of the first look's best choices are looked at again, on fresh deals."""
NEAR = 2.0
"""A verdict is settled when its label would be the same with the loss this many standard errors either way."""
GROWTH = 1.5
"""Each longer look adds half as many deals again: a verdict is looked at again often enough to stop near the
deals it needs (``settled``, ``decided``), not up to twice them."""
FUTILE = 3.0
"""A label is decided (``decided``) when the deals left to the most would have to move the estimate this many
of their standard deviations to change it."""
MOST = 32.0
"""Where a verdict is not settled, the contenders are looked at again on up to this many times the budget's
deals (half as many again each time). 32 rather than 16: two seeds agree on more of the flags, for a hand's
analysis still within its time at the 95th percentile; 64 took it past that (measured in ``bench/marks.md``)."""


RUMMY = 0.25
"""Pif Paf's and Cacheta's looks at the contenders, as a share of the budget (see ``plan``)."""
RUMMY_SCREEN = Budget(0.5)
"""Pif Paf's and Cacheta's first look."""
RUMMY_MOST = 8.0
"""Pif Paf's and Cacheta's most, as a multiple of their look."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What one decision's analysis may spend: a first look at every choice, a look at the contenders on
    fresh deals, and at most this much on them where the verdict sits near a label's line."""

    screen: Budget
    look: Budget
    most: Budget
    contenders: int = CONTENDERS
    """Beside the choice made, how many of the first look's best choices are looked at again."""
    halving: bool = False
    """Whether the first look narrows many choices down to the contenders by halving (``screened``)."""


def plan(view: GameView, budget: Budget = estimates.ANALYSIS) -> Plan:
    """The plan for ``budget`` (the contenders' look). A deal of Pif Paf or Cacheta is a whole hand played
    out turn by turn, far dearer than a truco or Cacho deal: there the first look is half the hard budget's
    (8 deals), the look at the two best contenders a quarter of the budget (32 deals at the analysis
    budget), and the most eight times that (256 deals). Measured in ``make bench --only analysis``."""
    if family.of(view).whole_hands:
        look = Budget(budget.scale * RUMMY)
        return Plan(Budget(min(RUMMY_SCREEN.scale, look.scale)), look, Budget(look.scale * RUMMY_MOST), 2, True)
    return Plan(Budget(min(SCREEN.scale, budget.scale)), budget, Budget(budget.scale * MOST))


def _row(evaluation: Evaluation, action: Action) -> int:
    for i, e in enumerate(evaluation.choices):
        if same(e.action, action):
            return i
    raise ValueError(f"{action.describe()!r} was not a legal choice.")


def above(evaluation: Evaluation, i: int, j: int) -> tuple[float, float]:
    """How far choice ``i`` stands above choice ``j`` (negative: below), and the standard error of that,
    measured deal by deal on the evaluation's deals."""
    a, b = evaluation.choices[i], evaluation.choices[j]
    if not evaluation.rows:
        return a.value - b.value, a.error + b.error
    pair = estimates.weighed(evaluation.unit, [[a.action], [b.action]], [evaluation.rows[i], evaluation.rows[j]],
                             evaluation.weights)
    lower = pair.choices[1] if pair.choices[0].gap == 0.0 else pair.choices[0]
    sign = 1.0 if lower is pair.choices[1] else -1.0
    return sign * lower.gap, lower.gap_error


def joined(first: Evaluation, then: Evaluation) -> Evaluation:
    """Two evaluations of the same choices on different deals, as one on all of them."""
    rows = [a + b for a, b in zip(first.rows, then.rows, strict=True)]
    return estimates.weighed(first.unit, [[e.action] for e in first.choices], rows, first.weights + then.weights)


def floor(evaluation: Evaluation) -> float:
    """The least standard error a gap on these deals is taken to have: the values' range over the deals (or,
    when every choice came out the same on every deal, that value's size) over their number. Two choices that
    came out alike on each of a few deals are not known to be alike (the rule of three)."""
    values = [x for row in evaluation.rows for x in row]
    if not values or not evaluation.deals:
        return 0.0
    hi, lo = max(values), min(values)
    return (hi - lo if hi > lo else abs(hi)) / evaluation.deals


def grade(lost: float, error: float, thresholds: Thresholds = THRESHOLDS) -> int:
    """The rank of the label a loss of ``lost`` points with ``error`` points of standard error gets: 0 for
    none (best, as good), then inaccuracy, mistake, blunder. A line counts only when the loss less ``MARGIN``
    errors is above it: a loss the estimate puts near a line is given the label below, so that another look
    on other deals, which puts it a little higher or lower, mostly gives the same label (a loss within an
    error or two of a line still falls either side of it: README, "What each label means")."""
    sure = lost - MARGIN * error
    if lost <= SEPARATION * error or sure <= thresholds.inaccuracy:
        return 0
    return 3 if sure > thresholds.blunder else 2 if sure > thresholds.mistake else 1


def settled(evaluation: Evaluation, mine: int, unit: Unit, stake_chips: float) -> bool:
    """Whether a longer look could not change how serious the verdict on choice ``mine`` is: the loss, known
    exactly, would be as serious anywhere within ``NEAR`` errors of the estimate, and the label given now
    (``MARGIN`` errors below the estimate) is as serious too (a mistake, a blunder, or neither: between an
    inaccuracy and nothing a longer look is not worth its cost)."""
    worst = max((above(evaluation, i, mine) for i in range(len(evaluation.choices)) if i != mine), default=None)
    if worst is None:
        return True
    lost, error = points(worst[0], unit, stake_chips), points(max(worst[1], floor(evaluation)), unit, stake_chips)
    return serious(lost - (NEAR + MARGIN) * error) == serious(lost + NEAR * error)


def decided(evaluation: Evaluation, mine: int, unit: Unit, stake_chips: float, share: float) -> bool:
    """Whether looking on until the plan's most could not change how serious the label of choice ``mine`` is,
    though the verdict is not ``settled``: these deals are ``share`` of the most. On all of them the loss's
    error would be ``error * sqrt(share)``, so a label's line would stand ``MARGIN`` of that above each
    threshold; the estimate would move from this one by about ``error * sqrt(1 - share)`` (the deals still to
    come), and the label is decided when every such line lies more than ``FUTILE`` of those away. A near tie
    whose error no deals left could bring under the lines is not looked at to the end for nothing."""
    if share >= 1.0:
        return True
    worst = max((above(evaluation, i, mine) for i in range(len(evaluation.choices)) if i != mine), default=None)
    if worst is None:
        return True
    lost, error = points(worst[0], unit, stake_chips), points(max(worst[1], floor(evaluation)), unit, stake_chips)
    move = FUTILE * error * math.sqrt(1.0 - share)
    lines = (THRESHOLDS.mistake, THRESHOLDS.blunder)
    return all(abs(lost - (line + MARGIN * error * math.sqrt(share))) > move for line in lines)


def serious(lost: float, thresholds: Thresholds = THRESHOLDS) -> int:
    """How serious a loss known exactly would be: 0 (at most an inaccuracy), 1 (a mistake), 2 (a blunder)."""
    return 0 if lost <= thresholds.mistake else 1 if lost <= thresholds.blunder else 2


def narrowed(evaluation: Evaluation, mine: int) -> list[int]:
    """The choice made and the best of the others: what a longer look needs to settle the verdict."""
    best = max((i for i in range(len(evaluation.choices)) if i != mine),
               key=lambda i: evaluation.choices[i].value, default=None)
    return [mine] if best is None else [mine, best]


def restricted(evaluation: Evaluation, keep: Sequence[int]) -> Evaluation:
    """The same evaluation, of the choices ``keep`` only."""
    return estimates.weighed(evaluation.unit, [[evaluation.choices[i].action] for i in keep],
                             [evaluation.rows[i] for i in keep], evaluation.weights)


def contenders(evaluation: Evaluation, mine: int, unit: Unit, stake_chips: float, most: int = CONTENDERS,
               thresholds: Thresholds = THRESHOLDS) -> list[int]:
    """The choices that may stand above choice ``mine`` by more than the inaccuracy line (the top of the
    estimate's interval, ``SEPARATION`` errors up): the best ``most`` of them by value. None: no label but
    best or as good could come of a longer look."""
    out = []
    least = floor(evaluation)
    for i in range(len(evaluation.choices)):
        if i == mine:
            continue
        up, error = above(evaluation, i, mine)
        if points(up + SEPARATION * max(error, least), unit, stake_chips) > thresholds.inaccuracy:
            out.append(i)
    return sorted(out, key=lambda i: -evaluation.choices[i].value)[:most]


def screened(view: GameView, first: Evaluation, chosen: Action, rng: random.Random, p: Plan,
             model: Valuer | None = None) -> list[Evaluation]:
    """Where the plan says so, the first look narrowed down to the contenders by halving: the better half
    of the choices (and the one made) looked at on as many deals again as the first look's, until no more
    than the contenders and the choice made are left (ten discards: 8 deals each, then 6 of them on 8 more,
    4 on 8 more, 3 on 8 more: 184 hands played out where the first look alone played 80; doubling the deals
    each round played 288, and put a Pif Paf hand's analysis past 3 s at the 95th percentile). A first look
    of a few deals at ten discards ranks them mostly by its noise: taking its two best as the contenders
    left out, often enough, a discard that a look of 32 deals put three chips above the one made, and the
    verdict on a blunder was "best". Each round's evaluation, on all the deals its choices were played out
    on so far."""
    rounds: list[Evaluation] = []
    current = first
    while p.halving and len(current.choices) > p.contenders + 1:
        mine = _row(current, chosen)
        ranked = sorted(range(len(current.choices)), key=lambda i: -current.choices[i].value)
        keep = sorted(set(ranked[:max(p.contenders, (len(ranked) + 1) // 2)]) | {mine})
        if len(keep) == len(current.choices):
            break
        kept = restricted(current, keep)
        current = joined(kept, (model or valued)(view, [e.action for e in kept.choices], rng, p.screen))
        rounds.append(current)
    return rounds


def analyse_position(position: Position, seed: int, stake_chips: float = 1.0,
                     budget: Budget = estimates.ANALYSIS) -> Moment:
    """One decision's verdict (``verdict``), and for a flagged one, why (``engine.advice``)."""
    moment = verdict(position, seed, stake_chips, budget)
    if moment.label not in FLAGGED:
        return moment
    return dataclasses.replace(moment, reason=advice.reason(position.view, position.legal, position.chosen,
                                                            moment.best))


def verdict(position: Position, seed: int, stake_chips: float = 1.0, budget: Budget = estimates.ANALYSIS) -> Moment:
    """One decision's verdict: solved exactly where few cards are left (``engine.truco.endgame``), else played out
    (``weighed``). Where every deal of the unseen cards gives each choice one value, that value is the verdict,
    known exactly; where it does not, a choice whose minimax is the best on every deal is never flagged (the
    playouts' players are a model, and on such a choice the cards have settled what no model may overrule).

    A truco decision played out is judged against two kinds of player: the hard bot's own model of the others
    (``bots_play``), and the analysis's players, who answer as strong players do (``engine.truco.judge``); it is flagged
    only where both find it loses, and then the milder verdict stands: a loss that one kind of opponent punishes
    and the other does not is no mistake to name. (The bots' model is looked at first, the dearer second look only
    where it flags the choice.)"""
    view = position.view
    fam = family.of(view)
    solution = fam.solve(view, position.legal)
    if solution is not None:
        values = solution.exact()
        if values is not None:
            return judge(position, exact(solution, values), at_stake(view, stake_chips))
    if fam.judges_twice:
        moment = weighed(position, seed, stake_chips, budget, bots_play)
        if moment.label in FLAGGED:
            other = weighed(position, seed, stake_chips, budget, valued)
            if (SEVERITY[other.label], other.points) < (SEVERITY[moment.label], moment.points):
                moment = other
    else:
        moment = weighed(position, seed, stake_chips, budget)
    if solution is not None and moment.label is not Label.BEST and any(
            same(a, position.chosen) for a in solution.right()):
        return dataclasses.replace(moment, label=Label.GOOD, points=0.0, accuracy=100.0)
    return moment


def bots_play(view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
    """Every legal choice valued against the bots' own model of the players (truco: as the hard bot values them)."""
    modelled = family.of(view).bots_model(view, legal, rng, budget)
    return modelled if modelled is not None else search.evaluate(view, legal, rng, budget)


SEVERITY: Mapping[Label, int] = {Label.BEST: 0, Label.GOOD: 0, Label.INACCURACY: 1, Label.MISTAKE: 2, Label.BLUNDER: 3,
                                 Label.MISSED_WIN: 4}
"""How serious each label is: of two verdicts, the milder stands (``verdict``)."""
Valuer = Callable[[GameView, list[Action], random.Random, Budget], Evaluation]
"""What values every legal choice of a decision (``valued``, or the bots' search alone)."""


def exact(solution: family.Solved, values: Sequence[float]) -> Evaluation:
    """The end game's values as an evaluation: known exactly, so every error is nothing."""
    top = max(values)
    choices = tuple(Choice(a, v, 0.0, top - v, 0.0) for group, v in zip(solution.groups, values, strict=True)
                    for a in group)
    return Evaluation(Unit.MATCH, choices, solution.deals, float(solution.deals))


def valued(view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
    """Every legal choice valued as the analysis values it: at truco played out by the analysis's own players
    (``engine.truco.judge``), elsewhere by the bots' search."""
    played = family.of(view).played_out(view, legal, rng, budget)
    return played if played is not None else search.evaluate(view, legal, rng, budget)


def weighed(position: Position, seed: int, stake_chips: float = 1.0, budget: Budget = estimates.ANALYSIS,
            model: Valuer | None = None) -> Moment:
    """One decision's verdict, judged from the seat's view alone.

    Every choice is looked at first with a small budget (``plan``). Where some other choice may stand
    above the one made by more than the inaccuracy line (``contenders``), the one made and the best few
    of those are looked at again on fresh deals (a choice picked for looking well on the first deals
    would look too good on them), and again on more deals (``GROWTH``) while the verdict sits near a label's
    line (``settled``) and the deals left to the plan's most could still change its label (``decided``):
    easy decisions are settled at a glance, and the time goes to the ones that are not, so that the same
    hand analysed with another seed mostly gets the same labels."""
    view, legal = position.view, list(position.legal)
    stake_chips = at_stake(view, stake_chips)
    rng = decision_rng(seed, position.step, position.seat)
    p = plan(view, budget)
    value = model or valued
    first = value(view, legal, rng, p.screen)
    if p.look.scale <= p.screen.scale:
        return judge(position, first, stake_chips)
    rounds = screened(view, first, position.chosen, rng, p, value)
    last = rounds[-1] if rounds else first
    mine = _row(last, position.chosen)
    others = contenders(last, mine, last.unit, stake_chips, p.contenders)
    if not others:
        return judge(position, first, stake_chips, *rounds)
    looked = [last.choices[i].action for i in (mine, *others)]
    fresh = value(view, looked, rng, p.look)
    looks = [*rounds, fresh]
    spent = p.look.scale
    while spent < p.most.scale and not settled(fresh, 0, fresh.unit, stake_chips) and not decided(
            fresh, 0, fresh.unit, stake_chips, spent / p.most.scale):
        if len(fresh.choices) > 2:
            fresh = restricted(fresh, narrowed(fresh, 0))
        more = min(spent * (GROWTH - 1.0), p.most.scale - spent)
        fresh = joined(fresh, value(view, [e.action for e in fresh.choices], rng, Budget(more)))
        looks.append(fresh)
        spent += more
    return judge(position, first, stake_chips, *looks)


def player(game: str) -> Policy:
    """The analysis's own advice at ``game``, played as a bot (``choose`` with the game's own bot to judge, its
    entry's ``judged``)."""
    judged = games.entry(game).judged

    def advised(view: GameView, legal: list[Action], rng: random.Random) -> Action:
        return choose(view, legal, rng, judged)

    advised.__name__ = advised.__qualname__ = f"analysis_{game}"
    return advised


def choose(view: GameView, legal: list[Action], rng: random.Random, judged: Policy | None = None) -> Action:
    """The analysis's own advice, played as a bot (``player(game)``, the arena's ``analysis``). Its advice
    is only worth what it wins: ``make bench --only analysis`` plays it against the hard bot.

    Truco and Cacho: every legal choice valued by the search at the analysis budget, the best taken (it beats
    hard there: bench/marks.md). Pif Paf and Cacheta: the hard bot's move, judged as the analysis judges a
    move made (``analyse_position``), and where the verdict is an inaccuracy or worse, the best move the
    analysis found instead. There the search plays each choice out by a quick plain policy, good for telling
    a move that loses from one that does not, and no better than hard between near equals, which it picks
    among by its noise: the best by the estimate alone lost most matches against hard (``bench/marks.md``).
    So the bot plays as the analysis would have a player play who chose as hard does:
    hard's move where it would say nothing of it. ``judged`` is that bot, the game's own (its entry's ``judged``):
    without it, the search's best is played."""
    moves = [a for a in legal if a.type != "signal"]
    if len(moves) <= 1 or view.you is None:
        return moves[0] if moves else legal[0]
    if judged is None:
        solution = family.of(view).solve(view, moves)
        values = solution.exact() if solution is not None else None
        if solution is not None and values is not None:
            return exact(solution, values).best().action
        return valued(view, moves, rng, estimates.ANALYSIS).best().action
    theirs = judged(view, list(legal), rng)
    position = Position(0, view.you, view, tuple(legal), as_legal(theirs, legal))
    if not worth_judging(position):
        return theirs  # Pif Paf's betting round: the analysis does not judge it
    verdict = analyse_position(position, rng.getrandbits(32))
    return as_legal(verdict.best, legal) if verdict.label in FLAGGED else position.chosen


Progress = Callable[[int, int], None]
"""Told (decisions done, decisions in all) as an analysis goes."""


def analyse(record: Mapping[str, Any], seed: int = 0, seats: Sequence[int] | None = None,
            budget: Budget = estimates.ANALYSIS, progress: Progress | None = None, part: int = 0,
            parts: int = 1) -> HandAnalysis:
    """The analysis of a finished hand's decisions (of ``seats``; every seat when None).

    ``part`` of ``parts``: only that part's share of those decisions (``dealt``). Each decision is judged on
    its own generator (``decision_rng``), so the parts, made apart (by the analysis pool's workers side by
    side) and joined, are the analysis made whole.

    ``ValueError`` for a history that does not replay, or whose hand is not over."""
    if not record.get("result"):
        raise ValueError("That hand is not finished: only finished hands are analysed.")
    every = [p for p in positions(record) if worth_judging(p) and (seats is None or p.seat in seats)]
    every = [every[i] for i in dealt(len(every), part, parts)]
    chips = stake(record)
    moments: list[Moment] = []
    unit = games.entry(str(record["game"])).unit
    if progress is not None:
        progress(0, len(every))
    for n, position in enumerate(every, 1):
        moment = analyse_position(position, seed, chips, budget)
        moments.append(moment)
        if progress is not None:
            progress(n, len(every))
    analysed = tuple(sorted(set(seats) if seats is not None else {int(s["seat"]) for s in record["seats"]}))
    return HandAnalysis(str(record["game"]), str(record.get("table", "")), int(record["hand"]),
                        int(record.get("match", 0)), unit, chips, seed, budget.scale, analysed, tuple(moments))


def dealt(count: int, part: int, parts: int) -> list[int]:
    """Which of ``count`` decisions, in the hand's order, fall to ``part`` of ``parts``: dealt out one each in
    turn, back and forth (0 1 1 0 0 1 ...), since a rummy hand's decisions alternate a draw (cheap) and a
    discard (dear): dealt round and round, one part would draw every draw and the other every discard."""
    return [i for i in range(count) if (i % parts if i // parts % 2 == 0 else parts - 1 - i % parts) == part]


def decisions(record: Mapping[str, Any], seats: Sequence[int] | None = None) -> int:
    """How many decisions ``analyse`` would judge (for a progress bar over many hands)."""
    return sum(1 for p in positions(record) if worth_judging(p) and (seats is None or p.seat in seats))


# -- a match: accuracy per player, the worst moments -----------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat over the hands analysed: lichess-style accuracy and its counts of each label."""

    seat: int
    decisions: int
    accuracy: float
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Worst:
    """One of a match's worst moments: which hand, and the decision."""

    hand: int
    moment: Moment


def game_accuracy(moments: Sequence[Moment]) -> float:
    """Lichess's way of summing moves' accuracies: the mean of their arithmetic and harmonic means
    (the harmonic one keeps a single blunder from hiding among many easy moves)."""
    if not moments:
        return 100.0
    values = [m.accuracy for m in moments]
    mean = sum(values) / len(values)
    harmonic = len(values) / sum(1.0 / max(v, 1.0) for v in values)
    return (mean + harmonic) / 2.0


def summary(hands: Sequence[HandAnalysis], worst: int = 3) -> tuple[tuple[SeatSummary, ...], tuple[Worst, ...]]:
    """A match's accuracy per seat, and its ``worst`` most costly flagged decisions (most points first)."""
    seats = sorted({s for h in hands for s in h.seats})
    out = []
    for seat in seats:
        mine = [m for h in hands for m in h.of_seat(seat)]
        counts = {str(lab): sum(1 for m in mine if m.label is lab) for lab in FLAGGED}
        out.append(SeatSummary(seat, len(mine), game_accuracy(mine), counts))
    ranked = sorted(((h.hand, m) for h in hands for m in h.moments if m.label in FLAGGED),
                    key=lambda hm: (-hm[1].points, hm[0], hm[1].step))
    return tuple(out), tuple(Worst(h, m) for h, m in ranked[:worst])


# -- as JSON (the store, the command line, tools) ----------------------------------------------------
def _num(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else x


def _float(x: Any) -> float:
    return math.inf if x is None else float(x)


def to_json(analysis: HandAnalysis) -> dict[str, Any]:
    """The analysis as a JSON document (docs/history.md §9)."""
    return {
        "format": FORMAT, "game": analysis.game, "table": analysis.table, "hand": analysis.hand,
        "match": analysis.match, "unit": str(analysis.unit), "stake": analysis.stake, "seed": analysis.seed,
        "budget": analysis.budget, "seats": list(analysis.seats),
        "decisions": [{
            "step": m.step, "seat": m.seat, "chosen": action_entry(m.chosen), "best": action_entry(m.best),
            "loss": _num(m.loss), "loss_error": _num(m.loss_error), "points": m.points, "stake": m.stake,
            "label": str(m.label), "accuracy": m.accuracy, "deals": m.deals, "held": [str(c) for c in m.held],
            "reason": advice.to_json(m.reason) if m.reason is not None else None,
            "choices": [{"action": action_entry(c.action), "value": _num(c.value), "error": _num(c.error),
                         "gap": _num(c.gap), "gap_error": _num(c.gap_error)} for c in m.choices],
        } for m in analysis.moments],
    }


def from_json(data: Mapping[str, Any]) -> HandAnalysis:
    """An analysis read back from ``to_json``; ``ValueError`` when it is not one."""
    if data.get("format") != FORMAT:
        raise ValueError(f"That is not an analysis in the {FORMAT} format.")
    try:
        moments = tuple(Moment(
            int(d["step"]), int(d["seat"]), action_of(d["chosen"]), action_of(d["best"]),
            tuple(Choice(action_of(c["action"]), _float(c["value"]), _float(c["error"]), _float(c["gap"]),
                         _float(c["gap_error"])) for c in d["choices"]),
            _float(d["loss"]), _float(d["loss_error"]), float(d["points"]), Label(d["label"]), float(d["accuracy"]),
            int(d.get("deals", 0)), parse_cards(d.get("held", [])), float(d.get("stake", data["stake"])),
            advice.from_json(d.get("reason")),
        ) for d in data["decisions"])
        return HandAnalysis(str(data["game"]), str(data["table"]), int(data["hand"]), int(data["match"]),
                            Unit(data["unit"]), float(data["stake"]), int(data["seed"]), float(data["budget"]),
                            tuple(int(s) for s in data["seats"]), moments)
    except (KeyError, TypeError) as err:
        raise ValueError(f"That analysis is missing {err}.") from None
