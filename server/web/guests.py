"""Browser guests' processes: forked from a warm parent, or started cold where forking is not possible.

Each browser tab is one client process (``cardtui connect SERVER --ask-name``) talking
textual-serve's protocol on its stdin and stdout. Started cold, every tab pays for a Python
interpreter and for importing Textual, grpc and the client, in memory and in time before the
name prompt (``bench/marks.md``, "Browser guests"). So the page keeps one warm parent that has imported all of that once
(and nothing else: no event loop, no gRPC channel, no thread) and forks a guest per tab. The
guests share the parent's pages copy-on-write (``gc.freeze()`` before each fork keeps the
collector from writing to them), and a guest is on screen as soon as its app has composed.

grpc and fork: the parent imports grpc but never creates a channel or a server, so grpc's
core is not initialized and has no threads when it forks; each guest initializes its own
(grpc's fork support, ``GRPC_ENABLE_FORK_SUPPORT``, is for forking *after* channels exist,
and is left off). The same holds for asyncio: the parent never runs a loop; each guest's app
makes its own.

What a forked guest costs is mostly pages of the parent it writes to: in Python 3.11 every
object a guest's code touches has its reference count written, so about half the parent's
pages end up copied whatever is done. Four things keep the rest down (``bench/marks.md``,
issue 29 §2): the parent takes up the holes of its C heap before it forks
(``fill_heap_holes``), so a guest's own mallocs go to pages of their own rather than into
pages it shares; a guest collects cyclic garbage sooner (``GUEST_GC``), so a screen's
discarded objects do not pile up; a guest's strips keep no caches of their own (the client's
``textual_internals.lighter_strips``, which the parent's warm-up calls: this module imports nothing
of the client); and a guest hands the free pages inside its heap back to the system
(``trim_heap_every``).

The page tracks a forked guest by a pidfd (Linux 5.3+) that the parent opens before it can
reap the child: it can kill the guest and learn that it is gone without racing a reused pid.
Each guest dies with the parent (``PR_SET_PDEATHSIG``) and the parent with the page's process,
so nothing outlives the server. Where there is no fork or pidfd (macOS, Windows, an old
kernel), or the warm parent fails, a guest is started cold, as before.

The parent's entry is ``cardtui.guest_parent``, at the package's root beside the command line: it
hands this module what the parent imports before it forks and what a guest runs (the command
line), so the server imports nothing of the command line, which imports the server.

The wire between the page and the parent is a SOCK_SEQPACKET socket pair: a request is one
JSON message (columns, rows, language) with the guest's two sockets (stdio, stderr) attached;
the answer is ``{"pid": N}`` with the pidfd attached, or ``{"error": "..."}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import NoReturn

from cardtui import heap

log = logging.getLogger("cardtui.web")

PARENT = "cardtui.guest_parent"
"""The warm parent's module, run as ``python -m PARENT FD TARGET [TLS_CA]``."""
Run = Callable[[list[str]], int]
"""What a guest runs: the command line, given the guest's arguments (``client_args``); its exit code."""

QUIT_SECONDS = 3.0
"""How long a guest's process has to quit when its browser leaves, before it is killed."""
START_SECONDS = 15.0
"""How long the warm parent may take to import the client, and to answer a fork request."""
STDERR_KEPT = 16 * 1024
"""The most of a guest's stderr kept for the log (a traceback's tail)."""
PR_SET_PDEATHSIG = 1
GUEST_GC = (700, 2, 2)
"""A forked guest's collector thresholds: Python's default for the youngest generation, and the
older two collected five times as often as by default (10, 10). Textual leaves its discarded
nodes in cycles (each node and its styles point at each other, and every restyle of a widget
with component classes makes and drops a node per class), so going from the lobby to a table
leaves garbage that only a full collection frees; collected sooner, a guest at a table holds
less, for a little more CPU (``bench/marks.md``). The parent's objects are frozen
(``gc.freeze``), so a full collection walks only the guest's own."""


HEAP_TRIM_SECONDS = 1.0
"""How often a forked guest hands the free pages inside its C heap back to the system."""


def trim_heap_every(seconds: float = HEAP_TRIM_SECONDS) -> threading.Thread | None:
    """Hand the free pages inside the C heap back to the system every ``seconds`` (glibc's
    ``malloc_trim``), from a daemon thread of its own; None where the C library is not glibc.

    glibc gives memory back to the system from the top of its heap only. Going from the lobby to
    a table frees a good deal below the top (the lobby's widgets, grpc's and protobuf's buffers),
    and those pages stayed counted as the guest's own. Trimmed, a guest at a table holds less
    (``make bench --only guests``; the figures in ``bench/marks.md``), for no CPU the bench can see
    (a trim walks the heap's free chunks)."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return None
    trim = ctypes.CDLL(None).malloc_trim
    trim.argtypes = [ctypes.c_size_t]

    def trimming() -> None:
        while True:
            time.sleep(seconds)
            trim(0)

    thread = threading.Thread(target=trimming, name="heap-trim", daemon=True)
    thread.start()
    return thread


def guest_environment(columns: int, rows: int) -> dict[str, str]:
    """What textual-serve sets for an app it serves (``AppService._build_environment``): the web
    driver (Textual's, its sizes kept in order: ``client.textual_internals.GuestDriver``), its frame
    rate and colours, and the terminal's first size. Never the host's table
    password (``cardtui.cli.flags.PASSWORD_ENV``): a guest is a stranger."""
    env = dict(os.environ)
    env.pop("CARDTUI_PASSWORD", None)
    env.update({
        "TEXTUAL_DRIVER": "cardtui.client.textual_internals:GuestDriver",  # the web driver, sizes in order
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "TERM_PROGRAM_VERSION": version("textual-serve"),
        "COLUMNS": str(columns),
        "ROWS": str(rows),
    })
    return env


def client_args(target: str, lang: str, tls_ca: Path | None, table: str = "", code: str = "",
                bell: bool = False, reader: bool = False, touch: bool = False) -> list[str]:
    """The ``cardtui`` arguments of one guest: the client, asking the guest's name; with ``table``
    (an invite's link), the invite's ``cardtui://`` form, so the guest sits there once named; with
    ``bell``, the bell at the guest's turn on, as their browser remembers it (client.turn_bell); with
    ``reader``, the line mode for a screen reader (client.lines), as the guest's page asked; with ``touch``, a
    table played by taps (no keys named), the page being on a touch screen."""
    if table:
        target = f"cardtui://{target}/table/{table}" + (f"?code={code}" if code else "")
    args = ["--lang", lang, "connect", target, "--ask-name", *(["--bell"] if bell else []),
            *(["--screen-reader"] if reader else []), *(["--touch"] if touch else [])]
    if tls_ca is not None:
        args += ["--tls-ca", str(tls_ca.resolve())]
    return args


class GuestProcess(ABC):
    """One guest's running client, however it was started: its pipes, and a way to end it."""

    pid: int
    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    stderr: asyncio.StreamReader

    @property
    @abstractmethod
    def gone(self) -> bool:
        """The process has exited (or been killed, and is dead)."""

    @abstractmethod
    async def wait(self) -> None:
        """Until the process is gone."""

    @abstractmethod
    def kill(self) -> None:
        """SIGKILL, if it is still there."""

    def close_pipes(self) -> None:
        """Let go of its stdin, stdout and stderr (a guest killed or gone needs them no more)."""
        with contextlib.suppress(Exception):
            self.stdin.close()


class ColdGuest(GuestProcess):
    """A guest started as its own ``python -m cardtui.cli`` (the page's child)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin and process.stdout and process.stderr
        self.process = process
        self.pid = process.pid
        self.stdin, self.stdout, self.stderr = process.stdin, process.stdout, process.stderr

    @property
    def gone(self) -> bool:
        return self.process.returncode is not None

    async def wait(self) -> None:
        await self.process.wait()

    def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()


class ForkedGuest(GuestProcess):
    """A guest forked by the warm parent (not the page's child): watched and killed by its pidfd."""

    stderr_end: asyncio.StreamWriter

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.exited = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().add_reader(pidfd, self._exited)

    @classmethod
    async def attach(cls, pid: int, pidfd: int, stdio: socket.socket, stderr: socket.socket) -> ForkedGuest:
        guest = cls(pid, pidfd)
        try:
            guest.stdout, guest.stdin = await asyncio.open_connection(sock=stdio)
            guest.stderr, guest.stderr_end = await asyncio.open_connection(sock=stderr)
        except BaseException:
            guest.kill()
            stdio.close()
            stderr.close()
            raise
        return guest

    def close_pipes(self) -> None:
        super().close_pipes()
        with contextlib.suppress(Exception):
            self.stderr_end.close()

    def _exited(self) -> None:  # a pidfd turns readable when its process exits
        asyncio.get_running_loop().remove_reader(self.pidfd)
        os.close(self.pidfd)
        if not self.exited.done():
            self.exited.set_result(None)

    @property
    def gone(self) -> bool:
        return self.exited.done()

    async def wait(self) -> None:
        await asyncio.shield(self.exited)

    def kill(self) -> None:
        if not self.exited.done():
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)


class Launcher:
    """Starts guests cold: a fresh interpreter per guest. Always works; costs the most."""

    def __init__(self, target: str, tls_ca: Path | None = None) -> None:
        self.target = target
        self.tls_ca = tls_ca

    async def start(self) -> None:
        """Ready what launching needs (nothing, cold)."""

    async def launch(self, columns: int, rows: int, lang: str, table: str = "", code: str = "",
                     bell: bool = False, reader: bool = False, touch: bool = False) -> GuestProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cardtui.cli",
            *client_args(self.target, lang, self.tls_ca, table, code, bell, reader, touch),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=guest_environment(columns, rows),
        )
        return ColdGuest(process)

    async def close(self) -> None:
        """Stop what launching needed."""


def can_fork() -> bool:
    """Forking guests needs fork, pidfds (Linux 5.3+) and descriptor passing."""
    if not (hasattr(os, "fork") and hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")
            and hasattr(socket, "SOCK_SEQPACKET") and hasattr(socket, "send_fds")):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


class WarmLauncher(Launcher):
    """Forks guests from a warm parent it keeps running; cold where that fails (the log says why).

    A parent that fails (no answer within ``START_SECONDS``, or gone) is stopped, which ends
    the guests it forked, and started again for the next guest; after ``GIVE_UP`` failures
    guests start cold."""

    GIVE_UP = 3

    def __init__(self, target: str, tls_ca: Path | None = None) -> None:
        super().__init__(target, tls_ca)
        self.parent: asyncio.subprocess.Process | None = None
        self.control: socket.socket | None = None
        self.lock = asyncio.Lock()
        self.ready = False
        """The parent has said it is ready (its imports are done)."""
        self.asked = 0
        """Requests sent, to match each answer to its request (one whose asker gave up is killed)."""
        self.failures = 0

    async def start(self) -> None:
        if not can_fork():
            log.info("browser guests start cold here (no fork or pidfd)")
            self.failures = self.GIVE_UP
            return
        async with self.lock:
            await self._start_parent()

    async def wait_ready(self) -> bool:
        """Until the parent has imported the client; whether guests will be forked."""
        async with self.lock:
            with contextlib.suppress(OSError, ValueError, TimeoutError):
                await asyncio.wait_for(self._hello(), START_SECONDS)
        return self.ready

    async def _start_parent(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        args = [sys.executable, "-m", PARENT, str(theirs.fileno()), self.target]
        if self.tls_ca is not None:
            args.append(str(self.tls_ca.resolve()))
        try:
            self.parent = await asyncio.create_subprocess_exec(
                *args, pass_fds=(theirs.fileno(),), stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
                env=guest_environment(80, 24),
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self.control, self.ready = ours, False
        asyncio.get_running_loop().create_task(self._log_parent_stderr(self.parent))

    async def _log_parent_stderr(self, parent: asyncio.subprocess.Process) -> None:
        assert parent.stderr is not None
        async for line in parent.stderr:
            log.warning("browser guests' parent: %s", line.decode(errors="replace").rstrip())

    async def _hello(self) -> None:
        if not self.ready and self.control is not None:
            hello, fds = await self._receive()
            if hello.get("ready") is not True or fds:
                raise ValueError(f"the warm parent said {hello!r}")
            self.ready = True

    async def _receive(self) -> tuple[dict[str, object], list[int]]:
        """The parent's next message, with the descriptors attached."""
        control = self.control
        assert control is not None
        loop = asyncio.get_running_loop()
        while True:
            readable = loop.create_future()
            loop.add_reader(control, readable.set_result, None)
            try:
                await readable
            finally:
                loop.remove_reader(control)
            try:
                data, fds, _, _ = socket.recv_fds(control, 4096, 1)
            except BlockingIOError:
                continue
            if not data:
                raise ConnectionError("the warm parent has gone")
            answer = json.loads(data)
            if not isinstance(answer, dict):
                raise ValueError(f"the warm parent said {answer!r}")
            return answer, fds

    async def launch(self, columns: int, rows: int, lang: str, table: str = "", code: str = "",
                     bell: bool = False, reader: bool = False, touch: bool = False) -> GuestProcess:
        async with self.lock:
            if self.control is None and self.failures < self.GIVE_UP:
                await self._start_parent()
            if self.control is not None:
                try:
                    return await asyncio.wait_for(self._fork(columns, rows, lang, table, code, bell, reader,
                                                             touch), START_SECONDS)
                except (OSError, ValueError, TimeoutError) as err:
                    self.failures += 1
                    log.warning("the warm parent of browser guests failed (%s); this guest starts cold", err)
                    await self._stop_parent()
        return await super().launch(columns, rows, lang, table, code, bell, reader, touch)

    async def _fork(self, columns: int, rows: int, lang: str, table: str = "", code: str = "",
                    bell: bool = False, reader: bool = False, touch: bool = False) -> GuestProcess:
        await self._hello()
        assert self.control is not None
        self.asked += 1
        asked = self.asked
        stdio, child_stdio = socket.socketpair()
        err, child_err = socket.socketpair()
        try:
            with child_stdio, child_err:
                socket.send_fds(self.control, [json.dumps({"n": asked, "columns": columns, "rows": rows,
                                                           "lang": lang, "table": table, "code": code,
                                                           "bell": bell, "reader": reader,
                                                           "touch": touch}).encode()],
                                [child_stdio.fileno(), child_err.fileno()])
            while True:
                answer, fds = await self._receive()
                if answer.get("n") == asked:
                    break
                for fd in fds:  # the guest of a request given up on (its asker was cancelled)
                    with contextlib.suppress(OSError):
                        signal.pidfd_send_signal(fd, signal.SIGKILL)
                    os.close(fd)
            pid = answer.get("pid")
            if not isinstance(pid, int) or len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                raise ValueError(str(answer.get("error", answer)))
        except BaseException:
            stdio.close()
            err.close()
            raise
        return await ForkedGuest.attach(pid, fds[0], stdio, err)

    async def _stop_parent(self) -> None:
        if self.control is not None:
            self.control.close()  # the parent reads the end of its socket and exits
            self.control = None
        parent = self.parent
        if parent is not None and parent.returncode is None:
            try:
                await asyncio.wait_for(parent.wait(), QUIT_SECONDS)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    parent.kill()
                await parent.wait()

    async def close(self) -> None:
        async with self.lock:
            await self._stop_parent()
            self.failures = self.GIVE_UP


# The warm parent: its own process, ``python -m cardtui.guest_parent FD TARGET [TLS_CA]`` (``PARENT``).


def die_with_parent(sig: int) -> None:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def reap(*_: object) -> None:
    """Collect every guest that has exited (SIGCHLD), so none is left a zombie."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def guest(parent: int, stdio: int, stderr: int, size: dict[str, int], args: list[str], run: Run) -> NoReturn:
    """The forked child: become the guest's client on the sockets it was given (``run(args)``), then exit."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        die_with_parent(signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before we asked
            os._exit(1)
        os.dup2(stdio, 0)
        os.dup2(stdio, 1)
        os.dup2(stderr, 2)
        os.close(stdio)
        os.close(stderr)
        os.environ["COLUMNS"] = str(size["columns"])
        os.environ["ROWS"] = str(size["rows"])
        gc.set_threshold(*GUEST_GC)
        gc.enable()
        trim_heap_every()
        code = run(args)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve_forks(control: socket.socket, target: str, tls_ca: Path | None, run: Run) -> None:
    """Fork a guest per request on ``control``, each running ``run``, until the page closes it."""
    me = os.getpid()
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 4096, 2)
        except ConnectionError:  # the page's end closed with our "ready" unread (no guest came): the end
            return
        if not data:
            return
        n: object = None
        try:
            request = json.loads(data)
            n = request["n"]
            size = {"columns": int(request["columns"]), "rows": int(request["rows"])}
            args = client_args(target, str(request["lang"]), tls_ca, str(request.get("table", "")),
                               str(request.get("code", "")), request.get("bell") is True,
                               request.get("reader") is True, request.get("touch") is True)
            if len(fds) != 2:
                raise ValueError(f"a request carries two sockets, not {len(fds)}")
        except (ValueError, KeyError, TypeError) as err:
            for fd in fds:
                os.close(fd)
            control.send(json.dumps({"n": n, "error": str(err)}).encode())
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        heap.freeze("the guests' parent")  # what the guests share is never written to by their collector
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # no reaping before the pidfd is open
        try:
            pid = os.fork()
            if pid == 0:
                control.close()
                guest(me, fds[0], fds[1], size, args, run)
            try:
                pidfd = os.pidfd_open(pid)
            except OSError:
                os.kill(pid, signal.SIGKILL)  # not reaped yet (SIGCHLD is blocked): still ours
                raise
        except OSError as err:  # no memory or processes left for a fork: this guest is refused
            control.send(json.dumps({"n": n, "error": str(err)}).encode())
            continue
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            for fd in fds:
                os.close(fd)
        try:
            socket.send_fds(control, [json.dumps({"n": n, "pid": pid}).encode()], [pidfd])
        finally:
            os.close(pidfd)


def fill_heap_holes(limit: int = 32 * 1024, rounds: int = 8) -> int:
    """Allocate (and keep) the free chunks of glibc's main heap; the bytes left free in them.

    The warm parent's imports leave holes in its C heap (``bench/marks.md``), between blocks that the
    guests share. A guest's mallocs (Python's objects over 512 bytes, grpc's and protobuf's
    buffers) would fill those holes first, and each one would copy a page the guest otherwise
    shares, for a few bytes of its own; with the holes taken, they go to fresh pages at the top
    of the heap. The holes' sizes come from ``malloc_info``; the blocks that fill them are never
    freed (a guest never writes to them, so they stay shared). Elsewhere than glibc, nothing is
    done (-1)."""
    import ctypes
    import platform
    import re

    if platform.libc_ver()[0] != "glibc":
        return -1
    try:
        libc = ctypes.CDLL(None)
        open_memstream, malloc_info, fclose = libc.open_memstream, libc.malloc_info, libc.fclose
        malloc, free = libc.malloc, libc.free
    except (OSError, AttributeError):
        return -1
    open_memstream.restype = ctypes.c_void_p
    open_memstream.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
    malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    fclose.argtypes = [ctypes.c_void_p]
    malloc.restype = ctypes.c_void_p
    malloc.argtypes = [ctypes.c_size_t]
    free.argtypes = [ctypes.c_void_p]
    chunk = re.compile(r'<(?:size|unsorted) from="(\d+)" to="(\d+)" total="(\d+)" count="(\d+)"/>')

    def holes() -> list[tuple[int, int, int]]:
        """(smallest size, total bytes, count) of each class of the main heap's free chunks."""
        text, size = ctypes.c_char_p(), ctypes.c_size_t()
        stream = open_memstream(ctypes.byref(text), ctypes.byref(size))
        if not stream:
            return []
        malloc_info(0, stream)
        fclose(stream)
        xml = ctypes.string_at(text, size.value).decode()
        free(text)
        main = xml.split('<heap nr="0">', 1)[-1].split("</heap>", 1)[0]
        return [(int(a), int(t), int(c)) for a, _b, t, c in chunk.findall(main)]

    left = 0
    for _ in range(rounds):
        classes = holes()
        left = sum(total for _size, total, _count in classes)
        if left <= limit:
            break
        for smallest, _total, count in classes:
            for _ in range(count):  # a chunk of this class, or the most of a larger one
                malloc(max(smallest - 16, 8))
    return left


def warm_parent(argv: list[str], warm_up: Callable[[], None], run: Run) -> int:
    """The warm parent, on the socket and for the server named in ``argv`` (``FD TARGET [TLS_CA]``):
    ``warm_up`` imports what every guest needs, once, before any fork; each guest forked then runs
    ``run`` on its arguments and exits with what it returns."""
    control = socket.socket(fileno=int(argv[0]))
    target = argv[1]
    tls_ca = Path(argv[2]) if len(argv) > 2 else None
    gc.disable()  # no collections (nor the holes they leave) in what the guests will share
    die_with_parent(signal.SIGTERM)
    signal.signal(signal.SIGCHLD, reap)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    warm_up()
    fill_heap_holes()  # last: nothing the parent allocates after it can land in a hole
    # The page may close its end at any time (the server stopping, before any guest came): an end,
    # said by the socket's close or its reset, never a traceback on the host's terminal.
    with contextlib.suppress(KeyboardInterrupt, ConnectionError):
        control.send(json.dumps({"ready": True}).encode())
        serve_forks(control, target, tls_ca, run)
    return 0
