"""Deals anyone can verify, on the engine's side: seeds, hand histories, the chain, ``verify``.

The scheme itself (the deal seed, its commitment, the HMAC-SHA256 stream and the packs)
is ``cardtui.fair``, shared with the client; the specification is ``docs/deal.md``. Here: what
a game deals a hand from (``hand_rng``: a plain seed for simulations and tests, as before,
or a ``DealSeed``), what the hand history records of it (``fair`` and ``prev``), and
``verify``, which checks stored histories with the engine's own replay.

Pure: no I/O, no clock. Whoever draws the server seed (the server, from ``secrets``) and
stores histories in order (``linked``) lives elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any, Protocol

from cardtui.engine.options import OptionSpec
from cardtui.fair import SCHEME, SCHEMES, DealSeed, FairRandom, commitment, stream_block
from cardtui.hashes import sha256_hex

__all__ = [
    "GENESIS", "SCHEME", "DealSeed", "FairRandom", "HandCheck", "Seed", "canonical", "chain_link", "commitment",
    "hand_hash", "hand_rng", "history_seed", "linked", "record_seed", "stream_block", "verify",
]

GENESIS = "0" * 64
"""The chain link (``prev``) of a table's first hand."""

Seed = int | DealSeed
"""What a game deals a hand from: a plain seed (simulations, tests) or a fair deal's seed."""


def hand_rng(seed: Seed) -> random.Random:
    """The generator a hand is dealt from: ``random.Random(seed)`` for a plain seed (as
    before), the deal stream for a ``DealSeed``. A plain seed's generator is made without
    ``random.Random``'s two Python frames (``__init__`` and ``seed``, which for an int only call
    the C seeding and clear ``gauss_next``): the same generator in the same state, made once a
    hand in every game, a part of a compiled hand's cost worth cutting."""
    if type(seed) is not int:
        return FairRandom(seed) if isinstance(seed, DealSeed) else random.Random(seed)
    rng: Any = _NEW_RANDOM(random.Random)
    _SEED(rng, seed)
    rng.gauss_next = None
    return rng  # type: ignore[no-any-return]


_NEW_RANDOM: Any = random.Random.__new__
_SEED: Any = random.Random.__mro__[1].__dict__["seed"]
"""The C generator's own ``seed`` (``_random.Random.seed``), which ``random.Random.seed`` calls."""


def history_seed(seed: Seed) -> int:
    """The history's ``seed`` key: the plain seed, or 0 when ``fair`` governs the deal."""
    return 0 if isinstance(seed, DealSeed) else seed


def record_seed(record: Mapping[str, Any]) -> Seed:
    """The seed a hand history (or a journal step) was dealt from: its ``fair`` deal seed
    when present, else ``seed``."""
    fair = record.get("fair")
    if fair is not None:
        return DealSeed.from_record(fair)
    return int(record["seed"])


# -- the chain ----------------------------------------------------------------------------
def canonical(record: Mapping[str, Any]) -> bytes:
    """A hand history as canonical JSON: sorted keys, no spaces, UTF-8 (docs/deal.md §13 gives
    the exact rules for strings and numbers, for readers in other languages)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


def hand_hash(record: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a stored hand history, its own ``prev`` included: the hand hash of
    docs/deal.md §13."""
    return sha256_hex(canonical(record))


def chain_link(previous: Mapping[str, Any] | None) -> str:
    """The ``prev`` of the hand after ``previous`` at its table (``GENESIS`` for the first)."""
    return GENESIS if previous is None else hand_hash(previous)


def linked(record: Mapping[str, Any], previous: Mapping[str, Any] | None) -> dict[str, Any]:
    """``record`` with its chain link, for whoever stores a table's histories in order."""
    return {**record, "prev": chain_link(previous)}


# -- verification -------------------------------------------------------------------------
class Replayed(Protocol):
    """A hand rebuilt from its history (an engine ``Match``)."""

    def hand_over(self) -> bool: ...

    def history(self) -> dict[str, Any] | None: ...


class Replayer(Protocol):
    """What ``verify`` needs of a game (every engine game, ``Rules``, has it)."""

    def replay_match(self, record: Mapping[str, Any]) -> Replayed: ...

    def check_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The options as the game reads them (a value stored under an older name, as it is
        named now), so that a history written before a rename still checks out."""
        ...

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The options the game has: any other a history names is a later version's, ignored."""
        ...


STORED_KEYS = frozenset({"table", "hand", "match", "prev", "standings", "awaited", "gone"})
"""Keys the replay of one hand does not remake: those set by whoever stores a history, and
Cacheta's ``standings`` (places over the whole match, which one hand's history cannot tell), and
``awaited`` and ``gone`` (whose seeds the deal waited for, and who of them went away before their link
came: who was connected, which no replay can tell).
The chain covers them: changing one breaks the next hand's link."""

SEAT_KEYS = frozenset({"bot", "away"})
"""Keys of a ``seats`` entry that whoever stores a history adds (who played the seat: a bot, one
standing in for a person away), which a replay of the deal and actions cannot remake; like
``STORED_KEYS`` and the top-level ``holders``, the chain covers them."""

_WHAT = {
    "deal": "the dealt cards differ from the deck these seeds make",
    "flip": "the flip differs from the deck these seeds make",
    "result": "the result differs from the replay",
    "actions": "the actions differ from the replay",
}


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The verdict on one stored hand: fair and sound, fair but failed, or a plain seed."""

    table: str
    hand: Any
    game: str
    fair: bool
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    digest: str = ""
    """The hand's hash (``hand_hash``): the next hand's ``prev``."""
    unlinked: bool = False
    """Its chain link could not be checked: the table's previous hand is not in the file."""
    seeds: str = ""
    """Whose seeds the deal used, in words ("seat 1 ana, seat 3 caio"): seats numbered from 1, as
    players and the README number them (the history's seat 0 is seat 1)."""
    dropped: tuple[str, ...] = ()
    """Seats the deal waited for (seated, connected) whose seed is not in it: the deal may have
    been chosen without them. Flagged, not failed: a seed that truly came late looks the same."""
    match: Any = None
    absent: tuple[str, ...] = ()
    """Every person seated whose seed is not in the deal (the ``dropped`` ones among them), from
    the history's seats alone: a server can empty ``awaited``, not the seats."""
    hosted: tuple[str, ...] = ()
    """Seats a bot played whose seed is in the deal: no person's, so one the host made."""
    withheld: tuple[str, ...] = ()
    """``cardtui-deal/2``: seats that pledged a link and whose link is not in the deal: whoever held it back
    (the seat, or the host) could choose between two decks."""
    away: tuple[str, ...] = ()
    """Pledged seats dealt without because, the server says, they had gone (``gone``): said, not flagged, and
    never ✔ (whoever left the link out could have chosen between two decks)."""
    void: str = ""
    """A commitment that dealt no hand (docs/history.md §2a: a ``void`` line): why, as the server said it."""

    @property
    def ok(self) -> bool:
        """Verified: the commitment, the deal, the replay and the chain check (whoever cut)."""
        return self.fair and not self.problems

    @property
    def full(self) -> bool:
        """A fair deal for everyone at the table (✔): verified, and every person seated, and nobody
        else, put a seed in it."""
        return (self.ok and not self.absent and not self.hosted and not self.withheld and not self.away
                and self.seeds not in ("", "none"))

    def line(self) -> str:
        """One line: the table's deal number (the history's ``hand``, counted across matches), labelled
        as such, since a player's screen numbers hands within the match; whose seeds went in, and who
        was seated but not in it."""
        of = f", match {self.match}" if self.match is not None else ""
        where = f"table {self.table or '?'} deal {self.hand}{of} ({self.game or '?'})"
        checks = "commitment, deal and chain check, but"
        if self.void and not self.problems:
            text = f"{where}: ○ a commitment revealed undealt ({self.void}); no player's link was given to it"
        elif self.problems:
            text = f"{where}: ✘ " + "; ".join(self.problems)
        elif not self.fair:
            text = f"{where}: plain seed: not a fair deal"
        elif self.withheld:
            text = f"{where}: ⚠ {checks} " + ", ".join(self.withheld) + (
                " pledged a link that is not in the deal: whoever held it back could choose between two decks")
        elif self.dropped:
            text = f"{where}: ⚠ {checks} the seed of " + ", ".join(self.dropped) + (
                " was not used: seated and connected, it was dropped")
        elif self.hosted:
            text = f"{where}: ⚠ {checks} the seed of " + ", ".join(self.hosted) + (
                " is the host's own: a bot played that seat")
        elif self.away:
            text = f"{where}: ○ {checks} " + ", ".join(self.away) + (
                " had gone (the server says) before its link came: dealt without it")
        elif self.seeds == "none":
            text = f"{where}: ○ {checks} no player's seed went in: the host alone chose this deck"
        elif self.absent:
            text = f"{where}: ○ {checks} not every seated player's seed is in it"
        else:
            text = f"{where}: ✔ commitment, deal and chain"
        if self.seeds and self.fair:
            text += f" (seeds used: {self.seeds}; seated, not in it: {', '.join(self.absent) or 'nobody'})"
        return text + "".join(f" ({n})" for n in self.notes)


def _known(theirs: Any, mine: Any) -> Any:
    """``theirs`` less the keys ``mine`` does not have, at every level: keys a later version added,
    which a reader ignores (docs/history.md §1). A seat's number keys an object by seat (``deal``,
    ``deltas``): that is data, never ignored; nor is an entry of a list."""
    if isinstance(theirs, Mapping) and isinstance(mine, Mapping):
        return {k: _known(v, mine.get(k)) for k, v in theirs.items() if k in mine or str(k).isdigit()}
    if isinstance(theirs, list) and isinstance(mine, list):
        return [_known(t, m) for t, m in zip_longest(theirs, mine)]
    return theirs


def _compare(replayed: Mapping[str, Any], record: Mapping[str, Any]) -> list[str]:
    problems = []
    for key in sorted(set(replayed) - STORED_KEYS):
        theirs = record.get(key)
        if key == "seats" and isinstance(theirs, list):
            theirs = [{k: v for k, v in s.items() if k not in SEAT_KEYS} if isinstance(s, Mapping) else s
                      for s in theirs]
        theirs = _known(theirs, replayed[key])
        if replayed[key] == theirs:
            continue
        if key == "deal":
            mine, theirs = replayed["deal"], record.get("deal")
            seats = [_seat(s) for s in mine if not isinstance(theirs, Mapping) or theirs.get(s) != mine[s]]
            problems.append(f"{_WHAT['deal']} (seat {', '.join(seats) or '?'})")
        else:
            problems.append(_WHAT.get(key, f"the record's {key!r} differs from the replay"))
    return problems


def _check_fair(record: Mapping[str, Any], games: Mapping[str, Replayer]) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    notes: list[str] = []
    fair = record["fair"]
    try:
        seed = DealSeed.from_record(fair)
    except ValueError as e:
        return [f"the fair record is malformed: {e}"], notes
    if fair.get("commitment") != seed.commitment:
        problems.append("the revealed server seed does not match the commitment")
    if seed.table != record.get("table") or seed.hand != record.get("hand"):
        problems.append(f"the deal seed is for table {seed.table} hand {seed.hand}, not this hand")
    seats = {s.get("seat") for s in record.get("seats", ()) if isinstance(s, Mapping)}
    strangers = [_seat(seat) for seat, _ in seed.player_seeds if seat not in seats]
    if strangers:
        problems.append(f"a seed comes from seat {', '.join(strangers)}, not at this table")
    foreign = [_seat(seat) for seat, _ in seed.pledges if seat not in seats]
    if foreign:
        problems.append(f"a pledge is named for seat {', '.join(foreign)}, not at this table")
    pledged = dict(seed.pledges)
    unfollowed = [seat for seat in seed.unfollowed()] if seed.scheme != SCHEMES[0] else []
    unnamed = [_seat(seat) for seat in unfollowed if seat not in pledged]
    unfollowed = [seat for seat in unfollowed if seat in pledged]
    if unfollowed:  # docs/deal.md §3a: a seed that is not its pledge's link could be chosen after others were seen
        problems.append(f"the seed of seat {', '.join(map(_seat, unfollowed))} is not the link its pledge named")
    if unnamed:
        problems.append(f"the seed of seat {', '.join(unnamed)} comes from a seat the commitment named no pledge"
                        " for: one that could be chosen after the others were seen")
    game = games.get(str(record.get("game")))
    if game is None:
        problems.append(f"there is no game {record.get('game')!r} to replay it")
        return problems, notes
    options = record.get("options")
    if isinstance(options, Mapping):  # an option a later version added is not this version's to read
        names = {spec.name for spec in game.option_specs}
        record = dict(record, options={k: v for k, v in options.items() if k in names})
    try:
        match = game.replay_match(record)
        replayed = match.history() if match.hand_over() else None
    except Exception as e:  # an illegal action, a card not held, a malformed entry: all a mismatch
        problems.append(f"the actions do not replay on this deck: {e}")
        return problems, notes
    if replayed is None:
        problems.append("the actions do not finish the hand")
        return problems, notes
    try:  # options are compared by what they mean: an old history may name a value as it was then
        read = dict(record, options=game.check_options(record.get("options") or {}))
    except Exception:
        read = dict(record)
    return problems + _compare(replayed, read), notes


def _seat(seat: object) -> str:
    """A seat of the history (numbered from 0) as ``verify`` says it: from 1, as players number
    seats (anything that is not a seat number, as it is)."""
    text = str(seat)
    return str(int(text) + 1) if text.isascii() and text.isdigit() else repr(text[:12])


@dataclass(frozen=True, slots=True)
class Seeds:
    """Whose seeds a hand's deal used and whose it lacks, in words, from the history alone."""

    used: str = ""
    """Every seat whose seed went in ("none": nobody's)."""
    dropped: tuple[str, ...] = ()
    """People seated that the deal waited for (``awaited``) whose seed is not in it."""
    absent: tuple[str, ...] = ()
    """Every person seated whose seed is not in it, waited for or not."""
    hosted: tuple[str, ...] = ()
    """Seats a bot played (not standing in for a person away) whose seed is in it."""
    withheld: tuple[str, ...] = ()
    """``cardtui-deal/2``: seats the commitment named a pledge for whose link is not in the deal."""
    away: tuple[str, ...] = ()
    """Of those, the ones the server says had gone before their link came (``gone``)."""


def _seeds(record: Mapping[str, Any]) -> Seeds:
    """Whose seeds the deal used, and who was seated but not in it: the seats a person held (a
    seat with no ``bot``, or whose bot stood in for the person ``away``); ``awaited`` says which of
    them the deal waited for, and a server can leave that list out or empty, so a person seated and
    missing is named whatever it says."""
    try:
        seats = {int(s["seat"]): s for s in record.get("seats", ()) if isinstance(s, Mapping)}
        used = sorted(int(seat) for seat in (record["fair"].get("player_seeds") or {}))
        awaited = {int(seat) for seat in record.get("awaited") or ()}
        pledged = sorted(int(seat) for seat in (record["fair"].get("pledges") or {}))
        gone = {int(seat) for seat in record.get("gone") or ()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return Seeds()

    def who(seat: int) -> str:
        return f"seat {seat + 1} {seats[seat].get('name', '?') if seat in seats else '?'}"

    def person(seat: int) -> bool:
        entry = seats[seat]
        return entry.get("bot") is None or entry.get("away") is True

    people = [s for s in sorted(seats) if person(s)]
    return Seeds(", ".join(who(s) for s in used) or "none",
                 tuple(who(s) for s in sorted(awaited) if s not in used and s not in gone),
                 tuple(who(s) for s in people if s not in used),
                 tuple(who(s) for s in used if s in seats and not person(s)),
                 tuple(who(s) for s in pledged if s not in used and s not in gone),
                 tuple(who(s) for s in pledged if s not in used and s in gone))


def verify(records: Iterable[Mapping[str, Any]], games: Mapping[str, Replayer]) -> list[HandCheck]:
    """Check every hand: commitment, deal seed, replayed deal and result, chain link
    (docs/deal.md §12–§13).

    Hands are taken in file order; each one's ``prev`` must be the hash of the previous hand
    of the same table in the file (``GENESIS`` for a table's hand 1). A table whose first
    hand in the file is past hand 1 is checked from there, with a note. Hands without
    ``fair`` are plain-seed hands: reported, not replayed.
    """
    last: dict[str, Mapping[str, Any]] = {}
    out = []
    dealt: dict[tuple[str, Any], str] = {}
    """Each (table, deal number) in the file, with its commitment: a number met again is a deal dealt twice."""
    links: dict[str, str] = {}
    """Every player's link of each table in the file, with where it went: a link met again was reused."""
    for record in records:
        table = str(record.get("table", ""))
        hand = record.get("hand")
        problems: list[str] = []
        notes: list[str] = []
        fair = "fair" in record
        void = record.get("void")
        with contextlib.suppress(AttributeError, TypeError):
            problems += _accounted(record, dealt, links)
        unlinked = False
        previous = last.get(table)
        if "prev" in record:
            prev = record["prev"]
            if previous is not None:
                if prev != hand_hash(previous):
                    problems.append(f"the chain link does not match the table's previous hand "
                                    f"(hand {previous.get('hand')}) in this file")
            elif prev == GENESIS and hand != 1:
                problems.append(f"it claims to be the table's first hand, but it is hand {hand}")
            elif prev != GENESIS and hand == 1:
                problems.append("the table's first hand must link to the genesis value")
            elif prev != GENESIS:
                unlinked = True
                notes.append(f"its link to hand {hand - 1 if isinstance(hand, int) else '?'} "
                             "is not checked: that hand is not in this file")
        elif fair:
            problems.append("it has no chain link (prev)")
        if fair and isinstance(void, str):
            problems += _check_void(record)
        elif fair:
            try:
                more, extra = _check_fair(record, games)
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                more, extra = [f"the record is malformed ({e})"], []
            problems += more
            notes += extra
        try:
            digest = hand_hash(record)
        except (TypeError, ValueError):
            digest = ""
        seeds = _seeds(record) if fair else Seeds()
        out.append(HandCheck(table, hand, str(record.get("game", "")), fair, tuple(problems), tuple(notes), digest,
                             unlinked, seeds.used, seeds.dropped, record.get("match"), seeds.absent, seeds.hosted,
                             seeds.withheld, seeds.away, void if isinstance(void, str) else ""))
        last[table] = record
    return out


def _accounted(record: Mapping[str, Any], dealt: dict[tuple[str, Any], str], links: dict[str, str]) -> list[str]:
    """Every commitment in a file accounted for (docs/deal.md §12): each deal number of a table in one line only,
    each player's link in one commitment of its table only, no seed at a seat the server says had gone. A line
    that breaks one is failed, whatever its own deal shows: a host that deals a number twice, or takes a link to
    two commitments, had two decks to choose from."""
    problems: list[str] = []
    fair = record.get("fair")
    if not isinstance(fair, Mapping):
        return problems
    table, hand = str(record.get("table", "")), record.get("hand")
    where = f"table {table or '?'} deal {hand}"
    commitment = str(fair.get("commitment", ""))
    if (table, hand) in dealt:
        other = dealt[table, hand]
        problems.append(f"deal {hand} of this table is in the file twice" + (
            ": two commitments for one deal number, so the host had two decks to choose from"
            if other != commitment else ""))
    else:
        dealt[table, hand] = commitment
    seeds = fair.get("player_seeds") or {}
    for seat, link in sorted(seeds.items()):
        key = f"{table}\n{str(link).lower()}"  # (a table's links: each of its seats' chains is its own)
        if key in links:
            problems.append(f"the link at seat {_seat(seat)} was given before ({links[key]}): a link reused, so the"
                            " host knew it before it committed")
        else:
            links[key] = f"{where}, seat {_seat(seat)}"
    gone = {str(s) for s in record.get("gone") or ()}
    both = sorted(s for s in seeds if str(s) in gone)
    if both:
        problems.append(f"seat {', '.join(map(_seat, both))} is said to have gone before its link came, yet its"
                        " link is in the deal")
    return problems


def _check_void(record: Mapping[str, Any]) -> list[str]:
    """A commitment that dealt no hand (a ``void`` line, docs/history.md §2a): its seeds must match its
    commitment, and a link given to it is named: the host saw that deck and dealt none of it, so the file cannot
    show that the deal after it was not chosen."""
    fair = record["fair"]
    try:
        seed = DealSeed.from_record(fair)
    except ValueError as e:
        return [f"the fair record is malformed: {e}"]
    problems = []
    if fair.get("commitment") != seed.commitment:
        problems.append("the revealed server seed does not match the commitment")
    given = [_seat(s) for s, _ in seed.player_seeds]
    if given:
        problems.append(f"a commitment that dealt no hand ({record['void']}) took the link of seat"
                        f" {', '.join(given)}: the host saw that deck and dealt none of it, so it could choose the"
                        " next")
    return problems
