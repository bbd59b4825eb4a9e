"""What each action is called at the table, as players say it."""

from __future__ import annotations

from cardtui.v1 import common_pb2

_WORDS: dict[str, dict[str, str]] = {
    "cacho": {"pass": "Pass", "bet": "Bet", "fold": "Pass (fold)", "check": "Check", "call": "Call",
              "raise": "Raise to"},
}
_COMMON = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise to"}


def label(game: str, action: common_pb2.Action) -> str:
    words = _WORDS.get(game, {})
    base = words.get(action.type) or _COMMON.get(action.type) or action.type.replace("_", " ").capitalize()
    parts = [base]
    if action.type in ("bet", "raise", "call") and action.amount:
        parts.append(str(action.amount))
    if action.cards:
        parts.append(" ".join(action.cards))
    if action.value:
        parts.append(action.value)
    return " ".join(parts)
