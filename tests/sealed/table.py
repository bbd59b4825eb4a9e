"""A sealed hand played message by message between a referee and every seat's client, each with a ledger of its own,
as a table server relays them (no gRPC, no engine state machine: the cards are played in a random legal order), with
one seat that may cheat in a way drawn at random. What each honest observer named is the result: every cheat must be
named by the referee and by every honest client, and an honest hand by no one.

Used by the tests (a few hands) and by ``make bench --only sealed-cheats`` (a thousand and more).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from cardtui.engine.cards import parse_cards
from cardtui.engine.truco.claims import holds as judge
from cardtui.engine.truco.envido import envido
from cardtui.fair import PACKS
from cardtui.sealed import ledger as ledger_module
from cardtui.sealed.deck import Hand, Lock, SeatSecrets
from cardtui.sealed.envelopes import BoxKey, Envelope, open_envelope, seal
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import N, Point, add, card_point, mul, sub
from cardtui.sealed.ledger import Ledger, Opening
from cardtui.sealed.plan import Dealing, Layout
from cardtui.sealed.record import Recorder
from cardtui.sealed.seat import SeatHand
from cardtui.sealed.shuffle import prove_shuffle

PAULISTA, ARGENTINO = "truco_paulista", "truco_argentino"
DEALING = {PAULISTA: Dealing.BLOCKS, ARGENTINO: Dealing.ROUND}
"""How each truco deals (what the game's entry will say when the table option comes)."""
PACK_OF = {PAULISTA: "french40", ARGENTINO: "spanish40"}
"""The pack each truco is dealt from (cardtui.fair.PACKS, docs/deal.md §2)."""


class Trick(StrEnum):
    """The cheats the randomised client draws from."""

    LOCK_SWAP = "lock_swap"  # a locked card swapped for a card of its choosing
    LOCK_BENT = "lock_bent"  # part of one locked card moved into another, the sum kept (its shuffle's proof fails)
    RELOCK_MOVE = "relock_move"  # two relocked cards swapped (or one multiplied by another key)
    WRONG_SEALED_KEY = "wrong_sealed_key"  # a wrong key sealed for another seat
    WITHHOLD = "withhold"  # an envelope never sent
    BAD_ENVELOPE = "bad_envelope"  # an envelope that does not open
    SUBSTITUTE = "substitute"  # a card played named as another
    NOT_HELD = "not_held"  # a card played from a place it was not dealt
    WRONG_PLAY_KEY = "wrong_play_key"  # a card played with a wrong key
    FALSE_ENVIDO = "false_envido"  # an envido said that its cards do not make
    FALSE_FLOR = "false_flor"  # a flor said without three of a suit
    REJECT_SWAP = "reject_swap"  # the mão rejects its block naming one of its cards as another (paulista)
    PASS_BAD = "pass_bad"  # the mão passes its block with a wrong key, or one short, for its partner (paulista)


EXPECTED: dict[Trick, set[Fault]] = {
    Trick.LOCK_SWAP: {Fault.BAD_LOCK},
    Trick.LOCK_BENT: {Fault.BAD_LOCK},
    Trick.RELOCK_MOVE: {Fault.BAD_RELOCK},
    Trick.WRONG_SEALED_KEY: {Fault.WRONG_KEY},
    Trick.WITHHOLD: {Fault.WITHHELD_KEY},
    Trick.BAD_ENVELOPE: {Fault.BAD_ENVELOPE},
    Trick.SUBSTITUTE: {Fault.NOT_ITS_CARD},
    Trick.NOT_HELD: {Fault.NOT_ITS_CARD, Fault.WRONG_KEY},
    Trick.WRONG_PLAY_KEY: {Fault.WRONG_KEY},
    Trick.FALSE_ENVIDO: {Fault.FALSE_CLAIM},
    Trick.FALSE_FLOR: {Fault.FALSE_CLAIM},
    Trick.REJECT_SWAP: {Fault.NOT_ITS_CARD},
    Trick.PASS_BAD: {Fault.WRONG_KEY, Fault.WITHHELD_KEY},
}
"""What a cheat must be named for."""
MAO_TRICKS = frozenset({Trick.REJECT_SWAP, Trick.PASS_BAD})
"""Cheats only a paulista mão can make, in its choice of keep, pass or reject: a hand whose cheater is not the mão
has no such cheat (it is played honest)."""


@dataclass
class Played:
    """One hand's outcome: who each observer named (observer -1 is the referee)."""

    layout: Layout
    cheater: int | None
    trick: Trick | None
    named: dict[int, set[tuple[int, Fault]]] = field(default_factory=dict)
    cards: dict[int, list[str]] = field(default_factory=dict)
    """Each seat's cards as dealt to it (what a host reading cards would want)."""
    unplayed: dict[int, list[str]] = field(default_factory=dict)
    """Each seat's cards never opened in the open."""
    stopped: bool = False
    """The hand stopped at a cheat (as a table does: the hand is void)."""
    record: dict[str, object] = field(default_factory=dict)
    """The hand written down (``cardtui.sealed.record``): what its history keeps and ``cardtui verify`` reads."""


class Stop(Exception):
    """The hand stops: a cheat was named."""


@contextlib.contextmanager
def shared_checks() -> Iterator[None]:
    """The proofs' checks (a shuffle's, a relock's) computed once a message and their outcome given to every
    observer. They are pure functions of the message, and every observer is handed the very same objects, so each
    observer's ledger gets what its own check would have given; every other check, each ledger still makes itself.
    (Seven ledgers each checking six shuffles' proofs made a six-seat hand cost seconds.)"""
    memo: dict[tuple[object, ...], tuple[Cheat | None, tuple[object, ...]]] = {}

    def part(a: object) -> object:
        """An argument as a key: numbers as they are; a record each ledger makes of its own (a relock with its
        proofs) by the message objects it holds; anything else by identity."""
        if isinstance(a, int) or (isinstance(a, tuple) and all(isinstance(x, int) for x in a)):
            return a
        if dataclasses.is_dataclass(a) and not isinstance(a, type):
            return (type(a).__name__, *(id(getattr(a, f.name)) for f in dataclasses.fields(a)))
        return id(a)

    def shared(check: Callable[..., None]) -> Callable[..., None]:
        def run(*args: object) -> None:
            key = (check.__name__, *(part(a) for a in args))
            if key not in memo:
                try:
                    check(*args)
                    memo[key] = (None, args)  # the arguments kept alive, so that no id is reused meanwhile
                except Cheat as cheat:
                    memo[key] = (cheat, args)
            found = memo[key][0]
            if found is not None:
                raise Cheat(found.seat, found.fault, found.detail)
        return run

    saved = ledger_module.check_shuffle, ledger_module.check_relock
    ledger_module.check_shuffle, ledger_module.check_relock = shared(saved[0]), shared(saved[1])
    try:
        yield
    finally:
        ledger_module.check_shuffle, ledger_module.check_relock = saved


def _claim(cards: list[str]) -> tuple[int, list[str]]:
    value, used = envido(parse_cards(cards))
    return value, [str(c) for c in used]


@dataclass
class SimTable:
    """One sealed hand at a time between a referee and ``seats`` clients."""

    rng: random.Random
    seats: int
    game: str
    number: int = 0
    log: list[tuple[str, object]] = field(default_factory=list)
    """Every message the referee relayed, as the host sees it (for the host-reading harness)."""
    boxes: dict[int, BoxKey] = field(default_factory=dict)
    clients_check: bool = True
    """Whether each client's ledger checks every proof too (the harnesses that measure detection), or only the
    referee's (the host harness, which measures what a host can read)."""

    def __post_init__(self) -> None:
        self.boxes = {seat: BoxKey(self.rng.randbytes(32)) for seat in range(self.seats)}

    def play(self, *args: object, **kwargs: object) -> Played:
        """One hand (``hand``'s arguments), the proofs' checks shared among the observers (``shared_checks``)."""
        with shared_checks():
            return self.hand(*args, **kwargs)  # type: ignore[arg-type]

    def hand(self, cheater: int | None = None, trick: Trick | None = None, *, onze: int | None = None,
             ferro: bool = False,
             keep_hands: dict[int, SeatHand] | None = None,
             midway: tuple[int, Callable[[Ledger], None]] | None = None) -> Played:
        self.number += 1
        rng, n = self.rng, self.seats
        dealer = rng.randrange(n)
        layout = Layout(DEALING[self.game], n, dealer, onze=onze, ferro=ferro)
        order = tuple((layout.first + i) % n for i in range(n))
        hand = Hand("t-sim", self.number, self.game, order, PACKS[PACK_OF[self.game]])
        boxes = {seat: box.point for seat, box in self.boxes.items()}
        referee = Ledger(hand, layout, boxes, full=True)
        ledgers = {seat: Ledger(hand, layout, boxes, full=self.clients_check) for seat in range(n)}
        hands = {seat: SeatHand(SeatSecrets(rng.randbytes(32), seat, hand), self.boxes[seat], ledgers[seat])
                 for seat in range(n)}
        if keep_hands is not None:
            keep_hands.update(hands)
        rec = Recorder(hand, layout, boxes)
        out = Played(layout, cheater, trick, {-1: set(), **{seat: set() for seat in range(n)}})
        honest = [-1, *(seat for seat in range(n) if seat != cheater)]

        def everyone(what: str, apply: Callable[[Ledger], object], message: object = None) -> None:
            """Apply a message to the referee's ledger and each client's; a Cheat is named by whoever raised it."""
            self.log.append((what, message))
            raised = False
            for observer in [-1, *range(n)]:
                ledger = referee if observer == -1 else ledgers[observer]
                try:
                    apply(ledger)
                except Cheat as cheat:
                    out.named[observer].add((cheat.seat, cheat.fault))
                    raised = True
            if raised:
                raise Stop

        def cheats(what: Trick) -> bool:
            return trick is what

        honest_lock: tuple[Point, ...] = ()
        try:
            for seat in order:
                step = hands[seat].lock()
                if seat == cheater and cheats(Trick.LOCK_BENT):  # part of one card moved into another: sums kept
                    honest_lock = step.deck
                    shift = card_point(rng.choice(hand.cards))
                    bent = list(step.deck)
                    bent[0], bent[1] = add([bent[0], shift]), sub(bent[1], shift)
                    step = Lock(seat, step.point, tuple(bent), step.proof)
                if seat == cheater and cheats(Trick.LOCK_SWAP):
                    chosen = mul(card_point(rng.choice(hand.cards)), hands[seat].secrets.lock)
                    step = Lock(seat, step.point, (chosen, *step.deck[1:]), step.proof)
                rec.lock(step)
                everyone("lock", lambda ledger, s=step: ledger.add_lock(s), step)
            relocked = {}
            for seat in order:
                deck, commitments = hands[seat].relock()
                if seat == cheater and cheats(Trick.RELOCK_MOVE):
                    deck = (deck[1], deck[0], *deck[2:])
                relocked[seat] = deck
                rec.relock(seat, deck, commitments)
                everyone("relock", lambda ledger, s=seat, d=deck, c=commitments: ledger.add_relock(s, d, c),
                         (seat, deck, commitments))
            # every seat seals its keys right after the relocks
            sent: list[Envelope] = []
            bent: tuple[int, int, str] | None = None
            for seat in range(n):
                made = hands[seat].envelopes()
                if seat == cheater and made:
                    victim = rng.randrange(len(made))
                    if cheats(Trick.WITHHOLD):
                        del made[victim]
                    elif cheats(Trick.BAD_ENVELOPE):
                        e = made[victim]
                        bent = (e.sender, e.recipient, e.label)
                        made[victim] = Envelope(e.sender, e.recipient, e.label, rng.randbytes(len(e.sealed)))
                    elif cheats(Trick.WRONG_SEALED_KEY):
                        e = made[victim]
                        bent = (e.sender, e.recipient, e.label)
                        grant = next(g for g in layout.grants() if (g.label, g.recipient) == (e.label, e.recipient))
                        keys = {(seat, p): hands[seat].secrets.card_key(p) for p in grant.places}
                        first = min(keys)
                        keys[first] = keys[first] * 2 % N
                        made[victim] = seal(self.boxes[seat], seat, e.recipient, boxes[e.recipient], hand.digest,
                                            e.label, keys)
                for envelope in made:
                    rec.envelope(envelope)
                    everyone("envelope", lambda ledger, e=envelope: ledger.add_envelope(e), envelope)
                sent.extend(made)
            delivered: set[tuple[int, int, str]] = set()

            def deliver() -> None:
                for (sender, recipient, label), envelope in sorted(referee.envelopes.items()):
                    if (sender, recipient, label) in delivered or not referee.released(envelope):
                        continue
                    delivered.add((sender, recipient, label))
                    if recipient == cheater:
                        hands[recipient].keys.update(_peek(hands[recipient], envelope))
                        continue
                    try:
                        hands[recipient].receive(envelope)
                    except Cheat:
                        disclosure = hands[recipient].disclose(sender)
                        rec.dispute(disclosure)
                        everyone("dispute", lambda ledger, d=disclosure: _raise(ledger.dispute(d)), disclosure)

            for seat in order:  # each seat's proofs come after its envelopes, checked behind the deal
                proof = hands[seat].shuffle_proof()
                if seat == cheater and cheats(Trick.LOCK_BENT):
                    proof = prove_shuffle(hands[seat].secrets, referee.locks[order.index(seat) - 1].deck
                                          if order.index(seat) else hand.pack, honest_lock)
                rec.shuffle(proof)
                everyone("shuffle", lambda ledger, p=proof: ledger.add_shuffle(p), proof)
                proofs = hands[seat].proofs()
                rec.proofs(seat, proofs)
                everyone("proofs", lambda ledger, s=seat, p=proofs: ledger.add_proofs(s, p), proofs)
            if referee.owed():  # the deal's clock runs out on an envelope never sent
                rec.withheld()
                everyone("withheld", lambda ledger: _raise_first(ledger.withheld()))
            deliver()
            mao = layout.first
            if trick in MAO_TRICKS and (cheater != mao or not layout.choosing):
                out.trick = None  # only a mão choosing its block can make this cheat: an honest hand
            if layout.choosing:
                rejections = 0
                while True:
                    choice = rng.choice(["keep", "reject", "pass"] if rejections < 3 else ["keep", "pass"])
                    if choice == "pass" and referee.passed:
                        choice = "keep"
                    if mao == cheater and not rejections and not referee.passed:
                        choice = {Trick.REJECT_SWAP: "reject", Trick.PASS_BAD: "pass"}.get(trick, choice)
                    if choice == "keep":
                        rec.simple("keep")
                        everyone("keep", lambda ledger: ledger.keep())
                        break
                    if choice == "reject":
                        openings = [hands[mao].opening(p) for p in referee.holdings[mao]]
                        if mao == cheater and trick is Trick.REJECT_SWAP and not rejections:
                            first = openings[0]
                            other = rng.choice([c for c in hand.cards if c != first.card])
                            openings[0] = Opening(first.seat, first.place, other, first.keys)
                        rejections += 1
                        rec.reject(openings)
                        everyone("reject", lambda ledger, o=openings: ledger.reject(o), openings)
                    else:
                        rec.simple("pass")
                        everyone("pass", lambda ledger: ledger.pass_block())
                        envelope = hands[mao].passing()
                        if mao == cheater and trick is Trick.PASS_BAD:
                            envelope = _bad_pass(hands[mao], rng)
                        rec.envelope(envelope)
                        everyone("envelope", lambda ledger, e=envelope: ledger.add_envelope(e), envelope)
                    deliver()
                deliver()
            for seat in range(n):
                if seat != cheater and not layout.ferro:
                    seen = hands[seat].hand()
                    if None in seen.values():
                        raise AssertionError(f"seat {seat} cannot see its hand: {seen}")
            out.cards = {seat: [c for c in (hands[seat].card(p) for p in referee.holdings[seat]) if c]
                         for seat in range(n)}
            # claims said before the play (argentino), shown at the hand's end
            claims: dict[int, tuple[str, int]] = {}
            if self.game == ARGENTINO:
                for seat in range(n):
                    cards = out.cards[seat]
                    if seat == cheater and cheats(Trick.FALSE_FLOR):
                        if len({c[-1] for c in cards}) > 1:
                            claims[seat] = ("flor", 20 + rng.randrange(18))
                        else:
                            out.trick = None  # a true flor: nothing to cheat with
                    elif seat == cheater and cheats(Trick.FALSE_ENVIDO):
                        claims[seat] = ("envido", (_claim(cards)[0] + 1 + rng.randrange(5)) % 34)
                    elif rng.random() < 0.3:
                        claims[seat] = ("envido", _claim(cards)[0])
            # the play: three rounds, each seat a card of its own; face down from the second round (paulista)
            wrong_at = rng.randrange(3)
            for round_no in range(3):
                for i in range(n):
                    if midway is not None and midway[0] == len(referee.played):
                        midway[1](referee)
                    seat = (mao + i) % n
                    place = rng.choice([p for p in referee.holdings[seat] if p not in referee.played])
                    if layout.ferro:
                        rec.simple("choose", seat, place)
                        everyone("choose", lambda ledger, s=seat, p=place: ledger.choose(s, p))
                        deliver()
                    down = self.game == PAULISTA and round_no > 0 and not layout.ferro and rng.random() < 0.2
                    if seat == cheater and round_no == wrong_at and trick in (
                            Trick.SUBSTITUTE, Trick.NOT_HELD, Trick.WRONG_PLAY_KEY):
                        opening = _bent(hands[seat], referee, place, trick, rng)
                        rec.play(opening)
                        everyone("play", lambda ledger, o=opening: ledger.play(o), opening)
                        continue
                    if down:
                        rec.simple("down", seat, place)
                        everyone("down", lambda ledger, s=seat, p=place: ledger.play_down(s, p))
                    else:
                        opening = hands[seat].opening(place)
                        rec.play(opening)
                        everyone("play", lambda ledger, o=opening: ledger.play(o), opening)
            # the hand's end: each claim's cards shown and checked, then every proof not yet checked
            said: list[tuple[int, str, int, list[Opening]]] = []
            for seat, (kind, value) in sorted(claims.items()):
                cards = out.cards[seat]
                if kind == "flor":
                    shown_cards = cards
                else:
                    shown_cards = _claim(cards)[1]
                places = [p for p in referee.holdings[seat] if hands[seat].card(p) in shown_cards]
                openings = [hands[seat].opening(p) for p in places]
                for o in openings:
                    rec.show(o)
                    everyone("show", lambda ledger, o=o: ledger.show(o), o)

                rec.claim(seat, kind, value, places)
                said.append((seat, kind, value, openings))

            def end(ledger: Ledger) -> None:
                """The hand's end: each claim against the cards shown for it, then every proof not checked yet."""
                for s, k, v, o in said:
                    if not judge(k, v, [ledger.opened[x.place] for x in o]):
                        raise Cheat(s, Fault.FALSE_CLAIM, f"it said {k} {v}; its cards shown do not make it")
                ledger.audit()
            rec.simple("end")
            everyone("end", lambda ledger: end(ledger) if ledger is referee or self.clients_check else None)
            if bent is not None and bent not in delivered:
                out.trick = None  # an envelope the rules never hand on is never opened: its cheat changed nothing
        except Stop:
            out.stopped = True
            for observer in honest[1:]:  # told the hand is void, each client checks the deal for itself
                if not out.named[observer]:
                    try:
                        ledgers[observer].audit()
                    except Cheat as cheat:
                        out.named[observer].add((cheat.seat, cheat.fault))
        out.unplayed = {seat: [c for p, c in zip(referee.holdings[seat], out.cards.get(seat, []), strict=False)
                               if p not in referee.opened] for seat in range(n)}
        for observer in list(out.named):
            if observer not in honest:
                del out.named[observer]
        out.record = rec.record()
        return out


def _raise(cheat: Cheat) -> None:
    raise cheat


def _raise_first(cheats: list[Cheat]) -> None:
    if cheats:
        raise cheats[0]


def _peek(seat: SeatHand, envelope: Envelope) -> dict[tuple[int, int], int]:
    """A cheating client opens what it is sent without checking it (so that it can go on with its own cheat)."""
    try:
        return open_envelope(seat.box, seat.ledger.boxes[envelope.sender], envelope, seat.ledger.hand.digest)
    except Cheat:
        return {}


def _bad_pass(seat: SeatHand, rng: random.Random) -> Envelope:
    """A mão's passed block with one key wrong, or one left out, sealed for its partner."""
    ledger = seat.ledger
    partner = ledger.layout.partner
    keys = {(s, p): seat.keys.get((s, p), seat.secrets.card_key(p)) for s in ledger.hand.order
            for p in ledger.holdings[partner]}
    victim = rng.choice(sorted(keys))
    if rng.random() < 0.5:
        keys[victim] = keys[victim] * 5 % N
    else:
        del keys[victim]
    return seal(seat.box, seat.seat, partner, ledger.boxes[partner], ledger.hand.digest, ledger_module.PASSED, keys)


def _bent(seat: SeatHand, ledger: Ledger, place: int, trick: Trick, rng: random.Random) -> Opening:
    """A cheating play."""
    if trick is Trick.SUBSTITUTE:
        honest = seat.opening(place)
        other = rng.choice([c for c in ledger.hand.cards if c != honest.card])
        return Opening(seat.seat, place, other, honest.keys)
    if trick is Trick.WRONG_PLAY_KEY:
        honest = seat.opening(place)
        keys = dict(honest.keys)
        victim = rng.choice(sorted(keys))
        keys[victim] = keys[victim] * 3 % N
        return Opening(seat.seat, place, honest.card, keys)
    # NOT_HELD: a place it was not dealt, named as a card it wishes it had, with the keys it has
    mine = set(ledger.holdings[seat.seat])
    other_place = rng.choice([p for p in range(len(ledger.hand.cards)) if p not in mine and p not in ledger.played])
    keys = {s: seat.keys.get((s, other_place), seat.secrets.card_key(other_place)) for s in ledger.hand.order}
    return Opening(seat.seat, other_place, rng.choice(ledger.hand.cards), keys)
