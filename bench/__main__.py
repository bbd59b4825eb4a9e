"""`make bench`: every figure as a ratio to a baseline measured in the same run.

Sections: engine (Cacho hands/s with bots), views (one change in Python: views spliced from their parts vs whole
messages; our Python per act, compiled vs plain, and after a sleep), load (real server vs a bare fan-out server over
gRPC on 127.0.0.1), melds (meld search vs exhaustive search), truco (engine speed vs pytruco; bots vs random play),
arena (the bots' marks: levels against today's bots, the simple baselines, the opponent pool and MiniTruco's bots on
duplicate deals, with decision times), exploit (a best response to hard's calls against hard: how exploitable they
are), soak (minutes of bots with watchers churning: lost and duplicated events, latency against the bare server,
memory at the start and the end), guests (browser guests forked from a warm parent vs started cold: memory per guest
at 10 guests, time to the name prompt), screen (the table screen's first paint after each message and its CPU,
against a trivial Textual app), analysis (the analysis of a hand: its blunder suite, hard's decisions flagged, two
seeds agreeing, one hand's wall time), hard (hard against hard at every game, each hand analysed once: the share of
decisions flagged a mistake or worse, the clock looked at after every hand), decided (the analysis on positions the
rules decide, found in played hands: right moves flagged, wrong moves flagged a mistake or worse), facts (every fact
the advice states over random hands of every game and option set, against a recount from the history alone: wrong
facts), fair (a dishonest host's tricks against the real client's fair-deal check: hands steered under ✔, against an
honest host's six), sealed (a sealed deal's operations against other groups', its start to a person's own cards over
127.0.0.1, the same at the real server against an open deal, a randomised cheating client against the referee and
every honest client, a host reading cards with everything it holds), startup (seconds to ready: a first start, and a
restart with tables open, after SIGTERM and after kill -9), front (the lobby's process's memory over unary calls on
one kept connection, against a bare grpc.aio server), lobby (a person idling in the lobby: the list by its stream
against asked every two seconds), speech (the line mode read aloud by espeak-ng: a hand's speech against the hand's
time, terse against verbose).
``--only`` picks sections; ``--quick`` shrinks every run.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import tempfile
import time

from cardtui.sim import simulate, versus_random


def engine_section(quick: bool) -> None:
    print("== (a) Cacho engine, one process")
    hands = 500 if quick else 3000
    bots = simulate("cacho", 4, hands, seed=7)
    print(f"  with bots:   {bots.hands / bots.seconds:8,.0f} hands/s  ({bots.actions / bots.seconds:,.0f} actions/s)")
    t = time.perf_counter()
    rate = versus_random("cacho", 4, 20 if quick else 100, seed=7)
    print(f"  {rate.line('bots vs random play, 4 players')} ({time.perf_counter() - t:.1f} s)")


def load_section(quick: bool) -> None:
    from bench.load import compare

    tables = 50 if quick else 200
    print(f"== (b-e) load over gRPC on 127.0.0.1: {tables} tables × (4 acting clients + 2 spectators)")
    ramp = [2, 4] if quick else [2, 3, 3.5, 4, 4.5, 5, 6, 8]  # steps of half an act where the two servers give out
    asyncio.run(compare(tables=tables, seconds=4 if quick else 15, ramp=ramp))
    from bench.load import builds

    print(f"== the server compiled (mypyc) against itself in plain Python, side by side: {tables} tables")
    asyncio.run(builds(tables=tables, seconds=1.0 if quick else 4.0, rounds=4 if quick else 6))
    from bench.analysis import load_with_analyses

    print(f"== the same tables with the analysis pool idle, then working flat out, in turns: {tables} tables")
    asyncio.run(load_with_analyses(tables=tables, seconds=4 if quick else 60, rounds=2 if quick else 12))


def views_section(quick: bool) -> None:
    from bench import views

    print("== views: one change in Python, without gRPC (spliced bytes vs whole messages, same views)")
    views.run(print=print, acts=1000 if quick else views.ACTS)
    from bench import acts

    acts.run(print=print, acts=2000 if quick else acts.ACTS, rounds=2 if quick else 3)


def melds_section(quick: bool) -> None:
    if importlib.util.find_spec("bench.melds") is None:
        return
    from bench import melds

    print("== melds: exact search vs exhaustive search, same hands")
    melds.run(print=print)


def truco_section(quick: bool) -> None:
    from bench import truco

    print("== truco argentino: random-play matches to 30, vs pytrucoengine and pytruco in the same run")
    truco.run(print=print, seconds=1.0 if quick else 3.0)
    truco.bots(print=print, matches=40 if quick else 200)


def arena_section(quick: bool) -> None:
    from bench import marks

    marks.run(print=lambda s: print(s, flush=True), seconds=60.0 if quick else ARGS.seconds, only=ARGS.mark,
              matches=200 if quick else ARGS.matches, seed=ARGS.seed)


def exploit_section(quick: bool) -> None:
    from bench import exploit

    exploit.run(print=lambda s: print(s, flush=True), seconds=60.0 if quick else ARGS.seconds,
                pairs=10 if quick else exploit.PAIRS)


def soak_section(quick: bool) -> None:
    from bench.soak import ACTS_PER_HOUR, night, soak

    tables, seconds = (50, 20.0) if quick else (200, 180.0)
    print(f"== soak: {tables} tables for {seconds:.0f} s: watchers joining, leaving, dropping, resuming; "
          "people playing and giving up their seats; a kill -9 and a restart halfway")
    asyncio.run(soak(tables=tables, seconds=seconds))
    hours = 0.05 if quick else ARGS.hours
    print(f"== a night: {hours:.2f} real hours of a room at its own pace (at least {ACTS_PER_HOUR:,} moves an hour): "
          "every game at every level, people sitting and leaving, streams dropped and resumed, the lobby watched and "
          "asked, tables closed and made, table worker 1 killed -9 halfway; each process's memory, its growth a real "
          "hour after its first hour")
    looks = os.path.join(tempfile.gettempdir(), f"cardtui-night-{os.getpid()}.jsonl")
    print(f"   each look written to {looks} as it is taken (python -m bench.soak --growth {looks})")
    asyncio.run(night(hours=hours, kill_at=hours / 2, looks=looks))


def guests_section(quick: bool) -> None:
    from bench import guests

    n = 4 if quick else guests.GUESTS
    print(f"== browser guests: {n} at once, forked from a warm parent vs started cold (the baseline)")
    guests.run(print=lambda s: print(s, flush=True), guests=n)


def screen_section(quick: bool) -> None:
    from bench import screen

    n = 100 if quick else screen.MESSAGES
    print(f"== the screen: {n} table messages a case from a real server, bots at full speed; first paint "
          "and client CPU per message vs a trivial Textual app (one Static per message), same run")
    screen.run(print=lambda s: print(s, flush=True), messages=n, runs=ARGS.runs)


def analysis_section(quick: bool) -> None:
    from bench import analysis

    print("== analysis of a hand: the blunder suite, hard against hard analysed twice, one hand's time, the "
          "analysis's choice against hard")
    analysis.run(print=lambda s: print(s, flush=True), quick=quick, seconds=ARGS.seconds, hands=ARGS.hands)


def hard_section(quick: bool) -> None:
    from bench import analysis

    print("== hard against hard: the share of decisions the analysis flags a mistake or worse, at every game")
    analysis.hard_share(print=lambda s: print(s, flush=True), hands=10 if quick else ARGS.hands,
                        seconds=60.0 if quick else ARGS.seconds)


def decided_section(quick: bool) -> None:
    from bench import analysis_decided

    print("== the analysis on positions the rules decide, found in played hands: truco's last card, lost and won "
          "hands facing a call, ties by each tie rule; Cacho's three sixes, going out at Pif Paf, Cacheta's knock "
          "that wins the match")
    analysis_decided.run(print=lambda s: print(s, flush=True), quick=quick, seconds=ARGS.seconds * 6)


def facts_section(quick: bool) -> None:
    from bench import facts

    print("== the advice's facts: random hands of every game and option set, each reason's facts recounted from the "
          "hand's history alone")
    facts.run(print=lambda s: print(s, flush=True), quick=quick, seconds=ARGS.seconds)


def fair_section(quick: bool) -> None:
    from bench import fairdeal

    hands = 20 if quick else fairdeal.HANDS
    print(f"== the fair deal: {hands} hands of Cacho a trick, played wherever it gives the client a six; hands"
          " steered under ✔ (mark 0), against the honest host; then the randomised dishonest host over every game")
    fairdeal.run(print=lambda s: print(s, flush=True), hands=hands, model_hands=300 if quick else 3000)
    fairdeal.wait_report(print=lambda s: print(s, flush=True), hands=10 if quick else 40)
    print("== a deck no host can re-roll (issue 86): past one table, the table's word, one seat's cut, honest tables")
    fairdeal.issue86_report(print=lambda s: print(s, flush=True), quick=quick)


def sealed_section(quick: bool) -> None:
    from bench import sealed

    sealed.run(print=print, deals=10 if quick else 60, n=500 if quick else 2000)
    from bench import sealed_live

    sealed_live.run(print=print, deals=5 if quick else 20)
    sealed.cheats(print=print, hands=60 if quick else 1200)
    sealed.host(print=print, hands=20 if quick else 300)


def front_section(quick: bool) -> None:
    from bench import front

    front.run(quick)


def lobby_section(quick: bool) -> None:
    from bench import lobby

    lobby.run(quick)


def speech_section(quick: bool) -> None:
    from bench import speech

    hands = 2 if quick else ARGS.speech_hands
    langs = ("en",) if quick else tuple(ARGS.speech_langs.split(","))
    games = speech.GAMES if not ARGS.speech_games else tuple(ARGS.speech_games.split(","))
    print(f"== speech: the line mode read by espeak-ng at 300 words a minute and its default rate, {hands} whole hands "
          "of each game with three bots at a room's pace; speech against the hand's time, terse (the marks) and "
          "verbose (the baseline)")
    speech.run(print=lambda s: print(s, flush=True), hands=hands, langs=langs, games=games,
               baseline=not ARGS.speech_no_baseline,
               rates=tuple(int(r) for r in ARGS.speech_rates.split(",")) if ARGS.speech_rates else (300, 175),
               together=ARGS.speech_together, tables=ARGS.speech_tables)


def startup_section(quick: bool) -> None:
    from bench import startup

    startup.run(quick)


SECTIONS = {
    "engine": engine_section,
    "load": load_section,
    "views": views_section,
    "melds": melds_section,
    "truco": truco_section,
    "soak": soak_section,
    "arena": arena_section,
    "exploit": exploit_section,
    "guests": guests_section,
    "screen": screen_section,
    "analysis": analysis_section,
    "hard": hard_section,
    "decided": decided_section,
    "facts": facts_section,
    "fair": fair_section,
    "sealed": sealed_section,
    "startup": startup_section,
    "front": front_section,
    "lobby": lobby_section,
    "speech": speech_section,
}
ARGS = argparse.Namespace(seconds=600.0, mark="", matches=1000, runs=1, hands=500, hours=1.0, speech_hands=4,
                          speech_langs="en", speech_games="", speech_no_baseline=False, speech_rates="",
                          speech_together=False, speech_tables=1, seed=12)


def main() -> None:
    p = argparse.ArgumentParser(prog="make bench")
    p.add_argument("--only", default=",".join(SECTIONS), help="comma-separated: " + ", ".join(SECTIONS))
    p.add_argument("--quick", action="store_true", help="small runs, for a smoke check")
    p.add_argument("--seconds", type=float, default=600.0,
                   help="arena: wall time each mark may take at most")
    p.add_argument("--hours", type=float, default=1.0, help="soak: the night's real hours")
    p.add_argument("--mark", default="", help="arena: only the marks whose label contains this")
    p.add_argument("--matches", type=int, default=1000,
                   help="arena: matches a mark plays at most while its interval does not decide (at least 1,000)")
    p.add_argument("--seed", type=int, default=12, help="arena: the seed of the marks' deals (another for fresh deals)")
    p.add_argument("--runs", type=int, default=1, help="screen: how many times each case is measured")
    p.add_argument("--hands", type=int, default=500,
                   help="analysis: hands of hard against hard a truco or Cacho table (Pif Paf and Cacheta: a 25th)")
    p.add_argument("--speech-hands", type=int, default=4, help="speech: whole hands of each game at each level")
    p.add_argument("--speech-langs", default="en", help="speech: the languages heard (en,pt_BR,es)")
    p.add_argument("--speech-games", default="", help="speech: the games (default: every one)")
    p.add_argument("--speech-no-baseline", action="store_true", help="speech: the terse level alone (the marks)")
    p.add_argument("--speech-together", action="store_true",
                   help="speech: every game, language and rate played at once, each at its own table (a room's load)")
    p.add_argument("--speech-rates", default="", help="speech: the terse level's rates, words a minute (300,175)")
    p.add_argument("--speech-tables", type=int, default=1,
                   help="speech: tables each game, language and rate is measured at (their hands pooled; the spread)")
    args = p.parse_args()
    ARGS.seconds, ARGS.mark, ARGS.matches = args.seconds, args.mark, args.matches
    ARGS.runs, ARGS.hands, ARGS.hours, ARGS.seed = args.runs, args.hands, args.hours, args.seed
    ARGS.speech_hands, ARGS.speech_langs, ARGS.speech_games = args.speech_hands, args.speech_langs, args.speech_games
    ARGS.speech_no_baseline, ARGS.speech_rates = args.speech_no_baseline, args.speech_rates
    ARGS.speech_together, ARGS.speech_tables = args.speech_together, args.speech_tables
    for name in args.only.split(","):
        SECTIONS[name.strip()](args.quick)


if __name__ == "__main__":
    main()
