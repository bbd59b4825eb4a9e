"""Both trucos at a sealed table (docs/rules.md, "Sealed tables"): the engine is dealt no card, takes each card
its client names and each envido or flor said as a claim, and holds the claims against the cards shown at the
hand's end. Random hands show that a sealed table with truthful clients scores exactly as the open table with the
same deal and the same choices; rigged ones, each penalty and the turn clock's move for cards nobody can open."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, IllegalAction, SeatInfo
from cardtui.engine.sealed import Move
from cardtui.engine.truco.argentino.game import GAME as ARGENTINO
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.events import ArgentinoClaimLost, Reason
from cardtui.engine.truco.paulista.game import GAME as PAULISTA
from cardtui.engine.truco.sealed import SHOW_ANY, UNOPENED

_FLOR_WORDS = {"flor", "contra_flor", "contra_flor_al_resto"}


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"p{i}", i % 2) for i in range(n)]


def argentino(n: int, seed: int, **options: object) -> tuple[ArgentinoState, ArgentinoState]:
    """The open table and the sealed one, dealt from the same seed."""
    open_st, _ = ARGENTINO.start(ARGENTINO.options(options), seats(n), seed)
    sealed_st, _ = ARGENTINO.start(ARGENTINO.options({**options, "sealed": True}), seats(n), seed)
    return open_st, sealed_st


def rig(st: ArgentinoState, **hands: str) -> None:
    for key, text in hands.items():
        st.give(int(key[1:]), parse_cards(text))


def told(st: ArgentinoState, sealed: ArgentinoState, seat: int, action: Action) -> Action:
    """The open table's action as a truthful client says it at the sealed table: its claims with their count (a
    seat the host opened says them as at any table)."""
    if sealed.known[seat]:
        return action
    if action.type == "announce":
        return Action("announce", amount=st.env[seat])
    if action.type in _FLOR_WORDS:
        return Action(action.type, amount=st.flor[seat])
    return action


def no_signals(actions: list[Action]) -> list[Action]:
    return [a for a in actions if a.type != "signal"]


def show_claims(open_st: ArgentinoState, st: ArgentinoState, lie: bool = False) -> list[object]:
    """Every claim shown, truthfully (the cards that make it), in the order the hand asks."""
    bodies: list[object] = []
    while st.showing:
        claim = st.claims[0]
        (who,) = ARGENTINO.to_act(st)
        assert who == claim.seat
        cards = open_st.dealt[who] if claim.kind == "flor" else open_st.env_cards[who]
        events = ARGENTINO.apply(st, who, Action("show", cards=cards))
        bodies += [e.body for e in events]
    return bodies


# -- the open table and the sealed one agree ---------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(hs.sampled_from([2, 4, 6]), hs.integers(0, 2**32), hs.booleans(), hs.integers(0, 63))
def test_a_sealed_argentino_hand_scores_as_the_open_table(n: int, seed: int, flor: bool, known: int) -> None:
    """The same choices at both tables (each claim its true count, each card named by its client); the seats the
    host opened (``known``: a bot's) are offered exactly what the open table offers them."""
    open_st, st = argentino(n, seed, flor=flor)
    table = ARGENTINO.sealed(st)
    assert table is not None and ARGENTINO.sealed(open_st) is None
    for s in range(n):
        if known >> s & 1:
            table.learn(s, open_st.dealt[s])
    rng = random.Random(seed)
    while open_st.result is None:
        acting = ARGENTINO.to_act(open_st)
        both = sorted(set(acting) & set(ARGENTINO.to_act(st)))
        if st.flor_bet.pending >= 0 and (open_st.flor_bet.pending < 0 or not both):
            # a rival without a flor: the sealed table asks it too, in turn (nobody knows who holds one)
            (seat,) = ARGENTINO.to_act(st)
            assert Action("son_buenas") in ARGENTINO.legal_actions(st, seat)
            ARGENTINO.apply(st, seat, Action("son_buenas"))
            continue
        assert both == sorted(acting) or st.flor_bet.pending >= 0
        seat = rng.choice(both)
        legal = no_signals(ARGENTINO.legal_actions(open_st, seat))
        if known >> seat & 1:
            assert no_signals(ARGENTINO.legal_actions(st, seat)) == legal
        action = rng.choice(legal)
        said = told(open_st, st, seat, action)
        ARGENTINO.apply(open_st, seat, action)
        ARGENTINO.apply(st, seat, said)
    show_claims(open_st, st)
    assert st.result is not None
    assert st.result.points == open_st.result.points and st.scores == open_st.scores
    sealed_history, open_history = ARGENTINO.history(st), ARGENTINO.history(open_st)
    assert sealed_history is not None and open_history is not None
    assert sealed_history["options"] == {**open_history["options"], "sealed": True}
    assert "sealed" not in open_history["options"]  # every other table's history reads and hashes as it did
    assert ARGENTINO.replay(sealed_history).scores == st.scores  # replayed where nobody knows a card


@settings(max_examples=30, deadline=None)
@given(hs.integers(0, 2**32), hs.integers(0, 15))
def test_a_sealed_paulista_hand_scores_as_the_open_table(seed: int, known: int) -> None:
    """Keep, pass and reject, plays face up and face down, mãos de onze and de ferro: as at the open table."""
    rng = random.Random(seed)
    scores = [rng.choice([0, 5, 11]), rng.choice([0, 8, 11])]  # mãos de onze and de ferro too
    open_st, _ = PAULISTA.resume(PAULISTA.options({}), seats(4), scores, 0, 1, seed)
    st, _ = PAULISTA.resume(PAULISTA.options({"sealed": True}), seats(4), scores, 0, 1, seed)
    table = PAULISTA.sealed(st)
    assert table is not None and table.deal().ferro == open_st.ferro
    for s in range(4):
        if known >> s & 1 and open_st.hands[s]:
            table.learn(s, tuple(open_st.hands[s]))
    while open_st.result is None:
        acting = PAULISTA.to_act(open_st)
        assert set(PAULISTA.to_act(st)) == set(acting)
        seat = rng.choice(acting)
        legal = no_signals(PAULISTA.legal_actions(open_st, seat))
        action = rng.choice(legal)
        said = action
        if action.type == "play_blind":  # the card its client turned up
            said = Action("play_blind", amount=action.amount, cards=(open_st.hands[seat][action.amount - 1],))
        elif action.type == "play_down" and not st.known[seat]:
            said = Action("play_down")  # never opened
        elif action.type == "pass_cards" and not st.known[seat]:
            said = Action("pass_cards")
        if action.type in ("pass_cards", "keep", "reject") and not st.known[seat]:
            blocks = tuple(open_st.hands[seat])
            said = Action("reject", cards=blocks) if action.type == "reject" else said
        PAULISTA.apply(open_st, seat, action)
        PAULISTA.apply(st, seat, said)
        for s in range(4):  # a seat the host knew knows the block it is given again (a bot's)
            if known >> s & 1 and not st.known[s] and st.unseen[s] and open_st.hands[s]:
                table.learn(s, tuple(open_st.hands[s]))
    assert st.result is not None and st.result.points == open_st.result.points and st.scores == open_st.scores


# -- claims, held against the cards shown -------------------------------------------------------
def envido_played(n_seat_cards: str, said: int) -> tuple[ArgentinoState, ArgentinoState, int]:
    """Seat 1 (the mano) calls envido, seat 0 accepts and says son buenas after seat 1 says ``said``."""
    open_st, st = argentino(2, 5)
    rig(open_st, s0="4c 5e 6b", s1=n_seat_cards)
    mano = st.mano
    assert mano == 1
    ARGENTINO.apply(st, 1, Action("envido"))
    ARGENTINO.apply(st, 0, Action("quiero"))
    ARGENTINO.apply(st, 1, Action("announce", amount=said))
    ARGENTINO.apply(st, 0, Action("son_buenas"))
    ARGENTINO.apply(st, 1, Action("mazo"))  # the truco's round to seat 0, 1 point
    assert st.showing and ARGENTINO.to_act(st) == (1,)
    assert [a.type for a in ARGENTINO.legal_actions(st, 0)] == []
    return open_st, st, mano


def test_a_true_envido_shown_keeps_its_points() -> None:
    open_st, st, _ = envido_played("6o 7o 1e", 33)
    bodies = show_claims(open_st, st)
    assert not any(isinstance(b, ArgentinoClaimLost) for b in bodies)
    assert st.result is not None and st.result.points == (1, 2)


@pytest.mark.parametrize("shown", ["6o 1e", ""])
def test_a_false_envido_or_none_shown_gives_its_points_to_the_other_team(shown: str) -> None:
    """Seat 1 said 33 and shows 27 (or nothing): the envido's 2 go to seat 0's team, as the rules say."""
    _, st, _ = envido_played("6o 7o 1e", 33)
    events = ARGENTINO.apply(st, 1, Action("show", cards=parse_cards(shown) if shown else ()))
    lost = [e.body for e in events if isinstance(e.body, ArgentinoClaimLost)]
    assert lost == [ArgentinoClaimLost(1, 1, lost[0].reason, 33, 2, bool(shown))]
    assert st.result is not None and st.result.points == (3, 0)


def test_cards_shown_are_the_seats_own() -> None:
    """A card another seat played, two of one card, or four cards: refused, and nothing changes."""
    _, st, _ = envido_played("6o 7o 1e", 33)
    before = (list(st.claims), st.showing)
    for cards in ("6o 6o", "6o 7o 1e 4b"):
        with pytest.raises(IllegalAction):
            ARGENTINO.apply(st, 1, Action("show", cards=parse_cards(cards)))
    assert (list(st.claims), st.showing) == before


def test_a_card_seen_elsewhere_cannot_be_played_from_a_sealed_hand() -> None:
    _, st = argentino(2, 5)
    ARGENTINO.apply(st, 1, Action("play", cards=parse_cards("1e")))
    with pytest.raises(IllegalAction):
        ARGENTINO.apply(st, 0, Action("play", cards=parse_cards("1e")))
    with pytest.raises(IllegalAction):  # a card is named by its client: the engine cannot choose one
        ARGENTINO.apply(st, 0, Action("play"))


def test_a_flor_is_sung_with_its_count_and_every_rival_is_asked() -> None:
    _, st = argentino(4, 5, flor=True)
    (first,) = ARGENTINO.to_act(st)
    with pytest.raises(IllegalAction):
        ARGENTINO.apply(st, first, Action("flor"))
    ARGENTINO.apply(st, first, Action("flor", amount=33))
    rivals = [s for s in (1, 2, 3, 0) if s & 1 != first & 1]
    for rival in sorted(rivals, key=lambda s: (s - first) % 4):
        assert ARGENTINO.to_act(st) == (rival,)
        ARGENTINO.apply(st, rival, Action("son_buenas"))
    assert st.flor_bet.pending < 0 and st.f_shown == [first]


# -- the turn clock, for cards nobody can open ---------------------------------------------------
def test_the_clock_plays_a_card_nobody_can_open_face_down_and_it_cannot_win() -> None:
    _, st = argentino(2, 5)
    assert ARGENTINO.default_action(st, 1) == UNOPENED
    ARGENTINO.apply(st, 1, UNOPENED)
    ARGENTINO.apply(st, 0, Action("play", cards=parse_cards("4c")))  # the lowest card there is
    assert st.results == [0]
    view = ARGENTINO.view(st, 0)
    assert view.tricks[0].plays[0].card is None and view.tricks[0].plays[0].face_down


def test_the_clock_shows_nothing_for_a_claim_and_loses_it() -> None:
    _, st, _ = envido_played("6o 7o 1e", 33)
    assert ARGENTINO.default_action(st, 1) == SHOW_ANY
    ARGENTINO.apply(st, 1, SHOW_ANY)
    assert st.result is not None and st.result.points == (3, 0)


def test_the_clock_says_zero_when_it_must_announce_first() -> None:
    _, st = argentino(2, 5)
    ARGENTINO.apply(st, 1, Action("envido"))
    ARGENTINO.apply(st, 0, Action("quiero"))
    assert ARGENTINO.default_action(st, 1) == Action("announce", amount=0)
    assert all(a.amount in (*range(15), *range(20, 34)) for a in ARGENTINO.legal_actions(st, 1)
               if a.type == "announce")


def test_a_seat_the_host_opened_plays_as_at_any_table() -> None:
    """A bot's seat: the host opened its cards, and the engine offers them, its envido and its bot's choice."""
    open_st, st = argentino(2, 5)
    table = ARGENTINO.sealed(st)
    assert table is not None
    assert table.blind(0) and table.move(Action("play")) is Move.PLAY
    table.learn(0, open_st.dealt[0])
    assert not table.blind(0) and st.env[0] == open_st.env[0]
    with pytest.raises(ValueError):  # a hand the engine knows already, or cards of another's
        table.learn(0, open_st.dealt[0])
    assert ARGENTINO.view(st, 0).cards == tuple(open_st.hands[0]) and ARGENTINO.view(st, 1).cards == ()


def test_a_seat_named_for_a_cheat_voids_the_hand() -> None:
    _, st = argentino(2, 5)
    ARGENTINO.apply(st, 1, Action("play", cards=parse_cards("1e")))
    table = ARGENTINO.sealed(st)
    assert table is not None
    table.void()
    assert st.result is not None and st.result.points == (0, 0) and st.scores == [0, 0]
    assert st.rounds[-1].reason is Reason.VOID


def test_a_paulista_rejected_block_is_shown_and_must_be_three_unseen_cards() -> None:
    st, _ = PAULISTA.start(PAULISTA.options({"sealed": True}), seats(4), 3)
    (mao,) = PAULISTA.to_act(st)
    with pytest.raises(IllegalAction):
        PAULISTA.apply(st, mao, Action("reject", cards=parse_cards("4C 4C 7H")))
    PAULISTA.apply(st, mao, Action("reject", cards=parse_cards("4C 7H AS")))
    assert {Card.parse("4C"), Card.parse("7H")} <= st.seen_cards
    with pytest.raises(IllegalAction):  # a block shown already is nobody's again
        PAULISTA.apply(st, mao, Action("reject", cards=parse_cards("4C 2C 3C")))
    assert PAULISTA.default_action(st, mao) == Action("keep")


# -- any client, honest or not, and the clock: every sealed hand ends, and replays as it was scored --------------
def client_action(rng: random.Random, st: ArgentinoState, seat: int, held: list[Card], legal: list[Action]) -> Action:
    """What a client of ``seat`` might send: any legal action, its cards named from ``held`` (the cards it was dealt
    and has not played), its claims any count (true or not), the cards it shows any of its own, or none."""
    action = rng.choice(legal)
    if action.type == "play" and not action.cards:
        return Action("play", cards=(rng.choice(held),))
    if action.type in _FLOR_WORDS and st.claimed(seat):
        return Action(action.type, amount=rng.randint(20, 38))
    if action.type == "show" and not action.cards:
        mine = [*held, *st.opened[seat]]
        return Action("show", cards=tuple(rng.sample(mine, rng.randint(0, min(3, len(mine))))))
    return action


@settings(max_examples=60, deadline=None)
@given(hs.sampled_from([2, 4, 6]), hs.integers(0, 2**32), hs.booleans(), hs.integers(0, 63), hs.integers(0, 63))
def test_every_sealed_argentino_hand_ends_whoever_plays_and_replays_as_scored(
        n: int, seed: int, flor: bool, known: int, away: int) -> None:
    """Seats the clock plays (``away``: the face-down card, no claim shown) beside clients that claim anything and
    show anything of their own: the hand always ends, and its history replays to the same scores."""
    open_st, st = argentino(n, seed, flor=flor)
    table = ARGENTINO.sealed(st)
    assert table is not None
    held = {s: list(open_st.dealt[s]) for s in range(n)}
    for s in range(n):
        if known >> s & 1:
            table.learn(s, open_st.dealt[s])
    rng = random.Random(seed)
    for _ in range(200):
        if st.result is not None:
            break
        seat = rng.choice(ARGENTINO.to_act(st))
        if away >> seat & 1:
            action = ARGENTINO.default_action(st, seat)
        else:
            legal = no_signals(ARGENTINO.legal_actions(st, seat))
            action = client_action(rng, st, seat, held[seat], legal)
        try:
            ARGENTINO.apply(st, seat, action)
        except IllegalAction:
            assert action.type == "show"  # a show of cards it may not show is refused, and it shows nothing instead
            ARGENTINO.apply(st, seat, SHOW_ANY)
            continue
        for card in action.cards:
            if card in held[seat]:
                held[seat].remove(card)
    assert st.result is not None
    assert sum(st.result.points) >= 0
    history = ARGENTINO.history(st)
    assert history is not None
    assert ARGENTINO.replay(history).scores == st.scores


@pytest.mark.parametrize("scores", [[0, 0], [11, 3], [4, 11], [11, 11]])
def test_the_clock_alone_ends_a_sealed_paulista_hand(scores: list[int]) -> None:
    """Nobody's cards can be opened (every client gone): the mão keeps, calls are declined, every card goes face down,
    and the hand ends, in a plain hand, a mão de onze and a mão de ferro; its history replays as it was scored."""
    st, _ = PAULISTA.resume(PAULISTA.options({"sealed": True}), seats(4), scores, 0, 1, 9)
    played = 0
    while st.result is None:
        (seat, *_) = PAULISTA.to_act(st)
        action = PAULISTA.default_action(st, seat)
        assert action.type in ("keep", "run", "play_unopened")
        PAULISTA.apply(st, seat, action)
        played += action == UNOPENED
    reason = st.result.rounds[0].reason
    assert (played, reason) in ((0, Reason.ONZE_REFUSED), (12, Reason.TRICKS), (12, Reason.TIED)), (played, reason)
    history = PAULISTA.history(st)
    assert history is not None and PAULISTA.replay(history).scores == st.scores
