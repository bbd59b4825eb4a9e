"""Chinchón in the matrix (``tests/test_matrix.py``, whose fixtures hold this module too: each method a test's
``rpcs`` mark names was called, and no process of the arrangement logs an error): a table of it at each moment a
person may sit, in each arrangement."""

from __future__ import annotations

import contextlib
from collections import Counter

import grpc
import pytest

from cardtui.client.fairness import Standing
from cardtui.fair import PACKS
from cardtui.v1 import table_pb2
from tests.arrangements import Arrangement, Person, make_table
from tests.test_matrix import (  # noqa: F401  (calls, quiet_servers: the matrix's fixtures, here too)
    calls,
    closing,
    deals_seen,
    fair_hand,
    hand_over,
    no_false_alarm,
    play_rummy_hand,
    quiet_servers,
    rummy_move,
    without_me,
)


@pytest.mark.rpcs("Lobby/CreateTable", "Lobby/JoinTable", "Lobby/Spectate", "Lobby/Leave", "Table/Subscribe",
                  "Table/Cut", "Table/Act", "Table/Hint", "Lobby/CloseTable", "Lobby/ListHands", "Lobby/Replay",
                  "Lobby/Analyze", "Table/Chat", "Lobby/PlayerCard", "Lobby/Invite", "Lobby/OpenInvite",
                  "Lobby/ListTables", "Lobby/Leaderboard")
async def test_a_chinchon_table_at_each_moment_a_person_sits(arrangement: Arrangement) -> None:
    """Chinchón, three seats, one a bot's. ana sits before the first deal and bia fills the last seat: both check
    the first deal fair, ana and wes (watching) talk there (a chat line, a quick phrase, a seat's card, an invite
    and its code, the lists), and ana's meld hint on a card of hers is worked out on the Spanish pack where the table is
    served (a card of the pack she does not hold is refused). Between hands bia leaves, cris takes her seat, and
    the process driving the table is killed -9 before he opens it (the table comes back from its journal): his
    first view is what a watcher sees (none of bia's cards is his), and the deal he came too late to cut is grey. In
    the next hand cris draws and throws, then leaves, and dan sits there mid-hand: he holds the seat's cards and the
    hand so far, none of what was private to cris (the cards dealt to it, the card it drew), and his client says it
    came mid-way, no alarm. ana closes her table: its hands are listed and replayed face up, and a seat's decisions
    in one of them analysed."""
    ana = Person.at(arrangement, "ana", cuts=False)  # holds the table between hands by keeping her seed back
    table_id = await make_table(arrangement, ana, game="chinchon", seats=3, bots=1, turn_seconds=3600)
    bia, cris, dan = Person.at(arrangement, "bia"), Person.at(arrangement, "cris"), Person.at(arrangement, "dan")
    wes = Person.at(arrangement, "wes")
    everyone = [ana, bia, cris, dan, wes]
    try:
        await ana.sit(table_id)
        ana.follow()
        await ana.until(lambda p: p.snapshots, "the table opens")
        assert ana.snapshots[0].view.HasField("waiting"), "ana sat before the first deal"
        await wes.watch(table_id)
        wes.follow()
        await bia.sit(table_id)  # the last seat: the match starts
        bia.follow()
        await ana.until(lambda p: p.fair.watch is not None and p.fair.watch.hand == 1, "the first commitment")
        await ana.cut()
        # The next deal waits for ana's seed: until she cuts again, the cards in her view are hand 1's.
        await ana.until(lambda p: p.view is not None and p.view.hand == 1 and p.view.rummy.cards, "ana's cards")
        assert ana.view is not None
        mine = list(ana.view.rummy.cards)
        hint = await ana.conn.hint(ana.token, mine[0])
        assert all(mine[0] in meld.cards and set(meld.cards) <= set(mine) for meld in hint.melds), hint
        with pytest.raises(grpc.aio.AioRpcError) as not_hers:
            await ana.conn.hint(ana.token, next(c for c in PACKS[ana.view.rummy.table.pack] if c not in mine))
        assert not_hers.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        # the room's talk at this table, wherever it is served: a chat line, a quick phrase, a seat's card, an
        # invite and its code, the lists
        await ana.conn.chat(ana.token, "suerte")
        await wes.until(lambda p: any(e.chatted.text == "suerte" for e in p.events if e.HasField("chatted")),
                        "ana's line")
        await wes.conn.phrase(wes.token, table_pb2.PHRASE_GOOD_GAME)
        await ana.until(lambda p: any(e.chatted.phrase == table_pb2.PHRASE_GOOD_GAME and e.chatted.name == "wes"
                                      for e in p.events if e.HasField("chatted")), "wes's phrase")
        assert (await wes.conn.player_card(table_id=table_id, seat=ana.seat)).name == "ana"
        invite = await ana.conn.invite(table_id)
        assert invite.code and (await wes.conn.open_invite(invite.code)).table.id == table_id
        assert table_id in {t.id for t in await wes.conn.tables()}
        await ana.conn.leaderboard("chinchon")
        await play_rummy_hand([ana, bia], 1)
        for p in (ana, bia):
            fair_hand(p, 1)
        assert any("turned up to start the pile" in line for line in bia.log()), bia.log()

        # between hands: the second deal waits for ana's seed
        await ana.until(lambda p: 2 in deals_seen(p), "the second deal's commitment")
        await bia.until(lambda p: p.fair.watch is not None and p.fair.watch.hand == 2, "the second commitment")
        await bia.leave()
        await cris.sit(table_id)
        assert cris.seat == bia.seat
        arrangement.kill(arrangement.pid_at(cris.conn.routes[cris.token]))  # and the table comes back from its journal
        await wes.until(lambda p: len(p.snapshots) >= 2, "the table back")
        cris.follow()
        await cris.until(lambda p: p.snapshots, "the table opens")
        first = cris.snapshots[0].view
        assert first.hand_over and first.you == cris.seat and not first.rummy.cards, first.rummy
        await wes.until(lambda p: any(e.HasField("joined") and e.joined.name == "cris" for e in p.events),
                        "cris sits")
        assert wes.view is not None and without_me(first) == without_me(wes.view), "more than a watcher's"
        await ana.cut()
        await play_rummy_hand([ana, cris], 2)
        [late] = cris.verdicts
        assert late.standing is Standing.UNASKED, late

        # mid-hand: cris draws and throws, then leaves; dan sits in his seat
        await ana.until(lambda p: 3 in deals_seen(p), "the third deal's commitment")
        await ana.cut()
        await cris.until(lambda p: len([e for e in p.events if e.HasField("cards_dealt")]) >= 2, "cris's cards")

        dealt = max(e.seq for e in cris.events if e.HasField("cards_dealt"))

        def cris_threw(p: Person) -> bool:
            return hand_over(p) or any(e.HasField("rummy") and e.rummy.HasField("discarded")
                                       and e.rummy.discarded.seat == cris.seat and e.seq > dealt for e in p.events)

        while not cris_threw(ana):
            mover = await ana.until(lambda p: cris_threw(p) or next((q for q in (ana, cris) if rummy_move(q)), None),
                                    "a move, or cris's throw")
            if isinstance(mover, Person):
                seen = mover.last_seq
                with contextlib.suppress(grpc.aio.AioRpcError):
                    await mover.conn.act(mover.token, rummy_move(mover), seen)
                await mover.until(lambda p, seen=seen: p.last_seq > seen, "the move seen")
        await cris.leave()
        await dan.sit(table_id)
        assert dan.seat == cris.seat
        dan.follow()
        await dan.until(lambda p: any(e.HasField("joined") and e.joined.name == "dan" for e in p.events),
                        "the hand so far")
        view = dan.snapshots[0].view
        if not view.hand_over:  # the seat's cards are dan's to play now, and he sees them
            assert len(view.rummy.cards) == view.rummy.seats[dan.seat].card_count == 7, view.rummy
        replayed = [e for e in dan.events if e.replay]
        assert not [e for e in replayed if e.HasField("cards_dealt")], "dan got the cards dealt to cris"
        assert not [e for e in replayed if e.HasField("rummy") and e.rummy.HasField("drawn_card")], (
            "dan got the card cris drew")
        await play_rummy_hand([ana, dan], 3, [ana])
        if not view.hand_over:
            await dan.until(lambda p: p.verdicts, "the deal checked")
            assert dan.verdicts[0].standing in (Standing.UNCHECKED, Standing.UNASKED), dan.verdicts[0]
        no_false_alarm(*everyone)

        # ana closes her table: its hands are listed and replayed face up through her lobby, and one seat's
        # decisions in one of them analysed where the room analyses (the seat of the fewest moves: a long hand's
        # analysis is a minute of a busy host)
        await ana.conn.close_table(table_id)
        listed = await ana.conn.list_hands(table_id)
        assert listed.table.id == table_id and {1, 2} <= {h.hand for h in listed.hands}, listed
        replays = {h.hand: await ana.conn.replay(table_id, h.hand) for h in listed.hands}
        steps = replays[1]
        first = steps[0].view.rummy if steps else None
        assert steps[0].hand.hand == 1 and first is not None and [len(s.cards) for s in first.seats] == [7, 7, 7], steps
        moved = Counter((hand, step.seat) for hand, played in replays.items()
                        for step in played if step.HasField("seat"))
        hand, seat = min((key for key, n in moved.items() if n >= 2), key=lambda key: moved[key])
        analysis = None
        async for update in ana.conn.analyze(table_id, hand, seat=seat):
            if update.HasField("analysis"):
                analysis = update.analysis
        assert analysis is not None and analysis.moments, analysis
        assert {m.seat for m in analysis.moments} == {seat}, analysis
    finally:
        await closing(everyone)


