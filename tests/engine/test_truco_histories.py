"""Truco hand histories (docs/history.md): every key holds in every mode, and every card is accounted for."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardtui.engine.games import GAMES
from cardtui.engine.truco.argentino.rules import DECK as SPANISH
from cardtui.engine.truco.paulista.rules import DECK as FRENCH
from cardtui.sim import simulate

CASES = [
    ("truco_paulista", 4, {}),
    ("truco_argentino", 2, {}),
    ("truco_argentino", 4, {"flor": True}),
    ("truco_argentino", 6, {}),
    ("truco_argentino", 6, {"flor": True, "envido_scored": "at_once"}),
]


def account_for_every_card(record: dict[str, Any]) -> None:
    """Each card of the deck is dealt and kept, rejected, or undealt; none twice; plays from the deal."""
    deck = {str(c) for c in (FRENCH if record["game"] == "truco_paulista" else SPANISH)}
    deal = {int(s): cards for s, cards in record["deal"].items()}
    held = Counter(c for cards in deal.values() for c in cards)
    rejected = Counter(c for a in record["actions"] if a["type"] == "reject" for c in a["cards"])
    assert all(len(cards) == 3 for cards in deal.values())
    seen = held + rejected
    assert max(seen.values()) == 1, f"a card twice: {[c for c, k in seen.items() if k > 1]}"
    assert set(seen) <= deck
    played: Counter[str] = Counter()
    for a in record["actions"]:
        seat = a["seat"]
        if a["type"] in ("play", "play_down", "play_blind"):
            (card,) = a["cards"]
            assert card in deal[seat], f"seat {seat} played {card}, not in its deal"
            played[card] += 1
        elif a["type"] == "pass_cards":
            assert a["cards"] == deal[(seat + 2) % 4]  # listed under the partner who plays them
            assert not set(a["cards"]) & set(deal[seat])
        elif a["type"] == "mazo":
            assert set(a["discarded"]) <= set(deal[seat]) - set(played)
    assert not played or max(played.values()) == 1


def design_keys_hold(record: dict[str, Any]) -> None:
    n = len(record["seats"])
    assert record["format"] == "cardtui-hand/1" and record["game"] in ("truco_paulista", "truco_argentino")
    for key in ("options", "table", "hand", "seed", "dealer", "start", "deal", "actions", "result"):
        assert key in record
    assert [s["seat"] for s in record["seats"]] == list(range(n)) and all(s["team"] == s["seat"] % 2
                                                                           for s in record["seats"])
    assert set(record["start"]) == set(record["deal"]) == {str(s) for s in range(n)}
    assert [a["seq"] for a in record["actions"]] == list(range(1, len(record["actions"]) + 1))
    result = record["result"]
    assert set(result["deltas"]) == {str(s) for s in range(n)} and set(result["points"]) == {"0", "1"}
    tricks = result["tricks"]
    assert isinstance(tricks, list)
    for trick in tricks:
        assert set(trick["cards"]) <= {str(s) for s in range(n)}
        assert trick["winner"] is None or str(trick["winner"]) in trick["cards"]
    if "envido" in result:
        assert isinstance(result["envido"]["scores"], dict) and "winner" in result["envido"]
        assert all(int(s) in range(n) and isinstance(v, int) for s, v in result["envido"]["scores"].items())
    if record["game"] == "truco_argentino":
        rounds = result["rounds"]
        ended = rounds[-1]["truco"]["reason"] == "envido"  # scored at once, the envido won the match
        assert len(rounds) == (3 if record["pica_pica"] else 1) or ended
        for r in rounds:
            assert set(r) >= {"round", "seats", "mano", "tricks", "truco", "points"}
        if record["pica_pica"]:
            assert tricks == []  # the duels' tricks are each in its round, never run together
            played = [r for r in rounds if r.get("envido", {}).get("scores")]
            if played:
                assert "envido" in result and set(result["envido"]["scores"]) == {
                    s for r in played for s in r["envido"]["scores"]
                }
        else:
            assert tricks == rounds[0]["tricks"]
        assert {s: sum(r["points"][s] for r in rounds) for s in ("0", "1")} == result["points"]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_deal_and_actions_account_for_every_card(game: str, players: int, options: dict[str, Any]) -> None:
    modes: Counter[str] = Counter()

    def check(record: dict[str, Any]) -> None:
        account_for_every_card(record)
        design_keys_hold(record)
        modes["pica" if record.get("pica_pica") else "round"] += 1
        if any(a["type"] == "reject" for a in record["actions"]):
            modes["reject"] += 1
        if any(a["type"] == "pass_cards" for a in record["actions"]):
            modes["pass"] += 1

    report = simulate(game, players, 500, seed=players, options=options, on_hand=check)
    assert report.hands == 500
    if players == 6:
        assert modes["pica"] > 100  # pica-pica deals came up, and held
    if game == "truco_paulista":
        assert modes["reject"] and modes["pass"]


def test_a_pica_pica_history_keeps_each_duel_with_its_envido() -> None:
    rules = GAMES["truco_argentino"]
    seats = rules.seat_infos([f"p{i}" for i in range(6)])
    match, _ = rules.open({}, seats, 3)
    from cardtui.engine.core import Action

    for seat in (1, 3, 5):
        match.apply(seat, Action("mazo"))
    match.next_hand(4)  # the 1v1s
    match.apply(1, Action("envido"))  # duel 1: seat 1 against seat 4
    match.apply(4, Action("quiero"))
    for _ in range(2):
        seat = match.to_act()[0]
        (announce,) = [a for a in match.legal_actions(seat) if a.type in ("announce", "son_buenas")]
        match.apply(seat, announce)
    match.apply(1, Action("mazo"))
    match.apply(2, Action("mazo"))
    match.apply(3, Action("mazo"))
    record = match.history()
    assert record is not None and record["pica_pica"]
    result = record["result"]
    assert result["tricks"] == [] and [r["seats"] for r in result["rounds"]] == [[1, 4], [2, 5], [3, 0]]
    assert "envido" in result["rounds"][0] and "envido" not in result["rounds"][1]
    assert set(result["envido"]["scores"]) <= {"1", "4"} and result["envido"]["winner"] in (1, 4)
    assert result["envido"]["winners"] == [result["rounds"][0]["envido"]["winner"]]
    design_keys_hold(record)
    assert rules.replay_match(record).history() == record
