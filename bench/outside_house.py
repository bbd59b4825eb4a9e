"""Our bots in MiniTruco's own house: its referee deals, asks and scores, and its bots play as they do there.

``bench/outside_truco.py`` brings MiniTruco's strategies to our table (a bridge: our referee, their decisions).
This module does the other thing: cardtui's bot sits in MiniTruco's ``PartidaLocal`` (its *manilha velha* mode),
beside and against MiniTruco's own ``JogadorBot``s, through a ``Jogador`` of ours (``bench/outside/
MiniTrucoHouse.java``) that tells this process, one line a decision, everything MiniTruco's referee told that seat:
its cards, each card played, each trick's result, each call and who accepted or refused it, a partner's cards in a
mão de 11, the scores. Here that becomes the seat's ``TrucoView`` and its legal actions as MiniTruco allows them
(no pass or rejection of the deal, no signals, no raise given as an answer, a card face down only from the second
trick and not after one's partner's in the same trick), our bot decides, and the answer goes back. So nothing of
MiniTruco's rules is ours to get wrong: who is asked a call and in what order (both partners; the team runs only
when both refuse), the mão de 11, the ties, the scores are its own.

Each deal is played twice with the teams in each other's places (MiniTruco's ``Baralho`` seeded alike, so each hand
of the match deals the same cards to the same places). MiniTruco's bots think for a second or two before answering a
call, as they do for a person, so many matches are played at once (``parallel``); the strategies' doubts are seeded
by the situation (as ``bench/outside_truco.py`` seeds them), so a deal played again plays the same.

``python -m bench.outside_house gasparotto --deals 200 --seed 606`` (``sellani`` the other; ``--player`` another of
ours, or ``module:function``). Needs ``CARDTUI_MINITRUCO``, ``java`` and ``javac`` as ``bench.outside_truco`` does.

``--answers once`` makes our team's first answer final (its partner repeats a refusal), as at our table, and
``--log FILE`` writes every line MiniTruco's side sent (the deals, every decision of its bots and of ours, with our
answers): where the points of a run came from can be read from it.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bench.outside_truco import ENV, missing
from cardtui.arena import Timing
from cardtui.engine.bots.players import Policy
from cardtui.engine.cards import Card, Suit
from cardtui.engine.core import Action
from cardtui.engine.games import player, remembers
from cardtui.engine.truco.bots import search as truco_search
from cardtui.engine.truco.bots.sim import MINITRUCO
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.rules import ACCEPT, CALLS, PLAY, PLAY_DOWN, RUN
from cardtui.engine.truco.paulista.view import STAKES
from cardtui.engine.truco.views import (
    PaulistaPart,
    PaulistaPhase,
    TrucoCall,
    TrucoPlay,
    TrucoRules,
    TrucoSeat,
    TrucoTrick,
    TrucoView,
)
from cardtui.sim import WinRate

HOUSE = Path(__file__).parent / "outside" / "MiniTrucoHouse.java"
DRIVER = Path(__file__).parent / "outside" / "MiniTrucoDriver.java"
STRATEGIES = {"gasparotto": "G", "sellani": "S"}
GAME = "truco_paulista"
"""Our game the house's is played as: its players and its bots' memory of a match come from its entry."""
_SUIT = {"c": Suit.HEARTS, "o": Suit.DIAMONDS, "e": Suit.SPADES, "p": Suit.CLUBS}
_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13}
_WORD = {3: Word.TRUCO, 6: Word.SEIS, 9: Word.NOVE, 12: Word.DOZE}
_LEVEL = {1: 0, 3: 1, 6: 2, 9: 3, 12: 4}
PARALLEL = 24
"""Matches in play at once: MiniTruco's bots sleep a second or two before each answer to a call, and our bot's
decisions take milliseconds, so the matches wait on the bots' sleep, not on a core."""


def card(text: str) -> Card:
    """A card in MiniTruco's notation ("4p", "Ae", "7c") as ours."""
    return Card.of(_FACE.get(text[0]) or int(text[0]), _SUIT[text[1]])


_LETTER = {v: k for k, v in _FACE.items()}
_SUIT_LETTER = {v: k for k, v in _SUIT.items()}


def minitruco(c: Card) -> str:
    """Our card in MiniTruco's notation."""
    return f"{_LETTER.get(c.rank, str(c.rank))}{_SUIT_LETTER[c.suit]}"


@dataclass(frozen=True)
class Told:
    """What MiniTruco's referee told one of our seats, as the house sends it (positions 1 to 4 as MiniTruco
    numbers them: our seat is the position less one, and MiniTruco's team 1, positions 1 and 3, is our team 0)."""

    raw: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.raw["kind"])

    @property
    def seat(self) -> int:
        return int(self.raw["you"]) - 1


def view_of(told: Told) -> tuple[TrucoView, list[Action]]:
    """The seat's view and its legal actions, from what it was told (see the module)."""
    r = told.raw
    you = told.seat
    team = you & 1
    partner = (you + 2) % 4
    scores = (int(r["scores"][0]), int(r["scores"][1]))
    mao = int(r["opener"]) - 1
    on11 = [t for t in (0, 1) if scores[t] == 11]
    onze_team = on11[0] if len(on11) == 1 else None
    mine = tuple(card(c) for c in r["cards"])
    finished = [str(t).split() for t in r["tricks"]]
    by_trick: list[list[TrucoPlay]] = [[] for _ in range(len(finished) + 1)]
    played: dict[int, int] = {s: 0 for s in range(4)}
    partner_played: list[Card] = []
    for entry in r["plays"]:
        number, pos, face = str(entry).split()
        seat = int(pos) - 1
        played[seat] += 1
        if face.startswith("xx"):
            shown = card(face[3:]) if ":" in face else None
            play = TrucoPlay(seat, shown, True, False)
        else:
            play = TrucoPlay(seat, card(face), False, False)
            if seat == partner:
                partner_played.append(play.card)  # type: ignore[arg-type]
        by_trick[int(number) - 1].append(play)
    tricks = []
    for i, (result, winner) in enumerate(finished):
        res = int(result)
        tricks.append(TrucoTrick(tuple(by_trick[i]), None if res == 3 else int(winner) - 1,
                                 None if res == 3 else res - 1))
    partner_cards = tuple(c for c in (card(x) for x in r["partner_cards"]) if c not in partner_played)
    seats = []
    for s in range(4):
        shown = mine if s == you else partner_cards if s == partner and onze_team == team else ()
        seats.append(TrucoSeat(s, f"p{s}", s & 1, shown, 3 - played[s], True, False, None))
    stake = int(r["stake"])
    onze_played = onze_team is not None and told.kind != "onze"
    level = 0 if onze_played else _LEVEL.get(stake, 0)
    accepted = [str(c)[1:].split() for c in r["calls"] if str(c).startswith("+")]
    owner = (int(accepted[-1][0]) - 1) & 1 if accepted else -1
    pending_pos = int(r["pending"])
    permits = max(scores) < 11
    pending = None
    if pending_pos:
        caller = pending_pos - 1
        asked = [str(c).split() for c in r["calls"] if str(c)[0].isdigit()]
        value = int(asked[-1][1])
        rung = [s.value for s in STAKES].index(value)
        pending = TrucoCall(Bet.TRUCO, _WORD[value], caller, caller & 1, 1 - (caller & 1), value,
                            STAKES[rung].refused, ())
        raisers: tuple[int, ...] = ()
    elif not permits or onze_team is not None:
        raisers = ()
    elif level == 0:
        raisers = (0, 1)
    else:
        raisers = (owner,) if stake < 12 and owner >= 0 else ()
    nxt = int(r["next"])
    kind = told.kind
    # Whose card the trick waits for: ours at our turn; while a call waits, the caller's (MiniTruco calls only
    # on one's turn), which says who leads an empty trick (after a tie, MiniTruco's trick opener leads again).
    turn = you if kind == "turn" else pending.seat if pending is not None and kind == "answer" else None
    if kind == "turn":
        to_act: tuple[int, ...] = (you,)
    else:
        to_act = (you, partner) if r.get("partner_to_answer") else (you,)
    part = PaulistaPart(
        phase=PaulistaPhase.ONZE if kind == "onze" else PaulistaPhase.PLAY, mao=mao, passed=False, may_pass=False,
        rejects_left=0, rejected=(), onze_team=onze_team, ferro=False, trick_decides=False, call_decides=False)
    your_raise = STAKES[len(accepted)] if kind == "turn" and nxt and len(accepted) < len(STAKES) else None
    view = TrucoView(
        hand=int(r["hand"]), dealer=(mao + 3) % 4, you=you, to_act=to_act, hand_over=False, match_over=False,
        seats=tuple(seats), cards=mine, turn=turn, tricks=tuple(tricks), trick=tuple(by_trick[len(finished)]),
        scores=scores, target=12, stake=3 if onze_played else stake, ladder=STAKES, level=level, raisers=raisers,
        your_raise=your_raise, pending=pending, signals=(), result=None, paulista=part, argentino=None,
        rules=TrucoRules.PAULISTA)
    if kind == "turn":
        legal = [PLAY[c] for c in mine]
        if r["down"]:
            legal += [PLAY_DOWN[c] for c in mine]
        if nxt and nxt in _WORD:
            legal.append(CALLS[_WORD[nxt]])
    else:
        legal = [ACCEPT, RUN]
    return view, legal


def word(action: Action) -> str:
    """Our action as the house's answer."""
    t = action.type
    if t == "play":
        return f"play {minitruco(action.cards[0])}"
    if t == "play_down":
        return f"down {minitruco(action.cards[0])}"
    if t in ("truco", "seis", "nove", "doze"):
        return "call"
    if t in ("accept", "run"):
        return t
    raise ValueError(f"MiniTruco's house has no move {t!r}")


def seed_of(text: str, salt: int) -> int:
    """A decision's seed: the situation told (the match's number left out) mixed with the run's seed, so that one
    situation decides alike in the two matches of a deal and in a run played again."""
    return int.from_bytes(hashlib.blake2b(f"{salt} {text}".encode(), digest_size=8).digest(), "big")


@dataclass
class HouseResult:
    strategy: str
    player: str
    deals: int
    seed: int
    answers: str
    told: bool = True
    wins: int = 0
    matches: int = 0
    unfinished: int = 0
    hands: int = 0
    points: list[float] = field(default_factory=list)
    """Per deal: our points per hand less theirs, the mean over its two matches."""
    times: Timing = field(default_factory=Timing)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    read: list[tuple[int, float, float, bool]] = field(default_factory=list)
    """Every answer to our calls our bot read (``Memories.seen``)."""
    by_top: int = 0
    """Matches that ended with the other team read by the best-card model (``search.AnswerRead``)."""

    @property
    def rate(self) -> WinRate:
        return WinRate(self.wins, self.matches)

    def lines(self) -> list[str]:
        lo, hi = self.rate.interval
        name = {v: k for k, v in STRATEGIES.items()}[self.strategy]
        out = [f"MiniTruco's house (PartidaLocal, manilha velha): {self.player} vs {name}, {self.deals} deals, "
               f"seed {self.seed}, answers {self.answers}" + ("" if self.told else ", not told the house's rules"),
               f"  {self.player} wins {self.wins} of {self.matches} matches: {self.rate.rate:.1%} (95% CI {lo:.1%}–"
               f"{hi:.1%})" + (f", {self.unfinished} unfinished" if self.unfinished else ""),
               f"  {self.hands / max(1, self.matches + self.unfinished):.1f} hands a match; decision time: "
               + self.times.line(self.player),
               f"  {self.seconds:.0f} s"]
        if self.read:
            took = sum(1 for *_, a in self.read if a)
            out.append(f"  answers to our calls read: {len(self.read)}, {took} accepted; "
                       f"{self.by_top} matches ended reading the other team by its best card")
        out += [f"  failure: {f}" for f in self.failures[:5]]
        return out


def _takes_referee(policy: Policy) -> bool:
    """Whether ``policy`` can be told the table's referee (``truco.bots.sim.Referee``): truco's hard can."""
    if policy is truco_search.hard:
        return True
    try:
        return "referee" in inspect.signature(policy).parameters
    except (TypeError, ValueError):
        return False


@dataclass
class Memories:
    """Each of our seats' memory of its match (``search.TrucoMemory``), kept as a table keeps it
    (``engine.core.Bound``): from what that seat was told, nothing more. The seat is told only at its own
    decisions: it sees the answer to its call there (the same hand, the rung risen: accepted; a new hand:
    refused), as it sees it at a table after the answer."""

    minds: dict[tuple[int, int], truco_search.TrucoMemory] = field(default_factory=dict)
    seen: list[tuple[int, float, float, bool]] = field(default_factory=list)
    """Every answer read: the match, each model's chance of an acceptance, whether it was accepted."""

    def memory(self, match: int, seat: int, view: TrucoView) -> truco_search.TrucoMemory:
        """The seat's memory as it decides, having seen ``view``."""
        mind = self.minds.get((match, seat), truco_search.TrucoMemory(MINITRUCO))
        if mind.watching:
            mind = self.minds[(match, seat)] = mind.saw(view)
        return mind

    def acted(self, match: int, seat: int, view: TrucoView, legal: list[Action], action: Action,
              mind: truco_search.TrucoMemory) -> None:
        if mind.heeds(action):
            self.minds[(match, seat)] = mind.acted(view, legal, action)

    def ended(self, match: int) -> int:
        """Forget a finished match; how many of its seats ended it reading the other team by its best card."""
        by_top = 0
        for key in [k for k in self.minds if k[0] == match]:
            mind = self.minds.pop(key)
            self.seen += [(match, c.odds[0], c.odds[1], c.accepted) for c in mind.calls
                          if c.odds is not None and c.accepted is not None]
            by_top += mind.read().top is not None
        return by_top


def classes() -> tuple[str, str]:
    """MiniTruco's core on the class path, and the house compiled against it (in a temporary folder named by the
    sources' digest)."""
    why = missing()
    if why is not None:
        raise RuntimeError(f"MiniTruco's house cannot run: {why}.")
    core = os.environ[ENV]
    digest = hashlib.sha256(HOUSE.read_bytes() + DRIVER.read_bytes() + core.encode()).hexdigest()[:16]
    out = Path(tempfile.gettempdir()) / f"cardtui-minitruco-house-{digest}"
    if not (out / "MiniTrucoHouse.class").exists():
        out.mkdir(exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-cp", core, "-d", str(out), str(HOUSE), str(DRIVER)], check=True,
                       capture_output=True, text=True)
    return core, str(out)


def lines(proc: subprocess.Popen[str]) -> Iterator[str]:
    assert proc.stdout is not None
    for line in proc.stdout:
        yield line.rstrip("\n")


def play(strategy: str, policy: Policy, name: str, deals: int, seed: int, parallel: int = PARALLEL,
         answers: str = "team", log: IO[str] | None = None, mode: str = "play",
         progress: Callable[[HouseResult], None] | None = None, referee: bool = True,
         read_answers: bool = True) -> HouseResult:
    """``deals`` duplicate deals of ``policy`` against MiniTruco's ``strategy`` (G or S) in MiniTruco's house;
    ``referee``: tell a policy that can be told (hard) how this house takes an answer to a call; ``read_answers``:
    and what the other team answered its seat's calls this match (``Memories``)."""
    core, built = classes()
    proc = subprocess.Popen(
        ["java", "-Xss8m", "-cp", f"{core}{os.pathsep}{built}", "MiniTrucoHouse", mode, strategy, str(deals),
         str(seed), str(parallel), answers],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    result = HouseResult(strategy, name, deals, seed, answers, told=_takes_referee(policy) and referee)
    told_rules = _takes_referee(policy) and referee
    decide = (lambda v, legal, rng: policy(v, legal, rng, referee=MINITRUCO)) if told_rules else policy  # type: ignore[call-arg]
    book = Memories() if told_rules and remembers(GAME, policy) and read_answers else None
    per_deal: dict[int, list[float]] = {}
    started = time.perf_counter()
    assert proc.stdin is not None
    try:
        for line in lines(proc):
            tag, _, rest = line.partition(" ")
            if tag == "D":
                ident, _, body = rest.partition(" ")
                told = Told(json.loads(body))
                view, legal = view_of(told)
                situation = dict(told.raw)
                situation.pop("match")
                rng = random.Random(seed_of(json.dumps(situation, sort_keys=True), seed))
                t0 = time.thread_time()
                try:
                    if book is not None:  # the seat's memory, as a table hands it (a call's odds: this decision's cost)
                        match_id = int(told.raw["match"])
                        mind = book.memory(match_id, told.seat, view)
                        action = policy(view, legal, rng, referee=MINITRUCO, memory=mind)  # type: ignore[call-arg]
                        book.acted(match_id, told.seat, view, legal, action, mind)
                    else:
                        action = decide(view, legal, rng)
                except Exception as e:
                    raise RuntimeError(f"{name} failed on what it was told: {body}") from e
                result.times.samples.append(time.thread_time() - t0)
                if action not in legal:
                    raise RuntimeError(f"{name} chose {action}, not among {legal}")
                proc.stdin.write(f"{ident} {word(action)}\n")
                proc.stdin.flush()
                if log is not None:
                    log.write(f"{line}\nA {ident} {word(action)}\n")
                    if book is not None:  # the read this decision was made on
                        read = mind.read()
                        log.write(f"L {ident} {read.lean!r} {read.answers}\n")
            elif tag == "M":
                m = json.loads(rest)
                if log is not None:
                    log.write(line + "\n")
                if book is not None and "match" in m:
                    result.by_top += book.ended(int(m["match"])) > 0
                if m.get("failure") or "scores" not in m:
                    result.unfinished += 1
                    result.failures.append(str(m.get("failure")))
                    continue
                ours = 0 if m["seats"][0] == "cardtui" or (mode == "proof" and m["seats"][0] == "G") else 1
                scores = m["scores"]
                result.matches += 1
                result.hands += int(m["hands"])
                result.wins += scores[ours] > scores[1 - ours]
                per_deal.setdefault(int(m["deal"]), []).append(
                    (scores[ours] - scores[1 - ours]) / max(1, int(m["hands"])))
                if progress is not None:
                    progress(result)
            elif tag == "END":
                break
            elif log is not None:
                log.write(line + "\n")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    result.points = [sum(v) / len(v) for v in per_deal.values()]
    if book is not None and log is not None:
        log.writelines(f"R {json.dumps(entry)}\n" for entry in book.seen)
    if book is not None:
        result.read = book.seen
    result.seconds = time.perf_counter() - started
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("strategy", choices=sorted(STRATEGIES))
    ap.add_argument("--player", default="hard", help="ours: a level, a pool style, or module:function")
    ap.add_argument("--deals", type=int, default=100, help="each played twice, the teams swapped")
    ap.add_argument("--seed", type=int, default=606)
    ap.add_argument("--parallel", type=int, default=PARALLEL)
    ap.add_argument("--answers", choices=("team", "once"), default="team")
    ap.add_argument("--log", help="write every line of every match (deals, every decision, our answers) here")
    ap.add_argument("--untold", action="store_true",
                    help="do not tell our bot how this house takes an answer (it plays as at our table)")
    ap.add_argument("--odds-only", action="store_true",
                    help="hard reads the other team's answers by the odds alone, not by what it answered this match")
    args = ap.parse_args()
    policy = player(GAME, args.player)
    log = open(args.log, "w") if args.log else None  # noqa: SIM115 - closed below

    def progress(r: HouseResult) -> None:
        if r.matches % 20 == 0:
            lo, hi = r.rate.interval
            print(f"  … {r.matches} matches: {r.rate.rate:.1%} ({lo:.1%}–{hi:.1%})", flush=True)

    try:
        r = play(STRATEGIES[args.strategy], policy, args.player, args.deals, args.seed, args.parallel, args.answers,
                 log, progress=progress, referee=not args.untold, read_answers=not args.odds_only)
    finally:
        if log is not None:
            log.close()
    for line in r.lines():
        print(line)


if __name__ == "__main__":
    main()
