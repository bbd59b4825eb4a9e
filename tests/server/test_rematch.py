"""Playing again, quick phrases and meld hints over real gRPC (docs/players.md, "Friends at the table in seconds").

Two people and a bot at Cacho with 3 chips each: a match ends within a few hands. Then they ask for
the seats swapped, or one leaves and the other stays: the next match starts at once (the table's
turn timer, an hour, is not waited for), with the seats swapped and every token following its
holder, or with a bot in the leaver's seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.engine.cards import parse_cards
from cardtui.engine.rummy.meld_hints import meld_hints
from cardtui.engine.rummy.melds import CACHETA, PIFPAF, GroupRule, Ruleset
from cardtui.server.actor.rematch import Choice, agreed, outcome, swapped
from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, table_pb2, table_pb2_grpc
from tests.conftest import QUICK_CUTS, Player, create, kind, next_hand_now
from tests.waiting import PATIENCE


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[Running]:
    """The suite's server, with no rate on moves: these players act as fast as the table lets them, and a vote
    after a match must not meet the limit their moves used up (the limit has tests of its own)."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=QUICK_CUTS, limits=Limits(acts_per_second=1e6))
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def play_to_match_end(players: list[Player]) -> None:
    """Everyone all in, until the match is over (3 chips: a few hands)."""
    async def loop() -> None:
        while True:
            done = 0
            for p in players:
                view = p.last_view
                if view is not None and view.match_over:
                    done += 1
                    continue
                if view is None or not view.legal or p.seat not in view.to_act:
                    continue
                legal = list(view.legal)
                pick = next((a for a in legal if a.type in (common_pb2.ACTION_TYPE_BET, common_pb2.ACTION_TYPE_RAISE)),
                            None) or next((a for a in legal if a.type in (common_pb2.ACTION_TYPE_CALL,
                                                                          common_pb2.ACTION_TYPE_CHECK)), legal[0])
                action = common_pb2.Action()
                action.CopyFrom(pick)
                if action.max_chips:
                    action.chips, action.max_chips = action.max_chips, 0
                with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on: look again
                    await p.act(action)
            if done == len(players):
                return
            for p in players:
                p.changed.clear()
            await asyncio.wait([asyncio.ensure_future(p.changed.wait()) for p in players], timeout=0.5,
                               return_when=asyncio.FIRST_COMPLETED)

    await asyncio.wait_for(loop(), 4 * PATIENCE)  # a bound for a broken test, not a pace: a busy machine is slow


async def rematch(p: Player, choice: int) -> None:
    assert p.channel is not None
    await table_pb2_grpc.TableStub(p.channel).Rematch(table_pb2.RematchRequest(token=p.token, choice=choice))


def started_matches(p: Player) -> list[table_pb2.MatchStarted]:
    return [e.match_started for e in p.events if kind(e) == "match_started"]


async def two_at_the_end(server: Running) -> tuple[str, Player, Player]:
    table_id = await create(server, game="cacho", seats=3, bots=1, turn_seconds=3600,
                            options={"chips": common_pb2.OptionValue(number=3)})
    address = f"127.0.0.1:{server.port}"
    ana = await Player(address).join(table_id, "ana")
    bia = await Player(address).join(table_id, "bia")
    ana.subscribe()
    bia.subscribe()
    await play_to_match_end([ana, bia])
    return table_id, ana, bia


async def test_everyone_staying_with_the_seats_swapped(server: Running) -> None:
    table_id, ana, bia = await two_at_the_end(server)
    table = server.room.tables[table_id]
    assert table.votes == {}, "the match's end asks who stays"
    before = (ana.seat, bia.seat)
    await rematch(ana, table_pb2.REMATCH_CHOICE_SWAP)
    await ana.wait_for(lambda _p: any(kind(e) == "rematch_voted" for e in ana.events))
    assert len(started_matches(ana)) == 1, "one answer of two: the match waits"
    await rematch(bia, table_pb2.REMATCH_CHOICE_SWAP)
    await ana.wait_for(lambda _p: len(started_matches(ana)) == 2, timeout=10)
    moved = list(started_matches(ana)[-1].seats_from)
    assert moved == list(swapped(3, False)) == [2, 1, 0]
    for p, old in zip((ana, bia), before, strict=True):
        new = moved.index(old)
        assert server.room.find(p.token).seat == new  # type: ignore[union-attr]
        await p.wait_for(lambda _p, p=p, new=new: p.last_view is not None and p.last_view.you == new)
    names = [s.name for s in table.seating.seats]
    assert names[moved.index(before[0])] == "ana" and names[moved.index(before[1])] == "bia"
    assert table.votes is None
    await ana.close()
    await bia.close()


async def test_a_leaver_leaves_the_seat_to_a_bot_and_the_one_staying_starts_it(server: Running) -> None:
    table_id, ana, bia = await two_at_the_end(server)
    table = server.room.tables[table_id]
    await leave(server, bia)
    await rematch(ana, table_pb2.REMATCH_CHOICE_SAME)
    await ana.wait_for(lambda _p: len(started_matches(ana)) == 2, timeout=10)
    assert not started_matches(ana)[-1].seats_from, "the same seats"
    seat = table.seating[bia.seat]
    assert seat.bot and not seat.taken, "a bot plays the leaver's seat, open to a newcomer"
    voted = [e.rematch_voted for e in ana.events if kind(e) == "rematch_voted"]
    assert [(v.name, v.choice) for v in voted] == [("ana", table_pb2.REMATCH_CHOICE_SAME)]
    # Asked outside a match's end: refused with a sentence.
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rematch(ana, table_pb2.REMATCH_CHOICE_SAME)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "match ends" in (err.value.details() or "")
    await ana.close()


async def test_when_the_time_runs_out_what_most_asked_for_starts_and_the_silent_stay(server: Running) -> None:
    """Ana asks for the seats swapped, bia says nothing: when the table's time for it runs out, the
    match starts as most asked (the seats swapped), bia seated in it like everyone who said nothing."""
    table_id, ana, bia = await two_at_the_end(server)
    table = server.room.tables[table_id]
    await rematch(ana, table_pb2.REMATCH_CHOICE_SWAP)
    await ana.wait_for(lambda _p: any(kind(e) == "rematch_voted" for e in ana.events))
    assert len(started_matches(ana)) == 1, "bia has not answered: the match waits"
    next_hand_now(table)  # the time for it runs out
    await bia.wait_for(lambda _p: len(started_matches(bia)) == 2, timeout=10)
    assert list(started_matches(bia)[-1].seats_from) == [2, 1, 0]
    held = server.room.find(bia.token)
    assert held is not None and table.seating[held.seat].name == "bia" and not table.seating[held.seat].bot
    await ana.close()
    await bia.close()


async def test_a_one_to_one_vote_starts_the_same_seats_and_the_log_says_why(server: Running) -> None:
    """Ana asks for the same seats, bia for the seats swapped: when the time runs out, the tie keeps the seats,
    and the match's first line says so, with who asked for it and the count, in the reader's language."""
    from cardtui.client.models import TableModel
    from cardtui.client.words import event_words
    from cardtui.i18n import _, speaking

    table_id, ana, bia = await two_at_the_end(server)
    table = server.room.tables[table_id]
    await rematch(ana, table_pb2.REMATCH_CHOICE_SAME)
    await rematch(bia, table_pb2.REMATCH_CHOICE_SWAP)
    await ana.wait_for(lambda _p: sum(kind(e) == "rematch_voted" for e in ana.events) == 2)
    assert len(started_matches(ana)) == 1, "they do not agree: the match waits for the time to run out"
    next_hand_now(table)
    await bia.wait_for(lambda _p: len(started_matches(bia)) == 2, timeout=10)
    started = next(e for e in reversed(bia.events) if kind(e) == "match_started")
    body = started.match_started
    assert not body.seats_from and body.asked and not body.agreed
    assert (body.same_votes, body.swap_votes, list(body.chosen_by)) == (1, 1, ["ana"])
    for lang in ("en", "pt_BR", "es"):
        with speaking(lang):
            said = event_words(TableModel(common_pb2.TableSummary(id=table_id, game="cacho"), bia.seat), started)
            assert said is not None
            assert said.text.plain == _("Game {n} begins: the same seats, as {names} asked ({won} to {lost}: a tie "
                                        "keeps the seats).").format(n=2, names="ana", won=1, lost=1)
            assert lang == "en" or not said.text.plain.startswith("Game"), "said in the reader's language"
    with speaking("en"):
        said = event_words(TableModel(common_pb2.TableSummary(id=table_id, game="cacho"), bia.seat), started)
        assert said is not None and said.text.plain == "Game 2 begins: the same seats, as ana asked (1 to 1: a tie " \
            "keeps the seats)."
    # Both for the same: the next match starts at once, and says everyone asked.
    await play_to_match_end([ana, bia])
    await rematch(ana, table_pb2.REMATCH_CHOICE_SWAP)
    await rematch(bia, table_pb2.REMATCH_CHOICE_SWAP)
    await bia.wait_for(lambda _p: len(started_matches(bia)) == 3, timeout=10)
    body = started_matches(bia)[-1]
    assert body.agreed and (body.same_votes, body.swap_votes) == (0, 2) and body.seats_from
    with speaking("en"):
        said = event_words(TableModel(common_pb2.TableSummary(id=table_id, game="cacho"), bia.seat), next(
            e for e in reversed(bia.events) if kind(e) == "match_started"))
        assert said is not None and said.text.plain == "Game 3 begins: the seats swapped, as everyone asked."
    await ana.close()
    await bia.close()


async def leave(server: Running, p: Player) -> None:
    from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

    assert p.channel is not None
    await lobby_pb2_grpc.LobbyStub(p.channel).Leave(lobby_pb2.LeaveRequest(token=p.token))


def test_what_the_votes_decide() -> None:
    assert swapped(4, True) == (0, 2, 1, 3), "partners change: 0 and 2 played together, now 0 and 1"
    assert swapped(6, True) == (0, 2, 1, 3, 4, 5)
    assert swapped(2, True) == swapped(2, False) == (1, 0)
    assert agreed({0: Choice.SAME}, [0, 1]) is None and agreed({0: Choice.SAME, 1: Choice.SWAP}, [0, 1]) is None
    assert agreed({0: Choice.SWAP, 1: Choice.SWAP}, [0, 1]) is Choice.SWAP
    assert outcome({}) is Choice.SAME and outcome({0: Choice.SWAP, 1: Choice.SAME}) is Choice.SAME
    assert outcome({0: Choice.SWAP, 1: Choice.SWAP, 2: Choice.SAME}) is Choice.SWAP


async def phrase(p: Player, number: int, text: str = "") -> None:
    assert p.channel is not None
    await table_pb2_grpc.TableStub(p.channel).Chat(table_pb2.ChatRequest(token=p.token, phrase=number, text=text))


async def test_quick_phrases_follow_the_chat_rules(server: Running) -> None:
    address = f"127.0.0.1:{server.port}"
    cacho = await create(server, game="cacho", seats=3, bots=1, bot_delay_ms=60_000)
    ana = await Player(address).join(cacho, "ana")
    ana.subscribe()
    await ana.wait_for(lambda _p: _p.last_view is not None)  # the stream is open: what follows reaches it
    await phrase(ana, table_pb2.PHRASE_GOOD_GAME)
    await ana.wait_for(lambda _p: any(kind(e) == "chatted" for e in ana.events))
    said = next(e.chatted for e in ana.events if kind(e) == "chatted")
    assert said.phrase == table_pb2.PHRASE_GOOD_GAME and said.text == "", "a number, said in each reader's words"
    for number, text in ((99, ""), (table_pb2.PHRASE_OOPS, "psst: I hold three sixes")):
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await phrase(ana, number, text)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    # Truco paulista keeps its players silent during a hand: no phrase either.
    paulista = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000,
                            options={"chat": common_pb2.OptionValue(choice="spectators-and-between-hands")})
    bia = await Player(address).join(paulista, "bia")
    bia.subscribe()
    await bia.wait_for(lambda _p: bia.last_view is not None and bia.last_view.WhichOneof("game") == "truco")
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await phrase(bia, table_pb2.PHRASE_TRUCO)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "between hands" in (err.value.details() or "")
    await ana.close()
    await bia.close()


def test_meld_hints_come_from_the_hand_alone() -> None:
    hand = parse_cards("5H 6H 7H 7S 7D KC 2C 9D QS JD")
    hints = meld_hints(parse_cards("7H")[0], hand, PIFPAF)
    told = [(" ".join(map(str, h.cards)), " ".join(map(str, h.needs))) for h in hints]
    assert told == [("5H 6H 7H", ""), ("7S 7H 7D", ""),  # the melds it makes, then what one more card would
                    ("6H 7H", "8H"), ("7S 7H", "7C"), ("7H 7D", "7C")], told
    assert all(c not in hand for h in hints for c in h.needs), "a card needed is one not held"
    with pytest.raises(ValueError, match="not in the hand"):
        meld_hints(parse_cards("8H")[0], hand, PIFPAF)
    # Cacheta's wild card joins what it may act in.
    wild_hand = parse_cards("4C 5C 9H 9S AD 2D 3S 8H 10C KH")
    wilds = parse_cards("9H 9D")
    hints = meld_hints(parse_cards("9H")[0], wild_hand, CACHETA, wilds)
    assert [" ".join(map(str, h.cards)) for h in hints if not h.needs] == ["AD 2D 9H", "4C 5C 9H"]
    assert not [h for h in meld_hints(parse_cards("9H")[0], wild_hand, CACHETA) if not h.needs], "9H a plain card"


@pytest.mark.parametrize(("pack", "with_jack"), [("spanish40", {"7o 11o": "10o"}), ("spanish48", {})])
def test_meld_hints_on_a_spanish_pack_name_its_own_cards(pack: str, with_jack: dict[str, str]) -> None:
    """Hints on a Spanish pack name the cards of that pack: the 4 of oros between the 3 and the 5; and the 7 and
    the jack of oros are a 10 from a run in a pack of 40 (no 8 or 9), nothing in one of 48."""
    rules = Ruleset(GroupRule.DISTINCT, ace_high=False, wild_acts=False, pack=pack)
    hand = parse_cards("3b 3o 3c 2o 5o 6e 7o 11o")

    def told(card: str) -> dict[str, str]:
        return {" ".join(map(str, h.cards)): " ".join(map(str, h.needs))
                for h in meld_hints(parse_cards(card)[0], hand, rules)}

    assert told("5o") == {"3o 5o": "4o", "5o 7o": "6o"}, told("5o")
    assert told("7o") == {"5o 7o": "6o", **with_jack}, told("7o")
    assert told("6e") == {}, "the 6 of espadas pairs with nothing held"


async def test_a_hint_is_refused_where_there_are_no_melds(server: Running) -> None:
    cacho = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000)
    ana = await Player(f"127.0.0.1:{server.port}").join(cacho, "ana")
    assert ana.channel is not None
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await table_pb2_grpc.TableStub(ana.channel).Hint(table_pb2.HintRequest(token=ana.token, card="AS"))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "rummy games" in (
        err.value.details() or "")
    await ana.close()


async def test_a_hint_tells_of_the_askers_own_cards_only(server: Running) -> None:
    """A card of someone else's, a card that is no card, a spectator asking: each refused with a sentence."""
    table_id = await create(server, game="cacheta", seats=2, bots=1, bot_delay_ms=60_000)
    address = f"127.0.0.1:{server.port}"
    ana = await Player(address).join(table_id, "ana")
    ana.subscribe()
    await ana.wait_for(lambda p: p.last_view is not None and len(p.last_view.rummy.cards) >= 9)
    assert ana.channel is not None and ana.last_view is not None
    stub = table_pb2_grpc.TableStub(ana.channel)
    mine = list(ana.last_view.rummy.cards)
    told = await stub.Hint(table_pb2.HintRequest(token=ana.token, card=mine[0]))
    assert all(mine[0] in m.cards and set(m.cards) <= set(mine) for m in told.melds), "its melds are of her cards"
    assert all(c not in mine for m in told.melds for c in m.needs)
    table = server.room.tables[table_id]
    assert table.match is not None
    bots = next(s.index for s in table.seating.seats if s.bot)
    theirs = next(str(c) for c in table.match.view(bots).cards if str(c) not in mine)  # type: ignore[attr-defined]
    for card, code, words in ((theirs, grpc.StatusCode.FAILED_PRECONDITION, "not in your hand"),
                              ("ZZ", grpc.StatusCode.INVALID_ARGUMENT, "not a card")):
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.Hint(table_pb2.HintRequest(token=ana.token, card=card))
        assert err.value.code() == code and words in (err.value.details() or ""), err.value.details()
    eve = await Player(address).spectate(table_id, "eve")
    assert eve.channel is not None
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await table_pb2_grpc.TableStub(eve.channel).Hint(table_pb2.HintRequest(token=eve.token, card=mine[0]))
    assert err.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.FAILED_PRECONDITION)
    assert "watch" in (err.value.details() or "").lower() or "seat" in (err.value.details() or "").lower(), \
        err.value.details()
    await ana.close()
    await eve.close()
