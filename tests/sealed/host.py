"""A host that tries to read a person's unplayed cards at a sealed table with everything it holds.

What it holds: the referee's ledger (what the store journals: decks, lock points, commitments, proofs, envelopes,
every card opened), every message it relayed (the log), and, colluding, every secret of the seats it plays or that
share with it: their hand secrets (so every key of theirs), their box keys (so every envelope sealed for them) and
every key they were sent. It attacks each unplayed card of the person (the victim) in turn:

1. it looks for the victim's secrets and keys in the bytes of everything it holds (its ledger, which is what
   its store journals, and its log of every message relayed), written down;
2. it opens every envelope it can, with every box key it holds, and collects every card key in them;
3. it multiplies the card's point by every key it holds for that place, and looks the result up among the cards;
4. it tries each card of the pack against the card with the victim's lock alone left on (the point ``k·P``): a match
   of ``x·K`` for a logarithm it could know (any key it holds) would give the card away.

If an attack gives a card, that is its guess; otherwise it guesses among the cards it has not seen, as a host with
nothing would. The harness counts the guesses right with all this and without it, over the same hands.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from coincurve import PublicKey

from cardtui.sealed.envelopes import open_envelope
from cardtui.sealed.faults import Cheat
from cardtui.sealed.group import N, encode, mul, product, scalar_bytes
from cardtui.sealed.ledger import Ledger
from cardtui.sealed.proofs import Proof
from cardtui.sealed.seat import SeatHand
from tests.sealed.table import Played, SimTable


@dataclass
class Tally:
    """Guesses over many hands."""

    cards: int = 0
    """Unplayed cards of a victim guessed."""
    right_with: int = 0
    """Right guesses with everything the host holds."""
    right_without: int = 0
    """Right guesses from what anyone at the table sees (the cards opened), by the same random draw."""
    opened_by_attack: int = 0
    """Cards an attack gave (not a guess): the mark is 0."""
    secrets_found: int = 0
    """Victim secrets or keys found in the host's bytes: the mark is 0."""
    hands: int = 0
    by_seats: dict[int, int] = field(default_factory=dict)


def flatten(value: object) -> bytes:
    """Every byte a value holds, as it would be written down (points, proofs, numbers, text), joined."""
    if isinstance(value, PublicKey):
        return encode(value)
    if isinstance(value, Proof):
        return value.to_bytes()
    if isinstance(value, bytes):
        return value
    if isinstance(value, bool) or value is None:
        return b""
    if isinstance(value, int):
        return scalar_bytes(value % N) if value >= 2**32 else str(value).encode()
    if isinstance(value, str):
        return value.encode()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return b"|".join(flatten(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return b"|".join(flatten(k) + b":" + flatten(v) for k, v in value.items())
    if isinstance(value, Iterable):
        return b"|".join(flatten(v) for v in value)
    raise TypeError(f"cannot write down {type(value).__name__}")


def attack(rng: random.Random, table: SimTable, colluders: set[int], victim: int, tally: Tally) -> Played:
    """One hand: deal and play it, then attack ``victim``'s unplayed cards with what the host and ``colluders`` hold."""
    held: list[tuple[Ledger, frozenset[int], dict[int, str], bytes]] = []

    def pause(referee: Ledger) -> None:
        """Mid-hand: what the host holds now, and the victim's cards not opened so far that no colluding seat was
        shown by the rules (a block the mão passed was the mão's to see: if the mão colludes, those are known)."""
        shown = set(referee.holdings[victim]) if (
            referee.passed and victim == referee.layout.partner and referee.layout.first in colluders) else set()
        hidden = frozenset(p for p in referee.holdings[victim] if p not in referee.opened and p not in shown)
        blob = flatten((referee.locks, referee.relocks, referee.proofs, referee.envelopes, referee.opened, table.log))
        held.append((referee, hidden, dict(referee.opened), blob))

    seen_hands: dict[int, SeatHand] = {}
    played = table.play(keep_hands=seen_hands, midway=(rng.randrange(3 * table.seats), pause))
    if not held or not held[0][1]:
        return played
    referee, hidden, opened, blob = held[0]
    victim_hand = seen_hands[victim]
    # 1. the victim's secrets in the host's bytes as they stood mid-hand: its ledger (what the store holds), its log
    unplayed = sorted(hidden)
    secrets = [victim_hand.secrets.secret, victim_hand.box.secret, scalar_bytes(victim_hand.box.scalar),
               scalar_bytes(victim_hand.secrets.lock)]
    secrets += [scalar_bytes(victim_hand.secrets.keys[p]) for p in unplayed]
    secrets += [scalar_bytes(victim_hand.secrets.card_key(p)) for p in unplayed]
    tally.secrets_found += sum(secret in blob for secret in secrets)
    # 2. every envelope it can open, with every box key it holds
    keys: dict[tuple[int, int], int] = {}
    for seat in colluders:
        mine = seen_hands[seat]
        keys.update(mine.keys)
        keys.update({(seat, p): mine.secrets.card_key(p) for p in range(len(referee.hand.cards))})
    for (sender, recipient, _), envelope in referee.envelopes.items():
        for box_seat in colluders:
            other = referee.boxes[sender if box_seat == recipient else recipient]
            with contextlib.suppress(Cheat):
                keys.update(open_envelope(seen_hands[box_seat].box, other, envelope, referee.hand.digest))
    known = set(opened.values()) | {c for seat in colluders for c in played.cards.get(seat, [])}
    left = [c for c in referee.hand.cards if c not in known]
    deck = referee.sealed
    for place in unplayed:
        truth = victim_hand.card(place)
        guess_without = rng.choice(left)
        guess = None
        # 3. the place opened with every key held for it
        held_keys = [keys[s, place] for s in referee.hand.order if (s, place) in keys]
        point = mul(deck.cards[place], product(held_keys)) if held_keys else deck.cards[place]
        guess = referee.hand.card(point)
        # 4. each card of the pack against the card with only the victim's lock on, for any logarithm held
        if guess is None:
            tries = {*held_keys, product(held_keys)} if held_keys else set()
            target = encode(point)
            for card in left:
                candidate = referee.hand.pack[referee.hand.cards.index(card)]
                if any(encode(mul(candidate, k)) == target for k in tries):
                    guess = card
                    break
        if guess is not None:
            tally.opened_by_attack += 1
        else:
            guess = guess_without
        tally.cards += 1
        tally.right_with += guess == truth
        tally.right_without += guess_without == truth
    tally.hands += 1
    tally.by_seats[table.seats] = tally.by_seats.get(table.seats, 0) + 1
    return played
