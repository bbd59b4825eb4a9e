"""Records: what each remembered player, and each bot level, has done at each game here.

Per game: a rating from openskill (Plackett-Luce, the library's own maths: teams rated as
teams, places from the match's scores), matches played and won, hands played, the biggest pot
taken in one hand (games played for chips) and truco calls won. Guests are not remembered:
in a rating they count as newcomers of the library's default rating, and nothing is kept.

A table's ``Tally`` hears every event the engine gives the table (and, after a restart, every
event of the replayed match again), so what a hand's events say is never lost; at the end of
each hand the room hands the tally, the seats and the match here, in the same store
transaction as the hand's history.

Who is credited with what:
- a hand (hands played, the biggest pot, truco calls won) goes to whoever played the seat when
  the hand was dealt: the remembered person who was there, or the level of the bot that played
  it (a bot's seat, or a bot standing in for a person away or gone), or nobody (a guest). A
  person who leaves or drops during a hand keeps that hand; the hands a bot plays for them
  after that are the bot's. Only hands a person played count at all, so bots among themselves
  add nothing.
- a match (rating, played, won) goes to every person who played the seat in it (``Seat.played``:
  the table open while a hand of it dealt to them was in play, or a move of their own), also
  when a bot finished it for them (leaving does not dodge a loss), and when a newcomer took the
  seat over (both are rated as if they had played the seat to its end). A person who played none of it (away or
  dropped all along) gets nothing of it, and their seat opens at its end (``Table``); a seat no
  person played goes to its bot's level. A guest counts as a newcomer of the library's default
  rating, and nothing is kept. A match that no person played any of counts for nothing.

A bot level that plays several seats of one match (several bots at the table) takes the mean
of what the library gives each of its seats: bot against bot cancels out, what is left is how
the level fared against the people.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce, PlackettLuceRating

from cardtui.engine import family
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.core import DEFAULT_LEVEL, Event
from cardtui.engine.events import HandEnded, HandStarted
from cardtui.engine.games import ENTRIES, GAMES
from cardtui.engine.tournament import places
from cardtui.server.base.errors import InvalidArgument, NotFound, quote
from cardtui.server.people.players import BOT_NAME, Players, folded
from cardtui.server.store import Player, Record, Store
from cardtui.v1 import players_pb2

if TYPE_CHECKING:
    from cardtui.server.actor.seating import Holder, Seat
    from cardtui.server.actor.table import Table

LEADERBOARD_LIMIT = 100


class Tally:
    """What the match in play said beyond its scores: per hand, the chips each seat took and the
    truco calls each seat won (each event's family says what it is: ``engine.family``); per match, the hand in
    which each seat ran out of chips or points."""

    def __init__(self) -> None:
        self.start(())

    def start(self, scores: Sequence[int]) -> None:
        """A new match, its seats standing at ``scores``."""
        self.hands = 0
        self.alive = {s for s, v in enumerate(scores) if v > 0}
        self.out_at: dict[int, int] = {}
        self.new_hand()

    def new_hand(self) -> None:
        self.pots: dict[int, int] = {}
        self.calls: list[tuple[int, int]] = []
        """Truco calls said in the round in play: (seat, team)."""
        self.calls_won: dict[int, int] = {}

    def observe(self, events: Sequence[Event], scores: Callable[[], Sequence[int]]) -> None:
        for event in events:
            body = event.body
            if isinstance(body, HandStarted):
                self.new_hand()
            elif (won := family.asked(body, family.Family.chips_won)) is not None:
                seat, chips = won
                self.pots[seat] = self.pots.get(seat, 0) + chips
            elif (call := family.asked(body, family.Family.called)) is not None:
                self.calls.append(call)
            elif (ended := family.asked(body, family.Family.round_ended)) is not None:
                if ended[0] is not None:
                    for seat, team in self.calls:
                        if team == ended[0]:
                            self.calls_won[seat] = self.calls_won.get(seat, 0) + 1
                self.calls = []
            elif isinstance(body, HandEnded):
                self.hands += 1
                now = scores()
                for seat in sorted(self.alive):
                    if now[seat] <= 0:
                        self.out_at[seat] = self.hands
                        self.alive.discard(seat)

    def places(self, scores: Sequence[int], teams: Sequence[int]) -> dict[int, int]:
        """Each team's place (1 the best; equals share a place): by final score, then by who lasted longer."""
        return places(scores, teams, self.out_at)

    def dealt(self, seat: int) -> int:
        """Hands of the match ``seat`` was dealt into: all of them, or up to the one it ran out in."""
        return self.out_at.get(seat, self.hands)


@dataclass(frozen=True, slots=True)
class Credit:
    """Who a seat's results go to."""

    id: str
    name: str
    bot: bool = False


def bot_level(table: Table, seat: int) -> str:
    """The bot in a bot's seat as its records are kept: one record per level ("bot normal")."""
    return level_name(table.seating[seat].level)


def level_name(level: str) -> str:
    return f"{BOT_NAME} {level or DEFAULT_LEVEL}"


def bot_id(level: str) -> str:
    return f"bot:{level}"


class Records:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.model = PlackettLuce()

    # -- after each hand ----------------------------------------------------------------
    def credit(self, table: Table, seat: Seat) -> Credit | None:
        if seat.bot:
            level = bot_level(table, seat.index)
            return Credit(bot_id(level), level, bot=True)
        if seat.player is not None:
            known = self.store.identity.player(seat.player)
            return Credit(seat.player, known.name if known else seat.name)
        return None

    def hand_credit(self, holder: Holder) -> Credit | None:
        """Who a hand played by ``holder`` counts for."""
        if holder.bot:
            level = level_name(holder.level)
            return Credit(bot_id(level), level, bot=True)
        if holder.player is not None:
            known = self.store.identity.player(holder.player)
            return Credit(holder.player, known.name if known else holder.name)
        return None

    def hand_done(self, table: Table) -> None:
        """Count the hand that just ended; rate the match if it ended too. Call inside the hand's transaction."""
        match = table.match
        if match is None:
            return
        game = table.rules.name
        tally = table.tally
        if any(h.person for h in table.hand_holders):
            for seat, holder in enumerate(table.hand_holders):
                credit = self.hand_credit(holder)
                if credit is None:
                    continue
                r = self._record(credit, game)
                r.hands += 1
                r.biggest_pot = max(r.biggest_pot, tally.pots.get(seat, 0))
                r.truco_calls_won += tally.calls_won.get(seat, 0)
                self.store.ratings.save_record(r)
        if not match.match_over():
            return
        credits = self.match_credits(table)
        if credits is None:
            return
        teams = [table.seating.team(s) for s in range(len(credits))]
        # Everyone is rated from where they stood before the match, the earlier holders of a seat
        # against the same opponents as the last (not against ratings this match already moved).
        before = {c.id: self.store.ratings.record(c.id, game) for each in credits for c in each if c is not None}
        last = [each[-1] for each in credits]
        self._rate(game, last, match.scores(), teams, tally, before)
        for seat, each in enumerate(credits):
            for earlier in each[:-1]:  # rated as if they had played the seat to the end; only they are saved
                if earlier is not None:
                    self._rate(game, [earlier if s == seat else c for s, c in enumerate(last)], match.scores(),
                               teams, tally, before, only=earlier.id)

    def match_credits(self, table: Table) -> list[list[Credit | None]] | None:
        """Whom each seat's result in the match just ended goes to, in the order they held it: every
        person who played the seat in it (``Seat.played``; those who left it to a newcomer first,
        ``Table.leavers``; None for a guest), or, where no person did, the level of the bot that
        played it all. None: no person played any of the match."""
        out: list[list[Credit | None]] = []
        for s in table.seating.seats:
            each: list[Credit | None] = []
            for player in table.leavers.get(s.index, ()):
                known = self.store.identity.player(player)
                each.append(Credit(player, known.name if known else player))
            if s.played and not s.bot:
                each.append(self.credit(table, s))
            out.append(each)
        if not any(out):
            return None
        for s, each in zip(table.seating.seats, out, strict=True):
            if not each:  # nobody played it in person: its bot did
                level = bot_level(table, s.index)
                each.append(Credit(bot_id(level), level, bot=True))
        return out

    def _record(self, credit: Credit, game: str) -> Record:
        r = self.store.ratings.record(credit.id, game)
        if r is None:
            if credit.bot:  # a bot level is remembered from its first hand with people
                self.store.identity.add_player(credit.id, credit.name, None)
            fresh = self.model.rating()
            r = Record(credit.id, game, fresh.mu, fresh.sigma)
        return r

    def rating(self, r: Record | None) -> PlackettLuceRating:
        return self.model.rating() if r is None else self.model.rating(mu=r.mu, sigma=r.sigma)

    def _rate(self, game: str, credits: Sequence[Credit | None], scores: Sequence[int], teams: Sequence[int],
              tally: Tally, records: Mapping[str, Record | None], only: str | None = None) -> None:
        """Rate a finished match from each one's record before it (``records``; a guest, or a
        first match: the library's default rating); ``only``: save that player's record alone."""
        places = tally.places(scores, teams)
        order = sorted(places)
        members = [[s for s in range(len(teams)) if teams[s] == team] for team in order]
        # A rating each seat of its own: the library tells players apart by their rating objects.
        before = [[self.rating(records[c.id] if (c := credits[s]) else None) for s in seats] for seats in members]
        after = self.model.rate(before, ranks=[float(places[team]) for team in order])
        results: dict[str, list[tuple[PlackettLuceRating, bool]]] = {}
        for team, seats, rated in zip(order, members, after, strict=True):
            for seat, rating in zip(seats, rated, strict=True):
                credit = credits[seat]
                if credit is not None:
                    results.setdefault(credit.id, []).append((rating, places[team] == 1))
        for player, got in results.items():
            if only is not None and player != only:
                continue
            credit = next(c for c in credits if c is not None and c.id == player)
            r = self._record(credit, game)
            r.mu = fmean(rating.mu for rating, _ in got)
            r.sigma = fmean(rating.sigma for rating, _ in got)
            r.matches += len(got)
            r.wins += sum(1 for _, won in got if won)
            self.store.ratings.save_record(r)

    # -- what the lobby shows --------------------------------------------------------------
    def _ranked(self, game: str) -> list[tuple[Record, Player]]:
        rows = self.store.ratings.records(game=game)
        return sorted(rows, key=lambda row: (-self.rating(row[0]).ordinal(), row[1].name))

    def _rating_message(self, r: Record) -> players_pb2.Rating:
        return players_pb2.Rating(mu=r.mu, sigma=r.sigma, ordinal=self.rating(r).ordinal())

    @staticmethod
    def stats(r: Record) -> players_pb2.Stats:
        stats = players_pb2.Stats(matches=r.matches, wins=r.wins, hands=r.hands)
        played = ENTRIES.get(r.game)
        if played is not None and played.unit is Unit.CHIPS:  # played for chips: the biggest pot
            stats.biggest_pot = r.biggest_pot
        if played is not None and played.calls_won:
            stats.truco_calls_won = r.truco_calls_won
        return stats

    def leaderboard(self, game: str, limit: int = 0) -> players_pb2.LeaderboardResponse:
        if game not in GAMES:
            raise InvalidArgument("There is no game called {game}; try one of: {games}.", game=quote(game),
                                  games=", ".join(GAMES))
        limit = LEADERBOARD_LIMIT if limit <= 0 else min(limit, LEADERBOARD_LIMIT)
        ranked = self._ranked(game)
        return players_pb2.LeaderboardResponse(
            game=game,
            players=len(ranked),
            standings=[
                players_pb2.Standing(place=i, name=p.name, bot=p.public_key is None, rating=self._rating_message(r),
                                     stats=self.stats(r))
                for i, (r, p) in enumerate(ranked[:limit], start=1)
            ],
        )

    def card_of(self, player: Player, kind: players_pb2.PlayerKind.ValueType) -> players_pb2.PlayerCardResponse:
        games = []
        order = {game: i for i, game in enumerate(GAMES)}
        rows = self.store.ratings.records(player_id=player.id)
        for r, _ in sorted(rows, key=lambda row: order.get(row[0].game, len(order))):
            place = next((i for i, (o, _) in enumerate(self._ranked(r.game), start=1) if o.player == player.id), 0)
            games.append(players_pb2.GameRecord(game=r.game, place=place, rating=self._rating_message(r),
                                                stats=self.stats(r)))
        return players_pb2.PlayerCardResponse(
            name=player.name, kind=kind, fingerprint=Players.fingerprint(player.public_key),
            since_unix=int(player.created), games=games,
        )

    def card(self, name: str) -> players_pb2.PlayerCardResponse:
        """A card by name: a remembered person's (any name they own), or a bot level's."""
        owner = self.store.identity.owner(folded(name.strip()))
        if owner is not None and (person := self.store.identity.player(owner)) is not None:
            return self.card_of(person, players_pb2.PLAYER_KIND_PERSON)
        bot = self.store.identity.player(bot_id(name.strip()))
        if bot is not None:
            return self.card_of(bot, players_pb2.PLAYER_KIND_BOT)
        if folded(name.strip()).split(" ")[0] == BOT_NAME:  # a level nobody has played against yet
            return players_pb2.PlayerCardResponse(name=name.strip()[:40], kind=players_pb2.PLAYER_KIND_BOT)
        raise NotFound("Nobody called {name} is remembered on this server.", name=quote(name))

    def seat_card(self, table: Table, seat: int) -> players_pb2.PlayerCardResponse:
        """The card of whoever plays a seat now: a bot level, a remembered player, or a guest."""
        if not 0 <= seat < len(table.seating):
            raise InvalidArgument("This table has seats 0 to {last}.", last=len(table.seating) - 1)
        s = table.seating[seat]
        credit = self.credit(table, s)
        if credit is None:
            if not s.name:
                raise NotFound("Seat {seat} is empty.", seat=seat + 1)
            return players_pb2.PlayerCardResponse(name=s.name, kind=players_pb2.PLAYER_KIND_GUEST)
        if credit.bot:
            return self.card(credit.name)
        player = self.store.identity.player(credit.id)
        if player is None:
            return players_pb2.PlayerCardResponse(name=s.name, kind=players_pb2.PLAYER_KIND_PERSON)
        return self.card_of(player, players_pb2.PLAYER_KIND_PERSON)
