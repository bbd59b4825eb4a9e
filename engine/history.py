"""Hand histories: the public record of a finished hand (format ``cardtui-hand/1``).

The keys are a contract other tools read (see DESIGN.md): add keys, rename none.
A history plus its game's ``replay`` reproduces the hand exactly.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from cardtui.engine.cards import Card, notation, parse_cards
from cardtui.engine.core import Action, SeatInfo

FORMAT = "cardtui-hand/1"


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
    """Collects one hand's deal and actions as they happen."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        hand: int,
        seed: int,
        dealer: int,
        seats: Sequence[SeatInfo],
        start: Sequence[int],
    ) -> None:
        self.head: dict[str, Any] = {
            "format": FORMAT,
            "game": game,
            "options": dict(options),
            "table": "",
            "hand": hand,
            "seed": seed,
            "dealer": dealer,
            "seats": [{"seat": s.seat, "name": s.name, "team": s.team} for s in seats],
            "start": {str(i): v for i, v in enumerate(start)},
        }
        self.deal: dict[str, list[str]] = {str(s.seat): [] for s in seats}
        self.actions: list[dict[str, Any]] = []

    def dealt(self, seat: int, *cards: Card) -> None:
        self.deal[str(seat)].extend(notation(cards))

    def act(self, seat: int, action: Action, **extra: Any) -> dict[str, Any]:
        """Record an action; the entry is returned so an outcome known later can be added to it."""
        entry: dict[str, Any] = {"seq": len(self.actions) + 1, "seat": seat, "type": action.type}
        if action.amount:
            entry["amount"] = action.amount
        if action.cards:
            entry["cards"] = notation(action.cards)
        if action.value:
            entry["value"] = action.value
        entry.update(jsonable(extra))
        self.actions.append(entry)
        return entry

    def by_dealer(self, kind: str, cards: Sequence[Card], **extra: Any) -> dict[str, Any]:
        """An entry by nobody (``seat`` null) for what the dealer does, naming the cards it moves.

        Replays skip it: it follows from the actions before it (a stock rebuilt from the pile).
        """
        entry: dict[str, Any] = {"seq": len(self.actions) + 1, "seat": None, "type": kind, "cards": notation(cards)}
        entry.update(jsonable(extra))
        self.actions.append(entry)
        return entry

    def redeal(self, voided: Mapping[int, Sequence[Card]]) -> None:
        """The cards dealt so far are void and dealt again: an action (by nobody) names them.

        ``deal`` then holds only the cards of the new deal, the cards the hand is played with.
        """
        entry: dict[str, Any] = {
            "seq": len(self.actions) + 1,
            "seat": None,
            "type": "redeal",
            "cards": [c for s in sorted(voided) for c in notation(voided[s])],
            "voided": {str(s): notation(cards) for s, cards in sorted(voided.items())},
        }
        self.actions.append(entry)
        for key in self.deal:
            self.deal[key] = []

    def record(self, result: Mapping[str, Any], **more: Any) -> dict[str, Any]:
        out = dict(self.head)
        out["deal"] = {k: list(v) for k, v in self.deal.items()}
        out.update(jsonable(more))
        out["actions"] = [dict(a) for a in self.actions]
        out["result"] = jsonable(result)
        return out


def seats_of(record: Mapping[str, Any]) -> list[SeatInfo]:
    """The seats a hand history names (for replays)."""
    return [SeatInfo(int(s["seat"]), str(s["name"]), int(s.get("team", 0))) for s in record["seats"]]


def start_of(record: Mapping[str, Any], n: int) -> list[int]:
    """Chips, points or team scores per seat when the hand began."""
    return [int(record["start"][str(i)]) for i in range(n)]


def action_of(entry: Mapping[str, Any]) -> Action:
    """The engine action a history entry records (for replays)."""
    return Action(
        type=str(entry["type"]),
        amount=int(entry.get("amount", 0)),
        cards=parse_cards(entry.get("cards", [])),
        value=str(entry.get("value", "")),
    )


def dumps(record: Mapping[str, Any]) -> str:
    """One JSON Lines line."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
