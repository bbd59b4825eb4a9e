"""Simple fixed policies, about ten lines each: the yardsticks the bots' levels are measured against.

Each is a bot (``view, legal, rng -> action``) that sees only its seat's view. They are
deliberately plain; each game's entry (``engine.games``) names its own for the arena (``cardtui arena``).

- ``random``: uniform among the legal actions (signals left out while anything else is legal).
- ``paulista-manilha``: truco with 4C or 7H, accept with a manilha or a 3.
- ``paulista-trick-aware``: knows the default ``truco_decides = trick``: calls truco when the
  trick in play is certainly won (the zap, or last to play and on top), accepts when its
  best card beats the table's, and plays its best card into a trick that decides the hand.
- ``argentino-simple``: truco with 1e or 1b, accept with a top-four card or a 3, envido at 27+.
- ``argentino-caller``: the same, but answers every envido with quiero from 24: it punishes an
  envido called on nothing.
- ``cacho-value``: minimum bets with value, call with 28+.
- ``cacheta-isolated`` / ``pifpaf-isolated``: take a discard only when it melds, discard the
  most isolated loose card, knock, declare and cut whenever possible; Pif Paf checks and calls.
- ``cacheta-pairs``: the same, but it keeps its loose pairs and throws its highest loose card.
- ``cacheta-guarded``: the same as pairs, but it never throws a card linked to one another
  player took from the pile.

Exploiters: fixed answers that farm a bot whose bluffs come too often or too rarely. Each
plays as its game's baseline except in answering a bet:

- truco (both games) ``always-accept``: accepts every truco and envido (and never raises);
  ``never-accept``: refuses every one (a bettor that never bluffs loses nothing to it).
- Cacho ``always-call``: calls every bet in round 3; ``nuts-call``: calls only with the nuts
  (three sixes or a cacho), folds everything else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cardtui.engine.betting import BET as BET_FIRST
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.cacheta import CUT, DECLARE
from cardtui.engine.cacho import BET, CachoView, strength
from cardtui.engine.cacho import CACHO as CACHO_CAT
from cardtui.engine.cacho import PASS as CACHO_PASS
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, GameView
from cardtui.engine.melds import Ruleset, melder
from cardtui.engine.rummy_records import CLAIM, DISCARD, DRAW, KNOCK, PASS, PILE, STOCK, RummyView
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.signals import SIGNAL
from cardtui.engine.truco.views import PaulistaPhase, TrucoPlay, TrucoView

Policy = Callable[[GameView, list[Action], random.Random], Action]

PAU_MANILHAS = frozenset(Card.parse(c) for c in ("4C", "7H", "AS", "7D"))
ARG_TOP = frozenset(Card.parse(c) for c in ("1e", "1b", "7e", "7o"))


def random_policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Uniform among the legal actions, leaving signals out unless nothing else is legal."""
    moves = [a for a in legal if a.type != SIGNAL] or legal
    return moves[int(rng.random() * len(moves))]


# -- shared by the truco baselines and bots --------------------------------------------------------
def first(legal: Sequence[Action], *types: str) -> Action | None:
    """The first legal action of the first of ``types`` that has one."""
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None


def table_best(trick: Sequence[TrucoPlay], rank: dict[Card, int]) -> tuple[int, int]:
    """(strength, seat) of the best card on the trick in play; (-1, -1) when none can win."""
    best = (-1, -1)
    for p in trick:
        if p.card is not None and not p.void and not p.face_down and rank[p.card] > best[0]:
            best = (rank[p.card], p.seat)
    return best


def play_low(view: TrucoView, legal: Sequence[Action], rank: dict[Card, int], high: bool = False) -> Action:
    """The lowest card that takes the trick, or the lowest card when a partner holds it or none takes it;
    with ``high``, the best card (a trick that decides the hand)."""
    plays = [a for a in legal if a.type == "play"]
    if not plays:
        return first(legal, "play_blind", "quiero", "accept", "son_buenas") or random_policy(view, list(legal), _RNG)
    you = view.you or 0
    best, seat = table_best(view.trick, rank)
    ours = seat >= 0 and seat & 1 == you & 1
    by_rank = sorted(plays, key=lambda a: rank[a.cards[0]])
    if ours and len(view.trick) >= 2:
        return by_rank[0]
    if high:
        return by_rank[-1]
    winners = [a for a in by_rank if rank[a.cards[0]] > best]
    return winners[0] if winners and not ours else by_rank[0]


_RNG = random.Random(0)


# -- truco paulista ------------------------------------------------------------------------
def paulista_manilha(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Truco with 4C or 7H; accept with a manilha or a 3; keep every deal; lowest winning card."""
    assert isinstance(view, TrucoView) and view.paulista is not None
    hand = set(view.cards)
    if view.paulista.phase is PaulistaPhase.ONZE:
        hand |= set(view.seats[((view.you or 0) + 2) % 4].cards)
    good = any(c in PAU_MANILHAS or c.rank == 3 for c in hand)
    if first(legal, "keep"):
        return first(legal, "keep") or legal[0]
    if first(legal, "accept"):
        return first(legal, "accept" if good else "run") or legal[0]
    call = first(legal, "truco")
    if call is not None and hand & {Card.parse("4C"), Card.parse("7H")}:
        return call
    return play_low(view, legal, PAU_RANK)


def paulista_trick_aware(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Knows ``truco_decides = trick``: truco when the trick in play is certainly won, accept when
    its best card beats the table's, its best card into a trick that decides the hand."""
    assert isinstance(view, TrucoView) and view.paulista is not None
    part = view.paulista
    you = view.you or 0
    hand = view.cards
    mine = max((PAU_RANK[c] for c in hand), default=-1)
    best, seat = table_best(view.trick, PAU_RANK)
    last = len(view.trick) == 3
    if first(legal, "keep"):
        return first(legal, "keep") or legal[0]
    if part.phase is PaulistaPhase.ONZE:
        both = [*hand, *view.seats[(you + 2) % 4].cards]
        return first(legal, "accept" if sum(c in PAU_MANILHAS or c.rank == 3 for c in both) >= 2 else "run") or legal[0]
    if first(legal, "accept"):
        if part.call_decides:
            ok = mine > best and mine >= PAU_RANK[Card.parse("3S")]
        else:
            ok = mine >= PAU_RANK[Card.parse("7D")]
        return first(legal, "accept" if ok or (seat >= 0 and seat & 1 == you & 1 and last) else "run") or legal[0]
    call = first(legal, "truco")
    certain = mine == PAU_RANK[Card.parse("4C")] or (last and (mine > best or (seat >= 0 and seat & 1 == you & 1)))
    if call is not None and certain:
        return call
    return play_low(view, legal, PAU_RANK, high=part.trick_decides)


# -- truco argentino ------------------------------------------------------------------------
def argentino_simple(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Truco with 1e or 1b, accept with a top-four card or a 3, envido at 27+; sings a flor, lowest winning card."""
    assert isinstance(view, TrucoView) and view.argentino is not None
    part = view.argentino
    hand = set(view.cards)
    env = part.your_envido or 0
    forced = first(legal, "flor", "announce", "son_buenas")
    if forced is not None:
        return forced
    pending = view.pending
    if pending is not None and pending.bet.value == "flor":
        return first(legal, "quiero" if (part.your_flor or 0) >= 33 else "con_flor_me_achico", "no_quiero") or legal[0]
    if pending is not None and pending.bet.value == "envido":
        return first(legal, "quiero" if env >= 27 else "no_quiero") or legal[0]
    if pending is not None:
        good = any(c in ARG_TOP or c.rank == 3 for c in hand) or any(
            t.team == (view.you or 0) & 1 for t in view.tricks)
        return first(legal, "quiero" if good else "no_quiero") or legal[0]
    if part.may_envido and env >= 27 and first(legal, "envido"):
        return first(legal, "envido") or legal[0]
    call = first(legal, "truco")
    if call is not None and hand & {Card.parse("1e"), Card.parse("1b")}:
        return call
    return play_low(view, legal, ARG_RANK)


def argentino_caller(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``argentino_simple``, but every envido (and its raises) is accepted from 24 points."""
    assert isinstance(view, TrucoView) and view.argentino is not None
    pending = view.pending
    if pending is not None and pending.bet.value == "envido":
        return first(legal, "quiero" if (view.argentino.your_envido or 0) >= 24 else "no_quiero") or legal[0]
    return argentino_simple(view, legal, rng)


# -- cacho ------------------------------------------------------------------------------
def cacho_value(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Bet the minimum with value, call with 28 or more (a suited pair of 8+, any cacho, three sixes)."""
    assert isinstance(view, CachoView)
    cards = view.seats[view.you or 0].cards
    kinds = {a.type: a for a in legal}
    if view.round == 1:
        return kinds[BET]
    if view.round == 2:
        suited = cards[0].suit is cards[1].suit
        return kinds[BET] if suited or max(c.rank for c in cards) >= 5 else kinds[CACHO_PASS]
    cat, pts = strength(cards)
    value = 99 if cat == 3 else (pts if cat else 0)
    bets = [a for a in legal if a.type in (BET_FIRST, RAISE)]
    if value >= 28 and CHECK in kinds and bets:
        return bets[0]
    if CHECK in kinds:
        return kinds[CHECK]
    return kinds[CALL] if value >= 28 and CALL in kinds else kinds[FOLD]


# -- the rummy games ---------------------------------------------------------------------------
def _isolation(card: Card, others: Sequence[Card]) -> int:
    """How many other cards could meld with ``card``: same rank in another suit, or a near neighbour in suit."""
    return sum(
        1 for o in others
        if (o.rank == card.rank and o.suit is not card.suit)
        or (o.suit is card.suit and 0 < abs(o.rank - card.rank) <= 2)
    )


Discard = Callable[[RummyView, Sequence[Card], Sequence[Card]], Card]
"""Which card a rummy baseline throws: from its view, the natural loose cards (or its hand) and its hand."""


def _most_isolated(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    return min(pool, key=lambda c: (_isolation(c, [o for o in hand if o != c]), -c.rank))


def rummy_isolated(view: GameView, legal: list[Action], rng: random.Random, discard: Discard = _most_isolated
                   ) -> Action:
    """Take a discard only when it joins a meld; discard the most isolated loose card; knock, declare,
    claim or cut whenever the rules let it go out; Pif Paf: check, or call."""
    assert isinstance(view, RummyView)
    kinds = {a.type: a for a in legal}
    r = view.rules
    m = melder(Ruleset(r.group_suits, ace_high=r.ace_high, wild_acts=r.wild_acts), view.wilds)
    hand = list(view.cards)
    if CHECK in kinds or CALL in kinds or FOLD in kinds:
        return kinds.get(CHECK) or kinds.get(CALL) or kinds[FOLD]
    knocks = [a for a in legal if a.type == KNOCK]
    if knocks:
        return next((a for a in knocks if not a.cards), knocks[0])
    if DECLARE in kinds:
        return kinds[DECLARE]
    for claim in (CLAIM, CUT):
        if claim in kinds and view.window is not None and view.window.card in m.completing(hand):
            return kinds[claim]
    if PASS in kinds:
        return kinds[PASS]
    if DRAW in kinds:
        pile = Action(DRAW, value=PILE)
        if view.pile and pile in legal:
            melded = len(hand) - len(m.arrange(hand)[1])
            with_top = [*hand, view.pile[-1]]
            if len(with_top) - len(m.arrange(with_top)[1]) > melded or Action(DRAW, value=STOCK) not in legal:
                return pile
        return Action(DRAW, value=STOCK)
    if DISCARD in kinds:
        _, loose = m.arrange(hand)
        pool = [c for c in (loose or hand) if c not in m.wilds] or list(loose or hand)
        return Action(DISCARD, cards=(discard(view, pool, hand),))
    return legal[0]


def _highest_unpaired(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    unpaired = [c for c in pool if not any(_isolation(c, [o]) for o in pool if o is not c)]
    return max(unpaired or pool, key=lambda c: (c.rank, c.suit.value))


def cacheta_pairs(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``rummy_isolated``, but it keeps its loose pairs and throws the highest loose card outside them."""
    return rummy_isolated(view, legal, rng, _highest_unpaired)


def _unlinked(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    taken = [c for s in view.seats if s.seat != view.you for c in s.taken]
    safe = [c for c in pool if not any(_isolation(c, [t]) or c == t for t in taken)]
    return _highest_unpaired(view, safe or pool, hand)


def cacheta_guarded(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacheta_pairs``, but it never throws a card linked to one another player took from the pile
    (the same card, its rank in another suit, or its suit within two) while it has another loose card."""
    return rummy_isolated(view, legal, rng, _unlinked)


# -- exploiters -----------------------------------------------------------------------------------
def answering(base: Policy, accept: bool) -> Policy:
    """``base``, but every pending truco or envido answered ``accept`` (or refused), never raised."""
    words = ("quiero", "accept") if accept else ("no_quiero", "run")

    def policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(view, TrucoView)
        onze = view.paulista is not None and view.paulista.phase is PaulistaPhase.ONZE
        if view.pending is not None and not onze and view.pending.bet.value in ("truco", "envido"):
            pick = first(legal, *words)
            if pick is not None:
                return pick
        return base(view, legal, rng)

    policy.__doc__ = f"{base.__name__}, answering every truco and envido {'yes' if accept else 'no'}."
    return policy


def cacho_always_call(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacho_value``, but every bet in round 3 is called."""
    call = first(legal, CALL)
    return call if call is not None else cacho_value(view, legal, rng)


def cacho_nuts_call(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacho_value``, but a bet is called only with the nuts (three sixes or a cacho), else folded."""
    assert isinstance(view, CachoView)
    fold = first(legal, FOLD)
    if fold is not None and first(legal, CALL) is not None:
        cat, _ = strength(view.seats[view.you or 0].cards)
        return first(legal, CALL) or fold if cat >= CACHO_CAT else fold
    return cacho_value(view, legal, rng)
