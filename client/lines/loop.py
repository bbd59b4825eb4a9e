"""The line mode's loop: the lobby and the table as sentences, the player's lines as commands and actions.

One reader of lines (the player), one writer of sentences, and while at a table one follower of its stream.
The stream goes through ``Connection.follow`` with ``FairDeals``, as the screen client's table does: this
seat's seed is sent for every deal, and every finished deal is checked and the check said. Each event is
said once, as it comes, in the log's words (``client.words``) made fit to be heard (``sentences.spoken``);
when a turn of the player's begins the bell sounds once and the choices are said, numbered; a turn timer is
said ahead (30, 10 and 5 seconds left), never run out in silence.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc

from cardtui import __version__
from cardtui.client import versions
from cardtui.client.boards import cacho, rummy_words, truco_words  # noqa: F401  (each says its game's events)
from cardtui.client.connection import (
    WAIT,
    BadAddress,
    Connection,
    closing_text,
    diagnosed,
    error_text,
    refused,
)
from cardtui.client.fairness import NO_CUTS, FairDeals, Verdict
from cardtui.client.invite_links import Link
from cardtui.client.lines.actions import (
    Choice,
    choices,
    dealt_slots,
    discard_of,
    held,
    keyed_menu,
    menu,
    pick,
    terse_menu,
    told,
)
from cardtui.client.lines.commands import Command, heard, help_lines, keyed, plain
from cardtui.client.lines.creating import game_named
from cardtui.client.lines.lobby import LobbyPart
from cardtui.client.lines.narration import LEVEL_SAID, Level, Narrator, keep_level, kept_level
from cardtui.client.lines.reading import for_the_ear, localised, numbers_said, rules_said
from cardtui.client.lines.records import (
    RecordsPart,
)
from cardtui.client.lines.sentences import (
    card_at,
    card_named,
    cards_words,
    hand_words,
    seconds_left,
    spoken,
    table_words,
    turn_words,
)
from cardtui.client.lines.terminal import Lines
from cardtui.client.lines.tournaments import (
    TournamentsPart,
)
from cardtui.client.meld_hints import hint_told
from cardtui.client.models import Holders, TableModel
from cardtui.client.phrases import offered, phrase_text
from cardtui.client.screens.analysis import SERIOUS, analysis_text, match_text, progress_text
from cardtui.client.screens.help import rules_page
from cardtui.client.screens.invite import invite_text
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.client.shape import family_for, score_said
from cardtui.client.table_state import TableState
from cardtui.client.turn_bell import bell_file, keep_bell, my_turn
from cardtui.client.words import event_words
from cardtui.i18n import NAMES, _, current, next_language, ngettext, remember, use
from cardtui.identity import Identity
from cardtui.v1 import analysis_pb2, common_pb2, lobby_pb2, table_pb2

WARNINGS = (30, 10, 5)
"""Seconds left on the player's turn at which the time is said (each only if the turn began with more)."""
TICK = 0.25
"""How often the turn's time is looked at."""
KEPT = 50
"""Sentences of the table kept for ``last``."""
LAST = 5
CONNECT_TRIES = 10
CONNECT_PAUSE = 3.0
"""A server that accepts connections but does not answer yet (starting), or answers slowly, is asked again this
many times, this many seconds apart, before the line mode gives up on it."""


class Quit(Exception):
    """Input ended, or the player quit."""


@dataclass(frozen=True)
class Start:
    """What the command line gives the line mode."""

    target: str
    name: str = ""
    spectate: str | None = None
    password: str = ""
    identity: Identity | None = None
    tls_ca: bytes | None = None
    join: Link | None = None
    bell: bool = False
    own_config: bool = True
    host: Callable[[], Awaitable[tuple[str, Callable[[], Awaitable[None]]]]] | None = None
    """``cardtui play``: a server started in this process first (its address, and how to stop it)."""


@dataclass
class Seat(TableState):
    """The table the player is at (or watches), as last heard."""

    token: str
    model: TableModel
    fair: FairDeals = field(default_factory=FairDeals)
    holders: Holders = field(default_factory=dict)
    said: deque[str] = field(default_factory=lambda: deque(maxlen=KEPT))
    """The table's sentences so far, for ``last``."""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    online: bool = False
    opened: bool = False
    gone: bool = False
    waiting: bool = False
    """The table waited on the player at the last view (a turn begins when it starts to)."""
    offered: tuple[bytes, ...] = ()
    """The choices last said, so the same ones are not said twice in one turn."""
    warned: set[int] = field(default_factory=set)
    began_with: float = 0.0
    """Seconds the turn had when it began."""
    hands_ended: int = 0
    ended_hand: int = 0
    """The number of the last hand that ended (the table's view moves on to the next as it is dealt)."""
    ended: tuple[bool, bool] = (False, False)
    analysis: tuple[analysis_pb2.HandAnalysis, int] | None = None
    """The player's decisions in the last hand they played, judged, and its number."""
    narrator: Narrator = field(default_factory=Narrator)
    slots: list[str | None] = field(default_factory=list)
    """A truco hand's cards as dealt (None where one was played): each keeps its number until it is played."""
    announced: bool = False
    """This turn of the player's was said (a claim window they can only let go is not, at the terse level)."""
    verdicts: list[Verdict] = field(default_factory=list)
    """The fair-deal checks of the hands finished here, for ``deal``."""
    turn_hand: int = -1
    """The hand whose turn was last said at the terse level: its later turns are said by their choices alone (the
    bell rings as each begins), "Your turn" once a hand."""
    numbered: set[str] = field(default_factory=set)
    """The kinds of action whose numbers were said at this table: a terse turn says them by their word alone
    (enter, or ``actions``, says every number again)."""
    asked: bool = False
    """The match's end asked "again, swap or leave?" at this table: a later one says who won, and the bell asks."""
    menus: set[str] = field(default_factory=set)
    """The terse turns' choices said at this table, word for word: a turn with the cards just dealt for it and one
    of these (a Cacho turn's "pass, bet 1", a truco hand's first) says the cards, and the bell the choices."""

    @property
    def spectating(self) -> bool:
        return self.model.seat is None


class LineRoom:
    """The lobby and one table at a time, in lines."""

    def __init__(self, start: Start, lines: Lines) -> None:
        self.start = start
        self.lines = lines
        self.conn: Connection | None = None
        self.info: lobby_pb2.ServerInfo | None = None
        self.name = start.name
        self.at: Seat | None = None
        self.listed: list[str] = []
        """The ids of the tables as last listed, in order: ``sit 2`` is the second."""
        self.bell = start.bell or _bell_wanted(start.own_config)
        self.stop_host: Callable[[], Awaitable[None]] | None = None
        self.level = kept_level(start.own_config)
        """How much is said at a table (``narration``): terse unless the player chose verbose."""
        self.windows = False
        """Claim windows the player can only let go are said too (``windows``); the verbose level says them."""
        self.lobby = LobbyPart(self)
        self.records = RecordsPart(self)
        self.tournaments = TournamentsPart(self)

    # -- saying --------------------------------------------------------------------------------
    def say(self, text: str, keep: bool = False) -> None:
        """A sentence, heard (``keep``: the table's, kept for ``last``)."""
        said = for_the_ear(text)
        if not said:
            return
        if keep and self.at is not None:
            self.at.said.append(said)
        self.lines.write(said)

    async def ask(self, question: str, secret: bool = False) -> str:
        """A question said, and the line typed (``secret``: a password, not echoed)."""
        self.say(question)
        answer = await self.lines.read(secret)
        if answer is None:
            raise Quit
        return answer

    def titles(self) -> dict[str, str]:
        """Each game's title, by its name, as the server gives them."""
        return {g.name: g.title for g in self.info.games} if self.info is not None else {}

    # -- the room ------------------------------------------------------------------------------
    async def run(self) -> int:
        try:
            if not await self._connect():
                return 1
            await self._named()
            await self._enter()
            while True:
                line = await self.lines.read()
                if line is None:
                    break
                await self.handle(line)
        except Quit:
            pass
        finally:
            await self._close()
        return 0

    async def _connect(self) -> bool:
        if self.start.host is not None:
            target, self.stop_host = await self.start.host()
        else:
            target = self.start.target
        try:
            self.conn = Connection.open(target, tls_ca=self.start.tls_ca)
            self.conn.on_host = not self.start.own_config  # a browser guest's client, run on the host
        except BadAddress as err:
            self.say(str(err))
            return False
        self.conn.identity = self.start.identity
        said = ""
        for attempt in range(CONNECT_TRIES):
            try:
                self.info = await self.conn.info()
            except grpc.aio.AioRpcError as err:
                trouble, why = await diagnosed(self.conn, err)
                if trouble not in WAIT and not said:  # refused, no such host, out of reach: nothing to wait for
                    self.say(why)
                    return False
                # Something was there (starting, or busy): waited for, through whatever its start looks like
                if why != said:
                    said = why
                    self.say(why + " " + _("Trying again."))
                if attempt + 1 < CONNECT_TRIES:
                    await asyncio.sleep(CONNECT_PAUSE)
                continue
            if said:
                self.say(_("The server answers now."))
            return True
        self.say(_("Still no answer: start again once the server answers."))
        return False

    async def _named(self) -> None:
        """The player's name, proved (or, as a guest, free): asked until one will do."""
        assert self.conn is not None
        while True:
            while not self.name.strip():
                self.name = (await self.ask(_("Your name at the tables?"))).strip()
            try:
                await self.conn.sign_in(self.name)
                return
            except grpc.aio.AioRpcError as err:
                if err.code() not in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.INVALID_ARGUMENT):
                    return  # unreachable for now: the lobby says so when it is asked
                self.say(error_text(err))
                self.name = ""

    async def _enter(self) -> None:
        assert self.conn is not None and self.info is not None
        games = ", ".join(g.title for g in self.info.games)
        self.say(_("Welcome, {name}. This is the card room at {target}, with {games}. Type help for the "
                   "commands, at any time.").format(name=self.name, target=self.conn.target, games=games))
        if self.info.no_cuts:
            self.say(_(NO_CUTS))
        if self.info.version != __version__:
            self.say(versions.other_version(self.info.version, self.conn.offer()))
        if self.start.spectate:
            await self.open_table(self.start.spectate, spectate=True)
        elif self.start.join is not None:
            await self.lobby.open_link(self.start.join)
        else:
            await self.lobby.list_tables()

    async def _close(self) -> None:
        for task in self.tournaments.following.values():
            task.cancel()
        await asyncio.gather(*self.tournaments.following.values(), return_exceptions=True)
        if self.at is not None:
            await self._leave_table(quietly=True)
        if self.conn is not None:
            await self.conn.close()
        if self.stop_host is not None:
            await self.stop_host()

    # -- a line --------------------------------------------------------------------------------
    async def handle(self, line: str) -> None:
        """A line typed: an action's answer at the table, else a command; a line that is neither is said so."""
        line = line.strip()
        at = self.at
        if not line:
            if self.records.replaying is not None and not (at is not None and my_turn(at.model)):
                await self.records.next_step("")
            elif at is not None:
                self._say_turn(at, again=True)
            return
        review = keyed(line, at is not None)
        if review is not None and review.command is not None:  # asking, in the same keys at every game: never acts
            await self.command(review.command, review.rest)
            return
        if at is not None and not at.spectating and (line.split()[0].isdigit() or len(line.split()[0]) == 1):
            offered_now = self._choices(at) if at.online and my_turn(at.model) else []
            picked = pick(offered_now, line)
            if picked is not None or not offered_now:
                if picked is None or picked.problem:
                    self.say(picked.problem if picked is not None else _("It is not your turn: nothing was sent."))
                    return
                assert picked.action is not None
                await self.act(at, picked.action)
                return
        what = heard(line, at is not None)
        if what.command is None:
            self.say(what.problem)
            return
        await self.command(what.command, what.rest)

    async def command(self, command: Command, rest: str) -> None:
        await self.handlers()[command.name](rest)

    def handlers(self) -> dict[str, Callable[[str], Awaitable[None]]]:
        """Each command's handler, by its English word."""
        return {
            "help": self.help, "tables": lambda _rest: self.lobby.list_tables(), "new": self.lobby.new,
            "sit": self.lobby.sit, "watch": self.lobby.watch, "code": self.lobby.code, "hand": self.hand,
            "table": self.table, "turn": self.time, "score": self.score, "card": self.card,
            "actions": self.actions, "time": self.time, "last": self.last, "say": self.chat,
            "phrases": self.phrases, "analysis": self.analysis, "match": self.match, "again": self.again,
            "swap": self.swap, "leave": self.leave, "invite": self.invite, "rules": self.rules,
            "language": self.language, "bell": self.toggle_bell, "quit": self.quit, "close": self.close,
            "ranks": self.records.ranks, "history": self.records.history, "replay": self.records.replay,
            "next": self.records.next_step,
            "tournaments": lambda _rest: self.tournaments.list_tournaments(), "tournament": self.tournaments.tournament,
            "register": self.tournaments.register, "withdraw": self.tournaments.withdraw,
            "start": self.tournaments.start_tournament,
            "discard": self.discard, "hint": self.hint, "terse": self.terse, "verbose": self.verbose,
            "windows": self.toggle_windows, "deal": self.deal,
        }

    async def help(self, _rest: str) -> None:
        for line in help_lines(self.at is not None):
            self.say(line)

    async def quit(self, _rest: str) -> None:
        raise Quit

    async def language(self, _rest: str) -> None:
        use(next_language())
        if self.start.own_config:
            remember(current())
        self.say(_("Language: {name}").format(name=NAMES[current()]) + ".")

    async def toggle_bell(self, _rest: str) -> None:
        self.bell = not self.bell
        if self.start.own_config:
            keep_bell(self.bell)
        self.say(_("Bell on: it rings when it becomes your turn.") if self.bell else _("Bell off."))

    async def terse(self, _rest: str) -> None:
        self._level(Level.TERSE)

    async def verbose(self, _rest: str) -> None:
        self._level(Level.VERBOSE)

    def _level(self, level: Level) -> None:
        """How much is said at a table, from now on (kept for next time)."""
        self.level = level
        if self.at is not None:
            self.at.narrator.level = level
        if self.start.own_config:
            keep_level(level)
        self.say(_(LEVEL_SAID[level]))

    async def toggle_windows(self, _rest: str) -> None:
        """Claim windows the player can only let go: said, or not (the terse level's way)."""
        self.windows = not self.windows
        self.say(_("Claim windows you can only let go are said now, each as a turn.") if self.windows else _(
            "Claim windows you can only let go are not said: they close by themselves."))
        at = self.at
        if self.windows and at is not None and my_turn(at.model) and not at.announced:
            at.waiting = False
            self._turn(at)

    async def deal(self, rest: str) -> None:
        """The fair-deal check of the last hand (or the hand named) in full: what it checked and found."""
        if (at := self._at()) is None:
            return
        if not at.verdicts:
            self.say(_("No hand has been checked at this table yet: a deal is checked when its hand is over."))
            return
        wanted = rest.strip()
        verdict = next((v for v in reversed(at.verdicts) if wanted and str(v.hand_no or v.hand) == wanted),
                       at.verdicts[-1])
        self.say(verdict.said().text.plain)
        seeds = verdict.seeds_said(at.model.name)
        if seeds is not None:
            self.say(seeds.text.plain)

    async def rules(self, rest: str) -> None:
        game = self.at.model.game if self.at is not None and not rest else None
        if game is None and self.info is not None:
            found = game_named(self.info, rest) if rest else None
            if found is None:
                self.say(_("Which game's rules? {games}. Type rules and the game.").format(
                    games=", ".join(g.title for g in self.info.games)))
                return
            game = found.name
        page = rules_page(game) if game else None
        if page is None or game is None:
            self.say(_("No rules page yet."))
            return
        for line in rules_said(page):
            self.say(line)
        self.say(numbers_said(game))


    async def open_table(self, table_id: str, spectate: bool = False, password: str = "", invite: str = "") -> None:
        """Sit at (or watch) a table and follow it; its password asked if it has one and none was given."""
        conn = self.conn
        assert conn is not None
        password = password or conn.passwords.get(table_id, "") or self.start.password
        while True:
            try:
                if spectate:
                    joined = await conn.spectate(table_id, self.name, password, invite)
                else:
                    joined = await conn.join(table_id, self.name, password, invite)
                break
            except grpc.aio.AioRpcError as err:
                wrong = err.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in (err.details() or "")
                if not wrong:
                    self.say(error_text(err))
                    return
                if password:
                    self.say(error_text(err))
                password = await self.ask(_("This table asks for a password. Type it, or enter to give up."),
                                          secret=True)
                if not password:
                    return
        if password:
            conn.passwords[table_id] = password
        seat = joined.seat if joined.seat >= 0 and not spectate else None
        at = Seat(joined.token, TableModel(joined.table, seat), narrator=Narrator(self.level))
        self.at = at
        at.tasks = [asyncio.create_task(self._follow(at)), asyncio.create_task(self._clock(at))]

    # -- the table -----------------------------------------------------------------------------
    async def _follow(self, at: Seat) -> None:
        assert self.conn is not None
        try:
            sealed = None if at.model.seat is None else SealedSeat(self.conn.target, SealedKeys.at_home())
            async for msg in self.conn.follow(at.token, on_retry=lambda delay: self._retrying(at), fair=at.fair,
                                              sealed=sealed):
                if self.at is not at:
                    return
                self.heard(at, msg)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            at.online = False
            self.say(_("The table's stream ended: {why}").format(why=error_text(err)))

    def _retrying(self, at: Seat) -> None:
        if at.online:
            at.online = False
            self.say(_("The server is gone: trying again. Your answers wait until it is back."))

    def heard(self, at: Seat, msg: table_pb2.TableMessage) -> None:
        """One message of the table's stream, said."""
        body = msg.WhichOneof("body")
        was_online = at.online
        if body == "snapshot":
            at.online = True
        elif body == "closing":
            self.say(closing_text(msg.closing), keep=True)
            if not msg.closing.resubscribe:
                at.gone = True
                at.online = False
        verdicts = at.track(msg, lambda ev, _then, model: self._event(at, ev, model))  # (``TableState``)
        if body == "snapshot":
            self._slots(at)
            if not at.opened:
                at.opened = True
                self._opened(at)
            elif not was_online:
                self.say(_("Back at the table."))
        elif body == "update":
            self._slots(at)
            for line in at.narrator.after_view(at.model):
                self.lines.write(localised(line))
        elif body == "closing" and not msg.closing.resubscribe:
            self.say(_("This table is over for you: type leave to go back to the lobby."))
        for verdict in verdicts:
            at.verdicts.append(verdict)
            self._tell(at, [at.narrator.verdict(verdict)], spoken(verdict.said().text.plain))
        self._ending(at)
        if at.opened and at.online:
            self._turn(at)

    def _tell(self, at: Seat, said: list[str], kept: str) -> None:
        """Sentences of the table said now, at the player's level; the whole sentence (``kept``) kept for
        ``last``."""
        if kept:
            at.said.append(kept)
        for sentence in said:
            if sentence:
                self.lines.write(localised(sentence))

    def _slots(self, at: Seat) -> None:
        """A truco hand's cards kept where they were dealt, as the screen's card keys are."""
        view = at.model.view
        family = family_for(view) if view is not None else None
        if view is not None and family is not None and family.by_place and family.cards is not None and (
                not at.spectating):
            at.slots = dealt_slots(at.slots, family.cards(view))
        else:
            at.slots = []

    def _choices(self, at: Seat) -> list[Choice]:
        return choices(at.model, at.slots)

    def _event(self, at: Seat, event: table_pb2.Event, model: TableModel) -> None:
        """An event of the stream said, as the table stood then."""
        said = event_words(model, event)
        self._tell(at, at.narrator.event(model, event, said.text.plain if said is not None else ""),
                   spoken(said.text.plain) if said is not None else "")

    def _opened(self, at: Seat) -> None:
        model = at.model
        where = (_("You are watching {name}.") if at.spectating
                 else _("You sit at {name}, seat {n}.")).format(name=model.summary.name or model.summary.id,
                                                                n=(model.seat or 0) + 1)
        self.say(where)
        if model.summary.no_cuts:
            self.say(_(NO_CUTS))
        for line in table_words(model, score=score_said(model)):
            self.say(line)
        if not at.spectating and model.view is not None and model.view.WhichOneof("game") not in (None, "waiting"):
            self.say(hand_words(model, at.slots))
        self.say(_("Type help for the commands; at your turn, the action's number."))

    def _turn(self, at: Seat) -> None:
        """A turn of the player's that begins is rung and said; new choices within it are said too. A claim window
        the player can only let go is not a turn to them at the terse level: it closes by itself (``windows``
        has it said)."""
        model = at.model
        now = my_turn(model)
        began = now and not at.waiting
        at.waiting = now
        if not now:
            at.offered = ()
            at.announced = False
            return
        offered = self._choices(at)
        if self._silent(at, offered):
            at.offered = tuple(a.SerializeToString() for a in model.legal)
            return
        offered_now = tuple(a.SerializeToString() for a in model.legal)
        if began or not at.announced:
            at.announced = True
            at.warned = set()
            at.began_with = model.deadline - time.monotonic() if model.deadline is not None else 0.0
            for line in at.narrator.turn_begins(at.model):
                self.lines.write(localised(line))
            if self.bell:
                self.lines.bell()
            at.offered = offered_now
            self._say_turn(at, with_hand=True)
        elif offered_now != at.offered:
            at.offered = offered_now
            at.narrator.acted = False
            self._say_turn(at)

    def _silent(self, at: Seat, offered: list[Choice]) -> bool:
        """A claim window the player can only let go, at the terse level and unless ``windows`` asks for them."""
        view = at.model.view
        family = family_for(view) if view is not None else None
        return (at.narrator.level is Level.TERSE and not self.windows and family is not None and family.claims
                and len(offered) == 1 and offered[0].kind == "pass")

    def _say_turn(self, at: Seat, again: bool = False, with_hand: bool = False) -> None:
        """The player's turn, in the one shape every game's is said in: what is new (said before it, by the
        narrator), then the choices, each by its word before its number, or by its word alone once its number
        was said at this table (terse); enter (``again``) and the verbose level say every choice with its number,
        and enter the time left too."""
        model = at.model
        if not my_turn(model):
            if again:
                self.say(turn_words(model, self._left(at)))
            return
        terse = at.narrator.level is Level.TERSE
        offered = self._choices(at)
        if terse and not again:
            known, kinds = frozenset(at.numbered), frozenset(told(offered))
            choices = terse_menu(offered, held(model, at.slots), known)
            at.numbered |= kinds
            drew = at.narrator.drew_turn(model, choices)
            cards = "" if drew else at.narrator.hand_unheard(model, at.slots)
            hand = model.view.hand if model.view is not None else 0
            family = family_for(model.view) if model.view is not None else None
            if drew:
                self.say(drew)
            elif cards and self.bell and kinds <= known and family is not None and (
                    family.known_turn(model, kinds, False) or choices in at.menus):
                self.say(_("With {cards}.").format(cards=cards))  # the answers to the call just heard, or choices
                # heard at this table word for word: the bell
            elif cards:
                self.say(_("With {cards}: {choices}.").format(cards=cards, choices=choices))
            elif kinds <= known and family is not None and family.known_turn(model, kinds, at.turn_hand != hand):
                self._rung(with_hand)  # the answers to the call just heard, a card to play, a draw: the bell alone
            elif at.turn_hand == hand:
                self.say(f"{choices[:1].upper()}{choices[1:]}.")  # a later turn of the hand: the bell, its choices
            else:
                self.say(_("Your turn: {choices}.").format(choices=choices))
            at.turn_hand = hand
            at.menus.add(choices)
            return
        family = family_for(model.view) if with_hand and model.view is not None else None
        if family is not None and family.hand_at_turn:
            self.say(hand_words(model, at.slots))
        said = _("Your turn: {choices}.").format(choices=menu(offered))
        left = self._left(at)
        if again and left is not None:
            said += " " + seconds_left(left)
        self.say(said)

    def _rung(self, rang: bool) -> None:
        """A turn said by the bell alone: rung here where it did not ring as the turn began (new choices within
        it); with the bell off, two words say it."""
        if not self.bell:
            self.say(_("Your turn") + ".")
        elif not rang:
            self.lines.bell()

    def _left(self, at: Seat) -> float | None:
        deadline = at.model.deadline
        return max(0.0, deadline - time.monotonic()) if deadline is not None and at.online else None

    async def _clock(self, at: Seat) -> None:
        """The time left on the player's turn, said ahead: never a timeout in silence."""
        while True:
            await asyncio.sleep(TICK)
            left = self._left(at)
            if left is None or not my_turn(at.model) or not at.announced:
                continue  # not a turn, or a claim window left unsaid: it closes by itself
            for mark in WARNINGS:
                if left <= mark and mark not in at.warned and at.began_with > mark + 1:
                    at.warned.add(mark)
                    if left > 0.5:
                        self.say(seconds_left(left))
            if left <= 0 and 0 not in at.warned:
                at.warned.add(0)
                self.say(_("Time is up: the table plays for you."))

    def _ending(self, at: Seat) -> None:
        """A hand that ends: its analysis asked for (the server may give it at once); a match that ends: the
        way to play again said."""
        view = at.model.view
        playing = view is not None and view.WhichOneof("game") not in (None, "waiting")
        ended = (playing and view is not None and view.hand_over, playing and view is not None and view.match_over)
        won = at.narrator.match_won()  # the winner, said with the question (terse), else alone
        asks = ended[1] and not at.ended[1] and not at.spectating and not at.model.summary.tournament_id
        if won and not asks:
            self.say(won + ".")
        if ended == at.ended:
            return
        new = [now and not before for now, before in zip(ended, at.ended, strict=True)]
        at.ended = ended
        if new[0] and not at.spectating and view is not None:
            at.hands_ended += 1
            at.ended_hand = view.hand
            at.analysis = None  # an earlier hand's: ``analysis`` asks for this one's
            at.tasks.append(asyncio.create_task(self._analysed(at, view.hand)))
        if asks and at.narrator.level is Level.VERBOSE:
            self.say(_("The match is over. Type again to play again with the same seats, swap to play again "
                       "with the seats swapped, or leave."), keep=True)
        elif asks and won and at.asked and self.bell:  # the question heard at this table: the bell asks it
            self.say(won + ".", keep=True)
            self.lines.bell()
        elif asks:
            self.say(_("{won}: again, swap or leave?").format(won=won) if won
                     else _("The match is over: again, swap or leave?"), keep=True)
            at.asked = True

    async def _analysed(self, at: Seat, number: int) -> None:
        """How the player played the hand just over, if the server analyses it now without being asked."""
        assert self.conn is not None
        try:
            async for update in self.conn.analyze(at.model.summary.id, 0, at.token, when_idle=True):
                if update.WhichOneof("update") == "analysis" and self.at is at:
                    hand = update.analysis
                    mine = [m for m in hand.moments if m.seat == at.model.seat]
                    if mine:
                        at.analysis = (hand, number)
                        mistakes = sum(1 for m in mine if m.label in SERIOUS)
                        said = _("Hand {n}: your play judged, {count}. Type analysis to hear it.").format(
                            n=number, count=_mistakes(mistakes))
                        told = [spoken(said)] if at.narrator.level is Level.VERBOSE else []  # terse: on request
                        self._tell(at, told, spoken(said))
        except (grpc.aio.AioRpcError, asyncio.CancelledError):
            return

    async def act(self, at: Seat, action: common_pb2.Action) -> None:
        assert self.conn is not None
        if not at.online:
            self.say(_("Not connected to the table: the action was not sent."))
            return
        at.narrator.acted = True
        try:
            await self.conn.act(at.token, action, at.model.seq)
        except grpc.aio.AioRpcError as err:
            at.narrator.acted = False
            self.say(_("Not allowed: {why}").format(why=error_text(err)) if refused(err) else error_text(err))

    def _at(self) -> Seat | None:
        if self.at is None:
            self.say(_("You are not at a table: type tables, then sit and a number."))
        return self.at

    async def hand(self, _rest: str) -> None:
        if (at := self._at()) is not None:
            at.narrator.unheard = False
            at.narrator.received = []
            self.say(hand_words(at.model, at.slots))

    async def table(self, rest: str) -> None:
        """What is on the table and whose turn, short enough for the middle of a hand; ``table all`` (and the
        verbose level) who sits where, with what, as well."""
        if (at := self._at()) is not None:
            model = at.model
            full = bool(rest.strip()) or at.narrator.level is Level.VERBOSE
            for line in table_words(model, full, score_said(model) if full else ""):
                self.say(line)
            left = self._left(at)
            if left is not None and model.view is not None and model.view.to_act:
                self.say(seconds_left(left))

    async def score(self, _rest: str) -> None:
        """Every side's total in one line, the player's first."""
        if (at := self._at()) is not None:
            self.say(score_said(at.model))

    async def card(self, rest: str) -> None:
        """The card a number plays or discards (``card 3``, ``3?``)."""
        if (at := self._at()) is None:
            return
        if not rest.strip().isdigit():
            self.say(_("Which card? Type card and its number, or the number and a question mark: 3?"))
            return
        self.say(card_at(at.model, int(rest.strip()), at.slots))

    async def actions(self, _rest: str) -> None:
        if (at := self._at()) is None:
            return
        if at.spectating:
            self.say(_("You are watching: you have no actions."))
        elif not my_turn(at.model):
            self.say(turn_words(at.model, self._left(at)))
        else:
            self.say(keyed_menu(self._choices(at)) + ".")

    async def time(self, _rest: str) -> None:
        if (at := self._at()) is not None:
            self.say(turn_words(at.model, self._left(at)) or _("No timer runs now."))

    async def last(self, rest: str) -> None:
        if (at := self._at()) is None:
            return
        n = int(rest) if rest.isdigit() and int(rest) > 0 else LAST
        kept = list(at.said)[-n:]
        if not kept:
            self.say(_("Nothing has happened at this table yet."))
        for line in kept:
            self.lines.write(localised(line))

    async def chat(self, rest: str) -> None:
        if (at := self._at()) is None:
            return
        assert self.conn is not None
        if not rest:
            self.say(_("Say what? Type say and your words."))
            return
        try:
            await self.conn.chat(at.token, rest)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))

    async def phrases(self, rest: str) -> None:
        if (at := self._at()) is None:
            return
        assert self.conn is not None
        listed = offered(at.model.game)
        if not (rest.isdigit() and 1 <= int(rest) <= len(listed)):
            said = ", ".join(f"{n} {phrase_text(p)}" for n, p in enumerate(listed, start=1))
            self.say(_("Quick phrases: {phrases}. Type phrases and a number to send one.").format(phrases=said))
            return
        try:
            await self.conn.phrase(at.token, listed[int(rest) - 1])
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))

    async def again(self, _rest: str) -> None:
        await self._rematch(table_pb2.REMATCH_CHOICE_SAME)

    async def swap(self, _rest: str) -> None:
        await self._rematch(table_pb2.REMATCH_CHOICE_SWAP)

    async def _rematch(self, choice: table_pb2.RematchChoice.ValueType) -> None:
        if (at := self._at()) is None:
            return
        assert self.conn is not None
        view = at.model.view
        if at.spectating or view is None or not view.match_over or at.model.summary.tournament_id:
            self.say(_("There is no match to play again now."))
            return
        try:
            await self.conn.rematch(at.token, choice)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))

    async def analysis(self, _rest: str) -> None:
        if (at := self._at()) is None:
            return
        if at.analysis is not None:
            hand, number = at.analysis
            self._say_text(analysis_text(at.model, hand, number).plain)
            return
        if at.spectating or not at.hands_ended:
            self.say(_("No hand of yours has ended at this table yet."))
            return
        await self._analyse(at, match=False)

    async def match(self, _rest: str) -> None:
        if (at := self._at()) is None:
            return
        if at.spectating or at.model.view is None or not at.model.view.match_over:
            self.say(_("The match is not over yet."))
            return
        await self._analyse(at, match=True)

    async def _analyse(self, at: Seat, match: bool) -> None:
        assert self.conn is not None
        self.say(_("Asking for the analysis…"))
        try:
            async for update in self.conn.analyze(at.model.summary.id, 0, at.token, match=match):
                what = update.WhichOneof("update")
                if what == "analysis":
                    # The hand judged is the last that ended, not the one being dealt now.
                    number = at.ended_hand or update.analysis.hand
                    at.analysis = (update.analysis, number)
                    self._say_text(analysis_text(at.model, update.analysis, number).plain)
                elif what == "match":
                    self._say_text(match_text(at.model, update.match, places=True).plain)
                elif (progress := progress_said(update)) is not None:
                    self.say(progress)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))

    def _say_text(self, text: str) -> None:
        for line in text.splitlines():
            self.say(line)

    async def invite(self, _rest: str) -> None:
        assert self.conn is not None
        table_id = self.at.model.summary.id if self.at is not None else ""
        try:
            invite = await self.conn.invite(table_id)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))
            return
        wheels = self.conn.server.client_wheels if self.conn.server is not None else ()
        system = self.conn.server.offline_system if self.conn.server is not None else ""
        text = invite_text(invite, table_id in self.conn.owned, wheels, system).plain
        self._say_text(re.sub(r"\(j\)", "(" + _("code") + ")", text))

    async def leave(self, _rest: str) -> None:
        if self._at() is not None:
            await self._leave_table()
            await self.lobby.list_tables()

    async def _leave_table(self, quietly: bool = False) -> None:
        at, self.at = self.at, None
        assert at is not None and self.conn is not None
        for task in at.tasks:
            task.cancel()
        await asyncio.gather(*at.tasks, return_exceptions=True)
        try:
            await self.conn.leave(at.token)
        except grpc.aio.AioRpcError as err:
            if not quietly:
                self.say(error_text(err))
            return
        if not quietly:
            self.say(_("You left the table."))

    # -- closing a table, the records, the history and replays ------------------------------------
    async def close(self, rest: str) -> None:
        """Close a table this player created (its owner token is this connection's), once they say yes."""
        assert self.conn is not None
        table_id = self.lobby.table_id(rest)
        if table_id is None:
            return
        if table_id not in self.conn.owned:
            self.say(_("Only the table's owner (who created it) may close it."))
            return
        name = next((t.name for t in await self.lobby.tables_now() if t.id == table_id), "") or _("this table")
        answer = await self.ask(_("Close {name}? Everyone at it is told it closed; its hands are kept. Yes or "
                                  "no.").format(name=name))
        if plain(answer) not in ("y", "yes", plain(_("yes"))):
            self.say(_("The table stays open."))
            return
        try:
            await self.conn.close_table(table_id)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))
            return
        self.say(_("The table is closed."))
        await self.lobby.list_tables()


    # -- a rummy hand's own commands -----------------------------------------------------------
    async def discard(self, rest: str) -> None:
        """Discard the card named ("7 of hearts", "7h"), as the numbered choice would."""
        if (at := self._at()) is None:
            return
        if at.spectating or not (at.online and my_turn(at.model)):
            self.say(_("It is not your turn: nothing was sent."))
            return
        picked = discard_of(self._choices(at), rest)
        if picked.action is None:
            self.say(picked.problem)
            return
        await self.act(at, picked.action)

    async def hint(self, rest: str) -> None:
        """The melds a card of the player's makes or would complete (the rummy games): the card named, else
        the one just drawn."""
        if (at := self._at()) is None:
            return
        assert self.conn is not None
        view = at.model.view
        family = family_for(view) if view is not None else None
        if view is None or family is None or family.hint_cards is None:
            self.say(_("Meld hints are for the rummy games, during a hand."))
            return
        if at.spectating:
            self.say(_("You are watching: you hold no cards."))
            return
        cards, drawn = family.hint_cards(view)
        if not cards:
            self.say(_("You hold no cards."))
            return
        code = card_named(rest, cards) if rest.strip() else (drawn or None)
        if code is None:
            self.say(_("{card} is not a card you hold.").format(card=rest.strip()) if rest.strip() else _(
                "Which card? Type hint and a card of yours: for example hint {card}.").format(
                card=cards_words(cards[:1])))
            return
        try:
            hint = await self.conn.hint(at.token, code)
        except grpc.aio.AioRpcError as err:
            self.say(error_text(err))
            return
        self.say(hint_told(code, hint).plain)


def progress_said(update: analysis_pb2.AnalyzeUpdate) -> str | None:
    """Where an analysis stands, for the ear: how many decisions are judged, and of how many once known (not "0 of
    ?", a question mark read as a question)."""
    p = update.progress
    if update.WhichOneof("update") != "progress" or p.total:
        return progress_text(update)
    said = ngettext("Analysing: {n} decision judged so far.", "Analysing: {n} decisions judged so far.",
                    p.done).format(n=p.done)
    return _("Hand {n} of {hands}.").format(n=p.hand, hands=p.hands) + " " + said if p.hands else said


def _mistakes(n: int) -> str:
    return ngettext("{n} mistake", "{n} mistakes", n).format(n=n) if n else _("no mistakes")


def _bell_wanted(own_config: bool) -> bool:
    """The bell sounds at the start of each turn unless the player turned it off (it is the line mode's way of
    saying a turn began without a word); a browser guest's is on, their page keeping no choice of it here."""
    if not own_config:
        return True
    try:
        return bell_file().read_text(encoding="utf-8").strip() != "off"
    except (OSError, UnicodeDecodeError):
        return True


async def run_lines(start: Start, lines: Lines) -> int:
    """The line mode until the player quits or input ends; its exit code."""
    return await LineRoom(start, lines).run()


def run(start: Start) -> int:
    """``cardtui connect --screen-reader`` (and ``play``): the line mode on this terminal, or on the browser
    page's terminal for a browser guest."""
    from cardtui.client.lines.terminal import BrowserLines, TerminalLines, in_browser

    lines: Lines
    if in_browser():
        browser = BrowserLines()
        lines = browser
        try:
            return asyncio.run(run_lines(start, lines))
        finally:
            browser.close()
    terminal = TerminalLines()
    try:
        return asyncio.run(run_lines(start, terminal))
    finally:
        terminal.close()  # the terminal's own echo and line editing back as they were


__all__ = ["LineRoom", "Quit", "Start", "run", "run_lines"]
