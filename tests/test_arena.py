"""The arena: every named player of every game plays, deals are replayed with the sides swapped."""

from __future__ import annotations

import pytest

from cardtui.arena import arena, rotations
from cardtui.engine.bots.players import LEVELS
from cardtui.engine.core import Match
from cardtui.engine.games import GAMES, names, player


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_level_plays_a_hand_of_every_game(game: str) -> None:
    for level in LEVELS:
        result = arena(game, GAMES[game].min_players, level, "today", pairs=1, seed=3, hands=1)
        assert result.matches == len(rotations(game, GAMES[game].min_players))
        assert result.times[level].samples, f"{level} never decided at {game}"


def test_each_deal_is_played_once_per_side_or_seat() -> None:
    assert rotations("truco_argentino", 4) == [[True, False, True, False], [False, True, False, True]]
    assert rotations("cacho", 3) == [[True, False, False], [False, True, False], [False, False, True]]
    result = arena("cacheta", 2, "easy", "random", pairs=3, seed=1, hands=1)
    assert result.matches == 6 and result.hands == 6 and len(result.chips.values) == 3


def test_a_time_bound_stops_after_the_deal_in_progress() -> None:
    result = arena("cacho", 2, "easy", "random", pairs=1000, seed=1, hands=1, seconds=1e-9)
    assert result.pairs == 1 and result.matches == 2


def test_a_run_stops_after_the_deal_at_which_it_is_told_to() -> None:
    result = arena("cacho", 2, "easy", "random", pairs=1000, seed=1, hands=1, stop=lambda r: r.matches >= 6)
    assert result.pairs == 3 and result.matches == 6


def test_players_by_name() -> None:
    assert {"random", "today", "easy", "normal", "hard", "cacheta-isolated", "cacheta-pairs",
            "cacheta-guarded"} <= set(names("cacheta"))
    assert player("pifpaf", "cardtui.engine.rummy.bots.pifpaf:choose").__name__ == "choose"
    with pytest.raises(ValueError, match="no player 'grandmaster'"):
        player("cacho", "grandmaster")


def test_a_watcher_sees_the_table_before_every_decision() -> None:
    seen: list[int] = []

    def watch(match: Match, seat: int) -> None:
        assert seat in match.to_act()
        seen.append(seat)

    result = arena("truco_argentino", 2, "easy", "random", pairs=1, seed=4, hands=1, watch=watch)
    assert len(seen) == sum(len(t.samples) for t in result.times.values())


def test_a_match_length_is_the_hands_per_match_played() -> None:
    result = arena("cacho", 2, "easy", "random", pairs=2, seed=1, hands=3)
    assert result.match_length == 3.0
    assert "3.0 a match" in "\n".join(result.lines())
