"""A table option and each of its values in words a player understands.

The server describes each game's options with identifiers (``ties``, ``sum_two``) and one line
of help in English, and names its bots' levels the same way (``level_words``); this module is the
one place the client turns them into words: an option's label, and each value's label saying the
rule it plays (``sum_two``: "two best cards, even of
different suits"), never where the rule came from. The create form offers these labels and a
table's help lists them as the table plays them (``table_options``).

Labels are marked with ``N_`` and looked up when shown. An option or a value this client does
not know (a newer server) is shown by its identifier, spaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cardtui.client import gamebook
from cardtui.i18n import N_, _, current
from cardtui.v1 import common_pb2, lobby_pb2


@dataclass(frozen=True)
class OptionWords:
    """An option's label and, for a choice or a flag, each value's label (a flag's ``on``/``off``)."""

    label: str
    values: Mapping[str, str] = field(default_factory=dict)


CHAT = OptionWords(N_("Table chat"), {
    "spectators-and-between-hands": N_("spectators anytime, players only between hands"),
    "always": N_("anyone, anytime"),
})
SIGNALS_SEEN = OptionWords(N_("Signals caught by opponents"))
SEALED = OptionWords(N_("Sealed cards"), {
    "on": N_("sealed: nobody, the host included, sees a card before it is played or shown"),
    "off": N_("the server deals, and knows every card"),
})
CLAIM_MS = OptionWords(N_("Time to claim a discard (ms)"))



LEVELS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
"""The bots' levels as the server names them (``GameInfo.bot_levels``, a seat's ``bot_level``)."""


def level_words(level: str) -> str:
    """A bot level in the player's language; one this client does not know, by its identifier."""
    known = LEVELS.get(level)
    return _(known) if known is not None else level


def spaced(name: str) -> str:
    """An identifier as words, for an option or value this client does not know."""
    return name.replace("-", " ").replace("_", " ")


def words(game: str, option: str) -> OptionWords | None:
    """An option's words, as its game declares them (``client.gamebook``); None for one this client does not
    know."""
    known = gamebook.find(game)
    return known.options.get(option) if known is not None else None


def option_label(game: str, option: str) -> str:
    """An option's label, in the reader's language."""
    known = words(game, option)
    return _(known.label) if known else spaced(option)


def value_label(game: str, option: str, value: str) -> str:
    """A choice's (or a flag's ``on``/``off``) label saying the rule it plays, in the reader's language."""
    known = words(game, option)
    said = known.values.get(value) if known else None
    return _(said) if said else spaced(value)


def shown_value(game: str, spec: lobby_pb2.OptionSpec, value: common_pb2.OptionValue) -> str:
    """What a table plays for one option, in words: a choice's rule, a flag's, or the number."""
    if spec.type == lobby_pb2.OPTION_TYPE_FLAG:
        return value_label(game, spec.name, "on" if value.flag else "off")
    if spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
        return value_label(game, spec.name, value.choice)
    if spec.type == lobby_pb2.OPTION_TYPE_NUMBER:
        return str(value.number)
    shown = f"{value.fraction:g}"
    return shown if current() == "en" else shown.replace(".", ",")  # 0,25 in Portuguese and Spanish


def table_options(game: lobby_pb2.GameInfo, options: Mapping[str, common_pb2.OptionValue]) -> str:
    """A Markdown section: what this table's options make the game, each option with its value
    (defaults included, marked), so the rules page above is read as this table plays it."""
    rows = []
    for spec in game.options:
        value = options.get(spec.name, spec.default)
        default = value == spec.default
        shown = shown_value(game.name, spec, value)
        if default:
            shown = _("{value} (the default)").format(value=shown)
        rows.append(f"| {option_label(game.name, spec.name)} | {shown} |")
    if not rows:
        return ""
    head = _("This table's options")
    option, plays = _("option"), _("at this table")
    return f"\n## {head}\n| {option} | {plays} |\n|---|---|\n" + "\n".join(rows) + "\n"
