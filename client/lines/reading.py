"""Text written for the eye, made fit for the ear: a rules page, an analysis, a number.

A rules page is Markdown for the screen's help: its lines wrap at about 100 columns, its emphasis is asterisks,
its tables are pipes, and a part of it speaks of the screen (the colours of the stake ladder, "a yellow bar",
the keys). Read line by line it breaks sentences where the lines wrap ("Gana el. primer equipo"), says
"asterisco", and describes a screen the listener does not have. Here a page is read by its blocks: a heading,
a paragraph or a list item joined into one sentence whatever its lines, a table's rows as "gesture: what it
means"; emphasis, code marks and links dropped; and whatever the page marks as the screen's
(``<!-- screen -->`` to ``<!-- /screen -->``: Markdown comments, which the screen's help does not show) left
out. In its place the line mode says how its own numbers answer at that game (``numbers_said``).

Numbers are said as the reader's language writes them: a decimal point is a comma in Portuguese and Spanish
(Babel's CLDR data), so "1.9" is not read "one point nine" by a Portuguese voice, nor as nineteen.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal, InvalidOperation

from babel.numbers import format_decimal

from cardtui.client import gamebook
from cardtui.client.lines.actions import FACE_DOWN_GAMES, HELD, KINDS, first_kind, spans
from cardtui.client.lines.sentences import spoken
from cardtui.client.models import TableModel
from cardtui.client.words import word
from cardtui.i18n import _, current
from cardtui.v1 import common_pb2

SCREEN = re.compile(r"<!--\s*screen\s*-->.*?(?:<!--\s*/screen\s*-->|\Z)", re.S)
"""What a rules page marks as the screen's: left out for the ear."""
COMMENT = re.compile(r"<!--.*?-->", re.S)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s*#+\s*")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_STRONG = re.compile(r"(\*\*|__)(.+?)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
PLAYED = gamebook.Which(lambda g: g.cards_played)
"""Games whose cards are played by their place as dealt, not discarded."""
_DECIMAL = re.compile(r"(?<![\d.,])(-?\d+)\.(\d+)(?![\d.]|,\d)")
"""A decimal number written with a point ("1.9", "-0.23"), not a part of an address or a version ("127.0.0.1")."""


def plain_inline(text: str) -> str:
    """A line of Markdown without its marks: emphasis, code, links."""
    text = _LINK.sub(r"\1", text)
    text = text.replace("`", "")
    text = _STRONG.sub(r"\2", text)
    return _EMPHASIS.sub(r"\2", text)


def blocks(page: str) -> list[str]:
    """A Markdown page as the blocks a listener hears one after another, each on one line: a heading, a whole
    paragraph, a whole list item, a table's row as "its first cell: the others"."""
    page = COMMENT.sub("", SCREEN.sub("", page))
    out: list[str] = []
    current: list[str] = []
    header: list[str] = []

    def close() -> None:
        if current:
            out.append(plain_inline(" ".join(current)))
            current.clear()

    for raw in page.splitlines():
        line = raw.strip()
        if not line:
            close()
            header = []
            continue
        if line.startswith("|"):
            close()
            cells = [plain_inline(c.strip()) for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue
            if not header:
                header = cells
                continue
            out.append(cells[0] + ": " + ", ".join(c for c in cells[1:] if c))
            continue
        if _HEADING.match(line):
            close()
            out.append(_HEADING.sub("", plain_inline(line)))
            continue
        if _ITEM.match(raw):
            close()
            current.append(_ITEM.sub("", raw).strip())
            continue
        current.append(line)
    close()
    return [b for b in out if b]


def rules_said(page: str) -> list[str]:
    """A rules page for the ear: its blocks, each a sentence (or several) on one line, cards named."""
    return [for_the_ear(b) for b in blocks(page)]


def for_the_ear(text: str) -> str:
    """A sentence for the ear: cards and marks in words (``spoken``), decimals as the reader writes them."""
    return localised(spoken(text))


def localised(text: str) -> str:
    """Decimal numbers as the reader's language writes them: "1.9" is "1,9" in Portuguese and Spanish."""
    locale = current()
    if locale == "en":
        return text

    def one(m: re.Match[str]) -> str:
        try:
            number = Decimal(f"{m.group(1)}.{m.group(2)}")
        except InvalidOperation:
            return m.group(0)
        return format_decimal(number, format="#,##0." + "0" * len(m.group(2)), locale=locale)

    return _DECIMAL.sub(one, text)


_TOKEN = re.compile(r"[+-]?\d+(?:[.,]\d+)*|[^\W\d_]+")
"""What the ear hears one after another: numbers (a sign and decimals with them) and words; marks are pauses."""


def runs_of_numbers(text: str) -> list[str]:
    """Each place where two numbers are heard one after the other, a word between them or not ("Hand 3: 2 clubs",
    "1, 3 of cups", "bot 2 20"): a listener cannot tell where one ends and the next begins, nor which is which.
    The line mode's sentences have none (a test holds every game's narration to it); each found is "3 2"."""
    tokens = _TOKEN.findall(text)
    return [f"{a} {b}" for a, b in itertools.pairwise(tokens)
            if a[-1:].isdigit() and b[-1:].isdigit()]


def numbers_said(game: str) -> str:
    """How the line mode's numbers answer at ``game``, said after its rules: the same number whenever it is
    offered (``actions``)."""
    model = TableModel(common_pb2.TableSummary(game=game), None)
    cards = HELD.get(game, 0)
    parts = []
    if cards:
        said = (_("{numbers}: play one of your cards, by its place as dealt") if game in PLAYED else
                _("{numbers}: discard one of your cards, by its place in the hand as the hand command says it"))
        parts.append(said.format(numbers=spans(list(range(1, cards + 1)))))
    if game in FACE_DOWN_GAMES:
        downs = spans(list(range(cards + 1, 2 * cards + 1)))
        parts.append(_("{numbers}: the same cards, played face down").format(numbers=downs))
    for n, kind in enumerate(KINDS.get(game, ()), start=first_kind(game)):
        parts.append(f"{n}: {word(model, kind)}")
    return spoken(_("By ear at this table, each number always answers the same: {numbers}. At your turn, the "
                    "actions command says what is on offer.").format(numbers="; ".join(parts)))
