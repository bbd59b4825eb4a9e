"""The line mode read aloud: how long espeak-ng takes to say a hand, against how long the hand took.

A player who hears the table through a screen reader keeps up with it only while the speech of a hand takes
less time than the hand: past that the voice falls behind, and a claim window or a turn is over before it is
heard. The bench sits the line mode (``client.lines``) at a real table of each game with three bots, on a real
server on 127.0.0.1 paced as a room is by default (the bots' pause before they act, the claim window, the pause
between hands, the cut), and plays whole hands.

The voice is espeak-ng in the voice of the reader's language, at its default rate (175 words a minute) and at
300 words a minute (a practised reader's rate: screen reader users commonly listen at twice the default): every
sentence the line mode says is timed by the length of the sound ``espeak-ng -w`` makes of it at that rate, and
said after the one before it has been (a queue, as a screen reader's speech is). The player answers each turn
once they have heard it whole, by the number it said or one said at an earlier turn (choosing at random, seeded,
among the choices on offer, never folding, going to the deck or running, so that the hand is played through),
never pressing a key to hear more: the bell rings as a turn begins, and a player behind the table cuts the voice
short to hear it, as a screen reader lets them; so the table's pace is the bots' and the turns', never the
backlog's, at either level.

A hand's time runs from its deal to the next deal, or to the end of the pause after it where a match ends
there (its result is on the table between them); its speech is every sentence said in that time. The marks
(issue 91), at the terse level, summed over the hands measured: at 300 words a minute at most 0.6 of the hand's
time in every game; at the default rate at most 0.8 at Pif Paf, Cacheta and Chinchón and 1.0 at truco and Cacho. The
verbose level at the default rate is the baseline. The worst hand, and how far behind the voice was at the end of
a hand and as the player's turns began, are printed beside it; and, over every sentence said, the places where
two numbers are heard one after the other (none is the mark) and the hands whose result did not say the player's
own total (none).

With ``--speech-together`` every game, language and rate is played at once, each at its own table of one room (one
server, as a host runs it), each by a player of its own: the run takes its longest table's time (Pif Paf's) rather
than the sum of them all. The player answers a turn timed apart from the voice's queue, and how much later than its
saying the timing let them answer is printed (it lengthens the hand: 0 is a clean run).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cardtui.client.lines.actions import Choice
from cardtui.client.lines.loop import LineRoom, Seat, Start
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.turn_bell import my_turn
from cardtui.engine.games import ENTRIES
from cardtui.i18n import _, speaking
from cardtui.server.app import start
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2

GAMES = tuple(ENTRIES)
DEFAULT_RATE = 175
"""espeak-ng's own rate, in words a minute."""
FAST = 300
"""A practised reader's rate."""
MARKS = {DEFAULT_RATE: {game: ENTRIES[game].bench.spoken for game in GAMES},
         FAST: {game: 0.6 for game in GAMES}}
"""The most a hand's speech may take, as a share of the hand's time, at each rate (issue 91): each game's at the
default rate is its entry's (``Entry.bench``; the rummy games' 0.8)."""
VOICES = {"en": "en-us", "pt_BR": "pt-br", "es": "es-419"}
"""espeak-ng's voice for each language the client speaks."""
HANDS = 8
"""Hands a game is measured over (each language)."""
AVOIDED = ("fold", "mazo", "run", "no_quiero", "signal")
"""Choices the bench's player never makes while another is on offer: it plays each hand through (at truco
argentino a truco refused, No quiero, is the hand run from, as Corro is at paulista)."""
SEED = 77
OPTIONS = {"cacho": {"chips": 50}}
"""Table options the bench plays with: at Cacho a stack the bench's player keeps through every hand measured (it calls
at random; with the default 20 chips it was out of the match within a few hands, and then heard only each pot's
winner, which measured nothing of what a player in the hand hears), of two digits as a room's are (each hand's
result says every seat's total: a thousand is longer to say than twenty)."""
PLAYERS = ("ana", "bia", "ivo", "eva", "leo", "lia", "rui", "teo", "noa", "ian", "gil", "isa", "ada", "edu", "ari",
           "ema", "luz", "mel")
"""The players' names where the tables share a room (a name of three letters, as "ana" is, and no number)."""
PAUSE = 4.0
"""The server's pause between hands (``serve --next-hand-delay``'s default): a hand's time ends with it, or with
the next deal, whichever comes first (a match's end waits longer, for the players' answers)."""


STALL = 180.0
"""Seconds a table may go with nothing said (no event, no turn) before its player stops waiting, and the hands it
finished are measured: with every table at once, one stuck table held back the whole run, which then printed nothing
before its time was up. A table at play says something every few seconds; a hand may take longer than this (a Pif Paf
hand runs past three minutes at a room's pace, on a quiet machine too), so a long hand is not a stuck table."""


class Voice:
    """espeak-ng, timing what it says (each sentence once), at its default rate or at ``rate`` words a minute."""

    def __init__(self, voice: str, rate: int = DEFAULT_RATE) -> None:
        self.voice = voice
        self.rate = rate
        self.known: dict[str, float] = {}
        self.folder = Path(tempfile.mkdtemp(prefix="cardtui-speech-"))

    def seconds(self, text: str) -> float:
        if text not in self.known:  # a file of its own: tables played at once time their sentences side by side
            out = self.folder / f"said-{threading.get_ident()}.wav"
            subprocess.run(["espeak-ng", "-v", self.voice, "-s", str(self.rate), "-w", str(out), text], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with wave.open(str(out)) as w:
                self.known[text] = w.getnframes() / w.getframerate()
        return self.known[text]

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Said:
    at: float
    """When the line mode said it."""
    text: str
    begins: float = 0.0
    ends: float = 0.0
    """When the voice began and ended saying it (after what was said before it)."""
    turn: bool = False
    """The line mode said it as a turn of the player's (the player answers it once heard)."""
    late: float = 0.0
    """How much later than the voice's end of it the player answered it: the time espeak-ng took to time it, past
    its saying (tables played at once on a busy machine), which lengthens the hand."""


@dataclass
class Heard:
    """The line mode's terminal for the bench: every sentence, with when it was said and when the voice is
    through saying it; the player's lines."""

    voice: Voice
    said: list[Said] = field(default_factory=list)
    typed: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    coming: asyncio.Queue[Said] = field(default_factory=asyncio.Queue)

    async def read(self, secret: bool = False) -> str | None:
        return await self.typed.get()

    def write(self, text: str) -> None:
        said = Said(time.monotonic(), text)
        self.said.append(said)
        self.coming.put_nowait(said)

    def bell(self) -> None:
        pass


class TimedRoom(LineRoom):
    """The line mode, noting when each hand starts and ends as its events come; and the player, answering each turn
    of theirs once its sentences are heard."""

    def __init__(self, start: Start, lines: Heard, rng: random.Random) -> None:
        super().__init__(start, lines)
        self.heard_by = lines
        self.rng = rng
        self.starts: list[float] = []
        self.ends: list[float] = []
        self.answering: set[asyncio.Task[None]] = set()

    def _say_turn(self, at: Seat, again: bool = False, with_hand: bool = False) -> None:
        """A turn's sentence is known by the line mode saying a turn, not by its words: a later turn of a hand is
        said by its choices alone."""
        before = len(self.heard_by.said)
        super()._say_turn(at, again, with_hand)
        turn = self.heard_by.said[before:]
        for said in turn:
            said.turn = True
        if not turn and not again and my_turn(at.model) and self.heard_by.said:
            turn = self.heard_by.said[-1:]  # rung in by the bell alone: answered once what was just said is heard
        if turn and self.starts and turn[0].at >= self.starts[0]:  # (not in the lobby, nor the table's opening)
            task = asyncio.get_running_loop().create_task(self._answer(turn))
            self.answering.add(task)
            task.add_done_callback(self.answering.discard)

    async def _answer(self, turn: list[Said]) -> None:
        """The player hears the turn whole (the bell rang as it began), and answers: what the voice had not said
        yet of the table is cut short (a screen reader's speech is interrupted), not waited out. Timed apart from
        the voice's queue, so that the time espeak-ng takes over what came before does not delay it."""
        loop = asyncio.get_running_loop()
        lengths = [await asyncio.to_thread(self.heard_by.voice.seconds, s.text) for s in turn]
        heard = turn[0].at + sum(lengths)
        turn[-1].late = max(0.0, loop.time() - heard)
        await asyncio.sleep(max(0.0, heard - loop.time()))
        at = self.at
        if at is None or at.spectating or not my_turn(at.model):
            return
        self.heard_by.typed.put_nowait(answer(self._choices(at), self.rng))

    def heard(self, at: Seat, msg: table_pb2.TableMessage) -> None:
        if msg.WhichOneof("body") == "update":
            for ev in msg.update.events:
                kind = ev.WhichOneof("body")
                if kind == "hand_started":
                    self.starts.append(time.monotonic())
                elif kind == "hand_ended" and len(self.ends) < len(self.starts):
                    self.ends.append(time.monotonic())
        super().heard(at, msg)


@dataclass(frozen=True)
class Hand:
    game: str
    lang: str
    seconds: float
    """From its deal to the next deal."""
    played: float
    """From its deal to its end."""
    speech: float
    sentences: int
    lag: float
    """How far behind the table the voice was when the next hand was dealt."""
    waited: float
    """How long the voice was behind when the player's turns were said (time the player would wait, or speech
    cut short, to answer at once)."""
    runs: int = 0
    """Places where two numbers were heard one after the other."""
    own_total: bool = True
    """A sentence said the player's own total (their seat's, or their team's) after the hand's end."""
    late: float = 0.0
    """How late the player answered their turns for the voice's timing of them (``Said.late``)."""
    timed_out: int = 0
    """Turns of the player's the table played for them, their time up (a bench too slow to answer: not a clean
    run, the hand lengthened by the wait)."""

    @property
    def ratio(self) -> float:
        return self.speech / self.seconds


def answer(offered: list[Choice], rng: random.Random) -> str:
    """The line that makes a choice drawn at random from those on offer (the fewest chips of a bet)."""
    wanted = [c for c in offered if not any(a in c.kind for a in AVOIDED)] or offered
    c = rng.choice(wanted)
    if c.amounts:
        return f"{c.number} {c.amounts[0]}"
    if c.kinds:
        subs = c.subnumbers or tuple(range(1, len(c.kinds) + 1))
        return f"{c.number} {subs[0]}" if len(c.actions) > 1 else str(c.number)
    return str(c.number)


async def listening(room: TimedRoom, lines: Heard) -> None:
    """The voice, saying each sentence after the one before (the player answers apart: ``TimedRoom``)."""
    free = 0.0
    while True:
        said = await lines.coming.get()
        length = await asyncio.to_thread(lines.voice.seconds, said.text)
        if not room.starts or said.at < room.starts[0]:  # the lobby, the table's opening: before any hand
            said.begins = said.ends = said.at
            continue
        said.begins = max(said.at, free)
        said.ends = free = said.begins + length


async def play(game: str, lang: str, hands: int, seed: int, voice: Voice, level: str = "terse",
               room_at: str = "", name: str = "ana", opening: asyncio.Semaphore | None = None) -> list[Hand]:
    """``hands`` whole hands of ``game`` with three bots, in ``lang``, each timed and its speech measured: on a
    server of its own, or at the room at ``room_at`` as ``name`` (``opening``: the tables being opened at once)."""
    folder = Path(tempfile.mkdtemp(prefix="cardtui-speech-store-"))
    running = None if room_at else await start("127.0.0.1", 0, folder / "store.db")
    lines = Heard(voice)
    address = room_at or f"127.0.0.1:{running.port if running is not None else 0}"
    room = TimedRoom(Start(address, name, own_config=False), lines, random.Random(seed))
    with speaking(lang):
        mine = own_total()
        up = _("Time is up: the table plays for you.")
        task = asyncio.create_task(room.run())
        voice_task = asyncio.create_task(listening(room, lines))
        try:
            async with opening or asyncio.Semaphore():
                while room.conn is None or room.info is None or not lines.said:
                    await asyncio.sleep(0.05)
                lines.typed.put_nowait(level)
                table = await room.conn.create(lobby_pb2.CreateTableRequest(
                    game=game, name=_("{game} table").format(game=game), seats=4, bots=3, turn_seconds=30,
                    options={k: common_pb2.OptionValue(number=v) for k, v in OPTIONS.get(game, {}).items()}))
                for _try in range(3):  # a join the busy server did not answer in time (said as such) is asked again
                    await room.open_table(table.id)
                    if room.at is not None:
                        break
                    await asyncio.sleep(2.0)
            seen, since = len(lines.said), time.monotonic()
            while len(room.starts) < hands + 2:
                await asyncio.sleep(0.2)
                if len(lines.said) != seen:
                    seen, since = len(lines.said), time.monotonic()
                elif time.monotonic() - since > STALL:  # one table stuck holds back no other's figures
                    last = " / ".join(s.text for s in lines.said[-3:])
                    print(f"  {game} {lang} {level} {voice.rate} wpm seed {seed}: nothing said for {STALL:.0f} s "
                          f"after {max(0, len(room.starts) - 2)} hands measured (those are measured); the last said: "
                          f"{last}")
                    break
        finally:
            lines.typed.put_nowait("quit")
            await asyncio.wait_for(task, 30)
            voice_task.cancel()
            if running is not None:
                await running.stop(grace=0.2)
            shutil.rmtree(folder, ignore_errors=True)
    for said in lines.said:  # what the voice had not reached when the bench stopped listening
        if not said.ends:
            said.ends = said.at + voice.seconds(said.text)
    if os.environ.get("CARDTUI_BENCH_SPEECH_SAID") and len(room.starts) > 1:  # every sentence: when, how long, how
        # late it ended
        print(f"  -- {game} {lang} {level} {voice.rate} wpm seed {seed}: every sentence (from the first hand measured)")
        for said in lines.said:
            print(f"    {said.at - room.starts[1]:8.2f} {voice.seconds(said.text):6.2f} "
                  f"{said.ends - said.at:6.2f}  {said.text}")
    out = []
    for n in range(1, min(hands, len(room.starts) - 2, len(room.ends) - 1) + 1):  # the first began before the
        # table was open: left out; a table stuck (``STALL``) is measured on the hands it finished
        begin, end = room.starts[n], room.ends[n]
        after = min(room.starts[n + 1], end + PAUSE)  # at a match's end, a rematch waits for its answers
        heard = [s for s in lines.said if begin <= s.at < after]
        speech = sum(voice.seconds(s.text) for s in heard)
        lag = max([0.0, *(s.ends - after for s in lines.said if s.at < after)])
        waited = sum(s.begins - s.at for s in heard if s.turn)
        runs = sum(len(runs_of_numbers(s.text)) for s in heard)
        own = any(mine.search(s.text) for s in heard if s.at >= end)
        late = sum(s.late for s in heard if s.turn)
        timed_out = sum(s.text == up for s in heard)
        out.append(Hand(game, lang, after - begin, end - begin, speech, len(heard), lag, waited, runs, own, late,
                        timed_out))
    return out


def own_total() -> re.Pattern[str]:
    """The player's own total as a hand's result says it ("you 19", "we 15"), in the reader's language."""
    words = [re.escape(_(t)).replace(r"\{n\}", r"\d+") for t in ("you {n}", "we {n}")]
    return re.compile("|".join(words), re.IGNORECASE)


LEVELS = (("terse", FAST), ("terse", DEFAULT_RATE), ("verbose", DEFAULT_RATE))
"""What is measured of each game: the terse level at a practised reader's rate and at the default (the marks),
the verbose level at the default (the baseline)."""


def spread(hands: list[Hand], draws: int = 2000, seed: int = SEED) -> tuple[float, float]:
    """The 90% interval of the speech's share of the hands' time, resampling the hands (bootstrap): a cut is seen
    only where it moves the share past the noise of which hands the deals and the bots' timing happened to give."""
    rng = random.Random(seed)
    shares = sorted(sum(h.speech for h in drawn) / sum(h.seconds for h in drawn)
                    for drawn in ([rng.choice(hands) for _ in hands] for _ in range(draws)))
    return shares[int(0.05 * draws)], shares[int(0.95 * draws) - 1]


def run(print: Callable[[str], None], hands: int = HANDS, games: tuple[str, ...] = GAMES,
        langs: tuple[str, ...] = ("en",), seed: int = SEED, baseline: bool = True,
        rates: tuple[int, ...] = (FAST, DEFAULT_RATE), together: bool = False, tables: int = 1) -> dict[str, float]:
    """Each game's speech against its hands' time, at the terse level at each rate (held to the marks) and at the
    verbose one (the baseline, left out without ``baseline``: Pif Paf's hands take minutes each at a room's pace),
    the same seed; the terse ratios by game, language and rate (the terse level at ``rates`` alone). With
    ``tables`` above one each is measured at that many tables (the player's seed ``seed``, ``seed`` + 1, ...), their
    hands pooled, and each table's share printed beside the pooled one with its interval (``spread``)."""
    if shutil.which("espeak-ng") is None:
        print("  espeak-ng is missing: make bench installs it from Debian (apt-get install espeak-ng)")
        return {}
    ratios: dict[str, float] = {}
    voices = {(lang, rate): Voice(VOICES[lang], rate) for lang in langs for rate in (DEFAULT_RATE, FAST)}
    wanted = [(lang, game, level, rate, k) for lang in langs for game in games for level, rate in LEVELS
              if (baseline or level == "terse") and (level != "terse" or rate in rates) for k in range(tables)]
    try:
        if together:  # every table at once, as a room plays them: the run takes its longest table's time
            async def every() -> list[list[Hand]]:
                """One room (one server, as a host runs it) with every table at once, each player of its own."""
                asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(len(wanted) + 4))  # espeak-ng
                folder = Path(tempfile.mkdtemp(prefix="cardtui-speech-room-"))
                # every player at one address, as no room's are: as many tables a minute as there are players
                running = await start("127.0.0.1", 0, folder / "store.db",
                                      limits=Limits(tables_per_minute=float(len(wanted) + 1)))
                opening = asyncio.Semaphore(2)
                try:  # a table that fails is said, and the others measured
                    played = await asyncio.gather(*(
                        play(game, lang, hands, seed + k, voices[lang, rate], level, f"127.0.0.1:{running.port}",
                             PLAYERS[n % len(PLAYERS)] + "a" * (n // len(PLAYERS)), opening)
                        for n, (lang, game, level, rate, k) in enumerate(wanted)), return_exceptions=True)
                    for w, p in zip(wanted, played, strict=True):
                        if isinstance(p, BaseException):
                            print(f"  {w[1]:16s} {w[0]:5s} {w[2]:7s} {w[3]} wpm table {w[4]}: not measured "
                                  f"({p!r:.200})")
                    return [p if isinstance(p, list) else [] for p in played]
                finally:
                    await running.stop(grace=0.2)
                    shutil.rmtree(folder, ignore_errors=True)
            measured_all = dict(zip(wanted, asyncio.run(every()), strict=True))
        else:
            measured_all = {w: asyncio.run(play(w[1], w[0], hands, seed + w[4], voices[w[0], w[3]], w[2]))
                            for w in wanted}
        for lang in langs:
            for game in games:
                by_table: dict[tuple[str, int], list[list[Hand]]] = {}
                for (la, ga, level, rate, _k), m in measured_all.items():
                    if (la, ga) == (lang, game) and m:
                        by_table.setdefault((level, rate), []).append(m)
                heard = {key: [h for m in ms for h in m] for key, ms in by_table.items()}
                for (level, rate), measured in heard.items():
                    speech = sum(h.speech for h in measured)
                    seconds = sum(h.seconds for h in measured)
                    each = [h.ratio for h in measured]
                    ratio = speech / seconds
                    mark = MARKS[rate][game]
                    verdict = (f"mark x{mark}: {'within' if ratio <= mark else 'OVER'}" if level == "terse"
                               else "the baseline")
                    if level == "terse":
                        ratios[f"{game}/{lang}/{rate}"] = ratio
                    print(f"  {game:16s} {lang:5s} {level:7s} {rate} wpm, {len(measured)} hands (seed {seed}): speech "
                          f"{speech:6.1f} s for {seconds:6.1f} s of play: x{ratio:.2f} ({verdict}); hands "
                          f"x{min(each):.2f} to x{max(each):.2f} (median x{statistics.median(each):.2f}); the "
                          f"voice {max(h.lag for h in measured):.1f} s behind at worst; numbers run together "
                          f"{sum(h.runs for h in measured)}; results without the player's total "
                          f"{sum(not h.own_total for h in measured)}; answers late for the timing "
                          f"{sum(h.late for h in measured):.1f} s; turns timed out "
                          f"{sum(h.timed_out for h in measured)}")
                    if len(by_table[level, rate]) > 1 or len(measured) > 1:
                        low, high = spread(measured)
                        shares = ", ".join(f"x{sum(h.speech for h in m) / sum(h.seconds for h in m):.2f}"
                                           for m in by_table[level, rate])
                        timed_out = sum(h.timed_out for h in measured)
                        late = sum(h.late for h in measured)
                        clean = ("clean" if not timed_out and late <= 1.0 else
                                 f"NOT CLEAN: {timed_out} turns timed out, answers {late:.1f} s late (a busy "
                                 "machine lengthens the hands: the share reads low)")
                        print(f"  {game:16s} {lang:5s} {level:7s} {rate} wpm: x{ratio:.2f}, 90% x{low:.2f} to "
                              f"x{high:.2f} over {len(measured)} hands; by table {shares}; {clean}")
                if not baseline or DEFAULT_RATE not in rates:
                    continue
                terse = heard[("terse", DEFAULT_RATE)]
                verbose = heard[("verbose", DEFAULT_RATE)]
                said = sum(h.speech for h in terse) / sum(h.seconds for h in terse)
                base = sum(h.speech for h in verbose) / sum(h.seconds for h in verbose)
                print(f"  {game:16s} {lang:5s} terse says x{said / base:.2f} of verbose's speech per second of "
                      "play")
    finally:
        for voice in voices.values():
            voice.close()
    return ratios
