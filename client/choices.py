"""The create form's last choices, per server: the next new table starts from them.

A small JSON file in the player's config directory (``create-form.json`` beside the key, by
``platformdirs``), keyed by the server's address as dialled. It keeps what a player would pick
again (game, players, bots and their levels, turn timer, private, the game's options), never the
table's name or its password. A file that cannot be read is as if there were none; one that
cannot be written is left as it was: remembering is a convenience, never in the way.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cardtui.v1 import common_pb2, lobby_pb2

FILE_NAME = "create-form.json"
KEPT = 32
"""Servers remembered at most (the ones used last)."""

Raw = bool | int | float | str


def usual_seats(game: lobby_pb2.GameInfo) -> int:
    """The players a new table of ``game`` starts with: as many as usually play it (the engine says,
    ``Rules.usual_players``), or the fewest allowed from a server that does not say."""
    return game.usual_players if game.usual_players in game.player_counts else game.player_counts[0]


@dataclass(frozen=True)
class Choices:
    """What the form had when a table was created."""

    game: str
    seats: int
    bots: int
    levels: list[str] = field(default_factory=list)
    turn: int = 30
    private: bool = False
    options: dict[str, Raw] = field(default_factory=dict)

    @classmethod
    def of(cls, request: lobby_pb2.CreateTableRequest) -> Choices:
        options: dict[str, Raw] = {}
        for name, value in request.options.items():
            kind = value.WhichOneof("value")
            if kind is not None:
                options[name] = getattr(value, kind)
        return cls(request.game, request.seats, request.bots, list(request.bot_levels), request.turn_seconds,
                   request.private, options)

    def option(self, spec: lobby_pb2.OptionSpec) -> common_pb2.OptionValue:
        """The remembered value of one of the game's options, if it still fits the option; else its default."""
        raw = self.options.get(spec.name)
        if spec.type == lobby_pb2.OPTION_TYPE_FLAG and isinstance(raw, bool):
            return common_pb2.OptionValue(flag=raw)
        if spec.type == lobby_pb2.OPTION_TYPE_CHOICE and raw in spec.choices:
            return common_pb2.OptionValue(choice=str(raw))
        if (spec.type == lobby_pb2.OPTION_TYPE_NUMBER and isinstance(raw, int) and not isinstance(raw, bool)
                and spec.min <= raw <= spec.max and (not spec.values or raw in spec.values)):
            return common_pb2.OptionValue(number=raw)
        if (spec.type == lobby_pb2.OPTION_TYPE_FRACTION and isinstance(raw, int | float)
                and not isinstance(raw, bool) and spec.min <= raw <= spec.max):
            return common_pb2.OptionValue(fraction=float(raw))
        return spec.default


def path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardtui")) / FILE_NAME


def _read(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load(server: str, file: Path | None = None) -> Choices | None:
    """The choices last used at ``server``, or None (none yet, or not readable)."""
    entry = _read(file or path()).get(server)
    if not isinstance(entry, dict):
        return None
    try:
        choices = Choices(**entry)
    except TypeError:
        return None
    good = (isinstance(choices.game, str) and isinstance(choices.seats, int) and isinstance(choices.bots, int)
            and isinstance(choices.turn, int) and isinstance(choices.levels, list)
            and isinstance(choices.options, dict))
    return choices if good else None


def save(server: str, choices: Choices, file: Path | None = None) -> None:
    """Remember ``choices`` for ``server`` (the most recent last; at most ``KEPT`` servers)."""
    file = file or path()
    data = _read(file)
    data.pop(server, None)
    data[server] = asdict(choices)
    while len(data) > KEPT:
        del data[next(iter(data))]
    with contextlib.suppress(OSError):
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".create-form.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
        os.replace(tmp, file)
