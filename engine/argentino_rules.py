"""Truco argentino's rules data: options, the card ranking, and the words players say.

The actions are built once here and shared, so listing legal actions allocates little:
the engine's hot path is a few list operations on these constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cardtui.engine.cards import Card, spanish_deck
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn
from cardtui.engine.envido import NEXT, Call, Unsuited
from cardtui.engine.signals import SIGNAL
from cardtui.engine.tricks import strength_table

if TYPE_CHECKING:
    from cardtui.engine.truco_argentino import ArgentinoState

DECK = tuple(spanish_deck())


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def _rank(ranks: str, exclude: str = "") -> list[Card]:
    skip = set(_cards(exclude))
    return [c for c in DECK if str(c.rank) in ranks.split() and c not in skip]


RANK = strength_table(
    [
        _cards("1e"),
        _cards("1b"),
        _cards("7e"),
        _cards("7o"),
        _rank("3"),
        _rank("2"),
        _rank("1", "1e 1b"),
        _rank("12"),
        _rank("11"),
        _rank("10"),
        _rank("7", "7e 7o"),
        _rank("6"),
        _rank("5"),
        _rank("4"),
    ]
)
"""Card → strength: 1e, 1b, 7e, 7o, then 3, 2, 1, 12, 11, 10, 7, 6, 5, 4 (suits tie)."""


class Ties(StrEnum):
    SEED = "seed"
    TRADITIONAL = "traditional"


class FlorCall(StrEnum):
    """What is said in the flor (``engine.argentino_flor``), besides quiero and no quiero."""

    FLOR = "flor"
    ACHICO = "con_flor_me_achico"
    CONTRA = "contra_flor"
    RESTO = "contra_flor_al_resto"


LABELS = {
    "play": "Juego",
    "truco": "Truco",
    "retruco": "Retruco",
    "vale_cuatro": "Vale cuatro",
    "quiero": "Quiero",
    "no_quiero": "No quiero",
    "envido": "Envido",
    "real_envido": "Real envido",
    "falta_envido": "Falta envido",
    "announce": "Tengo",
    "son_buenas": "Son buenas",
    "flor": "Flor",
    "con_flor_me_achico": "Con flor me achico",
    "contra_flor": "Contra flor",
    "contra_flor_al_resto": "Contra flor al resto",
    "mazo": "Me voy al mazo",
    SIGNAL: "Seña",
}
"""Each action type and the words a player says for it."""

TRUCO_NAMES = ("", "truco", "retruco", "vale cuatro")
TRUCO_CALLS = {1: Action("truco"), 2: Action("retruco"), 3: Action("vale_cuatro")}
TRUCO_LEVEL = {"truco": 1, "retruco": 2, "vale_cuatro": 3}
YES: Mapping[str, Any] = {"accept": True}
NO: Mapping[str, Any] = {"accept": False}
"""The data of every quiero and no quiero event, shared: events are read, never changed."""
QUIERO = Action("quiero")
NO_QUIERO = Action("no_quiero")
SON_BUENAS = Action("son_buenas")
MAZO = Action("mazo")
ANNOUNCE = tuple(Action("announce", amount=k) for k in range(40))
PLAY = {c: Action("play", cards=(c,)) for c in DECK}
PLAY_AT = tuple(PLAY[c] for c in DECK)
"""The play actions by position in ``DECK``: the deal looks them up without hashing cards."""
NOTE_AT = tuple(str(c) for c in DECK)
NOTE = dict(zip(DECK, NOTE_AT, strict=True))
"""Card → notation, keyed by the very cards dealt (a lookup that finds them by identity)."""
ENVIDO_CALLS: dict[tuple[Call, ...], tuple[Action, ...]] = {
    calls: tuple(Action(c.value) for c in nxt) for calls, nxt in NEXT.items()
}
"""The envido calls that may follow a sequence of calls (none after Falta Envido)."""
ENVIDO_WORDS = {c.value: c for c in Call}
FLOR = Action(FlorCall.FLOR.value)
ACHICO = Action(FlorCall.ACHICO.value)
FLOR_CALLS = {c.value: c for c in FlorCall}
FLOR_ANSWERS = {
    FlorCall.FLOR: (ACHICO, Action(FlorCall.CONTRA.value), Action(FlorCall.RESTO.value)),
    FlorCall.CONTRA: (QUIERO, NO_QUIERO, Action(FlorCall.RESTO.value)),
    FlorCall.RESTO: (QUIERO, NO_QUIERO),
}
"""What a holder of a flor may answer to the last flor call."""


@dataclass(frozen=True, slots=True)
class ArgentinoOptions:
    target: int = 30
    """Points to win: 30 (malas and buenas) or 15."""
    ties: Ties = Ties.SEED
    envido_unsuited: Unsuited = Unsuited.SUM_TWO
    pica_pica: bool = True
    """Six players only: alternate a 3v3 round with three 1v1s."""
    flor: bool = False
    """Flor as in ``engine.argentino_flor``; off is *sin flor*, as the seed plays."""
    signals_seen: float = 0.25
    """The chance that each opponent catches a signal."""

    def __post_init__(self) -> None:
        if self.target not in (15, 30):
            raise InvalidOptions("Truco argentino is played to 15 or to 30 points.")
        if not 0.0 <= self.signals_seen <= 1.0:
            raise InvalidOptions("The chance of catching a signal must be between 0 and 1.")

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "ties": self.ties.value,
            "envido_unsuited": self.envido_unsuited.value,
            "pica_pica": self.pica_pica,
            "flor": self.flor,
            "signals_seen": self.signals_seen,
        }


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("on", "true", "yes", "1"):
        return True
    if str(value).lower() in ("off", "false", "no", "0"):
        return False
    raise InvalidOptions(f"The option {name} is on or off, not {value!r}.")


def read_options(raw: Mapping[str, Any]) -> ArgentinoOptions:
    """Validate options from a person or a file; unknown keys are refused."""
    known = {"target", "ties", "envido_unsuited", "pica_pica", "flor", "signals_seen"}
    unknown = set(raw) - known
    if unknown:
        raise InvalidOptions(f"Truco argentino has no option {sorted(unknown)[0]!r}.")
    try:
        return ArgentinoOptions(
            target=int(raw.get("target", 30)),
            ties=Ties(str(raw.get("ties", "seed"))),
            envido_unsuited=Unsuited(str(raw.get("envido_unsuited", "sum_two"))),
            pica_pica=_flag(raw.get("pica_pica", True), "pica_pica"),
            flor=_flag(raw.get("flor", False), "flor"),
            signals_seen=float(raw.get("signals_seen", 0.25)),
        )
    except InvalidOptions:
        raise
    except (TypeError, ValueError):
        raise InvalidOptions(
            "Options: target 15 or 30; ties seed or traditional; envido_unsuited sum_two or highest; "
            "pica_pica and flor on or off; signals_seen a number from 0 to 1."
        ) from None


def score_text(score: int, target: int) -> str:
    """Scores to 30 are told in malas (0–15) and buenas (16–30)."""
    if target != 30:
        return str(score)
    if score <= 15:
        return f"{score} mala{'' if score == 1 else 's'}"
    return f"{score - 15} buena{'' if score == 16 else 's'}"


def refusal(st: ArgentinoState, seat: int, action: Action) -> IllegalAction:
    """Why an action is refused, as a sentence for the player."""
    t = action.type
    if t not in LABELS:
        return IllegalAction(f"{t!r} is not an action in truco argentino.")
    if not st.live[seat]:
        return NotYourTurn("You are not playing this round.")
    if t in FLOR_CALLS and not st.options.flor:
        return IllegalAction("This table plays sin flor.")
    if st.f_pending >= 0:
        if seat & 1 == st.f_pending:
            return NotYourTurn("Your team's flor call is waiting for an answer.")
        if st.flor[seat] < 0:
            return NotYourTurn("Only a player holding a flor answers a flor.")
        return IllegalAction("Answer the flor first.")
    if t == "flor":
        return _flor_refusal(st, seat)
    if st.owes[seat] and not st.f_done and (t == "play" or (t in _ENVIDO_WORDS and (st.ann or st.e_pending >= 0))):
        return IllegalAction("Sing your flor first: it comes before your first card, and instead of the envido.")
    if st.ann:
        if t == "announce" and seat == st.ann[0]:
            return IllegalAction("Announce your true envido, or say son buenas if you cannot win it.")
        return NotYourTurn(f"{st.names[st.ann[0]]} is announcing the envido now.")
    if st.e_pending >= 0 or st.t_pending >= 0:
        pending = st.e_pending if st.e_pending >= 0 else st.t_pending
        if seat & 1 == pending:
            return NotYourTurn("Your team's call is waiting for an answer.")
        return IllegalAction("Answer the call first: quiero, no quiero, or raise it.")
    if t == "play":
        if seat != st.to_play[0]:
            return NotYourTurn(f"It is {st.names[st.to_play[0]]}'s turn to play.")
        return IllegalAction("You do not hold that card.")
    if t in TRUCO_LEVEL:
        if st.level >= 3:
            return IllegalAction("Vale cuatro is the highest bet; there is nothing above it.")
        if st.owner >= 0 and st.owner != seat & 1:
            return IllegalAction("Only the team that accepted the last bet may raise it.")
        return IllegalAction(f"The next bet is {TRUCO_NAMES[st.level + 1]}.")
    if t in ("envido", "real_envido", "falta_envido"):
        if st.e_done or st.e_calls:
            return IllegalAction("The envido has already been played this round.")
        if st.level:
            return IllegalAction("Envido cannot be called once a truco has been accepted.")
        return IllegalAction("Envido is called in the first trick, before you play your card.")
    if t in ("quiero", "no_quiero"):
        return IllegalAction("There is no call to answer.")
    if t in FLOR_CALLS:
        return IllegalAction(f"{LABELS[t]} answers a flor, and no flor awaits an answer.")
    return IllegalAction(f"You cannot say {LABELS[t]!r} now.")


_ENVIDO_WORDS = frozenset({"announce", "son_buenas", "quiero", "no_quiero", "envido", "real_envido", "falta_envido"})


def _flor_refusal(st: ArgentinoState, seat: int) -> IllegalAction:
    if st.flor[seat] < 0:
        return IllegalAction("You have no flor: a flor is three cards of one suit.")
    if seat in st.f_sung:
        return IllegalAction("You have already sung your flor.")
    if st.f_done:
        return IllegalAction("The flor has already been played this round.")
    if st.played0[seat]:
        return IllegalAction("A flor is sung before your first card.")
    if st.e_pending >= 0 or st.t_pending >= 0:
        return NotYourTurn("Your team's call is waiting for an answer; sing your flor after it.")
    if st.ann:
        return NotYourTurn(f"{st.names[st.ann[0]]} is announcing the envido; sing your flor after it.")
    return IllegalAction("A flor cannot be sung now.")
