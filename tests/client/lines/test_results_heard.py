"""Every hand's result says the player's own total, in every game and every language, and nothing the table says
runs two numbers together: random matches on the real engines, each message as the wire carries it to the
player's seat, said by the line mode's own loop (``LineRoom.heard``), every hand of them read.

The live by-ear tests (``test_by_ear``) play a first hand through a real server; here many hands of each game go
by in a fraction of a second, so a result that forgets the player in some hand (a seat out of the match, a hand
won uncontested, a redeal, a team's round) is met.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from cardtui.client.lines import loop  # noqa: F401  (every game's words)
from cardtui.client.lines.loop import LineRoom, Seat, Start
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.models import TableModel
from cardtui.engine.games import BUILT_IN, GAMES
from cardtui.i18n import _, speaking
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, table_pb2
from tests.client.lines.listener import Heard

NAMES = tuple(e.name for e in BUILT_IN)
LANGUAGES = ("en", "pt_BR", "es")
PEOPLE = ("ana", "bot 2", "caio 3", "bot 4")
"""The player first; names that end in a number (two bots', a person's), which a total said after them would run
into."""


class Listening(LineRoom):
    """The line mode's loop with no server behind it: the analysis it asks for as a hand ends is not asked."""

    def _ending(self, at: Seat) -> None:
        tasks = len(at.tasks)
        super()._ending(at)
        for task in at.tasks[tasks:]:
            task.cancel()
        del at.tasks[tasks:]


def own_total(lang: str) -> re.Pattern[str]:
    """The player's own total as a hand's result says it ("you 19", "we 15"), in ``lang``."""
    with speaking(lang):
        words = [re.escape(_(t)).replace(r"\{n\}", r"\d+") for t in ("you {n}", "we {n}")]
    return re.compile("|".join(words), re.IGNORECASE)


async def heard_hands(game: str, seed: int, hands: int = 4) -> dict[str, list[list[str]]]:
    """What the player at seat 1 hears of each hand of a match of ``game`` (from the hand's end to the next deal), in
    each language (a line mode each, hearing the same messages), every seat played by the easy bot with a random
    choice one time in five; up to ``hands`` hands."""
    rules = GAMES[game]
    rng = random.Random(seed)
    players = next(n for n in (3, 4, 2) if n in rules.player_counts)  # truco in two teams of two
    seats = [common_pb2.SeatSummary(seat=n, name=PEOPLE[n], taken=True, bot=PEOPLE[n].startswith("bot"))
             for n in range(players)]
    summary = common_pb2.TableSummary(id="t", game=game, name="t", seats=seats)
    match, opening = rules.open({}, rules.seat_infos(list(PEOPLE[:players])), rng.getrandbits(63))
    rooms = {lang: (Listening(Start("127.0.0.1:1", "ana", own_config=False), Heard()), Seat("token", TableModel(
        summary, 0))) for lang in LANGUAGES}
    ended: dict[str, list[list[str]]] = {lang: [] for lang in LANGUAGES}

    def view() -> table_pb2.View:
        legal = match.legal_actions(0) if 0 in match.to_act() else []
        return wire.view_message(match.view(0), legal, 30_000, seats)

    def told(msg: table_pb2.TableMessage, over: bool) -> None:
        for lang, (room, at) in rooms.items():
            heard = room.lines
            assert isinstance(heard, Heard)
            was_over = at.model.view is not None and at.model.view.hand_over
            mark = len(heard.said)
            with speaking(lang):
                room.heard(at, msg)
            if over and not was_over:
                ended[lang].append(heard.said[mark:])

    told(table_pb2.TableMessage(seq=0, snapshot=table_pb2.Snapshot(table=summary, view=view())), False)
    events = opening
    seq = 0
    for _step in range(3000):
        update = table_pb2.Update(view=view())
        for ev in events:
            seq += 1
            update.events.append(wire.event_message(seq, ev, 0))
        told(table_pb2.TableMessage(seq=seq, update=update), match.hand_over())
        if match.hand_over():
            if match.match_over() or len(ended["en"]) >= hands:
                break
            events = match.next_hand(rng.getrandbits(63))
            continue
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)  # the bots' play mostly (hands that end), a random choice at times
        events = match.apply(seat, rng.choice(legal) if rng.random() < 0.2 else match.bot_action(seat, rng, "easy"))
    for lang, (room, _at) in rooms.items():
        said = room.lines.said  # type: ignore[attr-defined]
        runs = [(s, runs_of_numbers(s)) for s in said if runs_of_numbers(s)]
        assert not runs, f"{game} ({lang}): two numbers in a row: {runs}"
    return ended


@pytest.mark.parametrize("game", NAMES)
@settings(max_examples=1, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(seed=st.integers(0, 2**32))
def test_every_hands_result_says_the_players_own_total_and_no_two_numbers_run_together(game: str, seed: int) -> None:
    ended = asyncio.run(heard_hands(game, seed))
    for lang in LANGUAGES:
        mine = own_total(lang)
        assert ended[lang], f"{game}: no hand ended"
        for n, said in enumerate(ended[lang], start=1):
            assert any(mine.search(s) for s in said), \
                f"{game} ({lang}), hand {n}: the result without your total: {said}"


def test_the_table_heard_on_sitting_down_says_the_pot_once_and_a_numbered_name_with_a_word_before_its_chips() -> None:
    """Sitting down (or ``table all``) says who sits where with what they hold, every side's total and the pot: the
    pot once (the totals' line says it), and "bot 2" never right before its chips."""
    from cardtui.client.lines.sentences import table_words
    from cardtui.client.shape import score_said

    seats = [common_pb2.SeatSummary(seat=n, name=name, taken=True) for n, name in enumerate(("ana", "dan 2", "bia"))]
    view = wire.view_message(None, seats=seats)
    view.ClearField("waiting")
    view.hand = 1
    view.rummy.pot = 3
    view.rummy.seats.extend(table_pb2.View().rummy.seats.add(seat=n, score=49, card_count=9) for n in range(3))
    model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf", name="t", seats=seats), 0).with_view(view, 1)
    with speaking("en"):
        said = table_words(model, score=score_said(model))
    assert sum(s.count("The pot holds 3.") for s in said) == 1, said
    assert "seat 2: dan 2 has 49 chips, 9 cards" in " ".join(said), said
    assert not any(runs_of_numbers(s) for s in said), said
