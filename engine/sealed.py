"""What a game tells a sealed table's server, and what it is told: the engine's side of docs/deal.md's
"Sealed tables".

At a sealed table nobody, the host included, knows a person's unplayed card. The engine is dealt no card
there: each seat holds cards it cannot see until they are played face up or shown (each opened by the seat's own
client, and checked by the server and every other client before the engine hears of it). A seat whose cards the
host may know (a bot's: the host's own seat) is told to the engine when the host opens them (``learn``), and that
seat plays as at any table. Whatever the engine cannot know it takes as a claim, held against the cards the rules
show at the hand's end (an envido, a flor), with the rules' penalty for one they do not bear out.

A game that deals sealed hands returns a ``Sealed`` from ``Match.sealed``: the server asks it how the hand in play
is dealt (``deal``), which of its actions move cards the server must open or keep closed (``move``), and turns the
cards a client opened into the game's action (``action``). The engine stays pure: it never sees a key or a lock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card
from cardtui.engine.records import Action, Event


class Move(StrEnum):
    """What an action does with sealed cards: the ledger's step for it (docs/deal.md §S9, docs/history.md §10)."""

    PLAY = "play"
    """A card played face up: opened with every seat's key."""
    DOWN = "down"
    """A card played face down: never opened."""
    REJECT = "reject"
    """The mão's block rejected, shown face up (truco paulista)."""
    PASS = "pass"
    """The mão's block passed to its partner (truco paulista): its keys sealed for the partner."""
    KEEP = "keep"
    """The mão keeps (truco paulista): the others' hands are theirs now."""
    CHOOSE = "choose"
    """A card chosen to play blind (a mão de ferro): its keys go to its holder, who opens it."""
    SHOW = "show"
    """Cards shown for a claim at the hand's end (the envido's, the flor's)."""


@dataclass(frozen=True, slots=True)
class SealedDeal:
    """How the hand in play is dealt, as the rules say before any card: what ``cardtui.sealed.plan.Layout`` takes."""

    dealing: str
    """``blocks`` (three at a time, the first seat choosing: truco paulista) or ``round`` (one at a time)."""
    seats: int
    dealer: int
    onze: int | None = None
    """Truco paulista: the team on 11 in a mão de onze."""
    ferro: bool = False
    """Truco paulista: both teams on 11, cards played blind."""
    envido_unsuited: str = ""
    """How the table counts an envido of no two cards of one suit (truco argentino), for every checker's judge."""


class Sealed(ABC):
    """One sealed match's hand in play, as its server drives it (``Match.sealed``)."""

    @abstractmethod
    def deal(self) -> SealedDeal:
        """How the hand in play was dealt."""

    @abstractmethod
    def learn(self, seat: int, cards: tuple[Card, ...]) -> None:
        """The host opened ``seat``'s cards (a bot's, the host's own seat; or what the rules showed a host's
        seat): the engine knows them from now on, and that seat plays as at any table."""

    @abstractmethod
    def blind(self, seat: int) -> bool:
        """The engine cannot see every card ``seat`` holds: no bot can choose for it, its clock plays the rule's
        weakest move (docs/fairness.md, "Drops and crashes")."""

    @abstractmethod
    def move(self, action: Action) -> Move | None:
        """What ``action`` does with sealed cards, or None for an action that moves none (a call, an answer)."""

    @abstractmethod
    def action(self, move: Move, seat: int, cards: tuple[Card, ...], index: int = 0) -> Action:
        """The game's action for cards a seat's client opened (``cards``: none for a card played face down, the
        rejected block, the cards shown; ``index``: a blind card's place among the seat's own, from 1)."""

    @abstractmethod
    def void(self) -> list[Event]:
        """A seat was named for a cheat: the hand stops here, void (nobody scores), and the match goes on."""
