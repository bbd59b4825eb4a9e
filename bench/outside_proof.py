"""The bridge proved against MiniTruco's own referee: the same deals, played in its house and at our table.

MiniTruco's house (``bench.outside_house``, ``mode proof``) plays Gasparotto's bots against Sellani's in its own
``PartidaLocal``, each strategy's doubts seeded by the situation, and logs every hand's deal, every decision of its
bots (the situation as the strategy read it, and its answer) and the scores. Here each of those hands is played
again at our table (``truco_decides = hand``), from the same scores, with the same opener and the same cards in the
same places, both teams through the bridge (``bench.outside_truco.Bridge``): a hand is *the same* when the bridge
put the same situations to the strategies, got the same answers, and the hand scored the same points.

Where a hand is not the same, the rules of the two tables differ somewhere in it, and the proof says where:

- ``tie-lead``: a trick was tied, or won by two partners' equal cards, and the two referees give the next trick to
  different players (MiniTruco: to the tied trick's opener, or to the first of the partners by position; ours: to
  the first in play order who played the highest card);
- ``three-ties``: all three tricks tied (MiniTruco: nobody scores; ours: the mão's team);
- ``ferro``: both teams on 11 (MiniTruco plays it with the cards seen and for 1; ours, a mão de ferro, blind);
- ``cap``: a call our rules do not allow (a team that winning the stake would already take to 12 may not raise it),
  which MiniTruco's seat may make;
- ``unexplained``: none of these. A proof holds when there are none.

``python -m bench.outside_proof --deals 100 --seed 5``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.outside_house import card, classes
from bench.outside_truco import Bridge, Memory
from cardtui.engine.core import SeatInfo
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.paulista.state import PaulistaState

OPTIONS = PAU.options({"truco_decides": "hand"})
SEATS = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]
Decision = tuple[str, int, str, str]
"""(op, position, situation, answer): one decision of a strategy, as the house logs it and the bridge keeps it."""


@dataclass
class Hand:
    match: int
    number: int
    opener: int
    salt: int
    start_results: list[int]
    cards: list[list[str]]
    scores_before: tuple[int, int] = (0, 0)
    scores_after: tuple[int, int] | None = None
    end_results: list[int] = field(default_factory=list)
    house: Counter[Decision] = field(default_factory=Counter)
    bridge: Counter[Decision] = field(default_factory=Counter)
    points: tuple[int, int] | None = None
    why: list[str] = field(default_factory=list)
    capped: bool = False


@dataclass
class Proof:
    deals: int
    seed: int
    hands: list[Hand] = field(default_factory=list)
    decisions: int = 0
    matched: int = 0

    def same(self, h: Hand, unmatched_house: Counter[Decision], unmatched_bridge: Counter[Decision]) -> bool:
        """The same points, and every decision of the hand put alike on both sides, but for an answer given after
        the partner had accepted (MiniTruco asks both partners at once, and the later one's answer, which counts
        for nothing, may be asked on a table its partner's acceptance changed, or not asked at all)."""
        if h.points != _points(h):
            return False
        accepted = {(op, pos) for op, pos, _, answer in h.bridge if answer == "1" and (op, pos, _, answer)
                    not in unmatched_bridge}
        for op, pos, situation, answer in [*h.bridge, *h.house]:
            d = (op, pos, situation, answer)
            if d not in unmatched_bridge and d not in unmatched_house:
                continue
            if op in ("A", "X") and (op, (pos + 1) % 4 + 1) in accepted:
                continue
            return False
        return True

    def lines(self) -> list[str]:
        same = sum(1 for h in self.hands if not h.why)
        causes: Counter[str] = Counter()
        for h in self.hands:
            if h.why:
                causes[" + ".join(sorted(set(h.why)))] += 1
        out = [f"the bridge against MiniTruco's referee: {self.deals} deals (seed {self.seed}), Gasparotto's bots "
               f"against Sellani's, each hand played in MiniTruco's house and at our table (truco_decides = hand)",
               f"  hands: {len(self.hands)}; the same (every situation put to a strategy, its answer, the points): "
               f"{same} ({same / max(1, len(self.hands)):.1%})",
               f"  decisions: {self.decisions} in MiniTruco's house, {self.matched} of them put alike by the bridge "
               f"and answered alike"]
        for why, n in causes.most_common():
            out.append(f"  not the same, {why}: {n} hands")
        return out


def _points(h: Hand) -> tuple[int, int] | None:
    if h.scores_after is None:
        return None
    return (h.scores_after[0] - h.scores_before[0], h.scores_after[1] - h.scores_before[1])


def house(deals: int, seed: int, parallel: int) -> list[str]:
    """MiniTruco's house in proof mode: its log."""
    core, built = classes()
    out = subprocess.run(
        ["java", "-Xss8m", "-cp", f"{core}{os.pathsep}{built}", "MiniTrucoHouse", "proof", "G", str(deals),
         str(seed), str(parallel)], stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def hands_of(log: list[str]) -> tuple[list[Hand], dict[int, list[str]]]:
    """The hands the house logged, each with its decisions, and who sat where in each match."""
    hands: dict[tuple[int, int], Hand] = {}
    seats: dict[int, list[str]] = {}
    last: dict[int, tuple[int, int]] = {}
    for line in log:
        tag, _, body = line.partition(" ")
        if tag not in ("H", "K", "M"):
            continue
        r: dict[str, Any] = json.loads(body)
        m = int(r["match"])
        if tag == "M":
            seats[m] = list(r.get("seats", []))
        elif tag == "H" and "cards" in r:
            h = Hand(m, int(r["hand"]), int(r["opener"]), int(r["salt"]), list(r["results"]), list(r["cards"]))
            h.scores_before = last.get(m, (0, 0))
            hands[(m, h.number)] = h
        elif tag == "H":
            h = hands[(m, int(r["hand"]))]
            h.scores_after = (int(r["scores"][0]), int(r["scores"][1]))
            h.end_results = list(r["results"])
            last[m] = h.scores_after
        else:
            key = (m, int(r["hand"]))
            if key in hands:
                hands[key].house[(str(r["op"]), int(r["pos"]), str(r["situation"]), str(r["answer"]))] += 1
    return list(hands.values()), seats


class _Table:
    """What the bridge reads the table from (``Bridge.state``)."""

    def __init__(self, state: PaulistaState) -> None:
        self.state = state


def replay(h: Hand, who: list[str]) -> None:
    """One hand of the house played again at our table, both teams through the bridge."""
    opener = h.opener - 1
    st, _ = PAU.resume(OPTIONS, SEATS, list(h.scores_before), (opener + 3) % 4, h.number, h.salt)
    for s in range(4):
        st.hands[s] = [card(c) for c in h.cards[s]]
    bridges = {name: Bridge(name, salt=h.salt) for name in ("G", "S")}
    for b in bridges.values():
        b.keep = True
        b.memory = Memory(match=_Table(st), log=st.log, slots=list(h.start_results), hand=h.number)
    steps = 0
    while not PAU.hand_over(st) and steps < 200:
        steps += 1
        seat = PAU.to_act(st)[0]
        legal = PAU.legal_actions(st, seat)
        bridge = bridges[who[seat]]
        before = len(bridge.memory.asked)
        action = bridge(PAU.view(st, seat), legal, _NoRng())
        for asked in bridge.memory.asked[before:]:
            if asked.op == "J" and " 0 " in f" {asked.situation} " and _capped(st, seat):
                h.capped = True
        PAU.apply(st, seat, action)
    for b in bridges.values():
        for a in b.memory.asked:
            h.bridge[(a.op, a.pos, a.situation, a.answer)] += 1
    h.points = (st.scores[0] - h.scores_before[0], st.scores[1] - h.scores_before[1])


def _capped(st: PaulistaState, seat: int) -> bool:
    """Whether our rules forbid this seat a call that MiniTruco's seat could make now."""
    team = seat & 1
    truco = st.truco
    if max(st.scores) >= 11 or (truco.level and truco.owner != team) or st.stake >= 12:
        return False
    legal = PAU.legal_actions(st, seat)
    return not any(a.type in ("truco", "seis", "nove", "doze") for a in legal)


class _NoRng:
    """The bridge is given its salt: it draws nothing from the seat's generator."""

    def getrandbits(self, k: int) -> int:
        raise AssertionError("the proof's bridge draws no seed")

    def random(self) -> float:
        raise AssertionError("the proof's bridge draws nothing")


def explain(h: Hand) -> list[str]:
    """Which rule difference the hand met (see the module)."""
    why = []
    if h.scores_before[0] == 11 and h.scores_before[1] == 11:
        why.append("ferro")
    played = len([r for r in h.end_results if r])  # results of this hand's tricks (a later one may be stale)
    results = h.end_results[:max(1, played)]
    if 3 in results[:3] or _partners_tied(h):
        why.append("tie-lead")
    if h.end_results == [3, 3, 3]:
        why.append("three-ties")
    if h.capped:
        why.append("cap")
    return why or ["unexplained"]


def _partners_tied(h: Hand) -> bool:
    """Whether two partners played equal top cards in some trick (their referees name different leaders)."""
    for (op, _pos, situation, _answer) in h.house:
        if op != "J":
            continue
        played = situation.split()[-1].split(",")
        for t in range(3):
            row = played[t * 4 : t * 4 + 4]
            if sum(1 for c in row if c not in ("-", "xx")) < 4:
                continue
            ranks = [PAU_RANK[card(c)] for c in row]
            top = max(ranks)
            if [i for i, v in enumerate(ranks) if v == top] in ([0, 2], [1, 3]):
                return True
    return False


def prove(deals: int, seed: int, parallel: int = 24) -> Proof:
    log = house(deals, seed, parallel)
    hands, seats = hands_of(log)
    proof = Proof(deals, seed)
    by_match: dict[int, list[Hand]] = {}
    for h in hands:
        if h.scores_after is None or h.match not in seats:
            continue
        replay(h, seats[h.match])
        by_match.setdefault(h.match, []).append(h)
    for group in by_match.values():
        house_all: Counter[Decision] = Counter()
        bridge_all: Counter[Decision] = Counter()
        for h in group:
            house_all += h.house
            bridge_all += h.bridge
        unmatched_house = house_all - bridge_all
        unmatched_bridge = bridge_all - house_all
        proof.decisions += sum(house_all.values())
        proof.matched += sum((house_all & bridge_all).values())
        for h in group:
            if not proof.same(h, unmatched_house, unmatched_bridge):
                h.why = explain(h)
            proof.hands.append(h)
    return proof


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--parallel", type=int, default=24)
    ap.add_argument("--show", type=int, default=0, help="print this many unexplained hands in full")
    args = ap.parse_args()
    proof = prove(args.deals, args.seed, args.parallel)
    for line in proof.lines():
        print(line)
    shown = 0
    for h in proof.hands:
        if h.why == ["unexplained"] and shown < args.show:
            shown += 1
            print(f"-- match {h.match} hand {h.number}: opener {h.opener}, scores {h.scores_before} → "
                  f"{h.scores_after}, house points {_points(h)}, ours {h.points}, results {h.end_results}")
            for d in sorted((h.house - h.bridge).elements()):
                print(f"   house only:  {d}")
            for d in sorted((h.bridge - h.house).elements()):
                print(f"   bridge only: {d}")


if __name__ == "__main__":
    main()
