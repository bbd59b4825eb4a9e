"""Hand histories: the public record of a finished hand (format ``cardtui-hand/1``).

The keys are a contract other tools read, specified in ``docs/history.md`` (and checked by
``docs/hand-history.schema.json``): add keys, rename none. A history plus its game's
``replay`` reproduces the hand exactly.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any

from cardtui.engine.cards import Card, notation, parse_cards
from cardtui.engine.fairness import DealSeed, Seed, history_seed
from cardtui.engine.records import Action, SeatInfo, copied

FORMAT = "cardtui-hand/1"
"""The ``format`` of every history: docs/history.md §1 says when it would change."""


_PLAIN = (str, int, float, bool, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def jsonable(value: Any) -> Any:
    """Frozen records, cards and enums as plain JSON values (cards in notation).

    Views go through here on every change at every table, so it dispatches on exact
    types first and remembers each record class's fields.
    """
    cls = type(value)
    if cls in _PLAIN:
        return value.value if isinstance(value, Enum) else value
    if cls is Card:
        return str(value)
    if cls is list or cls is tuple:
        return [v if type(v) in _PLAIN else jsonable(v) for v in value]
    if cls is dict:
        return {str(k): v if type(v) in _PLAIN else jsonable(v) for k, v in value.items()}
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: jsonable(getattr(value, name)) for name in _fields(cls)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [jsonable(v) for v in value]
    return value


class HandLog:
    """One hand's deal and actions, kept as they happen; the JSON is written only when asked for.

    Writing a history costs more than playing a hand, and most are read once at the end (or
    never, in a simulation), so the log keeps plain tuples and builds the document in
    ``history``, once. ``finish`` closes the hand with its result (a mapping, or a function
    that makes one, so that even the result is built only if the history is read).

    A hand dealt from a ``DealSeed`` records it as ``fair`` (the commitment, every seed, the
    reveal; see ``engine.fairness``) and ``seed`` 0: ``fair`` governs the deal when present.
    """

    __slots__ = ("_built", "_more", "_result", "actions", "deal", "head", "top")

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        hand: int,
        seed: Seed,
        dealer: int,
        seats: Sequence[SeatInfo],
        start: Sequence[int],
    ) -> None:
        self.head = (game, options, hand, seed, dealer, tuple(seats), tuple(start))
        self.top: dict[str, Any] = {}
        """Keys a game adds at the top of its histories as the hand goes (Cacheta's flip)."""
        self.deal: dict[int, list[Card]] = {s.seat: [] for s in seats}
        self.actions: list[tuple[int | None, Action | None, Mapping[Any, Any] | None]] = []
        self._result: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None
        self._more: dict[str, Any] = {}
        self._built: dict[str, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> HandLog:
        game, options, hand, seed, dealer, seats, start = self.head
        return copied(self, HandLog(game, options, hand, seed, dealer, seats, start), memo)

    def dealt(self, seat: int, *cards: Card) -> None:
        self.deal[seat].extend(cards)

    def holds(self, seat: int, cards: Sequence[Card]) -> None:
        """The cards ``seat`` plays the hand with, whatever it was dealt before (``deal``)."""
        self.deal[seat] = list(cards)

    def act(self, seat: int, action: Action, extra: Mapping[str, Any] | None = None, **more: Any) -> dict[str, Any]:
        """An action, and what else its entry names (the cards a blind play turned up...).

        Returns the entry's extra keys, so that what is known only later (how a claim turned
        out) can be added to it: an entry made with none keeps none (a hand's log grows with every
        move, and rummy's hands have no end of their own), so one to be added to is made with a key.
        """
        keys = dict(extra) if extra else {}
        keys.update(more)
        self.actions.append((seat, action, keys or None))
        return keys

    def shared(self, seat: int, action: Action, keys: Mapping[str, Any]) -> None:
        """An action whose entry names ``keys``, a mapping many entries share and nobody changes (a draw's card):
        kept as it is, not copied."""
        self.actions.append((seat, action, keys))

    def by_dealer(self, kind: str, cards: Sequence[Card], **extra: Any) -> dict[str, Any]:
        """An entry by nobody (``seat`` null) for what the dealer does, naming the cards it moves.

        Replays skip it: it follows from the actions before it (a stock rebuilt from the pile).
        """
        keys = dict(extra)
        self.actions.append((None, Action(kind, cards=tuple(cards)), keys))
        return keys

    def redeal(self, voided: Mapping[int, Sequence[Card]]) -> None:
        """The cards dealt so far are void and dealt again: an action (by nobody) names them
        (docs/deal.md §10.1, docs/history.md §4).

        ``deal`` then holds only the cards of the new deal, the cards the hand is played with.
        """
        self.actions.append((None, None, {s: list(cards) for s, cards in sorted(voided.items())}))
        for key in self.deal:
            self.deal[key] = []

    def finish(self, result: Mapping[str, Any] | Callable[[], Mapping[str, Any]], **more: Any) -> None:
        """The hand is over: its result, and any keys to add at the top."""
        self._result = result
        self._more = more
        self._built = None

    def history(self) -> dict[str, Any] | None:
        """The hand history (docs/history.md), built on the first call; None before ``finish``."""
        if self._built is None and self._result is not None:
            self._built = self._build()
        return self._built

    def record(self, result: Mapping[str, Any], **more: Any) -> dict[str, Any]:
        """``finish`` and ``history`` at once."""
        self.finish(result, **more)
        out = self.history()
        assert out is not None
        return out

    def _build(self) -> dict[str, Any]:
        game, options, hand, seed, dealer, seats, start = self.head
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": game,
            "options": dict(options),
            "table": "",
            "hand": hand,
            "seed": history_seed(seed),
            "dealer": dealer,
            "seats": [{"seat": s.seat, "name": s.name, "team": s.team} for s in seats],
            "start": {str(i): v for i, v in enumerate(start)},
            "deal": {str(s): notation(cards) for s, cards in self.deal.items()},
        }
        if isinstance(seed, DealSeed):
            out["fair"] = seed.as_record()
        out.update(jsonable(self.top))
        out.update(jsonable(self._more))
        actions = []
        for seq, (seat, action, extra) in enumerate(self.actions, 1):
            if action is None:  # a redeal
                voided = extra or {}
                actions.append({
                    "seq": seq, "seat": None, "type": "redeal",
                    "cards": [str(c) for s in voided for c in voided[s]],
                    "voided": {str(s): notation(cards) for s, cards in voided.items()},
                })
                continue
            entry: dict[str, Any] = {"seq": seq, "seat": seat, "type": action.type}
            if action.amount:
                entry["amount"] = action.amount
            if action.cards:
                entry["cards"] = notation(action.cards)
            if action.value:
                entry["value"] = action.value
            if extra:
                entry.update(jsonable(extra))
            actions.append(entry)
        out["actions"] = actions
        result = self._result
        out["result"] = jsonable(result() if callable(result) else result)
        return out


def seats_of(record: Mapping[str, Any]) -> list[SeatInfo]:
    """The seats a hand history names (for replays)."""
    return [SeatInfo(int(s["seat"]), str(s["name"]), int(s.get("team", 0))) for s in record["seats"]]


def start_of(record: Mapping[str, Any], n: int) -> list[int]:
    """Chips, points or team scores per seat when the hand began."""
    return [int(record["start"][str(i)]) for i in range(n)]


def action_entry(action: Action) -> dict[str, Any]:
    """An action as a history entry records it (docs/history.md): what ``action_of`` reads back."""
    out: dict[str, Any] = {"type": action.type}
    if action.amount:
        out["amount"] = action.amount
    if action.cards:
        out["cards"] = [str(c) for c in action.cards]
    if action.value:
        out["value"] = action.value
    return out


def action_of(entry: Mapping[str, Any]) -> Action:
    """The engine action a history entry records (for replays)."""
    return Action(
        type=str(entry["type"]),
        amount=int(entry.get("amount", 0)),
        cards=parse_cards(entry.get("cards", [])),
        value=str(entry.get("value", "")),
    )


def dumps(record: Mapping[str, Any]) -> str:
    """One JSON Lines line (docs/history.md §1); its hash is taken over ``fairness.canonical``."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
