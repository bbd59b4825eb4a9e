"""What each action is called at the table, as players say it.

The truco words are copied here rather than imported: the client learns the game from the
stream and keeps no link to the engines' rules modules.
"""

from __future__ import annotations

from rich.text import Text

from cardtui.client.cards import SUITS
from cardtui.v1 import common_pb2

_WORDS: dict[str, dict[str, str]] = {
    "cacho": {"pass": "Pass", "bet": "Bet", "fold": "Pass (fold)", "check": "Check", "call": "Call",
              "raise": "Raise to"},
    "truco_paulista": {
        "keep": "Keep (fico)",
        "pass_cards": "Pass to partner",
        "reject": "Reject",
        "play": "Play",
        "play_down": "Play",
        "play_blind": "Turn up card",
        "truco": "Truco!",
        "seis": "Seis!",
        "nove": "Nove!",
        "doze": "Doze!",
        "accept": "Aceito",
        "run": "Corro",
        "signal": "Signal",
    },
    "truco_argentino": {
        "play": "Play",
        "truco": "Truco",
        "retruco": "Retruco",
        "vale_cuatro": "Vale cuatro",
        "quiero": "Quiero",
        "no_quiero": "No quiero",
        "envido": "Envido",
        "real_envido": "Real envido",
        "falta_envido": "Falta envido",
        "announce": "Tengo",
        "son_buenas": "Son buenas",
        "flor": "Flor",
        "con_flor_me_achico": "Con flor me achico",
        "contra_flor": "Contra flor",
        "contra_flor_al_resto": "Contra flor al resto",
        "mazo": "Me voy al mazo",
        "signal": "Seña",
    },
}
_RUMMY = {"draw": "Draw", "claim": "Claim the discard", "pass": "Pass", "discard": "Discard", "knock": "Knock",
          "declare": "Na boa!", "cut": "Cut the line", "fold": "Fold (estou fora)", "raise": "Repique to"}
_WORDS["pifpaf"] = _RUMMY
_WORDS["cacheta"] = _RUMMY
_VALUES = {"stock": "from the stock", "pile": "from the discard pile"}
"""Words for action values ("Draw from the stock")."""
_AFTER = {"play_down": "face down"}
"""Words said after the cards ("Play 7♥ face down")."""
_COMMON = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise to"}
_AMOUNTS = ("bet", "raise", "call", "announce", "play_blind")
"""Action types whose amount is part of what is said ("Raise to 4", "Tengo 27")."""

GESTURES = {
    "eyebrow": "eyebrow",
    "wink": "wink",
    "lips_aside": "lips aside",
    "bite_lip": "bite lip",
    "kiss": "kiss",
    "open_mouth": "open mouth",
    "close_eyes": "close eyes",
    "tilt_head": "tilt head",
}
"""The partners' gestures, short enough for a key's label."""

SEEN = {
    "eyebrow": "raises an eyebrow",
    "wink": "winks",
    "lips_aside": "moves the lips to one side",
    "bite_lip": "bites the lip",
    "kiss": "blows a kiss",
    "open_mouth": "opens the mouth",
    "close_eyes": "closes both eyes",
    "tilt_head": "tilts the head",
}
"""The same gestures, as seen across the table."""

MEANINGS = {
    "truco_argentino": {
        "eyebrow": "1⚔", "wink": "1♣", "lips_aside": "7⚔/7●", "bite_lip": "a 3", "kiss": "a 2",
        "open_mouth": "a 1", "close_eyes": "bad cards", "tilt_head": "good envido",
    },
    "truco_paulista": {
        "eyebrow": "4♣", "wink": "7♥", "lips_aside": "A♠/7♦", "bite_lip": "a 3", "kiss": "a 2",
        "open_mouth": "an ace", "close_eyes": "bad cards", "tilt_head": "good hand",
    },
}
"""What each gesture usually promises (seed 003's table, read for each deck)."""


def glyphs(code: str) -> str:
    """``"7H"`` → ``7♥``: a card as plain text, for places that cannot hold colour."""
    rank, suit = code[:-1], code[-1]
    return rank + SUITS.get(suit, (suit, ""))[0]


def meaning(game: str, signal: str) -> str:
    """What a gesture usually promises at this game ("" if unknown)."""
    return MEANINGS.get(game, {}).get(signal, "")


def label(game: str, action: common_pb2.Action) -> str:
    words = _WORDS.get(game, {})
    base = words.get(action.type) or _COMMON.get(action.type) or action.type.replace("_", " ").capitalize()
    parts = [base]
    if action.type in _AMOUNTS and action.amount:
        parts.append(str(action.amount))
    if action.cards:
        parts.append(" ".join(glyphs(c) if game.startswith("truco") else c for c in action.cards))
    if action.value:
        if action.type == "signal":
            return " ".join(parts) + _signal_text(game, action.value)
        parts.append(_VALUES.get(action.value, action.value))
    if action.type in _AFTER:
        parts.append(_AFTER[action.type])
    return " ".join(parts)


def label_text(game: str, action: common_pb2.Action) -> Text:
    """The label with its cards in their suit colours (names never pass through here)."""
    if not action.cards or not game.startswith("truco"):
        return Text(label(game, action))
    bare = common_pb2.Action(type=action.type, amount=action.amount, value=action.value)
    said = label(game, bare)
    after = _AFTER.get(action.type, "")
    out = Text(said.removesuffix(f" {after}") if after else said)
    for code in action.cards:
        out.append(" ")
        out.append(glyphs(code), style=SUITS.get(code[-1], ("", "bold"))[1])
    if after:
        out.append(f" {after}")
    return out


def _signal_text(game: str, value: str) -> str:
    """A signal by what it promises (the board names the gesture): short enough for a key."""
    return " " + (meaning(game, value) or GESTURES.get(value, value))
