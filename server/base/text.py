"""Names and chat as plain text: no control characters, no terminal escapes.

Markup is a client concern (it shows text literally); here we only make sure nothing a
person types can move another terminal's cursor or change its colours.
"""

from __future__ import annotations

import re
import unicodedata

from cardtui.i18n import N_

MAX_NAME = 24
MAX_CHAT = 300

# CSI and OSC sequences first, so their parameters go with the escape character.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.?|\x9b[0-?]*[ -/]*[@-~]")


class BadText(ValueError):
    """A name or chat line that cannot be used: an English template and its arguments."""

    def __init__(self, template: str, /, **args: object) -> None:
        self.template = template
        self.args_ = {k: str(v) for k, v in args.items()}
        super().__init__(template.format(**self.args_) if self.args_ else template)


def strip_escapes(text: str) -> str:
    """Terminal escape sequences out, whole (their parameters too)."""
    return _ESCAPES.sub("", text)


def clean(text: str) -> str:
    """Strip escapes and every control or format character; fold runs of spaces."""
    text = strip_escapes(text)
    kept = "".join(
        ch if unicodedata.category(ch)[0] != "C" else " " for ch in text
    )
    return " ".join(kept.split())


def clean_chat(text: str) -> str:
    out = clean(text)
    if not out:
        raise BadText(N_("A chat line needs at least one visible character."))
    if len(out) > MAX_CHAT:
        raise BadText(N_("A chat line may be at most {most} characters long."), most=MAX_CHAT)
    return out
