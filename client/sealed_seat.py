"""A person's client at a sealed table (docs/deal.md, "Sealed tables"): it follows the hand's sealed events, makes
this seat's steps when they are due (its box, its lock and relock of the deck, the keys it seals for the others, its
proofs), opens its own cards with the keys the others sealed for it, and gives a card's keys when it is played or
shown.

Its secrets are on the person's disk (``client.sealed_keys``): the box secret for its stay at the table, the hand's
secret and the keys received, so that after a drop or a restart it follows the hand again from the stream (a
resubscription replays it) and plays on with the same cards. Every step it sends is also fed back to it by the
stream, like anyone's, and checked by the same ledger; what it sends is decided once a whole message has been read,
from what the ledger then holds, so a replayed hand never makes a step twice.

The table's screen and the line mode share what it knows through ``own_cards`` (the cards to show) and ``opening``
(the step that plays one); the engine's view of a sealed seat holds none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from cardtui.client.boards.truco_sealed import filled
from cardtui.client.sealed_keys import SealedKeys
from cardtui.sealed.deck import Hand, Lock, SeatSecrets
from cardtui.sealed.envelopes import BoxKey, Envelope, pledge
from cardtui.sealed.faults import Cheat
from cardtui.sealed.group import Point, decode, encode, scalar_bytes, scalar_from
from cardtui.sealed.ledger import Ledger, Opening
from cardtui.sealed.plan import Dealing, Layout, Release
from cardtui.sealed.proofs import Proof
from cardtui.sealed.seat import SeatHand
from cardtui.sealed.shuffle import ShuffleProof, answer_bytes, answer_from
from cardtui.v1 import common_pb2, sealed_pb2, table_pb2

DEALING = {"round": Dealing.ROUND, "blocks": Dealing.BLOCKS}


def _opening(msg: sealed_pb2.SealedOpening) -> Opening:
    return Opening(msg.seat, msg.place, msg.card, {k.seat: scalar_from(bytes(k.key)) for k in msg.keys})


def opening_message(opening: Opening) -> sealed_pb2.SealedOpening:
    return sealed_pb2.SealedOpening(seat=opening.seat, place=opening.place, card=opening.card,
                                    keys=[sealed_pb2.SealedKey(seat=s, key=scalar_bytes(k))
                                          for s, k in sorted(opening.keys.items())])


@dataclass
class SealedSeat:
    """One seat's part of a sealed table, fed every message of its stream (``feed``)."""

    host: str
    """Whose table (the address dialled): the secrets on disk are kept by host."""
    keys: SealedKeys
    seat: int | None = None
    table: str = ""
    number: int = 0
    hand: Hand | None = None
    layout: Layout | None = None
    pledging: tuple[int, ...] = ()
    pledged: bool = False
    """Every seat's pledge is in (``SealedPledges``): box points are shown now."""
    boxes: dict[int, Point] = field(default_factory=dict)
    mine: SeatHand | None = None
    ready: bool = False
    named: list[str] = field(default_factory=list)
    """Each cheat the table named (``SealedCheat``), and each this client found itself, in words."""
    unsuited: str = "sum_two"
    """How the table counts an envido of no two cards of a suit (truco argentino's ``envido_unsuited``)."""
    refused: list[str] = field(default_factory=list)
    """Each step the table refused, as it said why (a step made already, before a drop, among them)."""
    hosts: tuple[int, ...] = ()
    """The host's seats this hand (``SealedHandNamed.hosts``): a seat of them this client sat down at during the hand
    is the host's until the next one (its cards come in the table's view, and go out with the host's keys)."""
    _sent: set[str] = field(default_factory=set)

    # -- what the stream says ------------------------------------------------------------------------------------
    def feed(self, msg: table_pb2.TableMessage) -> list[sealed_pb2.SealRequest]:
        """Read one message of the stream; the steps this seat owes now (without its token), in order."""
        if msg.HasField("snapshot"):
            if msg.snapshot.HasField("seat"):
                self.seat = msg.snapshot.seat
            self.table = msg.snapshot.table.id or self.table
            self.fill(msg.snapshot.view)
            return []
        if not msg.HasField("update"):
            return []
        for event in msg.update.events:
            if event.WhichOneof("body") == "sealed":
                try:
                    self._event(event.sealed)
                except Cheat as cheat:  # what the table will name too (its ledger checks the same)
                    self.named.append(str(cheat))
        if msg.update.HasField("view"):
            self.fill(msg.update.view)
        return self._due()

    def fill(self, view: table_pb2.View) -> None:
        """The table's view as this seat sees it: the server's, which holds none of this seat's cards, with the
        cards this client opened put in by the game's family (``client.boards.truco_sealed``): its own; in truco
        paulista, a mão de onze's partner's hand and the block the mão passed, as the rules show them to it."""
        if self.seat is None or view.you != self.seat or self.mine is None:
            return
        filled(view, [card for _, card in sorted(self.own_cards().items())], self._shows, self.seen())
        ledger = self.mine.ledger
        if any(s == self.seat and p not in ledger.played for p, s in ledger.chosen.items()):  # a blind card chosen,
            kept = [a for a in view.legal if a.type != common_pb2.ACTION_TYPE_PLAY_BLIND]  # being opened: no other
            del view.legal[:]
            view.legal.extend(kept)

    def seen(self) -> dict[int, list[str]]:
        """The other seats' unplayed cards the rules showed this seat (truco paulista): its partner's hand at a mão
        de onze, and, for the mão, the block it passed (its partner's now). By seat."""
        if self.mine is None or self.seat is None or self.layout is None or not self.ready:
            return {}
        ledger, out = self.mine.ledger, {}
        for seat, places in ledger.holdings.items():
            if seat == self.seat:
                continue
            cards = [self.mine.card(p) for p in places if p not in ledger.played]
            if cards and None not in cards:
                out[seat] = [c for c in cards if c is not None]
        return out

    def _shows(self) -> list[list[str]]:
        """The sets of this seat's cards a claim could be shown with: two of a suit or all three (an envido of a
        suit, a flor), or one card when no two share a suit (docs/rules.md)."""
        dealt = self.dealt()
        same = [list(pair) for pair in combinations(dealt, 2) if pair[0][-1] == pair[1][-1]]
        if len(dealt) == 3 and len({c[-1] for c in dealt}) == 1:
            return [*same, dealt]
        return same or [[card] for card in dealt]

    def _event(self, ev: sealed_pb2.SealedEvent) -> None:
        kind = ev.WhichOneof("body")
        if kind == "hand_named":
            self._named(ev.hand_named)
            return
        if kind == "pledges":
            self.pledged = True
        elif kind == "boxes":
            self.boxes = {b.seat: decode(bytes(b.point)) for b in ev.boxes.boxes}
            self._ledger()
        elif kind == "cheat":
            self.named.append(ev.cheat.detail)
        elif kind == "ready":
            self.ready = True
        mine = self.mine
        if mine is None:
            return
        ledger = mine.ledger
        match kind:
            case "locked":
                m = ev.locked
                ledger.add_lock(Lock(m.seat, decode(bytes(m.point)), tuple(decode(bytes(p)) for p in m.deck),
                                     Proof.from_bytes(bytes(m.proof))))
            case "relocked":
                m2 = ev.relocked
                ledger.add_relock(m2.seat, tuple(decode(bytes(p)) for p in m2.deck),
                                  tuple(decode(bytes(p)) for p in m2.commitments))
            case "shuffled":
                ledger.add_shuffle(ShuffleProof(ev.shuffled.seat, tuple(answer_from(bytes(a))
                                                                        for a in ev.shuffled.answers)))
            case "proven":
                ledger.add_proofs(ev.proven.seat, tuple(Proof.from_bytes(bytes(p)) for p in ev.proven.proofs))
            case "handed":
                e = ev.handed.envelope
                mine.receive(Envelope(e.sender, e.recipient, e.label, bytes(e.sealed)))
                self.keys.keep(self.host, self.table, self.number, dict(mine.keys))
            case "played":
                ledger.play(_opening(ev.played.card))
            case "down":
                ledger.play_down(ev.down.seat, ev.down.place)
            case "shown":
                for card in ev.shown.cards:
                    ledger.show(_opening(card))
            case "rejected":  # truco paulista: the mão's block, face up; it takes its next spare block
                ledger.reject([_opening(card) for card in ev.rejected.cards])
            case "passed":  # the partner holds the mão's block now (its keys: to the partner alone, ``handed``)
                ledger.pass_block()
            case "kept":
                ledger.keep()
            case "chosen":  # a mão de ferro: the card a seat plays blind (its keys: to that seat, ``handed``)
                ledger.choose(ev.chosen.seat, ev.chosen.place)

    def _named(self, m: sealed_pb2.SealedHandNamed) -> None:
        if self.hand is not None and self.number and self.number != m.hand:
            self.keys.forget(self.host, self.table, self.number)
        self.number, self.table = m.hand, m.table
        self.unsuited = m.envido_unsuited or self.unsuited
        self.hand = Hand(m.table, m.hand, m.game, tuple(m.order), tuple(m.cards))
        self.layout = Layout(DEALING[m.dealing], m.seats, m.dealer, m.onze if m.HasField("onze") else None, m.ferro)
        self.pledging, self.pledged, self.ready, self.mine = tuple(m.pledging), False, False, None
        self.hosts = tuple(m.hosts)
        self._sent = set()
        if not m.pledging:
            self.boxes = {b.seat: decode(bytes(b.point)) for b in m.boxes}
            self._ledger()

    def _box(self) -> BoxKey:
        return BoxKey(self.keys.box(self.host, self.table))

    def _ledger(self) -> None:
        if self.hand is None or self.layout is None or self.seat is None or self.seat in self.hosts:
            return
        ledger = Ledger(self.hand, self.layout, dict(self.boxes))
        secret = self.keys.hand_secret(self.host, self.table, self.number)
        self.mine = SeatHand(SeatSecrets(secret, self.seat, self.hand), self._box(), ledger)
        self.mine.keys.update(self.keys.keys(self.host, self.table, self.number))

    # -- what this seat owes now ---------------------------------------------------------------------------------
    def _request(self, what: str, **step: object) -> sealed_pb2.SealRequest:
        self._sent.add(what)
        return sealed_pb2.SealRequest(hand=self.number, **step)  # type: ignore[arg-type]

    def _due(self) -> list[sealed_pb2.SealRequest]:
        me = self.seat
        if self.hand is None or me is None or me not in self.hand.order or me in self.hosts:
            return []  # (a seat of the host's this hand, sat down at during it: the host makes its steps)
        out: list[sealed_pb2.SealRequest] = []
        if self.mine is None:
            if me in self.pledging and not self.pledged and "pledge" not in self._sent:
                out.append(self._request("pledge", pledge=sealed_pb2.SealPledge(pledge=pledge(self._box().point))))
            if me in self.pledging and self.pledged and "box" not in self._sent:
                out.append(self._request("box", box=sealed_pb2.SealBox(point=encode(self._box().point))))
            return out
        mine, ledger = self.mine, self.mine.ledger
        awaited = ledger.awaited()
        if awaited == ("lock", me) and "lock" not in self._sent:
            step = mine.lock()
            out.append(self._request("lock", lock=sealed_pb2.SealLock(
                point=encode(step.point), deck=[encode(p) for p in step.deck], proof=step.proof.to_bytes())))
        elif awaited == ("relock", me) and "relock" not in self._sent:
            deck, commitments = mine.relock()
            out.append(self._request("relock", relock=sealed_pb2.SealRelock(
                deck=[encode(p) for p in deck], commitments=[encode(p) for p in commitments])))
        elif awaited is None and self.ready:  # a mão de ferro: the card chosen, its keys handed on, is played
            for place, seat in sorted(ledger.chosen.items()):
                if seat == me and place not in ledger.played and f"blind {place}" not in self._sent \
                        and self.mine.card(place) is not None:
                    self._sent.add(f"blind {place}")
                    out.append(sealed_pb2.SealRequest(hand=self.number, play=sealed_pb2.SealPlay(
                        card=opening_message(self.mine.opening(place)))))
        elif awaited is None and me not in ledger.shuffles and "envelopes" not in self._sent:
            envelopes = [sealed_pb2.SealedEnvelope(sender=e.sender, recipient=e.recipient, label=e.label,
                                                   sealed=e.sealed)
                         for e in mine.envelopes() if (e.sender, e.recipient, e.label) not in ledger.envelopes]
            out.append(self._request("envelopes", envelopes=sealed_pb2.SealEnvelopes(envelopes=envelopes)))
        return out

    def proofs_due(self) -> bool:
        """Whether this seat's proofs are due now (made then by ``behind``, off the loop): once its keys are on their
        way and every key the deal hands this seat has come (its own cards open, or none are handed it at the deal:
        truco paulista's partner, a mão de ferro). The proofs are the costly part of a deal and nobody waits for them
        on the way to their cards; made any sooner, they slow down the keys that open this seat's own, on this
        machine, and the other seats', on the host's. Play waits for them (``ready``). True once: it marks them."""
        me, mine = self.seat, self.mine
        if me is None or mine is None or "envelopes" not in self._sent or "proofs" in self._sent \
                or me in mine.ledger.shuffles:
            return False
        ledger = mine.ledger
        owed = {(sender, place) for g in ledger.grants() if g.recipient == me and g.release is Release.DEALT
                for sender in ledger.hand.order if sender != me for place in g.places}
        if not owed <= mine.keys.keys():
            return False
        self._sent.update(("shuffle", "proofs"))
        return True

    def behind(self) -> list[sealed_pb2.SealRequest]:
        """This seat's proofs, due now (``proofs_due``): its lock's proof that it is a shuffle and its relock's
        proofs. Made off the loop that reads the stream (``Connection``): it reads only what the deal fixed before
        (this seat's secret, the decks it locked and relocked)."""
        mine, number = self.mine, self.number
        if mine is None:
            return []
        shuffle = mine.shuffle_proof()
        return [sealed_pb2.SealRequest(hand=number, shuffle=sealed_pb2.SealShuffle(
                    answers=[answer_bytes(a) for a in shuffle.answers])),
                sealed_pb2.SealRequest(hand=number, proofs=sealed_pb2.SealProofs(
                    proofs=[p.to_bytes() for p in mine.proofs()]))]

    # -- this seat's cards ---------------------------------------------------------------------------------------
    def own_cards(self) -> dict[int, str]:
        """This seat's unplayed cards it can open, by place (none before its keys came, or for a spectator): shown
        as soon as the others' keys are in, before every proof of the deal is (play waits for those, ``ready``)."""
        if self.mine is None or self.seat is None:
            return {}
        ledger = self.mine.ledger
        return {place: card for place, card in self.mine.hand().items()
                if card is not None and place not in ledger.played}

    def dealt(self) -> list[str]:
        """Every card this seat was dealt and can open, played or not, in place order."""
        if self.mine is None:
            return []
        return [card for _, card in sorted(self.mine.hand().items()) if card is not None]

    def opening(self, card: str) -> sealed_pb2.SealRequest:
        """The step that plays ``card`` face up: its place and every seat's key for it."""
        place = self._place(card)
        assert self.mine is not None
        return sealed_pb2.SealRequest(hand=self.number, play=sealed_pb2.SealPlay(
            card=opening_message(self.mine.opening(place))))

    def showing(self, cards: Sequence[str]) -> sealed_pb2.SealRequest:
        """The step that shows ``cards`` (a claim's, at the hand's end), played or not."""
        assert self.mine is not None
        places = [self._place(card, played=True) for card in cards]
        return sealed_pb2.SealRequest(hand=self.number, show=sealed_pb2.SealShow(
            cards=[opening_message(self.mine.opening(p)) for p in places]))

    def step_for(self, action: common_pb2.Action) -> sealed_pb2.SealRequest | None:
        """The step that makes ``action`` at this sealed table (a card played or cards shown, with their keys), or
        None for an action that moves no card (a call, an answer, a count said), sent as any other."""
        if self.mine is None:
            return None
        if action.type == common_pb2.ACTION_TYPE_PLAY and len(action.cards) == 1:
            return self.opening(action.cards[0])
        if action.type == common_pb2.ACTION_TYPE_SHOW:
            return self.showing(list(action.cards))
        if action.type in (common_pb2.ACTION_TYPE_REJECT, common_pb2.ACTION_TYPE_PASS_CARDS,
                           common_pb2.ACTION_TYPE_PLAY_BLIND):
            return self.choosing(action)
        return None

    def choosing(self, action: common_pb2.Action) -> sealed_pb2.SealRequest:
        """Truco paulista: the mão's block rejected (shown face up, every key of it) or passed (every key of it
        sealed for the partner); at a mão de ferro, the place of the card played blind (``position``, from 1)."""
        assert self.mine is not None and self.seat is not None
        ledger = self.mine.ledger
        block = tuple(p for p in ledger.holdings[self.seat] if p not in ledger.played)
        if action.type == common_pb2.ACTION_TYPE_REJECT:
            return sealed_pb2.SealRequest(hand=self.number, reject=sealed_pb2.SealReject(
                cards=[opening_message(self.mine.opening(p)) for p in block]))
        if action.type == common_pb2.ACTION_TYPE_PASS_CARDS:
            e = self.mine.passing(block)
            return sealed_pb2.SealRequest(hand=self.number, pass_block=sealed_pb2.SealPass(
                envelope=sealed_pb2.SealedEnvelope(sender=e.sender, recipient=e.recipient, label=e.label,
                                                   sealed=e.sealed)))
        place = block[min(max(action.position, 1), len(block)) - 1]
        return sealed_pb2.SealRequest(hand=self.number, choose=sealed_pb2.SealChoose(place=place))

    def _place(self, card: str, played: bool = False) -> int:
        if self.mine is None or self.seat is None:
            raise ValueError("no sealed hand is dealt to this seat")
        for place, held in self.mine.hand().items():
            if held == card and (played or place not in self.mine.ledger.played):
                return place
        raise ValueError(f"{card} is not a card of this seat's hand")
