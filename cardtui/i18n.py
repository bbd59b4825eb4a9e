"""The reader's language: English, Brazilian Portuguese or Spanish.

Sentences are looked up in gettext catalogs that Babel builds (``make i18n``: extract, update,
compile) and that ship in the package (``cardtui/locale/{pt_BR,es}/LC_MESSAGES/cardtui.mo``).
The language is chosen by ``--lang``, else ``CARDTUI_LANG``, else the one the person last chose
in the client (``ctrl+l``, kept in ``language`` in their config directory), else ``LC_ALL``,
``LC_MESSAGES`` or ``LANG`` (the system's, the first time), else English. A message missing from
a catalog is said in English.

Game terms are not looked up: a truco call is said in the language the game is played in,
whatever the reader's language. Templates marked with ``N_`` are extracted but looked up only
where they are shown (the server sends them as ids, the client says them in its language).

The language lives in a context variable holding a mutable ``Speaker``: one process (one
terminal) reads one language, which a key may change; a test may run two apps side by side,
each ``speaking`` its own.
"""

from __future__ import annotations

import contextlib
import gettext
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

DOMAIN = "cardtui"
LANGUAGES = ("en", "pt_BR", "es")
"""Every language a reader may choose, English first (the language of the code)."""
NAMES = {"en": "English", "pt_BR": "Português (Brasil)", "es": "Español"}
"""Each language in its own words (for the key that switches it)."""
ENV = ("CARDTUI_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def normalize(tag: str | None) -> str | None:
    """A language as a reader or the environment names it ("pt-BR", "es_AR.UTF-8", "pt"), as one
    of ``LANGUAGES``; None for a language not offered ("fr", "C", "")."""
    if not tag:
        return None
    base = tag.split(".")[0].split("@")[0].replace("-", "_").strip()
    lang = base.split("_")[0].lower()
    if lang == "pt":
        return "pt_BR"
    if lang == "es":
        return "es"
    if lang == "en":
        return "en"
    return None


def choose(flag: str | None = None, env: Mapping[str, str] | None = None, remembered: str | None = None) -> str:
    """The language to use: ``--lang`` first, then ``CARDTUI_LANG``, then the one ``remembered``
    (the person's last choice), then the system's locale, then English."""
    chosen = normalize(flag)
    if chosen is not None:
        return chosen
    env = os.environ if env is None else env
    if env.get(ENV[0]):
        return normalize(env[ENV[0]]) or "en"
    chosen = normalize(remembered)
    if chosen is not None:
        return chosen
    for name in ENV[1:]:
        value = env.get(name)
        if value:  # the first one set decides, as for gettext (LANG=C means English)
            return normalize(value) or "en"
    return "en"


LANGUAGE_FILE = "language"
"""Where a person's last choice of language is kept, in their config directory."""


def language_file() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardtui")) / LANGUAGE_FILE


def remembered(file: Path | None = None) -> str | None:
    """The language this person last chose, or None (never chose one, or the file is unreadable)."""
    try:
        return normalize((file or language_file()).read_text(encoding="utf-8").strip())
    except (OSError, UnicodeDecodeError):
        return None


def remember(lang: str, file: Path | None = None) -> None:
    """Keep ``lang`` as this person's language: the next client starts in it. A file that cannot be
    written is left as it was (remembering is a convenience, never in the way)."""
    file = file or language_file()
    with contextlib.suppress(OSError):
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".language.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(lang + "\n")
        os.replace(tmp, file)


def flag_in(argv: list[str]) -> str | None:
    """The value of ``--lang`` in a command line, before it is parsed (its help is in that language)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the messages as they are)."""
    if lang == "en":
        return gettext.NullTranslations()
    path = resources.files("cardtui").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except FileNotFoundError:
        return gettext.NullTranslations()


@dataclass
class Speaker:
    lang: str = "en"


_DEFAULT = Speaker()
_SPEAKER: ContextVar[Speaker] = ContextVar("cardtui_speaker", default=_DEFAULT)


def current() -> str:
    return _SPEAKER.get().lang


def use(lang: str) -> None:
    """Read ``lang`` from now on (in this context: the process, or the app ``speaking`` it)."""
    chosen = normalize(lang)
    if chosen is None:
        raise ValueError(f"{lang!r} is not one of {', '.join(LANGUAGES)}")
    _SPEAKER.get().lang = chosen


def next_language(lang: str | None = None) -> str:
    """The language after ``lang`` (the current one) in ``LANGUAGES``, round again at the end."""
    now = LANGUAGES.index(lang or current())
    return LANGUAGES[(now + 1) % len(LANGUAGES)]


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[Speaker]:
    """Within this block (and the tasks started in it), read ``lang``."""
    token = _SPEAKER.set(Speaker(normalize(lang) or "en"))
    try:
        yield _SPEAKER.get()
    finally:
        _SPEAKER.reset(token)


def _(message: str) -> str:
    """``message`` in the reader's language (as it is, if the catalog lacks it)."""
    if not message:
        return message
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` by the reader's language's plural rule (pt_BR: 0 and 1 are singular)."""
    return translations(current()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a message for the catalogs without looking it up: it is looked up where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` as said of ``context`` (a word whose form depends on what it is said of: a table
    "terminada", a tournament "terminado")."""
    if not message:
        return message
    return translations(current()).pgettext(context, message)


def NP_(context: str, message: str) -> str:
    """``N_`` for a message with a context: looked up with ``pgettext`` where it is shown."""
    return message


def render(template: str, args: Mapping[str, str] | None = None) -> str:
    """A template sent as an id (a refusal), said in the reader's language with its arguments;
    the English template if the translation's fields do not fit the arguments."""
    args = args or {}
    said = _(template)
    if not args:
        return said
    try:
        return said.format(**args)
    except (KeyError, IndexError, ValueError):
        try:
            return template.format(**args)
        except (KeyError, IndexError, ValueError):
            return template


__all__ = ["LANGUAGES", "NAMES", "NP_", "N_", "_", "choose", "current", "flag_in", "language_file", "next_language",
           "ngettext", "normalize", "pgettext", "remember", "remembered", "render", "speaking", "translations", "use"]
