"""What the line mode says of what the server remembers: the leaderboard, a player's card, the finished tables
and their hands, and a hand replayed step by step.

The screens show these as grids (``client.screens.players``, ``client.screens.replay``); read aloud a grid is
a list of numbers without their headings, so here each row is one sentence that names what each figure is
("1: dora, rating 15.9, 12 matches, 7 won, 96 hands"). A replay is told a step at a time, each step its
events in the log's words with every card face up, the result at the last: one step a line is easier to
follow by ear than a whole hand at once, and ``next all`` says the rest for who wants it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import grpc

from cardtui.client.connection import error_text
from cardtui.client.lines.commands import plain
from cardtui.client.lines.creating import game_named
from cardtui.client.lines.sentences import (
    spoken,
)
from cardtui.client.models import TableModel, holders_of, shown
from cardtui.client.screens.players import KINDS, rating_text
from cardtui.client.screens.replay import game_title, hand_model, hand_players, players_text, result_text
from cardtui.client.words import event_words, label
from cardtui.i18n import _, ngettext
from cardtui.v1 import common_pb2, players_pb2, replay_pb2

if TYPE_CHECKING:
    from cardtui.client.lines.loop import LineRoom



@dataclass(frozen=True)
class HandsOf:
    """Whose finished hands are listed: a table's, opened by a seat's token or its password if need be."""

    table_id: str
    token: str = ""
    password: str = ""



def stats_words(stats: players_pb2.Stats) -> str:
    """A record's figures, each named: "12 matches, 7 won, 96 hands, best pot 64"."""
    out = [ngettext("{n} match", "{n} matches", stats.matches).format(n=stats.matches),
           _("{n} won").format(n=stats.wins),
           ngettext("{n} hand", "{n} hands", stats.hands).format(n=stats.hands)]
    if stats.HasField("biggest_pot"):
        out.append(_("best pot {n}").format(n=stats.biggest_pot))
    if stats.HasField("truco_calls_won"):
        out.append(_("{n} trucos won").format(n=stats.truco_calls_won))
    return ", ".join(out)


def leaderboard_lines(board: players_pb2.LeaderboardResponse, title: str) -> list[str]:
    """A game's leaderboard, a player a line, numbered by place."""
    if not board.standings:
        return [_("Nobody is rated at {game} yet: a match finished by a player with a key (or against one) puts "
                  "its players here.").format(game=title)]
    head = _("Leaderboard of {game}, rated by openskill (a cautious rating, it grows as matches show it):").format(
        game=title)
    if board.players > len(board.standings):
        head += " " + _("(the best {listed} of {players})").format(listed=len(board.standings), players=board.players)
    out = [head]
    for s in board.standings:
        who = _("{name}, a bot").format(name=s.name) if s.bot else s.name
        out.append(_("{n}: {name}, rating {rating}, {stats}.").format(n=s.place, name=who,
                                                                     rating=rating_text(s.rating),
                                                                     stats=stats_words(s.stats)))
    out.append(_("Type ranks and a number for that player's records, or ranks and a game for its leaderboard."))
    return out


def card_lines(card: players_pb2.PlayerCardResponse, titles: dict[str, str]) -> list[str]:
    """A player's card: who they are, and their record at each game."""
    kind = _(KINDS.get(card.kind, ""))
    out = [f"{card.name}, {kind}." if kind else f"{card.name}."]
    if card.kind == players_pb2.PLAYER_KIND_GUEST:
        out.append(_("Plays as a guest: guests are not remembered, so they have no records here."))
        return out
    if card.kind == players_pb2.PLAYER_KIND_PERSON:
        since = datetime.datetime.fromtimestamp(card.since_unix).strftime("%Y-%m-%d") if card.since_unix else "?"
        out.append(_("Remembered here since {since}.").format(since=since))
    if not card.games:
        out.append(_("No match finished yet."))
    for g in card.games:
        out.append(_("{game}: place {place}, rating {rating}, {stats}.").format(
            game=titles.get(g.game, g.game), place=g.place, rating=rating_text(g.rating), stats=stats_words(g.stats)))
    return out


def finished_table_line(n: int, t: common_pb2.TableSummary) -> str:
    """A finished table as the history lists it: its number, game, name and who played there."""
    said = _("{n}: {game}, {name}; played by {players}.").format(n=n, game=game_title(t.game), name=t.name or t.id,
                                                                 players=players_text(t).plain)
    if t.has_password:
        said += " " + _("It asks for a password.")
    return spoken(said)


def hand_line(hand: replay_pb2.HandSummary) -> str:
    """A finished hand as a table's list says it: its number, who played, and what each won or lost."""
    model = hand_model(hand)
    if hand.ended:
        model = replace(model, names=shown(holders_of(hand.ended)))
    number = str(hand.hand) + (" (" + _("game {n}").format(n=hand.match) + ")" if hand.match > 1 else "")
    players = ", ".join(p.plain for p in hand_players(hand))
    return spoken(_("Hand {n}: {players}; {result}.").format(n=number, players=players,
                                                            result=result_text(model, hand).plain))


@dataclass
class Replay:
    """A hand being replayed: its steps, and how many have been told."""

    hand: replay_pb2.HandSummary
    steps: list[replay_pb2.ReplayStep]
    told: int = 0

    @property
    def over(self) -> bool:
        return self.told >= len(self.steps)

    def start_line(self) -> str:
        return _("Replay of hand {n}, {game}: {steps} steps, every card face up. Press enter (or type next) for "
                 "each step, next all for the rest.").format(n=self.hand.hand, game=game_title(self.hand.game),
                                                             steps=len(self.steps))

    def step_lines(self) -> list[str]:
        """The next step told: which it is, who did what, and its events; the result after the last."""
        if self.over:
            return [_("The replay is over.")]
        n = self.told
        step = self.steps[n]
        self.told += 1
        model: TableModel = hand_model(self.hand).with_view(step.view, n)
        model = replace(model, names=shown(holders_of(step.view.seats)))
        if step.HasField("seat"):
            what = _("{name}: {action}").format(name=model.name(step.seat), action=label(model, step.action).plain)
        else:
            what = _("the deal")
        out = [_("Step {n} of {all}, {what}.").format(n=n + 1, all=len(self.steps), what=what)]
        for event in step.events:
            said = event_words(model, event)
            if said is not None:
                out.append(said.text.plain)
        if self.over:
            out.append(_("The hand is over: {result}.").format(result=result_text(model, self.hand).plain))
        return [line for line in (spoken(o) for o in out) if line]


class RecordsPart:
    """The commands of what the server remembers: ``ranks`` (a game's leaderboard, a listed player's card),
    ``history`` (the finished tables, a table's hands), ``replay`` and ``next`` (a hand a step at a time)."""

    def __init__(self, room: LineRoom) -> None:
        self.room = room
        self.ranked: list[str] = []
        """The names of the leaderboard as last said: ``ranks 2`` is the second's card."""
        self.finished: list[str] = []
        """The finished tables as the history last listed them."""
        self.hands: tuple[HandsOf, list[replay_pb2.HandSummary]] | None = None
        """The hands last listed, and whose they are: ``replay 2`` replays the second."""
        self.replaying: Replay | None = None


    async def ranks(self, rest: str) -> None:
        """The leaderboard of a game (the table's, the one named, else the first), or a listed player's card."""
        assert self.room.conn is not None and self.room.info is not None
        rest = rest.strip()
        try:
            if rest.isdigit():
                n = int(rest)
                if not 1 <= n <= len(self.ranked):
                    self.room.say(_("There is no player {n} on the leaderboard last heard: type ranks to hear it.")
                                  .format(n=n))
                    return
                card = await self.room.conn.player_card(self.ranked[n - 1])
                for line in card_lines(card, self.room.titles()):
                    self.room.say(line)
                return
            if rest:
                found = game_named(self.room.info, rest)
                if found is None:
                    self.room.say(_("There is no game {name} here. Which game? {games}.").format(
                        name=rest, games=", ".join(g.title for g in self.room.info.games)))
                    return
                game = found.name
            else:
                game = self.room.at.model.game if self.room.at is not None else self.room.info.games[0].name
            board = await self.room.conn.leaderboard(game)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        self.ranked = [s.name for s in board.standings]
        for line in leaderboard_lines(board, self.room.titles().get(game, game)):
            self.room.say(line)

    async def history(self, rest: str) -> None:
        """The finished tables, numbered; with a number (or at a table), that table's finished hands."""
        assert self.room.conn is not None
        rest = rest.strip()
        if not rest and self.room.at is not None:
            table_id = self.room.at.model.summary.id
            await self._list_hands(HandsOf(table_id, self.room.at.token, self.room.conn.passwords.get(table_id, "")))
            return
        if rest:
            if rest.isdigit() and not 1 <= int(rest) <= len(self.finished):
                self.room.say(_("There is no finished table {n} in the list: type history to hear it.").format(n=rest))
                return
            table_id = self.finished[int(rest) - 1] if rest.isdigit() else rest
            await self._list_hands(HandsOf(table_id, "", self.room.conn.passwords.get(table_id, "")))
            return
        try:
            tables = await self.room.conn.tables(include_finished=True)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        finished = [t for t in tables if t.status == common_pb2.TABLE_STATUS_FINISHED and not t.private]
        self.finished = [t.id for t in finished]
        if not finished:
            self.room.say(_("No table has finished yet: their hands can be heard here once they have."))
            return
        self.room.say(_("Finished tables:"))
        for n, t in enumerate(finished, start=1):
            self.room.say(finished_table_line(n, t))
        self.room.say(_("Type history and a number for that table's hands."))

    async def _hands_of(self, of: HandsOf) -> tuple[HandsOf, list[replay_pb2.HandSummary]] | None:
        """A table's finished hands, its password asked once if it has one; None (said why) if refused."""
        assert self.room.conn is not None
        try:
            listed = await self.room.conn.list_hands(of.table_id, of.token, of.password)
        except grpc.aio.AioRpcError as err:
            if err.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in (err.details() or "") and (
                    not of.password):
                password = await self.room.ask(_("That table asks for a password. Type it, or enter to give up."),
                                               secret=True)
                return await self._hands_of(replace(of, password=password)) if password else None
            self.room.say(error_text(err))
            return None
        if of.password:
            self.room.conn.passwords[of.table_id] = of.password
        return of, list(listed.hands)

    async def _list_hands(self, of: HandsOf) -> None:
        found = await self._hands_of(of)
        if found is None:
            return
        self.hands = found
        hands = found[1]
        if not hands:
            self.room.say(_("No hand has finished at this table yet."))
            return
        self.room.say(ngettext("{n} finished hand:", "{n} finished hands:", len(hands)).format(n=len(hands)))
        for h in hands:
            self.room.say(hand_line(h))
        self.room.say(_("Type replay and a hand's number to hear it step by step."))

    async def replay(self, rest: str) -> None:
        """A hand of the list last heard (the last one with no number), told a step at a time."""
        assert self.room.conn is not None
        if self.hands is None and self.room.at is not None:
            table_id = self.room.at.model.summary.id
            password = self.room.conn.passwords.get(table_id, "")
            self.hands = await self._hands_of(HandsOf(table_id, self.room.at.token, password))
        if self.hands is None:
            self.room.say(_("Which hands? Type history, then history and a table's number."))
            return
        of, hands = self.hands
        rest = rest.strip()
        hand = next((h for h in hands if str(h.hand) == rest), None) if rest else (hands[-1] if hands else None)
        if hand is None:
            numbers = ", ".join(str(h.hand) for h in hands)
            self.room.say(_("There is no finished hand {n} in the list; its hands are {numbers}.").format(
                n=rest, numbers=numbers) if hands else _("No hand has finished at this table yet."))
            return
        try:
            steps = await self.room.conn.replay(of.table_id, hand.hand, of.token, of.password)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        summary = steps[0].hand if steps and steps[0].HasField("hand") else hand
        self.replaying = Replay(summary, steps)
        self.room.say(self.replaying.start_line())
        await self.next_step("")

    async def next_step(self, rest: str) -> None:
        """The replay's next step; ``all``: every step left."""
        playing = self.replaying
        if playing is None:
            self.room.say(_("No replay is open: type replay and a hand's number."))
            return
        every = plain(rest) in ("all", plain(_("all")))
        while True:
            for line in playing.step_lines():
                self.room.say(line)
            if playing.over or not every:
                break
        if playing.over:
            self.replaying = None
