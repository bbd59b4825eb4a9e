"""Which places of a sealed deck go to whom, and when each seat's card keys for them are handed on (docs/deal.md
§S7). The rules, not the server, decide both, from what everyone knows before the deal: the game, the number of
seats, the dealer and the scores (a mão de onze or de ferro).

Every key a seat owes for another seat's cards is sealed and sent right after the relock pass, all at once, so that
a seat that drops afterwards freezes its own cards and no one else's. The host relays each envelope when the rules
deal its cards (``Release``): at once for a hand dealt at the deal, and at a mão de onze for the hand of one's partner
on 11 (sealed by the partner too); when the mão takes a spare block; to the mão's partner only once the mão keeps
without passing; at a mão de ferro, to a seat only for the card it plays blind.

Truco paulista (four seats; the mão is the dealer's right, ``dealer + 1``): places 0–2 are the mão's first block;
3–5, 6–8 and 9–11 the blocks of ``mão + 1``, ``mão + 2`` (the partner) and ``mão + 3`` (the dealer); 12–14, 15–17,
18–20 and 21–23 the mão's spare blocks, taken in that order after a rejection or a pass (three rejections and a pass
at most). The paulista deal of the fair scheme takes its blocks from the front in the order the mão's choices make
(docs/deal.md §10.3); a sealed deck is shuffled by the seats themselves, so a fixed layout deals the same chances.
Truco argentino (two, four or six seats): place ``k`` goes to seat ``dealer + 1 + (k mod n)``, k below 3n, one at a
time round the table from the mano, as §10.4 deals the drawn cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

SPARE_BLOCKS = 4
"""The mão's spare blocks: three rejections and one pass at most."""


class Dealing(StrEnum):
    """How a game deals three cards to each seat (a game says which of these it deals by)."""

    BLOCKS = "blocks"
    """Three at a time to four seats, the first seat choosing to keep, pass or reject its block (truco paulista)."""
    ROUND = "round"
    """One at a time round two, four or six seats (truco argentino)."""


class Release(StrEnum):
    """When the host hands an envelope on to its recipient (the key's seat sealed it right after the relocks)."""

    DEALT = "dealt"
    """At once: the recipient's own hand, dealt at the deal."""
    TAKEN = "taken"
    """When the mão takes the spare block (paulista): after a rejection or a pass."""
    KEPT = "kept"
    """When the mão keeps without having passed (paulista): the partner's own block."""
    PLAYED = "played"
    """When the recipient plays that card blind (a mão de ferro): one envelope a card."""


@dataclass(frozen=True)
class Grant:
    """Keys for ``places``, sealed by every other seat for ``recipient`` under ``label``, handed on as ``release``
    says (``block`` is the spare block's number for ``TAKEN``)."""

    label: str
    recipient: int
    places: tuple[int, ...]
    release: Release
    block: int = 0


@dataclass(frozen=True)
class Layout:
    """A sealed hand's places and grants. ``onze`` is the team on 11 at a paulista mão de onze (0 or 1), ``ferro``
    a mão de ferro (both teams on 11)."""

    dealing: Dealing
    seats: int
    dealer: int
    onze: int | None = None
    ferro: bool = False

    def __post_init__(self) -> None:
        if self.dealing not in tuple(Dealing):
            raise ValueError(f"no sealed deal by {self.dealing!r}")
        if self.dealing is Dealing.BLOCKS and self.seats != 4:
            raise ValueError("blocks of three are dealt to four")
        if self.dealing is Dealing.ROUND and self.seats not in (2, 4, 6):
            raise ValueError("cards one at a time are dealt to two, four or six")
        if (self.onze is not None or self.ferro) and self.dealing is not Dealing.BLOCKS:
            raise ValueError("a mão de onze or de ferro is dealt in blocks")
        if not 0 <= self.dealer < self.seats:
            raise ValueError("the dealer is one of the seats")

    @property
    def first(self) -> int:
        """The mão (paulista) or mano (argentino): the dealer's right, ``dealer + 1``."""
        return (self.dealer + 1) % self.seats

    @property
    def choosing(self) -> bool:
        """Whether the mão chooses (keep, pass, reject) before the others' hands are theirs: a plain paulista deal."""
        return self.dealing is Dealing.BLOCKS and self.onze is None and not self.ferro

    def hands(self) -> dict[int, tuple[int, ...]]:
        """Each seat's places as dealt (before any choice of the mão's)."""
        if self.dealing is Dealing.ROUND:
            return {seat: tuple(k for k in range(3 * self.seats) if (self.first + k) % self.seats == seat)
                    for seat in range(self.seats)}
        return {(self.first + i) % 4: (3 * i, 3 * i + 1, 3 * i + 2) for i in range(4)}

    def spare(self, block: int) -> tuple[int, ...]:
        """The places of the mão's spare block ``block`` (0 to 3), taken in that order."""
        if not self.choosing or not 0 <= block < SPARE_BLOCKS:
            raise ValueError("no such spare block")
        return (12 + 3 * block, 13 + 3 * block, 14 + 3 * block)

    @property
    def partner(self) -> int:
        """The mão's partner (paulista)."""
        return (self.first + 2) % self.seats

    def grants(self) -> tuple[Grant, ...]:
        """Every grant of the hand, in the order the seats seal them (by label, then recipient)."""
        hands = self.hands()
        found: list[Grant] = []
        for seat in range(self.seats):
            places = hands[seat]
            if self.ferro:
                found.extend(Grant(f"place {p}", seat, (p,), Release.PLAYED) for p in places)
            elif self.choosing and seat == self.partner:
                found.append(Grant("deal", seat, places, Release.KEPT))
            else:
                found.append(Grant("deal", seat, places, Release.DEALT))
        if self.choosing:
            found.extend(Grant(f"spare {b}", self.first, self.spare(b), Release.TAKEN, b) for b in range(SPARE_BLOCKS))
        found.extend(Grant("sight", partner, hands[seat], Release.DEALT) for seat, partner in self.sight().items())
        return tuple(sorted(found, key=lambda g: (g.label, g.recipient)))

    def team(self, seat: int) -> int:
        """A seat's team: seats alternate (0, 2, 4 against 1, 3, 5)."""
        return seat % 2

    def sight(self) -> dict[int, int]:
        """At a mão de onze, whose own hand each seat of the team on 11 shows its partner: {seat: partner}."""
        if self.onze is None:
            return {}
        return {seat: (seat + 2) % 4 for seat in range(4) if self.team(seat) == self.onze}
