"""Every key label a player meets at a table is in their language: each action the games offer has a
label of its own (never its English type, "d Discard" in a Spanish action bar), and each label, like
each key of a table's footer, is translated in both catalogs, or is a game's own term said the
same in every language (Truco!, Quiero, Na boa)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from textual.binding import Binding

import cardtui.client.app  # noqa: F401  (every board registers its words)
from cardtui.client.app import CardApp
from cardtui.client.boards.cacho import CachoBoard
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.boards.truco import TrucoBoard
from cardtui.client.models import TableModel, action_kind
from cardtui.client.screens.table import TableScreen
from cardtui.client.words import label, label_of, word
from cardtui.engine.games import GAMES
from cardtui.i18n import speaking
from cardtui.server.base import wire
from cardtui.v1 import common_pb2
from tests.per_game import declared
from tools.catalogs import LANGUAGES, read

OFFERED = {game: set(tests.offered) for game, tests in declared().items()}
"""The kinds of action each game may offer (``action_kind``), as its own tests declare them (tests/per_game.py; the
truco engines list theirs): random play below holds each list to what the engines offer."""


def met_in_play(game: str, steps: int = 120) -> set[str]:
    """The kinds of action a short random match offers, as the wire carries them."""
    rules = GAMES[game]
    rng = random.Random(game)
    players = max(rules.player_counts)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    match, _ = rules.open({}, seats, rng.getrandbits(63))
    kinds: set[str] = set()
    for _step in range(steps):
        if match.hand_over():
            if match.match_over():
                break
            match.next_hand(rng.getrandbits(63))
            continue
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)
        kinds |= {action_kind(a) for a in wire.view_message(match.view(seat), legal, 0).legal}
        match.apply(seat, rng.choice(legal))
    return kinds


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, str]]:
    """Each language's translations, by English message (an untranslated one: "")."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        out[lang] = {str(m.id): str(m.string or "") for m in read(lang) if m.id and isinstance(m.id, str)}
    return out


def test_the_list_of_actions_is_what_the_engines_offer() -> None:
    for game in GAMES:
        assert met_in_play(game) <= OFFERED[game], game


@pytest.mark.parametrize("game", sorted(OFFERED))
def test_every_action_has_a_label_in_every_language(game: str, catalogs: dict[str, dict[str, str]]) -> None:
    model = TableModel(common_pb2.TableSummary(game=game), 0)
    for kind in sorted(OFFERED[game]):
        label = label_of(game, kind)
        assert label is not None, f"{game}: {kind!r} has no label (its English type would be shown)"
        for lang in LANGUAGES:
            translated = catalogs[lang].get(label)
            with speaking(lang):
                shown = word(model, kind)
            if translated is None:  # a game's own term: the same in every language
                assert shown == label, (game, kind, lang)
                continue
            assert translated, f"{lang}: {label!r} ({game} {kind}) is not translated"
            assert shown == translated, (game, kind, lang, shown)


def footer_keys() -> Iterator[tuple[str, str]]:
    """Every key a table's footer may show, with its words: the table's, each board's, the app's."""
    for owner in (TableScreen, RummyBoard, TrucoBoard, CachoBoard, CardApp):
        for binding in owner.BINDINGS:
            if isinstance(binding, Binding):
                yield owner.__name__, binding.description
                if binding.group is not None:
                    yield owner.__name__, binding.group.description


def test_every_key_of_a_tables_footer_is_translated(catalogs: dict[str, dict[str, str]]) -> None:
    words = sorted(set(footer_keys()))
    assert ("RummyBoard", "Discard") in words and ("TableScreen", "More/less") in words
    for lang in LANGUAGES:
        missing = [(owner, said) for owner, said in words if said and not catalogs[lang].get(said)]
        assert not missing, f"{lang}: {missing}"


def test_a_replays_header_says_the_knock_in_the_readers_language() -> None:
    """A replay names each step by its action's label: "Knock" was said in English in Portuguese."""
    model = TableModel(common_pb2.TableSummary(game="cacheta"), None)
    knock = common_pb2.Action(type=common_pb2.ACTION_TYPE_KNOCK, cards=["KD"])
    with speaking("pt_BR"):
        assert label(model, knock).plain == "Bater K♦"
    with speaking("es"):
        assert label(model, common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=["KD"])).plain == (
            "Descartar K♦")
