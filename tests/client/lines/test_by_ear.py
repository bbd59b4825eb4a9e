"""Play by ear: a whole hand of each game through the line mode, by a player who reads only its sentences,
in each language; every event kind of every game has a sentence; nothing said is drawn for the eye.

A real server on 127.0.0.1 (port 0, SQLite), the line mode's loop with its lines in memory (``listener``); the
command itself, through a terminal, in ``test_command``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from cardtui.client.lines import loop  # noqa: F401  (the games' words, as the line mode has them)
from cardtui.client.lines.narration import LEVEL_SAID, Level
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.lines.sentences import spoken
from cardtui.client.models import TableModel
from cardtui.client.option_words import option_label
from cardtui.client.words import event_words
from cardtui.engine import games
from cardtui.i18n import _, speaking
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, table_pb2
from tests.client.lines.listener import Heard, Listener
from tests.client.rummy_rig import fair_short_hand
from tests.per_game import declared

GAMES = tuple(e.name for e in games.BUILT_IN)
LANGUAGES = ("en", "pt_BR", "es")
FAMILY = {e.name: e.rules.family_name for e in games.BUILT_IN}
EYE_ONLY = re.compile(r"[\x00-\x06\x08-\x1f\x7f\u2500-\u259f\u25a0-\u25ff\u2600-\u27bf\U0001f300-\U0001faff"
                      r"♠♣♥♦⚔♧●♡·]")
"""What a listener cannot hear: control characters (escapes, cursor motion; the bell alone is allowed), box
drawing and blocks, shapes, suit marks and the screen's separators."""


SHORT_WINDOW = "500"
"""The claim window the player asks for, in ms."""


def own_total(lang: str) -> re.Pattern[str]:
    """The player's own total, as every hand's result says it ("you 19", "we 15"), in ``lang``."""
    with speaking(lang):
        words = [re.escape(_(t)).replace(r"\{n\}", r"\d+") for t in ("you {n}", "we {n}")]
    return re.compile("|".join(words), re.IGNORECASE)


def markers(lang: str, level: str = "terse") -> tuple[str, Callable[[str], bool], Callable[[str], bool], str]:
    """What the scripted player listens for, in ``lang``: the turn, the first hand's result (every hand's result
    says the player's own total) or the second hand's start, the match's end, and a fair deal's check."""
    mine = own_total(lang)
    with speaking(lang):
        starts = (_("Hand {n}.").format(n=2), _("Hand {n}: {name} deals.").split("{name}")[0].format(n=2))

        def second(said: str) -> bool:
            return said.startswith(starts) or mine.search(said) is not None

        ends = (_("The match is over.").split(".")[0], _("{won}: again, swap or leave?").split("{won}")[1])

        def over(said: str) -> bool:  # verbose: "The match is over. ..."; terse: "They win the match: again, ...?"
            return said.startswith(ends[0]) or said.endswith(ends[1])

        return (_("Your turn: {choices}.").split("{")[0], second, over,
                _("Fair deal.") if level == "terse" else
                _("{where}: fair deal ({found}).").split("{where}")[1].split("(")[0].strip())


LEVELS = [(lang, "terse") for lang in LANGUAGES] + [("en", "verbose")]
"""Every language at the usual level, and the verbose level in English."""


async def sit(heard: Heard, game: str, lang: str, new: str = "new") -> int:
    """The player creates a table of ``game`` with bots (``new`` and the game, ``change``, the fewest players, a
    short claim window where the game has one, enter for every other choice) and sits there; the index of the
    sentence that seats them. ``new``: the command as typed (``new`` is understood in every language)."""
    heard.type(f"{new} {game}")
    with speaking(lang):
        described = _("Press enter to create it, or type change to choose each thing, or cancel.")
    await heard.until(lambda s: s.endswith(described), "the table described")
    heard.type(_("change"))
    with speaking(lang):
        sat = _("You sit at {name}, seat {n}.").split("{name}")[0]
        claim = option_label(game, "claim_ms") + ":"
    n = await heard.until(lambda s: s.endswith("?") or "?" in s, "how many players")
    heard.type(re.findall(r"\d+", heard.said[n])[0])
    windowed = False
    while True:
        n = await heard.until(lambda s: s.startswith(sat) or "enter" in s, "the next question", n + 1)
        if heard.said[n].startswith(sat):
            break
        windowed = windowed or heard.said[n].startswith(claim)
        heard.type(SHORT_WINDOW if heard.said[n].startswith(claim) else "")
    claims = "claim_ms" in {f.name for f in dataclasses.fields(games.get(game).options_type)}
    assert windowed == claims, "a claim window is asked for where the game has one"
    return n


@pytest.mark.parametrize(("lang", "level"), LEVELS, ids=[f"{lang}-{level}" for lang, level in LEVELS])
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_hand_of_each_game_by_ear(patient_server: Running, game: str, lang: str, level: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The player creates a table of bots (``new`` and the game, ``change``, the fewest players, a short claim
    window, enter for every other choice), sits, plays each turn by number from the sentences alone, and hears
    the hand end, its deal checked fair, and the next begin. (A rummy hand waits out a window after each
    discard that the bots, who never say they let one go, may claim: at the usual 2.5 s, half the hand. At Pif Paf
    (three windows a round) and Cacheta, hand 1 is a fair deal in which the bot after the player claims the player's
    first discard and knocks: ``fair_short_hand``.)"""
    if declared()[game].fair_short:
        fair_short_hand(game, monkeypatch)
    turn, second, over, fair = markers(lang, level)
    with speaking(lang):
        player = Listener(f"127.0.0.1:{patient_server.port}")
        player.start()
        heard = player.heard
        await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
        if level == "verbose":
            heard.type(_("verbose"))
            await heard.until(lambda s: s == _(LEVEL_SAID[Level.VERBOSE]), "the level said")
        n = await sit(heard, game, lang)
        end = await player.play_until(lambda s: second(s) or over(s), turn,
                                      "the first hand's result, or the match's end", full=level == "verbose")
        await heard.until(lambda s: fair in s, "the first hand's deal checked", end)
        heard.type("hand")
        heard.type("table")
        heard.type("S")  # the review keys, the same at every game: the score, the turn, the table
        heard.type("T")
        heard.type("C")
        heard.type("help")
        with speaking(lang):
            help_line = _("help") + ":"
        await heard.until(lambda s: s.startswith(help_line), "the help", end)
        assert await player.stop() == 0
    said = heard.said
    assert any(fair in s for s in said), f"no fair deal heard in {said[-20:]}"
    turns = [s for n, s in enumerate(said) if n in heard.turns and n not in player.replies]
    if turns:  # a hand may end before the player's first turn (a bot ran)
        assert heard.rung >= 1, "the bell never sounded at a turn"
        assert all(s.split(":", 1)[-1].split(";")[-1].strip(" .") for s in turns), \
            f"a turn said without its choices: {turns}"
    with speaking(lang):
        assert any(own_total(lang).search(s) for s in said[:end + 1]) or over(said[end]), \
            f"the hand's result without the player's own total: {said[max(0, end - 10):end + 1]}"
    table = said[n:]  # from the seat taken on: the table's narration, its turns, the review commands asked
    runs = [(s, runs_of_numbers(s)) for s in table if runs_of_numbers(s)]
    assert not runs, f"two numbers in a row: {runs}"
    for line in heard.raw:
        found = EYE_ONLY.findall(line.replace("\a", "").removesuffix("\n"))
        assert not found, f"drawn for the eye: {found} in {line!r}"


async def test_the_analysis_by_ear_names_the_hand_it_judged(patient_server: Running,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Pif Paf's hands are analysed only when asked for: once the next hand is dealt, ``analysis`` judges the hand
    that ended and names it so, not the one being dealt (it once said "Hand 2" of hand 1's decisions). Hand 1 is
    a fair short one (``fair_short_hand``): the player bets, draws and discards, and a bot goes out."""
    fair_short_hand("pifpaf", monkeypatch)
    turn, second, over, _fair = markers("en")
    with speaking("en"):
        player = Listener(f"127.0.0.1:{patient_server.port}")
        player.start()
        heard = player.heard
        await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
        heard.type("new pifpaf")
        await heard.until(lambda s: s.endswith("or cancel."), "the table described")
        heard.type("change")
        n = await heard.until(lambda s: "?" in s, "how many players")
        heard.type(re.findall(r"\d+", heard.said[n])[0])
        claim = option_label("pifpaf", "claim_ms") + ":"
        while True:
            n = await heard.until(lambda s: s.startswith("You sit at") or "enter" in s, "the next question", n + 1)
            if heard.said[n].startswith("You sit at"):
                break
            heard.type(SHORT_WINDOW if heard.said[n].startswith(claim) else "")
        end = await player.play_until(lambda s: second(s) or over(s), turn,
                                      "the second hand, or the match's end")
        heard.type("analysis")
        judged = await heard.until(lambda s: re.match(r"Hand \d+: the decisions judged", s) is not None,
                                   "the analysis", end)
        assert heard.said[judged].startswith("Hand 1: "), heard.said[judged]
        assert await player.stop() == 0


def filled(descriptor: Descriptor, message: Message, game: str, depth: int = 0) -> None:
    """Every field of an event's body given a plausible value: a card of the game's deck, a name, a 1."""
    card = "7e" if game == "truco_argentino" else "7H"
    for f in descriptor.fields:
        if f.type == FieldDescriptor.TYPE_MESSAGE:
            if depth < 3 and f.message_type.oneofs_by_name.get("body") is None:
                sub = getattr(message, f.name).add() if f.is_repeated else getattr(
                    message, f.name)
                filled(f.message_type, sub, game, depth + 1)
            continue
        value: Any
        if f.type == FieldDescriptor.TYPE_STRING:
            value = card if ("card" in f.name or f.name in ("flip", "wilds", "discard", "claimed", "drawn", "taken")
                             ) else "bea"
        elif f.type == FieldDescriptor.TYPE_BOOL:
            value = False
        elif f.type == FieldDescriptor.TYPE_ENUM:
            value = f.enum_type.values[1].number if len(f.enum_type.values) > 1 else 0
        elif f.type == FieldDescriptor.TYPE_BYTES:
            value = b"x"
        else:
            value = 1
        if f.is_repeated:
            getattr(message, f.name).append(value)
        else:
            setattr(message, f.name, value)


SILENT = {
    "hidden": "another's event: nothing to say",
    "deal_committed": "the deal's check says it, once the hand is over",
    "deal_revealed": "the deal's check says it, right after",
    "window_opened": "the discard was said; a player who may claim it hears it is their turn",
}
"""Event kinds the line mode says nothing of, each with the reason. A kind neither here nor said fails."""
OWN_WORDS = {
    "cacho": {"hand_ended": "pot_won"},
    "pifpaf": {"hand_ended": "pot_won"},
    "truco_paulista": {"hand_ended": "round_ended"},
    "truco_argentino": {"hand_ended": "round_ended"},
}
"""Common events a family says by its own events instead (who took the pot, the round's points)."""


@pytest.mark.parametrize("game", GAMES)
def test_every_event_kind_of_every_game_has_a_sentence(game: str) -> None:
    """Each ``Event`` kind (every field of its ``body``, and of the game family's own ``body``) is said by the
    line mode at this game: a new kind without a sentence fails here until it has one, or a reason for none."""
    family = FAMILY[game]
    view = table_pb2.View(hand=1)
    getattr(view, family).SetInParent()
    model = TableModel(common_pb2.TableSummary(id="t", game=game), 0).with_view(view, 1)
    kinds: list[tuple[str, table_pb2.Event]] = []
    for f in table_pb2.Event.DESCRIPTOR.oneofs_by_name["body"].fields:
        inner = f.message_type.oneofs_by_name.get("body")
        if inner is None:
            ev = table_pb2.Event(seq=1)
            getattr(ev, f.name).SetInParent()
            filled(f.message_type, getattr(ev, f.name), game)
            kinds.append((f.name, ev))
        elif f.name == family:
            for g in inner.fields:
                ev = table_pb2.Event(seq=1)
                body = getattr(getattr(ev, f.name), g.name)
                body.SetInParent()
                filled(g.message_type, body, game)
                kinds.append((g.name, ev))
    unsaid = []
    for name, ev in kinds:
        said = event_words(model, ev)
        silent = said is None or not spoken(said.text.plain)
        if silent and name not in SILENT and name not in OWN_WORDS.get(game, {}):
            unsaid.append(name)
    assert not unsaid, f"{game}: no sentence for {unsaid}"
    assert len(kinds) > 15


@pytest.mark.parametrize("text,heard", [
    ("You receive A♣ 3♡ 7♡.", "You receive ace of clubs, 3 of cups and 7 of cups."),
    ("Seña 7⚔/7●", "Seña 7 of swords or 7 of coins."),
    ("bea plays 12♧ face up · ✔ fair deal — ok", "bea plays king of clubs face up, fair deal, ok."),
    ("▒▒▒ ▒▒▒", "2 face-down cards."),
    ("You draw 10♦\nYour turn", "You draw 10 of diamonds. Your turn."),
])
def test_cards_and_marks_are_said_in_words(text: str, heard: str) -> None:
    assert spoken(text) == heard
    assert not EYE_ONLY.findall(spoken(text))


def test_cards_are_named_in_each_language() -> None:
    with speaking("pt_BR"):
        said_pt = spoken("A♣ 12♡")
    with speaking("es"):
        said_es = spoken("A♣ 12♡")
    assert said_pt != said_es != "ace of clubs and king of cups"
    assert "12" not in said_pt and "♡" not in said_es
