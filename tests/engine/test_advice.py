"""Why a decision was flagged (``engine.advice``): each kind of reason from a rigged position, its numbers what
the seat could see, the same however the cards it could not see were dealt, and kept with the analysis."""

from __future__ import annotations

import dataclasses

from bench.analysis_rigs import ARG, RIGS, _argentino, _at, _rummy
from cardtui.engine import advice, analysis
from cardtui.engine.advice import (
    BetReason,
    DiscardReason,
    DrawReason,
    EnvidoReason,
    KnockReason,
    Outcome,
    Side,
    TrucoReason,
)
from cardtui.engine.analysis import FLAGGED
from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, GameView
from cardtui.engine.rummy import advice as rummy_advice
from cardtui.engine.rummy.records import DISCARD, KNOCK, Phase, RummyView
from cardtui.engine.truco import advice as truco_advice


def rig(game: str, start: str) -> tuple[GameView, list[Action], Action, Action]:
    found = next(r for r in RIGS if r.game == game and r.name.startswith(start))
    view, legal, _ = found.make()
    return view, legal, found.wrong, found.right


def test_an_envido_call_says_the_seats_envido_and_how_often_it_beats_a_hand_it_had_not_seen() -> None:
    """ana holds 2 points of envido (no two of a suit) and calls real envido: it beats hardly any hand."""
    view, legal, _ = _at(ARG, _argentino(10, 12, 1, "2c 10b 11o", "7e 6e 1b"), 0)
    why = advice.reason(view, legal, Action("real_envido"), Action("play", cards=parse_cards("2c")))
    assert isinstance(why, EnvidoReason)
    assert why.envido == 2 and why.beats < 0.05 and why.call == "" and why.beats_caller == -1.0
    assert (why.mine, why.theirs, why.target) == (10, 12, 30)
    # What ana could not see (bia's cards) changes nothing of it.
    other, legal, _ = _at(ARG, _argentino(10, 12, 1, "2c 10b 11o", "4c 5o 6b"), 0)
    assert advice.reason(other, legal, Action("real_envido"), Action("play", cards=parse_cards("2c"))) == why


def test_an_envido_answer_weighs_the_seats_envido_against_what_a_caller_usually_holds() -> None:
    state = _argentino(10, 12, 1, "2c 10b 11o", "7e 6e 1b")
    ARG.apply(state, 0, Action("envido"))
    view, legal, _ = _at(ARG, state, 1)
    why = advice.reason(view, legal, Action("no_quiero"), Action("quiero"))
    assert isinstance(why, EnvidoReason)
    assert why.envido == 33 and why.call == "envido" and why.caller == truco_advice.CALLER_HOLDS["envido"] == 27
    assert 0.9 < why.beats_caller < why.beats <= 1.0
    assert (why.mine, why.theirs) == (12, 10)


def test_a_truco_decision_weighs_the_seats_cards_against_those_still_unseen_and_the_tricks() -> None:
    view, legal, wrong, right = rig("truco_argentino", "argentino 20–29, facing a truco")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, TrucoReason)
    # The 1e and the 1b: nothing unseen beats either.
    assert (why.first, why.second, why.won, why.lost) == (1.0, 1.0, 0, 0)
    # Nothing on the table yet: its best card, the 1e, would lead trick 1 and take it whatever comes (nothing beats
    # it), a trick that decides nothing alone.
    assert (why.trick, why.table, why.high, why.card, why.card_does) == (1, (), None, parse_cards("1e")[0],
                                                                          Outcome.SURE)
    assert why.tie_goes is Side.NEITHER and not why.decides
    view, legal, wrong, right = rig("truco_argentino", "argentino 29–29, first trick taken")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, TrucoReason) and why.first == 1.0 and (why.won, why.lost) == (1, 0)
    # A mão de onze is played on both hands: the partner's zap counts.
    view, legal, wrong, right = rig("truco_paulista", "paulista 11–5")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, TrucoReason) and why.first == 1.0 and why.second == 1.0


def test_a_draw_says_what_the_piles_card_does_and_how_many_live_cards_the_stock_may_give() -> None:
    view, legal, wrong, right = rig("pifpaf", "pif paf, the pile's card")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, DrawReason) and why.card == parse_cards("KH")[0]
    assert why.goes_out and not why.all_ten and why.loose == 3 and why.taking == 0
    assert isinstance(view, RummyView)
    assert why.unseen == 104 - len(view.cards) - len(view.pile) and 0 < why.outs < why.unseen
    view, legal, wrong, right = rig("cacheta", "cacheta, nine melded")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, DrawReason) and why.goes_out and why.all_ten
    assert why.unseen == 104 - 9 - 2 - 1  # her nine, the pile's two, the card turned


def test_live_cards_leave_out_every_copy_the_seat_saw() -> None:
    view = _rummy("pifpaf", cards=parse_cards("4H 5H 6H 7C 7D 7S KC KD 2S"), pile=parse_cards("KH 3C"))
    left = rummy_advice.live(view)
    assert left[parse_cards("KH")[0]] == 1 and left[parse_cards("KS")[0]] == 2 and left[parse_cards("4H")[0]] == 1
    other = next(s.seat for s in view.seats if s.seat != view.you)

    def took(seat: int, taken: str, known: str) -> RummyView:
        return dataclasses.replace(view, seats=tuple(
            dataclasses.replace(s, taken=parse_cards(taken), known=parse_cards(known)) if s.seat == seat else s
            for s in view.seats))

    # Another seat took a KS from the pile and holds it: one copy seen.
    assert rummy_advice.live(took(other, "KS", "KS"))[parse_cards("KS")[0]] == 1
    # It took the 3C and threw it back: the 3C on the pile is the one copy seen, not two.
    assert rummy_advice.live(took(other, "3C", ""))[parse_cards("3C")[0]] == 1
    # The seat's own taken card is in its hand: counted once.
    assert rummy_advice.live(took(view.you or 0, "KC", "KC"))[parse_cards("KC")[0]] == 1


def test_a_discard_names_the_cards_left_loose_and_the_live_cards_to_help_them_beside_the_best() -> None:
    """Throwing a king of a pair (the 2♠ was the one to go): as many cards loose, fewer live cards to help."""
    view = _rummy("pifpaf", cards=parse_cards("4H 5H 6H 7C 7D 7S KC KD 2S 9C"), pile=parse_cards("3C"))
    view = dataclasses.replace(view, phase=Phase.DISCARD)
    legal = [Action(DISCARD, cards=(c,)) for c in view.cards]
    throw, best = Action(DISCARD, cards=parse_cards("KC")), Action(DISCARD, cards=parse_cards("2S"))
    why = advice.reason(view, legal, throw, best)
    assert isinstance(why, DiscardReason) and why.chosen == parse_cards("KC")[0] and why.best == parse_cards("2S")[0]
    assert why.chosen_loose == why.best_loose == 3 and why.chosen_outs < why.best_outs


def test_a_knock_says_how_many_cards_it_melds_and_what_playing_on_could_bring() -> None:
    view = _rummy("pifpaf", cards=parse_cards("4H 5H 6H 7C 7D 7S KC KD KS 2S"), pile=parse_cards("3C"))
    view = dataclasses.replace(view, phase=Phase.DISCARD)
    knock = Action(KNOCK, cards=parse_cards("2S"))
    legal = [knock, *(Action(DISCARD, cards=(c,)) for c in view.cards)]
    why = advice.reason(view, legal, Action(DISCARD, cards=parse_cards("2S")), knock)
    assert isinstance(why, KnockReason) and why.melded == 9 and why.stock == view.stock_count
    assert why.unseen == 104 - 10 - 1 and why.outs >= 0


def test_a_bet_weighs_the_pot_odds_against_the_hands_chance() -> None:
    view, legal, wrong, right = rig("cacho", "cacho heads-up")
    why = advice.reason(view, legal, wrong, right)
    assert isinstance(why, BetReason) and why.opponents == 1 and why.call == 17
    assert abs(why.needed - why.call / (why.pot + why.call)) < 1e-9 and 0.0 <= why.chance < why.needed


def test_a_flagged_decision_carries_its_reason_and_keeps_it_as_json() -> None:
    found = next(r for r in RIGS if r.game == "cacho")
    wrong = analysis.analyse_position(found.position(found.wrong), 0, 3.0)
    right = analysis.analyse_position(found.position(found.right), 0, 3.0)
    assert wrong.label in FLAGGED and isinstance(wrong.reason, BetReason)
    assert right.label not in FLAGGED and right.reason is None
    for r in RIGS:
        view, legal, _ = r.make()
        why = advice.reason(view, legal, r.wrong, r.right)
        assert why is not None and advice.from_json(advice.to_json(why)) == why, r.name
    assert advice.from_json(None) is None and advice.from_json({"kind": "later"}) is None
