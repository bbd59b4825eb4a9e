"""A dishonest host as a model: every behaviour a host can show, chosen at random hand after hand, against the
real client's fair-deal check (``cardtui.client.fairness.FairDeals``), in every game.

The host speaks the wire exactly (``cardtui.server.base.wire`` makes each event as the client's seat sees it; the
engine plays every hand out with its bots) and follows no rule it does not choose to. Each hand it draws a
``Move``: how it commits (alone, naming no wait, with the deal, as a replay, not at all, after the first cards,
under the scheme's first version), how many commitments it drops or misdeals once the client's link is in, who
it names to deal and who deals, whether it swaps the seats after the links, what its own seat does with its
pledged chain (cuts, holds back, says it was away, draws a seed after the others', skips down its chain), how it
answers the client's link (takes it, calls it late, never answers), what it reveals (the seeds, another seed,
another table or hand, nothing), and the stream's own accidents (a snapshot before the hand, a gap mid-hand
made up by a snapshot, events sent twice).

What the model knows and the client does not is whether the host *chose*: whether, when the deck was fixed,
the host had seen another deck it could have dealt instead (a link it then dropped, a deal it misdealt), or could
still pick (a seed drawn with no link asked, a dealer or seats named after the links, a link of its own seat held
back or drawn, the client's link left out, a reveal that is not the commitment's). ``Dealt.chose`` records it.

The property (``check``): **whenever the client shows ✔, the deck is the one fixed by links committed before any
was seen, and the host had no choice left**: no ✔ on a hand whose ``Dealt.chose`` is true. And, for a host whose
every move is one an honest server makes (``Move.honest``), no alarm: nothing red.

Over a person's whole stay at the host (``StayModel``, ``run_stay``, ``check_stay``): tables closed mid-cut (the
deal revealed undealt, the client's link in) and opened again with the same person, a second table at once,
the client stopped mid-cut and started again at a new table (its memory's entry left by a process that is
gone), the person leaving between hands; every table's client shares one memory of the host on a temporary
disk (``client.stay``), and every table's hands are dealt by any ``Move`` above. Its property: no ✔ at any table
on a hand dealt after a link of the client's went to a deal that dealt nothing (``rerolled``: the host could
choose between that deck and the next), nor on one the table's own tricks let the host choose; and an honest
stay (every visit above is one an honest host, or the person, makes) raises no alarm. Not covered there: two
tables whose cuts interleave (the client's link in at one while the other deals; the real client shares
the memory between them, and its fate is said on the next deal once known), and the rummy games (their
hands are long; the one-table model plays them).

What it covers: one client, seated, its seed asked for by pledged chain (``cardtui-deal/2``), at tables of every
game and player count the model plays, a host that may also play one seat as a person; every trick above alone
and in any combination, over many hands (the client's memory across hands, snapshots and gaps is the thing
attacked). What it does not: the host forging the seed of another person whose client does not check (only that
person's own client can catch it: docs/fairness.md says so), a host reading the cards it deals, the wire's
transport (the gRPC harness in ``tests.client.dishonest`` does that, with the real screen), and spectators.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, cast

from cardtui.client.fairness import FairDeals, Standing, Verdict
from cardtui.client.stay import Stay
from cardtui.engine.core import Bound, Event, Game, Match, Rules
from cardtui.engine.games import GAMES
from cardtui.fair import SCHEME, SCHEMES, Chain, DealSeed, commitment
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, table_pb2

TABLE = "model-01"
CUT_MS = 30_000


class Commit(StrEnum):
    ALONE = "alone"
    """The commitment alone, live, waiting for links: the honest way."""
    NO_WAIT = "no_wait"
    BATCHED = "batched"
    REPLAYED = "replayed"
    NONE = "none"
    AFTER_CARDS = "after_cards"
    OLD_SCHEME = "old_scheme"


class Dealer(StrEnum):
    NAMED = "named"
    """The commitment names the rules' dealer, who deals: the honest way."""
    UNNAMED = "unnamed"
    """The commitment names nobody (a server from before the field); the rules' dealer deals."""
    NAMED_OTHER = "named_other"
    """The commitment names the rules' dealer; another deals, chosen after the links."""
    UNNAMED_OTHER = "unnamed_other"
    """The commitment names nobody; another than the rules' dealer deals, chosen after the links."""
    CHOSEN = "chosen"
    """The commitment names, before any link, a dealer the host picked (the seat before its own, so that its seat
    leads), and that seat deals: the deck is not chosen, who leads and bets first is. A client that saw the
    rotation says it is out of turn; one that rests on the table's word (a snapshot, a gap) must not give ✔."""


class Drop(StrEnum):
    ABORT = "abort"
    """The commitment is dropped once the link is in, before any card (a "restart"): another follows, for the
    same deal number."""
    ABORT_SKIP = "abort_skip"
    """The same, the deal number moving on."""
    MISDEAL = "misdeal"
    """The hand is dealt, then revealed at once (no end) and dealt again from a new commitment."""


class Snap(StrEnum):
    NONE = "none"
    BEFORE = "before"
    """A snapshot before the hand, as a resumed stream gets, nothing missed."""
    LYING = "lying"
    """A snapshot before the hand whose view names another dealer for the last hand than the one who dealt."""
    GAP = "gap"
    """Part of the hand never reaches the client: a snapshot stands in for it."""


class Swap(StrEnum):
    NONE = "none"
    NAMED = "named"
    """At a new match, the seats swapped as the commitment said: the honest way."""
    LATE = "late"
    """At a new match, the seats swapped after the links, not as the commitment said."""


class HostSeat(StrEnum):
    CUTS = "cuts"
    """Its seat puts in its pledged link: the honest way."""
    WITHHOLDS = "withholds"
    GONE = "gone"
    """Its link left out, its seat said to be away (its stream closed): what an honest server says of a person
    who left; from a host that plays the seat, a choice between two decks all the same."""
    GRINDS = "grinds"
    SKIPS = "skips"


class Answer(StrEnum):
    TAKEN = "taken"
    REFUSED = "refused"
    SILENT = "silent"


class Reveal(StrEnum):
    HONEST = "honest"
    WRONG_SEED = "wrong_seed"
    OTHER_TABLE = "other_table"
    OTHER_HAND = "other_hand"
    NONE = "none"
    AWAITED_EMPTY = "awaited_empty"
    """The seeds honestly, the list of seats waited for left empty: the server's word, and nothing chosen."""


@dataclass(frozen=True)
class Move:
    """What the host does for one hand."""

    commit: Commit = Commit.ALONE
    dealer: Dealer = Dealer.NAMED
    drops: tuple[Drop, ...] = ()
    snap: Snap = Snap.NONE
    swap: Swap = Swap.NONE
    host: HostSeat = HostSeat.CUTS
    answer: Answer = Answer.TAKEN
    reveal: Reveal = Reveal.HONEST
    resend: bool = False

    @property
    def honest(self) -> bool:
        """Every part of it is something an honest server does (or the stream does to it)."""
        return (self.commit is Commit.ALONE and self.dealer in (Dealer.NAMED, Dealer.UNNAMED) and not self.drops
                and self.snap in (Snap.NONE, Snap.BEFORE, Snap.GAP) and self.swap is not Swap.LATE
                and self.host in (HostSeat.CUTS, HostSeat.GONE) and self.answer is Answer.TAKEN
                and self.reveal in (Reveal.HONEST, Reveal.AWAITED_EMPTY))


HONEST = Move()


def random_move(rng: random.Random, dishonest: float = 0.5) -> Move:
    """A move: honest in every part with probability ``1 - dishonest``, else each part drawn on its own."""
    if rng.random() >= dishonest:
        return Move(snap=rng.choice([Snap.NONE, Snap.NONE, Snap.BEFORE, Snap.GAP]), resend=rng.random() < 0.2,
                    dealer=rng.choice([Dealer.NAMED, Dealer.NAMED, Dealer.UNNAMED]),
                    swap=rng.choice([Swap.NONE, Swap.NONE, Swap.NAMED]),
                    host=rng.choice([HostSeat.CUTS, HostSeat.CUTS, HostSeat.GONE]),
                    reveal=rng.choice([Reveal.HONEST, Reveal.HONEST, Reveal.AWAITED_EMPTY]))

    def pick(options: list[Any], honest: Any) -> Any:
        return rng.choice(options) if rng.random() < 0.3 else honest

    return Move(commit=pick(list(Commit), Commit.ALONE), dealer=pick(list(Dealer), Dealer.NAMED),
                drops=tuple(rng.choice(list(Drop)) for _ in range(rng.choice([0, 0, 1, 1, 2]))),
                snap=pick(list(Snap), Snap.NONE), swap=pick(list(Swap), Swap.NONE),
                host=pick(list(HostSeat), HostSeat.CUTS), answer=pick(list(Answer), Answer.TAKEN),
                reveal=pick(list(Reveal), Reveal.HONEST), resend=rng.random() < 0.2)


@dataclass(frozen=True)
class Dealt:
    """A hand the host dealt (a deal number may have been used by commitments it dropped first)."""

    deal: int
    move: Move
    chose: bool
    """When the deck was fixed, the host had seen another it could deal, or could still pick one."""
    revealed: bool
    opens_match: bool


@dataclass
class Host:
    """The model's host: one table of ``game`` for ``players``, the client at seat 0, seat 1 played by the host
    as a person (``hosted``) or by a bot, the rest bots."""

    game: str
    players: int
    rng: random.Random
    hosted: bool = True
    fair: FairDeals = field(default_factory=FairDeals)
    client: Chain = field(default_factory=lambda: Chain.make(length=2048))
    host: Chain = field(default_factory=lambda: Chain.make(length=4096))
    seq: int = 0
    deal: int = 0
    at: int = 0
    """The client's seat (it moves when the seats are swapped)."""
    host_at: int | None = None
    """The seat the host plays as a person (seat 1 at first; None: bots only), moved with the seats too."""
    client_follows: bytes = b""
    host_follows: bytes = b""
    match: Match | None = None
    dealt: list[Dealt] = field(default_factory=list)
    sent: list[table_pb2.TableMessage] = field(default_factory=list)
    """Every message the client was given, in order."""
    pending: list[tuple[int, bytes]] = field(default_factory=list)
    """Links the client sent and the host has not read yet."""
    table: str = TABLE
    stay: Stay | None = None
    """The client's memory of this host (``client.stay``), shared by every table of a ``Visit``."""

    def __post_init__(self) -> None:
        self.rules: Rules = GAMES[self.game]
        self.fair.chain = self.client
        self.fair.stay = self.stay
        self.client_follows, self.host_follows = self.client.pledge, self.host.pledge
        self.host_at = 1 if self.hosted else None
        self.give(table_pb2.TableMessage(seq=0, snapshot=table_pb2.Snapshot(
            table=self.summary(), seat=self.at, view=wire.view_message(None, (), 0, self.seats()), first_seq=1)))

    # -- the wire ---------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return ["ana" if seat == self.at else "bia" if seat == self.host_at else f"bot {seat + 1}"
                for seat in range(self.players)]

    def seats(self) -> list[common_pb2.SeatSummary]:
        return [common_pb2.SeatSummary(seat=seat, name=name, taken=True, bot=name.startswith("bot"),
                                       team=seat % 2 if self.rules.teams else seat)
                for seat, name in enumerate(self.names())]

    def summary(self) -> common_pb2.TableSummary:
        return common_pb2.TableSummary(id=self.table, game=self.game, name="model", seats=self.seats(),
                                       status=common_pb2.TABLE_STATUS_PLAYING, turn_seconds=30)

    def view(self) -> table_pb2.View:
        return wire.view_message(self.match.view(self.at) if self.match is not None else None, (), 0, self.seats())

    def give(self, msg: table_pb2.TableMessage) -> None:
        """The client reads a message: the links it sends are kept for the host to read."""
        self.sent.append(msg)
        self.pending += self.fair.feed(msg)

    def events(self, bodies: list[Event | table_pb2.Event], replay: bool = False) -> list[table_pb2.Event]:
        out = []
        for body in bodies:
            self.seq += 1
            if isinstance(body, Event):
                out.append(wire.event_message(self.seq, body, self.at, replay=replay))
            else:
                body.seq, body.replay = self.seq, replay
                out.append(body)
        return out

    def update(self, bodies: list[Event | table_pb2.Event], replay: bool = False, view: bool = True
               ) -> table_pb2.TableMessage:
        events = self.events(bodies, replay)
        return table_pb2.TableMessage(seq=self.seq, update=table_pb2.Update(
            events=events, view=self.view() if view else None))

    def snapshot(self, lie: bool = False) -> None:
        view = self.view()
        if lie and view.hand:
            view.dealer = (view.dealer + 1) % self.players
        self.give(table_pb2.TableMessage(seq=self.seq, snapshot=table_pb2.Snapshot(
            table=self.summary(), seat=self.at, view=view, first_seq=self.seq + 1)))

    def link(self, deal: int) -> bytes | None:
        """The client's link for ``deal``, if it sent one."""
        got = [seed for hand, seed in self.pending if hand == deal]
        self.pending = [(h, s) for h, s in self.pending if h != deal]
        return got[-1] if got else None

    # -- one hand -----------------------------------------------------------------------------------
    def play(self, move: Move) -> None:
        """One hand, dealt as ``move`` says."""
        if move.snap in (Snap.BEFORE, Snap.LYING):
            self.snapshot(lie=move.snap is Snap.LYING)
        new_match = self.match is None or self.match.match_over()
        chose = move.commit is not Commit.ALONE
        drops = list(move.drops) if move.commit is Commit.ALONE else []
        order: tuple[int, ...] = ()
        if new_match and move.swap is not Swap.NONE and self.players in (2, 4):
            order = (1, 0) if self.players == 2 else (0, 2, 1, 3)
        reuse = False
        while True:
            if not reuse:
                self.deal += 1
            number = self.deal
            server = self.rng.randbytes(32)
            mine, theirs = self.at, self.host_at
            pledges: dict[int, bytes] = {}
            if move.commit is not Commit.OLD_SCHEME:
                pledges[mine] = self.client_follows
                if theirs is not None:
                    pledges[theirs] = self.host_follows
            rules_dealer = (self.rules.opening_dealer({}, self.rules.seat_infos(self.names())) if new_match
                            else cast(Match, self.match).next_dealer())
            dealer = rules_dealer
            if move.dealer in (Dealer.NAMED_OTHER, Dealer.UNNAMED_OTHER):
                dealer = (rules_dealer + 1) % self.players
                chose = True
            named = None if move.dealer in (Dealer.UNNAMED, Dealer.UNNAMED_OTHER) else rules_dealer
            if move.dealer is Dealer.CHOSEN:
                dealer = named = ((self.host_at if self.host_at is not None else self.at + 1) - 1) % self.players
                chose = chose or dealer != rules_dealer
            if order and move.swap is Swap.LATE:
                chose = True
            scheme = SCHEMES[0] if move.commit is Commit.OLD_SCHEME else SCHEME
            committed = table_pb2.Event(deal_committed=table_pb2.DealCommitted(
                hand=number, commitment=commitment(server), cut_ms=0 if move.commit is Commit.NO_WAIT else CUT_MS,
                scheme="" if scheme == SCHEMES[0] else scheme,
                pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in sorted(pledges.items())],
                dealer=named, seats_from=order if move.swap is Swap.NAMED else (),
                opens_match=new_match and named is not None))
            opening: list[Event | table_pb2.Event] = []
            if move.commit in (Commit.ALONE, Commit.NO_WAIT, Commit.REPLAYED, Commit.OLD_SCHEME):
                self.give(self.update([committed], replay=move.commit is Commit.REPLAYED, view=False))
            elif move.commit is Commit.BATCHED:
                opening = [committed]
            link = self.link(number)
            taken = link is not None and move.answer is Answer.TAKEN
            if link is not None:
                self.client_follows = link  # seen: never asked for again
                if move.answer is not Answer.SILENT:
                    self.fair.taken(number, taken)
            if link is not None and not taken:
                chose = True
            moved = _mover(order)
            seeds: dict[int, bytes] = {}
            if taken and link is not None:
                seeds[moved(mine)] = link
            gone: list[int] = []
            if theirs is not None and move.commit is not Commit.OLD_SCHEME:
                own = self.host.after(self.host_follows)
                assert own is not None
                if move.host is HostSeat.CUTS:
                    seeds[moved(theirs)] = own
                    self.host_follows = own
                elif move.host is HostSeat.GRINDS:
                    seeds[moved(theirs)] = self.rng.randbytes(32)
                    chose = True
                elif move.host is HostSeat.SKIPS:
                    at = self.host.place(self.host_follows)
                    assert at is not None
                    seeds[moved(theirs)] = self.host.link(at + 2)
                    chose = True
                else:  # held back, or said to be away: a choice between two decks either way
                    chose = True
                    if move.host is HostSeat.GONE:
                        gone.append(moved(theirs))
            elif theirs is not None:  # the first version: its seat's seed drawn freely
                seeds[moved(theirs)] = self.rng.randbytes(32)
            revealed_pledges = tuple(sorted((moved(s), f) for s, f in pledges.items()))
            deck = DealSeed(server, tuple(sorted(seeds.items())), self.table, number, scheme, revealed_pledges)
            if drops:
                drop = drops.pop(0)
                if link is not None:
                    chose = True  # another deck seen: the one dealt in the end could be either
                reuse = drop is Drop.ABORT
                if drop is Drop.MISDEAL:  # dealt from a copy: the match in play does not move
                    events, _match = self._deal(deck, new_match, order, dealer, fresh=True)
                    self.give(self.update([*opening, *events]))
                    self.give(self.update([self._reveal(deck, Reveal.HONEST, moved(mine), gone)]))
                    if order:  # the seats moved with that match's start: the next commitment is from there
                        self.at, self.host_at = moved(mine), None if theirs is None else moved(theirs)
                        order = ()
                continue
            break
        events, match = self._deal(deck, new_match, order, dealer)
        self.at, self.host_at = moved(mine), None if theirs is None else moved(theirs)
        self.match = match
        if move.commit is Commit.AFTER_CARDS:
            first = next(i for i, ev in enumerate(events) if isinstance(ev, Event) and ev.kind == "HandStarted")
            self.give(self.update([*events[: first + 1]]))
            self.give(self.update([committed], view=False))
            events = events[first + 1:]
        self.give(self.update([*opening, *events]))
        if move.resend and self.sent:
            self.give(self.sent[-1])  # the same events again: seen already
        played = self._play_out()
        if move.snap is Snap.GAP and len(played) > 2:
            self.events(played[:2])  # numbered, never sent: a gap, then the table as it stands
            self.snapshot()
            played = played[2:]
        if move.reveal in (Reveal.WRONG_SEED, Reveal.OTHER_TABLE, Reveal.OTHER_HAND):
            chose = True
        tail: list[Event | table_pb2.Event] = list(played)
        if move.reveal is not Reveal.NONE:
            tail.append(self._reveal(deck, move.reveal, self.at, gone))
        self.give(self.update(tail))
        self.dealt.append(Dealt(number, move, chose, move.reveal is not Reveal.NONE, new_match))

    def void(self) -> bool:
        """A commitment, the client's link taken, then the table closes: the deal is revealed undealt with the
        reason (an honest server's way when a table closes mid-cut); the client's stream ends. Whether the client
        gave a link to it."""
        server = self.rng.randbytes(32)
        self.deal += 1
        pledges = {self.at: self.client_follows}
        self.give(self.update([table_pb2.Event(deal_committed=table_pb2.DealCommitted(
            hand=self.deal, commitment=commitment(server), cut_ms=CUT_MS, scheme=SCHEME,
            pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in sorted(pledges.items())]))], view=False))
        link = self.link(self.deal)
        seeds = [table_pb2.PlayerSeed(seat=self.at, seed=link)] if link is not None else []
        if link is not None:
            self.client_follows = link
            self.fair.taken(self.deal, True)
        self.give(self.update([table_pb2.Event(deal_revealed=table_pb2.DealRevealed(
            hand=self.deal, scheme=SCHEME, table=self.table, server_seed=server, seeds=seeds, awaited=[self.at],
            pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in sorted(pledges.items())],
            void="the table closed before this deal was dealt"))], view=False))
        self.fair.close()
        return link is not None

    def _deal(self, deck: DealSeed, new_match: bool, order: tuple[int, ...], dealer: int, fresh: bool = False
              ) -> tuple[list[Event | table_pb2.Event], Match]:
        """The deal's events (a new match's opening with ``MatchStarted``), ``dealer`` dealing; ``fresh``: from a
        copy of the match in play, which does not move."""
        names = self.names()
        if order:
            names = [names[old] for old in order]
        seats = self.rules.seat_infos(names)
        game = cast(Game[Any, Any, Any], self.rules)
        opening: list[Event | table_pb2.Event] = []
        if new_match:
            opening = [table_pb2.Event(match_started=table_pb2.MatchStarted(match=deck.hand, seats_from=order))]
            match, events = self.rules.open({}, seats, deck)
            if dealer != self.rules.opening_dealer({}, seats):
                start = _starts(self.rules, list(match.scores()), len(seats))
                state, events = game.resume(game.options({}), seats, start, dealer, 1, deck)
                match = Bound(game, state)
            return [*opening, *events], match
        now = cast(Bound[Any, Any, Any], self.match)
        if dealer == now.next_dealer() and not fresh:
            return list(now.next_hand(deck)), now
        start = _starts(self.rules, list(now.scores()), len(seats))
        state, events = game.resume(game.options({}), seats, start, dealer, now.state.hand_no + 1, deck)
        return list(events), Bound(game, state)

    def _play_out(self) -> list[Event | table_pb2.Event]:
        match = self.match
        assert match is not None
        out: list[Event | table_pb2.Event] = []
        while not match.hand_over():
            acting = [s for s in match.to_act() if match.legal_actions(s)]
            if not acting:
                out += match.lapse()
                continue
            seat = acting[0]
            out += match.apply(seat, match.bot_action(seat, self.rng, "easy"))
        return out

    def _reveal(self, deck: DealSeed, how: Reveal, mine: int, gone: list[int]) -> table_pb2.Event:
        if how is Reveal.WRONG_SEED:
            deck = replace(deck, server_seed=self.rng.randbytes(32))
        elif how is Reveal.OTHER_TABLE:
            deck = replace(deck, table=self.table + "-x")
        elif how is Reveal.OTHER_HAND:
            deck = replace(deck, hand=deck.hand + 1000)
        awaited = () if how is Reveal.AWAITED_EMPTY else tuple(sorted({mine, *(s for s, _ in deck.pledges)}))
        return table_pb2.Event(deal_revealed=table_pb2.DealRevealed(
            hand=deck.hand, scheme=deck.scheme, table=deck.table, server_seed=deck.server_seed,
            seeds=[table_pb2.PlayerSeed(seat=s, seed=b) for s, b in deck.player_seeds], awaited=awaited,
            pledges=[table_pb2.PlayerPledge(seat=s, follows=f) for s, f in deck.pledges], gone=gone))


def _mover(order: tuple[int, ...]) -> Callable[[int], int]:
    """Where a seat's holder sits once the seats take ``order`` (() : where they are)."""
    return (lambda seat: order.index(seat)) if order else (lambda seat: seat)


def _starts(rules: Rules, scores: list[int], n: int) -> list[int]:
    """Each seat's start, from ``Match.scores`` (a team game's are per team: seat by seat, its team's)."""
    if rules.teams and len(scores) == 2:
        return [scores[s % 2] for s in range(n)]
    return scores


TABLES: tuple[tuple[str, int], ...] = (("cacho", 2), ("cacho", 3), ("pifpaf", 3), ("cacheta", 2), ("cacheta", 3),
                                       ("truco_paulista", 4), ("truco_argentino", 2), ("truco_argentino", 4),
                                       ("truco_argentino", 6))
"""Every game, at the counts the model plays."""


@dataclass(frozen=True)
class Finding:
    """A hand against the property: a ✔ on a chosen deck, or an alarm on an honest host's hand."""

    dealt: Dealt
    verdict: Verdict

    def __str__(self) -> str:
        return f"{self.dealt}: {self.verdict.said().text.plain}"


RED = frozenset({Standing.BROKEN, Standing.UNUSED, Standing.WITHHELD})


def check(host: Host) -> Iterator[Finding]:
    """The property over everything the host dealt: no ✔ on a deck the host chose; and no red on an honest hand
    of a match whose every hand so far was honest (once a host deals out of turn, say, each later hand of that
    match is out of the rules' turn too, and rightly said so)."""
    last: dict[int, Verdict] = {}
    for v in host.fair.verdicts:
        last[v.hand] = v  # a deal number dropped and used again: the verdict of the one dealt comes last
    clean = True
    for dealt in host.dealt:
        clean = (clean or dealt.opens_match) and dealt.move.honest
        v = last.get(dealt.deal)
        if v is None:
            continue
        if v.ok and dealt.chose:
            yield Finding(dealt, v)
        if clean and v.standing in RED:
            yield Finding(dealt, v)


def run(game: str, players: int, moves: list[Move], seed: int, hosted: bool = True) -> Host:
    host = Host(game, players, random.Random(seed), hosted=hosted)
    for move in moves:
        host.play(move)
    host.give(host.update([]))  # (a last message: the reveal's verdicts are all out)
    return host


# -- a person's stay at the host: many tables, two at once, restarts ------------------------------
class Visit(StrEnum):
    """What the host does between hands, over the person's whole stay (not one table)."""

    STAY = "stay"
    """The next hand at the table in play."""
    CLOSE = "close"
    """The table in play closes mid-cut (its deal revealed undealt, the client's link in), and the host opens
    another with the same person: a re-roll, if the next deal is dealt."""
    OTHER = "other"
    """A second table at once: a hand there, the first table's still open."""
    RESTART = "restart"
    """The client stops mid-cut (its link given, the fate unseen) and starts again at a new table."""
    LEAVE = "leave"
    """The person leaves the table between hands and sits at a new one: nothing owed."""


HONEST_VISITS = frozenset({Visit.STAY, Visit.CLOSE, Visit.OTHER, Visit.RESTART, Visit.LEAVE})
"""Every one of them an honest host, or the person, may do: none may bring an alarm."""


@dataclass
class StayModel:
    """The person's stay at the host: tables opened one after another (or two at once), one client memory
    (``client.stay``) on a temporary disk shared by all, and the property over all of it."""

    game: str
    players: int
    rng: random.Random
    file: Path
    hosted: bool = True
    tables: list[Host] = field(default_factory=list)
    rerolled: bool = False
    """A link of the client's went to a deal that dealt nothing, since the last hand it was dealt."""
    dealt: list[tuple[Host, Dealt]] = field(default_factory=list)
    """Every hand dealt at every table, with the stay's own choice folded into ``chose``."""
    host_id: str = "model-host"

    def __post_init__(self) -> None:
        self.stay = Stay(self.host_id, self.file)
        self.open()

    def open(self) -> Host:
        table = Host(self.game, self.players, random.Random(self.rng.randrange(2**31)), hosted=self.hosted,
                     table=f"model-{len(self.tables) + 1:02d}", stay=self.stay)
        self.tables.append(table)
        return table

    def play(self, table: Host, move: Move) -> None:
        before = len(table.dealt)
        table.play(move)
        if len(table.dealt) > before:
            d = table.dealt[-1]
            self.dealt.append((table, replace(d, chose=d.chose or self.rerolled)))
            self.rerolled = False

    def visit(self, what: Visit, move: Move) -> None:
        table = self.tables[-1]
        if what is Visit.CLOSE:
            self.rerolled |= table.void()
            self.play(self.open(), move)
        elif what is Visit.OTHER:
            other = self.open()
            self.play(other, move)  # (the first table stays open: its next hand follows)
            self.tables.append(self.tables.pop(-2))
        elif what is Visit.RESTART:
            gave = _cut_then_stop(table)
            self.rerolled |= gave
            self.play(self.open(), move)
        elif what is Visit.LEAVE:
            table.fair.close()
            self.play(self.open(), move)
        else:
            self.play(table, move)


def _cut_then_stop(table: Host) -> bool:
    """The client sends its link for a new commitment, then its process stops (its memory's entry left open by a
    process that is gone): whether it gave one."""
    import os

    from cardtui.client import stay as stays

    table.deal += 1
    server = table.rng.randbytes(32)
    table.give(table.update([table_pb2.Event(deal_committed=table_pb2.DealCommitted(
        hand=table.deal, commitment=commitment(server), cut_ms=CUT_MS, scheme=SCHEME,
        pledges=[table_pb2.PlayerPledge(seat=table.at, follows=table.client_follows)]))], view=False))
    link = table.link(table.deal)
    assert table.stay is not None
    with table.stay._held() as data:  # as a process that died would leave it: its pid no longer alive
        for raw in data.get(table.stay.host, []):
            if raw.get("table") == table.table and raw.get("pid") == os.getpid():
                raw["pid"] = _DEAD
    stays.FOLLOWING.pop((table.stay.host, table.table), None)
    return link is not None


_DEAD = 2**22 + 12_345
"""A process number no process has (above Linux's default pid_max)."""


def check_stay(stay: StayModel, honest: bool) -> Iterator[Finding]:
    """The property over the stay: no ✔ on a hand the host chose, at whichever table (a deal after another that took
    the client's link and dealt nothing is one it chose); and for an honest host, no red."""
    for table, dealt in stay.dealt:
        v = {x.hand: x for x in table.fair.verdicts}.get(dealt.deal)
        if v is None:
            continue
        if v.ok and dealt.chose:
            yield Finding(dealt, v)
        if honest and v.standing in RED:
            yield Finding(dealt, v)


def run_stay(game: str, players: int, visits: list[tuple[Visit, Move]], seed: int, file: Path,
             hosted: bool = True) -> StayModel:
    stay = StayModel(game, players, random.Random(seed), file, hosted)
    for what, move in visits:
        stay.visit(what, move)
    for table in stay.tables:
        table.give(table.update([]))
    return stay
