"""Rigged rummy deals for the board's tests, and a table screen fed a scripted stream.

``rigged_deck`` lays out the two French decks so that a hand deals exactly the cards named
(each seat's nine, Cacheta's flip, then the stock from its top); ``Position`` plays actions
on the real engine from such a deal and keeps every seat's view and events on the wire, so a
test can show any seat's screen of it without a server; ``ScriptedConnection`` is what the
table screen reads that stream from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from textual.app import App

import cardtui.client
from cardtui.client.app import CardApp
from cardtui.client.screens.table import TableScreen
from cardtui.engine.cards import Card, pack, parse_cards
from cardtui.engine.core import Action, Event, Game
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, table_pb2
from tests.client.waiting import Script

DECK = pack("french104")
"""Pif Paf's and Cacheta's pack: two French decks."""


def rigged_deck(
    hands: Mapping[int, str], order: Sequence[int], flip: str | None = None, stock: str = "",
    deck: Sequence[Card] = DECK, size: int = 9,
) -> list[Card]:
    """The ``deck`` ``shuffled`` returns so that the deal gives ``hands`` (``size`` cards each, seats dealt in
    ``order``, the dealer's left first; a seat not named gets whatever is left), then the card shown after the deal
    (a flip, a card turned up to start the pile), then ``stock`` from its top; the rest below."""
    named = {s: list(parse_cards(h)) for s, h in hands.items()}
    after = [*(parse_cards(flip) if flip is not None else ()), *parse_cards(stock)]
    left = Counter(deck)
    left.subtract([c for cards in named.values() for c in cards] + after)
    if any(n < 0 for n in left.values()):
        raise ValueError("a card is named more often than the deck has it")
    rest: list[Card] = []
    for c in deck:
        if left[c] > 0:
            rest.append(c)
            left[c] -= 1
    spare = iter(rest)
    dealt = {s: named.get(s) or [next(spare) for _ in range(size)] for s in order}
    first = [dealt[s][i] for i in range(size) for s in order] + after
    return (first + list(spare))[::-1]  # the deal pops from the end


def short_hands(game: str, monkeypatch: Any) -> None:
    """Every hand the server in this process deals at ``game`` is the game's short hand (``GameTests.short_hand``, in
    its own tests: the first bot to play, seat 1, is dealt a hand one card from going out and draws that card at its
    second turn, so the person, seat 0, draws and discards first). ``monkeypatch``: pytest's. A client that checks
    its deals says that such a deal does not check out: a test that listens for a fair deal's check cannot use one."""
    from tests.per_game import declared

    short = declared()[game].short_hand
    assert short is not None, f"{game} declares no short hand (GameTests.short_hand)"
    sized = {"deck": pack(short.pack), "size": short.size or 9} if short.pack else {}
    deck = rigged_deck(short.hands, list(short.order), flip=short.shown, stock=short.stock, **sized)
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))


class Position:
    """A rummy hand on the real engine from a rigged deal, as each seat would see it on the wire."""

    def __init__(self, game: Game[Any, Any, Any], names: Sequence[str], deck: list[Card],
                 options: Mapping[str, Any] | None = None) -> None:
        import cardtui.engine.rummy.base as rummy

        self.game = game
        self.names = list(names)
        saved = rummy.shuffled
        rummy.shuffled = lambda cards, rng: list(deck)  # type: ignore[assignment]
        try:
            self.state, events = game.start(game.options(dict(options or {})), game.seat_infos(names), 1)
        finally:
            rummy.shuffled = saved  # type: ignore[assignment]
        self.events: list[Event] = list(events)

    def act(self, seat: int, kind: str, *cards: str, value: str = "", amount: int = 0) -> None:
        action = Action(kind, amount, parse_cards(list(cards)), value)
        self.events += self.game.apply(self.state, seat, action)

    def legal(self, seat: int) -> list[Action]:
        return list(self.game.legal_actions(self.state, seat))

    def summary(self) -> common_pb2.TableSummary:
        return common_pb2.TableSummary(
            id="t1", game=self.game.name, name="rigged", turn_seconds=0,
            seats=[common_pb2.SeatSummary(seat=i, name=n, taken=True, team=i) for i, n in enumerate(self.names)],
            status=common_pb2.TABLE_STATUS_PLAYING,
        )

    def view(self, seat: int | None, deadline_ms: int = 0) -> table_pb2.View:
        legal = self.legal(seat) if seat is not None else []
        seats = self.summary().seats
        return wire.view_message(self.game.view(self.state, seat), legal, deadline_ms, seats)

    def stream(self, seat: int | None, deadline_ms: int = 0) -> list[table_pb2.TableMessage]:
        """What a subscriber at ``seat`` reads: a snapshot, then every event so far and the view after them."""
        view = self.view(seat, deadline_ms)
        events = [wire.event_message(i + 1, e, seat) for i, e in enumerate(self.events)]
        snapshot = table_pb2.Snapshot(table=self.summary(), view=view, first_seq=1)
        if seat is not None:
            snapshot.seat = seat
        return [
            table_pb2.TableMessage(seq=0, snapshot=snapshot),
            table_pb2.TableMessage(seq=len(events), update=table_pb2.Update(events=events, view=view)),
        ]


class ScriptedConnection(Script):
    """Stands in for ``Connection``: the stream is the script, then silence; actions are kept
    (``sent``); ``delivered`` once the screen has been handed the whole script."""


class ScriptedTable(App[None]):
    """The real table screen over a scripted stream (with the app's own keys, as the footer shows them)."""

    CSS_PATH = str(Path(cardtui.client.__file__).parent / "app.tcss")
    BINDINGS = CardApp.BINDINGS
    own_config = False

    async def action_language(self) -> None:
        await CardApp.action_language(self)  # type: ignore[arg-type]

    def __init__(self, position: Position, seat: int | None, deadline_ms: int = 0) -> None:
        super().__init__()
        self.conn = ScriptedConnection(position.stream(seat, deadline_ms))
        self.seat = seat
        self.table = position.summary()

    def on_mount(self) -> None:
        seat = -1 if self.seat is None else self.seat
        self.push_screen(TableScreen(self.conn, "token", seat, self.table))  # type: ignore[arg-type]
