"""A new table by questions and answers: the line mode's create form.

The screen's form shows every field at once; read aloud that is a long page. Here the game is asked first
(or given with ``new``), then the table is described in one sentence with its usual choices (every seat but
the player's a bot, a 30-second turn, the game's default options), and enter creates it; ``change`` goes
through each choice, one question at a time, enter keeping what it says. A wrong answer is said why and asked
again; nothing is sent until the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cardtui.client.choices import usual_seats
from cardtui.client.lines.commands import plain
from cardtui.client.option_words import option_label, shown_value, value_label
from cardtui.i18n import N_, _
from cardtui.v1 import common_pb2, lobby_pb2


class Ask(Protocol):
    """Say a question, and the answer typed (``Quit`` raised when input ends); ``secret``: not echoed."""

    async def __call__(self, question: str, secret: bool = False) -> str: ...


YES = (N_("yes"), "y")
NO = (N_("no"), "n")
CHANGE = N_("change")
TURN_DEFAULT = 30


class Cancelled(Exception):
    """The player cancelled the form: nothing was created."""


@dataclass(frozen=True)
class Form:
    """The answers so far."""

    game: lobby_pb2.GameInfo
    seats: int
    bots: int
    turn: int = TURN_DEFAULT
    options: tuple[tuple[str, common_pb2.OptionValue], ...] = ()
    password: str = ""

    def request(self) -> lobby_pb2.CreateTableRequest:
        return lobby_pb2.CreateTableRequest(
            game=self.game.name, name=_("{game} table").format(game=self.game.title), seats=self.seats,
            bots=self.bots, options=dict(self.options), turn_seconds=self.turn, password=self.password)

    def said(self) -> str:
        """The table the answers describe, in one sentence."""
        changed = [f"{option_label(self.game.name, name)} {shown_value(self.game.name, spec, value)}"
                   for name, value in self.options for spec in self.game.options if spec.name == name]
        options = ", ".join(changed) if changed else _("the usual options")
        lock = _("a password") if self.password else _("no password")
        return _("A {game} table: {seats} seats, {bots} of them bots, a turn of {turn} seconds, {options}, "
                 "{lock}.").format(game=self.game.title, seats=self.seats, bots=self.bots, turn=self.turn,
                                   options=options, lock=lock)


def game_named(info: lobby_pb2.ServerInfo, answer: str) -> lobby_pb2.GameInfo | None:
    """A game by its number in the list, its name or its title, or the start of either."""
    said = plain(answer.strip()).replace(" ", "_")
    games = list(info.games)
    if said.isdigit() and 1 <= int(said) <= len(games):
        return games[int(said) - 1]
    for g in games:
        if said in (plain(g.name), plain(g.title).replace(" ", "_")):
            return g
    starts = [g for g in games if plain(g.name).startswith(said) or plain(g.title).startswith(said)]
    return starts[0] if len(starts) == 1 and said else None


def games_said(info: lobby_pb2.ServerInfo) -> str:
    return ", ".join(f"{n} {g.title}" for n, g in enumerate(info.games, start=1))


async def create_form(info: lobby_pb2.ServerInfo, ask: Ask, game: str = "") -> lobby_pb2.CreateTableRequest:
    """Ask what the new table should be, and the request for it (``Cancelled`` if the player says cancel)."""
    chosen = game_named(info, game) if game else None
    while chosen is None:
        unknown = _("There is no game {name} here.").format(name=game) + " " if game else ""
        game = await answered(ask, unknown + _("Which game? {games}.").format(games=games_said(info)))
        chosen = game_named(info, game)
    seats = usual_seats(chosen)
    form = Form(chosen, seats, seats - 1)
    answer = await answered(ask, form.said() + " " + _("Press enter to create it, or type change to choose each "
                                                     "thing, or cancel."))
    if plain(answer) in (plain(CHANGE), plain(_(CHANGE))):
        form = await _changed(form, ask)
    elif answer:
        raise Cancelled
    return form.request()


async def answered(ask: Ask, question: str, secret: bool = False) -> str:
    answer = (await ask(question, secret)).strip()
    if plain(answer) in ("cancel", plain(_("cancel"))):
        raise Cancelled
    return answer


async def number_asked(ask: Ask, question: str, allowed: list[int], now: int) -> int:
    while True:
        answer = await answered(ask, question)
        if not answer:
            return now
        if answer.isdigit() and int(answer) in allowed:
            return int(answer)
        question = _("{answer} will not do: answer one of {allowed}, or enter to keep {now}.").format(
            answer=answer, allowed=spans(allowed), now=now)


def spans(allowed: list[int]) -> str:
    if len(allowed) > 2 and allowed == list(range(allowed[0], allowed[-1] + 1)):
        return _("{low} to {high}").format(low=allowed[0], high=allowed[-1])
    return ", ".join(str(n) for n in allowed)


async def _changed(form: Form, ask: Ask) -> Form:
    game = form.game
    seats = await number_asked(ask, _("How many players? {allowed}; enter keeps {now}.").format(
        allowed=spans(list(game.player_counts)), now=form.seats), list(game.player_counts), form.seats)
    bots = min(form.bots, seats - 1)
    bots = await number_asked(ask, _("How many of them bots? 0 to {most}; enter keeps {now}.").format(
        most=seats - 1, now=bots), list(range(seats)), bots)
    turn = await number_asked(ask, _("Seconds for each turn? 5 to 3600; enter keeps {now}.").format(now=form.turn),
                         list(range(5, 3601)), form.turn)
    options = []
    for spec in game.options:
        value = await option_asked(game.name, spec, ask)
        if value is not None:
            options.append((spec.name, value))
    password = await answered(ask, _("A password for the table? Type it, or enter for none."), secret=True)
    return Form(game, seats, bots, turn, tuple(options), password)


async def option_asked(game: str, spec: lobby_pb2.OptionSpec, ask: Ask) -> common_pb2.OptionValue | None:
    """One option asked: None keeps its default."""
    label = option_label(game, spec.name)
    now = shown_value(game, spec, spec.default)
    if spec.type == lobby_pb2.OPTION_TYPE_FLAG:
        question = _("{option}: {help} Now {value}. Yes or no; enter keeps it.").format(
            option=label, help=_stop(_(spec.help)), value=now)
    elif spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
        listed = ", ".join(f"{n} {value_label(game, spec.name, c)}" for n, c in enumerate(spec.choices, start=1))
        question = _("{option}: {choices}. Now {value}; a number, or enter to keep it.").format(
            option=label, choices=listed, value=now)
    elif spec.values:
        question = _("{option}: {help} One of {values}; now {value}, enter keeps it.").format(
            option=label, help=_stop(_(spec.help)), values=", ".join(str(v) for v in spec.values), value=now)
    else:
        question = _("{option}: {help} From {min} to {max}; now {value}, enter keeps it.").format(
            option=label, help=_stop(_(spec.help)), min=f"{spec.min:g}", max=f"{spec.max:g}", value=now)
    while True:
        answer = await answered(ask, question)
        if not answer:
            return None
        value = _read_option(spec, answer)
        if value is not None:
            return value
        question = _("{answer} will not do for {option}; enter keeps {value}.").format(
            answer=answer, option=label, value=now)


def _stop(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _read_option(spec: lobby_pb2.OptionSpec, answer: str) -> common_pb2.OptionValue | None:
    said = plain(answer)
    if spec.type == lobby_pb2.OPTION_TYPE_FLAG:
        if said in {plain(_(w)) for w in YES} | {plain(w) for w in YES}:
            return common_pb2.OptionValue(flag=True)
        if said in {plain(_(w)) for w in NO} | {plain(w) for w in NO}:
            return common_pb2.OptionValue(flag=False)
        return None
    if spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
        choices = list(spec.choices)
        if said.isdigit() and 1 <= int(said) <= len(choices):
            return common_pb2.OptionValue(choice=choices[int(said) - 1])
        return common_pb2.OptionValue(choice=answer) if answer in choices else None
    try:
        number = float(answer.replace(",", "."))
    except ValueError:
        return None
    if spec.type == lobby_pb2.OPTION_TYPE_NUMBER:
        whole = int(number)
        ok = number == whole and (whole in spec.values if spec.values else spec.min <= whole <= spec.max)
        return common_pb2.OptionValue(number=whole) if ok else None
    return common_pb2.OptionValue(fraction=number) if spec.min <= number <= spec.max else None
