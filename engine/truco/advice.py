"""Why a truco decision was flagged, in facts the seat knew (``engine.advice`` has the records and says which kind a
decision's reason is): an envido call or its answer told as envido, any other decision as truco."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from cardtui.engine.advice import EnvidoReason, Outcome, Reason, Side, TrucoReason
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.seen import unseen
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.envido import envido
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.tricks import DOWN, TieRule, hand_winner, trick_winner
from cardtui.engine.truco.views import PaulistaPhase, TrucoView

ENVIDO_WORDS = frozenset({Word.ENVIDO, Word.REAL_ENVIDO, Word.FALTA_ENVIDO})
CALLER_HOLDS: Mapping[str, int] = {Word.ENVIDO: 27, Word.REAL_ENVIDO: 30, Word.FALTA_ENVIDO: 31}
"""The envido a player who calls (or raises to) each call usually holds at least: the common advice of the
table (call envido from 27, real envido from 30), which the bots follow too (``bots.truco``). A convention,
not a read of the caller's cards: the words say "usually"."""
CARD_PLAYS = frozenset({"play", "play_down"})


def reason(view: TrucoView, chosen: Action, best: Action) -> Reason | None:
    """Why ``chosen`` stands where it does beside ``best`` (``engine.advice``), from the seat's view alone."""
    types = {chosen.type, best.type}
    pending = view.pending
    answering_envido = pending is not None and pending.bet is Bet.ENVIDO
    if types & ENVIDO_WORDS or answering_envido:
        return _envido(view, pending.call if answering_envido and pending is not None else None)
    if any("flor" in t for t in types) or (pending is not None and pending.bet is Bet.FLOR):
        return None
    return _strength(view, chosen, best)


def _score(view: TrucoView) -> tuple[int, int]:
    team = (view.you or 0) & 1
    return view.scores[team], view.scores[1 - team]


def _envido(view: TrucoView, call: Word | None) -> EnvidoReason | None:
    part = view.argentino
    if part is None or part.your_envido is None:
        return None
    mine = part.your_envido
    left = sorted(unseen(view).elements(), key=str)
    theirs = [envido(h, part.envido_unsuited)[0] for h in combinations(left, 3)]
    floor = CALLER_HOLDS.get(call, 0) if call is not None else 0
    strong = [e for e in theirs if e >= floor] if floor else []
    us, them = _score(view)
    return EnvidoReason(mine, _beats(mine, theirs), str(call) if call is not None else "", floor,
                        _beats(mine, strong) if strong else -1.0, us, them, view.target)


def _beats(mine: int, theirs: Sequence[int]) -> float:
    if not theirs:
        return -1.0
    return sum(1.0 if mine > e else 0.5 if mine == e else 0.0 for e in theirs) / len(theirs)


def _strength(view: TrucoView, chosen: Action, best: Action) -> TrucoReason:
    paulista = view.paulista
    rank = PAU_RANK if paulista is not None else ARG_RANK
    left = list(unseen(view).elements())
    you = view.you or 0
    mine = list(view.cards)
    if paulista is not None and paulista.onze_team is not None:
        mine += view.seats[(you + 2) % len(view.seats)].cards  # a mão de onze is played on both hands
    shares = sorted((sum(1 for u in left if rank[c] > rank[u]) / max(1, len(left)) for c in mine), reverse=True)
    team = you & 1
    results = [t.team for t in view.tricks]
    won = sum(1 for r in results if r == team)
    lost = sum(1 for r in results if r is not None and r != team)
    out = TrucoReason(shares[0] if shares else -1.0, shares[1] if len(shares) > 1 else -1.0, won, lost)
    playing = not view.hand_over and (paulista is None or paulista.phase is PaulistaPhase.PLAY)
    if not playing:
        return out
    plays = [(p.seat, DOWN if p.card is None or p.face_down or p.void else rank[p.card]) for p in view.trick]
    winner, first = trick_winner(plays)
    high = next((p.card for p in view.trick if p.seat == first), None) if first is not None else None

    def side(team_of: int | None) -> Side:
        return Side.NEITHER if team_of is None else Side.YOURS if team_of == team else Side.THEIRS

    played = {p.seat for p in view.trick}
    players = view.argentino.players if view.argentino is not None else tuple(range(len(view.seats)))
    theirs = [s for s in players if s & 1 != team and s not in played and view.seats[s].card_count > 0
              and not view.seats[s].gone]

    def sure(card: Card) -> bool:
        """No card the other side may still play to the trick beats (or ties) ``card``."""
        return not theirs or all(rank[u] < rank[card] for u in left)

    def does(card: Card, down: bool) -> Outcome:
        if down:
            return Outcome.DOWN
        if not view.trick:
            return Outcome.SURE if sure(card) else Outcome.LEADS
        w, f = trick_winner([*plays, (you, rank[card])])
        if w is None:
            return Outcome.TIES if f is not None else Outcome.LOSES
        if w == you:
            return Outcome.SURE if sure(card) else Outcome.TAKES
        return Outcome.KEPT if w & 1 == team else Outcome.LOSES

    if chosen.type in CARD_PLAYS:
        card: Card | None = chosen.cards[0]
    else:
        card = max(view.cards, key=lambda c: rank[c]) if view.cards else None
    other = best.cards[0] if best.type in CARD_PLAYS and best.cards and best.cards[0] != card else None
    mano, rule = (paulista.mao, TieRule.FIRST_DECIDED) if paulista is not None else (
        (view.argentino.mano, view.argentino.ties) if view.argentino is not None else (0, TieRule.FIRST_DECIDED))
    deciding = paulista is not None and paulista.trick_decides
    return TrucoReason(
        out.first, out.second, won, lost, len(view.tricks) + 1,
        tuple(p.card for p in view.trick if p.card is not None and not p.face_down),
        high, None if first is None else side(None if winner is None else winner & 1),
        card, does(card, chosen.type == "play_down") if card is not None and not (
            chosen.type not in CARD_PLAYS and any(p.seat == you for p in view.trick)) else None,
        other, does(other, best.type == "play_down") if other is not None else None,
        side(hand_winner([*results, None], mano & 1, rule)),
        deciding or hand_winner([*results, team], mano & 1, rule) == team)
