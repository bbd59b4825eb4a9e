"""Records: ratings move as openskill says after a match; hands, wins, pots and truco calls are counted.

The expectations come from the library itself (called here with the match's result) and from
the stored hand histories, never from rating maths written here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from statistics import fmean
from typing import Any

import grpc
from openskill.models import PlackettLuce

from cardtui.identity import Identity, create
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, players_pb2, table_pb2
from tests.conftest import Player, started
from tests.server.test_identity import prove
from tests.waiting import PATIENCE, eventually, eventually_async

PREFERRED = (common_pb2.ACTION_TYPE_BET, common_pb2.ACTION_TYPE_RAISE, common_pb2.ACTION_TYPE_CALL,
             common_pb2.ACTION_TYPE_CHECK)
TRUCO_CALLS = ("truco", "seis", "nove", "doze")


def boldest(acts: Sequence[common_pb2.Action]) -> common_pb2.Action:
    """Bet or raise all there is, else call, else check: a match of few hands."""
    for kind in PREFERRED:
        of_kind = [a for a in acts if a.type == kind]
        if of_kind:
            choice = max(of_kind, key=lambda a: a.chips)
            choice.max_chips = 0
            return choice
    return acts[0]


async def sit(address: str, table_id: str, me: Identity, name: str) -> Player:
    p = Player(address)
    proved = await prove(p.lobby, me, name)
    joined = await p.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, session=proved.session,
                                                                 pledge=p.chain.pledge))
    p.token, p.seat = joined.token, joined.seat
    return p


def meekest(acts: Sequence[common_pb2.Action]) -> common_pb2.Action:
    """Stay out, else fold, else check, else the least there is: a hand that risks nothing."""
    for kind in (common_pb2.ACTION_TYPE_PASS, common_pb2.ACTION_TYPE_FOLD, common_pb2.ACTION_TYPE_CHECK):
        of_kind = [a for a in acts if a.type == kind]
        if of_kind:
            return of_kind[0]
    return min(acts, key=lambda a: a.chips)


async def play_out_the_match(players: Sequence[Player],
                             choose: Callable[[table_pb2.View], common_pb2.Action] | None = None,
                             ) -> table_pb2.View:
    """Each person plays from their own stream until the match is over: boldly, unless ``choose``. Each cuts
    every deal as soon as it is committed, as the client does (a deal waits for the people's seeds).

    The people share one address, and so one bucket of actions a second, which a match of quick bots can
    outrun: a refusal for the rate is tried again until the bucket has refilled and the server takes it, as a
    client's person would.
    Each acts once on each view their stream brings, as a client does, not again at every change of
    anyone's stream.

    The match may take any number of hands (its length has a long tail: once the people are out, two easy bots
    heads-up move a chip a hand or none, and matches of over a hundred hands come up), so what bounds it is
    silence: it fails only when no message came to anyone for ``PATIENCE`` seconds, a table that stopped."""
    loop = asyncio.get_running_loop()
    heard, heard_at = -1, loop.time()
    cut: list[set[int]] = [set() for _ in players]
    answered = [-1 for _ in players]
    """The index in each player's messages of the last view they acted on."""
    for p in players:
        p.cuts = False  # cut here, each taken for sure (tried again while the address's rate refuses it)
        p.subscribe()
    while True:
        for p, done in zip(players, cut, strict=True):
            for e in p.events:
                if not e.HasField("deal_committed") or not e.deal_committed.cut_ms or e.deal_committed.hand in done:
                    continue
                hand = e.deal_committed.hand
                await eventually_async(partial(cut_taken, p, hand), f"hand {hand}'s cut taken")
                done.add(hand)
        views = [p.last_view for p in players]
        if any(v is not None and v.match_over for v in views):
            return next(v for v in views if v is not None and v.match_over)
        for i, (p, v) in enumerate(zip(players, views, strict=True)):
            at = viewed_at(p)
            if v is None or not v.legal or v.hand_over or at == answered[i]:
                continue
            answered[i] = at
            action = choose(v) if choose is not None else boldest(v.legal)
            await eventually_async(partial(act_answered, p, action), "an act the rate allows")
        came, waiting = await asyncio.wait([asyncio.ensure_future(p.changed.wait()) for p in players], timeout=2,
                                           return_when=asyncio.FIRST_COMPLETED)
        for w in waiting:
            w.cancel()
        count = sum(len(p.messages) for p in players)
        if count != heard:
            heard, heard_at = count, loop.time()
        elif loop.time() - heard_at > PATIENCE:
            raise AssertionError(f"the table stopped: no message for {PATIENCE:.0f} s, the last view {views}")
        if not came:
            answered = [-1 for _ in players]  # nothing came for a while: look at every view again
        for p in players:
            p.changed.clear()


async def cut_taken(p: Player, hand: int) -> bool:
    """``p`` cuts ``hand``; False if the rate refused it (its address's bucket is empty for now)."""
    try:
        await p.table.Cut(table_pb2.CutRequest(token=p.token, hand=hand, seed=p.link(hand)))
    except grpc.aio.AioRpcError as err:
        if err.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED:
            raise
        return False
    return True


async def act_answered(p: Player, action: common_pb2.Action) -> bool:
    """``p`` acts; False only if the rate refused it. A refusal for anything else is an answer: the table
    moved on meanwhile, and the next view says what now."""
    try:
        await p.act(action)
    except grpc.aio.AioRpcError as err:
        return err.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED
    return True


def viewed_at(p: Player) -> int:
    """The index in ``p``'s messages of the last one that brought a view."""
    for i in range(len(p.messages) - 1, -1, -1):
        m = p.messages[i]
        if m.HasField("snapshot") or (m.HasField("update") and m.update.HasField("view")):
            return i
    return -1


async def new_table(lobby: lobby_pb2_grpc.LobbyStub, **fields: Any) -> lobby_pb2.CreatedTable:
    fields.setdefault("bot_levels", ["easy"])  # quick bots: the matches play out within the test's time
    return await lobby.CreateTable(lobby_pb2.CreateTableRequest(**fields))


def hands_of(running: Running, table_id: str, match: int = 1) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, running.store.hands.all(table_id)) if r.get("match") == match]


def places(hands: list[dict[str, Any]], n: int) -> list[int]:
    """Each seat's place from the histories alone: the last with chips first, then who ran out later."""
    out_at: dict[int, int] = {}
    for i, h in enumerate(hands, start=1):
        for s in range(n):
            if s not in out_at and h["start"][str(s)] + h["result"]["deltas"][str(s)] <= 0:
                out_at[s] = i
    last = len(hands) + 1
    lasted = [out_at.get(s, last) for s in range(n)]
    return [1 + sum(1 for t in range(n) if lasted[t] > lasted[s]) for s in range(n)]


def standing(board: players_pb2.LeaderboardResponse, name: str) -> players_pb2.Standing:
    return next(s for s in board.standings if s.name == name)


async def test_ratings_after_a_scripted_match_are_what_openskill_computes(server: Running, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    ana, bia = create(tmp_path / "ana.pem"), create(tmp_path / "bia.pem")
    async with grpc.aio.insecure_channel(address) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await new_table(lobby, game="cacho", seats=2, bots=0,
                               options={"chips": common_pb2.OptionValue(number=3)})
        table_id = made.table.id
        players = [await sit(address, table_id, ana, "ana"), await sit(address, table_id, bia, "bia")]
        final = await play_out_the_match(players)
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=made.owner_token))
        chips = {s.seat: s.chips for s in final.cacho.seats}
        winner = max(chips, key=lambda s: chips[s])
        names = {p.seat: n for p, n in zip(players, ("ana", "bia"), strict=True)}
        model = PlackettLuce()
        ranks = [1 if s == winner else 2 for s in (0, 1)]
        expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
        board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
        assert [s.name for s in board.standings] == [names[winner], names[1 - winner]]
        hands = hands_of(server, table_id)
        for seat in (0, 1):
            got = standing(board, names[seat])
            want = expected[seat][0]
            assert (got.rating.mu, got.rating.sigma) == (want.mu, want.sigma)
            assert got.rating.ordinal == want.ordinal()
            assert (got.stats.matches, got.stats.wins, got.stats.hands) == (1, int(seat == winner), len(hands))
            pots = [h["result"]["pot"] for h in hands if h["result"]["winner"] == seat]
            assert got.stats.biggest_pot == max(pots, default=0)
            assert not got.stats.HasField("truco_calls_won") and not got.bot
        assert standing(board, names[winner]).stats.biggest_pot == 6, "all six chips in the last hand"
        card = await lobby.PlayerCard(players_pb2.PlayerCardRequest(name=names[winner]))
        assert card.kind == players_pb2.PLAYER_KIND_PERSON and [g.game for g in card.games] == ["cacho"]
        assert card.games[0].place == 1 and card.games[0].stats == standing(board, names[winner]).stats
        assert not (await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="pifpaf"))).standings
    for p in players:
        await p.close()


async def test_bots_are_rated_by_level_against_the_people(server: Running, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    ana = create(tmp_path / "ana.pem")
    async with grpc.aio.insecure_channel(address) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await new_table(lobby, game="cacho", seats=3, bots=2,
                               options={"chips": common_pb2.OptionValue(number=3)})
        table_id = made.table.id
        me = await sit(address, table_id, ana, "ana")
        await play_out_the_match([me])
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=made.owner_token))
        hands = hands_of(server, table_id)
        ranks = places(hands, 3)
        model = PlackettLuce()
        after = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
        board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
        mine, bot = standing(board, "ana"), standing(board, "bot easy")
        assert bot.bot and not mine.bot and len(board.standings) == 2
        assert (mine.rating.mu, mine.rating.sigma) == (after[me.seat][0].mu, after[me.seat][0].sigma)
        bots = [after[s][0] for s in range(3) if s != me.seat]
        assert (bot.rating.mu, bot.rating.sigma) == (fmean(r.mu for r in bots), fmean(r.sigma for r in bots))
        assert (bot.stats.matches, bot.stats.hands) == (2, 2 * len(hands)), "counted per seat the level played"
        assert bot.stats.wins == sum(1 for s in range(3) if s != me.seat and ranks[s] == 1)
        # At the table, the card of a bot's seat is its level's; of a person's seat, theirs.
        other = await new_table(lobby, game="cacho", seats=2, bots=1)
        guest = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=other.table.id, name="zoe"))
        bot_seat = 1 - guest.seat
        card = await lobby.PlayerCard(players_pb2.PlayerCardRequest(table_id=other.table.id, seat=bot_seat))
        assert card.kind == players_pb2.PLAYER_KIND_BOT and card.name == "bot easy"
        assert card.games[0].rating.mu == bot.rating.mu
        card = await lobby.PlayerCard(players_pb2.PlayerCardRequest(table_id=other.table.id, seat=guest.seat))
        assert card.kind == players_pb2.PLAYER_KIND_GUEST and card.name == "zoe" and not card.games
        # Bots alone move nothing: a table of bots plays hands nobody's record counts.
        alone = await new_table(lobby, game="cacho", seats=2, bots=2)
        await eventually(lambda: hands_of(server, alone.table.id), "a hand the bots played, stored")
        again = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
        assert standing(again, "bot easy").stats == bot.stats
    await me.close()


async def test_a_player_who_left_keeps_the_match_and_the_hand_they_were_dealt_the_bot_nothing_more(
    tmp_path: Path,
) -> None:
    """ana leaves during her first hand: that hand and the match are hers (leaving dodges no loss);
    the hands the bot then plays for her, with only bots at the table, count for nobody."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.002, next_hand_delay=0.3)
    address = f"127.0.0.1:{running.port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            made = await new_table(lobby, game="truco_paulista", seats=4, bots=3)
            table_id = made.table.id
            me = await sit(address, table_id, create(tmp_path / "ana.pem"), "ana")
            me.subscribe()  # at the table when the first hand is dealt
            await started(running, table_id)
            await lobby.Leave(lobby_pb2.LeaveRequest(token=me.token))  # a bot plays on, for ana's record
            watcher = await Player(address).spectate(table_id)
            watcher.subscribe()
            await watcher.wait_for(lambda q: q.last_view is not None and q.last_view.match_over, timeout=120)
            await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=made.owner_token))
            hands = hands_of(running, table_id)
            assert len(hands) > 1
            won = [0, 0, 0, 0]
            for h in hands[:1]:  # the only hand a person was dealt
                result = h["result"]
                if result["winner_team"] is None or result["reason"] in ("tied", "envido"):
                    continue
                for a in h["actions"]:
                    if a["type"] in TRUCO_CALLS and a["seat"] % 2 == result["winner_team"]:
                        won[a["seat"]] += 1
            board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="truco_paulista"))
            mine, bot = standing(board, "ana"), standing(board, "bot easy")
            assert mine.stats.hands == 1 and mine.stats.matches == 1
            assert mine.stats.truco_calls_won == won[me.seat]
            assert bot.stats.truco_calls_won == sum(won) - won[me.seat]
            assert bot.stats.hands == 3 and bot.stats.matches == 3
            assert hands[0]["seats"][me.seat] == {"seat": me.seat, "name": "ana", "team": me.seat % 2}
            assert hands[1]["seats"][me.seat] == {"seat": me.seat, "name": "ana", "team": me.seat % 2,
                                                  "bot": "easy", "away": True}
            assert not mine.stats.HasField("biggest_pot")
            scores = hands[-1]["result"]["scores"]  # the teams' points when the match ended
            winners = max((0, 1), key=lambda team: scores[team])
            ours = me.seat % 2
            assert mine.stats.wins == int(ours == winners)
            assert bot.stats.wins == (1 if ours == winners else 2), "ana's partner, or both opponents"
            model = PlackettLuce()
            after = model.rate([[model.rating(), model.rating()] for _ in (0, 1)],
                               ranks=[1 if team == winners else 2 for team in (0, 1)])
            assert (mine.rating.mu, mine.rating.sigma) == (after[ours][0].mu, after[ours][0].sigma)
            bots = [after[s % 2][0] for s in range(4) if s != me.seat]  # partners fare alike
            assert (bot.rating.mu, bot.rating.sigma) == (fmean(r.mu for r in bots), fmean(r.sigma for r in bots))
            await watcher.close()
            await me.close()
    finally:
        await running.stop(grace=0.1)


async def test_what_a_hand_said_survives_a_restart_mid_match(tmp_path: Path) -> None:
    """The tally is rebuilt from the replayed match: a restart loses no truco call or elimination."""
    from cardtui.server.lobby.room import Room, TableRequest
    from cardtui.server.people.records import Tally
    from cardtui.server.store import Store

    async def restart_when(game: str, options: dict[str, Any], ready: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        path = tmp_path / f"{game}.db"
        store = Store(path)
        room = Room(store, bot_delay=0.001, next_hand_delay=0.01)
        table, _ = room.create(TableRequest(game, "t", 4, 4, options))
        await eventually(lambda: table.match is not None and not table.match.hand_over() and ready(table.tally),
                         f"{game}: a hand in play that has said what the test restarts on")
        room.shutdown("restart")
        before = dict(vars(table.tally))
        store.close()
        store = Store(path)
        again = Room(store, bot_delay=60, next_hand_delay=60)
        assert again.restore() == 1
        after = dict(vars(again.tables[table.id].tally))
        again.shutdown("done")
        store.close()
        return before, after

    def called(t: Tally) -> bool:  # a truco said, its round not over yet
        return bool(t.calls)

    def busted(t: Tally) -> bool:
        return bool(t.out_at)

    before, after = await restart_when("truco_paulista", {}, called)
    assert after == before and before["calls"], before
    before, after = await restart_when("cacho", {"chips": 3}, busted)
    assert after == before and before["out_at"], before
