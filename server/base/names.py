"""A name a person reads: what it may be, when two spellings are one name, and when two names look alike.

One function, ``read_name``, reads every name people see and tell apart: a player's, a
tournament team's, a table's and a tournament's. Two standards decide, each through a library
rather than tables of our own:

- **PRECIS** (RFC 8264, and RFC 8265's *UsernameCaseMapped* profile, by ``precis-i18n``) says
  which characters a name may hold (letters, digits, the printable ASCII punctuation; no
  controls, no invisible or format characters such as a soft hyphen or a zero-width space, no
  symbols) and maps it to its comparison *key*: fullwidth letters to their usual width, upper
  case to lower, and Unicode normalization form C. ``José`` typed precomposed or as ``e`` and a
  combining accent, ``JOSÉ`` and fullwidth ``Ｊｏｓé`` have one key: they are one name. Names
  may have spaces, as RFC 8265 §3.5 allows: each space-separated word is enforced on its own.
- **UTS #39** (Unicode Security Mechanisms, §4 *confusable detection*) gives each name a
  *skeleton*: NFD, then every character replaced by the prototype it is confusable with, then
  NFD again. Two names with one skeleton look alike: ``аna`` with a Cyrillic ``а`` and ``ana``.
  The prototypes are Unicode's ``confusables.txt``, as the ``confusable_homoglyphs`` package
  ships it (a graph: each prototype linked with the characters that look like it).

The skeleton is taken of every *case form* of a name (as typed, lower case, upper case, and
each word capitalised), never of its lower-cased key alone: confusables are drawn in the case
they are written in, so a Cyrillic capital ``М`` looks like ``M`` though its small ``м`` looks
like no ``m``, ``Iila`` looks like ``lila`` though ``iila`` does not, and ``PAUL0`` like
``PAULO``. A name's owner may show it in any case (``ANA`` is ``ana``), so two names look
alike when any case form of one has the skeleton of any case form of the other. The skeleton
also maps the table's letters that carry a mark as written (``ѝ`` is listed as looking like
``й``; taken apart first, as §4 alone does, they never meet), and leaves out what UTS #39 §5.4
says it misses: a mark drawn where it cannot be seen (a dot above an ``i`` or ``j``, which has
its dot already: ``li̇la``), and a mark repeated on one letter. ``tests/server/test_lookalikes.py``
holds it to the whole table.

A name is shown as it was typed (terminal escapes out, runs of spaces folded to one); only
its key and skeletons decide whose it is.
"""

from __future__ import annotations

import contextlib
import functools
import unicodedata
from dataclasses import dataclass

from precis_i18n import get_profile
from precis_i18n.profile import Profile

from cardtui.i18n import N_
from cardtui.server.base.text import MAX_NAME, BadText, strip_escapes

PROFILE = get_profile("UsernameCaseMapped")
"""RFC 8265 §3.3: the profile for names compared without regard to case."""
AS_TYPED = get_profile("UsernameCasePreserved")
"""RFC 8265 §3.4: the same characters, widths and normalization, the case left as typed (the
case forms' skeletons start from it)."""

_MARKS = str.maketrans("", "", "\u200e\u200f")
"""Direction marks that ``confusables.txt`` puts around right-to-left characters in its comments,
from which ``confusable_homoglyphs`` reads them: they are no part of a character."""


@dataclass(frozen=True, slots=True)
class Name:
    """A name a person may use."""

    shown: str
    """As typed: what everyone reads."""
    key: str
    """Its PRECIS key: two names with one key are one name."""
    looks: tuple[str, ...]
    """The UTS #39 skeletons of its case forms (``looks_of``): two names that share one look alike."""

    def looks_like(self, other: Name) -> bool:
        """Whether the two names can be drawn alike (spelled otherwise or not)."""
        return not set(self.looks).isdisjoint(other.looks)


def _described(char: str) -> str:
    """A character as a sentence can show it, invisible ones too: ``’ (U+2019 RIGHT SINGLE QUOTATION MARK)``."""
    code = f"U+{ord(char):04X}"
    title = unicodedata.name(char, "")
    named = f"{code} {title}" if title else code
    visible = unicodedata.category(char)[0] not in "CZM"
    return f"{char} ({named})" if visible else named


def _enforced(profile: Profile, word: str) -> str:
    try:
        return str(profile.enforce(word))
    except UnicodeEncodeError as e:
        reason = str(e.reason).rsplit("/", 1)[-1]
        if reason == "bidi_rule":
            raise BadText(N_("The word {word} mixes right-to-left and left-to-right letters, which a name "
                             "may not."), word=repr(word)) from None
        text = str(e.object)
        if 0 <= e.start < len(text):
            raise BadText(N_("A name cannot hold {char}; use letters, digits and the punctuation on a keyboard."),
                          char=_described(text[e.start])) from None
        raise BadText(N_("That name cannot be used; use letters, digits and the punctuation on a keyboard.")) from None


def read_name(typed: str) -> Name:
    """The name ``typed`` stands for; ``BadText`` with a sentence when it cannot be one.

    Every name people see goes through here, whoever it names (a player, a team, a table, a
    tournament), so each is held to the same characters and compared the same way."""
    shown = " ".join(strip_escapes(typed).split())
    if not shown:
        raise BadText(N_("A name needs at least one visible character."))
    if len(shown) > MAX_NAME:
        raise BadText(N_("A name may be at most {most} characters long."), most=MAX_NAME)
    words = shown.split(" ")
    key = " ".join(_enforced(PROFILE, word) for word in words)
    return Name(shown, key, looks_of(" ".join(_enforced(AS_TYPED, word) for word in words)))


def key_of(name: str) -> str:
    """The comparison key of a name, never refusing: for looking a name up, and for names stored
    before PRECIS decided (one it now refuses falls back to NFKC and case folding)."""
    return stored_name(name).key


def stored_name(name: str) -> Name:
    """A name kept or given out before (an owned name, a team's), never refusing: one PRECIS now
    refuses is read in NFKC, its key case folded."""
    try:
        return read_name(name)
    except BadText:
        plain = unicodedata.normalize("NFKC", " ".join(name.split()))
        return Name(name, plain.casefold(), looks_of(plain))


def case_forms(text: str) -> tuple[str, ...]:
    """The ways a name may be written without becoming another: as typed, lower case, upper case,
    and each word capitalised (its owner may show it in any of them); and with each small capital as
    the capital it is drawn as (``ᴍike`` as ``Mike``: ``_small_capitals``), beside what
    ``confusables.txt`` says it looks like (``ᴦ``, a small capital gamma, like ``r``)."""
    forms: tuple[str, ...] = (text, text.lower(), text.upper(), text.title())
    capitals = _small_capitals()
    if any(c in capitals for c in text):
        forms += tuple("".join(capitals.get(c, c) for c in form) for form in forms)
    return tuple(dict.fromkeys(forms))


def looks_of(text: str) -> tuple[str, ...]:
    """The UTS #39 skeleton of every case form of ``text`` (width mapped and in NFC, as PRECIS
    leaves it), each once, in order."""
    return tuple(sorted({skeleton(form) for form in case_forms(text)}))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to (UTS #39 §4): ``derive_prototypes``, as
    ``cardtui.server.base.prototypes`` holds it written out (``python -m tools.prototypes``). The package's own
    table is 9.5 MB of Python objects and a twentieth of a second to read, and every process that reads a
    name (the lobby's, each table worker's) held it; written out, it is 6,300 pairs, read in a few ms."""
    from cardtui.server.base.prototypes import PROTOTYPES

    return PROTOTYPES


def derive_prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to, from ``confusable_homoglyphs``'s table.

    ``confusables.txt`` maps every confusable *source* character to one *prototype* (a prototype
    maps to nothing), so each group is a star: the prototype linked with its sources. Where a
    group has two members the file's direction is lost in the package's graph: the prototype is
    then the one of several characters (``m`` → ``rn``) or, between two single characters, the
    lower code point, which keeps one skeleton for the pair either way.
    """
    from confusable_homoglyphs.confusables import confusables_data

    graph: dict[str, list[str]] = {}
    for char, glyphs in confusables_data.items():
        graph.setdefault(char.translate(_MARKS), []).extend(str(g["c"]).translate(_MARKS) for g in glyphs)
    out: dict[str, str] = {}
    for char, linked in graph.items():
        if len(char) != 1 or len(linked) != 1:
            continue  # a prototype: of several characters, or with several sources
        other = linked[0]
        if len(other) > 1 or len(graph.get(other, ())) > 1 or other < char:
            out[char] = other
    for _ in range(4):  # a prototype of several characters may hold one that maps on ("(日)" → "(⽇)")
        out = {char: _mapped(out, target) for char, target in out.items()}
    return out


_SMALL_CAPITAL_BLOCKS = ((0x0180, 0x0300), (0x1D00, 0x1E00), (0x2C60, 0x2C80), (0xA720, 0xA800), (0xAB30, 0xAB70),
                         (0x10780, 0x107C0), (0x1DF00, 0x1E000))
"""The blocks Unicode keeps its small capitals in (Latin Extended-B, IPA and the modifier letters, the phonetic
extensions and their marks, Latin Extended-C, -D, -E, -F and -G): a test holds this to every character of
Unicode whose name says it is one."""


@functools.cache
def _small_capitals() -> dict[str, str]:
    """Each small capital letter and the capital it is drawn as (``ᴍ``, LATIN LETTER SMALL CAPITAL M, as ``M``),
    from the characters' own Unicode names. ``confusables.txt`` leaves most of them out, or maps them to another
    small letter (``ᴍ`` to ``ʍ``): ``ᴍike`` would pass beside ``mike``, whose capitalised form is ``Mike``."""
    out: dict[str, str] = {}
    for code in (c for start, end in _SMALL_CAPITAL_BLOCKS for c in range(start, end)):
        name = unicodedata.name(chr(code), "")
        head, small, letter = name.partition("SMALL CAPITAL ")
        if not small or "COMBINING" in head:
            continue
        script = head.split()[0] if head.split()[0] in ("LATIN", "GREEK", "CYRILLIC") else "LATIN"
        with contextlib.suppress(KeyError):
            out[chr(code)] = unicodedata.lookup(f"{script} CAPITAL LETTER {letter.removeprefix('LETTER ')}")
    return out


def _mapped(prototypes: dict[str, str], text: str) -> str:
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text)
                                                if unicodedata.category(c) != "Cf"))


SOFT_DOTTED = frozenset("ij")
"""Prototypes of the letters drawn with a dot of their own (Unicode's Soft_Dotted: ``i``, ``j``,
and, through the prototypes, ``і``, ``ј``, ``ı`` and the rest): a dot above one of them is lost in it."""
DOT_ABOVE = "\u0307"


def _unseen_marks(text: str) -> str:
    """Without the marks that change nothing drawn (UTS #39 §5.4): a dot above a soft-dotted
    letter (``i`` and U+0307 is drawn as ``i``), and a mark again on the letter that has it."""
    out: list[str] = []
    marks: set[str] = set()
    base = ""
    for char in text:
        if not unicodedata.combining(char):
            out.append(char)
            base, marks = char, set()
            continue
        if char in marks or (char == DOT_ABOVE and base in SOFT_DOTTED and not any(
                unicodedata.combining(m) == unicodedata.combining(DOT_ABOVE) for m in marks)):
            continue
        marks.add(char)
        out.append(char)
    return "".join(out)


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of a text (in the case it is written): equal skeletons, texts that look alike.

    The table's letters that carry a mark (``ѝ``, listed as looking like ``й``) are mapped as they
    are written too, before NFD takes them apart: decomposed first, as §4 does alone, they never
    meet their entry (``и`` and a grave accent, ``и`` and a breve)."""
    prototypes = _prototypes()
    composed = unicodedata.normalize("NFC", text)
    return _unseen_marks(_mapped(prototypes, "".join(prototypes.get(c, c) for c in composed)))
