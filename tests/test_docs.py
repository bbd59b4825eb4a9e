"""The documents hold together: every relative link leads somewhere, the README stays short, and the
players' guide names every option a game has.

A guide that moved a section leaves links to it behind, in the README, in another guide, in
CONTRIBUTING.md; GitHub shows such a link as a 404 or a page that opens at its top. So every relative
link (and image) of ``README.md``, ``CONTRIBUTING.md`` and ``docs/*.md`` is followed here: its file
must exist, and its ``#anchor``, if any, must be a heading of that file as GitHub names headings.
Links inside code (fenced blocks, backticks) are text, not links, and are not followed.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]

README_LINES = 150
"""The README is read by a player in five minutes: what it is, a picture, two commands, the LAN, where to
read on. What does not fit goes to a guide in docs/."""

LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def prose_lines(text: str) -> list[str]:
    """The document's lines outside fenced code blocks, with inline code blanked out."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line))
    return lines


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, every character but letters, digits, marks,
    ``-`` and ``_`` dropped (backticks and emphasis too), spaces turned to ``-``."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip().lower())
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    kept = "".join(ch for ch in text if ch in "-_ " or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file; a repeated heading gets ``-1``, ``-2``… as on GitHub."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or heading is None:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path) -> list[tuple[int, str]]:
    """The relative links (and images) of a document, with the line number of each target."""
    prose = "\n".join(prose_lines(path.read_text(encoding="utf-8")))
    found = []
    for m in LINK.finditer(prose):  # a link's text may run over lines
        target = m.group("target")
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            found.append((prose.count("\n", 0, m.start("target")) + 1, target))
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading_there(document: Path) -> None:
    broken = []
    for number, target in links(document):
        where, _, anchor = target.partition("#")
        file = (document.parent / where).resolve() if where else document
        if not file.exists():
            broken.append(f"{document.relative_to(ROOT)}:{number}: {target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{document.relative_to(ROOT)}:{number}: {target}: no heading #{anchor} there")
    assert not broken, "\n".join(broken)


def test_the_documents_link_to_each_other() -> None:
    """The README leads to every guide, and each guide is reached from somewhere."""
    readme = {target.partition("#")[0] for _, target in links(ROOT / "README.md")}
    for guide in ("docs/players.md", "docs/hosting.md", "docs/fairness.md", "docs/bots.md", "CONTRIBUTING.md",
                  "docs/client.md", "docs/deal.md", "docs/history.md", "bench/marks.md", "docs/table.svg"):
        assert guide in readme, f"the README does not lead to {guide}"


def test_the_readme_reads_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES, f"the README has {len(lines)} lines; move some to a guide in docs/"


def test_the_players_guide_names_every_option_of_every_game() -> None:
    from cardtui.engine.games import GAMES

    guide = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    missing = [f"{name}: {spec.name}" for name, game in GAMES.items() for spec in game.option_specs
               if f"`{spec.name}`" not in guide]
    assert not missing, f"docs/players.md does not name these options: {missing}"


def test_the_slugs_are_githubs() -> None:
    """A few headings of ours, anchored as GitHub anchors them."""
    assert slug("`--workers`") == "--workers"
    assert slug("The compiled build (mypyc, `CARDTUI_PURE`)") == "the-compiled-build-mypyc-cardtui_pure"
    assert slug("Fair deals: what the ✔ means") == "fair-deals-what-the--means"
    assert slug("Two hosts behind one name (PostgreSQL)") == "two-hosts-behind-one-name-postgresql"
    assert slug("The bots' workers") == "the-bots-workers"


def test_nothing_cites_a_file_a_clone_does_not_have() -> None:
    """The rulings are docs/rules.md, the contracts docs/*.md: no file of the repository points a reader at a page
    that is not in it (a design note, a rules draft or a rule text kept elsewhere)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
    strays = ("RULES.md", "DESIGN.md", "STYLE.md", "seeds/", "seed 000", "seed 001", "seed 002", "seed 003", "seed 004")
    cited = [f"{name}: {stray}" for name in listed if name.endswith((".py", ".md", ".proto", ".pyi", ".toml"))
             and name != "tests/test_docs.py"
             for stray in strays if stray in (root / name).read_text(encoding="utf-8", errors="replace")]
    assert not cited, cited
