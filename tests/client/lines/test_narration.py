"""The terse level says less, and nothing that matters less: on a real server, a Pif Paf hand heard at each level
by two players at once (one terse, one verbose, the same table and the same events); and what the terse level
does to each kind of event, one at a time.

The by-ear tests (``test_by_ear``) play every game through at the terse level, the usual one.
"""

from __future__ import annotations

import re

import pytest

from cardtui.client.fairness import Standing, Verdict
from cardtui.client.lines import loop  # noqa: F401  (every game's words)
from cardtui.client.lines.loop import LineRoom, Seat, Start
from cardtui.client.lines.narration import SHORT_STANDINGS, Level, Narrator, verdict_said
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.models import TableModel
from cardtui.client.words import event_words
from cardtui.i18n import speaking
from cardtui.server.app import Running
from cardtui.v1 import cacho_pb2, common_pb2, rummy_pb2, table_pb2, truco_pb2
from tests.client.lines.listener import Heard, Listener
from tests.client.rummy_rig import fair_cut_hand

FAIR_CUT = 100287
"""Hand 1's server seed at a Cacheta table of four where two people (seats 0 and 1) cut and two bots play
(``rummy_rig.cut_at_once`` holds for it; ``cut_at_once_seed`` finds it)."""

NAMES = ["ana", "bia", "caio", "dan"]


def model(game: str = "pifpaf", seat: int = 0) -> TableModel:
    summary = common_pb2.TableSummary(id="t", game=game, seats=[
        common_pb2.SeatSummary(seat=n, name=name, taken=True) for n, name in enumerate(NAMES)])
    view = table_pb2.View(hand=1, seats=summary.seats)
    (view.rummy if game in ("pifpaf", "cacheta") else view.truco).SetInParent()
    return TableModel(summary, seat).with_view(view, 1)


def told(narrator: Narrator, m: TableModel, event: table_pb2.Event) -> list[str]:
    said = event_words(m, event)
    return narrator.event(m, event, said.text.plain if said is not None else "")


def rummy(**body: object) -> table_pb2.Event:
    return table_pb2.Event(seq=1, rummy=rummy_pb2.RummyEvent(**body))  # type: ignore[arg-type]


def test_the_others_draws_and_discards_are_one_line_said_at_the_players_turn() -> None:
    m = model()
    terse, verbose = Narrator(Level.TERSE), Narrator(Level.VERBOSE)
    events = [
        rummy(drew=rummy_pb2.RummyDrew(seat=1, source=common_pb2.DRAW_SOURCE_STOCK)),
        rummy(discarded=rummy_pb2.RummyDiscarded(seat=1, card="9C")),
        rummy(drew=rummy_pb2.RummyDrew(seat=2, source=common_pb2.DRAW_SOURCE_PILE, card="9C")),
        rummy(discarded=rummy_pb2.RummyDiscarded(seat=2, card="QD")),
        rummy(drew=rummy_pb2.RummyDrew(seat=3, source=common_pb2.DRAW_SOURCE_STOCK)),
        rummy(discarded=rummy_pb2.RummyDiscarded(seat=3, card="7C")),
    ]
    assert all(told(terse, m, e) == [] for e in events), "nothing said while the round goes on"
    assert sum(len(told(verbose, m, e)) for e in events) == 6, "verbose: each draw and discard"
    line = terse.turn_begins(m)
    assert line == ["bia, 9 clubs; caio takes it; dan, 7 clubs."], (
        "cards named short; caio's discard, which dan drew over from the stock, out of play and unsaid")
    assert terse.turn_begins(m) == [], "said once"
    # The player's own discard, taken by the next seat: "yours", not the card named again.
    terse.acted = True
    assert told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=0, card="5H"))) == []
    told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=1, source=common_pb2.DRAW_SOURCE_PILE, card="5H")))
    told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=1, card="2S")))
    assert terse.turn_begins(m) == ["bia takes yours for 2 spades."]


def test_a_round_without_the_players_turn_is_said_when_a_seat_comes_round_again() -> None:
    m = model()
    terse = Narrator(Level.TERSE)
    for seat, card in ((1, "2C"), (2, "3C"), (3, "4C")):
        assert told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card))) == []
    again = told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=1, card="5C")))
    assert again == ["dan, 4 clubs."], "each discard drawn over from the stock is out of play: the pile's top alone"


def test_a_discard_taken_is_said_and_one_drawn_over_is_not() -> None:
    """What a player can act on: each card taken from the pile, and the pile's top; a discard the next seat drew
    over from the stock is out of play (``last`` has it)."""
    m = model()
    terse = Narrator(Level.TERSE)
    said = []
    for seat, took, card in ((1, "", "2C"), (2, "2C", "3C"), (3, "", "4C"), (1, "4C", "5C")):
        if took:
            told(terse, m, rummy(drew=rummy_pb2.RummyDrew(seat=seat, source=common_pb2.DRAW_SOURCE_PILE, card=took)))
        said += told(terse, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=seat, card=card)))
    assert said == ["bia, 2 clubs; caio takes it; dan, 4 clubs."], "the round, as bia comes round again"
    assert terse.turn_begins(m) == ["bia takes it for 5 clubs."]


def test_the_players_own_choice_is_not_said_back_but_what_the_table_did_for_them_is() -> None:
    m = model()
    terse = Narrator(Level.TERSE)
    mine = rummy(discarded=rummy_pb2.RummyDiscarded(seat=0, card="9C"))
    terse.acted = True
    assert told(terse, m, mine) == [], "the player chose it"
    terse.turn_begins(m)
    assert told(terse, m, mine) == ["You discard 9 clubs."], "the time ran out: the table chose it"


def test_calls_bets_cards_knocks_and_results_are_said_at_the_terse_level() -> None:
    m = model("truco_argentino")
    terse = Narrator(Level.TERSE)
    play = table_pb2.Event(seq=1, truco=truco_pb2.TrucoEvent(played=truco_pb2.TrucoPlayed(seat=1, card="1e")))
    call = table_pb2.Event(seq=2, truco=truco_pb2.TrucoEvent(called=truco_pb2.TrucoCalled(
        seat=2, team=0, bet=truco_pb2.TRUCO_BET_TRUCO, call=truco_pb2.TRUCO_WORD_TRUCO, value=2, refused=1)))
    assert told(terse, m, play) == [], "a card played waits for the next thing said"
    said = told(terse, m, call)
    assert said[0] == "bia, ace swords." and "Truco" in said[1], said
    knock = rummy(knocked=rummy_pb2.RummyKnocked(seat=3, melds=[rummy_pb2.RummyMeld(cards=["5S", "5D", "5C"])],
                                                 discard="8C"))
    assert told(Narrator(Level.TERSE), model(), knock) == ["dan knocks, discarding 8 clubs."]
    verbose = told(Narrator(Level.VERBOSE), model(), knock)
    assert verbose == ["dan knocks: 5 of spades, 5 of diamonds and 5 of clubs, discarding 8 of clubs."], verbose


def test_the_fair_deal_check_is_one_short_sentence_whatever_it_found() -> None:
    """Each standing the check can reach has short words of its own at the terse level, a fair deal's among them
    (silence would not tell it from a check that never ran); verbose says the check whole."""
    assert set(SHORT_STANDINGS) == set(Standing), "a standing without short words is said whole"
    fair = Verdict(3, cut=True, hand_no=3)
    assert fair.standing is Standing.FAIR
    assert verdict_said(fair, Level.TERSE) == "Fair deal."
    terse = Narrator(Level.TERSE)
    assert terse.verdict(fair) == "Fair deal." and terse.verdict(fair) == "", "a fair deal after a fair deal: unsaid"
    assert terse.verdict(Verdict(5, problems=("x",), cut=True)).startswith("Warning:")
    assert terse.verdict(Verdict(6, cut=True, hand_no=6)) == "", "silence is fair once a fair deal was heard"
    assert terse.verdict(Verdict(7, problems=("x",), cut=True)).startswith("Warning:"), "what is not fair: each time"
    assert Narrator(Level.VERBOSE).verdict(fair) == Narrator(Level.VERBOSE).verdict(fair) != "", "verbose: each"
    assert verdict_said(fair, Level.VERBOSE).startswith("Hand 3 (table deal 3): fair deal")
    broken = Verdict(4, problems=("the revealed server seed does not match the commitment",), cut=True)
    short = verdict_said(broken, Level.TERSE)
    assert short.startswith("Warning:") and "deal" in short
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            assert verdict_said(fair, Level.TERSE) != "Fair deal."
            assert verdict_said(broken, Level.TERSE) != short


async def test_a_hand_heard_terse_says_less_than_verbose_and_the_deal_command_says_the_check(
        patient_server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two players at one Cacheta table, one at each level, the same hand: the terse one hears fewer and shorter
    sentences, no claim window they could only let go, and asks for the deal's check whole. (The hand is fair and
    short: after a round of discards, the terse player's first discard lets a bot cut the line and knock,
    ``fair_cut_hand``.)"""
    fair_cut_hand("cacheta", FAIR_CUT, monkeypatch)
    address = f"127.0.0.1:{patient_server.port}"
    terse, verbose = Listener(address, "ana"), Listener(address, "bia")
    terse.start()
    verbose.start()
    for p in (terse, verbose):
        await p.heard.until(lambda s: "127.0.0.1" in s, "the welcome")
    verbose.heard.type("verbose")
    await verbose.heard.until(lambda s: s.startswith("Verbose:"), "the level")
    terse.heard.type("new cacheta")
    await terse.heard.until(lambda s: "Press enter" in s, "the table described")
    terse.heard.type("change")
    answers = iter(["4", "2", "", "", "500"])  # players, bots (two: a hand ends sooner), turn, then the options
    n = 0
    while True:
        n = await terse.heard.until(lambda s: s.startswith("You sit at") or "enter" in s, "a question", n + 1)
        if terse.heard.said[n].startswith("You sit at"):
            break
        question = terse.heard.said[n]
        terse.heard.type("500" if question.startswith("Time to claim") else next(answers, ""))
    verbose.heard.type("tables")
    await verbose.heard.until(lambda s: s.startswith("1: "), "the table listed")
    verbose.heard.type("sit 1")
    await verbose.heard.until(lambda s: s.startswith("You sit at"), "a seat")
    import asyncio

    firsts = await asyncio.gather(*(p.heard.until(lambda s: s.startswith(("New hand", "Hand 1")), "the first hand")
                                    for p in (terse, verbose)))
    ends = await asyncio.gather(
        terse.play_until(lambda s: bool(re.match(r"(New hand|The match is over)", s)), "Your turn:", "the next hand",
                         after=firsts[0] + 1),
        verbose.play_until(lambda s: bool(re.match(r"(Hand 2[.:]|The match is over)", s)), "Your turn:",
                           "the next hand", full=True, after=firsts[1] + 1))
    terse.heard.type("deal")
    n = await terse.heard.until(lambda s: "fair deal (" in s or "checks out" in s or "not checked" in s,
                                "the check whole")
    assert await terse.stop() == 0 and await verbose.stop() == 0
    def told(p: Listener, end: int) -> list[str]:
        """The hand as told: from its start, without what the player asked for (a turn's choices, by enter)."""
        start = next(i for i, s in enumerate(p.heard.said) if s.startswith(("New hand", "Hand 1")))
        return [s for i, s in enumerate(p.heard.said[:end]) if i >= start and i not in p.replies]

    short, long = (told(p, end) for p, end in zip((terse, verbose), ends, strict=True))
    assert "Fair deal." in short and not any(s.startswith("Fair deal.") for s in long), "one short sentence"
    assert any("fair deal (" in s for s in long), "verbose says the check whole"
    assert "fair deal (" in terse.heard.said[n], "the deal command says the check whole"
    turns = [s for i, s in enumerate(terse.heard.said[:ends[0]]) if i in terse.heard.turns and i not in terse.replies]
    assert turns and not any(re.fullmatch(r"(Your turn: )?Pass( \d+)?\.", s) for s in turns), \
        ("a window she can only let go is not a turn", turns)
    assert any(s.startswith("Your turn: Pass, 15") for s in long), "verbose says the windows, as before"
    # the others' discards, one line a round, said as her turn comes round: where the hand had a round of them before
    # one of her moves (three by the others, of whom two in a row). One ana ends at once (declared na boa, she cuts
    # the line on the first discard and knocks) has none; nor one another ends before her turn comes round again
    # (bia takes bot 4's discard out of turn and knocks): the round is never said, the hand's end is.
    last = max((i for i, s in enumerate(long) if s.startswith("ana ")), default=0)
    theirs = [s for s in long[:last] if re.search(r"\bdiscards?\b", s) and not s.startswith(("ana ", "Your turn"))]
    assert len(theirs) < 3 or any(re.match(r"[^;]+, [^;]+ \w+; ", s) for s in short), \
        ("the others' discards, one line a round", theirs, short)
    assert not any(re.search(r"\b(ace|[2-9]|10|jack|queen|king) of ", s) for s in short), "cards named short"
    assert any(re.search(r"\b(ace|[2-9]|10|jack|queen|king) of ", s) for s in long), "verbose names them whole"
    assert sum(map(len, short)) < 0.6 * sum(map(len, long)), (sum(map(len, short)), sum(map(len, long)))


def test_a_refusal_of_ones_own_is_said_with_its_points_and_a_round_with_all_of_its() -> None:
    """Refusing a call gives the others points: a result, said at the terse level though the player chose it;
    and a round's end says who takes what with the score it leaves (the envido's points were said as they came;
    verbose says the round's whole points and why as well)."""
    m = model("truco_argentino")
    m.view.truco.scores.extend([0, 5])  # type: ignore[union-attr]
    terse = Narrator(Level.TERSE)
    terse.acted = True
    refused = table_pb2.Event(seq=1, truco=truco_pb2.TrucoEvent(answered=truco_pb2.TrucoAnswered(
        seat=0, team=0, bet=truco_pb2.TRUCO_BET_ENVIDO, accepted=False, points=4)))
    said = told(terse, m, refused)
    assert len(said) == 1 and "4" in said[0], said
    accepted = table_pb2.Event(seq=2, truco=truco_pb2.TrucoEvent(answered=truco_pb2.TrucoAnswered(
        seat=0, team=0, bet=truco_pb2.TRUCO_BET_TRUCO, accepted=True, points=2)))
    assert told(terse, m, accepted) == [], "an acceptance only repeats her choice"
    ended = table_pb2.Event(seq=3, truco=truco_pb2.TrucoEvent(round_ended=truco_pb2.TrucoRoundEnded(
        round=1, team=1, points=1, totals=[0, 5], reason=truco_pb2.TRUCO_REASON_REFUSED)))
    assert told(terse, m, ended) == [], "said once the message's view is in, with the score"
    assert terse.after_view(m) == ["They take 1; we 0, they 5."]
    verbose = Narrator(Level.VERBOSE)
    assert told(verbose, m, ended) == []
    assert verbose.after_view(m) == ["They take 1, the call was refused (This round: us +0, them +5); we 0, they 5."]


def test_a_truco_round_is_said_with_the_score_it_leaves_tersely() -> None:
    """The score, said as it changes: after who takes the round, "we 3, they 7" (a spectator hears the teams, each
    with "has": "team 1 3" is heard as two numbers run together); the round's points each side took are in the
    score (an envido's were said as it was won). Ours every time; theirs where it changed since the last result
    heard: the total just heard still stands."""
    m = model("truco_argentino")
    m.view.truco.scores.extend([3, 7])  # type: ignore[union-attr]
    ended = truco(1, round_ended=truco_pb2.TrucoRoundEnded(round=1, team=1, points=1, totals=[0, 5]))
    terse = Narrator(Level.TERSE)
    assert told(terse, m, ended) == []
    assert terse.after_view(m) == ["They take 1; we 3, they 7."]
    won = truco(2, round_ended=truco_pb2.TrucoRoundEnded(round=2, team=0, points=2, totals=[2, 0]))
    told(terse, m, won)
    m.view.truco.scores[:] = [5, 7]  # type: ignore[union-attr]
    assert terse.after_view(m) == ["We take 2; we 5."], "theirs still 7, as just heard"
    told(terse, m, ended)
    m.view.truco.scores[:] = [5, 8]  # type: ignore[union-attr]
    assert terse.after_view(m) == ["They take 1; we 5, they 8."]
    verbose = Narrator(Level.VERBOSE)
    told(verbose, m, won)
    assert verbose.after_view(m)[0].endswith("; we 5, they 8."), "verbose: both, every time"
    watching = TableModel(m.summary, None).with_view(m.view, 1)  # type: ignore[arg-type]
    told(terse, watching, ended)
    assert terse.after_view(watching) == ["Team 2 takes 1; team 1 has 5, team 2 has 8."]
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            told(terse, m, ended)
            said = terse.after_view(m)
            assert len(said) == 1 and "5" in said[0] and "8" in said[0] and "take" not in said[0], said


def test_a_match_won_at_a_rounds_end_is_said_after_the_round_and_by_our_side_or_theirs() -> None:
    """The round's end waits for the view (its score); what the same message says after it waits behind it, so the
    round is heard before the match it won, and the match's end with the question after it, in one sentence ("We win
    the match: again, swap or leave?", the line mode's); a seated player hears "We win", a spectator the team."""
    m = model("truco_paulista")
    m.view.truco.scores.extend([13, 3])  # type: ignore[union-attr]
    ended = truco(1, round_ended=truco_pb2.TrucoRoundEnded(round=5, team=0, points=12, totals=[12, 0]))
    won = table_pb2.Event(seq=2, match_ended=table_pb2.MatchEnded(team=0))
    terse = Narrator(Level.TERSE)
    assert told(terse, m, ended) == [] and told(terse, m, won) == []
    assert terse.after_view(m) == ["We take 12; we 13, they 3."]
    assert terse.match_won() == "We win the match" and terse.match_won() == "", "held once, for the question"
    assert told(terse, model("truco_paulista", seat=1), won) == [] and terse.match_won() == "They win the match"
    assert told(Narrator(Level.VERBOSE), m, won) == ["Team 1 wins the match."], "as before"


def test_an_envido_is_accepted_without_its_stake_and_won_by_a_side() -> None:
    """The envido's stake was said with its call, and the points each side holds with its "Tengo": its acceptance
    is the word alone, and its end says which side won it and what that gives."""
    m = model("truco_argentino")
    terse = Narrator(Level.TERSE)
    accepted = truco(1, answered=truco_pb2.TrucoAnswered(seat=1, team=1, bet=truco_pb2.TRUCO_BET_ENVIDO,
                                                         accepted=True, points=7))
    assert told(terse, m, accepted) == [], "the envido's points, called next, say it"
    assert "7" in told(Narrator(Level.VERBOSE), m, accepted)[0], "verbose says the stake"
    ours = truco(2, argentino_envido_won=truco_pb2.ArgentinoEnvidoWon(seat=2, team=0, envido=25, points=7))
    theirs = truco(3, argentino_envido_won=truco_pb2.ArgentinoEnvidoWon(seat=1, team=1, envido=31, points=3))
    assert told(terse, m, ours) == ["Our envido: +7, with 25."]
    assert told(terse, m, theirs) == ["Their envido: +3, with 31."]
    assert told(Narrator(Level.VERBOSE), m, ours) == ["caio wins the envido with 25: us +7."]


def test_the_others_tengos_are_heard_before_the_players_turn_and_folded_into_the_envido_won() -> None:
    """What the player answers needs the best envido so far, so the others' "Tengo"s are said before their turn;
    the ones that come after it are the envido's result, which says the winning points."""
    m = model("truco_argentino")
    terse = Narrator(Level.TERSE)
    tengo = truco(1, argentino_envido_announced=truco_pb2.ArgentinoEnvidoAnnounced(seat=1, points=29))
    assert told(terse, m, tengo) == []
    assert terse.turn_begins(m) == ["Tengo 29."], "the best so far, before the player answers (theirs: unnamed)"
    told(terse, m, truco(2, argentino_envido_announced=truco_pb2.ArgentinoEnvidoAnnounced(seat=3, points=31)))
    won = truco(3, argentino_envido_won=truco_pb2.ArgentinoEnvidoWon(seat=3, team=1, envido=31, points=2))
    assert told(terse, m, won) == ["Their envido: +2, with 31."], "dan's Tengo, in the result"
    heard = truco(4, argentino_envido_won=truco_pb2.ArgentinoEnvidoWon(seat=1, team=1, envido=29, points=2))
    told(terse, m, tengo)
    assert terse.turn_begins(m) == ["Tengo 29."]
    assert told(terse, m, heard) == ["Their envido: +2."], "bia's 29 was just heard: the result gives the points"
    mine = truco(5, argentino_envido_announced=truco_pb2.ArgentinoEnvidoAnnounced(seat=0, points=27))
    told(terse, m, mine)
    ours = truco(6, argentino_envido_won=truco_pb2.ArgentinoEnvidoWon(seat=0, team=0, envido=27, points=2))
    assert told(terse, m, ours) == ["Our envido: +2."], "the player's own Tengo"
    with speaking("es"):
        told(terse, m, mine)
        assert told(terse, m, ours) == ["Envido nuestro: +2."]


def test_an_envido_is_called_without_its_stake_but_a_raise_and_a_falta_with_it() -> None:
    """A real envido alone is for 3, as every player knows: its first call is the word alone; a call raised on it
    says the sum the bet stands at, and a falta envido what the score makes it worth."""
    m = model("truco_argentino")
    terse = Narrator(Level.TERSE)

    def called(seq: int, seat: int, word: int, value: int) -> table_pb2.Event:
        return truco(seq, called=truco_pb2.TrucoCalled(seat=seat, team=seat % 2, bet=truco_pb2.TRUCO_BET_ENVIDO,
                                                       call=word, value=value, refused=1))

    assert told(terse, m, called(1, 1, truco_pb2.TRUCO_WORD_REAL_ENVIDO, 3)) == ["¡Real envido!"], "theirs: unnamed"
    assert told(terse, m, called(2, 2, truco_pb2.TRUCO_WORD_REAL_ENVIDO, 6)) == ["caio: ¡Real envido!, for 6."], \
        "the partner's call keeps the name"
    first = Narrator(Level.TERSE)
    assert told(first, m, called(3, 1, truco_pb2.TRUCO_WORD_FALTA_ENVIDO, 22)) == ["¡Falta envido!, for 22."]
    refused = truco(4, answered=truco_pb2.TrucoAnswered(seat=3, team=1, bet=truco_pb2.TRUCO_BET_ENVIDO,
                                                        accepted=False, points=2))
    assert told(terse, m, refused) == ["No quiero, us +2."], "the other team's answer: the words and what it gives"
    for lang, us in (("es", "nosotros"), ("pt_BR", "nós")):
        with speaking(lang):
            assert told(Narrator(Level.TERSE), m, refused) == [f"No quiero, {us} +2."], lang
    partner = truco(5, answered=truco_pb2.TrucoAnswered(seat=2, team=0, bet=truco_pb2.TRUCO_BET_ENVIDO,
                                                        accepted=False, points=1))
    assert told(terse, m, partner) == ["caio: No quiero, them +1."], "the partner's refusal keeps the name"
    assert told(Narrator(Level.VERBOSE), m, refused)[0].startswith("dan: No quiero"), "verbose names the seat"
    watching = TableModel(m.summary, None).with_view(m.view, 1)  # type: ignore[arg-type]
    assert told(Narrator(Level.TERSE), watching, called(5, 1, truco_pb2.TRUCO_WORD_REAL_ENVIDO, 3)) == [
        "bia: ¡Real envido!"], "a spectator answers no one: every call by its seat"


def truco(seq: int, **body: object) -> table_pb2.Event:
    return table_pb2.Event(seq=seq, truco=truco_pb2.TrucoEvent(**body))  # type: ignore[arg-type]


def test_a_truco_hand_says_the_cards_and_the_signals_with_the_players_turn() -> None:
    """A truco hand's cards, and the partner's signals, help the player's decisions only: the terse level says them
    as the player's turn begins (a hand the others end first leaves them unsaid, kept for ``last``, as an opponent's
    signal the player caught is); verbose says them as they come."""
    m = model("truco_argentino")
    m.view.truco.cards.extend(["1e", "7o", "3c"])  # type: ignore[union-attr]
    terse = Narrator(Level.TERSE)
    assert told(terse, m, table_pb2.Event(seq=1, hand_started=table_pb2.HandStarted(hand=4, dealer=3))) == []
    assert terse.after_view(m) == [], "the hand's number unsaid: the last one's end was, and the cards wait"
    signal = truco(2, signalled=truco_pb2.TrucoSignalled(seat=2, signal=common_pb2.SIGNAL_WINK))
    caught = truco(3, signalled=truco_pb2.TrucoSignalled(seat=1, signal=common_pb2.SIGNAL_WINK))
    assert told(terse, m, signal) == [] and told(terse, m, caught) == []
    assert terse.turn_begins(m) == ["Signal: ace clubs."], \
        "the partner's signal, whose going unsaid where there is one partner; an opponent's caught, in last"
    for lang, said in (("es", "Seña: as bastos."), ("pt_BR", "Sinal: ás paus.")):
        with speaking(lang):
            assert told(terse, m, signal) == [] and terse.turn_begins(m) == [said], lang
    m.view.seats.extend([common_pb2.SeatSummary(seat=n, taken=True) for n in range(4, 6)])  # type: ignore[union-attr]
    assert told(terse, m, signal) == [] and terse.turn_begins(m) == ["caio signals ace clubs."], "two partners: named"
    assert terse.hand_unheard(m, []) == "ace swords, 7 coins and 3 cups"
    assert terse.hand_unheard(m, []) == "", "said once"
    verbose = Narrator(Level.VERBOSE)
    assert told(verbose, m, caught) == ["bia winks, ace of clubs (you caught it)."]
    told(terse, m, signal)
    ended = truco(4, round_ended=truco_pb2.TrucoRoundEnded(round=1, team=1, points=1, totals=[0, 1]))
    assert told(terse, m, ended) == [] and terse.after_view(m) == ["They take 1."]
    assert terse.turn_begins(m) == [], "a signal of a hand over is not news"


def test_the_truco_is_called_and_answered_without_its_stake_and_a_trick_is_ours_or_theirs() -> None:
    m = model("truco_paulista")
    terse = Narrator(Level.TERSE)
    call = truco(1, called=truco_pb2.TrucoCalled(seat=1, team=1, bet=truco_pb2.TRUCO_BET_TRUCO,
                                                 call=truco_pb2.TRUCO_WORD_SEIS, value=6, refused=3))
    assert told(terse, m, call) == ["Seis!"], "the word says the stake; the other team's, without the seat"
    assert "6" in told(Narrator(Level.VERBOSE), m, call)[0], "verbose says it"
    accepted = truco(2, answered=truco_pb2.TrucoAnswered(seat=2, team=0, bet=truco_pb2.TRUCO_BET_TRUCO,
                                                         accepted=True, points=6))
    assert told(terse, m, accepted) == [], "the play going on says it"
    assert told(Narrator(Level.VERBOSE), m, accepted)[0].startswith("caio: Aceito")
    ours = truco(3, trick_ended=truco_pb2.TrucoTrickEnded(trick=1, winner=2, team=0))
    theirs = truco(4, trick_ended=truco_pb2.TrucoTrickEnded(trick=2, winner=1, team=1))
    tied = truco(5, trick_ended=truco_pb2.TrucoTrickEnded(trick=3))
    assert [told(terse, m, e) + terse.after_view(m) for e in (ours, theirs, tied)] == [
        ["Our trick."], ["Their trick."], ["Trick tied."]], "said once the message's view is in"
    cards = [truco(n, played=truco_pb2.TrucoPlayed(seat=n - 4, card=c)) for n, c in ((5, "1e"), (6, "4c"))]
    for trick, said in ((ours, "bia, ace swords, 4 cups: ours."), (theirs, "bia, ace swords, 4 cups: theirs."),
                        (tied, "bia, ace swords, 4 cups: tied.")):
        assert [s for e in (*cards, trick) for s in told(terse, m, e)] + terse.after_view(m) == [said], \
            "the trick's cards and who took it, one line"
        terse.played = None
    for lang, word in (("pt_BR", ": nossa."), ("es", ": nuestra.")):
        with speaking(lang):
            said = [s for e in (*cards, ours) for s in told(terse, m, e)] + terse.after_view(m)
            assert len(said) == 1 and said[0].endswith(word) and not runs_of_numbers(said[0]), said
            terse.played = None
    told(terse, m, truco(7, played=truco_pb2.TrucoPlayed(seat=1, card="1e")))
    told(terse, m, theirs)
    told(terse, m, truco(8, round_ended=truco_pb2.TrucoRoundEnded(round=1, team=1, points=1, totals=[0, 1])))
    told(terse, m, table_pb2.Event(seq=9, match_ended=table_pb2.MatchEnded(team=1)))
    assert terse.after_view(m) == ["They take 1."], \
        "the trick that ends the round: its cards after the player's change no choice (in last); the result says it"
    assert terse.match_won() == "They win the match", "said with the question that follows it"
    terse.acted = True
    ran = truco(6, answered=truco_pb2.TrucoAnswered(seat=0, team=0, bet=truco_pb2.TRUCO_BET_TRUCO, accepted=False,
                                                    points=3))
    assert told(terse, m, ran) == [], "her own run: the round's end says what they take"


def test_a_maos_rejected_hands_are_one_sentence_naming_the_cards_a_player_counts() -> None:
    """Up to three rejections a deal, each three cards out of play: the terse level says them once, before what
    comes next, by how many and the manilhas and 3s among them; verbose names every card as it comes."""
    m = model("truco_paulista")
    terse = Narrator(Level.TERSE)

    def rejects(seq: int, seat: int, *cards: str) -> table_pb2.Event:
        return truco(seq, paulista_deal_choice=truco_pb2.PaulistaDealChoice(
            seat=seat, choice=truco_pb2.PAULISTA_CHOICE_REJECT, cards=list(cards)))

    first = rejects(1, 2, "6C", "6H", "6D")
    assert told(terse, m, first) == []
    assert told(terse, m, rejects(2, 2, "JC", "AS", "3D")) == []
    assert told(terse, m, rejects(3, 2, "4H", "QH", "5C")) == []
    call = truco(4, called=truco_pb2.TrucoCalled(seat=3, team=1, bet=truco_pb2.TRUCO_BET_TRUCO,
                                                 call=truco_pb2.TRUCO_WORD_TRUCO, value=3, refused=1))
    assert told(terse, m, call) == ["caio rejects 3 hands, ace spades and 3 diamonds among them.", "Truco!"]
    assert told(terse, m, first) == [] and terse.turn_begins(m) == ["caio rejects a hand."], "low cards: counted"
    terse.acted = True
    assert told(terse, m, rejects(5, 0, "6C", "6H", "6D")) == [], "the player's own, just chosen: not said back"
    verbose = Narrator(Level.VERBOSE)
    assert told(verbose, m, first) == ["caio rejects 6 of clubs, 6 of hearts and 6 of diamonds."]


def cacho_model(status: int = cacho_pb2.CACHO_SEAT_STATUS_IN) -> TableModel:
    """A Cacho table seen from seat 0, whose own status is ``status``."""
    m = model("cacho")
    view = table_pb2.View(hand=1, seats=m.summary.seats)
    view.cacho.seats.extend([cacho_pb2.CachoSeat(seat=n, chips=20, status=status if n == 0 else
                                                 cacho_pb2.CACHO_SEAT_STATUS_IN) for n in range(4)])
    return m.with_view(view, 1)


def test_a_cacho_showdown_is_said_by_the_pots_result_with_the_winning_hand_and_every_total() -> None:
    """What decides the pot is the winner's hand: the terse level says the pot's result with it ("bia wins 6 with
    two of a suit (28)") and every seat's chips, the player's first, once the view after it is in (at the next
    results, the player's and those that changed); the shows themselves are in ``last``, and verbose says each
    with its cards."""
    m = cacho_model()
    strength = cacho_pb2.CachoStrength(category=cacho_pb2.CACHO_CATEGORY_TWO_SUITED, points=28)

    def showed(seat: int) -> table_pb2.Event:
        return table_pb2.Event(seq=seat + 1, cacho=cacho_pb2.CachoEvent(showed=cacho_pb2.CachoShowed(
            seat=seat, cards=["3C", "5S", "3S"], strength=strength)))

    terse = Narrator(Level.TERSE)
    assert told(terse, m, showed(0)) == [] and told(terse, m, showed(1)) == []
    assert "5 of spades" in told(Narrator(Level.VERBOSE), m, showed(1))[0], "verbose says every card"

    def won(seat: int, showdown: bool) -> table_pb2.Event:
        return table_pb2.Event(seq=9, cacho=cacho_pb2.CachoEvent(pot_won=cacho_pb2.CachoPotWon(
            seat=seat, chips=6, showdown=showdown)))

    after = m.view
    assert after is not None
    after.cacho.result.winner = 1
    after.cacho.result.showdown.extend([cacho_pb2.CachoShowing(seat=1, cards=["3C", "5S", "3S"], strength=strength)])
    for s in after.cacho.seats:
        s.chips = {0: 18, 1: 24, 2: 19, 3: 19}[s.seat]
    assert told(terse, m, won(1, True)) == []
    assert terse.after_view(m) == ["bia wins 6 with two of a suit (28); you 18, bia 24, caio 19, dan 19."]
    told(terse, m, won(2, False))
    assert terse.after_view(m) == ["caio wins 6; you 18."], "the totals just heard, the same: the player's alone"
    for s in after.cacho.seats:
        s.chips = {0: 17, 1: 24, 2: 25, 3: 18}[s.seat]
    told(terse, m, won(2, False))
    assert terse.after_view(m) == ["caio wins 6; you 17, caio 25, dan 18."], "the totals that changed since"
    verbose = Narrator(Level.VERBOSE)
    told(verbose, m, won(2, False))
    assert verbose.after_view(m) == ["caio wins 6, uncontested; you 17, bia 24, caio 25, dan 18."]
    told(verbose, m, won(2, False))
    assert verbose.after_view(m)[0].endswith("bia 24, caio 25, dan 18."), "verbose: every total, every time"


def test_the_others_bets_at_cacho_go_unsaid_once_the_player_is_out_of_the_hand() -> None:
    """Out of the hand (passed), the player has nothing left to decide in it: the others' bets are not said (the
    pot's winner is); in the hand, they are, one line; a deal in the same message is said against the view
    before it, so the bets that come with it are said."""
    def bet(seat: int, seq: int) -> table_pb2.Event:
        return table_pb2.Event(seq=seq, acted=table_pb2.Acted(seat=seat, action=common_pb2.Action(
            type=common_pb2.ACTION_TYPE_BET, chips=1)))

    out, inside = cacho_model(cacho_pb2.CACHO_SEAT_STATUS_PASSED), cacho_model()
    terse = Narrator(Level.TERSE)
    assert told(terse, out, bet(1, 1)) == [] and told(terse, out, bet(2, 2)) == []
    assert terse.turn_begins(out) == [], "nothing kept to say later either"
    assert told(Narrator(Level.VERBOSE), out, bet(1, 1)) == ["bia bets 1."], "verbose says them"
    assert told(terse, inside, bet(1, 3)) == [] and told(terse, inside, bet(2, 4)) == []
    assert terse.turn_begins(inside) == ["bia and caio bet 1."]
    told(terse, out, table_pb2.Event(seq=5, hand_started=table_pb2.HandStarted(hand=2, dealer=1)))
    told(terse, out, bet(2, 6))
    assert terse.after_view(inside) == [], "the new hand said with the player's turn, not as it is dealt"
    assert terse.turn_begins(inside) == ["caio bets 1."], \
        "a bet dealt with the hand, in its message, said before the turn"
    shown = table_pb2.Event(seq=7, cacho=cacho_pb2.CachoEvent(showed=cacho_pb2.CachoShowed(
        seat=1, cards=["3C", "5S", "3S"], strength=cacho_pb2.CachoStrength(
            category=cacho_pb2.CACHO_CATEGORY_TWO_SUITED, points=28))))
    assert told(Narrator(Level.TERSE), out, shown) == [], "nor their shows"
    won = table_pb2.Event(seq=8, cacho=cacho_pb2.CachoEvent(pot_won=cacho_pb2.CachoPotWon(seat=1, chips=4)))
    after = Narrator(Level.TERSE)
    assert told(after, out, won) == []
    assert after.after_view(out) == ["bia wins 4; you 20, bia 20, caio 20, dan 20."], "the pot's result is said"


def test_a_cacho_round_s_card_is_said_with_the_players_turn() -> None:
    """A card dealt to the player in round 2 or 3 is said with the turn it is for ("With 4 diamonds:
    ..."), after the others' bets; once; verbose says it as it comes. Choices heard at the table word for word are
    left to the bell ("With 5 hearts."; said with the bell off)."""
    m = cacho_model()
    view = m.view
    assert view is not None
    view.to_act.append(0)
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS),
                       common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=2)])
    heard = Heard()
    room = LineRoom(Start("127.0.0.1:1", "ana", own_config=False), heard)
    at = Seat("token", m.with_view(view, 2))
    dealt = table_pb2.Event(seq=1, cards_dealt=table_pb2.CardsDealt(seat=0, cards=["4D"]))
    assert told(at.narrator, at.model, dealt) == []
    assert told(Narrator(Level.VERBOSE), at.model, dealt) == ["You receive 4 of diamonds."]
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "With 4 diamonds: Pass 1, Bet 2, number 3.", "numbers said the first time"
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "Pass, Bet 2.", "the card said once, the numbers known; a later turn by its choices"
    for seq, card in ((3, "5H"), (4, "6C")):  # the next cards: the choices heard word for word, the bell says them
        told(at.narrator, at.model, table_pb2.Event(seq=seq, cards_dealt=table_pb2.CardsDealt(seat=0, cards=[card])))
        room.bell = seq == 3
        room._say_turn(at, with_hand=True)
    assert heard.said[-2:] == ["With 5 hearts.", "With 6 clubs: Pass, Bet 2."], "with the bell off, the choices"
    room.bell = True
    del view.legal[1:]
    view.legal.append(common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=3))
    at.model = at.model.with_view(view, 3)
    told(at.narrator, at.model, table_pb2.Event(seq=5, cards_dealt=table_pb2.CardsDealt(seat=0, cards=["7S"])))
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "With 7 spades: Pass, Bet 3.", "choices not heard so: said"


def test_a_cacho_hand_s_first_card_is_said_with_the_turn_and_its_number_not_at_all() -> None:
    """A new Cacho hand says nothing as it is dealt (the last pot's winner was just said): its first card is said
    with the player's turn, after the bets before it; verbose says the hand's number and the card as they come. A
    redeal says why."""
    m = cacho_model()
    view = m.view
    assert view is not None
    view.hand = 3
    view.to_act.append(0)
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS),
                       common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=1)])
    next(s for s in view.cacho.seats if s.seat == 0).cards.append("4S")
    heard = Heard()
    room = LineRoom(Start("127.0.0.1:1", "ana", own_config=False), heard)
    at = Seat("token", m.with_view(view, 2))
    at.numbered |= {"pass", "bet"}
    started = table_pb2.Event(seq=1, hand_started=table_pb2.HandStarted(hand=3))
    dealt = table_pb2.Event(seq=2, cards_dealt=table_pb2.CardsDealt(seat=0, cards=["4S"]))
    bet = table_pb2.Event(seq=3, acted=table_pb2.Acted(seat=1, action=common_pb2.Action(
        type=common_pb2.ACTION_TYPE_BET, chips=1)))
    assert told(at.narrator, at.model, started) == [] and told(at.narrator, at.model, dealt) == []
    assert at.narrator.after_view(at.model) == [], "no number, no card: they come with the turn"
    assert told(at.narrator, at.model, bet) == []
    assert at.narrator.turn_begins(at.model) == ["bia bets 1."]
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "With 4 spades: Pass, Bet 1."
    verbose = Narrator(Level.VERBOSE)
    redealt = table_pb2.Event(seq=4, cacho=cacho_pb2.CachoEvent(redealt=cacho_pb2.CachoRedealt()))
    assert told(at.narrator, at.model, redealt) == ["Dealt again: everyone passed."]
    assert told(verbose, at.model, redealt) == ["Dealt again: everyone passed."], "the one shape at both levels"
    assert told(verbose, at.model, started) + told(verbose, at.model, dealt) == ["Hand 3: ana deals.",
                                                                                  "You receive 4 of spades."]


def test_a_card_drawn_from_the_stock_is_said_with_the_turn_that_discards_it() -> None:
    """Terse: "9 diamonds, number 3; discard." one sentence where "You draw ..." and "Your turn: discard."
    were two; verbose says each."""
    m = model()
    view = m.view
    assert view is not None
    hand = ["2C", "5H", "9D", "JC", "QC", "KH", "AS", "3S", "7H", "8H", "10C"]
    view.rummy.cards.extend(hand)
    view.to_act.append(0)
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=[c]) for c in hand])
    heard = Heard()
    room = LineRoom(Start("127.0.0.1:1", "ana", own_config=False), heard)
    at = Seat("token", m.with_view(view, 2))
    drawn = rummy(drawn_card=rummy_pb2.RummyDrawnCard(seat=0, card="9D"))
    assert told(at.narrator, at.model, drawn) == []
    assert at.narrator.after_view(at.model) == [], "said with the turn"
    room._say_turn(at)
    assert heard.said[-1] == "9 diamonds, number 3; discard 1 to 11."
    said, rung = len(heard.said), heard.rung
    room._say_turn(at)
    assert len(heard.said) == said and heard.rung == rung + 1, ("the card said once, the numbers known: a later "
                                                                "discard of any card held by the bell alone")
    taken = view.legal.pop(0)  # the card just taken from the pile may not go: said, as news
    at.model = at.model.with_view(view, 3)
    room._say_turn(at)
    assert heard.said[-1] == "Discard any but 2 clubs.", heard.said[-1]
    view.legal.insert(0, taken)
    at.model = at.model.with_view(view, 4)
    told(at.narrator, at.model, drawn)
    at.narrator.after_view(at.model)
    room._say_turn(at)
    assert heard.said[-1] == "9 diamonds, number 3.", "the discard's numbers known: the card's number is its key"
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            told(at.narrator, at.model, drawn)
            at.narrator.after_view(at.model)
            room._say_turn(at)
            assert heard.said[-1].endswith("número 3."), heard.said[-1]
    verbose = Narrator(Level.VERBOSE)
    assert told(verbose, at.model, drawn) == ["You draw 9 of diamonds from the stock."]
    del view.legal[:]  # a draw, from the stock or the pile: numbered the first time, by the bell alone after
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DRAW, source=source)
                       for source in (common_pb2.DRAW_SOURCE_STOCK, common_pb2.DRAW_SOURCE_PILE)])
    at.model = at.model.with_view(view, 5)
    room._say_turn(at)
    assert heard.said[-1] == "Stock 11 or pile 12.", heard.said[-1]
    said, rung = len(heard.said), heard.rung
    room._say_turn(at)
    assert len(heard.said) == said and heard.rung == rung + 1, heard.said[said:]
    room.bell = False
    room._say_turn(at)
    assert heard.said[said:] == ["Your turn."], "with the bell off, two words say it"


def test_a_hand_played_for_points_ends_with_who_won_it_and_every_seats_points() -> None:
    """At Cacheta the hand's result is who won it (the knock was just said) and every seat's points, the player's
    first, then the others in the order of play; at either level, and to whichever seat."""
    m = model("cacheta")
    assert m.view is not None
    m.view.rummy.seats.extend([rummy_pb2.RummySeat(seat=n, score=p) for n, p in enumerate([9, 9, 8, 10])])
    ended = table_pb2.Event(seq=5, hand_ended=table_pb2.HandEnded(winner=3, deltas=[-1, -1, -2, 0]))
    for level in Level:
        narrator = Narrator(level)
        assert told(narrator, m, ended) == []
        assert narrator.after_view(m) == ["dan wins the hand; you 9, bia 9, caio 8, dan 10."]
    dan = model("cacheta", seat=3).with_view(m.view, 2)
    narrator = Narrator(Level.TERSE)
    told(narrator, dan, ended)
    assert narrator.after_view(dan) == ["You win the hand; you 10, ana 9, bia 9, caio 8."]


def test_a_seat_whose_name_ends_in_a_number_is_said_with_a_word_before_its_total() -> None:
    """"bot 2 20" is heard as two numbers run together: a name that ends in a number takes "has"; a bot's card, a
    word before it."""
    m = model("cacheta")
    assert m.view is not None
    m.summary.seats[1].name = "bot 2"
    m.view.seats[1].name = "bot 2"
    m = TableModel(m.summary, 0).with_view(m.view, 1)
    assert m.view is not None
    m.view.rummy.seats.extend([rummy_pb2.RummySeat(seat=n, score=p) for n, p in enumerate([9, 7, 8, 10])])
    ended = table_pb2.Event(seq=5, hand_ended=table_pb2.HandEnded(winner=3, deltas=[-1, -1, -2, 0]))
    narrator = Narrator(Level.TERSE)
    told(narrator, m, ended)
    said = narrator.after_view(m)
    assert said == ["dan wins the hand; you 9, bot 2 has 7, caio 8, dan 10."]
    assert not runs_of_numbers(said[0])
    told(narrator, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=1, card="9C")))
    told(narrator, m, rummy(drew=rummy_pb2.RummyDrew(seat=2, source=common_pb2.DRAW_SOURCE_PILE, card="9C")))
    told(narrator, m, rummy(discarded=rummy_pb2.RummyDiscarded(seat=2, card="9D")))
    assert narrator.turn_begins(m) == ["bot 2 discards 9 clubs; caio takes it for 9 diamonds."]


def test_the_same_bet_by_seats_one_after_another_is_said_once_with_their_names() -> None:
    """"bia and caio pass; dan bets 1": shorter to hear than a name and a verb for each; a bet of another kind or
    size starts a part of its own; the same bet by every other seat, "The others bet 2"; verbose says each."""
    def acted(seat: int, kind: int, chips: int = 0) -> table_pb2.Event:
        return table_pb2.Event(seq=seat, acted=table_pb2.Acted(seat=seat, action=common_pb2.Action(
            type=kind, chips=chips)))

    m = cacho_model()
    terse = Narrator(Level.TERSE)
    events = [acted(1, common_pb2.ACTION_TYPE_PASS), acted(2, common_pb2.ACTION_TYPE_PASS),
              acted(3, common_pb2.ACTION_TYPE_BET, 1)]
    assert all(told(terse, m, e) == [] for e in events)
    assert terse.turn_begins(m) == ["bia and caio pass; dan bets 1."]
    for e in (acted(1, common_pb2.ACTION_TYPE_BET, 2), acted(2, common_pb2.ACTION_TYPE_BET, 2),
              acted(3, common_pb2.ACTION_TYPE_BET, 2)):
        told(terse, m, e)
    terse.acted = True
    assert told(terse, m, acted(0, common_pb2.ACTION_TYPE_BET, 3)) == []
    assert terse.turn_begins(m) == ["The others bet 2."], "every other seat: no names; the player's own not said"
    told(terse, m, acted(1, common_pb2.ACTION_TYPE_RAISE, 4))
    told(terse, m, acted(2, common_pb2.ACTION_TYPE_CALL, 4))
    assert terse.turn_begins(m) == ["bia raises to 4; caio calls 4."]
    verbose = Narrator(Level.VERBOSE)
    assert [told(verbose, m, e) for e in events[:2]] == [["bia passes."], ["caio passes."]]
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            for e in events[:2]:
                told(terse, m, e)
            said = terse.turn_begins(m)
            assert said == [{"pt_BR": "bia e caio passam.", "es": "bia y caio pasan."}[lang]], said
            for e in (*events[:2], acted(3, common_pb2.ACTION_TYPE_PASS)):
                told(terse, m, e)
            said = terse.turn_begins(m)
            assert said == [{"pt_BR": "Os outros passam.", "es": "Los demás pasan."}[lang]], said


def truco_turn(legal: list[common_pb2.Action], game: str = "truco_paulista") -> tuple[LineRoom, Seat, Heard]:
    """The line mode at a truco table (no server), its player's turn on with ``legal`` on offer, the hand dealt
    and not heard yet."""
    m = model(game)
    view = m.view
    assert view is not None
    view.truco.cards.extend(["4C", "7H", "AS"])
    view.to_act.append(0)
    view.legal.extend(legal)
    heard = Heard()
    room = LineRoom(Start("127.0.0.1:1", "ana", own_config=False), heard)
    at = Seat("token", m.with_view(view, 2))
    at.narrator.unheard = True
    room._slots(at)
    return room, at, heard


def test_the_terse_truco_turn_says_its_choices_numbered_the_first_time_and_by_word_after() -> None:
    """At a truco turn the hand's cards (the first turn of a hand) and the choices, each a word before its number
    the first time it is offered at the table, its word alone after; never two numbers in a row; enter says every
    choice with its number. A later turn that offers just a card to play, or the answers to the call just heard
    (their numbers known), is said by the bell alone ("Your turn." with it off), and a hand's first turn that answers
    the call just heard by its cards alone; any other choice names them all."""
    play = [common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=[c]) for c in ("4C", "7H", "AS")]
    truco_call = common_pb2.Action(type=common_pb2.ACTION_TYPE_TRUCO)
    room, at, heard = truco_turn([*play, truco_call])
    room._say_turn(at, with_hand=True)
    first = heard.said[-1]
    assert first == "With 4 clubs, 7 hearts and ace spades: play 1 to 3, Truco! 7.", first
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "Play, Truco!", "the numbers never move: said once; a later turn by its choices"
    view = at.model.view
    assert view is not None
    view.hand += 1
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "Your turn: play, Truco!", "a hand's first turn is said as one"
    room._say_turn(at, again=True)  # enter
    assert heard.said[-1].startswith("Your turn: play, 1 to 3, in this order: 4 of clubs"), heard.said[-1]
    assert heard.said[-1].endswith("Truco!, 7."), heard.said[-1]
    assert not any(runs_of_numbers(s) for s in heard.said), heard.said
    del view.legal[3:]  # a card to play and nothing else: the bell alone says the turn (it rang as it began)
    at.model = at.model.with_view(view, 3)
    said, rung = len(heard.said), heard.rung
    room._say_turn(at, with_hand=True)
    assert len(heard.said) == said and heard.rung == rung, heard.said[said:]
    room._say_turn(at)  # new choices within the turn: the bell rings for them
    assert len(heard.said) == said and heard.rung == rung + 1, heard.said[said:]
    room.bell = False
    room._say_turn(at)
    assert heard.said[said:] == ["Your turn."], "with the bell off, two words say it"
    room.bell = True
    room._say_turn(at, again=True)  # enter: every choice with its number, as ever
    assert heard.said[-1].startswith("Your turn: play, 1 to 3, in this order: 4 of clubs"), heard.said[-1]
    answers = [common_pb2.Action(type=t) for t in (common_pb2.ACTION_TYPE_ACCEPT, common_pb2.ACTION_TYPE_RUN,
                                                    common_pb2.ACTION_TYPE_SEIS)]
    del view.legal[:]
    view.legal.extend(answers)
    view.truco.pending.CopyFrom(truco_pb2.TrucoCall(
        bet=truco_pb2.TRUCO_BET_TRUCO, call=truco_pb2.TRUCO_WORD_TRUCO, seat=1, team=1, answering_team=0,
        raises=[truco_pb2.TRUCO_WORD_SEIS]))
    at.model = at.model.with_view(view, 4)
    room._say_turn(at)
    assert heard.said[-1] == "Seis! 7, Aceito 8, Corro 9.", "the answers' numbers, the first time they are offered"
    said = len(heard.said)
    room._say_turn(at)
    assert len(heard.said) == said, "after: the answers to the call just heard, by the bell alone"
    view.hand += 1  # a hand's first turn answering the call just heard: its cards, and the bell for the answers
    at.model = at.model.with_view(view, 5)
    at.narrator.unheard = True
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "With 4 clubs, 7 hearts and ace spades.", heard.said[-1]
    room.bell, at.narrator.unheard = False, True
    room._say_turn(at, with_hand=True)
    assert heard.said[-1] == "With 4 clubs, 7 hearts and ace spades: Seis!, Aceito, Corro.", "bell off: the choices"
    room.bell = True
    view.truco.pending.ClearField("raises")  # a choice the call does not imply (here: a raise it does not allow)
    room._say_turn(at)
    assert heard.said[-1] == "Seis!, Aceito, Corro.", "any other turn names its choices"
    view.truco.pending.answering_team = 1
    room._say_turn(at)
    assert heard.said[-1] == "Seis!, Aceito, Corro.", "a call the player's team does not answer implies nothing"
    at.narrator.level = Level.VERBOSE
    room._say_turn(at, with_hand=True)
    assert heard.said[-2].startswith("You hold ") and heard.said[-1].startswith("Your turn: "), \
        "verbose says the hand and the menu at every turn"


def test_the_maos_choice_of_the_cards_is_said_with_its_choices_and_the_cards() -> None:
    choice = [common_pb2.Action(type=t) for t in (common_pb2.ACTION_TYPE_KEEP, common_pb2.ACTION_TYPE_PASS_CARDS,
                                                  common_pb2.ACTION_TYPE_REJECT)]
    room, at, heard = truco_turn(choice)
    room._say_turn(at, with_hand=True)
    said = heard.said[-1]
    assert said == "With 4 clubs, 7 hearts and ace spades: Fico (keep) 10, Pass on 11, Reject 12.", said


def test_every_hands_totals_add_up_to_the_chips_on_the_table() -> None:
    """The totals a hand's result says are the chips each seat holds once it is over (its bets and the pot paid
    out, not counted twice): over random hands of Cacho and Pif Paf on the real engines, as the wire carries each
    seat's view, they add up to the chips the table began with."""
    import random

    from cardtui.client.shape import FAMILIES, family_of
    from cardtui.engine.games import GAMES
    from cardtui.server.base import wire

    for game in ("cacho", "pifpaf"):
        rules = GAMES[game]
        rng = random.Random(91)
        seats = rules.seat_infos([f"p{i}" for i in range(3)])
        match, _ = rules.open({}, seats, rng.getrandbits(63))
        summary = common_pb2.TableSummary(id="t", game=game, seats=[
            common_pb2.SeatSummary(seat=n, name=f"p{n}", taken=True) for n in range(3)])
        first = None
        ended = 0
        for _step in range(3000):
            if match.hand_over():
                view = wire.view_message(match.view(0), [], 0)
                model = TableModel(summary, 0).with_view(view, 1)
                family = family_of(model)
                assert family is not None and family in FAMILIES.values()
                total = sum(side.total for side in family.sides(model))
                first = total if first is None else first
                assert total == first, f"{game}: the totals say {total} chips, the table began with {first}"
                ended += 1
                if match.match_over() or ended >= 12:
                    break
                match.next_hand(rng.getrandbits(63))
                continue
            seat = rng.choice(match.to_act())
            legal = match.legal_actions(seat)
            ending = [a for a in legal if a.type in ("fold", "knock")]  # hands that end soon
            match.apply(seat, rng.choice(ending if ending and rng.random() < 0.5 else legal))
        assert ended >= 2, f"{game}: {ended} hands"


def test_the_others_cards_of_a_trick_are_one_line_naming_the_first_seat_alone() -> None:
    """The seats play a trick in the table's order: the cards played one after another are said with the first's
    name and the rest by their cards, without a verb ("bia, ace swords, 4 cups, jack coins"), a word between any two
    numbers;
    another's "Son buenas" goes unsaid (the envido's winner, said next, says whose points stood), one's own is
    not the others'."""
    m = model("truco_argentino")
    terse = Narrator(Level.TERSE)
    plays = [truco(n, played=truco_pb2.TrucoPlayed(seat=n, card=c)) for n, c in ((1, "1e"), (2, "4c"), (3, "10o"))]
    assert all(told(terse, m, e) == [] for e in plays)
    assert terse.turn_begins(m) == ["Ace swords, 4 cups, jack coins."], \
        "the cards run up to the player, who plays next: counting back from them says whose each is"
    gone = model("truco_argentino")
    gone.view.truco.seats.extend([truco_pb2.TrucoSeat(seat=n, team=n % 2, gone=n == 2, playing=n != 2)  # type: ignore[union-attr]
                                  for n in range(4)])
    for e in plays:
        told(terse, gone, e)
    assert terse.turn_begins(gone) == ["bia, ace swords, 4 cups, jack coins."], "a seat gone: the order has a gap"
    m.summary.seats[1].name = "bot 2"
    m.view.seats[1].name = "bot 2"  # type: ignore[union-attr]
    m = TableModel(m.summary, 0).with_view(m.view, 1)  # type: ignore[arg-type]
    for e in (truco(1, played=truco_pb2.TrucoPlayed(seat=1, card="7o")), plays[1]):
        told(terse, m, e)
    said = terse.turn_begins(m)
    assert said == ["bot 2 plays 7 coins, 4 cups."] and not runs_of_numbers(said[0]), said
    buenas = truco(4, argentino_son_buenas=truco_pb2.ArgentinoSonBuenas(seat=3,
                                                                        bet=truco_pb2.TRUCO_BET_ENVIDO))
    assert told(terse, m, buenas) == [], "the envido's winner follows"
    assert told(Narrator(Level.VERBOSE), m, buenas) == ["dan: Son buenas."]
    for lang in ("pt_BR", "es"):
        with speaking(lang):
            for e in plays:
                told(terse, m, e)
            said = terse.turn_begins(m)
            assert len(said) == 1 and "bot 2" not in said[0] and not runs_of_numbers(said[0]), said
    after = Narrator(Level.TERSE)  # the cards after the player's own: the next seats', in order, need no name
    for e in (truco(5, trick_ended=truco_pb2.TrucoTrickEnded(trick=1, winner=1, team=1)),
              truco(6, played=truco_pb2.TrucoPlayed(seat=0, card="3c")), plays[0], plays[1]):
        told(after, m, e)
    assert after.turn_begins(m) == ["Ace swords, 4 cups."], "bot 2 follows the player: the cards alone"
    told(after, m, truco(7, trick_ended=truco_pb2.TrucoTrickEnded(trick=2, winner=1, team=1)))
    told(after, m, plays[0])
    assert after.turn_begins(m) == ["bot 2, ace swords."], "a trick's first card: its seat named"
    two = model("truco_argentino")
    del two.view.seats[2:]  # type: ignore[union-attr]
    two = TableModel(two.summary, 0).with_view(two.view, 1)  # type: ignore[arg-type]
    told(after, two, truco(8, played=truco_pb2.TrucoPlayed(seat=1, card="7o")))
    assert after.turn_begins(two) == ["7 coins."], "a table of two: the only opponent's card, unnamed"
    watching = TableModel(two.summary, None).with_view(two.view, 1)  # type: ignore[arg-type]
    told(after, watching, truco(9, played=truco_pb2.TrucoPlayed(seat=1, card="1e")))
    assert after.before(["-"])[0] == "bia, ace swords.", "a spectator hears whose"


def test_a_matchs_end_asks_again_swap_or_leave_once_a_table_and_then_rings() -> None:
    """A match's end says who won with the question ("They win the match: again, swap or leave?"); once heard at
    the table, a later one says who won and the bell asks (the question whole with the bell off)."""
    room, at, heard = truco_turn([])
    view = at.model.view
    assert view is not None
    view.ClearField("to_act")
    said = []
    for bell in (True, True, False):
        room.bell = bell
        at.ended = (True, False)  # the hand's end heard (its analysis asked for): the match's now
        view.hand_over, view.match_over = True, True
        at.model = at.model.with_view(view, len(said) + 3)
        at.narrator.won = "They win the match"
        rung = heard.rung
        room._ending(at)
        said.append((heard.said[-1], heard.rung - rung))
    assert said == [("They win the match: again, swap or leave?", 0), ("They win the match.", 1),
                    ("They win the match: again, swap or leave?", 0)], said
