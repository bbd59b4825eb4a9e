"""What is written for the eye, made fit for the ear: every rules page in every language read whole and without
the screen's words, numbers as the reader's language writes them, tables named and never by their id, a knock's
melds heard apart.
"""

from __future__ import annotations

import re

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Markdown

from cardtui.client.lines import lobby
from cardtui.client.lines.actions import KINDS, first_kind
from cardtui.client.lines.reading import blocks, localised, numbers_said, rules_said
from cardtui.client.lines.sentences import spoken, table_named
from cardtui.client.screens.help import rules_page
from cardtui.i18n import speaking
from cardtui.v1 import common_pb2

GAMES = ("pifpaf", "cacheta", "truco_paulista", "truco_argentino", "cacho")
LANGUAGES = ("en", "pt_BR", "es")
MARKDOWN = re.compile(r"[*`|#_]|\]\(|<!--")
SCREEN_WORDS = re.compile(
    r"\b(green|yellow|bar|key|keys|screen|board|shift|verde|amarel\w*|amarill\w*|barra|tecla|teclas|tela|"
    r"pantalla|tablero|tabuleiro)\b|[←→▶⇧]", re.I)
"""What a listener cannot use: the screen's colours and bars, its keys and arrows."""
BROKEN = re.compile(r"\b\w+\. [a-zà-ÿ]")
"""A full stop followed by a word in lower case: a sentence cut where a line of the page wrapped."""


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_is_read_whole_without_marks_or_the_screens_words(game: str, lang: str) -> None:
    page = rules_page(game, lang)
    assert page is not None
    with speaking(lang):
        said = rules_said(page)
    assert said, game
    for line in said:
        assert not MARKDOWN.search(line), f"{game}/{lang}: a mark read aloud: {line!r}"
        assert not SCREEN_WORDS.search(line), f"{game}/{lang}: words for the eye: {line!r}"
        assert not BROKEN.search(line), f"{game}/{lang}: a sentence cut at a wrapped line: {line!r}"


def test_a_paragraph_wrapped_over_lines_is_one_sentence() -> None:
    with speaking("es"):
        said = rules_said(rules_page("truco_argentino", "es") or "")
    assert any("Gana el primer equipo que llega a 30" in line for line in said), said[:3]
    assert blocks("one *two*\nthree **four** `five` [six](x)\n\n- a\n  b\n| x | y |\n|---|---|\n| c | d |") == [
        "one two three four five six", "a b", "c: d"]


def test_what_a_page_marks_as_the_screens_is_left_out_for_the_ear_and_not_shown_on_the_screen() -> None:
    page = "# T\n\nA rule<!-- screen --> (keys 1-3)<!-- /screen -->.\n\n<!-- screen -->\n## Keys\n- a yellow bar\n"
    assert blocks(page) == ["T", "A rule."]

    class Shown(App[None]):
        def compose(self) -> ComposeResult:
            yield Markdown(page)

    async def shown() -> str:
        app = Shown()
        async with app.run_test(size=(60, 12)) as pilot:
            await pilot.pause()
            return "\n".join(re.findall(r">([^<>]+)</text>", app.export_screenshot())).replace("&#160;", " ")

    import asyncio

    text = asyncio.run(shown())
    assert "A rule (keys 1-3)." in text and "screen" not in text and "<!--" not in text, text


@pytest.mark.parametrize("game", GAMES)
def test_the_ears_numbers_are_said_after_the_rules_as_the_choices_number_them(game: str) -> None:
    said = numbers_said(game)
    for n, _kind in enumerate(KINDS[game], start=first_kind(game)):
        assert f"{n}: " in said, (game, n, said)
    assert not SCREEN_WORDS.search(said), said


def test_numbers_are_said_as_the_readers_language_writes_them() -> None:
    text = "You lost 1.9 chips (12.50%) at 127.0.0.1:80, version 1.2.3; -0.23 chips."
    assert localised(text) == text
    with speaking("pt_BR"):
        assert localised(text) == "You lost 1,9 chips (12,50%) at 127.0.0.1:80, version 1.2.3; -0,23 chips."
    with speaking("es"):
        assert "1,9" in localised(text) and "127.0.0.1" in localised(text)


def test_a_table_is_named_once_and_never_by_its_id() -> None:
    assert table_named("Mesa de Pif Paf", "Pif Paf") == "Mesa de Pif Paf"
    assert table_named("sexta", "Cacho") == "sexta, Cacho"
    summary = common_pb2.TableSummary(id="de61878d", game="pifpaf", name="Mesa de Pif Paf",
                                      seats=[common_pb2.SeatSummary(seat=0, name="ana", taken=True)])
    line = lobby.table_line(summary, "Pif Paf")
    assert "de61878d" not in line and line.count("Pif Paf") == 1, line


def test_a_knocks_melds_are_heard_apart() -> None:
    said = spoken("bia knocks: 5♠ 5♦ 5♣ │ 9♥ 10♥ J♥, discarding 8♣.")
    assert said == ("bia knocks: 5 of spades, 5 of diamonds and 5 of clubs; 9 of hearts, 10 of hearts and jack of "
                    "hearts, discarding 8 of clubs.")


def test_the_players_guide_gives_each_games_numbers_as_the_line_mode_has_them() -> None:
    """docs/players.md's table of numbers, held to each game's list: a number moved is a number the guide lies
    about."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[3] / "docs" / "players.md").read_text(encoding="utf-8")
    guide = guide[guide.index("## By ear"):]
    titles = {"Pif Paf": "pifpaf", "Cacheta": "cacheta", "Truco paulista": "truco_paulista",
              "Truco argentino": "truco_argentino", "Cacho": "cacho"}
    seen = set()
    for row in guide.splitlines():
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) == 3 and cells[0] in titles:
            game = titles[cells[0]]
            seen.add(game)
            numbers = [int(n) for n in re.findall(r"(?:^|, )(\d+) ", cells[2])]
            assert numbers == list(range(first_kind(game), first_kind(game) + len(KINDS[game]))), (game, numbers)
    assert seen == set(titles.values())
