"""Fair deals from the player's side (issue 14): the cut, and every finished hand checked.

The server opens each hand with ``DealCommitted`` (the SHA-256 of its secret seed); a seated
client answers with a seed of its own (``feed`` hands the connection a fresh
``secrets.token_bytes(32)`` to send). The hand's last event, ``DealRevealed``, gives the
server's seed and every seed used; ``FairDeals`` then checks, on its own, that

- the commitment came before any of the hand's events, and the revealed seed hashes to it;
- this client's seed is in the deal, unchanged, at its own seat, and no other seat's seed is
  one this client sent or one that only the host could have made (a bot's seat, a seat the
  table does not have);
- the deck those seeds make, dealt by the game's rule, gives exactly the cards this client
  was dealt, and the cards shown publicly (Cacheta's flip, a Cacho showdown, truco plays and
  shows, rejected hands, the stock cards this client drew) came from where they should.

A green ✔ "fair deal" says one thing only: this client saw the commitment before any card of
the hand, its own seed was sent at once and is in the revealed deal, and everything checked
(docs/deal.md §12). Whatever the server says of itself (a cut window of 0, a commitment sent
with the deal or marked as a replay, its ``awaited`` list), every other case has a standing
of its own, in words (``Standing``), never ✔: a deck the host alone chose, a seed of this
client's left out, a spectator's check, a check that could not compare the cards, a deal that
does not check out.

The deck comes from ``cardtui.fair``, the scheme's one implementation (docs/deal.md), which the engine
deals through too (the client imports nothing of the engine). How each game takes its cards
from the deck is the public rule written out there; this module follows it from the
stream's public deal events (who was dealt in, the dealer, the mão's choices), so it knows
no more than any player at the table.
"""

from __future__ import annotations

import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from google.protobuf.message import Message
from rich.text import Text

from cardtui.client import gamebook
from cardtui.client.cards import glyphs
from cardtui.client.models import event_body
from cardtui.client.shape import family_for
from cardtui.client.stay import Fate, Kind, Stay, Taint
from cardtui.client.words import Said
from cardtui.fair import SCHEMES, Chain, DealSeed, FairRandom, commitment
from cardtui.i18n import N_, _, render
from cardtui.v1 import common_pb2, sealed_pb2, table_pb2

Seen = list[tuple[str, Message]]
"""A hand's events this client saw, by name (``event_body``), in order."""

GREY = "grey62"
"""How a check that proves less than a fair deal looks: neither the green of ✔ nor a warning."""
REMEMBERED = 16
"""How many of its past seeds a client keeps, to name one the server deals again."""
NO_CUTS = N_("This table deals without cuts: no player's seed is asked for, so the host alone chooses every deck,"
             " and no hand here can be a fair deal ✔.")
"""What a table without cuts (``TableSummary.no_cuts``) says before its first hand."""
NO_CUTS_SHORT = N_("no cuts: the host alone chooses every deck")
"""The same, where a table is listed (the lobby)."""


@dataclass
class Watch:
    """One hand followed from its commitment (or, ``bare``, from a start that came without one)."""

    hand: int
    commitment: str
    seed: bytes | None = None
    """The seed this client sent for the hand, if it sent one."""
    taken: bool | None = None
    """What the server answered: the seed is in (True), too late (False), or no answer yet."""
    cut_ms: int = 0
    """How long the server said it would wait for seeds."""
    arrived: float = 0.0
    """When the commitment reached this client (its clock, seconds): the seed left at once."""
    answered_ms: int | None = None
    """How long after the commitment arrived the server's answer to the seed came back."""
    hand_no: int | None = None
    """The match's number of this hand (``HandStarted``): the number the player sees."""
    seen: Seen = field(default_factory=list)
    gap: bool = False
    """Some of the hand's events never reached this client (a reconnect that resynced)."""
    unasked: str = ""
    """Why this seated client's seed was not asked for (a cut window of 0, a commitment that came
    with more events or as a replay): the host alone chose the deck, as far as this client knows."""
    live: bool = False
    """The commitment came as news, not as a replay: this client had the table open when the hand
    was committed, so a seated one was waited for, whatever the reveal's ``awaited`` says."""
    bare: bool = False
    """The hand began (``HandStarted`` or cards) with no commitment before it."""
    missed: bool = False
    """A bare hand that this client could not tell was dealt without a commitment: it had not
    seen everything since a hand ended (it opened the table during this hand, or lost part of
    the stream), so the commitment may have come before it was here."""
    after_cards: bool = False
    """The commitment came only after the hand had begun."""
    started: bool = False
    """The hand was dealt (its start, or cards, reached this client)."""
    ended: bool = False
    """``HandEnded`` came: the reveal is due."""
    bots: frozenset[int] = frozenset()
    """Seats a bot played (not standing in for a person away) when the hand was committed."""
    scheme: str = SCHEMES[0]
    """The scheme the commitment named (``cardtui-deal/2``: with pledges)."""
    pledges: dict[int, bytes] = field(default_factory=dict)
    """``cardtui-deal/2``: each seat the commitment named and what its link must follow."""
    foreign: bool = False
    """The commitment named for this client's seat a value its chain does not hold: not its pledge."""
    dealer: int | None = None
    """The dealer the rules give for this hand, from the table's history as this client followed it (None:
    it did not follow enough of it to tell)."""
    named: int | None = None
    """The dealer the commitment fixed, before any link was seen (None: the commitment named none)."""
    guessed: str = ""
    """Why ``dealer`` rests on the table's word (a snapshot, a hole in the event numbers, a seat taken mid-match),
    not on a rotation this client saw itself; "" where it saw it."""
    distrusted: bool = False
    """A hand of this match was dealt out of the rules' turn before: the rotation no longer tells who deals."""
    seats_from: tuple[int, ...] = ()
    """A new match's seats as the commitment fixed them (``MatchStarted.seats_from`` must say the same)."""
    opens_match: bool = False
    """The commitment said the hand opens a match."""
    ended_ok: bool = False
    """The hand's end (``HandEnded``) came before its reveal."""
    moved_after: bool = False
    """The seats were moved otherwise than the commitment had fixed them."""
    tainted: tuple[int, bool] | None = None
    """A deal this client gave a link to that dealt no hand before this one was committed (``FairDeals.spent``)."""


class Phrase(str):
    """A finding in English (what ``str`` gives, and tests read), with its template and
    arguments, so it is said in the reader's language when the log shows it."""

    template: str
    args: dict[str, str]


def phrase(template: str, **args: object) -> Phrase:
    """A finding from its template (a message id) and its fields."""
    fields = {k: str(v) for k, v in args.items()}
    out = Phrase(template.format(**fields))
    out.template, out.args = template, fields
    return out


def said(finding: str) -> str:
    """A finding in the reader's language."""
    return render(finding.template, finding.args) if isinstance(finding, Phrase) else _(finding)


class Standing(StrEnum):
    """What a checked hand proves to this client: each its own words and colour; only ``FAIR`` is ✔."""

    FAIR = "fair"
    """Committed before any card, this client's seed in, everything checked: ✔, green."""
    UNASKED = "unasked"
    """Seated, but no seed of this client's was asked for: the host alone chose the deck (grey)."""
    WATCHED = "watched"
    """A spectator's check: it adds no seed, so it cannot show the host did not choose the deck (grey)."""
    PARTIAL = "partial"
    """This client's seed is in, but the cards were not all compared (grey)."""
    UNUSED = "unused"
    """This client's seed was sent and left out: the host could have chosen the deck (red)."""
    WITHHELD = "withheld"
    """A seat pledged a link and it is not in the deal: whoever held it back (the seat or the host) could
    choose between two decks (``cardtui-deal/2``); said to everyone, naming the seat (red)."""
    AWAY = "away"
    """A pledged seat's stream had closed before its link came (the server says), so the deal went on without
    it: said neutrally, and never ✔, since whoever left the link out could have chosen between two decks (grey)."""
    VOIDED = "voided"
    """A commitment that dealt no hand, revealed with the reason (the table closed): said in words (grey)."""
    BROKEN = "broken"
    """The deal does not check out (red)."""
    UNCHECKED = "unchecked"
    """Not followed from its start here: nothing checked (dim)."""


@dataclass(frozen=True)
class Verdict:
    """What the check of one hand found."""

    hand: int
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    checked: bool = True
    """False: the hand was not followed from its start here, so nothing was checked."""
    cut: bool = False
    """This client's seed went into the deal."""
    seated: bool = True
    hand_no: int | None = None
    """The match's number of the hand, the one the log and the summary show (``hand`` is the
    table's deal number, counted across matches: the hand history's, for ``cardtui verify``)."""
    used: tuple[int, ...] = ()
    """The seats whose seeds the deal used."""
    awaited: tuple[int, ...] = ()
    """The seats the deal waited for (seated, connected): one of them not in ``used`` was dropped.
    This client's own seat is among them whenever it had the table open at the commitment."""
    dropped: str = ""
    """This client's seed was left out though nothing shows the server cheated (it came late, or
    no answer came): the deal is not marked fair for this player, in words that say why."""
    unasked: str = ""
    """Why this seated client's seed was not asked for (``Watch.unasked``)."""
    compared: bool = True
    """The cards were compared with the deck (not when part of the hand never arrived)."""
    withheld: tuple[str, ...] = ()
    """``cardtui-deal/2``: who held a pledged link back (or had it left out), each as the table named the
    seat then ("seat 2 (bia)")."""
    away: tuple[str, ...] = ()
    """Pledged seats dealt without because their stream had closed (the server's ``gone``), named likewise."""
    gone: tuple[int, ...] = ()
    """Those seats by number: waited for, and not missed (``missing``)."""
    void: str = ""
    """The commitment dealt no hand: why, as the server said it."""
    doubt: str = ""
    """Why this deal cannot be called fair though everything checked (who deals could not be checked; a link of
    this client's went to a hand it did not see played out): never ✔."""

    @property
    def standing(self) -> Standing:
        if not self.checked:
            return Standing.UNCHECKED
        if self.problems:
            return Standing.BROKEN
        if self.dropped:
            return Standing.UNUSED
        if self.withheld:
            return Standing.WITHHELD
        if self.void:
            return Standing.VOIDED
        if self.away:
            return Standing.AWAY
        if not self.seated:
            return Standing.WATCHED
        if not self.cut:
            return Standing.UNASKED
        if not self.compared or self.doubt:
            return Standing.PARTIAL
        return Standing.FAIR

    @property
    def ok(self) -> bool:
        """A fair deal (✔), and nothing less."""
        return self.standing is Standing.FAIR

    @property
    def missing(self) -> tuple[int, ...]:
        """Seats the deal waited for whose seed is not in it (but for those the server says had gone)."""
        return tuple(s for s in self.awaited if s not in self.used and s not in self.gone)

    def _where(self) -> str:
        """The hand as the player knows it, with the table's deal number labelled."""
        if self.hand_no is None:
            return _("Table deal {deal}").format(deal=self.hand)
        return _("Hand {n} (table deal {deal})").format(n=self.hand_no, deal=self.hand)

    def said(self) -> Said:
        where = self._where()
        standing = self.standing
        if standing is Standing.UNCHECKED:
            return Said(Text(_("{where}: joined mid-deal, not checked.").format(where=where)), "dim")
        notes = "".join(" " + n[0].upper() + n[1:] + "." for n in (said(n) for n in self.notes))
        if standing is Standing.BROKEN:
            text = Text("⚠ " + _("{where}: this deal does not check out:").format(where=where) + " ")
            text.append("; ".join(said(p) for p in self.problems) + "." + notes)
            return Said(text, "bold red")
        if standing is Standing.FAIR:
            found = "; ".join([_("committed before the cut"), _("your seed in"), _("your cards match")])
            return Said(Text("✔ " + _("{where}: fair deal ({found}).").format(where=where, found=found) + notes),
                        "green")
        cards = [] if not self.compared else [_("your cards match") if self.seated else _("the cards shown match")]
        found = "; ".join([_("the commitment matches"), *cards])
        if standing is Standing.UNUSED:
            line = _("{where}: your seed was not used in this deal ({why}): the host could have chosen this deck;"
                     " the rest checks out ({found}).").format(where=where, why=said(self.dropped), found=found)
            return Said(Text("⚠ " + line + notes), "bold red")
        if standing is Standing.WITHHELD:
            line = _("{where}: {seats} pledged a seed and it is not in this deal: whoever held it back (that seat, or"
                     " the host) could choose between two decks; the rest checks out ({found}).").format(
                where=where, seats=", ".join(self.withheld), found=found)
            return Said(Text("⚠ " + line + notes), "bold red")
        if standing is Standing.VOIDED:
            line = _("{where} was not dealt: {why}. Its seeds are revealed, and no cards came from them.").format(
                where=where, why=said(self.void))
            return Said(Text("○ " + line + notes), GREY)
        if standing is Standing.AWAY:
            line = _("{where}: {seats} was away, so it was dealt without that seed; the rest checks out ({found})."
                     ).format(where=where, seats=", ".join(self.away), found=found)
            return Said(Text("○ " + line + notes), GREY)
        if standing is Standing.WATCHED:
            line = _("{where}: the deal checks out ({found}), but you are watching: no seed of yours went in, so"
                     " this does not show that the host did not choose the deck.").format(where=where, found=found)
        elif standing is Standing.UNASKED:
            why = said(self.unasked) if self.unasked else _("no seed of yours went in")
            line = _("{where}: the host alone chose this deck: your seed was not asked for ({why}); the rest checks"
                     " out ({found}).").format(where=where, why=why, found=found)
        elif self.doubt and self.compared:
            line = _("{where}: your seed is in and your cards match, but this cannot be called a fair deal: {why}."
                     ).format(where=where, why=said(self.doubt))
        else:
            line = _("{where}: your seed is in and the commitment matches, but not everything was checked.").format(
                where=where)
        return Said(Text("○ " + line + notes), GREY)

    def seeds_said(self, name: Callable[[int], str]) -> Said | None:
        """For the hand's summary: whose seeds the deal used, and anyone seated and connected
        whose seed it left out."""
        if not self.checked:
            return None
        used = ", ".join(name(s) for s in self.used) or _("nobody's (the host alone fixed this deck)")
        # The summary is headed by the hand's number already: this line labels the table's deal
        # number alone (the one ``cardtui verify`` speaks of), never two numbers nested in brackets.
        text = Text(_("Seeds used in table deal {deal}: {used}.").format(deal=self.hand, used=used))
        missing = self.missing
        if missing:
            text.append(" ⚠ " + _("Seated and connected, but their seed was not used: {names}.").format(
                names=", ".join(name(s) for s in missing)), style="bold yellow")
        return Said(text, "bold yellow" if self.problems or self.dropped else "dim")


class FairDeals:
    """Follows one table stream (the same token's, whole): cuts for its seat, checks each hand.

    ``feed`` takes every message the stream brings, in order, once; it returns the cuts to
    send. ``taken`` records the server's answer to a cut. ``said`` gives the log lines a
    message brought (a check's verdict when it carried a hand's reveal).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.game = ""
        self.table = ""
        self.seat: int | None = None
        self.seats = 0
        self.last = 0
        """The last event number fed."""
        self.watch: Watch | None = None
        self.verdicts: list[Verdict] = []
        self._told: dict[int, list[Verdict]] = {}
        self.following = False
        """Every event since a hand ended reached this client, as it happened: a hand that starts
        now is seen from its start, so one that starts with no commitment before it is caught.
        Not so when the table was just opened: its next commitment may have come before."""
        self.bots: frozenset[int] = frozenset()
        """Seats a bot plays (not standing in for a person away), as the latest view says."""
        self.sent: dict[bytes, int] = {}
        """This client's recent seeds, each with the table deal it was sent for."""
        self.deal = 0
        """The last table deal number heard of (a commitment's or a reveal's)."""
        self.opened: int | None = None
        """The first snapshot's number: the events up to it that follow it, marked as replays, are
        the table before this client came (``_caught_up``)."""
        self.chain: Chain | None = None
        """This seat's pledged chain (``cardtui-deal/2``): its links are the seeds this client sends."""
        self.revealed = 0
        """The furthest place in the chain this client has sent a link from: it never sends one twice (a link the
        server has seen, it could deal around before committing to a hand)."""
        self.names: dict[int, str] = {}
        """Who sits at each seat, as the latest view says (a withheld link is named by its seat's holder)."""
        self.options: dict[str, common_pb2.OptionValue] = {}
        """The table's options (Pif Paf's ``dealer`` and ``rebuy`` decide who deals next)."""
        self.stacks: dict[int, int] = {}
        """Each seat's chips or points as the latest view says: who is still in decides who deals next."""
        self.last_dealer: int | None = None
        """The dealer of the last hand this client saw begin, while it has followed the table since."""
        self.last_winner: int | None = None
        """The winner of that hand (``HandEnded``), once it ended."""
        self.opening = False
        """A match began (``MatchStarted``) and its first hand has not: its first dealer is the rules' own."""
        self.duels = False
        """The last hand was a pica-pica hand's three 1v1s (truco argentino for six)."""
        self.last_hand_no: int | None = None
        """The match's number of the hand ``last_dealer`` dealt."""
        self.begun: tuple[int, int] | None = None
        """The hand begun and not ended yet: its number and its dealer by the rules (or as named, where the rules
        could not be worked out). Only a hand played out to its end moves the rotation on: a hand revealed
        before its end (a misdeal) is dealt again by the same dealer."""
        self.begun_duels = False
        """That hand is a pica-pica hand's 1v1s."""
        self.guessed = ""
        """Why ``last_dealer`` rests on the table's word (a dealer this client did not see deal: a snapshot's, or
        none at all after a hole in the event numbers), until a match starts; "" while this client saw it."""
        self.holes: list[tuple[int, int]] = []
        """Event numbers that never reached this client, not yet said: the next verdict names them (a hole is
        never passed over in silence)."""
        self.distrust = False
        """A hand of the match in play was dealt out of the rules' turn: until the next match, a dealer no
        commitment fixed gets no tick."""
        self.spent: tuple[int, bool] | None = None
        """A table deal this client gave a link to that dealt no hand (dropped for another commitment, revealed
        undealt or misdealt): the host had seen that link, so the next deal is one it could choose, and is
        flagged (docs/deal.md §12: each link in exactly one dealt hand); with False, this client could not tell
        (part of that hand never reached it), and the next deal is not called fair."""
        self.stay: Stay | None = None
        """What this client remembers, on its disk, of the links it gave this host (``client.stay``): a link given
        to a commitment at another table, or before this client started again, that dealt no hand taints the
        next deal checked here, as one at this table does."""
        self._following = ""
        """The table this checker told ``stay`` it follows (``close`` tells it it stopped)."""
        self._given: set[str] = set()
        """The commitments at this table this checker gave links to: their fates it says itself (``spent``)."""

    def feed(self, msg: table_pb2.TableMessage) -> list[tuple[int, bytes]]:
        """Take in one message; the seeds to send now, as (hand, seed)."""
        body = msg.WhichOneof("body")
        if body == "snapshot":
            snap = msg.snapshot
            self.game, self.table, self.seats = snap.table.game, snap.table.id, len(snap.table.seats)
            self.seat = snap.seat if snap.HasField("seat") else None
            self.options = dict(snap.table.options)
            if self.stay is not None and self._following != self.table:
                self.close()
                self._following = self.table
                self.stay.follow(self.table)
            self._resync(snap.view)
            self._seated(snap.view)
            if self.opened is None:
                self.opened = msg.seq
            self.last = self.last or msg.seq
            return []
        if body != "update":
            return []
        cuts: list[tuple[int, bytes]] = []
        told: list[Verdict] = []
        events = msg.update.events
        for i, ev in enumerate(events):
            if ev.seq <= self.last:
                if ev.replay and self.opened is not None and ev.seq <= self.opened:
                    self._caught_up(ev)
                continue
            if ev.seq != self.last + 1:  # a hole: what was missed is not known
                self.holes.append((self.last + 1, ev.seq - 1))
                self.last_dealer, self.opening, self.begun = None, False, None
                self.guessed = phrase("events {first} to {last} never reached this client", first=self.last + 1,
                                      last=ev.seq - 1)
                if self.watch is not None and not self.watch.bare:
                    self.watch.gap = True
                else:  # a hand begun with no commitment seen may have had one, and ended, in the hole
                    self.watch, self.following = None, False
            self.last = ev.seq
            name, inner = event_body(ev)
            if isinstance(inner, table_pb2.MatchStarted) and self.watch is not None and not self.watch.bare and (
                    not self.watch.started and tuple(inner.seats_from) != self.watch.seats_from):
                self.watch.moved_after = True  # not the seats the commitment fixed before any link was seen
            if isinstance(inner, table_pb2.MatchStarted) and inner.seats_from:
                order = list(inner.seats_from)
                if self.seat is not None and self.seat in order:
                    self.seat = order.index(self.seat)  # the seats swapped: this one's moved
                if self.watch is not None:  # the deal being cut goes with its holders: so do its pledges
                    self.watch.pledges = {order.index(s): f for s, f in self.watch.pledges.items() if s in order}
            if isinstance(inner, table_pb2.MatchStarted):
                self.opening = True
            elif isinstance(inner, table_pb2.HandEnded):
                self._ended(inner)
            elif inner is not None and self._duel_begun(inner):
                self.begun_duels = True
            if isinstance(inner, table_pb2.DealCommitted):
                told += self._committed(inner, ev.replay, batched=i < len(events) - 1, cuts=cuts)
            elif isinstance(inner, table_pb2.DealRevealed):
                self.deal = max(self.deal, inner.hand)
                verdict = self.check(inner)
                if self.stay is not None:  # (a reveal of a deal this client did not follow settles a link of its)
                    self.stay.revealed(inner.table, inner.hand, [p.seed for p in inner.seeds], bool(inner.void),
                                       inner.void)
                told.append(verdict)
                self.watch = None
                self.following = True
            else:
                self._during(name, inner, told)
        if msg.update.HasField("view"):
            self._seated(msg.update.view)
        self.verdicts += told
        if told:
            self._told.setdefault(msg.seq, []).extend(told)
        return cuts

    def _resync(self, view: table_pb2.View) -> None:
        """A snapshot: the table as it stands now, in place of what this client may have missed. What it
        worked out of who deals stays, unless the snapshot shows a hand it did not see begin: then the
        rotation goes on from the dealer the table shows (its word for hands this client did not see; a
        hand's dealer is fixed with its commitment anyway, before any link, so it decides no deck)."""
        hand, dealer = view.hand, view.dealer
        if hand and ((self.last_hand_no, self.last_dealer) == (hand, dealer) or self.begun == (hand, dealer)):
            return  # the hand whose dealer this client saw is still the last one: nothing it needs was missed
        self.last_winner, self.opening, self.duels, self.begun = None, False, False, None
        self.last_dealer, self.last_hand_no = (dealer, hand) if hand else (None, None)
        if hand:
            first = self.opened is None and self.seat is not None
            self.guessed = (N_("this client opened the table during a match") if first
                            else N_("a snapshot of the table named the last dealer"))

    def _ended(self, ended: table_pb2.HandEnded) -> None:
        """A hand played out to its end: the rotation moves on from its dealer."""
        self.last_winner = ended.winner if ended.HasField("winner") else None
        if self.begun is not None:
            (self.last_hand_no, self.last_dealer), self.duels = self.begun, self.begun_duels
            self.begun, self.opening = None, False

    def _caught_up(self, ev: table_pb2.Event) -> None:
        """An event from before this client opened the table, replayed after its first snapshot (the
        snapshot's view has it already): nothing is said of it, but a commitment among them is the
        hand's, which came too late for a seed of this client's, and the hand is followed from it."""
        name, inner = event_body(ev)
        if isinstance(inner, table_pb2.DealCommitted):
            unasked = N_("the commitment came marked as a replay, after the cut") if self.seat is not None else ""
            self.deal = max(self.deal, inner.hand)
            self.watch = Watch(inner.hand, inner.commitment, cut_ms=inner.cut_ms, arrived=self.clock(),
                               unasked=unasked, bots=self.bots, scheme=inner.scheme or SCHEMES[0],
                               pledges={p.seat: p.follows for p in inner.pledges})
        elif isinstance(inner, table_pb2.DealRevealed):
            self.watch = None
            if self.stay is not None:  # (a link this client gave before it started again, settled)
                self.stay.revealed(inner.table, inner.hand, [p.seed for p in inner.seeds], bool(inner.void),
                                   inner.void)
        elif self.watch is not None and inner is not None and name != "hidden":
            w = self.watch
            w.started = w.started or isinstance(inner, table_pb2.HandStarted | table_pb2.CardsDealt)
            if isinstance(inner, table_pb2.HandStarted):
                w.hand_no = inner.hand
            w.ended = w.ended or isinstance(inner, table_pb2.HandEnded)
            w.seen.append((name, inner))

    def _seated(self, view: table_pb2.View) -> None:
        if view.seats:
            self.bots = frozenset(s.seat for s in view.seats if s.bot and not s.away)
            self.names = {s.seat: s.name for s in view.seats}
        family = family_for(view)
        if family is not None and family.stacks is not None:
            self.stacks = family.stacks(view)

    def _duel_begun(self, inner: Message) -> bool:
        """Whether an event begins a pica-pica hand's 1v1s, as the table's game says (``Dealing.duels``)."""
        game = gamebook.find(self.game)
        duels = game.dealing.duels if game is not None else None
        return duels is not None and duels(inner)

    def _committed(self, inner: table_pb2.DealCommitted, replay: bool, batched: bool,
                   cuts: list[tuple[int, bytes]]) -> list[Verdict]:
        """A hand's commitment: follow the hand from here, and cut if it is still waiting for seeds.

        A seed goes only for a deal still waiting: a commitment replayed, or followed in its own
        message by more of the table's events, or with no wait, was dealt before this client could
        add anything, and the check says so."""
        told: list[Verdict] = []
        self.deal = max(self.deal, inner.hand)
        old = self.watch
        carried = old if old is not None and old.bare and not old.ended else None
        if old is not None and old.started and carried is None:
            told.append(self._unrevealed(old))
        elif old is not None and not old.bare and old.seed is not None:
            # This client's link went to that commitment, which dealt nothing and was never revealed: the host saw
            # the link, and the deck it made, and chose to commit again.
            told.append(Verdict(old.hand, (N_("the host saw your seed for this deal, then committed to another deck"
                                              " instead: no hand was dealt from it"),), hand_no=old.hand_no))
            self.spent = old.tainted or (old.hand, True)
            self._settle(old, Fate.UNDEALT, Kind.DROPPED)
        elif old is not None and old.tainted is not None:
            self.spent = old.tainted  # (dropped in turn: the taint goes on to the deal after it)
        seated = self.seat is not None
        scheme = inner.scheme or SCHEMES[0]
        pledges = {p.seat: p.follows for p in inner.pledges}
        named = pledges.get(self.seat) if self.seat is not None else None
        chain = self.chain
        at = chain.place(named) if chain is not None and named is not None else None
        link = chain.link(at + 1) if chain is not None and at is not None and at + 1 < len(chain) else None
        again = at is not None and at + 1 <= self.revealed
        unasked = ""
        if seated and inner.cut_ms <= 0:
            unasked = N_("the server said it would not wait for seeds")
        elif seated and replay:
            unasked = N_("the commitment came marked as a replay, after the cut")
        elif seated and batched:
            unasked = N_("the commitment came together with the hand's next events, too late to cut")
        elif seated and scheme == SCHEMES[0] and self.chain is not None:
            unasked = N_("the commitment is of the deal scheme's first version, where whoever sends a seed last"
                         " may choose the deck, so none of yours was sent")
        elif seated and scheme != SCHEMES[0] and named is None:
            unasked = N_("the commitment named no pledge of yours, so no seed of yours was asked for")
        elif seated and again:
            unasked = N_("the commitment asked again for a seed your client had already sent, which the host knew"
                         " before it committed, so none was sent")
        if scheme == SCHEMES[0]:
            seed = secrets.token_bytes(32) if seated and not unasked and carried is None else None
        else:  # the link that follows what the commitment named: fixed when this client sat down
            seed = link if seated and not unasked and carried is None else None
            if seed is not None and at is not None:
                self.revealed = at + 1
        if seed is not None and self.stay is not None:  # remembered before it is sent: a crash forgets nothing
            self.stay.gave(self.table, inner.hand, inner.commitment, named or b"")
            self._given.add(inner.commitment)
        watch = Watch(inner.hand, inner.commitment, seed, cut_ms=inner.cut_ms, arrived=self.clock(), unasked=unasked,
                      live=not replay, bots=self.bots, scheme=scheme, pledges=pledges,
                      foreign=named is not None and at is None,
                      named=inner.dealer if inner.HasField("dealer") else None,
                      seats_from=tuple(inner.seats_from), opens_match=inner.opens_match)
        watch.tainted, self.spent = self.spent, None  # the deal a link of this client's went to, undealt: this one
        if carried is not None:  # the hand had begun before its commitment came
            watch.after_cards, watch.started, watch.hand_no = True, True, carried.hand_no
            watch.seen, watch.gap = carried.seen, carried.gap
        self.watch = watch
        if seed is not None:
            self.sent[seed] = inner.hand
            while len(self.sent) > REMEMBERED:
                del self.sent[next(iter(self.sent))]
            cuts.append((inner.hand, seed))
        return told

    def _during(self, name: str, inner: Message | None, told: list[Verdict]) -> None:
        """An event of the table's other than the commitment and the reveal."""
        expected = self._dealer(inner) if isinstance(inner, table_pb2.HandStarted) else None
        starts = isinstance(inner, table_pb2.HandStarted | table_pb2.CardsDealt)
        if isinstance(inner, table_pb2.HandStarted) and self.watch is not None and self.watch.started:
            told.append(self._unrevealed(self.watch))  # a new hand, and the last one's reveal never came
            self.watch = None
        if starts and self.watch is None:  # dealt with no commitment before it, or none this client saw
            self.watch = Watch(self.deal + 1, "", bare=True, missed=not self.following)
        w = self.watch
        if isinstance(inner, table_pb2.HandEnded):
            self.following = True  # the next hand is seen from its start
        if w is None:
            return
        if starts:
            w.started = True
        if isinstance(inner, table_pb2.HandStarted):
            w.hand_no, w.dealer, w.guessed, w.distrusted = inner.hand, expected, self.guessed, self.distrust
        elif isinstance(inner, table_pb2.HandEnded):
            w.ended = True
        if inner is not None and name != "hidden":
            w.seen.append((name, inner))

    def _dealer(self, started: table_pb2.HandStarted) -> int | None:
        """The dealer the rules give the hand ``started`` begins (docs/deal.md §9), from the table's history as
        this client followed it: the first hand of a match is the rules' first dealer's, every other follows the
        last one's by the game's rotation. None where this client did not see enough to tell."""
        n = self.seats
        game = gamebook.find(self.game)
        dealing = game.dealing if game is not None else None
        if self.opening:
            self.guessed, self.distrust = "", False  # a match's first dealer is the rules' own: no one's word
            expected: int | None = dealing.first if dealing is not None else None
            if expected == -1:
                expected = n - 1
        elif dealing is None or self.last_dealer is None or not n or (
                dealing.to_winner and self.last_winner is None) or (
                not dealing.passes and len(self.stacks) != n):  # who is still in: not known
            expected = None
        elif dealing.duels and n == 6 and not self.duels and self.options.get(
                "pica_pica", common_pb2.OptionValue(flag=True)).flag:
            expected = self.last_dealer  # a 3v3 round's dealer deals the pica-pica 1v1s too
        else:
            expected = next_dealer(dealing, self.last_dealer, n, self.stacks, self.last_winner, self.options)
        # The rotation goes on from the rules' dealer, not the one the server named (a lie is flagged once, and
        # the rotation stays right for the hands after it), once this hand is played out (``_ended``).
        self.begun = (started.hand, expected if expected is not None else started.dealer)
        self.begun_duels = False
        return expected

    def _unrevealed(self, w: Watch) -> Verdict:
        """A hand that was dealt and never revealed: nothing of it can be checked."""
        if w.missed:
            return Verdict(w.hand, checked=False, seated=self.seat is not None, hand_no=w.hand_no)
        problems = [N_("no commitment came before this hand's cards")] if w.bare else []
        problems.append(N_("its seeds were never revealed, so nothing of it could be checked"))
        self._settle(w, Fate.DEALT)  # (a hand was played from it: its own line is red, and no other deck was dealt)
        return Verdict(w.hand, tuple(problems), seated=self.seat is not None, hand_no=w.hand_no)

    def taken(self, hand: int, taken: bool) -> None:
        """The server's answer to this seat's seed for ``hand``, noted with how long it took."""
        if self.watch is not None and self.watch.hand == hand:
            self.watch.taken = taken
            self.watch.answered_ms = round((self.clock() - self.watch.arrived) * 1000)

    def said(self, msg: table_pb2.TableMessage) -> list[Said]:
        """The log lines ``msg`` brought (each given once)."""
        return [v.said() for v in self.told(msg)]

    def told(self, msg: table_pb2.TableMessage) -> list[Verdict]:
        """The verdicts ``msg`` brought (each given once): ``said()`` puts one in the reader's language."""
        return self._told.pop(msg.seq, [])

    # -- the check ------------------------------------------------------------------------
    def check(self, reveal: table_pb2.DealRevealed) -> Verdict:
        """The hand ``reveal`` closes, checked against what this client saw of it (docs/deal.md §12)."""
        w = self.watch
        seated = self.seat is not None
        if w is None or (w.hand != reveal.hand and not w.started and not w.bare):
            return Verdict(reveal.hand, checked=False, seated=seated)
        if w.missed:  # not followed from its start here
            return Verdict(reveal.hand, checked=False, seated=seated, hand_no=w.hand_no)
        hand = reveal.hand if w.bare else w.hand
        problems: list[str] = []
        notes: list[str] = [phrase("events {first} to {last} of the table never reached this client", first=a, last=b)
                            for a, b in self.holes]
        self.holes = []
        doubt = ""
        earlier = w.tainted
        if earlier is not None and earlier[1]:
            problems.append(phrase("the host had seen your seed for table deal {old}, which dealt no hand, before it"
                                   " committed to this one: it could choose between the two decks", old=earlier[0]))
        elif earlier is not None:
            doubt = phrase("your seed for table deal {old} went to a hand this client did not see played out, so this"
                           " deal cannot be told from one the host chose", old=earlier[0])
        undealt = not w.bare and not w.started
        if w.gap and not reveal.void and (undealt or not w.ended):
            pass  # part of the hand never came: whether it was dealt and played out, this client cannot say
        elif reveal.void and not undealt:
            problems.append(N_("the seeds were revealed as a deal that was never dealt, though its hand was"))
        elif undealt and not reveal.void:
            problems.append(N_("the seeds were revealed, but no hand was dealt from them: the host could deal another"
                               " deck instead"))
        elif w.started and not w.ended and not reveal.void:
            problems.append(N_("the seeds were revealed before the hand ended (a misdeal): the host could deal again"
                               " from another deck"))
        if (undealt or not w.ended) and w.seed is not None:
            # This client's link, seen, and no hand of it played out here: the next deal is one the host could
            # choose (certainly, unless part of this hand never reached this client).
            self.spent = (hand, not w.gap)
            self._settle(w, Fate.UNSEEN if w.gap and not reveal.void else Fate.UNDEALT,
                         Kind.VOID if reveal.void else Kind.UNSEEN if w.gap else Kind.MISDEALT, reveal.void)
        elif w.seed is not None:
            self._settle(w, Fate.DEALT)
        remembered = self._remembered() if w.seed is not None and not reveal.void else []
        for t in remembered:
            if not t.honest:
                problems.append(phrase("the host had seen your seed for table deal {old} at table {table}, which dealt"
                                       " no hand ({how}), before this deal: it could choose between the two decks",
                                       old=t.deal, table=t.table[:8], how=_kind_said(t)))
        if w.moved_after:
            problems.append(N_("the seats were moved after the commitment, once the seeds could be seen: the host"
                               " could choose between decks"))
        if reveal.scheme not in SCHEMES:
            return Verdict(hand, (phrase("it names a deal scheme this client does not know ({scheme})",
                                         scheme=repr(reveal.scheme[:40])),), seated=seated, hand_no=w.hand_no)
        revealed = {p.seat: p.follows for p in reveal.pledges}
        if not w.bare and reveal.scheme != w.scheme:
            problems.append(phrase("the seeds are revealed under {shown}, but the commitment was made under {scheme}",
                                   shown=repr(reveal.scheme[:40]), scheme=repr(w.scheme[:40])))
        elif not w.bare and revealed != w.pledges:
            problems.append(N_("the reveal names other pledges than the commitment did"))
        if w.foreign:
            problems.append(N_("the commitment named a pledge for your seat that is not the one your client made"))
        if w.bare:
            problems.append(N_("no commitment came before this hand's cards: the host could have chosen the deck"
                               " after dealing it"))
        elif commitment(reveal.server_seed) != w.commitment:
            problems.append(N_("the revealed server seed does not match the commitment published before the deal"))
        if w.after_cards:
            problems.append(N_("the commitment came only after the hand had begun: the host could have chosen the deck"
                               " after dealing it"))
        if not w.bare and reveal.hand != w.hand:
            problems.append(phrase("the seeds revealed are for table deal {shown}, but the commitment was for table"
                                   " deal {deal}", shown=reveal.hand, deal=w.hand))
        if reveal.table != self.table:
            problems.append(phrase("the deck was keyed to another table ({table})", table=repr(reveal.table[:40])))
        try:
            seed = DealSeed(reveal.server_seed, tuple((s.seat, s.seed) for s in reveal.seeds), reveal.table,
                            reveal.hand, reveal.scheme, tuple(revealed.items()))
        except ValueError as e:
            return Verdict(hand, (*problems, phrase("the revealed seeds are malformed ({error})", error=e)),
                           seated=seated, hand_no=w.hand_no)
        seeds = dict(seed.player_seeds)
        dropped = "" if reveal.void else self._mine(w, seeds, problems)
        if self.seat in seeds and w.seed is None and not w.live:
            notes.append(N_("the seed at your seat is the one whoever sat there before you sent for this deal"))
        withheld: tuple[str, ...] = ()
        away: tuple[str, ...] = ()
        if seed.scheme != SCHEMES[0]:
            for s in seed.unfollowed():
                problems.append(phrase("the deal used a seed for seat {seat} that is not the link its pledge named:"
                                       " one that could be chosen after the others were seen", seat=s + 1))
            for s in revealed:
                if s in w.bots and s in self.bots:
                    problems.append(phrase("the commitment took a pledge at seat {seat}, where a bot plays: one the"
                                           " host made", seat=s + 1))
            gone = set(reveal.gone)
            if not reveal.void:  # (a deal never dealt chose no deck: who had not cut yet is no matter)
                withheld = tuple(self._named(s) for s in seed.withheld() if s != self.seat and s not in gone)
                away = tuple(self._named(s) for s in seed.withheld() if s != self.seat and s in gone)
        for s, b in seeds.items():
            if s == self.seat:
                continue
            if s >= self.seats:
                problems.append(phrase("the deal used a seed for seat {seat}, which this table does not have",
                                       seat=s + 1))
            elif s in w.bots and s in self.bots:
                problems.append(phrase("the deal used a seed for seat {seat}, where a bot plays: one the host chose",
                                       seat=s + 1))
            if b in self.sent:
                problems.append(phrase("the deal gives seat {seat} a seed this client sent (for table deal {deal})",
                                       seat=s + 1, deal=self.sent[b]))
        told = tuple(sorted(set(reveal.awaited)))
        awaited = told
        if seated and w.live and not w.bare and self.seat is not None:
            # This client had the table open when the hand was committed: it was waited for.
            awaited = tuple(sorted({*told, self.seat}))
            if self.seat not in told:
                notes.append(N_("the server's list of the seats it waited for leaves yours out, though this client"
                                " had the table open when the hand was committed"))
        for s in awaited:
            if s not in seeds and s != self.seat and s not in reveal.gone and (seed.scheme == SCHEMES[0]
                                                                              or s in revealed):
                notes.append(phrase("seat {seat} was seated and connected, but its seed was not used", seat=s + 1))
        if not seeds and not w.unasked and w.seed is None:  # (a seed of this client's left out says so already)
            notes.append(N_("no player's seed went in: the host alone fixed this deck"))
        compared = False
        if w.gap:
            notes.append(N_("part of the hand did not reach this client, so its cards were not compared"))
        elif not reveal.void:
            started = next((b for _, b in w.seen if isinstance(b, table_pb2.HandStarted)), None)
            if started is not None and w.named is not None and started.dealer != w.named:
                problems.append(phrase("the server named seat {named} to deal, but the commitment had fixed seat"
                                       " {seat} before the cut", named=started.dealer + 1, seat=w.named + 1))
            # (the rules' turn, where this client saw who dealt before: not on a snapshot's word, which a table
            # whose rotation this client did not see may well have right in ways it cannot follow)
            if started is not None and w.dealer is not None and not w.guessed and started.dealer != w.dealer:
                problems.append(phrase("the server named seat {named} to deal, but by the rules it was seat {seat}'s"
                                       " turn", named=started.dealer + 1, seat=w.dealer + 1))
                # Out of turn once, the table's rotation and the rules' part ways: until the next match, a dealer
                # the commitment did not fix gets no tick, whichever of the two it follows.
                self.distrust = True
            if (w.dealer is None or w.guessed or w.distrusted) and not w.bare and not doubt:
                # Who deals decides who leads and who bets first: ✔ only where this client saw the rotation itself.
                # A dealer the commitment named is the table's word all the same when nothing here can check it.
                doubt = self._word(w)
            game = gamebook.find(self.game)
            if any(isinstance(b, sealed_pb2.SealedHandNamed) for _, b in w.seen):
                # The seats' own clients shuffled and locked the deck: the seeds chose no card of it, and every card
                # opened was checked as it came (client.sealed_seat).
                notes.append(N_("a sealed deal: its cards came from the seats' own shuffles, checked by every client "
                                "as each was opened, not from these seeds"))
            elif game is None:
                notes.append(phrase("this client does not know how {game} deals, so its cards were not compared",
                                    game=repr(self.game[:40])))
            else:
                problems += game.deal_check(game.pack_of(self.options), FairRandom(seed), w.seen, self.seat,
                                            self.seats)
                compared = True
        honest = [t for t in remembered if t.honest]
        if len(honest) == 1:
            t = honest[0]
            taint = phrase("your seed for table deal {old} at table {table} went to a deal you did not see played"
                           " out ({how}): the host saw that deck, so this deal cannot be told from one it chose",
                           old=t.deal, table=t.table[:8], how=_kind_said(t))
        elif honest:
            shown = "; ".join(_("table deal {old} at table {table} ({how})").format(
                old=t.deal, table=t.table[:8], how=_kind_said(t)) for t in honest[:3])
            more = _("; and {n} more").format(n=len(honest) - 3) if len(honest) > 3 else ""
            taint = phrase("your seeds for {n} deals at this host went to deals you did not see played out ({which}"
                           "{more}): the host saw those decks, so this deal cannot be told from one it chose",
                           n=len(honest), which=shown, more=more)
        if honest:
            doubt = phrase("{one}; and {other}", one=said(doubt), other=said(taint)) if doubt else taint
        mine = seeds.get(self.seat) if self.seat is not None else None
        return Verdict(hand, tuple(problems), tuple(notes), cut=w.seed is not None and mine == w.seed,
                       seated=seated, hand_no=w.hand_no, used=tuple(sorted(seeds)), awaited=awaited,
                       dropped=dropped, unasked=w.unasked, compared=compared or bool(reveal.void), withheld=withheld,
                       away=away, void=reveal.void, doubt=doubt, gone=tuple(reveal.gone))

    def _settle(self, w: Watch, fate: Fate, kind: Kind | None = None, why: str = "") -> None:
        """What became of this client's link to ``w`` (if it gave one), for its memory of the host."""
        if self.stay is not None and w.seed is not None and not w.bare:
            self.stay.settle(self.table, w.commitment, fate, kind, why)

    def _remembered(self) -> list[Taint]:
        """The links this client gave this host, at another table or before it started again, to commitments that
        dealt no hand, not said yet: this deal is the next one after them. (Those this checker gave at this table
        are its own to say, by ``spent``.)"""
        if self.stay is None:
            return []
        return self.stay.taints(self.table, frozenset(self._given))

    def close(self) -> None:
        """This client stops following the table (the stream ends for good, or the screen goes): a link it gave
        there whose hand it did not see played out is one the host saw and it cannot account for."""
        if self.stay is not None and self._following:
            self.stay.left(self._following)
        self._following = ""

    @staticmethod
    def _word(w: Watch) -> str:
        """Why the hand's dealer is the table's word, not the rotation this client saw (``check``'s doubt)."""
        if w.guessed:
            return phrase("who deals rests on the table's word, not on a rotation this client saw ({why})",
                          why=said(w.guessed))
        if w.distrusted:
            return N_("who deals rests on the table's word: a hand of this match was dealt out of the rules' turn")
        if w.named is None:
            return N_("the commitment did not fix the dealer, and this client had not seen enough of the table"
                      " to work it out")
        return N_("who deals rests on the table's word: this client had not seen enough of the table to work it"
                  " out")

    def _named(self, seat: int) -> str:
        """A seat as a verdict names it: its number, and who sits there."""
        name = self.names.get(seat, "")
        return _("seat {seat} ({name})").format(seat=seat + 1, name=name) if name else _("seat {seat}").format(
            seat=seat + 1)

    def _mine(self, w: Watch, seeds: dict[int, bytes], problems: list[str]) -> str:
        """This client's own seed in the reveal: the problems it shows, or why it was left out
        (returned) when nothing shows the server chose to leave it out."""
        mine = seeds.get(self.seat) if self.seat is not None else None
        if mine is not None and mine == w.seed:
            return ""
        if mine is not None and w.seed is None and not w.live:
            # This client opened the table after the hand was committed (its commitment came as a replay): it
            # was not asked for a seed, and the seat's is the one its earlier holder sent (``check`` notes it).
            return ""
        if mine is not None:
            if mine in self.sent:  # the server knew this one before it committed to this hand
                problems.append(phrase("the deal used your seed of table deal {old}, not the one you sent for this"
                                       " deal", old=self.sent[mine]))
            else:
                problems.append(N_("the deal used a seed for your seat that this client did not send"))
            return ""
        if w.seed is None:
            return ""
        if w.taken:
            problems.append(N_("the server took your seed but dealt without it"))
        elif w.answered_ms is not None and w.answered_ms * 2 <= w.cut_ms:
            # Refused as late, though its answer was back within half the window: the server had it in
            # time and chose to deal without it, which is how a host picks among decks.
            problems.append(phrase("your seed was not used in this deal, though the server had it within {ms} ms"
                                   " of its {cut} ms wait", ms=w.answered_ms, cut=w.cut_ms))
        elif w.answered_ms is not None:
            return phrase("the server's answer came {ms} ms into its {cut} ms wait: too late", ms=w.answered_ms,
                          cut=w.cut_ms)
        else:
            return N_("the server never answered it")
        return ""


def _kind_said(taint: Taint) -> str:
    """How a remembered commitment came to deal nothing, in words."""
    if taint.kind is Kind.VOID:
        return said(taint.why) if taint.why else _("it was revealed undealt")
    return {Kind.UNSEEN: _("this client stopped following that table before its hand was played out"),
            Kind.DROPPED: _("another commitment replaced it"),
            Kind.MISDEALT: _("it was revealed before a hand of it was played out"),
            Kind.UNREVEALED: _("its hand was never revealed")}[taint.kind]


# -- who deals (docs/deal.md §9), from the rules and the table's history ------------------------
@dataclass(frozen=True)
class Dealing:
    """Who deals at a game (each game's, ``client.gamebook``)."""

    first: int = 0
    """Who deals a match's first hand: seat 0, or (-1) the last seat."""
    passes: bool = False
    """The deal passes on round the table to the next seat, whoever is still in (the trucos); else it passes left
    to the next player still in (chips or points)."""
    to_winner: bool = False
    """The hand's winner deals if they have chips (Pif Paf's ``dealer`` option, by default); with ``rebuy``
    anyone may deal."""
    duels: Callable[[Message], bool] | None = None
    """At six, a 3v3 round's dealer deals the 1v1s after it too (truco argentino's ``pica_pica``): the event that
    begins the 1v1s (None: a game without them)."""
    still_in: Callable[[int, Mapping[str, common_pb2.OptionValue]], bool] | None = None
    """Whether a seat standing at a score is still in, by the table's options, where it is not having chips or
    points left (Chinchón's points count against: in up to the target)."""


DealCheck = Callable[[Sequence[str], FairRandom, "Seen", int | None, int], list[str]]
"""A game's deal followed from what a seat saw: (its pack, the deal's generator, the events seen, this seat,
the seats) to the problems found."""


def next_dealer(dealing: Dealing, dealer: int, n: int, stacks: dict[int, int], winner: int | None,
                options: dict[str, common_pb2.OptionValue]) -> int:
    """Who deals after ``dealer``: the trucos pass the deal on; Cacho and Cacheta pass it left to the next
    player still in (chips or points); Pif Paf gives it to the hand's winner (its ``dealer`` option, by default)
    if they have chips, else passes it left to the next with chips (anyone, with ``rebuy``)."""
    if dealing.passes:
        return (dealer + 1) % n
    rebuy = dealing.to_winner and options.get("rebuy", common_pb2.OptionValue()).flag
    if dealing.to_winner and winner is not None and stacks.get(winner, 0) > 0 and (
            options.get("dealer", common_pb2.OptionValue(choice="winner")).choice or "winner") == "winner":
        return winner
    d = dealer
    for _step in range(n):
        d = (d + 1) % n
        score = stacks.get(d, 0)
        if (dealing.still_in(score, options) if dealing.still_in is not None else score > 0) or rebuy:
            return d
    return d


def in_turn(seats: Sequence[int], dealer: int | None, n: int) -> bool:
    """Whether ``seats`` are named in the order of dealing: from the dealer's next seat on (§9)."""
    if dealer is None or not n:
        return True
    return list(seats) == sorted(seats, key=lambda s: (s - dealer - 1) % n)


def dealt_by(seen: Seen) -> int | None:
    return next((b.dealer for _, b in seen if isinstance(b, table_pb2.HandStarted)), None)


# -- what each family's deal check shares (docs/deal.md §10): the checks, followed from public events, are the
# families' own (``client/boards/rummy_deal.py``, ``truco_deal.py``, ``cacho_deal.py``)
def shown(cards: Sequence[str]) -> str:
    """Cards as the log shows them everywhere: glyphs, not codes."""
    return " ".join(glyphs(c) for c in cards)


def short(counts: Counter[str], cards: Sequence[str]) -> list[str]:
    """Cards in ``cards`` beyond what ``counts`` holds (a multiset difference)."""
    return list((Counter(cards) - counts).elements())
