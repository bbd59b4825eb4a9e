"""Tournaments in the line mode: the list, one tournament's standings and round, and the form that creates one.

As on the screens (``client.screens.tournaments``) everything said comes from the server: the standings are
its reckoning. The round's tables are numbered so that ``sit`` and ``watch`` take them by number, as they
take the lobby's: a tournament's table is sat at like any. The form asks as the table's does
(``creating``): the tournament described in one sentence with its usual choices, enter creates it, ``change``
goes through each choice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from cardtui.client.choices import usual_seats
from cardtui.client.lines.commands import plain
from cardtui.client.lines.creating import (
    Ask,
    Cancelled,
    answered,
    game_named,
    games_said,
    number_asked,
    option_asked,
    spans,
)
from cardtui.client.lines.sentences import spoken
from cardtui.client.rounds import my_table
from cardtui.client.screens.tournaments import STARTS, entry_names, status_text
from cardtui.i18n import _
from cardtui.v1 import common_pb2, lobby_pb2, tournament_pb2

ROUNDS = 3
PLACES = 8
TURN = 30


def tournament_line(n: int, t: tournament_pb2.TournamentSummary, titles: dict[str, str]) -> str:
    """A tournament as the list says it: its name and game, its places, when it starts and how it stands."""
    starts = (_("starts at {time}").format(time=time.strftime("%H:%M", time.localtime(t.start_unix)))
              if t.start_unix else _("starts when full"))
    said = _("{n}: {name}, {game}, {entries} of {places} places taken, {starts}, {status}.").format(
        n=n, name=t.name, game=titles.get(t.game, t.game), entries=t.entries, places=t.max_entries, starts=starts,
        status=status_text(t))
    if t.has_password:
        said += " " + _("It asks for a password.")
    return spoken(said)


def state_lines(state: tournament_pb2.TournamentState, titles: dict[str, str], player: str) -> list[str]:
    """One tournament: how it stands, its standings (or its entries while it registers), and the round's
    tables, numbered for ``sit`` and ``watch``, the player's said."""
    s = state.summary
    names = entry_names(state)
    out = [_("{name}, {game}: {status}, {entries} of {places} places taken.").format(
        name=s.name, game=titles.get(s.game, s.game), status=status_text(s), entries=s.entries,
        places=s.max_entries)]
    if state.standings:
        out.append(_("Standings:"))
        for r in state.standings:
            who = names.get(r.entry, "?")
            if r.bot_played:
                who += ", " + _("a bot played for them")
            out.append(_("{place}: {name}, {vp} VP, {gp} GP, {played} played.").format(
                place=r.place, name=who, vp=r.vp, gp=r.gp, played=r.played))
    elif state.entries:
        out.append(_("Entered: {names}.").format(names=", ".join(names[e.entry] for e in state.entries)))
    else:
        out.append(_("Nobody has entered yet: type register to enter."))
    if s.round:
        out.append(_("Round {round} of {rounds}: {done} of {tables} tables done.").format(
            round=s.round, rounds=s.rounds, done=s.tables_done, tables=s.tables))
    if state.byes:
        out.append(_("Sitting out: {names}.").format(names=", ".join(names[b] for b in state.byes)))
    mine = my_table(state, player)
    for n, t in enumerate(round_tables(state), start=1):
        said = _("Table {n}: {players}; {hands} hands, {status}.").format(
            n=n, players=", ".join(names[e] for e in t.entries), hands=t.hands,
            status=_("over") if t.done else _("playing"))
        if mine is not None and t.table_id == mine.table_id:
            said += " " + _("Yours: type sit {n} to play it.").format(n=n)
        out.append(said)
    return [spoken(line) for line in out]


def round_tables(state: tournament_pb2.TournamentState) -> list[tournament_pb2.TournamentTable]:
    return [t for t in state.tables if t.round == state.summary.round]


@dataclass(frozen=True)
class TournamentForm:
    """A new tournament's answers so far."""

    game: lobby_pb2.GameInfo
    table_size: int
    rounds: int = ROUNDS
    places: int = PLACES
    starts: int = 0
    """Minutes from now (0: when its places are taken)."""
    bots_fill: bool = True
    turn: int = TURN
    options: tuple[tuple[str, common_pb2.OptionValue], ...] = ()
    password: str = ""

    def said(self) -> str:
        starts = next((_(words) for words, minutes in STARTS if minutes == self.starts), _("when full"))
        bots = _("bots fill the places left at the start") if self.bots_fill else _("no bots fill the places left")
        lock = _("a password") if self.password else _("no password")
        options = _("changed options") if self.options else _("the usual options")
        return _("A {game} tournament: {rounds} rounds, tables of {size}, {places} places, starting {starts}, {bots}, "
                 "a turn of {turn} seconds, {options}, {lock}.").format(
            game=self.game.title, rounds=self.rounds, size=self.table_size, places=self.places, starts=starts,
            bots=bots, turn=self.turn, options=options, lock=lock)

    def request(self) -> tournament_pb2.CreateTournamentRequest:
        return tournament_pb2.CreateTournamentRequest(
            game=self.game.name, name=_("{game} tournament").format(game=self.game.title)[:24], rounds=self.rounds,
            table_size=self.table_size, options=dict(self.options), max_entries=self.places,
            start_unix=int(time.time()) + self.starts * 60 if self.starts else 0, password=self.password,
            bots_fill=self.bots_fill, turn_seconds=self.turn)


async def tournament_form(info: lobby_pb2.ServerInfo, ask: Ask) -> tournament_pb2.CreateTournamentRequest:
    """Ask what the new tournament should be, and the request for it (``Cancelled`` if the player cancels)."""
    chosen = None
    game = ""
    while chosen is None:
        game = await answered(ask, _("A tournament of which game? {games}.").format(games=games_said(info)))
        chosen = game_named(info, game)
    form = TournamentForm(chosen, usual_seats(chosen))
    answer = await answered(ask, form.said() + " " + _("Press enter to create it, or type change to choose each "
                                                       "thing, or cancel."))
    if plain(answer) in ("change", plain(_("change"))):
        form = await _changed(form, ask)
    elif answer:
        raise Cancelled
    return form.request()


async def _changed(form: TournamentForm, ask: Ask) -> TournamentForm:
    game = form.game
    rounds = await number_asked(ask, _("How many rounds? 1 to 10; enter keeps {now}.").format(now=form.rounds),
                                list(range(1, 11)), form.rounds)
    size = await number_asked(ask, _("How many players at each table? {allowed}; enter keeps {now}.").format(
        allowed=spans(list(game.player_counts)), now=form.table_size), list(game.player_counts), form.table_size)
    places = await number_asked(ask, _("How many places (people, or teams in a team game)? 2 to 64; enter keeps "
                                       "{now}.").format(now=form.places), list(range(2, 65)), form.places)
    listed = ", ".join(f"{n} {_(words)}" for n, (words, _minutes) in enumerate(STARTS, start=1))
    start = await number_asked(ask, _("When does it start? {choices}; enter keeps 1.").format(choices=listed),
                               list(range(1, len(STARTS) + 1)), 1)
    fill = await answered(ask, _("Do bots fill the places left at the start? Yes or no; enter keeps yes."))
    bots_fill = plain(fill) not in ("no", "n", plain(_("no")))
    turn = await number_asked(ask, _("Seconds for each turn? 5 to 3600; enter keeps {now}.").format(now=form.turn),
                              list(range(5, 3601)), form.turn)
    options = []
    for spec in game.options:
        value = await option_asked(game.name, spec, ask)
        if value is not None:
            options.append((spec.name, value))
    password = await answered(ask, _("A password for the tournament? Type it, or enter for none."), secret=True)
    return TournamentForm(game, size, rounds, places, STARTS[start - 1][1], bots_fill, turn, tuple(options), password)
