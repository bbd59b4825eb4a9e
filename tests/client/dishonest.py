"""A dishonest server: real gRPC on 127.0.0.1 (port 0), speaking the .proto, that cheats on fair deals.

It seats the client at seat 0 of a two-seat Cacho table (a bot at seat 1) and deals hand after
hand, each by one ``Trick``: every one of them a way a host could pick the deck, or hide that it
did, while sending what looks like a fair deal. It wants a six as the client's first card (an
honest deck gives one a hand in six) and steers towards it wherever its trick lets it choose.
The game itself is real (the engine makes the events, as a server would); only the fair-deal
messages lie. ``dealt`` records, for each table deal, the trick, whether the client's first card
was a six and whether the host's choice put it there, for the tests to hold against what the
client's screen said.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, cast

import grpc

from cardtui.engine.core import Bound, Event, Game, Match
from cardtui.engine.games import GAMES
from cardtui.fair import SCHEME, SCHEMES, Chain, DealSeed, before, commitment
from cardtui.server import wire
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc

TABLE = "cheat-01"
CUT_MS = 5000
"""What the server says it waits for seeds: long, so that no honest seed of the client's is late."""
LATE_MS = 300
"""The short window the ``LATE`` trick announces; it answers 200 ms after the seed comes."""
WAIT_FOR_CUT = 60.0
"""How long at most it waits for the client's seed where a trick needs one: it comes at once, and the
hand is dealt when it has (this bound only ends a test that broke, on a machine however busy)."""
TOKEN = "ana-token"
SEATS = [common_pb2.SeatSummary(seat=0, name="ana", taken=True, team=0),
         common_pb2.SeatSummary(seat=1, name="bot 2", bot=True, taken=True, team=1, bot_level="easy")]
HOSTED = [SEATS[0], common_pb2.SeatSummary(seat=1, name="bia", taken=True, team=1)]
"""The seats where the host plays seat 2 itself, as a person for all anyone can see."""


class Trick(StrEnum):
    """How one hand is dealt."""

    HONEST = "honest"
    """Commits, waits for the client's seed, deals with it and reveals it: nothing to steer."""
    NO_WAIT = "no_wait"
    """Says it waits for no seed (``cut_ms`` 0), having drawn its own seed until the deck gives the six."""
    BATCHED = "batched"
    """Sends the commitment in one message with the deal, its seed drawn until six."""
    REPLAYED = "replayed"
    """Sends the commitment alone but marked ``replay``, its seed drawn until six."""
    REFUSED = "refused"
    """Answers the client's seed "too late" at once (and deals without it) whenever that gives the six."""
    LATE = "late"
    """Waits out most of a short window before answering "too late" (and deals without the seed)
    whenever that gives the six: a slow network's alibi."""
    SILENT = "silent"
    """Never answers the client's seed; deals without it whenever that gives the six."""
    AFTER_CARDS = "after_cards"
    """Deals first, a six drawn for the client, and sends the commitment after the first card."""
    SWAPPED = "swapped"
    """Reveals (and deals with) the client's seed as the bot's seat's whenever that gives the six."""
    OLD_SEED = "old_seed"
    """Deals with the client's seed of an earlier hand, known before it commits: its seed drawn until six."""
    BOT_SEED = "bot_seed"
    """Takes the client's seed, then draws a seed for the bot's seat until the deck gives the six."""
    OTHER_HAND = "other_hand"
    """Keys the deck to another hand number, tried after the client's seed came until one gives the six."""
    OTHER_TABLE = "other_table"
    """Keys the deck to another table id, tried after the client's seed came until one gives the six."""
    NO_COMMIT = "no_commit"
    """Deals with no commitment at all (its seed drawn until six), and reveals at the end."""
    UNREVEALED = "unrevealed"
    """Commits and deals honestly, and never reveals."""
    AWAITED_EMPTIED = "awaited_emptied"
    """Deals honestly with the client's seed but says it waited for nobody."""
    # A host that plays at its own table: seat 2 is a person's as far as anyone can see, and the host plays it.
    HOST_GRIND = "host_grind"
    """Its seat's seed is drawn after the client's link came, again and again until the deck gives the six."""
    HOST_WITHHOLD = "host_withhold"
    """Its seat's pledged link goes in if that deck gives the six; else it is held back if that deck does."""
    REPLEDGED = "repledged"
    """Its seat's seed is drawn after the client's link came, and the reveal names that seed's own pledge."""
    SKIPPED = "skipped"
    """Its seat puts in a link further down its own chain (of the next hundreds, whichever gives the six)."""
    OTHER_SCHEME = "other_scheme"
    """Commits under ``cardtui-deal/1`` (no pledges), and its seat's seed is drawn after the client's came."""
    # Who is dealt what, named after the cut.
    DEALER = "dealer"
    """Names the dealer (so the order of dealing) after the cut, whichever gives the client the six."""
    ROUND_ORDER = "round_order"
    """Names the dealer the rules give, but deals the first round in the order that gives the six."""
    # The client's own chain.
    SEED_REUSED = "seed_reused"
    """Names a link of the client's already seen (so its seed is known before committing), seed drawn until six."""
    # A commitment is final: what a host does once every link is in, short of breaking any check.
    ABORT = "abort"
    """Once the client's link is in, drops the commitment before any card (a "restart", a timeout) and commits
    again to the same deal number with the next link, up to 8 times, until the deck gives the six."""
    ABORT_SKIP = "abort_skip"
    """The same, the deal number moving on with each new commitment."""
    MISDEAL = "misdeal"
    """Deals, and if the deck lacks the six reveals at once (no ``HandEnded``) and deals again from a new
    commitment and the next link, up to 8 times."""
    RESYNC = "resync"
    """Sends a snapshot before the hand (a resumed stream's), commits naming no dealer, and names the dealer
    once the link is in, whichever gives the six."""
    LATE_VOTE = "late_vote"
    """The host's seat votes to swap the seats once the link is in (seeds follow their holders): the swapped
    deal or the other, whichever gives the client the six."""


STEERING = frozenset({Trick.NO_WAIT, Trick.BATCHED, Trick.REPLAYED, Trick.AFTER_CARDS, Trick.OLD_SEED,
                      Trick.BOT_SEED, Trick.NO_COMMIT, Trick.HOST_GRIND, Trick.REPLEDGED, Trick.OTHER_SCHEME,
                      Trick.SEED_REUSED})
"""Tricks that let the host try decks until it likes one: the six comes every hand."""
CHOOSING = frozenset({Trick.REFUSED, Trick.LATE, Trick.SILENT, Trick.SWAPPED, Trick.OTHER_HAND, Trick.OTHER_TABLE,
                      Trick.HOST_WITHHOLD, Trick.SKIPPED, Trick.DEALER, Trick.ROUND_ORDER})
"""Tricks the host plays once it has the client's seed, where the honest deck lacks the six: two
decks or more to pick from."""
HOST_TRICKS = frozenset({Trick.HOST_GRIND, Trick.HOST_WITHHOLD, Trick.REPLEDGED, Trick.SKIPPED, Trick.OTHER_SCHEME})
"""Tricks of a host that plays seat 2 itself (``Dishonest.hosted``)."""
FINAL = frozenset({Trick.ABORT, Trick.ABORT_SKIP, Trick.MISDEAL, Trick.RESYNC, Trick.LATE_VOTE})
"""Tricks against a commitment's being final: each speaks the scheme correctly, and chooses by what it leaves
undealt, re-voted or resynced (they are in ``CHOOSING``: the host chooses once the link is in)."""
CHOOSING = CHOOSING | FINAL
RETRIES = 8
"""How many commitments an aborting or misdealing host tries for one hand, at most."""


@dataclass(frozen=True)
class Dealt:
    """What the server did in one table deal."""

    hand: int
    trick: Trick
    six: bool
    """The client's first card was a six."""
    steered: bool
    """The host's choice made the deck (drawing its seed again, dropping or moving a seed, ...)."""


def opened(deal: DealSeed, dealer: int | None = None) -> tuple[Match, list[Event]]:
    """The Cacho match ``deal`` opens, its first dealer the rules' (the last seat) unless ``dealer`` is named."""
    rules = GAMES["cacho"]
    seats = rules.seat_infos(["ana", "bot 2"])
    if dealer is None:
        return rules.open({}, seats, deal)
    game = cast(Game[Any, Any, Any], rules)
    state, events = game.resume(game.options({}), seats, [20, 20], dealer, 1, deal)
    return Bound(game, state), events


def first_card(deal: DealSeed, dealer: int | None = None, seat: int = 0) -> str:
    """The client's first card in the Cacho hand ``deal`` makes (at ``seat`` of two: 0 unless swapped)."""
    _match, events = opened(deal, dealer)
    return next(wire.note(ev.body.cards[0]) for ev in events if ev.kind == "CardsDealt" and ev.body.seat == seat)


def is_six(deal: DealSeed, dealer: int | None = None, seat: int = 0) -> bool:
    return first_card(deal, dealer, seat).startswith("6")


def seated(order: tuple[int, ...], mine: int, server: bytes, link: bytes, number: int,
           named: tuple[tuple[int, bytes], ...], host: bytes = b"") -> tuple[int, DealSeed]:
    """The client's seat (``mine`` before) in a match dealt with the seats in ``order``, and its deal (with the
    host's own seat's ``host`` link, where it plays the other seat): seeds and pledges follow their holders, as
    the real server's do."""
    def moved(seat: int) -> int:
        return order.index(seat) if order else seat

    at = moved(mine)
    seeds = ((at, link), (moved(1 - mine), host)) if host else ((at, link),)
    return at, DealSeed(server, seeds, TABLE, number, SCHEME, tuple((moved(s), f) for s, f in named))


@dataclass
class Dishonest:
    """The server's state: the plan, the seeds the client sent, and what was dealt."""

    plan: Callable[[int], Trick]
    hands: int
    always: bool = True
    """Play the trick every time (a test of what the client says); otherwise only where it gives the
    six (the steering that a host would do, for the statistics)."""
    rng: random.Random = field(default_factory=lambda: random.Random(36))
    cuts: asyncio.Queue[tuple[int, bytes, asyncio.Future[bool]]] = field(default_factory=asyncio.Queue)
    seeds: list[bytes] = field(default_factory=list)
    """Every seed the client sent, in order."""
    dealt: list[Dealt] = field(default_factory=list)
    seq: int = 0
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    """Every hand of the plan has been sent."""
    follows: bytes = b""
    """Where the client's chain stands (docs/deal.md §3a): its pledge (from ``JoinTable``), then each link taken."""
    hosted: bool = False
    """The host plays seat 2 itself, shown as a person's (``HOSTED``): its chain is the host's."""
    host: Chain = field(default_factory=lambda: Chain.make(length=512))
    host_follows: bytes = b""
    """Where the host seat's chain stands: its pledge, then each link it put in."""
    skipped: int = 0
    """Deal numbers used by commitments it dropped (``ABORT_SKIP``): each later deal's number moves on."""
    viewer: int = 0
    """The client's seat (1 after a swap, until the next match swaps it back)."""

    # -- the wire --------------------------------------------------------------------------
    @property
    def seats(self) -> list[common_pb2.SeatSummary]:
        return HOSTED if self.hosted else SEATS

    def summary(self) -> common_pb2.TableSummary:
        return common_pb2.TableSummary(id=TABLE, game="cacho", name="steered", seats=self.seats,
                                       status=common_pb2.TABLE_STATUS_PLAYING, turn_seconds=30)

    def event(self, body: Event | table_pb2.Event, replay: bool = False) -> table_pb2.Event:
        """The next event number, on an engine event (as the client's seat sees it) or a fair-deal one."""
        self.seq += 1
        if isinstance(body, Event):
            return wire.event_message(self.seq, body, self.viewer, replay=replay)
        body.seq, body.replay = self.seq, replay
        return body

    def update(self, events: list[table_pb2.Event], match: Match | None) -> table_pb2.TableMessage:
        view = wire.view_message(match.view(self.viewer) if match is not None else None, (), 0, self.seats)
        return table_pb2.TableMessage(seq=self.seq, update=table_pb2.Update(events=events, view=view))

    def pledges(self) -> tuple[tuple[int, bytes], ...]:
        """What the commitment names: the client's seat and where its chain stands (and the host's seat's)."""
        if self.hosted and not self.host_follows:
            self.host_follows = self.host.pledge
        mine = ((self.viewer, self.follows),) if self.follows else ()
        return (*mine, (1 - self.viewer, self.host_follows)) if self.hosted else mine

    def host_link(self) -> bytes:
        """The host seat's next link: the one its chain fixed when it "sat down"."""
        link = self.host.after(self.host_follows)
        assert link is not None
        return link

    def committed(self, hand: int, server: bytes, cut_ms: int = CUT_MS,
                  pledges: tuple[tuple[int, bytes], ...] | None = None, scheme: str = SCHEME,
                  dealer: int | None = 1, seats_from: tuple[int, ...] = ()) -> table_pb2.Event:
        """A commitment; as the real server's, it fixes the dealer (the rules' first: seat 2 of two at Cacho) and
        the new match's seats, unless ``dealer`` is None (a server from before those fields)."""
        named = self.pledges() if pledges is None else pledges
        return table_pb2.Event(deal_committed=table_pb2.DealCommitted(
            hand=hand, commitment=commitment(server), cut_ms=cut_ms, scheme=scheme if scheme != SCHEMES[0] else "",
            pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in named], dealer=dealer,
            seats_from=seats_from, opens_match=dealer is not None))

    def revealed(self, deal: DealSeed, awaited: tuple[int, ...] = (0,)) -> table_pb2.Event:
        seeds = [table_pb2.PlayerSeed(seat=s, seed=b) for s, b in deal.player_seeds]
        return table_pb2.Event(deal_revealed=table_pb2.DealRevealed(
            hand=deal.hand, scheme=deal.scheme, table=deal.table, server_seed=deal.server_seed, seeds=seeds,
            awaited=awaited, pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in deal.pledges]))

    def steer(self, make: Callable[[bytes], DealSeed]) -> DealSeed:
        """The server's seed drawn again and again until the deck gives the client a six."""
        while True:
            deal = make(self.rng.randbytes(32))
            if is_six(deal):
                return deal

    async def cut(self, hand: int) -> tuple[bytes, asyncio.Future[bool]] | None:
        """The client's seed for ``hand``, when it comes, and the answer to give it."""
        with contextlib.suppress(TimeoutError):
            while True:
                got, seed, answer = await asyncio.wait_for(self.cuts.get(), WAIT_FOR_CUT)
                if got == hand:
                    self.seeds.append(seed)
                    return seed, answer
                answer.set_result(False)
        return None

    # -- a hand --------------------------------------------------------------------------
    async def deal(self, hand: int, trick: Trick) -> AsyncIterator[table_pb2.TableMessage]:
        """One hand's messages, dealt by ``trick``."""
        if trick in FINAL or self.viewer:
            async for msg in self.final(hand, trick):
                yield msg
            return
        hand += self.skipped  # the table's deal number: past every commitment it dropped
        fresh = self.rng.randbytes(32)
        named = self.pledges()  # as the commitment names them, before any link comes
        scheme = SCHEMES[0] if trick is Trick.OTHER_SCHEME else SCHEME

        def keyed(server: bytes, *seeds: tuple[int, bytes], table: str = TABLE, number: int = hand) -> DealSeed:
            return DealSeed(server, seeds, table, number, scheme, () if scheme == SCHEMES[0] else named)

        opening: list[table_pb2.Event] = []
        steered = trick in STEERING
        awaited: tuple[int, ...] = (0,)
        dealer: int | None = None  # the rules' (the last seat), unless a trick names another
        told_dealer: int | None = None  # what HandStarted says, where it is not the dealer who dealt
        if trick in (Trick.NO_WAIT, Trick.BATCHED, Trick.REPLAYED, Trick.AFTER_CARDS, Trick.NO_COMMIT):
            deal = self.steer(keyed)
            if trick is Trick.NO_WAIT:
                yield self.update([self.event(self.committed(hand, deal.server_seed, cut_ms=0))], None)
            elif trick is Trick.REPLAYED:
                yield self.update([self.event(self.committed(hand, deal.server_seed), replay=True)], None)
            elif trick is Trick.BATCHED:
                opening = [self.committed(hand, deal.server_seed)]
        elif trick in (Trick.OLD_SEED, Trick.SEED_REUSED) and self.seeds:
            old = self.seeds[-1]  # a link of the client's, seen already: the server knows it before it commits
            if trick is Trick.SEED_REUSED:  # the commitment names what that old link follows: asked again
                named = ((0, before(old)),)
            deal = self.steer(lambda server: keyed(server, (0, old)))
            yield self.update([self.event(self.committed(hand, deal.server_seed, pledges=named))], None)
            if trick is Trick.OLD_SEED:  # (asked again for a link it sent, the client sends nothing)
                came = await self.cut(hand)
                if came is not None:
                    came[1].set_result(True)
                    self.follows = came[0]
        elif trick is Trick.OTHER_SCHEME:  # under the first version a client with a chain sends nothing
            yield self.update([self.event(self.committed(hand, fresh, pledges=(), scheme=scheme))], None)
            deal = self.steer(lambda drawn: DealSeed(fresh, ((1, drawn),), TABLE, hand, scheme))
        else:
            window = LATE_MS if trick is Trick.LATE else CUT_MS
            pledges = () if scheme == SCHEMES[0] else named
            yield self.update([self.event(self.committed(hand, fresh, cut_ms=window, pledges=pledges))], None)
            came = await self.cut(hand)
            seed, answer = came if came is not None else (b"", None)
            mine = ((0, seed),) if seed else ()
            host = ((1, self.host_link()),) if self.hosted else ()
            honest = keyed(fresh, *mine, *host)
            deal, taken, steered = honest, True, False
            choose = self.always or not is_six(honest)
            if choose and seed and trick in (Trick.REFUSED, Trick.LATE, Trick.SILENT) and (
                    self.always or is_six(keyed(fresh, *host))):
                deal, taken, steered = keyed(fresh, *host), False, True
            elif choose and seed and trick is Trick.SWAPPED and (self.always or is_six(keyed(fresh, (1, seed)))):
                deal, steered = keyed(fresh, (1, seed)), True
            elif seed and trick is Trick.BOT_SEED:
                deal, steered = self.steer(lambda bot: keyed(fresh, (0, seed), (1, bot[:16]))), True
            elif choose and seed and trick in (Trick.OTHER_HAND, Trick.OTHER_TABLE):
                tries = (keyed(fresh, *mine, number=hand + 1000 * k) if trick is Trick.OTHER_HAND
                         else keyed(fresh, *mine, table=f"{TABLE}-{k}") for k in range(1, 400))
                deal, steered = next(d for d in tries if is_six(d)), True
            elif trick is Trick.HOST_GRIND:  # its own seat's seed, drawn after the client's came
                deal, steered = self.steer(lambda drawn: keyed(fresh, *mine, (1, drawn))), True
            elif trick is Trick.REPLEDGED:  # drawn after, and named in the reveal as if it had been pledged
                deal = self.steer(lambda drawn: replace(keyed(fresh, *mine, (1, drawn)), pledges=(
                    *((0, f) for s, f in named if s == 0), (1, before(drawn)))))
                steered = True
            elif choose and trick is Trick.SKIPPED and host:
                at = self.host.place(self.host_follows)
                assert at is not None
                links = (self.host.link(i) for i in range(at + 2, min(at + 302, len(self.host))))  # the next skipped
                pick = next((keyed(fresh, *mine, (1, link)) for link in links
                             if is_six(keyed(fresh, *mine, (1, link)))), None)
                if pick is not None:
                    deal, steered = pick, True
            elif choose and trick is Trick.HOST_WITHHOLD and (self.always or is_six(keyed(fresh, *mine))):
                deal, steered = keyed(fresh, *mine), True  # its pledged link held back: the other deck
            elif choose and trick in (Trick.DEALER, Trick.ROUND_ORDER) and (self.always or is_six(honest, 0)):
                dealer, steered = 0, True
                told_dealer = 1 if trick is Trick.ROUND_ORDER else None
            if answer is not None and trick is not Trick.SILENT:
                if trick is Trick.LATE and not taken:
                    await asyncio.sleep(0.2)  # more than half the window: the client cannot say it came in time
                answer.set_result(taken)
            if seed:
                self.follows = seed  # the client's chain moves on: a link seen is never asked for again
            if host and dict(deal.player_seeds).get(1) == host[0][1]:
                self.host_follows = host[0][1]
            if trick is Trick.AWAITED_EMPTIED:
                awaited = ()
        self.dealt.append(Dealt(hand, trick, is_six(deal, dealer), steered))
        match, events = opened(deal, dealer)
        if told_dealer is not None:  # the dealer the rules give, said over a deal made from another seat
            events = [Event(replace(ev.body, dealer=told_dealer)) if ev.kind == "HandStarted" else ev for ev in events]
        started = [self.event(table_pb2.Event(match_started=table_pb2.MatchStarted(match=hand)))]
        if trick is Trick.AFTER_CARDS:  # the hand's start and the client's first card, then the commitment
            first = next(i for i, ev in enumerate(events) if ev.kind == "CardsDealt" and ev.body.seat == 0)
            yield self.update([*started, *(self.event(ev) for ev in events[: first + 1])], match)
            yield self.update([self.event(self.committed(hand, deal.server_seed))], match)
            events = events[first + 1:]
            started = []
        dealt = [*(self.event(ev) for ev in opening), *started, *(self.event(ev) for ev in events)]
        yield self.update(dealt, match)
        rng = random.Random(hand)
        played: list[table_pb2.Event] = []
        while not match.hand_over():
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            played += [self.event(ev) for ev in match.apply(seat, match.bot_action(seat, rng, "easy"))]
        if trick is not Trick.UNREVEALED:
            played.append(self.event(self.revealed(deal, awaited)))
        yield self.update(played, match)


    async def final(self, hand: int, trick: Trick) -> AsyncIterator[table_pb2.TableMessage]:
        """A hand of the tricks against a commitment's being final (``FINAL``), or an honest one after a swap
        (the seats swapped back, as its commitment says). Whatever it chooses, every message it sends is what an
        honest server could send: only what it leaves undealt, re-votes or resyncs chooses the deck."""
        swap_back = (1, 0) if self.viewer else ()
        tries = 0
        mine = self.viewer
        while True:
            number = hand + self.skipped
            server = self.rng.randbytes(32)
            named = self.pledges()
            if trick is Trick.RESYNC:  # a snapshot, as a resumed stream gets, then a commitment naming no dealer
                view = wire.view_message(None, (), 0, self.seats)
                yield table_pb2.TableMessage(seq=self.seq, snapshot=table_pb2.Snapshot(
                    table=self.summary(), seat=self.viewer, view=view, first_seq=self.seq + 1))
            yield self.update([self.event(self.committed(number, server, dealer=None if trick is Trick.RESYNC else 1,
                                                         seats_from=swap_back))], None)
            came = await self.cut(number)
            assert came is not None, "the client sent no link"
            link, answer = came
            answer.set_result(True)
            self.follows = link
            tries += 1
            host = self.host_link() if self.hosted else b""
            order = swap_back
            at, deal = seated(order, mine, server, link, number, named, host)
            dealer: int | None = None
            if trick is Trick.RESYNC and (self.always or (not is_six(deal, seat=at) and is_six(deal, 0, at))):
                dealer = 0  # the dealer named once the link is in: whichever gives the six
            elif trick is Trick.LATE_VOTE and not swap_back and (self.always or (
                    not is_six(deal) and is_six(seated((1, 0), mine, server, link, number, named, host)[1], seat=1))):
                order = (1, 0)  # the host's seat votes to swap once the link is in
                at, deal = seated(order, mine, server, link, number, named, host)
            if host:
                self.host_follows = host  # its seat's chain moves on, as the client's does
            liked = is_six(deal, dealer, at) if not self.always else tries > 1
            if trick in (Trick.ABORT, Trick.ABORT_SKIP, Trick.MISDEAL) and not liked and tries < RETRIES:
                if trick is Trick.MISDEAL:  # dealt, then "a misdeal": revealed at once, before the hand ends
                    self.viewer = at
                    match, events = opened(deal)
                    started = table_pb2.Event(match_started=table_pb2.MatchStarted(match=number, seats_from=order))
                    yield self.update([self.event(started), *(self.event(ev) for ev in events)], match)
                    yield self.update([self.event(self.revealed(deal, awaited=(at,)))], match)
                    swap_back, mine = (), at
                elif trick is Trick.ABORT_SKIP:
                    self.skipped += 1
                continue  # (ABORT: nothing more is said of it: a restart, a timeout)
            break
        steered = tries > 1 or dealer is not None or order != swap_back
        self.viewer = at
        self.dealt.append(Dealt(number, trick, is_six(deal, dealer, at), steered))
        match, events = opened(deal, dealer)
        started = [] if trick is Trick.RESYNC else [  # (RESYNC: the same match goes on, as far as the client knows)
            self.event(table_pb2.Event(match_started=table_pb2.MatchStarted(match=number, seats_from=order)))]
        yield self.update([*started, *(self.event(ev) for ev in events)], match)
        rng = random.Random(number)
        played: list[table_pb2.Event] = []
        while not match.hand_over():
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            played += [self.event(ev) for ev in match.apply(seat, match.bot_action(seat, rng, "easy"))]
        played.append(self.event(self.revealed(deal, awaited=(at,))))
        yield self.update(played, match)


class Lobby(lobby_pb2_grpc.LobbyServicer):
    """Just enough of a lobby for the client to find the table and sit at it."""

    def __init__(self, cheat: Dishonest) -> None:
        self.cheat = cheat

    async def GetInfo(self, request: Any, context: Any) -> lobby_pb2.ServerInfo:
        game = lobby_pb2.GameInfo(name="cacho", title="Cacho", min_players=2, max_players=6,
                                  player_counts=[2, 3, 4, 5, 6], bot_levels=["easy"])
        return lobby_pb2.ServerInfo(version="0.0-dishonest", games=[game], tables=1)

    async def Hello(self, request: Any, context: Any) -> Any:
        await context.abort(grpc.StatusCode.UNIMPLEMENTED, "Names are not proved here: play as a guest.")

    async def ListTables(self, request: Any, context: Any) -> lobby_pb2.ListTablesResponse:
        return lobby_pb2.ListTablesResponse(tables=[self.cheat.summary()])

    async def JoinTable(self, request: Any, context: Any) -> lobby_pb2.JoinResponse:
        self.cheat.follows = bytes(request.pledge)
        return lobby_pb2.JoinResponse(token=TOKEN, seat=0, table=self.cheat.summary(), first_seq=1)


class Table(table_pb2_grpc.TableServicer):
    """The table: one stream (the client's), its seeds, and nothing it does counts."""

    def __init__(self, cheat: Dishonest) -> None:
        self.cheat = cheat

    async def Subscribe(self, request: Any, context: Any) -> AsyncIterator[table_pb2.TableMessage]:
        cheat = self.cheat
        view = wire.view_message(None, (), 0, SEATS)
        yield table_pb2.TableMessage(seq=cheat.seq, snapshot=table_pb2.Snapshot(
            table=cheat.summary(), seat=0, view=view, first_seq=cheat.seq + 1))
        for hand in range(1, cheat.hands + 1):
            async for msg in cheat.deal(hand, cheat.plan(hand)):
                yield msg
        cheat.finished.set()
        await asyncio.Event().wait()  # the stream stays open: the table goes on, as far as the client knows

    async def Cut(self, request: table_pb2.CutRequest, context: Any) -> table_pb2.CutResponse:
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self.cheat.cuts.put((request.hand, bytes(request.seed), answer))
        return table_pb2.CutResponse(taken=await answer)  # a trick may never answer

    async def Act(self, request: Any, context: Any) -> table_pb2.ActResponse:
        return table_pb2.ActResponse(seq=self.cheat.seq)


@contextlib.asynccontextmanager
async def serving(cheat: Dishonest) -> AsyncIterator[int]:
    """The dishonest server on 127.0.0.1, a free port: yields the port."""
    server = grpc.aio.server()
    lobby_pb2_grpc.add_LobbyServicer_to_server(Lobby(cheat), server)
    table_pb2_grpc.add_TableServicer_to_server(Table(cheat), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield port
    finally:
        await server.stop(grace=None)
