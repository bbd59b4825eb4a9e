"""Rigged rummy deals for the board's tests, and a table screen fed a scripted stream.

``rigged_deck`` lays out the two French decks so that a hand deals exactly the cards named
(each seat's nine, Cacheta's flip, then the stock from its top); ``Position`` plays actions
on the real engine from such a deal and keeps every seat's view and events on the wire, so a
test can show any seat's screen of it without a server; ``ScriptedConnection`` is what the
table screen reads that stream from.
"""

from __future__ import annotations

import itertools
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
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


FAIR_TABLE = "0b5e55ed"
"""The table id a fair short hand is dealt at (``fair_short_hand``)."""
FAIR_TOP = bytes(range(32))
"""The top of the person's pledged chain at a fair short hand: the link their client cuts hand 1 with is known
before the table is made."""


FAIR_TOPS = (FAIR_TOP, bytes(range(32, 64)))
"""The tops of the chains of the people at a fair hand, in the order they join (each chain its own: a client that
found its own seed given to another seat would say the deal does not check out)."""


def fair_short_deal(game: str, server: int, seats: int, people: int = 1) -> Any:
    """The state of hand 1 at ``game`` with ``seats`` seats when the server's seed is ``server`` (32 bytes,
    big-endian), the table is ``FAIR_TABLE`` and the chains of the ``people`` (seats 0 on, in the order they
    join) top at ``FAIR_TOPS``: as the server deals it."""
    from cardtui.engine.games import GAMES
    from cardtui.fair import SCHEME, Chain, DealSeed

    rules = GAMES[game]
    chains = [Chain.make(top) for top in FAIR_TOPS[:people]]
    deal = DealSeed(server.to_bytes(32, "big"), tuple((n, c.link(1)) for n, c in enumerate(chains)), FAIR_TABLE,
                    1, SCHEME, tuple((n, c.pledge) for n, c in enumerate(chains)))
    match, _events = rules.open({}, rules.seat_infos([f"p{n}" for n in range(seats)]), deal)
    return match.state  # type: ignore[attr-defined]


def claimed_at_once(game: str, server: int, seats: int) -> bool:
    """Whether, at a table of two or three where the dealer is the person (seat 0) and seat 1 plays first, the
    person's first discard goes out for seat 1, who takes it (a claim, or the pile at its turn) and knocks. The
    person draws from the stock and discards the first card by number, the lowest (no wild card among theirs); no
    bot can go out before that, whatever it draws or discards: the pile is empty, so seat 1 draws the stock's top;
    it needs one of the cards that complete it, and neither that top nor seat 2 holds one."""
    from cardtui.engine.games import GAMES

    rules = GAMES[game]
    state = fair_short_deal(game, server, seats)
    melder = rules.melder(state)
    hands, stock = [list(h) for h in state.hands], list(state.stock)
    mine, first, others = hands[0], hands[1], [c for h in hands[2:] for c in h]
    if state.pile or state.playing != [*range(1, seats), 0]:
        return False
    lowest = set()
    for drawn in stock[-2:-seats - 1:-1]:  # the person's card: the stock's top once the others have drawn
        ten = [*mine, drawn]
        low = min(c.rank for c in ten)
        lowest |= {c for c in ten if c.rank == low}
        if set(ten) & set(melder.wilds):
            return False
    if len(lowest) != 1:
        return False
    (discard,) = lowest
    if melder.all_melded(first) or not melder.goes_out([*first, discard]):
        return False
    completing = {c for c in set(DECK) if first.count(c) < 2 and melder.goes_out([*first, c])}
    return not (completing & {stock[-1], *stock[-2:-seats:-1], *others} or melder.goes_out([*first, stock[-1]])
                or (others and any(melder.goes_out([*others, c]) for c in stock[-2:])))


def fair_short_seed(game: str, seats: int, start: int = 0) -> int:
    """The first server seed from ``start`` on whose hand 1 is ``claimed_at_once`` (about one deal in ten thousand
    at Pif Paf, one in a few hundred at Cacheta: seconds)."""
    return next(n for n in itertools.count(start) if claimed_at_once(game, n, seats))


def cut_at_once(game: str, server: int) -> bool:
    """Whether, at a table of four of ``game`` (Cacheta's rules: the person dealing at seat 0, a second person at seat
    1, who plays first, then two bots), the bot at seat 2 cuts the line for the person's first discard and knocks, the
    person having heard a whole round first. Each person draws from the stock and discards the lowest card (no wild card
    among theirs), and neither is ever one card from going out (nothing of na boa to choose). The bot at seat 2 is one
    card from going out as dealt (it may declare na boa at once); neither the pile's card nor the stock's next three
    complete it, nor the other bot's cards but a wild one (which no bot throws away); the other bot cannot go out on any
    card it can reach before the person's discard.
    """
    from cardtui.engine.games import GAMES

    state = fair_short_deal(game, server, 4, people=2)
    if state.pile or state.playing != [1, 2, 3, 0]:
        return False
    melder = GAMES[game].melder(state)
    wild = set(melder.wilds)
    mine, second, bot, other = [list(h) for h in state.hands]
    stock = list(state.stock)

    def lowest(hands: list[list[Card]]) -> Card | None:
        low: set[Card] = set()
        for ten in hands:
            if set(ten) & wild:
                return None
            rank = min(c.rank for c in ten)
            low |= {c for c in ten if c.rank == rank}
        return low.pop() if len(low) == 1 else None

    theirs = lowest([[*second, stock[-1]]])
    discard = lowest([[*mine, drawn] for drawn in stock[-2:-5:-1]])
    if theirs is None or discard is None or melder.goes_out([*second, stock[-1]]):
        return False
    if melder.all_melded(bot) or not melder.goes_out([*bot, discard]):
        return False
    completing = {c for c in set(DECK) if bot.count(c) < 2 and melder.goes_out([*bot, c])}
    if completing & {theirs, *stock[-2:-5:-1]} or (completing - wild) & set(other):
        return False
    kept = [*second, stock[-1]]
    kept.remove(theirs)
    if any(melder.goes_out([*hand, c]) for hand in (kept, mine) for c in set(DECK) if hand.count(c) < 2):
        return False
    return not any(melder.goes_out([*other, c]) for c in {theirs, *stock[-2:-5:-1], *bot} if other.count(c) < 2)


def cut_at_once_seed(game: str, start: int = 0) -> int:
    """The first server seed from ``start`` on that is ``cut_at_once`` (rare: seconds to a minute of
    search)."""
    return next(n for n in itertools.count(start) if cut_at_once(game, n))


def fair_hand(server: int, monkeypatch: Any, people: int = 1) -> None:
    """Hand 1 of the next table made on the server in this process is dealt fairly from the server seed ``server``:
    the table's id is ``FAIR_TABLE``; with one person, every chain a client pledges is topped by ``FAIR_TOP``; with
    more, each joins with the next of ``FAIR_TOPS``. The commitment, the cut and the reveal are the server's and
    the clients' own. ``monkeypatch``: pytest's."""
    first = [server.to_bytes(32, "big")]
    tops = list(FAIR_TOPS[:people])

    def drawn(n: int) -> bytes:
        return first.pop() if first and n == 32 else secrets.token_bytes(n)

    monkeypatch.setattr("cardtui.server.actor.dealing.secrets", SimpleNamespace(token_bytes=drawn))
    monkeypatch.setattr("cardtui.server.lobby.room.secrets", SimpleNamespace(
        token_hex=lambda n=None: FAIR_TABLE, token_urlsafe=secrets.token_urlsafe,
        compare_digest=secrets.compare_digest))
    monkeypatch.setattr("cardtui.fair.secrets", SimpleNamespace(
        token_bytes=lambda n: tops.pop(0) if len(tops) > 1 else tops[0]))


def fair_cut_hand(game: str, server: int, monkeypatch: Any) -> None:
    """Hand 1 of the next table made (``game``, four seats, two people) is fair and short: ``cut_at_once`` with the
    server's seed ``server``. Later hands are dealt from the server's own seeds. ``monkeypatch``: pytest's."""
    assert cut_at_once(game, server), f"the deal is no longer short: {server} wants cut_at_once_seed's"
    fair_hand(server, monkeypatch, people=2)


def fair_short_hand(game: str, monkeypatch: Any) -> None:
    """Hand 1 of the next table made on the server in this process (of its ``fair_short`` seats) is dealt fairly, and
    short: its id is ``FAIR_TABLE``, the person's client pledges the chain topped by ``FAIR_TOP``, and the server's seed
    is the game's ``fair_short`` one (tests/per_game.py), so that the person bets (at Pif Paf), draws and discards, and
    the bot after them takes that discard and knocks (``claimed_at_once``). The commitment, the cut and the reveal are
    the server's and the client's own: the client's check finds the deal fair. Later hands are dealt from the server's
    own seeds. ``monkeypatch``: pytest's.
    """
    from tests.per_game import declared

    short = declared()[game].fair_short
    assert short is not None, f"{game} declares no fair short hand (GameTests.fair_short)"
    seats, server = short
    assert claimed_at_once(game, server, seats), (
        f"{game}: the deal is no longer short: its fair_short wants fair_short_seed's")
    fair_hand(server, monkeypatch)


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
