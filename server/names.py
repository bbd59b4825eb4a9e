"""A person's name: what it may be, when two spellings are one name, and when two names look alike.

Two standards decide, each through a library rather than tables of our own:

- **PRECIS** (RFC 8264, and RFC 8265's *UsernameCaseMapped* profile, by ``precis-i18n``) says
  which characters a name may hold (letters, digits, the printable ASCII punctuation; no
  controls, no invisible or format characters such as a soft hyphen or a zero-width space, no
  symbols) and maps it to its comparison *key*: fullwidth letters to their usual width, upper
  case to lower, and Unicode normalization form C. ``José`` typed precomposed or as ``e`` and a
  combining accent, ``JOSÉ`` and fullwidth ``Ｊｏｓé`` have one key: they are one name. Names
  may have spaces, as RFC 8265 §3.5 allows: each space-separated word is enforced on its own.
- **UTS #39** (Unicode Security Mechanisms, §4 *confusable detection*) gives each key a
  *skeleton*: NFD, then every character replaced by the prototype it is confusable with, then
  NFD again. Two names with one skeleton look alike: ``аna`` with a Cyrillic ``а`` and ``ana``.
  The prototypes are Unicode's ``confusables.txt``, as the ``confusable_homoglyphs`` package
  ships it (a graph: each prototype linked with the characters that look like it).

A name is shown as it was typed (terminal escapes out, runs of spaces folded to one); only
its key and skeleton decide whose it is.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from precis_i18n import get_profile

from cardtui.i18n import N_
from cardtui.server.text import MAX_NAME, BadText, strip_escapes

PROFILE = get_profile("UsernameCaseMapped")
"""RFC 8265 §3.3: the profile for names compared without regard to case."""

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
    looks: str
    """Its UTS #39 skeleton: two names with one skeleton look alike."""


def _described(char: str) -> str:
    """A character as a sentence can show it, invisible ones too: ``’ (U+2019 RIGHT SINGLE QUOTATION MARK)``."""
    code = f"U+{ord(char):04X}"
    title = unicodedata.name(char, "")
    named = f"{code} {title}" if title else code
    visible = unicodedata.category(char)[0] not in "CZM"
    return f"{char} ({named})" if visible else named


def _word_key(word: str) -> str:
    try:
        return str(PROFILE.enforce(word))
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


def person_name(typed: str) -> Name:
    """The name ``typed`` stands for; ``BadText`` with a sentence when it cannot be one."""
    shown = " ".join(strip_escapes(typed).split())
    if not shown:
        raise BadText(N_("A name needs at least one visible character."))
    if len(shown) > MAX_NAME:
        raise BadText(N_("A name may be at most {most} characters long."), most=MAX_NAME)
    key = " ".join(_word_key(word) for word in shown.split(" "))
    return Name(shown, key, skeleton(key))


def key_of(name: str) -> str:
    """The comparison key of a name, never refusing: for looking a name up, and for names stored
    before PRECIS decided (one it now refuses falls back to NFKC and case folding)."""
    try:
        return person_name(name).key
    except BadText:
        return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to (UTS #39 §4).

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


def _mapped(prototypes: dict[str, str], text: str) -> str:
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text)
                                                if unicodedata.category(c) != "Cf"))


def skeleton(key: str) -> str:
    """The UTS #39 skeleton of a key: equal skeletons, names that look alike."""
    return _mapped(_prototypes(), key)
