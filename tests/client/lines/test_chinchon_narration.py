"""Chinchón at the terse level, one kind of event at a time (``tests/client/lines/test_narration.py`` says what the
terse level does at every game): a round's line, a close and its count, a player past the target, a void hand."""

from __future__ import annotations

from cardtui.client.lines import loop  # noqa: F401  (every game's words)
from cardtui.client.lines.narration import Level, Narrator
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.models import TableModel
from cardtui.client.words import event_words
from cardtui.i18n import speaking
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2
from tests.client.lines.test_narration import model, rummy, told


def chinchon_model(seat: int = 0) -> TableModel:
    """A Chinchón table (its count's scoring) after a close by dan: his seven all melded; the points before it
    against a target of 100."""
    m = model("chinchon", seat)
    view = m.view
    assert view is not None
    view.rummy.table.scoring = rummy_pb2.RUMMY_SCORING_DEADWOOD
    view.rummy.table.target = 100
    view.rummy.seats.extend([rummy_pb2.RummySeat(seat=n, score=p, status=rummy_pb2.RUMMY_SEAT_STATUS_IN)
                             for n, p in enumerate([30, 0, 44, 5])])
    return m


def test_chinchons_round_line_says_the_cards_taken_and_the_piles_top_alone() -> None:
    """At Chinchón a discard the next seat covers changes no choice of the player's: the line says each card taken
    from the pile (who took which, for what, the card given said where it is still in play) and, at the player's
    turn, the pile's top; Pif Paf's line keeps each discard still in play."""
    rounds = [(1, "", "2C"), (2, "", "3C"), (3, "3C", "4C")]
    said = {}
    for m in (chinchon_model(), model()):
        terse = Narrator(Level.TERSE)
        for seat, took, card in rounds:
            if took:
                told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=seat, source=common_pb2.DRAW_SOURCE_PILE,
                                                              card=took)))
            told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card)))
        said[m.game] = terse.turn_begins(m)
    assert said == {"chinchon": ["dan takes 3 clubs for 4 clubs."],
                    "pifpaf": ["caio, 3 clubs; dan takes it for 4 clubs."]}, said
    m = chinchon_model()
    terse = Narrator(Level.TERSE)
    for seat, took, card in ((1, "", "2C"), (2, "2C", "3C"), (3, "", "4C")):
        if took:
            told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=seat, source=common_pb2.DRAW_SOURCE_PILE, card=took)))
        told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card)))
    assert terse.turn_begins(m) == ["caio takes 2 clubs; pile: 4 clubs."], "caio's 3 covered by dan: unsaid"
    for seat, took, card in ((1, "", "5C"), (2, "5C", "6C"), (3, "6C", "7C"), (1, "", "8C")):
        if took:
            told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=seat, source=common_pb2.DRAW_SOURCE_PILE, card=took)))
        said_now = told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card)))
    assert said_now == ["caio takes 5 clubs for 6 clubs; dan takes it."], \
        "a round said as bia comes round again: dan's discard, which she drew over, unsaid"
    assert terse.turn_begins(m) == ["Pile: 8 clubs."]
    for seat, took, card in ((0, "", "9C"), (1, "9C", "1C"), (2, "", "2C"), (3, "", "3C")):
        if took:
            told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=seat, source=common_pb2.DRAW_SOURCE_PILE, card=took)))
        told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card)))
    assert terse.turn_begins(m) == ["Yours taken; pile: 3 clubs."], "only the next seat takes the player's discard"


def chinchon_counted(model: TableModel, chinchon: bool = False) -> TableModel:
    """The view after dan's close is counted: minus ten for him, the others' cards outside melds for them."""
    view = table_pb2.View()
    view.CopyFrom(model.view)
    result = view.rummy.result
    result.chinchon = chinchon
    result.counts.extend([rummy_pb2.RummyCount(seat=3, points=-10),
                          rummy_pb2.RummyCount(seat=0, loose=["5c", "12b"], points=17),
                          rummy_pb2.RummyCount(seat=1, loose=["1o"], points=1),
                          rummy_pb2.RummyCount(seat=2, loose=["4e"], points=4)])
    for s, d in zip(view.rummy.seats, (17, 1, 4, -10), strict=True):
        s.score += d
    return TableModel(model.summary, model.seat).with_view(view, 2)


def test_a_chinchon_close_is_said_and_its_count_with_the_points_left() -> None:
    """A Chinchón hand ends in a close and a count, not a knock: the close with the card laid face down; the count
    with the result, once the view after it holds the points (what the closer's cards outside melds add, minus ten
    with all seven melded, and the player's), then every seat's points, the player's first (what they may still
    take before the target puts them out once it is near); a chinchón said as such. In every language, with no two
    numbers in a row."""
    m = chinchon_model()
    close = rummy(knocked=rummy_pb2.RummyKnocked(seat=3, melds=[rummy_pb2.RummyMeld(cards=["1c", "2c", "3c"])],
                                                 discard="7e"))
    terse = Narrator(Level.TERSE)
    assert told(terse, m, close) == ["dan closes."], "the card face down changes nothing now: in last"
    assert "7 of swords" in told(Narrator(Level.VERBOSE), m, close)[0], "verbose: the log's words"
    counted = rummy(chinchon_counted=rummy_pb2.ChinchonCounted(counts=[rummy_pb2.RummyCount(seat=3, points=-10)]))
    assert told(terse, m, counted) == [], "said with the hand's result"
    ended = table_pb2.Event(seq=5, hand_ended=table_pb2.HandEnded(winner=3, deltas=[17, 1, 4, -10]))
    after = chinchon_counted(m)
    assert told(terse, after, ended) == []
    assert terse.after_view(after) == ["dan minus ten; you 47, bia 1, caio 48, dan -5."], \
        "the closer's minus ten: the player's count and the others' are in their totals"
    verbose = Narrator(Level.VERBOSE)
    told(verbose, after, ended)
    assert verbose.after_view(after)[-1].startswith("dan minus ten, you +17; you 47"), "verbose: the player's count"
    mine = chinchon_counted(chinchon_model(seat=3), chinchon=True)
    terse = Narrator(Level.TERSE)  # dan's own table: every total heard for the first time
    told(terse, mine, ended)
    assert terse.after_view(mine) == ["Chinchón! you minus ten; you -5, ana 47, bia 1, caio 48."]
    assert told(Narrator(Level.TERSE), chinchon_model(seat=3), close) == ["You close."]
    loose = chinchon_counted(m)
    assert loose.view is not None
    loose.view.rummy.result.counts[0].CopyFrom(rummy_pb2.RummyCount(seat=3, loose=["2o"], points=2))
    terse = Narrator(Level.TERSE)
    told(terse, loose, ended)
    assert terse.after_view(loose) == ["You 47, bia 1, caio 48, dan -5."], \
        "a close with a loose card, just heard: every count is in the totals"
    stay = table_pb2.Event(seq=6, acted=table_pb2.Acted(seat=2, action=common_pb2.Action(
        type=common_pb2.ACTION_TYPE_PASS)))
    assert told(Narrator(Level.TERSE), after, stay) == ["caio stays out."], "past the target: not a claim let go"
    mine, theirs = (rummy(chinchon_eliminated=rummy_pb2.ChinchonEliminated(seat=s, points=104)) for s in (0, 2))
    assert told(Narrator(Level.TERSE), after, mine) == [], "the player's own: the result says it (you 104, out)"
    assert told(Narrator(Level.TERSE), after, theirs) == [], "another's too: the result says it (caio 104, out)"
    assert told(Narrator(Level.VERBOSE), after, mine) == ["You pass the target with 104 points: out of the match."]
    gone = chinchon_counted(m)
    assert gone.view is not None
    gone.view.rummy.seats[2].score = 104
    gone.view.rummy.seats[2].status = rummy_pb2.RUMMY_SEAT_STATUS_OUT
    terse = Narrator(Level.TERSE)
    told(terse, after, counted)
    told(terse, gone, ended)
    assert terse.after_view(gone) == ["dan minus ten; you 47, bia 1, caio 104, out, dan -5."]
    view = table_pb2.View()
    view.CopyFrom(gone.view)
    for n in (0, 1, 3):
        view.rummy.seats[n].score += 3
    later = TableModel(gone.summary, gone.seat).with_view(view, 3)
    told(terse, later, table_pb2.Event(seq=7, hand_ended=table_pb2.HandEnded(winner=3, deltas=[3, 3, 0, 3])))
    assert terse.after_view(later) == ["dan minus ten; you 50, bia 4, dan -2."], "caio's 104 unchanged: said once"
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            narrator = Narrator(Level.TERSE)
            said = told(narrator, m, close) + told(narrator, after, counted) + told(narrator, after, ended)
            said += narrator.after_view(after)
            assert len(said) == 2, said
            assert "bate" not in said[0] and "7" not in said[0], said
            assert "47" in said[1] and "53" not in said[1] and "10" not in said[1], "minus ten in words; far off"
            assert not any(runs_of_numbers(s) for s in said), said


def test_the_log_says_a_chinchon_player_past_the_target_stays_out_not_that_it_lets_a_claim_go() -> None:
    """A pass at Chinchón is a player past the target not coming back in; at Pif Paf, a claim window let go. The
    board's log words each as it is, in every language."""
    stay = table_pb2.Event(seq=6, acted=table_pb2.Acted(seat=2, action=common_pb2.Action(
        type=common_pb2.ACTION_TYPE_PASS)))
    chinchon, pifpaf = chinchon_model(), model("pifpaf")
    for lang, out, go in (("en", "caio stays out.", "caio lets it go."), ("es", "caio se queda fuera.", None),
                          ("pt_BR", "caio fica fora.", None)):
        with speaking(lang):
            said, let_go = event_words(chinchon, stay), event_words(pifpaf, stay)
            assert said is not None and let_go is not None
            assert said.text.plain == out, (lang, said.text.plain)
            assert let_go.text.plain != said.text.plain and (go is None or let_go.text.plain == go), lang
    mine = event_words(chinchon_model(seat=2), stay)
    assert mine is not None and mine.text.plain == "You stay out."


def test_a_void_chinchon_hand_is_said_void_with_the_points_as_they_stand() -> None:
    """A Chinchón hand nobody closed before the rebuilt stock ran out scores nothing: its result says it is void
    and why (terse: nobody closed, the stock's second rebuild just heard), then the points, the player's first
    (with what they may still take once the target is near); in every language, with no two numbers in a row,
    where it was "The hand is over" with no reason."""
    m = chinchon_model()
    void = table_pb2.Event(seq=5, hand_ended=table_pb2.HandEnded(deltas=[0, 0, 0, 0]))
    terse = Narrator(Level.TERSE)
    said = told(terse, m, void) + terse.after_view(m)
    assert said == ["Void hand: nobody closed; you 30, bia 0, caio 44, dan 5."], "far from the target: the total alone"
    view = m.view
    assert view is not None
    view.rummy.seats[0].score = 88
    terse = Narrator(Level.TERSE)
    said = told(terse, m, void) + terse.after_view(m)
    assert said == ["Void hand: nobody closed; you 88, with 12 left, bia 0, caio 44, dan 5."], "near it: what is left"
    verbose = Narrator(Level.VERBOSE)
    assert (told(verbose, m, void) + verbose.after_view(m))[0].startswith(
        "Void hand: the stock ran out twice and nobody closed; "), "verbose: why nobody could"
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            narrator = Narrator(Level.TERSE)
            heard = told(narrator, m, void) + narrator.after_view(m)
            assert len(heard) == 1 and "88" in heard[0] and "12" in heard[0], heard
            assert heard[0].split(":")[0] in ("Mão anulada", "Mano nula"), heard
            assert not any(runs_of_numbers(s) for s in heard), heard


def test_a_chinchon_player_out_for_good_hears_their_points_as_out_not_what_is_left() -> None:
    """Past the target with no reenganche left, the player's points are said with "out", where "with 0 left" told
    them nothing; their own total stays in every result."""
    m = chinchon_model()
    view = m.view
    assert view is not None
    view.rummy.seats[0].score = 105
    view.rummy.seats[0].status = rummy_pb2.RUMMY_SEAT_STATUS_OUT
    void = table_pb2.Event(seq=5, hand_ended=table_pb2.HandEnded(deltas=[0, 0, 0, 0]))
    terse = Narrator(Level.TERSE)
    said = told(terse, m, void) + terse.after_view(m)
    assert said == ["Void hand: nobody closed; you 105, out, bia 0, caio 44, dan 5."], said
    with speaking("es"):
        narrator = Narrator(Level.TERSE)
        heard = told(narrator, m, void) + narrator.after_view(m)
        assert "tú 105, fuera" in heard[0], heard


def test_a_chinchon_player_out_for_good_hears_the_results_not_the_others_draws_and_discards() -> None:
    """Out of the match for good, the player decides nothing: the others' draws, discards, the card turned up and a
    rebuilt stock are not said (the closes and the results are), where they took longer than the hands."""
    m = chinchon_model()
    view = m.view
    assert view is not None
    view.rummy.seats[0].score = 105
    view.rummy.seats[0].status = rummy_pb2.RUMMY_SEAT_STATUS_OUT
    terse = Narrator(Level.TERSE)
    quiet = [rummy(drew=rummy_pb2.RummyDrew(seat=1, source=common_pb2.DRAW_SOURCE_STOCK)),
             rummy(discarded=rummy_pb2.RummyDiscarded(seat=1, card="7e")),
             rummy(chinchon_up=rummy_pb2.ChinchonUp(card="4c")),
             rummy(stock_rebuilt=rummy_pb2.RummyStockRebuilt(stock=9))]
    assert [s for e in quiet for s in told(terse, m, e)] == []
    close = rummy(knocked=rummy_pb2.RummyKnocked(seat=3, discard="7o"))
    assert told(terse, m, close) == ["dan closes."]
    started = table_pb2.Event(seq=9, hand_started=table_pb2.HandStarted(hand=5))
    assert told(terse, m, started) == [] and terse.after_view(m) == [], \
        "dealt nothing: the last result said the player is out, and that the hand ended"
    watching = TableModel(m.summary, None).with_view(m.view, 1)  # type: ignore[arg-type]
    spectator = Narrator(Level.TERSE)
    assert told(spectator, watching, started) == [] and spectator.after_view(watching) == ["Hand 5."]
    assert told(Narrator(Level.TERSE), chinchon_model(), quiet[2]) == ["Pile: 4 cups."], \
        "in the match, said"
    assert told(Narrator(Level.TERSE), chinchon_model(), quiet[3]) == ["New stock: 9 cards."], "with its count"
    first = TableModel(common_pb2.TableSummary(id="t", game="chinchon"), 0)  # a table's first hand: no view yet
    assert told(Narrator(Level.TERSE), first, quiet[2]) == ["Pile: 4 cups."], "the game's family, before a view"
    seated = first.with_view(table_pb2.View(hand=1), 1)  # the seats' view, no game in it yet
    assert told(Narrator(Level.TERSE), seated, quiet[2]) == ["Pile: 4 cups."], "and before the game's view"
