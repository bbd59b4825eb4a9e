"""Truco paulista's rules data: options, the card ranking, the words said, refusals, and the view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cardtui.engine.cards import Card, french_deck
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn
from cardtui.engine.signals import SIGNAL
from cardtui.engine.tricks import TrickView, note, notes, strength_table

if TYPE_CHECKING:
    from cardtui.engine.truco_paulista import PaulistaState

DECK = tuple(french_deck(ranks=(1, 2, 3, 4, 5, 6, 7, 11, 12, 13)))
"""40 cards: the French deck less 8, 9 and 10."""
TARGET = 12


def _rank(rank: int, exclude: tuple[str, ...] = ()) -> list[Card]:
    return [c for c in DECK if c.rank == rank and str(c) not in exclude]


_MANILHAS = ("4C", "7H", "AS", "7D")
RANK = strength_table(
    [
        *([Card.parse(m)] for m in _MANILHAS),
        _rank(3),
        _rank(2),
        _rank(1, _MANILHAS),
        _rank(13),
        _rank(11),
        _rank(12),
        _rank(7, _MANILHAS),
        _rank(6),
        _rank(5),
        _rank(4, _MANILHAS),
    ]
)
"""Card → strength: 4C, 7H, AS, 7D, then 3, 2, A, K, J, Q, 7, 6, 5, 4 (suits tie)."""


class TrucoDecides(StrEnum):
    TRICK = "trick"
    """Once a truco is accepted, the trick being played decides the hand (seed 000)."""
    HAND = "hand"
    """Best of three tricks as usual."""


class Chat(StrEnum):
    SPECTATORS_AND_BETWEEN_HANDS = "spectators-and-between-hands"
    ALWAYS = "always"


LABELS = {
    "keep": "Fico",
    "pass_cards": "Passo pro parceiro",
    "reject": "Rejeito",
    "play": "Jogo",
    "play_down": "Jogo coberta",
    "play_blind": "Viro",
    "truco": "Truco!",
    "seis": "Seis!",
    "nove": "Nove!",
    "doze": "Doze!",
    "accept": "Aceito",
    "run": "Corro",
    SIGNAL: "Sinal",
}
"""Each action type and the words a player says for it."""

STAKES = (1, 3, 6, 9, 12)
CALL_OF = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}
VALUE_OF = {name: value for value, name in CALL_OF.items()}
CALLS = {v: Action(name) for v, name in CALL_OF.items()}
KEEP = Action("keep")
PASS_CARDS = Action("pass_cards")
REJECT = Action("reject")
ACCEPT = Action("accept")
RUN = Action("run")
PLAY = {c: Action("play", cards=(c,)) for c in DECK}
PLAY_DOWN = {c: Action("play_down", cards=(c,)) for c in DECK}
PLAY_BLIND = tuple(Action("play_blind", amount=i) for i in range(4))
"""Mão de ferro: the first, second or third of one's unseen cards (amount 1–3)."""


def previous_stake(value: int) -> int:
    return STAKES[STAKES.index(value) - 1]


def next_stake(value: int) -> int:
    return STAKES[STAKES.index(value) + 1]


@dataclass(frozen=True, slots=True)
class PaulistaOptions:
    truco_decides: TrucoDecides = TrucoDecides.TRICK
    chat: Chat = Chat.SPECTATORS_AND_BETWEEN_HANDS
    """Carried for the server: whether seated players may chat during a hand."""
    signals_seen: float = 0.25

    def __post_init__(self) -> None:
        if not 0.0 <= self.signals_seen <= 1.0:
            raise InvalidOptions("The chance of catching a signal must be between 0 and 1.")

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["truco_decides"] = self.truco_decides.value
        out["chat"] = self.chat.value
        return out


def read_options(raw: Mapping[str, Any]) -> PaulistaOptions:
    """Validate options from a person or a file; unknown keys are refused."""
    unknown = set(raw) - {"truco_decides", "chat", "signals_seen"}
    if unknown:
        raise InvalidOptions(f"Truco paulista has no option {sorted(unknown)[0]!r}.")
    try:
        return PaulistaOptions(
            truco_decides=TrucoDecides(str(raw.get("truco_decides", "trick"))),
            chat=Chat(str(raw.get("chat", Chat.SPECTATORS_AND_BETWEEN_HANDS.value))),
            signals_seen=float(raw.get("signals_seen", 0.25)),
        )
    except InvalidOptions:
        raise
    except (TypeError, ValueError):
        raise InvalidOptions(
            "Options: truco_decides trick or hand; chat spectators-and-between-hands or always; "
            "signals_seen a number from 0 to 1."
        ) from None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    team: int
    cards: tuple[str | None, ...]
    """Cards this viewer may see; None for each card face down to them."""


@dataclass(frozen=True, slots=True)
class PaulistaView:
    game: str
    hand: int
    you: int | None
    to_act: tuple[int, ...]
    hand_over: bool
    match_over: bool
    result: Mapping[str, Any] | None
    seats: tuple[SeatView, ...]
    dealer: int
    mao: int
    phase: str
    """deal (the mão keeps, passes or rejects), onze (the team on 11 decides), play, over."""
    scores: tuple[int, int]
    stake: int
    pending: tuple[int, int] | None
    """A truco call awaiting its answer: (calling team, value proposed)."""
    raise_team: int | None
    tricks: tuple[TrickView, ...]
    trick: tuple[tuple[int, str], ...]
    turn: int | None
    rejected: tuple[str, ...]
    onze: int | None
    """The team playing a mão de onze."""
    ferro: bool
    passed: bool
    rejects: int
    signals: tuple[tuple[int, str], ...]
    chat: str
    options: Mapping[str, Any]


def refusal(st: PaulistaState, seat: int, action: Action) -> IllegalAction:
    """Why an action is refused, as a sentence for the player."""
    t = action.type
    if t not in LABELS:
        return IllegalAction(f"{t!r} is not an action in truco paulista.")
    if st.phase == "deal":
        if seat != st.mao:
            return NotYourTurn(f"{st.names[st.mao]} is choosing whether to keep the cards.")
        if t == "pass_cards":
            return IllegalAction("The cards have been passed once already: keep or reject.")
        if t == "reject":
            return IllegalAction("Three hands have been rejected already: keep this one.")
        return IllegalAction("Keep the cards, pass them to your partner, or reject them.")
    if st.phase == "onze":
        return NotYourTurn("The team on 11 decides whether to play the mão de onze.")
    if st.pending >= 0:
        if seat & 1 == st.pending:
            return NotYourTurn("Your team's call is waiting for an answer.")
        if t in VALUE_OF:
            return IllegalAction("You may not raise past what your team needs to win.")
        return IllegalAction("Answer the call first: accept, run, or raise.")
    if seat != st.to_play[0]:
        return NotYourTurn(f"It is {st.names[st.to_play[0]]}'s turn.")
    if t in VALUE_OF:
        if st.onze >= 0 or st.ferro:
            return IllegalAction("There is no truco in a mão de onze or a mão de ferro.")
        return IllegalAction(f"You cannot call {LABELS[t]} now.")
    if t == "play_down" and not st.results:
        return IllegalAction("A card may be played face down only on the second and third tricks.")
    if st.ferro:
        return IllegalAction("In a mão de ferro the cards are played blind: choose one by position.")
    return IllegalAction("You do not hold that card.")


def build_view(st: PaulistaState, seat: int | None, to_act: tuple[int, ...], over: bool) -> PaulistaView:
    """Own cards only; the partner's too in a mão de onze; none at all in a mão de ferro."""
    seats = []
    for s in range(4):
        visible = (
            seat is not None
            and not st.ferro
            and (s == seat or (st.onze >= 0 and s & 1 == st.onze and seat & 1 == st.onze))
        )
        cards = tuple(notes(st.hands[s])) if visible else (None,) * len(st.hands[s])
        seats.append(SeatView(s, st.names[s], s & 1, cards))
    playing = st.result is None
    return PaulistaView(
        game="truco_paulista",
        hand=st.hand_no,
        you=seat,
        to_act=to_act,
        hand_over=not playing,
        match_over=over,
        result=st.result,
        seats=tuple(seats),
        dealer=st.dealer,
        mao=st.mao,
        phase=st.phase,
        scores=(st.scores[0], st.scores[1]),
        stake=st.stake,
        pending=(st.pending, st.proposed) if st.pending >= 0 else None,
        raise_team=st.owner if st.owner >= 0 else None,
        tricks=tuple(
            TrickView(tuple((s, "down" if c is None else note(c)) for s, c in plays), w) for plays, w in st.trick_plays
        ),
        trick=tuple((s, "down" if d else note(c)) for s, c, d in st.trick),
        turn=st.to_play[0] if playing and st.phase == "play" and st.to_play else None,
        rejected=tuple(notes(st.rejected)),
        onze=st.onze if st.onze >= 0 else None,
        ferro=st.ferro,
        passed=st.passed,
        rejects=st.rejects,
        signals=tuple((f, name) for f, name, who in st.signals if seat is not None and seat in who),
        chat=st.options.chat.value,
        options=st.options_dict,
    )
