"""Names and chat as plain text: no control characters, no terminal escapes.

Markup is a client concern (it shows text literally); here we only make sure nothing a
person types can move another terminal's cursor or change its colours.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 24
MAX_CHAT = 300

# CSI and OSC sequences first, so their parameters go with the escape character.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.?|\x9b[0-?]*[ -/]*[@-~]")


def clean(text: str) -> str:
    """Strip escapes and every control or format character; fold runs of spaces."""
    text = _ESCAPES.sub("", text)
    kept = "".join(
        ch if unicodedata.category(ch)[0] != "C" else " " for ch in text
    )
    return " ".join(kept.split())


def clean_name(name: str) -> str:
    """A display name; ``ValueError`` with a sentence when nothing usable is left."""
    out = clean(name)
    if not out:
        raise ValueError("A name needs at least one visible character.")
    if len(out) > MAX_NAME:
        raise ValueError(f"A name may be at most {MAX_NAME} characters long.")
    return out


def clean_chat(text: str) -> str:
    out = clean(text)
    if not out:
        raise ValueError("A chat line needs at least one visible character.")
    if len(out) > MAX_CHAT:
        raise ValueError(f"A chat line may be at most {MAX_CHAT} characters long.")
    return out
