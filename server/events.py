"""What happens at a table besides the game: people sit, leave, talk, go away and come back.

These are numbered and sent like the game's events (``cardtui.v1`` has a message of the
same name for each).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.engine.core import EventBody


@dataclass(frozen=True, slots=True)
class Joined(EventBody):
    seat: int
    name: str
    before: str = ""
    """Who played the seat until now, as the seat list named it ("": nobody): what came before
    this event at the seat was theirs."""
    before_away: bool = False
    """``before`` is a person who had left or was away, a bot playing for them."""


@dataclass(frozen=True, slots=True)
class Left(EventBody):
    seat: int
    name: str
    bot_plays: bool
    """The match is on: a bot plays the seat until someone takes it."""


@dataclass(frozen=True, slots=True)
class Chatted(EventBody):
    seat: int | None
    """None: a spectator."""
    name: str
    text: str
    phrase: str | None = None
    """A quick phrase (table.proto's ``Phrase``, e.g. ``good_game``) instead of text: each reader says
    it in their own language."""


@dataclass(frozen=True, slots=True)
class WentAway(EventBody):
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class CameBack(EventBody):
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class MatchStarted(EventBody):
    match: int
    seats_from: tuple[int, ...] = ()
    """The seats were swapped for this match: seat i's holder sat at ``seats_from[i]`` before."""
    asked: bool = False
    """The people staying were asked how to play again (a match after a match's end, not a tournament's):
    the fields below say how it was decided (``server.rematch``)."""
    same_votes: int = 0
    swap_votes: int = 0
    agreed: bool = False
    """Everyone staying asked for the same before the time ran out (else: what most asked, a tie the same seats)."""
    chosen_by: tuple[str, ...] = ()
    """Who asked for what was chosen, by name."""


@dataclass(frozen=True, slots=True)
class DealCommitted(EventBody):
    """A fair deal's first event: the SHA-256 of the server's secret seed for the table's hand ``hand``."""

    hand: int
    commitment: str
    cut_ms: int
    """How long the table waits for the players' seeds before it deals."""
    scheme: str = ""
    pledges: tuple[PlayerPledge, ...] = ()
    """``cardtui-deal/2``: each pledged seat whose link the deal waits for, and what that link must follow."""
    dealer: int | None = None
    """Who deals the hand: fixed here, before any link is seen."""
    seats_from: tuple[int, ...] = ()
    """A new match's seats swapped as the people staying asked, fixed here too (() as they are)."""
    opens_match: bool = False
    """The hand is a match's first."""


@dataclass(frozen=True, slots=True)
class PlayerSeed:
    seat: int
    seed: bytes


@dataclass(frozen=True, slots=True)
class PlayerPledge:
    seat: int
    follows: bytes


@dataclass(frozen=True, slots=True)
class DealRevealed(EventBody):
    """A fair deal's last event: the server's seed and every player's seed the deck came from."""

    hand: int
    scheme: str
    table: str
    server_seed: bytes
    seeds: tuple[PlayerSeed, ...]
    awaited: tuple[int, ...] = ()
    """The people seated with a stream open at the commitment: one of them with no seed in ``seeds``
    was dropped."""
    pledges: tuple[PlayerPledge, ...] = ()
    """``cardtui-deal/2``: the pledges the commitment named; one with no link in ``seeds`` was held back."""
    gone: tuple[int, ...] = ()
    """Pledged seats whose stream had closed before their link came: dealt without, as away."""
    void: str = ""
    """Why the commitment dealt no hand (the table closed): its seeds revealed all the same. "" for a dealt hand."""
