"""The line mode's commands: words in the reader's language, each with a line of help.

A command is a word ("hand", in Portuguese "mão", in Spanish "mano"), understood in the reader's language and
in English, with or without its accents, and by any start of it two letters or longer that no other command
of the moment shares ("ha" for hand): a single letter or a number is always an action's answer at the
table, never a command. ``help`` lists the commands of the moment with their help.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import Enum

from cardtui.i18n import N_, _


class Where(Enum):
    """Where a command makes sense."""

    ANYWHERE = "anywhere"
    LOBBY = "lobby"
    TABLE = "table"


@dataclass(frozen=True)
class Command:
    name: str
    """Its word in English (the command's identity), marked for translation."""
    help: str
    where: Where
    args: str = ""
    """What follows the word, as the help shows it (marked for translation)."""
    also: tuple[str, ...] = ()
    """Other words it answers to ("whose turn"), marked for translation."""
    key: str = ""
    """A review key of its own, the same at every game: one capital letter, which no game's action takes (they are
    lower case), so that asking never acts."""


COMMANDS = (
    Command(N_("help"), N_("these commands"), Where.ANYWHERE),
    Command(N_("tables"), N_("the tables on this server, numbered"), Where.LOBBY),
    Command(N_("new"), N_("create a table: the game, then its seats, bots, timer and options"), Where.LOBBY,
            N_("game")),
    Command(N_("sit"), N_("take a seat at a table, by its number in the list or its id"), Where.LOBBY, N_("table")),
    Command(N_("watch"), N_("watch a table, read-only"), Where.LOBBY, N_("table")),
    Command(N_("code"), N_("open a friend's invite: its code or its link"), Where.LOBBY, N_("code")),
    Command(N_("close"), N_("close a table you created, by its number in the list"), Where.LOBBY, N_("table")),
    Command(N_("ranks"), N_("the leaderboard, numbered (of a game you name); ranks and a number: that player's "
                            "records"), Where.ANYWHERE, N_("game or number")),
    Command(N_("history"), N_("the finished tables, numbered (at a table: its finished hands); history and a "
                              "number: that table's hands"), Where.ANYWHERE, N_("number")),
    Command(N_("replay"), N_("replay a hand of the list, step by step, every card face up"), Where.ANYWHERE,
            N_("number")),
    Command(N_("next"), N_("the replay's next step (enter does it too); next all: the rest of the hand"),
            Where.ANYWHERE, N_("all")),
    Command(N_("tournaments"), N_("the tournaments on this server, numbered"), Where.ANYWHERE),
    Command(N_("tournament"), N_("a tournament's standings and its round's tables (sit and a number takes one); "
                                 "tournament new creates one"), Where.ANYWHERE, N_("number")),
    Command(N_("register"), N_("enter a tournament of the list"), Where.ANYWHERE, N_("number")),
    Command(N_("withdraw"), N_("withdraw from a tournament of the list"), Where.ANYWHERE, N_("number")),
    Command(N_("start"), N_("start a tournament you created now, bots filling the places left"), Where.ANYWHERE,
            N_("number")),
    Command(N_("hand"), N_("the cards you hold"), Where.TABLE),
    Command(N_("turn"), N_("whose turn it is and the time left (also: whose turn, or T)"), Where.TABLE,
            also=(N_("whose"),), key="T"),
    Command(N_("score"), N_("every side's chips or points, yours first, in one line (or S)"), Where.TABLE, key="S"),
    Command(N_("table"), N_("what is on the table and whose turn (or C); table all: who sits where too"),
            Where.TABLE, N_("all"), key="C"),
    Command(N_("card"), N_("the card a number plays or discards (or the number and a question mark: 3?)"),
            Where.TABLE, N_("number")),
    Command(N_("actions"), N_("what you may do now, with numbers and keys (at your turn, enter says it too)"),
            Where.TABLE),
    Command(N_("discard"), N_("at the rummy games: discard the card you name (7 of hearts, or 7h)"), Where.TABLE,
            N_("card")),
    Command(N_("hint"), N_("at the rummy games: the melds a card of yours makes or would make"), Where.TABLE,
            N_("card")),
    Command(N_("time"), N_("the time left on the turn"), Where.TABLE),
    Command(N_("deal"), N_("the fair-deal check of the last hand, in full (deal and a number: that hand's)"),
            Where.TABLE, N_("number")),
    Command(N_("windows"), N_("claim windows you can only let go: said as turns, or not (the terse way)"),
            Where.TABLE),
    Command(N_("last"), N_("the last events again (5, or as many as you say)"), Where.TABLE, N_("count")),
    Command(N_("say"), N_("chat: say something to the table"), Where.TABLE, N_("words")),
    Command(N_("phrases"), N_("the quick phrases; phrases and a number sends one"), Where.TABLE, N_("number")),
    Command(N_("analysis"), N_("your decisions in the last hand you played, judged"), Where.TABLE),
    Command(N_("match"), N_("your decisions over the match just over, summed up"), Where.TABLE),
    Command(N_("again"), N_("at a match's end: play again, the same seats"), Where.TABLE),
    Command(N_("swap"), N_("at a match's end: play again, the seats swapped"), Where.TABLE),
    Command(N_("leave"), N_("leave the table, back to the lobby"), Where.TABLE),
    Command(N_("invite"), N_("how friends get here: a link, a command and a code"), Where.ANYWHERE),
    Command(N_("rules"), N_("the rules of the game (at a table: its game), as plain text"), Where.ANYWHERE,
            N_("game")),
    Command(N_("language"), N_("speak the next language: English, Portuguese, Spanish"), Where.ANYWHERE),
    Command(N_("bell"), N_("the sound at the start of your turn, on or off"), Where.ANYWHERE),
    Command(N_("terse"), N_("at a table, say your turn with its choices, what changes your choice and the "
                            "results with every side's total; the rest by the review commands, last and table (the "
                            "usual)"), Where.ANYWHERE),
    Command(N_("verbose"), N_("at a table, say every event as it happens"), Where.ANYWHERE),
    Command(N_("quit"), N_("leave the room (and the table you are at)"), Where.ANYWHERE),
)


def plain(word: str) -> str:
    """A word as it is compared: lower case, without accents ("Mão" and "mao" are one)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def offered(at_table: bool) -> list[Command]:
    here = Where.TABLE if at_table else Where.LOBBY
    return [c for c in COMMANDS if c.where in (Where.ANYWHERE, here)]


@dataclass(frozen=True)
class Heard:
    """A line read as a command: which one and the rest of the line; or the sentence saying why not."""

    command: Command | None
    rest: str = ""
    problem: str = ""


def keyed(line: str, at_table: bool) -> Heard | None:
    """A review key typed alone (``T``, ``S``, ``C``), or a card's number and a question mark (``3?``): the command
    it asks; None for any other line."""
    line = line.strip()
    for c in offered(at_table):
        if c.key and line == c.key:
            return Heard(c)
    if at_table and line.endswith("?") and line[:-1].strip().isdigit():
        return Heard(next(c for c in COMMANDS if c.name == "card"), line[:-1].strip())
    return None


def heard(line: str, at_table: bool) -> Heard:
    """The command a line starts with ("?" is help), in the reader's language or in English."""
    head, _sep, rest = line.strip().partition(" ")
    rest = rest.strip()
    if head == "?":
        return Heard(COMMANDS[0], rest)
    said = plain(head)
    commands = offered(at_table)
    for c in commands:
        if said in (plain(c.name), plain(_(c.name))) or any(said in (plain(w), plain(_(w))) for w in c.also):
            return Heard(c, rest)
    if len(said) < 2:
        return Heard(None, problem=_("{word} is not a command here. Type help for the commands.").format(word=head))
    starts = [c for c in commands if plain(_(c.name)).startswith(said) or plain(c.name).startswith(said)]
    if len(starts) == 1:
        return Heard(starts[0], rest)
    if starts:
        return Heard(None, problem=_("{word} could be {commands}: type more of it.").format(
            word=head, commands=", ".join(_(c.name) for c in starts)))
    return Heard(None, problem=_("{word} is not a command here. Type help for the commands.").format(word=head))


def help_lines(at_table: bool) -> list[str]:
    """The commands of the moment, one a line: the word, what follows it, and what it does."""
    out = [_("At your turn, answer with the action's number or key; for an amount, the number and the amount.")
           if at_table else _("Commands:")]
    for c in offered(at_table):
        word = _(c.name) + (f" ({_(c.args)})" if c.args else "")
        out.append(f"{word}: {_(c.help)}.")
    out.append(_("A command can be cut short to its first letters, two or more."))
    return out
