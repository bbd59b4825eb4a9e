"""``make i18n``: the gettext catalogs, with Babel: extract the messages, update each language's
``.po`` from them, compile the ``.mo`` files that ship in the package.

    .venv/bin/python -m tools.catalogs [extract|update|compile|all|check]

What is extracted: every ``_()``, ``ngettext()`` and ``N_()`` in the client, the server, the
engine and the command line, and the refusal sentences given as literals to the server's typed
refusals and to the engine's ``IllegalAction`` (the server sends those as message ids). ``check``
says what a catalog lacks (a message without a translation, a fuzzy one, a stale ``.mo``) and
exits 1 if anything: the test suite asks the same.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import PoFileError, read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "cardtui" / "locale"
POT = LOCALE / "cardtui.pot"
DOMAIN = "cardtui"
LANGUAGES = ("pt_BR", "es")
SOURCES = ("cardtui", "client", "server", "engine")
"""Where the messages are: the package's own modules and the three folders it links to."""
SKIP = ("cardtui/v1",)
REFUSALS = ("Refusal", "InvalidArgument", "FailedPrecondition", "PermissionDenied", "Unauthenticated", "NotFound",
            "ResourceExhausted", "Unavailable", "IllegalAction", "NotYourTurn", "InvalidOptions", "BadAction",
            "BadText", "_Invalid")
"""Calls whose first argument is a sentence the server sends as a message id."""
KEYWORDS: dict[str, object] = {**DEFAULT_KEYWORDS, **{name: None for name in REFUSALS}, "option": (2,),
                               "phrase": None, "NP_": ((1, "c"), 2)}
"""``option(default, help)``: a game option's line of help, which the lobby shows in the reader's language."""
with (ROOT / "babel.cfg").open() as _cfg:
    MAPPING, OPTIONS = parse_mapping_cfg(_cfg)

_CALL = re.compile(rb"(?<!\w)(?:" + b"|".join(re.escape(k.encode()) for k in sorted(KEYWORDS, key=len, reverse=True))
                   + rb")[\s\\]*[(\[]")
"""A keyword followed by the bracket that opens its call (spaces and line continuations between): Babel
finds a message only where a keyword's name token is followed by ``(`` or ``[``, so a file without a
match has none. Looser than Babel (it also matches in strings and comments), never stricter."""


def _python(fileobj: IO[bytes], keywords: Mapping[str, object], comment_tags: Collection[str],
            options: dict[str, object]) -> Iterator[tuple[int, str, object, list[str]]]:
    """Babel's Python extractor, for the files that can hold a message: most modules have none, and
    Babel's tokenizing of a file is most of what an extraction costs (about 60 % less with this)."""
    data = fileobj.read()
    if _CALL.search(data):
        yield from extract_python(io.BytesIO(data), keywords, comment_tags, options)  # type: ignore[arg-type]


_METHODS = [(pattern, _python if method == "python" else method) for pattern, method in MAPPING]


def _messages() -> Iterator[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    for source in SOURCES:
        for path, lineno, message, comments, context in extract_from_dir(
            ROOT / source, _METHODS, OPTIONS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            where = f"{source}/{path}"
            if any(where.startswith(s) for s in SKIP):
                continue
            yield where, lineno, message, comments, context


def extract() -> Catalog:
    """Every message in the code, as a template catalog (no translations)."""
    catalog = Catalog(project="cardtui", version="0.1.0", domain=DOMAIN, charset="utf-8", fuzzy=False)
    for where, lineno, message, comments, context in _messages():
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def _write(catalog: Catalog, path: Path, width: int = 100) -> None:
    buf = io.BytesIO()
    # Sorted by message, files without line numbers: a change elsewhere in a file does not move its
    # messages, so a catalog's diff holds only the messages that changed.
    write_po(buf, catalog, width=width, sort_output=True, omit_header=False, include_previous=False,
             include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def update(template: Catalog) -> None:
    """Each language's catalog brought up to the template: new messages come in untranslated, gone
    ones go (no fuzzy matching: a changed sentence is translated again)."""
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="cardtui", version="0.1.0", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
        catalog.obsolete.clear()
        _write(catalog, path)


def compiled(lang: str, catalog: Catalog | None = None) -> bytes:
    """The language's ``.mo``, from its catalog (read from its ``.po`` unless given)."""
    buf = io.BytesIO()
    write_mo(buf, read(lang) if catalog is None else catalog, use_fuzzy=False)
    return buf.getvalue()


def same_messages(shipped: bytes, fresh: bytes) -> bool:
    """Whether two compiled catalogs hold the same messages and translations (and header): compared
    as gettext reads them, not byte for byte, since Babel releases lay the same catalog out
    differently (2.19 does not write 2.18's bytes)."""
    def messages(data: bytes) -> tuple[str, dict[object, object]]:
        catalog = read_mo(io.BytesIO(data))

        def key(text: object) -> object:
            return tuple(text) if isinstance(text, list | tuple) else text

        return catalog.plural_forms, {(m.context, key(m.id)): key(m.string) for m in catalog if m.id}

    try:
        return shipped == fresh or messages(shipped) == messages(fresh)
    except (OSError, ValueError):  # not a compiled catalog at all
        return False


def compile_all() -> None:
    for lang in LANGUAGES:
        mo_path(lang).write_bytes(compiled(lang))


def problems() -> list[str]:
    """What the catalogs lack: messages in the code and not in a catalog, untranslated or fuzzy
    ones, plural forms not the language's, compiled files older than their ``.po``; a template
    other than the code's messages, or a file that does not read cleanly (two branches' entries
    joined line by line can leave an entry twice, or one without its ``msgstr``)."""
    template = extract()
    out: list[str] = []
    read_once: dict[str, Catalog] = {}  # each language's catalog, read once: checked, then compiled
    for lang, path in ((None, POT), *((lang, po_path(lang)) for lang in LANGUAGES)):
        with path.open("rb") as f:
            try:
                kept = read_po(f, abort_invalid=True) if lang is None else \
                    read_po(f, locale=lang, domain=DOMAIN, abort_invalid=True)
            except PoFileError as e:
                out.append(f"{path.name} ({path.parent.parent.name}) does not read cleanly: {e}: run make i18n")
                continue
        if lang is not None:
            read_once[lang] = kept
        elif not _same(kept, template):
            out.append(f"{path.name} is not the code's messages: run make i18n")
    for lang in LANGUAGES:
        catalog = read_once[lang] if lang in read_once else read(lang)
        for message in template:
            if not message.id:
                continue
            got = catalog.get(message.id, context=message.context)
            name = message.id if isinstance(message.id, str) else message.id[0]
            if got is None:
                out.append(f"{lang}: not in the catalog: {name!r}")
            elif got.fuzzy:
                out.append(f"{lang}: fuzzy: {name!r}")
            elif not got.string or (isinstance(got.string, tuple) and not all(got.string)):
                out.append(f"{lang}: not translated: {name!r}")
        if not mo_path(lang).exists() or not same_messages(mo_path(lang).read_bytes(), compiled(lang, catalog)):
            out.append(f"{lang}: the compiled catalog ({mo_path(lang).name}) is stale: run make i18n")
    return out


def _same(a: Catalog, b: Catalog) -> bool:
    def key(c: Catalog) -> list[tuple[object, object, object]]:
        return sorted((str(m.id), str(m.context), sorted({f for f, _ in m.locations})) for m in c if m.id)

    return key(a) == key(b)


def write_pot(template: Catalog) -> None:
    """The template, written only when its messages changed (so its date says when they did)."""
    if POT.exists():
        with POT.open("rb") as f:
            if _same(read_po(f), template):
                return
    _write(template, POT)


def main(argv: list[str]) -> int:
    step = argv[0] if argv else "all"
    if step in ("extract", "all"):
        write_pot(extract())
    if step in ("update", "all"):
        update(extract())
    if step in ("compile", "all"):
        compile_all()
    if step == "check":
        found = problems()
        for p in found:
            print(p)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
