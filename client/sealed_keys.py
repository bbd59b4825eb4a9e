"""What a person's client keeps on its disk to play on at a sealed table after a drop or a restart (docs/fairness.md,
"Drops and crashes"): per host and table, its box secret (its sealing key for the stay at that table), and per hand
its hand secret and the card keys the others sealed for it.

Nothing else holds these: the host's store has only what opens nothing, so a client that lost its file has lost its
unplayed cards for that hand. The file is the person's alone (mode 0600, its folder 0700), in the state folder
``platformdirs`` names for cardtui (``$XDG_STATE_HOME/cardtui/sealed/`` on Linux), one file a host, written whole
and put in place at once, so that a crash leaves the old file or the new, never half of one. A hand's secrets are
forgotten when the hand ends; a host's file keeps its last ``KEPT_HANDS`` hands at most, whatever happens.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtui.sealed.deck import SECRET_BYTES

KEPT_HANDS = 16


def default_root() -> Path:
    from platformdirs import user_state_dir

    return Path(user_state_dir("cardtui")) / "sealed"


@dataclass
class SealedKeys:
    """A person's sealed secrets, by host (the server's id, or its address as dialled)."""

    root: Path

    @classmethod
    def at_home(cls) -> SealedKeys:
        return cls(default_root())

    def _file(self, host: str) -> Path:
        return self.root / (hashlib.sha256(host.encode()).hexdigest()[:32] + ".json")

    def _read(self, host: str) -> dict[str, Any]:
        try:
            data = json.loads(self._file(host).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"boxes": {}, "hands": {}}
        return data if isinstance(data, dict) else {"boxes": {}, "hands": {}}

    def _write(self, host: str, data: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temp = tempfile.mkstemp(dir=self.root, prefix=".sealed-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(temp, 0o600)
            os.replace(temp, self._file(host))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise

    def box(self, host: str, table: str) -> bytes:
        """This person's box secret at ``table`` of ``host``: made and kept the first time, the same after."""
        data = self._read(host)
        kept = data.setdefault("boxes", {}).get(table)
        if isinstance(kept, str) and len(bytes.fromhex(kept)) == SECRET_BYTES:
            return bytes.fromhex(kept)
        made = secrets.token_bytes(SECRET_BYTES)
        data["boxes"][table] = made.hex()
        self._write(host, data)
        return made

    def _hand(self, data: dict[str, Any], table: str, hand: int) -> dict[str, Any]:
        hands = data.setdefault("hands", {})
        key = f"{table} {hand}"
        if key not in hands:
            hands[key] = {"secret": secrets.token_bytes(SECRET_BYTES).hex(), "keys": {}}
            while len(hands) > KEPT_HANDS:
                del hands[next(iter(hands))]
        entry: dict[str, Any] = hands[key]
        return entry

    def hand_secret(self, host: str, table: str, hand: int) -> bytes:
        """This person's secret for one hand: drawn and written down before it is first used, the same after."""
        data = self._read(host)
        before = json.dumps(data, sort_keys=True)
        entry = self._hand(data, table, hand)
        if json.dumps(data, sort_keys=True) != before:
            self._write(host, data)
        return bytes.fromhex(entry["secret"])

    def keep(self, host: str, table: str, hand: int, keys: dict[tuple[int, int], int]) -> None:
        """Card keys received for a hand, (seat, place) → key, added to those kept."""
        data = self._read(host)
        entry = self._hand(data, table, hand)
        entry["keys"].update({f"{seat} {place}": f"{key:064x}" for (seat, place), key in keys.items()})
        self._write(host, data)

    def keys(self, host: str, table: str, hand: int) -> dict[tuple[int, int], int]:
        """The card keys kept for a hand."""
        entry = self._read(host).get("hands", {}).get(f"{table} {hand}", {})
        found: dict[tuple[int, int], int] = {}
        for name, value in entry.get("keys", {}).items():
            seat, place = name.split()
            found[int(seat), int(place)] = int(value, 16)
        return found

    def forget(self, host: str, table: str, hand: int) -> None:
        """A hand that ended: its secrets are no longer needed, and are dropped."""
        data = self._read(host)
        if data.get("hands", {}).pop(f"{table} {hand}", None) is not None:
            self._write(host, data)
