"""At the table, under Pilot on a real server: the bell at your turn, quick phrases, meld hints,
playing again with the seats swapped, and the host's first screen.

The bell rings once for each turn of the player's (a count checked against the turns the server
gave them), never for a bot's turn nor at a spectator's screen, and only once turned on (ctrl+g),
which the next client remembers.
"""

from __future__ import annotations

import asyncio
import dataclasses

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.screens.invite import InviteScreen
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.phrase import PhraseScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.turn_bell import bell_on, my_turn, window_title
from cardtui.i18n import speaking
from cardtui.server.actor.rematch import swapped
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, table_pb2
from tests.client.test_table_flow import SMALL, log_text
from tests.client.waiting import in_lobby, settled, until
from tests.conftest import PATIENT_CUTS, Player, bots_wait, create


async def test_the_bell_rings_once_per_turn_and_never_for_anyone_elses(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=2, turn_seconds=3600, bot_delay_ms=50,
                            options={"chips": common_pb2.OptionValue(number=20)})
    assert not bell_on(), "off by default"
    app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=True)
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await pilot.press("ctrl+g")
        assert app.bell_on and bell_on(), "turned on, and kept for the next client"
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        bar = screen.query_one(ActionBar)
        table = server.room.tables[table_id]
        mine = 0
        while mine < 6:
            await until(pilot, lambda: screen.summary_open or (my_turn(screen.model) and bool(bar.choices)
                                                               and not bar.disabled), "a summary, or ana's turn")
            await settled(pilot)
            if screen.summary_open:
                await pilot.press("enter")
                await until(pilot, lambda: not screen.summary_open, "the summary closed")
                continue
            if not (my_turn(screen.model) and bar.choices and not bar.disabled):
                continue
            assert screen.model.seat is not None
            assert "your turn" in window_title(screen.model, 12.0), "the countdown is in the window title"
            kinds = [common_pb2.ActionType.Name(g[0].type) for g in bar.choices]
            pick = next((i for i, k in enumerate(kinds) if k.endswith(("CHECK", "CALL", "PASS"))), 0)
            seq = screen.model.seq
            await pilot.press(bar.keys[pick])
            mine += 1
            await until(pilot, lambda seq=seq: screen.model.seq > seq, "the table to take the move")
        # The bots stand still: the count is taken once the screen has seen all the table said.
        bots_wait(table)
        await until(pilot, lambda: screen.model.seq >= table.seq, "the screen to catch up with the table")
        await settled(pilot)
        seat = screen.model.seat
        assert seat is not None
        acted = sum(1 for _seq, _mask, _holders, body in table.fanout.buffer
                    if (e := table_pb2.Event.FromString(body)).WhichOneof("body") == "acted" and e.acted.seat == seat)
        waiting = 1 if my_turn(screen.model) else 0
        assert screen.rung == acted + waiting, (screen.rung, acted, waiting)
    bots_wait(table, 0.05)
    # A spectator's screen never rings, however many turns go by (the bell on all the same).
    watcher = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id, own_config=True)
    async with watcher.run_test(size=SMALL) as pilot:
        assert watcher.bell_on, "remembered from the last client"
        await until(pilot, lambda: isinstance(watcher.screen, TableScreen))
        view = watcher.screen
        assert isinstance(view, TableScreen)
        start = view.model.seq
        await until(pilot, lambda: view.model.seq > start + 3, "the bots' moves")
        assert view.rung == 0


async def test_a_phrase_arrives_in_the_readers_language_and_a_silent_table_refuses_it(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=1, bot_delay_ms=60_000)
    bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
    with speaking("pt_BR"):
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            await in_lobby(pilot)
            await app.open_table(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.online)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await pilot.press("exclamation_mark")
            await until(pilot, lambda: isinstance(app.screen, PhraseScreen))
            assert "Truco!" not in str(app.screen.phrases), "no truco phrase at Cacho"  # type: ignore[attr-defined]
            await pilot.press("3")  # Hurry up
            await until(pilot, lambda: "ana: Anda logo" in log_text(screen))
            assert bia.channel is not None
            from cardtui.v1 import table_pb2_grpc

            await table_pb2_grpc.TableStub(bia.channel).Chat(
                table_pb2.ChatRequest(token=bia.token, phrase=table_pb2.PHRASE_GOOD_GAME))
            await until(pilot, lambda: "bia: Bom jogo" in log_text(screen))
    await bia.close()


async def test_the_hosts_first_screen_is_the_rooms_invite(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "host", room_invite=True)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InviteScreen) and app.screen.invite is not None)
        text = str(app.screen.query_one("#invite-text").render())
        assert f"cardtui connect 127.0.0.1:{server.port}\n" in text
        assert "this machine only" in text, "a server on 127.0.0.1 says friends cannot reach it"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_meld_hint_for_the_picked_card(server: Running) -> None:
    table_id = await create(server, game="cacheta", seats=2, bots=1, turn_seconds=3600, bot_delay_ms=60_000)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.model.view is not None
                    and app.screen.model.view.WhichOneof("game") == "rummy"
                    and len(app.screen.model.view.rummy.cards) >= 9)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.board.focus()
        await pilot.press("right", "h")
        await until(pilot, lambda: "Meld hint," in log_text(screen))


def test_a_turn_rings_once_however_many_views_it_lasts() -> None:
    from cardtui.client.models import TableModel
    from cardtui.client.turn_bell import TurnNotice
    from cardtui.v1 import common_pb2 as c

    summary = c.TableSummary(id="t", game="cacho")
    legal = [c.Action(type=c.ACTION_TYPE_CHECK)]

    def at(to_act: list[int], seat: int | None = 0) -> TableModel:
        return TableModel(summary, seat).with_view(table_pb2.View(to_act=to_act, legal=legal if seat in to_act
                                                                  else []), 1)

    notice = TurnNotice()
    rang = [notice.rings(m) for m in (at([1]), at([0]), at([0]), at([0, 2]), at([1]), at([0]))]
    assert rang == [False, True, False, False, False, True], "once as each turn begins, not at each view"
    away = [c.SeatSummary(seat=0, name="ana", bot=True, taken=True, away=True)]
    gone = TurnNotice()
    assert not any(gone.rings(TableModel(summary, 0).with_view(table_pb2.View(to_act=[0], legal=legal, seats=away), 1))
                   for _ in range(2)), "a bot plays the seat of a player away: it does not wait on them"
    spectator = TurnNotice()
    assert not any(spectator.rings(at([0, 1], seat=None)) for _ in range(3)), "a spectator's never rings"


async def test_again_with_the_seats_swapped_after_a_friend_left(server: Running) -> None:
    """Ana and bia play a match out, one against one (3 chips: a few hands); bia leaves, and ana's
    summary says a bot takes her seat; ana asks for the seats swapped and, the only one staying,
    starts the next match at once: her screen follows her to her new seat, and plays it."""
    from tests.client.test_table_flow import summary_shown, text_of
    from tests.client.waiting import at_table, play_by_keys
    from tests.server.test_rematch import leave, play_to_match_end

    table_id = await create(server, game="cacho", seats=2, bots=0, turn_seconds=3600,
                            options={"chips": common_pb2.OptionValue(number=3)})
    bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
    bia.subscribe()
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot)
        playing = asyncio.create_task(play_to_match_end([bia]))
        await play_by_keys(pilot, lambda: screen.model.view is not None and screen.model.view.match_over)
        await playing
        await until(pilot, lambda: summary_shown(screen) and "Again?" in text_of(screen, "#summary-body"))
        first = text_of(screen, "#summary-body").split("\n")[0]  # the summary's first line
        assert "Again?" in first and "you: not yet" in first and "bia: not yet" in first, first
        await leave(server, bia)
        await until(pilot, lambda: "bia leaves: a bot takes the seat" in text_of(screen, "#summary-body"),
                    lambda: text_of(screen, "#summary-body"))
        before = screen.seat
        assert before is not None
        table = server.room.tables[table_id]
        # ana alone is seated now: each deal of the next match waits for her seed, however long a busy
        # machine takes to send it (her client's check of it is what the test reads at the end)
        table.config = dataclasses.replace(table.config, cut_window=PATIENT_CUTS)
        started_at = table.seq
        await pilot.press("w")
        begins = "Game 2 begins: the seats swapped, as everyone asked."  # ana, the only one staying, asked it
        await until(pilot, lambda: begins in log_text(screen), lambda: log_text(screen))
        assert "ana: again, the seats swapped." in log_text(screen)
        game2 = log_text(screen).split(begins)[1]
        assert "You receive" in game2 and "ana is dealt" not in game2, "her own cards, told to her at her new seat"
        now = swapped(2, False).index(before)
        assert now != before
        held = server.room.find(screen.token)
        assert held is not None and held.seat == now == screen.seat, (before, now, screen.seat)
        await until(pilot, lambda: not summary_shown(screen) and screen.model.view is not None
                    and screen.model.view.you == now, "the new match's view of ana's new seat")
        assert screen.sub_title == f"seat {now + 1}"

        def played_there() -> bool:  # a move of ana's new seat in the new match
            return any(seq > started_at and (e := table_pb2.Event.FromString(body)).WhichOneof("body") == "acted"
                       and e.acted.seat == now for seq, _mask, _holders, body in table.fanout.buffer)

        await play_by_keys(pilot, played_there)
        # The new match's first hand checked as ana's own deal at her new seat: it checks out.
        await play_by_keys(pilot, lambda: "✔ Hand 1" in log_text(screen).split("the seats swapped.")[-1]
                           or "does not check out" in log_text(screen))
        assert "does not check out" not in log_text(screen), log_text(screen)
    await bia.close()


def test_who_held_each_seat_across_a_swap() -> None:
    """A batch that swaps the seats: its events before the new match are told as the seats were held
    then, those after as they are held now, the viewer's own included."""
    from cardtui.client.models import names_then
    from cardtui.client.rematch import seat_after

    def ev(**body: object) -> table_pb2.Event:
        return table_pb2.Event(**body)  # type: ignore[arg-type]

    events = [ev(rematch_voted=table_pb2.RematchVoted(seat=0, name="ana", choice=table_pb2.REMATCH_CHOICE_SWAP)),
              ev(match_started=table_pb2.MatchStarted(match=2, seats_from=[2, 1, 0])),
              ev(cards_dealt=table_pb2.CardsDealt(seat=2))]
    now = {0: ("caio", False), 1: ("bia", False), 2: ("ana", False)}
    me = seat_after(events, 0)
    assert me == 2
    before, started, dealt = names_then(events, now, me)
    assert (before.seat, before.names[0], before.names[2]) == (0, "ana", "caio"), "as they sat before"
    assert (dealt.seat, dealt.names[2]) == (2, "ana"), "ana's cards, dealt to her new seat, are hers"
    assert started.names == dealt.names
    # followed once for the screen and the line mode alike (``TableState``): each event told as the seats were held
    # then, and the player's seat moved with the swap once the batch is in
    from cardtui.client.fairness import FairDeals
    from cardtui.client.models import TableModel
    from cardtui.client.table_state import TableState

    table = TableState()
    table.model, table.holders, table.fair = TableModel(common_pb2.TableSummary(), 0), now, FairDeals()
    told: list[tuple[int | None, str]] = []
    msg = table_pb2.TableMessage(seq=1, update=table_pb2.Update(events=events))
    assert table.track(msg, lambda _ev, _then, model: told.append((model.seat, model.names[2]))) == []
    assert told == [(t.seat, t.names[2]) for t in (before, started, dealt)]
    assert table.model.seat == 2, "the player's seat follows the swap"
