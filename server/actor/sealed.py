"""A sealed table's hands at its server (docs/deal.md, "Sealed tables"): it names each hand, relays and checks every
seat's step of the deal, hands each envelope of keys on when the rules release it, and learns a card only when its
holder plays or shows it, with every seat's key for it.

The server holds one ``Ledger`` a hand, checking everything as it comes (``full``), and nothing that opens a card:
the decks, the lock points, the commitments, the proofs, the sealed envelopes and the cards opened in the open. What
it journals is that ledger's record (``cardtui.sealed.record``), step by step, and the hand's history keeps it whole
(``sealed``). A seat's box point (its sealing key for its stay at the table) is pledged, then shown, before the
first hand it plays here; a seat whose person changes pledges again.

The engine is dealt no card (``engine.sealed``): a card comes to it as its holder opened it here, as the game's
action (``Sealed.action``). A step that fails a check names its seat to the table (``SealedCheat``) and the hand is
void. A step out of its turn is refused (``FailedPrecondition``) and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody, Match
from cardtui.engine.history import action_entry, action_of
from cardtui.engine.records import Audience, Event
from cardtui.engine.sealed import Move, Sealed
from cardtui.fair import PACKS
from cardtui.sealed.deck import Hand
from cardtui.sealed.envelopes import pledge
from cardtui.sealed.faults import Cheat
from cardtui.sealed.group import Point, decode, encode
from cardtui.sealed.ledger import PASSED, Ledger, Opening
from cardtui.sealed.plan import Dealing, Layout
from cardtui.sealed.record import Recorder, apply_step, opening_step
from cardtui.sealed.seat import SeatHand
from cardtui.sealed.shuffle import answer_bytes
from cardtui.server.actor.sealed_hosts import HostSeats, prove
from cardtui.server.base.errors import FailedPrecondition
from cardtui.server.base.sealed_wire import Step

if TYPE_CHECKING:
    from cardtui.server.actor.table import Notes, Table

Step_ = tuple[str, int | None, dict[str, Any]]
"""A journal step (the table's ``Step``)."""


# -- the events (sealed.proto's SealedEvent, one class a message of the same name) --------------------------------
@dataclass(frozen=True, slots=True)
class SealedPoint:
    seat: int
    point: bytes


@dataclass(frozen=True, slots=True)
class SealedKey:
    seat: int
    key: bytes


@dataclass(frozen=True, slots=True)
class SealedOpening:
    seat: int
    place: int
    card: str
    keys: tuple[SealedKey, ...]


@dataclass(frozen=True, slots=True)
class SealedEnvelope:
    sender: int
    recipient: int
    label: str
    sealed: bytes


@dataclass(frozen=True, slots=True)
class SealedHandNamed(EventBody):
    hand: int
    table: str
    game: str
    order: tuple[int, ...]
    cards: tuple[str, ...]
    dealing: str
    seats: int
    dealer: int
    onze: int | None
    ferro: bool
    pledging: tuple[int, ...]
    boxes: tuple[SealedPoint, ...]
    envido_unsuited: str
    hosts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SealedPledges(EventBody):
    hand: int
    pledges: tuple[SealedPoint, ...]


@dataclass(frozen=True, slots=True)
class SealedBoxes(EventBody):
    hand: int
    boxes: tuple[SealedPoint, ...]


@dataclass(frozen=True, slots=True)
class SealedLocked(EventBody):
    seat: int
    point: bytes
    deck: tuple[bytes, ...]
    proof: bytes


@dataclass(frozen=True, slots=True)
class SealedRelocked(EventBody):
    seat: int
    deck: tuple[bytes, ...]
    commitments: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class SealedShuffled(EventBody):
    seat: int
    answers: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class SealedProven(EventBody):
    seat: int
    proofs: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class SealedHanded(EventBody):
    envelope: SealedEnvelope


@dataclass(frozen=True, slots=True)
class SealedReady(EventBody):
    hand: int


@dataclass(frozen=True, slots=True)
class SealedPlayed(EventBody):
    card: SealedOpening


@dataclass(frozen=True, slots=True)
class SealedDown(EventBody):
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class SealedShown(EventBody):
    cards: tuple[SealedOpening, ...]
    seat: int


@dataclass(frozen=True, slots=True)
class SealedCheat(EventBody):
    seat: int
    fault: str
    detail: str


@dataclass(frozen=True, slots=True)
class SealedRejected(EventBody):
    seat: int
    cards: tuple[SealedOpening, ...]


@dataclass(frozen=True, slots=True)
class SealedPassed(EventBody):
    seat: int


@dataclass(frozen=True, slots=True)
class SealedKept(EventBody):
    seat: int


@dataclass(frozen=True, slots=True)
class SealedChosen(EventBody):
    seat: int
    place: int


def points(deck: Sequence[Point]) -> tuple[bytes, ...]:
    return tuple(encode(p) for p in deck)


def opening_event(opening: Opening) -> SealedOpening:
    return SealedOpening(opening.seat, opening.place, opening.card,
                         tuple(SealedKey(seat, key.to_bytes(32, "big")) for seat, key in sorted(opening.keys.items())))


DEALING = {"round": Dealing.ROUND, "blocks": Dealing.BLOCKS}


@dataclass
class InPlay:
    """The sealed hand in play: its ledger (which checks everything), its record, what has been handed on."""

    number: int
    ledger: Ledger | None
    """None while the seats' box points are still coming (the hand's first steps at a table)."""
    hand: Hand
    layout: Layout
    recorder: Recorder | None = None
    handed: set[tuple[int, int, str]] = field(default_factory=set)
    ready: bool = False
    pledging: tuple[int, ...] = ()
    hosts: tuple[int, ...] = ()
    """The host's seats this hand (``server.actor.sealed_hosts``): a bot's."""
    said: set[tuple[int, bytes]] = field(default_factory=set)
    """Each step taken from a seat's client this hand, by its digest (``sealed_wire.said``): one sent again is
    answered as taken (``repeated``). Journaled with the step (a ``said`` step), so a restart knows them too."""


class Sealing:
    """A sealed table's hands (its ``Table.sealed``): None of this exists at any other table."""

    def __init__(self, table: Table, note: Notes) -> None:
        self.table = table
        self.note = note
        self.pledges: dict[int, bytes] = {}
        self.boxes: dict[int, Point] = {}
        """Each seat's box point for its person's stay here (pledged, then shown, before their first hand)."""
        self.hand: InPlay | None = None
        self.hosts = HostSeats()
        """The secrets of the host's own seats (a bot's), whose steps the server makes."""
        self._hosting = False
        self._proving: asyncio.Task[None] | None = None
        """The host seats' proofs being made off the loop (``hosts_act``)."""
        self._recalled_own = False
        """A restart: the journal's last sealed step was a card's, whose act follows (not one ``followed`` made)."""
        self._apart: dict[tuple[int, bytes], asyncio.Future[int]] = {}
        """Each seat's proofs being checked off the loop (``seal_apart``), by the step's digest."""

    # -- the hand named ------------------------------------------------------------------------------------------
    def begin(self, number: int, pledging: Sequence[int] | None = None, hosts: Sequence[int] | None = None
              ) -> list[Event]:
        """The events that name the hand just dealt (added to its deal's), with its record's first step.
        ``pledging`` and ``hosts``: as the journal says (a restart), else as the table is seated now: a seat
        whose holder is a bot with no person's client (a bot's seat, or one its person left) is the host's, with
        a box point of the host's."""
        match = self.table.match
        assert match is not None
        sealed = match.sealed()
        assert sealed is not None
        deal = sealed.deal()
        layout = Layout(DEALING[deal.dealing], deal.seats, deal.dealer, deal.onze, deal.ferro)
        order = tuple((layout.first + i) % layout.seats for i in range(layout.seats))
        rules = self.table.rules
        hand = Hand(self.table.id, number, rules.name, order, PACKS[rules.pack(self.table.options)])
        seats = range(layout.seats)
        if hosts is None:
            seating = self.table.seating
            hosts = tuple(s for s in seats if seating[s].token is None and seating[s].botted)
            for s in hosts:
                if s not in self.hosts:  # a box of someone else's: the host shows one of its own
                    self.seated(s)
        for s in [s for s in self.hosts.seats if s not in hosts]:  # a seat of the host's last hand, someone's now
            self.hosts.let_go(s)
        if pledging is None:
            pledging = tuple(s for s in seats if s not in self.boxes)
        for s in pledging:
            self.boxes.pop(s, None)
        self.hand = InPlay(number, None, hand, layout, pledging=tuple(pledging), hosts=tuple(hosts))
        if not pledging:
            self._ledger()
        named = SealedHandNamed(number, hand.table, hand.game, order, hand.cards, deal.dealing, deal.seats, deal.dealer,
                                deal.onze, deal.ferro, tuple(pledging), self._points(self.boxes), deal.envido_unsuited,
                                tuple(hosts))
        return [Event(named)]

    def named_step(self) -> dict[str, Any]:
        """The journal's step for the hand just named (``begin``): who pledges, whose seats are the host's."""
        assert self.hand is not None
        return {"step": "named", "hand": self.hand.number, "pledging": list(self.hand.pledging),
                "hosts": list(self.hand.hosts)}

    def _ledger(self) -> None:
        assert self.hand is not None
        boxes = {s: self.boxes[s] for s in range(self.hand.layout.seats)}
        self.hand.ledger = Ledger(self.hand.hand, self.hand.layout, boxes, full=True)
        self.hand.recorder = Recorder(self.hand.hand, self.hand.layout, boxes)

    @staticmethod
    def _points(found: Mapping[int, Point]) -> tuple[SealedPoint, ...]:
        return tuple(SealedPoint(s, encode(v)) for s, v in sorted(found.items()))

    @staticmethod
    def _pledged(found: Mapping[int, bytes]) -> tuple[SealedPoint, ...]:
        return tuple(SealedPoint(s, v) for s, v in sorted(found.items()))

    def seated(self, seat: int) -> None:
        """Someone else holds ``seat`` now: their box is theirs to pledge before their first hand. A seat of the
        host's in the hand in play (a bot's a person sat down at) stays the host's until the next hand: the host made
        its part of the deal and holds the keys of its cards, which the person plays (``hosting``)."""
        self.pledges.pop(seat, None)
        self.boxes.pop(seat, None)
        if not self.hosting(seat):
            self.hosts.let_go(seat)

    def hosting(self, seat: int) -> bool:
        """Whether ``seat`` is the host's in the hand in play: its cards are opened with the host's keys, whoever
        plays them (a bot, or a person who sat down there during the hand: the seat is theirs from the next one)."""
        held = self.hand
        return held is not None and seat in held.hosts and seat in self.hosts

    @property
    def waits(self) -> bool:
        """The hand in play is still being dealt: nobody acts, no clock runs."""
        return self.hand is not None and not self.hand.ready

    def ended(self) -> dict[str, Any] | None:
        """The hand ended: its record, for its history (None if it never got past its boxes)."""
        held, self.hand = self.hand, None
        if held is None or held.recorder is None:
            return None
        held.recorder.simple("end")
        return held.recorder.record()

    # -- a seat's step -------------------------------------------------------------------------------------------
    def take(self, seat: int, number: int, step: Step) -> None:
        """A seat's step of the hand ``number``: checked, recorded, journaled and told to the table."""
        held = self.hand
        if held is None or held.number != number:
            raise FailedPrecondition("That step is for a sealed hand that is not being dealt here now.")
        if step.kind in ("pledge", "box"):
            self._box(held, seat, step)
            return
        ledger, recorder = held.ledger, held.recorder
        if ledger is None or recorder is None:
            raise FailedPrecondition("Every seat's box point comes first: the sealed deal has not begun.")
        try:
            events, steps = self._step(held, ledger, recorder, seat, step)
        except Cheat as cheat:
            self._named(cheat)
            return
        except ValueError as error:
            raise FailedPrecondition("That step is not yours to make now: {why}.", why=str(error)) from None
        if not held.ready and ledger.awaited() is None and not ledger.owed() and self._proven(ledger):
            try:
                self._learn(held, ledger)
            except Cheat as cheat:  # an envelope sealed for a host's seat that does not open
                self.table.sealed_changed(events, steps)
                self._named(cheat)
                return
            held.ready = True
            events.append(Event(SealedReady(number)))
            steps.append(("sealed", None, {"step": "ready"}))
        self.table.sealed_changed(events, steps)

    async def seal_apart(self, seat: int, number: int, step: Step, said: bytes, same: Callable[[], bool]) -> int:
        """A seat's proofs (``Table.Seal``), checked in a thread (``check_apart``), then taken (``Table.seal``); the
        last sequence number. The check and the taking go on if the call's deadline passes meanwhile (a busy host), as
        a step taken on the loop would: the client, asking again, is answered as taken, and an ask that comes while
        the first is checked waits for that check. ``same``: whether the caller still holds the seat."""
        key = (seat, said)
        task = self._apart.get(key)
        if task is None:
            async def check_and_take() -> int:
                checked = await self.check_apart(seat, number, step)
                if not same():
                    raise FailedPrecondition("That seat changed hands while its proofs were checked.")
                return self.table.seal(seat, number, checked, said)

            task = self._apart[key] = asyncio.ensure_future(check_and_take())
            task.add_done_callback(lambda done: (self._apart.pop(key, None),
                                                 done.cancelled() or done.exception()))  # (an error: the caller's)
        return await asyncio.shield(task)

    async def check_apart(self, seat: int, number: int, step: Step) -> Step:
        """A seat's proofs (its shuffle's, its relock's: the costly checks of a deal, some 35 ms of CPU a shuffle)
        checked in a thread before the step is taken, so that the loop hands the deal's keys on meanwhile: the step,
        marked checked if they hold. A proof that fails, or a step the ledger would refuse anyway, is left as it
        came: ``take`` checks it again on the loop and names its seat, or refuses it, as it would have."""
        held = self.hand
        ledger = held.ledger if held is not None and held.number == number else None
        check = None
        if ledger is not None and step.kind == "shuffle" and step.shuffle is not None:
            check = ledger.shuffle_check(step.shuffle)
        elif ledger is not None and step.kind == "proofs":
            check = ledger.proofs_check(seat, step.proofs)
        if check is None:
            return step
        try:
            await asyncio.to_thread(check)
        except Cheat:
            return step
        return replace(step, checked=True) if self.hand is held else step

    def repeated(self, seat: int, number: int, said: bytes) -> bool:
        """Whether ``seat`` sent this very step of the hand ``number`` before and it was taken: its client asks again
        because the answer never reached it (a deadline passed on a busy host), not to make it twice."""
        held = self.hand
        return held is not None and held.number == number and (seat, said) in held.said

    def took(self, seat: int, number: int, said: bytes) -> None:
        """The step ``said`` of ``seat``'s was taken (``repeated``): journaled in the same write as the step (the
        table's ``seal``), so that a step sent again across a kill -9 of the host is answered as taken too. The
        digest is of a request whose every byte is in the journal already: it tells a reader of the store nothing."""
        held = self.hand
        if held is not None and held.number == number and (seat, said) not in held.said:
            held.said.add((seat, said))
            self.note([], ("sealed", seat, {"step": "said", "said": said.hex()}))

    # -- the host's own seats (``server.actor.sealed_hosts``) ----------------------------------------------------
    def _learn(self, held: InPlay, ledger: Ledger) -> None:
        """The host opens its own seats' cards as the rules hand them over, and the engine knows them (its bots play
        them): once the deal is done; in truco paulista, the others' blocks once the mão keeps, the mão's spare block
        after a pass or a rejection, a passed block at a partner of the host's. A seat whose cards nobody can open yet
        (a mão de ferro's, played blind) stays unseen."""
        match = self.table.match
        sealed = match.sealed() if match is not None else None
        if sealed is None:
            return
        for seat in held.hosts:
            if not sealed.blind(seat):
                continue
            mine = self.hosts.hand(seat, held.hand, ledger)
            opened = [mine.card(place) for place in ledger.holdings[seat] if place not in ledger.played]
            if opened and None not in opened:
                sealed.learn(seat, tuple(Card.parse(card) for card in opened if card is not None))

    def hosts_act(self) -> None:
        """The steps the host's seats owe now, each made and taken as a person's would be (after the hand is
        named, after each step of anyone's, after a restart)."""
        held = self.hand
        if not self._hosting and held is not None and held.ready and held.ledger is not None:
            with contextlib.suppress(Cheat):  # (named when the envelope came)
                self._learn(held, held.ledger)  # what the host's seats were handed before a restart
        if self._hosting or held is None or not held.hosts or held.ready:
            return
        self._hosting = True
        try:
            fresh = [s for s in held.hosts if s not in self.hosts or self.hosts.seats[s].number != held.number]
            for seat, data in self.hosts.deal(held.hosts, held.number, fresh):
                self.note([], ("sealed", seat, data))
            loop = _running()
            while self.hand is held and not held.ready:
                seats = range(held.layout.seats)
                try:
                    due = self.hosts.due(self.pledges, self.boxes, all(s in self.pledges or s in self.boxes
                                                                        for s in seats), held.hand, held.ledger,
                                         proofs=loop is None)
                except Cheat as cheat:  # an envelope sealed for a host's seat that does not open
                    self._named(cheat)
                    return
                if due is None:
                    ledger = held.ledger
                    if loop is not None and ledger is not None and ledger.awaited() is None and not ledger.owed() \
                            and self._proving is None:
                        # Every seat's envelopes are in (sent once this change is written): the proofs, made off
                        # the loop, follow, and play waits for them (``ready``); a person's cards do not, nor the
                        # keys that open them, which no thread of the host's slows down on their way.
                        owed = self.hosts.unproved(held.hand, ledger)
                        if owed:
                            self._proving = loop.create_task(self._prove(held, owed))
                    return
                seat, step = due
                self.take(seat, held.number, step)
        finally:
            self._hosting = False

    async def _prove(self, held: InPlay, owed: list[tuple[int, SeatHand, bool, bool]]) -> None:
        """The host seats' proofs, made in a thread while the loop sends what came before them; then taken."""
        try:
            made = await asyncio.to_thread(prove, owed)
        finally:
            self._proving = None
        if self.hand is held and not self.table.closed:
            self.table.pacer.run(lambda: self._proved(held, made))

    def _proved(self, held: InPlay, made: list[tuple[int, Step]]) -> None:
        ledger = held.ledger
        assert ledger is not None
        with self.table.change():  # one journal write, one message, for all of them
            for seat, step in made:
                if self.hand is not held:
                    return
                if seat not in (ledger.shuffles if step.kind == "shuffle" else ledger.proofs):
                    self.take(seat, held.number, replace(step, checked=True))  # (the host's own: made, not doubted)
        self.hosts_act()

    def host_move(self, seat: int, action: Action) -> bool:
        """A bot's move at a host's seat: a card it plays or shows goes out with its keys (``take``), as a
        person's would; False for any other move (made as at any table)."""
        held, match = self.hand, self.table.match
        if held is None or seat not in held.hosts or held.ledger is None or match is None:
            return False
        sealed = match.sealed()
        move = sealed.move(action) if sealed is not None else None
        if move is None:
            return False
        mine = self.hosts.hand(seat, held.hand, held.ledger)
        ledger = held.ledger

        def place(card: Card, played: bool = False) -> int:
            return next(p for p in ledger.holdings[seat]
                        if mine.card(p) == str(card) and (played or p not in ledger.played))

        if move is Move.KEEP:
            return False  # no card moves: made as at any table (``followed`` hands the blocks on)
        unplayed = [p for p in ledger.holdings[seat] if p not in ledger.played]
        if move is Move.PLAY:
            step = Step("play", openings=(mine.opening(place(action.cards[0])),))
        elif move is Move.SHOW:
            step = Step("show", openings=tuple(mine.opening(place(c, played=True)) for c in action.cards))
        elif move is Move.REJECT:
            step = Step("reject", openings=tuple(mine.opening(p) for p in unplayed))
        elif move is Move.PASS:
            step = Step("pass", envelopes=(mine.passing(tuple(unplayed)),))
        elif move is Move.CHOOSE:  # a mão de ferro: the place chosen, its keys handed to the seat, then played
            chosen = unplayed[min(max(action.amount, 1), len(unplayed)) - 1]
            self.take(seat, held.number, Step("choose", place=chosen))
            if self.hand is not held or chosen not in ledger.chosen:
                return True
            mine = self.hosts.hand(seat, held.hand, ledger)
            step = Step("play", openings=(mine.opening(chosen),))
        else:
            step = Step("down", place=unplayed[0])
        self.take(seat, held.number, step)
        return True

    def _box(self, held: InPlay, seat: int, step: Step) -> None:
        seats = range(held.layout.seats)
        if step.kind == "pledge":
            if seat in self.boxes or seat in self.pledges:
                raise FailedPrecondition("Your box point is pledged already.")
            if len(step.pledge) != 32:
                raise FailedPrecondition("A pledge is the 32 bytes of a SHA-256.")
            self.pledges[seat] = step.pledge
            events: list[Event] = []
            if all(s in self.pledges or s in self.boxes for s in seats):
                events.append(Event(SealedPledges(held.number, self._pledged(self.pledges))))
            self.note(events, ("sealed", seat, {"step": "pledge", "pledge": step.pledge.hex()}))
            return
        assert step.point is not None
        if seat in self.boxes:
            raise FailedPrecondition("Your box point is shown already.")
        if not all(s in self.pledges or s in self.boxes for s in seats):
            raise FailedPrecondition("Box points are shown once every seat has pledged one.")
        if not hmac.compare_digest(pledge(step.point), self.pledges[seat]):
            raise FailedPrecondition("That box point is not the one you pledged.")
        self.boxes[seat] = step.point
        events = []
        if all(s in self.boxes for s in seats):
            self.pledges.clear()
            self._ledger()
            events.append(Event(SealedBoxes(held.number, self._points(self.boxes))))
        self.note(events, ("sealed", seat, {"step": "box", "point": encode(step.point).hex()}))

    @staticmethod
    def _proven(ledger: Ledger) -> bool:
        order = ledger.hand.order
        return all(s in ledger.shuffles for s in order) and all(s in ledger.proofs for s in order)

    def _step(self, held: InPlay, ledger: Ledger, recorder: Recorder, seat: int, step: Step
              ) -> tuple[list[Event], list[Step_]]:
        before = len(recorder.steps)
        events: list[Event] = []
        match step.kind:
            case "lock":
                assert step.lock is not None
                if step.lock.seat != seat:
                    raise ValueError("a lock is its own seat's")
                ledger.add_lock(step.lock)
                recorder.lock(step.lock)
                events.append(Event(SealedLocked(seat, encode(step.lock.point), points(step.lock.deck),
                                                 step.lock.proof.to_bytes())))
            case "relock":
                ledger.add_relock(seat, step.deck, step.commitments)
                recorder.relock(seat, step.deck, step.commitments)
                events.append(Event(SealedRelocked(seat, points(step.deck), points(step.commitments))))
            case "envelopes":
                for envelope in step.envelopes:
                    if envelope.sender != seat:
                        raise ValueError("an envelope is sent by its sender")
                    ledger.add_envelope(envelope)
                    recorder.envelope(envelope)
                events += self._hand_on(held, ledger)
            case "shuffle":
                assert step.shuffle is not None
                ledger.add_shuffle(step.shuffle, checked=step.checked)
                recorder.shuffle(step.shuffle)
                events.append(Event(SealedShuffled(seat, tuple(answer_bytes(a) for a in step.shuffle.answers))))
            case "proofs":
                ledger.add_proofs(seat, step.proofs, checked=step.checked)
                recorder.proofs(seat, step.proofs)
                events.append(Event(SealedProven(seat, tuple(p.to_bytes() for p in step.proofs))))
            case "play" | "down" | "show":
                return self._card(held, ledger, recorder, seat, step)
            case "reject" | "pass" | "choose":
                return self._choice(held, ledger, recorder, seat, step)
            case other:
                raise ValueError(f"no step {other!r}")
        return events, [("sealed", seat, s) for s in recorder.steps[before:]]

    def _playing(self, held: InPlay) -> tuple[Match, Sealed]:
        """The match in play and its sealed cards, once the deal is done (a step of play before then is refused)."""
        match = self.table.match
        sealed = match.sealed() if match is not None else None
        if match is None or sealed is None or not held.ready:
            raise ValueError("play has not begun")
        return match, sealed

    def _card(self, held: InPlay, ledger: Ledger, recorder: Recorder, seat: int, step: Step
              ) -> tuple[list[Event], list[Step_]]:
        """A card played face up or down, or cards shown: checked here, then told to the engine as its action."""
        match, sealed = self._playing(held)
        move = {"play": Move.PLAY, "down": Move.DOWN, "show": Move.SHOW}[step.kind]
        offered = {sealed.move(a) for a in match.legal_actions(seat)}
        blind = move is Move.PLAY and Move.CHOOSE in offered and len(step.openings) == 1 and ledger.chosen.get(
            step.openings[0].place) == seat  # a mão de ferro's card, chosen and handed its keys
        if move not in offered and not blind:
            raise ValueError(f"{'a card' if move is not Move.SHOW else 'a show'} is not yours to make now")
        before = len(recorder.steps)
        event: EventBody
        if move is Move.DOWN:
            ledger.play_down(seat, step.place)
            recorder.simple("down", seat, step.place)
            cards: tuple[Card, ...] = ()
            event = SealedDown(seat, step.place)
        elif move is Move.PLAY:
            (opening,) = step.openings
            if opening.seat != seat:
                raise ValueError("a card is played by its holder")
            cards = (Card.parse(ledger.play(opening)),)
            recorder.play(opening)
            event = SealedPlayed(opening_event(opening))
        else:
            if any(o.seat != seat for o in step.openings):
                raise ValueError("cards are shown by their holder")
            cards = tuple(Card.parse(ledger.show(o)) for o in step.openings)
            for o in step.openings:
                recorder.show(o)
            event = SealedShown(tuple(opening_event(o) for o in step.openings), seat)
        action = sealed.action(move, seat, cards, 1)
        steps: list[Step_] = [("sealed", seat, s) for s in recorder.steps[before:]]
        events = [Event(event), *self.table.sealed_apply(seat, action)]
        steps.append(("act", seat, action_entry(action)))
        return events, steps

    def _choice(self, held: InPlay, ledger: Ledger, recorder: Recorder, seat: int, step: Step
                ) -> tuple[list[Event], list[Step_]]:
        """Truco paulista's steps that move hidden cards before the play (docs/deal.md §S7): the mão's block
        rejected (shown face up to everyone), or passed (every key of it sealed for the partner alone, who holds it
        now); the mão then takes its next spare block, whose keys the others sealed for it at the deal. At a mão de
        ferro, a card chosen to play blind: the others' keys for it are handed to its seat, which then plays it."""
        match, sealed = self._playing(held)
        move = {"reject": Move.REJECT, "pass": Move.PASS, "choose": Move.CHOOSE}[step.kind]
        if not any(sealed.move(a) is move for a in match.legal_actions(seat)):
            raise ValueError(f"a {step.kind} is not yours to make now")
        before = len(recorder.steps)
        events: list[Event] = []
        action: Action | None = None
        if move is Move.REJECT:
            if any(o.seat != seat for o in step.openings):
                raise ValueError("a block is rejected by its holder")
            cards = tuple(Card.parse(card) for card in ledger.reject(list(step.openings)))
            recorder.reject(step.openings)
            events.append(Event(SealedRejected(seat, tuple(opening_event(o) for o in step.openings))))
            action = sealed.action(move, seat, cards)
        elif move is Move.PASS:
            (envelope,) = step.envelopes
            layout = ledger.layout
            if (envelope.sender, envelope.recipient, envelope.label) != (seat, layout.partner, PASSED):
                raise ValueError("a block is passed by the mão, its keys sealed for its partner as 'passed'")
            ledger.pass_block()
            ledger.add_envelope(envelope)
            recorder.simple("pass")
            recorder.envelope(envelope)
            events.append(Event(SealedPassed(seat)))
            action = sealed.action(move, seat, ())
        else:
            if any(s == seat and p not in ledger.played for p, s in ledger.chosen.items()):
                raise ValueError("your blind card is chosen already: it is being opened")
            ledger.choose(seat, step.place)
            recorder.simple("choose", seat, step.place)
            events.append(Event(SealedChosen(seat, step.place)))
        steps: list[Step_] = [("sealed", seat, s) for s in recorder.steps[before:]]
        events += self._hand_on(held, ledger)
        if action is not None:
            events += self.table.sealed_apply(seat, action)
            steps.append(("act", seat, action_entry(action)))
            self._learn(held, ledger)
        return events, steps

    def _hand_on(self, held: InPlay, ledger: Ledger) -> list[Event]:
        """Every envelope the rules release now and not yet handed on, each to its recipient alone."""
        out = []
        for key, envelope in sorted(ledger.envelopes.items()):
            if key in held.handed or not ledger.released(envelope):
                continue
            held.handed.add(key)
            wire = SealedEnvelope(envelope.sender, envelope.recipient, envelope.label, envelope.sealed)
            out.append(Event(SealedHanded(wire), Audience(frozenset({envelope.recipient}))))
        return out

    def _named(self, cheat: Cheat) -> None:
        """A seat named for a cheat: said to the table, and the hand is void (nobody scores)."""
        match = self.table.match
        sealed: Sealed | None = match.sealed() if match is not None else None
        events = [Event(SealedCheat(cheat.seat, cheat.fault.value, str(cheat)))]
        if sealed is not None:
            events += sealed.void()
        self.table.sealed_changed(events, [("sealed", cheat.seat, {"step": "cheat", "fault": cheat.fault.value,
                                                                   "detail": str(cheat)})])

    # -- the turn clock's move for a seat whose cards cannot be opened --------------------------------------------
    def followed(self, steps: Sequence[Step_]) -> list[Event]:
        """A card the turn clock played face down for a seat (its ``play_unopened``): the ledger takes the seat's
        first unplayed place, never opened."""
        held, match = self.hand, self.table.match
        if held is None or held.ledger is None or held.recorder is None or match is None:
            return []
        sealed = match.sealed()
        out: list[Event] = []
        own = any(kind == "sealed" for kind, _, _ in steps)
        for kind, seat, data in steps:
            if own or kind != "act" or seat is None or sealed is None:
                continue
            out += self._acted(held, seat, sealed.move(action_of(data)))
        if out:
            with contextlib.suppress(Cheat):  # (an envelope of a host's seat that does not open: named as it came)
                self._learn(held, held.ledger)
        return out

    def _acted(self, held: InPlay, seat: int, move: Move | None) -> list[Event]:
        """An action made as at any table that moves sealed cards: the mão keeps (truco paulista: the others'
        blocks are handed on), or the turn clock plays a card nobody can open face down (a card chosen to play
        blind first)."""
        ledger, recorder = held.ledger, held.recorder
        assert ledger is not None and recorder is not None
        if move is Move.KEEP:
            ledger.keep()
            recorder.simple("keep")
            return [Event(SealedKept(seat)), *self._hand_on(held, ledger)]
        if move is not Move.DOWN:
            return []
        unplayed = [p for p in ledger.holdings[seat] if p not in ledger.played]
        place = next((p for p in unplayed if ledger.chosen.get(p) == seat), unplayed[0])
        ledger.play_down(seat, place)
        recorder.simple("down", seat, place)
        return [Event(SealedDown(seat, place))]

    # -- a restart: the journal's steps, taken back --------------------------------------------------------------
    def recall(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool:
        if kind == "act" and seat is not None and self.hand is not None and self.hand.ledger is not None:
            match = self.table.match
            sealed = match.sealed() if match is not None else None
            move = sealed.move(action_of(data)) if sealed is not None else None
            if not self._recalled_own and move in (Move.KEEP, Move.DOWN):  # what ``followed`` did when it was made
                self._acted(self.hand, seat, move)
            self._recalled_own = False
            return False  # the match takes it back too
        if kind != "sealed":
            return False
        if data.get("step") == "said":  # (not the hand's record: the next ``act`` still follows the step before)
            if seat is not None and self.hand is not None:
                self.hand.said.add((seat, bytes.fromhex(str(data["said"]))))
            return True
        self._recalled_own = data.get("step") in ("play", "down", "show", "reject", "pass", "envelope")
        what = data.get("step")
        if what == "named":
            number = int(data["hand"])
            self.begin(number, data.get("pledging"), data.get("hosts", ()))
        elif what == "host":
            assert seat is not None
            self.hosts.recall(seat, dict(data))
        elif what == "pledge":
            assert seat is not None
            self.pledges[seat] = bytes.fromhex(data["pledge"])
        elif what == "box":
            assert seat is not None and self.hand is not None
            self.boxes[seat] = decode(bytes.fromhex(data["point"]))
            if all(s in self.boxes for s in range(self.hand.layout.seats)):
                self.pledges.clear()
                self._ledger()
        elif what == "ready":
            if self.hand is not None:
                if self.hand.ledger is not None:
                    with contextlib.suppress(Cheat):  # (named when it happened: the next step says so)
                        self._learn(self.hand, self.hand.ledger)
                self.hand.ready = True
        elif self.hand is not None and self.hand.ledger is not None and self.hand.recorder is not None:
            if what == "cheat":
                sealed = self.table.match.sealed() if self.table.match is not None else None
                if sealed is not None:
                    sealed.void()
            else:
                apply_step(self.hand.ledger, data, [], None)
                self.hand.recorder.steps.append(dict(data))
                if what == "envelope":
                    self.hand.handed.update(k for k, e in self.hand.ledger.envelopes.items()
                                            if self.hand.ledger.released(e))
        return True


__all__ = ["Sealing", "Step", "opening_step"]


def _running() -> asyncio.AbstractEventLoop | None:
    """The event loop a table runs on; None where none runs (a table driven by hand: its host seats' proofs are
    made at once)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
