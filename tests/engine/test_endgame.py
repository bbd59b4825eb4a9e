"""The exact end game (``engine.truco.endgame``) and the analysis's own players (``engine.truco.judge``), on the
positions of issue 87, rigged: a move the cards prove right is never flagged, and one they prove wrong is flagged
exactly.

- A raise called best in a lost hand: truco paulista played best of three, tricks 1-1, the other side's A♠ holds
  the last trick and the seat's side has no card left; their truco is to be answered at 8 to 10 (accepting a seis
  gives them the match). Before, the playouts let the other side run from the seis and called running a blunder.
- The same at truco argentino with four: their 2 of espadas above both our cards, their truco to answer.
- A seis holding the zap for the deciding trick (``truco_decides = trick``): a seis can only add to the stake, and
  the playouts once played the zap's holder's later card badly (the ace thrown where the zap takes the trick).
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from cardtui.engine import analysis
from cardtui.engine.analysis import FLAGGED, SERIOUS, Label, Position
from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.seen import seen
from cardtui.engine.truco import endgame
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.bots.search import Searcher
from cardtui.engine.truco.bots.worlds import Knowledge
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState
from cardtui.engine.truco.views import TrucoView


def _play(game: Any, state: object, *moves: tuple[int, str, str]) -> None:
    for seat, kind, cards in moves:
        game.apply(state, seat, Action(kind, cards=parse_cards(cards) if cards else ()))


def _paulista(scores: tuple[int, int], hands: dict[int, str], **options: Any) -> PaulistaState:
    """Seat 0 deals, seat 1 is the mão (seats 1 and 3 are a side)."""
    state, _ = PAU.resume(PAU.options(options), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], list(scores), 0, 1, 1)
    PAU.apply(state, 1, Action("keep"))
    for seat, text in hands.items():
        state.hands[seat] = list(parse_cards(text))
    return state


def lost_paulista() -> tuple[PaulistaState, int]:
    """Hand 17 of ``cardtui sim --game truco_paulista --players 4 --level easy --hands 17 --seed 7006 --options
    '{"truco_decides":"hand"}'``, step 15: tricks 1-1, the table 3♠ (seat 1), A♠ (seat 2), 6♠ (seat 3); seat 0,
    last to play, calls truco at 10 to 8, and seat 1 answers with its side's cards all down."""
    state = _paulista((10, 8), {0: "KC 6D 3H", 1: "3C 6C 3S", 2: "5S KD AS", 3: "4H 6H 6S"}, truco_decides="hand")
    _play(PAU, state, (1, "play", "6C"), (2, "play", "KD"), (3, "play", "4H"), (0, "play", "6D"),
          (2, "play", "5S"), (3, "play", "6H"), (0, "play", "KC"), (1, "play", "3C"),
          (1, "play", "3S"), (2, "play", "AS"), (3, "play", "6S"), (0, "truco", ""))
    return state, 1


def lost_argentino() -> tuple[ArgentinoState, int]:
    """Truco argentino with four (seat 2 deals, seat 3 is the mano): tricks 1-1, the table 11♣ (seat 3), 2 of espadas
    (seat 0), 6♣ (seat 1); seat 2 calls truco, and seat 3 answers with its side's cards all down."""
    state, _ = ARG.resume(ARG.options({}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], [1, 1], 2, 1, 1)
    for seat, text in {3: "4c 1c 11c", 0: "3o 4b 2e", 1: "5b 5o 6c", 2: "6e 6b 10o"}.items():
        state.give(seat, parse_cards(text))
    _play(ARG, state, (3, "play", "4c"), (0, "play", "3o"), (1, "play", "5b"), (2, "play", "6e"),
          (0, "play", "4b"), (1, "play", "5o"), (2, "play", "6b"), (3, "play", "1c"),
          (3, "play", "11c"), (0, "play", "2e"), (1, "play", "6c"), (2, "truco", ""))
    return state, 3


def zap_for_the_deciding_trick() -> tuple[PaulistaState, int]:
    """Truco paulista, ``truco_decides = trick``: seat 3's partner (the mão) led the 7♣, the other side calls truco,
    and seat 3 holds the zap (4♣), which no card takes: accepted, this trick decides the hand, so a seis can only add
    to the stake."""
    state = _paulista((4, 5), {1: "7C 5S 6H", 2: "QD 3S KH", 3: "4C AD 5H", 0: "JH 4D 5C"})
    _play(PAU, state, (1, "play", "7C"), (2, "truco", ""))
    return state, 3


def bluffed() -> PaulistaState:
    """Tricks 1-1 (seat 2 took the first with a 3, seat 1 the second with a 2); in the last, seat 1 led the Q♥ and
    seat 2 played the K♦; seat 3 holds the J♠, which cannot take it, and seat 0 is still to play."""
    state = _paulista((0, 0), {1: "4S 2C QH", 2: "3D 4D KD", 3: "5S 5D JS", 0: "6D 6C 7C"})
    _play(PAU, state, (1, "play", "4S"), (2, "play", "3D"), (3, "play", "5S"), (0, "play", "6D"),
          (2, "play", "4D"), (3, "play", "5D"), (0, "play", "6C"), (1, "play", "2C"),
          (1, "play", "QH"), (2, "play", "KD"))
    return state


def _position(game: Any, state: object, seat: int, chosen: str) -> Position:
    legal = tuple(game.legal_actions(state, seat))
    action = next(a for a in legal if a.type == chosen)
    return Position(1, seat, game.view(state, seat), legal, action)


@pytest.mark.parametrize("make, game, right, wrong", [
    (lost_paulista, PAU, ("run",), ("accept", "seis")),
    (lost_argentino, ARG, ("no_quiero", "mazo"), ("quiero", "retruco")),
], ids=["paulista", "argentino"])
def test_a_lost_hand_facing_a_truco_runs_and_a_raise_is_flagged(make: Any, game: Any, right: tuple[str, ...],
                                                                wrong: tuple[str, ...]) -> None:
    state, seat = make()
    for chosen in right:
        moment = analysis.analyse_position(_position(game, state, seat, chosen), 0)
        assert moment.label in (Label.BEST, Label.GOOD) and moment.best.type in right, (chosen, moment)
        assert moment.loss == 0.0 and all(c.error == 0.0 for c in moment.choices), "solved, not sampled"
    for chosen in wrong:
        moment = analysis.analyse_position(_position(game, state, seat, chosen), 0)
        assert moment.label in SERIOUS and moment.best.type in right, (chosen, moment.label, moment.best)


def test_the_lost_hand_is_solved_on_every_deal_the_seat_could_face() -> None:
    state, seat = lost_paulista()
    view = PAU.view(state, seat)
    assert isinstance(view, TrucoView)
    solution = endgame.solve(view, PAU.legal_actions(state, seat))
    assert solution is not None
    k = Knowledge.of(view)
    assert solution.deals == math.comb(len(k.pool), 1) == 40 - sum(seen(view).values())
    values = solution.exact()
    assert values is not None
    by = {g[0].type: v for g, v in zip(solution.groups, values, strict=True)}
    assert by["run"] > by["accept"] and by["accept"] == by["seis"] == 0.0  # accepted, a seis gives them the match
    assert [a.type for a in solution.right()] == ["run"]


def test_a_seis_holding_the_zap_for_the_deciding_trick_is_never_flagged() -> None:
    state, seat = zap_for_the_deciding_trick()
    for seed in range(3):
        moment = analysis.analyse_position(_position(PAU, state, seat, "seis"), seed)
        assert moment.label not in FLAGGED, (seed, moment.label, moment.choices)
        running = analysis.analyse_position(_position(PAU, state, seat, "run"), seed)
        assert running.label in SERIOUS, (seed, running.label)


def test_the_zaps_holder_plays_it_in_the_deciding_trick() -> None:
    """Once the truco is accepted the trick in play decides: the zap takes it whatever is still to come, the ace does
    not. Played with the zap, the analysis calls the ace a blunder."""
    state, seat = zap_for_the_deciding_trick()
    PAU.apply(state, seat, Action("accept"))
    PAU.apply(state, 2, Action("play", cards=parse_cards("QD")))
    ace = _position(PAU, state, seat, "play")
    ace = Position(1, seat, ace.view, ace.legal, Action("play", cards=parse_cards("AD")))
    moment = analysis.analyse_position(ace, 0)
    assert moment.best == Action("play", cards=parse_cards("4C")) and moment.label in SERIOUS


def test_a_bluff_the_other_side_cannot_see_through_is_not_solved_as_a_sure_loss() -> None:
    """Seat 3's last card cannot take the trick (their K♦ is on the table, above it), but seat 0, still to play, cannot
    see that: it may run from a truco. The end game puts the truco's value between the minimax and what a run gives,
    so no verdict is drawn from it, while playing the card is best on every deal and never flagged."""
    state = bluffed()
    view = PAU.view(state, 3)
    assert isinstance(view, TrucoView) and view.turn == 3
    legal = PAU.legal_actions(state, 3)
    solution = endgame.solve(view, legal)
    assert solution is not None and solution.exact() is None
    truco = next(j for j, g in enumerate(solution.groups) if g[0].type == "truco")
    assert any(hi > lo for lo, hi in solution.ranges[truco]), "the answer is the other side's to guess"
    right = {a.type for a in solution.right()}
    assert "play" in right and "truco" not in right
    moment = analysis.analyse_position(_position(PAU, state, 3, "play"), 0)
    assert moment.label not in FLAGGED


def test_deals_hold_no_card_the_seat_has_seen_and_the_end_game_steps_aside_early() -> None:
    state, seat = lost_paulista()
    view = PAU.view(state, seat)
    assert isinstance(view, TrucoView)
    k = Knowledge.of(view)
    listed = endgame.deals(k)
    assert listed is not None
    hands, count = listed
    shown = seen(view)
    assert count == len(k.pool) and hands
    for hand in hands:
        assert not any(shown[c] for s, cards in hand.items() if s != seat for c in cards)
    # Hard's search weighs every deal of the last trick's unseen cards, card by card, each once (``every_deal``):
    # here seat 0 alone holds a card, so one deal for each card the seat has not seen.
    every = k.every_deal(len(k.pool))
    assert every is not None and len(every) == len(k.pool)
    assert sorted(str(d[0][0]) for d in every) == sorted(str(c) for c in k.pool)
    assert all(d[seat] == list(view.cards) and not any(shown[c] for c in d[0]) for d in every)
    assert k.every_deal(len(k.pool) - 1) is None
    legal = PAU.legal_actions(state, seat)
    search = Searcher(view, legal, random.Random(3), 240, exact=True)
    _, weights = search.play_outs([None], k)
    assert len(weights) == len(k.pool) * round(240 / len(k.pool))
    fresh = _paulista((0, 0), {1: "KS 5C 3H", 2: "2D 6C 4S", 3: "QS 5S 7S", 0: "4H 6D 5H"})
    first = PAU.view(fresh, 2)
    assert isinstance(first, TrucoView) and not endgame.within(first)
    assert endgame.solve(first, PAU.legal_actions(fresh, 2)) is None
    assert Knowledge.of(first).every_deal(100_000) is None  # the first trick: a sample, as before


def tie_to_make() -> PaulistaState:
    """Tricks 1-1, the first taken by seat 0's side: in the last, seat 1 led the K♥ and seat 0, last to play, holds
    the K♠, whose tie goes to the side that took the first trick; face down, it gives the hand away."""
    state = _paulista((3, 3), {1: "4S 2C KH", 2: "3D 4D 5H", 3: "5S 5D 6C", 0: "6D 6H KS"}, truco_decides="hand")
    _play(PAU, state, (1, "play", "4S"), (2, "play", "3D"), (3, "play", "5S"), (0, "play", "6D"),
          (2, "play", "4D"), (3, "play", "5D"), (0, "play", "6H"), (1, "play", "2C"),
          (1, "play", "KH"), (2, "play", "5H"), (3, "play", "6C"))
    return state


def test_the_decided_suite_tells_each_family_by_the_rules_and_the_analysis_agrees() -> None:
    """``bench.analysis_decided`` finds its positions by the rules alone: each rigged position here is put in its
    family with its right and wrong moves, and the analysis never flags a right one and flags every wrong one."""
    from bench.analysis_decided import LOST, TIES, WON, Decided, Tally, decide, judge

    lost, lost_seat = lost_paulista()
    zap, zap_seat = zap_for_the_deciding_trick()
    tie = tie_to_make()
    cases = [(PAU, lost, lost_seat, LOST, {"run"}, {"accept", "seis"}),
             (PAU, zap, zap_seat, WON, {"seis"}, {"run"}),
             (PAU, tie, 0, TIES["paulista"], {"play"}, {"play_down"})]
    tally = Tally()
    for game, state, seat, family, right, wrong in cases:
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        said = decide(view, legal)
        assert said is not None and said[0] == family, (family, said)
        assert {a.type for a in said[1]} == right and {a.type for a in said[2]} == wrong, said
        judge(Decided(family, view, tuple(legal), seat, said[1], said[2], family), tally)
    assert sum(tally.right_flagged.values()) == 0, tally.misses
    assert tally.wrong_flagged == tally.wrongs, tally.misses
    assert decide(PAU.view(bluffed(), 3), PAU.legal_actions(bluffed(), 3)) is None  # its card's fate is not sure


def test_the_decided_suite_counts_a_position_once_and_only_where_the_end_game_bears_it_out() -> None:
    """A position counts where the exact end game finds its right move best and its wrong moves below it on every
    deal; read the other way round (accepting called right in a lost hand), it is left out as disputed. A second
    position of a family from one hand, or one alike but for the suits, is left out as a twin."""
    from bench.analysis_decided import LOST, Decided, Tally, confirmed, decide, likeness

    state, seat = lost_paulista()
    view, legal = PAU.view(state, seat), PAU.legal_actions(state, seat)
    said = decide(view, legal)
    assert said is not None and said[0] == LOST
    d = Decided(LOST, view, tuple(legal), seat, said[1], said[2], "rigged", "hand 1")
    assert confirmed(d) is None
    backwards = Decided(LOST, view, tuple(legal), seat, said[2], said[1], "rigged", "hand 2")
    assert confirmed(backwards) is not None
    tally = Tally()
    assert not tally.admit(backwards) and len(tally.disputed) == 1
    assert tally.admit(d) and not tally.admit(Decided(LOST, view, tuple(legal), seat, said[1], said[2], "x", "hand 1"))
    suits = _paulista((10, 8), {0: "KC 6D 3H", 1: "3C 6C 3D", 2: "5S KD AS", 3: "4H 6H 6S"}, truco_decides="hand")
    _play(PAU, suits, (1, "play", "6C"), (2, "play", "KD"), (3, "play", "4H"), (0, "play", "6D"),
          (2, "play", "5S"), (3, "play", "6H"), (0, "play", "KC"), (1, "play", "3C"),
          (1, "play", "3D"), (2, "play", "AS"), (3, "play", "6S"), (0, "truco", ""))
    view = PAU.view(suits, seat)
    other = Decided(LOST, view, tuple(PAU.legal_actions(suits, seat)), seat, said[1], said[2], "rigged", "hand 3")
    assert likeness(other) == likeness(d) and not tally.admit(other) and tally.twins[LOST] == 2


def _model(game: Any, state: Any, seat: int) -> Any:
    """The model round the analysis's players play out from ``seat``'s view, on the deal as it is."""
    k = Knowledge.of(game.view(state, seat))
    return k.sim({s: list(cards) for s, cards in enumerate(state.hands) if s in k.players})


def test_the_analysiss_players_never_run_from_a_raise_on_a_trick_their_side_holds() -> None:
    """Seat 0's side holds the last trick (the A♠ above both of the other side's cards, theirs all down): raised to
    seis, it never runs, whatever it holds."""
    import random

    from cardtui.engine.truco.bots.sim import REFUSE
    from cardtui.engine.truco.judge import Player

    state, _ = lost_paulista()
    PAU.apply(state, 1, Action("seis"))
    sim = _model(PAU, state, 0)
    player = Player(True, random.Random(0))
    assert sim.pending == 1 and player.decide(sim, sim.actor())[0] != REFUSE


def test_the_analysiss_players_play_the_card_that_surely_takes_a_deciding_trick() -> None:
    import random

    from cardtui.engine.truco.bots.sim import PLAY
    from cardtui.engine.truco.bots.worlds import Knowledge as K
    from cardtui.engine.truco.judge import Player

    state, seat = zap_for_the_deciding_trick()
    PAU.apply(state, seat, Action("accept"))
    PAU.apply(state, 2, Action("play", cards=parse_cards("QD")))
    sim = _model(PAU, state, seat)
    assert Player(True, random.Random(0)).decide(sim, seat) == (PLAY, K.rank_of(True)[parse_cards("4C")[0]])


def test_the_analysiss_players_answer_an_envido_as_the_hands_say() -> None:
    """An envido answered by who holds the better: accepted (or raised) by a side whose envido beats the caller's,
    refused by one whose envido does not (the bots' plain policy refuses 24 most of the time and accepts 28)."""
    import random

    from cardtui.engine.truco.bots.sim import E_ACCEPT, E_REFUSE, ENVIDO
    from cardtui.engine.truco.judge import Player

    for mine, theirs, wins in (("1e 3e 10b", "1o 10o 4b", True), ("5e 3e 10b", "7o 4o 12c", False)):  # 24/21, 28/31
        state, _ = ARG.resume(ARG.options({}), [SeatInfo(i, f"p{i}", i) for i in range(2)], [0, 0], 0, 1, 1)
        state.give(0, parse_cards(mine))
        state.give(1, parse_cards(theirs))
        ARG.apply(state, 1, Action("envido"))
        sim = _model(ARG, state, 0)
        answer = Player(False, random.Random(0)).decide(sim, 0)
        assert (answer[0] in (E_ACCEPT, ENVIDO)) == wins and (answer[0] == E_REFUSE) == (not wins), (mine, answer)


def test_the_decided_suite_at_the_other_games() -> None:
    """At Cacho, Pif Paf and Cacheta the suite finds what the rules decide in played hands: three sixes dealt in the
    last round (folding them is wrong, and the analysis says so), a knock or a claim that goes out, and a knock that
    takes every other player out of a match of one point each (right: never flagged)."""
    from bench.analysis_decided import ENDS, NUTS, OTHER_SETS, OUT, Tally, found_other, judge

    tally = Tally()
    for family in (NUTS, OUT, ENDS):
        sets = tuple(s for s in OTHER_SETS if s[3] == family)[:1]
        d = next(found_other(seed=3, sets=sets, wanted=lambda family=family: frozenset({family})))
        assert d.family == family
        assert all(c.rank == 6 for c in d.view.seats[d.seat].cards) if family == NUTS else d.right, d
        assert {a.type for a in d.wrong} == ({"fold"} if family == NUTS else set())
        judge(d, tally)
    assert sum(tally.right_flagged.values()) == 0, tally.misses
    assert tally.wrong_flagged == tally.wrongs and tally.wrongs[NUTS] == 1, tally.misses


def test_an_answer_after_the_seats_card_says_nothing_of_its_best_card_played_now() -> None:
    """The mão led the 7♣ and the other side called truco: the mão's best card cannot go to this trick, so its answer's
    reason says nothing of what that card would do to it; its partner, still to play, is told."""
    from cardtui.engine import advice

    state = _paulista((4, 5), {1: "7C 5S 6H", 2: "QD 3S KH", 3: "4C AD 5H", 0: "JH 4D 5C"})
    _play(PAU, state, (1, "play", "7C"), (2, "truco", ""))
    for seat, told in ((1, False), (3, True)):
        view, legal = PAU.view(state, seat), PAU.legal_actions(state, seat)
        why = advice.reason(view, legal, Action("run"), Action("accept"))
        assert isinstance(why, advice.TrucoReason) and why.card is not None
        assert (why.card_does is not None) == told, (seat, why)


def test_a_card_nothing_still_to_come_can_beat_is_told_from_one_that_takes_the_trick_as_it_stands() -> None:
    """Seat 3, with the other side's seat 0 still to play: the A♦ takes the trick as it stands, the zap takes it
    whatever seat 0 plays. The reason of the ace played says both, so the player sees why the zap was better."""
    from cardtui.engine import advice

    state, seat = zap_for_the_deciding_trick()
    PAU.apply(state, seat, Action("accept"))
    PAU.apply(state, 2, Action("play", cards=parse_cards("QD")))
    view, legal = PAU.view(state, seat), PAU.legal_actions(state, seat)
    ace, zap = (Action("play", cards=parse_cards(c)) for c in ("AD", "4C"))
    why = advice.reason(view, legal, ace, zap)
    assert isinstance(why, advice.TrucoReason)
    assert why.card_does is advice.Outcome.TAKES and why.best_does is advice.Outcome.SURE, why
    PAU.apply(state, seat, zap)
    last = PAU.view(state, 0)
    why = advice.reason(last, PAU.legal_actions(state, 0), Action("play", cards=parse_cards("JH")),
                        Action("play", cards=parse_cards("5C")))
    assert isinstance(why, advice.TrucoReason) and why.card_does is advice.Outcome.LOSES, why
