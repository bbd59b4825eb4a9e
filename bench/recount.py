"""Every fact an advice states (``engine.advice``), counted again from the hand's history alone.

A reason is worked out from the deciding seat's view; this module works the same facts out from the
hand history (docs/history.md: ``deal``, ``actions``, ``options``, ``start``, the ``result``'s finished
tricks and rounds), by code of its own: the truco ranks, tricks, ties and envido as docs/rules.md states them,
Cacho's hands as docs/rules.md §5 states them, the cards a rummy seat has seen by following every draw, throw
and rebuild, and a hand's cards outside melds by the exhaustive reference search (``engine.rummy.meld_reference``,
"slow on purpose and obviously correct"), never by the engine's games, its views, its search or its
``engine.seen``. ``facts(record, step, chosen, best, reason)`` lists each fact the reason states with the
value it states and the value recounted; the facts' test and ``make bench --only facts`` hold them equal.
"""

from __future__ import annotations

import contextlib
import importlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import combinations
from typing import Any

from cardtui.engine import games
from cardtui.engine.advice import Reason
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.meld_reference import Exhaustive
from cardtui.engine.rummy.melds import CARDS, GroupRule, Ruleset, wild_cards

# -- the decks and ranks, as docs/rules.md writes them --------------------------------------------------------
FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PAULISTA_DECK = tuple(Card.parse(r + s) for s in "SHDC" for r in FRENCH_RANKS if r not in ("8", "9", "10"))
ARGENTINO_DECK = tuple(Card.parse(f"{r}{s}") for s in "eboc" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
CACHO_DECK = tuple(Card.parse(r + s) for s in "SHDC" for r in FRENCH_RANKS[:6])
RUMMY_DECK = tuple(c for c in CARDS for _ in range(2))


def _ranking(top: Sequence[str], order: Sequence[str], suits: str) -> dict[Card, int]:
    """Strength by docs/rules.md's ranking: the named top cards, then each rank of ``order`` (high to low), any suit."""
    out: dict[Card, int] = {}
    groups = [[Card.parse(c)] for c in top] + [
        [c for c in (Card.parse(r + s) for s in suits) if str(c) not in top] for r in order]
    for i, group in enumerate(groups):
        for c in group:
            out[c] = len(groups) - i
    return out


PAULISTA_RANK = _ranking(("4C", "7H", "AS", "7D"), ("3", "2", "A", "K", "J", "Q", "7", "6", "5", "4"), "SHDC")
"""docs/rules.md §3: 4C, 7H, AS, 7D, then 3, 2, A, K, J, Q, 7, 6, 5, 4 (suits tie)."""
ARGENTINO_RANK = _ranking(("1e", "1b", "7e", "7o"), ("3", "2", "1", "12", "11", "10", "7", "6", "5", "4"), "eboc")
"""docs/rules.md §4: 1e, 1b, 7e, 7o, then 3, 2, 1, 12, 11, 10, 7, 6, 5, 4."""
CALLER_HOLDS = {"envido": 27, "real_envido": 30, "falta_envido": 31}
"""docs/players.md: envido 27, real envido 30, falta envido 31 or more (the convention the reason names)."""
CALLS = frozenset({"truco", "retruco", "vale_cuatro", "seis", "nove", "doze"})
ENVIDO_CALLS = frozenset({"envido", "real_envido", "falta_envido"})


@dataclass(frozen=True)
class Fact:
    """One fact a reason states: its name, the value stated and the value recounted."""

    name: str
    stated: Any
    counted: Any

    @property
    def true(self) -> bool:
        if isinstance(self.stated, float) and isinstance(self.counted, float):
            return math.isclose(self.stated, self.counted, abs_tol=1e-9)
        return bool(self.stated == self.counted)


def stated(reason: Reason) -> dict[str, Any]:
    """A reason's facts by name (cards as notation, a side or an outcome as its word)."""
    out: dict[str, Any] = {}
    for f in fields(reason):
        value = getattr(reason, f.name)
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple):
            value = tuple(str(c) for c in value)
        elif value is not None and not isinstance(value, bool | int | float):
            value = str(value)
        out[f.name] = value
    return out


def facts(record: Mapping[str, Any], step: int, chosen: Action, best: Action, reason: Reason) -> list[Fact]:
    """Each fact ``reason`` states of the decision at ``step`` (the replay's: the step-th entry of a seat), beside
    the value recounted from ``record`` alone."""
    game = str(record["game"])
    counted: dict[str, Any]
    if game in ("truco_paulista", "truco_argentino"):
        counted = Truco(record, step).reason(chosen, best, str(reason.kind))
    elif family_of(game) == "rummy":
        counted = rummy(record, step).reason(chosen, best, str(reason.kind))
    else:
        counted = Cacho(record, step).reason()
    said = stated(reason)
    return [Fact(name, said[name], counted.get(name, "(not recounted)")) for name in said]


def seen_by(record: Mapping[str, Any], step: int) -> Counter[Card]:
    """The copies of each card the seat deciding at ``step`` has seen (what ``engine.seen`` counts from its view)."""
    game = str(record["game"])
    if game in ("truco_paulista", "truco_argentino"):
        return Counter(Truco(record, step).seen)
    if family_of(game) == "rummy":
        return Counter(rummy(record, step).seen)
    return Counter(Cacho(record, step).hand)


def entries(record: Mapping[str, Any], step: int) -> tuple[list[Mapping[str, Any]], Mapping[str, Any]]:
    """The history's entries before the ``step``-th of a seat, and that entry."""
    before: list[Mapping[str, Any]] = []
    n = 0
    for entry in record["actions"]:
        if entry.get("seat") is not None:
            n += 1
            if n == step:
                return before, entry
        before.append(entry)
    raise ValueError(f"The history has no step {step}.")


def cards(names: Sequence[str] | None) -> list[Card]:
    return [Card.parse(c) for c in names or ()]


def share(mine: int, theirs: Sequence[int]) -> float:
    """How often ``mine`` beats each of ``theirs``, a tie half (-1 for none)."""
    if not theirs:
        return -1.0
    return sum(1.0 if mine > e else 0.5 if mine == e else 0.0 for e in theirs) / len(theirs)


# -- truco ------------------------------------------------------------------------------------------------
def envido_points(card: Card) -> int:
    """docs/rules.md §4: 10-12 count 0, the others their number."""
    return 0 if card.rank >= 10 else card.rank


def envido_of(hand: Sequence[Card], highest: bool) -> int:
    """The best two cards of one suit plus 20; with no two of a suit, the two best summed (or the best alone)."""
    suited = [envido_points(a) + envido_points(b) + 20 for a, b in combinations(hand, 2) if a.suit == b.suit]
    if suited:
        return max(suited)
    points = sorted((envido_points(c) for c in hand), reverse=True)
    return points[0] if highest else sum(points[:2])


def trick_result(plays: Sequence[tuple[int, int]]) -> tuple[int | None, int | None]:
    """(the seat that takes a trick of ``(seat, strength)``, -1 a card that cannot win; the earliest seat with the
    highest card): the highest card takes it, partners tied take it for their side (the earlier), the sides tied
    leave it to no one."""
    live = [(s, v) for s, v in plays if v >= 0]
    if not live:
        return None, None
    top = max(v for _, v in live)
    holders = [s for s, v in live if v == top]
    if len({s % 2 for s in holders}) > 1:
        return None, holders[0]
    return holders[0], holders[0]


def hand_won(results: Sequence[int | None], mano_team: int, first_decided: bool) -> int | None:
    """The team a hand's tricks so far give it to (None: not yet). Two tricks take it. ``first_decided`` (paulista,
    argentino's first_trick): a tie goes to the first trick a side took, and all three tied to the mano's side.
    Else (argentino's play_on): a tied first trick makes the second take all; with the third played, the third takes
    all, and a tied third goes to the mano's side."""
    for team in (0, 1):
        if sum(1 for r in results if r == team) >= 2:
            return team
    decided = [r for r in results if r is not None]
    if first_decided:
        if None in results and decided:
            return decided[0]
        return mano_team if len(results) >= 3 else None
    if len(results) == 2 and results[0] is None and results[1] is not None:
        return results[1]
    if len(results) >= 3:
        return mano_team if results[2] is None else results[2]
    return None


@dataclass
class Round:
    """One truco round as far as the history has gone: its seats (mano first), its tricks."""

    seats: tuple[int, ...]
    tricks: list[list[tuple[int, Card | None, bool]]] = field(default_factory=list)
    """Each trick's plays: (seat, card, face down); the last one may be in play."""
    gone: set[int] = field(default_factory=set)
    """Seats gone to the deck."""
    void: set[tuple[int, int]] = field(default_factory=set)
    """(trick, seat) whose card cannot win: its player went to the deck before the trick was over."""


class Truco:
    """What the deciding seat of a truco hand knew at one decision, from the history alone."""

    def __init__(self, record: Mapping[str, Any], step: int) -> None:
        self.record = record
        self.paulista = record["game"] == "truco_paulista"
        self.rank = PAULISTA_RANK if self.paulista else ARGENTINO_RANK
        self.deck = PAULISTA_DECK if self.paulista else ARGENTINO_DECK
        options = record.get("options") or {}
        self.before, self.entry = entries(record, step)
        self.seat = int(self.entry["seat"])
        self.n = len(record["seats"])
        self.dealer = int(record["dealer"])
        self.mano_seat = (self.dealer + 1) % self.n
        self.highest = options.get("envido_unsuited", "sum_two") == "highest"
        self.first_decided = self.paulista or options.get("ties", "play_on") in ("first_trick", "traditional")
        self.trick_mode = self.paulista and options.get("truco_decides", "trick") == "trick"
        self.target = 12 if self.paulista else int(options.get("target", 30))
        result = record.get("result") or {}
        self.onze = result.get("onze") if self.paulista else None
        self.ferro = bool(result.get("ferro")) if self.paulista else False
        self.deal = {int(s): cards(c) for s, c in record["deal"].items()}
        self._walk(result)

    # -- the hand up to the decision ---------------------------------------------------------------
    def _rounds(self, result: Mapping[str, Any]) -> list[tuple[int, ...]]:
        if self.paulista:
            return [tuple((self.mano_seat + i) % 4 for i in range(4))]
        if record_rounds := result.get("rounds"):
            return [tuple(r["seats"]) for r in record_rounds]
        return [tuple((self.mano_seat + i) % self.n for i in range(self.n))]

    def _walk(self, result: Mapping[str, Any]) -> None:
        self.seen: set[Card] = set()
        self.played: dict[int, list[Card]] = {s: [] for s in range(self.n)}
        self.rejected: list[Card] = []
        self.passed: list[Card] = []
        self.accepted_call = False
        self.pending_calls: list[str] = []
        self.envido_pending: str | None = None
        self.phase = "deal" if self.paulista and self.onze is None and not self.ferro else "play"
        if self.paulista and self.onze is not None and not self.ferro:
            self.phase = "onze"
        rounds = self._rounds(result)
        if self.paulista:
            self.round = Round(rounds[0])
            earlier_rounds: list[Mapping[str, Any]] = []
        else:
            here = next(i for i, seats in enumerate(rounds) if self.seat in seats) if len(rounds) > 1 else 0
            self.round = Round(rounds[here])
            earlier_rounds = list(result.get("rounds") or [])[:here]
        self.earlier = earlier_rounds
        mine = self.seat
        for e in self.before:
            t, s = e["type"], e.get("seat")
            if s is None:
                continue
            if t in ("play", "play_down", "play_blind"):
                card = cards(e.get("cards"))[0] if e.get("cards") else None
                if card is not None:
                    self.played[s].append(card)
                    if t != "play_down" or s == mine:
                        self.seen.add(card)
                if s in self.round.seats:
                    self._play(s, card, t == "play_down")
            elif t == "pass_cards":
                self.passed = cards(e.get("cards"))
                if s == mine:
                    self.seen.update(self.passed)
            elif t == "reject":
                self.rejected += cards(e.get("cards"))
                self.seen.update(cards(e.get("cards")))
            elif t == "keep" or (t in ("accept", "run") and self.phase == "onze" and not self.pending_calls):
                self.phase = "play"  # the mão kept its cards, or the team on 11 played its hand or ran
            elif t in CALLS:
                self.pending_calls.append(t)
            elif t in ("accept", "quiero"):
                if self.envido_pending is not None:
                    self.envido_pending = None
                elif self.pending_calls:
                    self.pending_calls = []
                    self.accepted_call = True
            elif t in ("run", "no_quiero"):
                if self.envido_pending is not None:
                    self.envido_pending = None
                else:
                    self.pending_calls = []
            elif t in ENVIDO_CALLS:
                self.envido_pending = t
            elif t in ("flor", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico"):
                self.envido_pending = None
            elif t == "mazo":
                if self.envido_pending is not None:
                    self.envido_pending = None  # a no quiero
                elif self.pending_calls:
                    self.pending_calls = []
                self._gone(s)
        for r in self.earlier:  # a pica-pica hand's earlier duels: their cards and what they showed
            for trick in r.get("tricks", ()):
                self.seen.update(Card.parse(c) for c in trick["cards"].values() if c != "down")
            for bet in ("envido", "flor"):
                self.seen.update(cards((r.get(bet) or {}).get("cards")))
        for s in range(self.n):
            if s not in self.round.seats:
                self.seen.update(self.played[s])  # an earlier duel's plays, even one cut short
        self.seen.update(self.held())
        if self.onze is not None and mine % 2 == self.onze and not self.ferro:
            self.seen.update(self.held((mine + 2) % 4))

    def _play(self, seat: int, card: Card | None, down: bool) -> None:
        r = self.round
        if not r.tricks or self._over(len(r.tricks) - 1):
            r.tricks.append([])
        r.tricks[-1].append((seat, card, down))

    def _gone(self, seat: int) -> None:
        r = self.round
        r.gone.add(seat)
        if r.tricks and not self._over(len(r.tricks) - 1) and any(s == seat for s, _, _ in r.tricks[-1]):
            r.void.add((len(r.tricks) - 1, seat))

    def _players(self, trick: int) -> list[int]:
        """The seats that play trick ``trick``: the round's seats not gone to the deck before it ended."""
        r = self.round
        return [s for s in r.seats if s not in r.gone or any(p == s for p, _, _ in r.tricks[trick])]

    def _over(self, trick: int) -> bool:
        played = {s for s, _, _ in self.round.tricks[trick]}
        return set(self._players(trick)) <= played

    def held(self, seat: int | None = None) -> list[Card]:
        """A seat's cards still in its hand (its own, or a partner's it sees)."""
        seat = self.seat if seat is None else seat
        if self.ferro and seat == self.seat:
            return []
        if self.phase == "deal" and seat == self.seat:
            t = self.entry["type"]
            return cards(self.entry.get("cards")) if t in ("pass_cards", "reject") else list(self.deal[seat])
        if self.paulista and seat != self.mano_seat and self.phase == "deal":
            return []
        if not self.paulista and seat not in self.round.seats:
            return []
        left = list(self.deal.get(seat, ()))
        for c in self.played[seat]:
            if c in left:
                left.remove(c)
        if not self.paulista and seat in self.round.gone:
            return []
        return left

    def strength(self, card: Card | None, down: bool, void: bool) -> int:
        return -1 if card is None or down or void else self.rank[card]

    def plays(self, trick: int) -> list[tuple[int, int]]:
        return [(s, self.strength(c, d, (trick, s) in self.round.void)) for s, c, d in self.round.tricks[trick]]

    def results(self) -> list[int | None]:
        r = self.round
        out: list[int | None] = []
        for i in range(len(r.tricks)):
            if self._over(i):
                winner, _ = trick_result(self.plays(i))
                out.append(None if winner is None else winner % 2)
        return out

    # -- the facts ----------------------------------------------------------------------------------
    def unseen(self) -> list[Card]:
        return [c for c in self.deck if c not in self.seen]

    def reason(self, chosen: Action, best: Action, kind: str) -> dict[str, Any]:
        return self.envido() if kind == "envido" else self.truco(chosen, best)

    def envido(self) -> dict[str, Any]:
        mine = envido_of(self.deal[self.seat], self.highest)
        theirs = [envido_of(h, self.highest) for h in combinations(self.unseen(), 3)]
        call = self.envido_pending or ""
        floor = CALLER_HOLDS.get(call, 0)
        strong = [e for e in theirs if e >= floor] if floor else []
        team = self.seat % 2
        score = [int(self.record["start"][str(t)]) for t in (0, 1)]  # seats 0 and 1: one of each team
        if (self.record.get("options") or {}).get("envido_scored") == "at_once":
            for r in self.earlier:
                for bet in ("envido", "flor"):
                    got = r.get(bet) or {}
                    if got.get("team") is not None and got.get("points"):
                        score[int(got["team"])] += int(got["points"])
        return {"envido": mine, "beats": share(mine, theirs), "call": call, "caller": floor,
                "beats_caller": share(mine, strong) if strong else -1.0, "mine": score[team],
                "theirs": score[1 - team], "target": self.target}

    def truco(self, chosen: Action, best: Action) -> dict[str, Any]:
        team = self.seat % 2
        mine = self.held()
        if self.onze is not None and team == self.onze and not self.ferro:
            mine = mine + self.held((self.seat + 2) % 4)
        left = self.unseen()
        shares = sorted((sum(1 for u in left if self.rank[c] > self.rank[u]) / max(1, len(left)) for c in mine),
                        reverse=True)
        results = self.results()
        out: dict[str, Any] = {"first": shares[0] if shares else -1.0, "second": shares[1] if len(shares) > 1 else -1.0,
                               "won": sum(1 for r in results if r == team),
                               "lost": sum(1 for r in results if r is not None and r != team),
                               "trick": 0, "table": (), "high": None, "high_side": None, "card": None,
                               "card_does": None, "best_card": None, "best_does": None, "tie_goes": None,
                               "decides": False}
        if self.phase != "play":
            return out
        r = self.round
        current = len(r.tricks) - 1 if r.tricks and not self._over(len(r.tricks) - 1) else len(r.tricks)
        table = r.tricks[current] if current < len(r.tricks) else []
        plays = self.plays(current) if table else []
        winner, first = trick_result(plays)

        def side(t: int | None) -> str:
            return "neither" if t is None else "yours" if t == team else "theirs"

        down_now = {p for p, _, _ in table}
        theirs = [s for s in r.seats if s % 2 != team and s not in r.gone and s not in down_now]

        def sure(card: Card) -> bool:
            return not theirs or all(self.rank[u] < self.rank[card] for u in left)

        def does(card: Card, down: bool) -> str:
            if down:
                return "down"
            if not table:
                return "sure" if sure(card) else "leads"
            w, f = trick_result([*plays, (self.seat, self.rank[card])])
            if w is None:
                return "ties" if f is not None else "loses"
            if w == self.seat:
                return "sure" if sure(card) else "takes"
            return "kept" if w % 2 == team else "loses"

        if chosen.type in ("play", "play_down"):
            card: Card | None = chosen.cards[0]
        else:
            own = self.held()
            card = max(own, key=lambda c: self.rank[c]) if own else None
        other = best.cards[0] if best.type in ("play", "play_down") and best.cards and best.cards[0] != card else None
        mano = r.seats[0] % 2
        out.update({
            "trick": len(results) + 1, "table": tuple(str(c) for _, c, d in table if c is not None and not d),
            "high": str(next(c for s, c, _ in table if s == first)) if first is not None else None,
            "high_side": None if first is None else side(None if winner is None else winner % 2),
            "card": str(card) if card is not None else None,
            "card_does": does(card, chosen.type == "play_down") if card is not None and not (
                chosen.type not in ("play", "play_down") and any(s == self.seat for s, _, _ in table)) else None,
            "best_card": str(other) if other is not None else None,
            "best_does": does(other, best.type == "play_down") if other is not None else None,
            "tie_goes": side(hand_won([*results, None], mano, self.first_decided)),
            "decides": (self.trick_mode and self.accepted_call) or hand_won([*results, team], mano,
                                                                           self.first_decided) == team})
        return out


# -- the rummy games -------------------------------------------------------------------------------------
class Rummy:
    """What the deciding seat of a rummy hand knew at one decision, from the history alone: its hand, the pile, the
    flip, the cards each other seat took from the pile and has not thrown since; and the stock's count. Pif Paf's
    and Cacheta's rules are restated here; another rummy game restates its own in a module of its own
    (``bench/recount_<name>.py``, a subclass registered in ``RUMMY``), as its own tests are its own."""

    closes = False
    """The game goes out by closing within a limit of points (its ``closes`` fact), not by knocking."""

    def rules_of(self, options: Mapping[str, Any]) -> None:
        """The game's pack, meld rules and wild cards (and whatever else its count needs), from its options."""
        self.rules = Ruleset(GroupRule(options.get("group_suits", "exactly3")),
                             ace_high=bool(options.get("ace_high", False)))

    def started(self, record: Mapping[str, Any]) -> None:
        """What the deal put out beyond the hands, before the first turn (a card turned up to start the pile)."""

    def melded(self, hand: Sequence[Card]) -> int:
        """The cards a knock with ``hand`` (one card over) melds: all ten, or the nine kept."""
        return 10 if self.loose(hand) == 0 else 9

    def __init__(self, record: Mapping[str, Any], step: int) -> None:
        self.record = record
        options = record.get("options") or {}
        cacheta = record["game"] == "cacheta"
        self.knock_scored = cacheta
        """Cacheta: a knock takes points from every other player, 2 where all ten cards meld (docs/rules.md)."""
        self.deck = RUMMY_DECK
        self.flip: Card | None = None
        self.wilds: tuple[Card, ...] = ()
        if cacheta:
            self.rules = Ruleset(GroupRule.ATLEAST3, ace_high=True, wild_acts=True)
            self.flip = Card.parse(record["flip"])
            self.wilds = wild_cards(self.flip)
        else:
            self.rules_of(options)
        self.ref = reference(self.rules, self.wilds)
        before, entry = entries(record, step)
        self.seat = int(entry["seat"])
        hands = {int(s): cards(c) for s, c in record["deal"].items()}
        self.pile: list[Card] = []
        self.known: dict[int, Counter[Card]] = {s: Counter() for s in hands}
        self.stock = len(self.deck) - sum(len(h) for h in hands.values()) - (1 if cacheta else 0)
        self.started(record)
        rebuild: Mapping[str, Any] | None = None
        for e in before:
            t, s = e["type"], e.get("seat")
            if t == "rebuild":
                rebuild = e  # it comes just before the draw that needed it, and happens with that draw
                continue
            if rebuild is not None:
                self.pile = cards([rebuild["top"]])
                self.stock = len(rebuild.get("cards") or ())
                rebuild = None
            if t == "draw":
                card = Card.parse(e["card"])
                if e.get("value") == "pile":
                    self.pile.pop()
                    self.known[s][card] += 1
                else:
                    self.stock -= 1
                hands[s].append(card)
            elif t == "discard" or (t == "knock" and e.get("cards")):
                card = cards(e.get("cards"))[0]
                hands[s].remove(card)
                if t == "discard" and self.known[s][card]:
                    self.known[s][card] -= 1
                self.pile.append(card)
            elif t in ("claim", "cut") and e.get("outcome") == "took":
                card = Card.parse(e["card"])
                self.pile.pop()
                hands[s].append(card)
                self.known[s][card] += 1
        self.hand = hands[self.seat]
        seen = Counter(self.hand) + Counter(self.pile)
        if self.flip is not None:
            seen[self.flip] += 1
        for s, held in self.known.items():
            if s != self.seat:
                seen += held
        self.seen = seen
        self.live = Counter({c: n - seen[c] for c, n in Counter(self.deck).items() if n > seen[c]})
        self.window = self.pile[-1] if self.pile else None

    def loose(self, hand: Sequence[Card]) -> int:
        return least_loose(self.ref, tuple(sorted(hand, key=str)))

    def helping(self, nine: Sequence[Card]) -> int:
        now = self.loose(nine)
        return sum(n for c, n in self.live.items() if self.loose([*nine, c]) <= now)

    def reason(self, chosen: Action, best: Action, kind: str) -> dict[str, Any]:
        unseen = sum(self.live.values())
        hand = self.hand
        if kind == "draw":
            types = {chosen.type, best.type}
            card = self.window if "claim" in types else (
                self.pile[-1] if self.pile and "draw" in types else None)
            ten = [*hand, card] if card is not None else []
            return {"card": str(card) if card is not None else None, "loose": self.loose(hand),
                    "taking": min(self.loose(without(ten, c)) for c in set(ten)) if card is not None else -1,
                    "goes_out": card is not None and self.loose(ten) <= 1,
                    "all_ten": card is not None and self.loose(ten) == 0,
                    "outs": self.helping(hand), "unseen": unseen, "closes": self.closes}
        if kind == "knock":
            thrown = next((a.cards[0] for a in (chosen, best) if a.type == "discard" and a.cards), None)
            outs = tens = -1
            if thrown is not None:
                kept = without(hand, thrown)
                outs = sum(n for c, n in self.live.items() if self.loose([*kept, c]) <= 1)
                if self.knock_scored:  # Cacheta: a knock of ten takes 2 points from each other player
                    tens = sum(n for c, n in self.live.items() if self.loose([*kept, c]) == 0)
            others = [int(p) for s, p in self.record["start"].items() if int(s) != self.seat and int(p) > 0]
            melded = self.melded(hand)
            return {"melded": melded, "outs": outs, "unseen": unseen, "stock": self.stock,
                    "discard": str(thrown) if thrown is not None else None, "tens": tens,
                    "fewest": min(others) if self.knock_scored and others else -1, "closes": self.closes}
        a, b = chosen.cards[0], best.cards[0]
        return {"chosen": str(a), "chosen_loose": self.loose(without(hand, a)),
                "chosen_outs": self.helping(without(hand, a)), "best": str(b),
                "best_loose": self.loose(without(hand, b)), "best_outs": self.helping(without(hand, b)),
                "unseen": unseen}


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


RUMMY: dict[str, type[Rummy]] = {}
"""Each rummy game's own recount, by name, where it is not ``Rummy``'s (``bench/recount_<name>.py`` registers it)."""


def rummy(record: Mapping[str, Any], step: int) -> Rummy:
    """The recount of a rummy hand: its game's own, if it has one."""
    game = str(record["game"])
    if game not in RUMMY:
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(f"bench.recount_{game}")
    return RUMMY.get(game, Rummy)(record, step)


def family_of(game: str) -> str:
    """The family a game belongs to, as the registry says (``Rules.family_name``)."""
    return games.entry(game).rules.family_name


@cache
def reference(rules: Ruleset, wilds: tuple[Card, ...]) -> Exhaustive:
    return Exhaustive(rules, wilds)


def _may_meld(group: Sequence[Card], wild: frozenset[Card]) -> bool:
    """Whether ``group`` could be a meld at all: its natural cards share a rank, or a suit (a run)."""
    natural = [c for c in group if c not in wild]
    if len(natural) <= 1:
        return True
    return len({c.rank for c in natural}) == 1 or len({c.suit for c in natural}) == 1


def _groups(hand: Sequence[Card], wild: frozenset[Card]) -> list[tuple[int, ...]]:
    """Every group of three or more of ``hand``'s places whose cards may meld at all (``_may_meld``): grown a place at
    a time from groups that may, since one that may not never grows into one that may (its natural cards already
    differ in rank and in suit). The groups of every size ``combinations`` gives that ``_may_meld`` keeps, without
    looking at the hundreds that hold a pair that may not."""
    found: list[tuple[int, ...]] = []

    def grow(group: tuple[int, ...]) -> None:
        for i in range(group[-1] + 1 if group else 0, len(hand)):
            bigger = (*group, i)
            if _may_meld([hand[j] for j in bigger], wild):
                if len(bigger) >= 3:
                    found.append(bigger)
                grow(bigger)

    grow(())
    return found


@cache
def least_loose(ref: Exhaustive, hand: tuple[Card, ...]) -> int:
    """The fewest cards ``hand`` leaves outside melds: every way to split it into melds and loose cards (the melds
    each checked by the reference), the one that melds most."""
    n = len(hand)
    melds = [m for m in _groups(hand, ref.wild)
             if ref.valid(tuple(sorted((hand[i] for i in m), key=lambda c: (c in ref.wild, str(c)))))]
    masks = [sum(1 << i for i in m) for m in melds]

    @cache
    def most(left: int) -> int:
        if not left:
            return 0
        low = left & -left
        best = most(left & ~low)  # the lowest card loose
        for m in masks:
            if m & low and m & left == m:
                best = max(best, m.bit_count() + most(left & ~m))
        return best

    return n - most((1 << n) - 1)


@cache
def least_points(ref: Exhaustive, hand: tuple[Card, ...], value: tuple[int, ...]) -> int:
    """The fewest points ``hand`` leaves outside melds (``value``: each card's): every set of disjoint melds (each
    checked by the reference) tried, the points of the cards left summed."""
    n = len(hand)
    melds = [sum(1 << i for i in m) for m in _groups(hand, ref.wild)
             if ref.valid(tuple(sorted((hand[i] for i in m), key=lambda c: (c in ref.wild, str(c)))))]

    @cache
    def least(left: int) -> int:
        if not left:
            return 0
        low = left & -left
        best = value[low.bit_length() - 1] + least(left & ~low)  # the lowest card loose
        for m in melds:
            if m & low and m & left == m:
                best = min(best, least(left & ~m))
        return best

    return least((1 << n) - 1)


# -- Cacho ---------------------------------------------------------------------------------------------
def cacho_strength(hand: Sequence[Card]) -> tuple[int, int]:
    """docs/rules.md §5: three sixes; then cacho (three of a suit: their sum + 20); then two of a suit (those two + 20);
    then the single highest card. The category first, then the points."""
    if len(hand) == 3 and all(c.rank == 6 for c in hand):
        return (3, 18)
    suits = Counter(c.suit for c in hand)
    count = suits.most_common(1)[0][1]
    if count == 3:
        return (2, sum(c.rank for c in hand) + 20)
    if count == 2:
        pairs = [sum(c.rank for c in hand if c.suit == s) + 20 for s, k in suits.items() if k == 2]
        return (1, max(pairs))
    return (0, max(c.rank for c in hand))


@cache
def every_three() -> tuple[tuple[int, tuple[int, int]], ...]:
    """Each three cards of the pack, as the set of their places in it (bits of an int), with their strength
    (``cacho_strength``): counted once, where ``against`` counted the same 1,330 hands again for each of the
    2,024 it was asked about (two thirds of the facts test's time)."""
    return tuple((sum(1 << i for i in three), cacho_strength([CACHO_DECK[i] for i in three]))
                 for three in combinations(range(len(CACHO_DECK)), 3))


@cache
def against(hand: tuple[Card, ...]) -> float:
    """Three cards against every three of the rest of the pack: how often they win, a tie half."""
    mine = cacho_strength(hand)
    held = sum(1 << i for i, c in enumerate(CACHO_DECK) if c in hand)
    return share_of(mine, [strength for three, strength in every_three() if not three & held])


def share_of(mine: tuple[int, int], theirs: Sequence[tuple[int, int]]) -> float:
    return sum(1.0 if mine > t else 0.5 if mine == t else 0.0 for t in theirs) / len(theirs)


def completed(hand: Sequence[Card]) -> float:
    """``hand`` completed to three in every way from the rest of the pack, each against every three left."""
    rest = [c for c in CACHO_DECK if c not in hand]
    ways = list(combinations(rest, 3 - len(hand)))
    return sum(against(tuple(sorted([*hand, *more], key=str))) for more in ways) / len(ways)


class Cacho:
    """A Cacho decision from the history alone: the pot, what staying in costs, the seats still in, the hand."""

    def __init__(self, record: Mapping[str, Any], step: int) -> None:
        before, entry = entries(record, step)
        self.seat = int(entry["seat"])
        n = len(record["seats"])
        dealer = int(record["dealer"])
        chips = {s: int(record["start"][str(s)]) for s in range(n)}
        order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if chips[s] > 0]
        deal = {int(s): cards(c) for s, c in record["deal"].items()}
        rnd, pending, bettors, passed = 1, list(order), [], set()
        out: set[int] = set()
        pot, level, put3 = 0, 0, {s: 0 for s in range(n)}
        for e in before:
            t, s = e["type"], e.get("seat")
            if t == "redeal":
                pending, bettors, passed = list(order), [], set()
                continue
            amount = int(e.get("amount", 0))
            if rnd < 3:
                pending.remove(s)
                if t == "bet":
                    pot += amount
                    chips[s] -= amount
                    bettors.append(s)
                else:
                    passed.add(s)
                if not pending:
                    live = [p for p in order if p not in out]
                    if bettors:
                        out |= {p for p in live if p not in bettors}
                    rnd += 1 if bettors or rnd == 2 else 0
                    pending = [p for p in order if p not in out]
                    bettors, passed = [], set()
            else:
                if t in ("bet", "raise"):
                    moved = amount - put3[s]
                    level = max(level, amount)
                elif t == "call":
                    moved = amount
                else:
                    moved = 0
                    if t == "fold":
                        out.add(s)
                put3[s] += moved
                pot += moved
                chips[s] -= moved
        after = record["actions"][len(before) + 1:]
        voiding = next((e for e in after if e["type"] == "redeal"), None)
        # Before a redeal the seat held the card it voided; after the last, the deal's first cards.
        mine = cards(voiding["voided"][str(self.seat)]) if voiding is not None else deal[self.seat][:rnd]
        self.hand = mine
        self.pot = pot
        if rnd < 3:
            stake = 1 if rnd == 1 else 2
            self.call = min(stake, chips[self.seat])
        else:
            self.call = min(level - put3[self.seat], chips[self.seat])
        self.opponents = sum(1 for p in order if p != self.seat and p not in out and p not in passed)

    def reason(self) -> dict[str, Any]:
        chance = completed(self.hand) if self.hand else -1.0
        return {"pot": self.pot, "call": self.call, "needed": self.call / (self.pot + self.call) if self.pot + self.call
                else 0.0, "chance": chance, "opponents": self.opponents,
                "chance_all": chance ** max(1, self.opponents) if chance >= 0 else -1.0}

