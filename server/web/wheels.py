"""The wheels the host's page hands out: the client's own, and those of everything it needs, as a simple index.

A friend installs the client from the host (``cardtui.installing`` says the lines): its wheel at the page's
root, and, for a friend with no internet on the same platform as the host, every wheel the client needs at
``/simple/`` (PEP 503), so that ``pip install --index-url http://HOST:8080/simple/ cardtui`` needs nothing
else. The index holds what the client needs as this host installed it: cardtui's requirements (no extras),
with their requirements, each as installed here, found by ``importlib.metadata`` and
``packaging``'s reading of each requirement and its markers.

Where each wheel comes from:

- A distribution installed from a wheel (pip, pipx, uv: its ``RECORD`` lists every file it installed) is
  packed back into one: its files as they are, its ``.dist-info`` less what the installer added (the
  ``INSTALLER``, ``REQUESTED`` and ``direct_url.json`` files, compiled bytecode, and ``RECORD``, written
  anew with each file's hash), its console scripts left for the friend's installer to make from its
  ``entry_points.txt`` again, the files it put beside the environment (data, other scripts) under its
  ``.data`` folder. The file name's tags are its ``WHEEL`` file's. So the friend runs what the host runs,
  byte for byte, and the wheel installs where the host's did. No well-kept library packs an installed
  distribution back into a wheel; the format is the wheel specification's few rules, and a test installs
  what this writes with pip.
- cardtui installed editable (a clone's ``make play``: its ``RECORD`` holds no module, only the finder that
  maps the checkout's folders) is built from the checkout its ``direct_url.json`` names: its folders copied
  as they are now (a build in the checkout itself would write there, beside another build running at once),
  then setuptools' own build backend, the one ``pyproject.toml`` names, run by this interpreter where it
  has the version ``build-system.requires`` asks for; else ``pip wheel`` builds it in an environment of its
  own, fetching setuptools as the clone's editable install did (from pip's cache, or the index). The wheel
  is then the checkout's code when the first friend asked, which is the server's unless someone edits the
  checkout while the server runs.

Each wheel is compressed at zlib's fastest level: for the host's dependencies (38 MB, against 34 MB at the default
level) that halves the CPU packing them takes (6.7 s to 3.1 s), which the first friend waits for, while the 4 MB
more cross a LAN in well under a second.

Each wheel is made the first time someone asks for it, once per process (a room nobody installs from
spends nothing on them), in a folder of its own under the system's temporary folder, removed when the page
stops. The page serves the client's own wheel under ``installing.wheel_name``.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import functools
import hashlib
import importlib.metadata as metadata
import io
import json
import logging
import platform
import shutil
import sys
import sysconfig
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from cardtui import __version__
from cardtui.installing import PROJECT, wheel_name

log = logging.getLogger("cardtui.wheels")

ADDED_BY_INSTALLERS = frozenset({"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"})
"""The files of a ``.dist-info`` an installer writes, which no wheel holds (the wheel specification, PEP 610)."""
BUILD_SECONDS = 300.0
"""The longest the client's own wheel may take to build from a checkout before the page says it cannot."""


class NoWheel(Exception):
    """A wheel that cannot be made here; the sentence says why."""


@dataclass(frozen=True, slots=True)
class Project:
    """One project of the index: its name as installed, its normalized name (PEP 503), its distribution."""

    name: str
    key: str
    dist: metadata.Distribution

    @property
    def requires_python(self) -> str:
        return str((self.dist.metadata.get_all("Requires-Python") or [""])[0])


def installed(name: str) -> metadata.Distribution:
    """The distribution ``name`` as installed: of those the import path shows, the first an installer
    recorded (a ``RECORD``), not a build's leftover ``.egg-info`` in the folder a process was started
    from. Raises ``PackageNotFoundError`` if there is none."""
    found = list(metadata.distributions(name=name))
    if not found:
        raise metadata.PackageNotFoundError(name)
    return next((d for d in found if d.read_text("RECORD") is not None), found[0])


def needed(root: str = PROJECT) -> dict[str, Project]:
    """``root`` and everything it requires as installed here, by normalized name: its requirements whose
    markers hold in this environment, with the extras a requirement asks for (``markdown-it-py[linkify]``
    brings ``linkify-it-py``), and theirs."""
    return needs(root)[0]


def needs(root: str = PROJECT) -> tuple[dict[str, Project], list[str]]:
    """``needed``, and the requirements not installed here (which the index cannot have either)."""
    found: dict[str, Project] = {}
    missing: list[str] = []
    seen: set[tuple[str, str]] = set()
    """(project, extra) pairs whose requirements are followed; "" is the project without an extra."""
    todo: list[tuple[str, str]] = [(root, "")]
    while todo:
        name, extra = todo.pop()
        try:
            dist = installed(name)
        except metadata.PackageNotFoundError:  # asked for, yet not installed: the index cannot have it either
            log.warning("%s is required (by %s) but not installed here: the page's index lacks it", name, root)
            missing.append(name)
            continue
        key = canonicalize_name(str(dist.metadata["Name"]))
        if (key, extra) in seen:
            continue
        seen.add((key, extra))
        found.setdefault(key, Project(str(dist.metadata["Name"]), key, dist))
        for line in dist.requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": extra}):
                todo += [(requirement.name, "")] + [(requirement.name, e) for e in sorted(requirement.extras)]
    return found, missing


def packable(project: Project) -> bool:
    """Whether the project's wheel can be made here without building anything but cardtui: installed from a
    wheel (its ``RECORD`` and its ``WHEEL`` tags), or a checkout installed editable (built as a friend asks)."""
    dist = project.dist
    if editable_source(dist) is not None:
        return True
    wheel = dist.read_text("WHEEL") or ""
    return dist.read_text("RECORD") is not None and any(line.startswith("Tag:") for line in wheel.splitlines())


def system() -> str:
    """This host's system as its wheels are made for: "Linux x86_64, Python 3.11"."""
    return f"{platform.system()} {platform.machine()}, Python {sys.version_info[0]}.{sys.version_info[1]}"


@functools.cache
def offline_system() -> str:
    """``Wheelhouse.offline`` of this process's environment, found once (the server says it in ``ServerInfo``;
    what is installed does not change while it runs)."""
    return Wheelhouse().offline()


def editable_source(dist: metadata.Distribution) -> Path | None:
    """The checkout an editable install maps (PEP 610's ``direct_url.json``), or None if it is not one."""
    said = dist.read_text("direct_url.json")
    if not said:
        return None
    try:
        where = json.loads(said)
    except ValueError:
        return None
    if not (where.get("dir_info") or {}).get("editable"):
        return None
    url = urlsplit(str(where.get("url", "")))
    return Path(unquote(url.path)) if url.scheme == "file" else None


def _digest(data: bytes) -> str:
    """A ``RECORD`` file's hash: ``sha256=`` and the digest in URL-safe base64, unpadded."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def tags_of(dist: metadata.Distribution) -> str:
    """The file name's tags from the ``WHEEL`` file's (``cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64``):
    each part the tags' values joined by dots, in their order."""
    tags = [line.split(":", 1)[1].strip() for line in (dist.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    if not tags:
        raise NoWheel(f"{dist.metadata['Name']} says no tag in its WHEEL file: it was not installed from a wheel.")
    parts: list[list[str]] = [[], [], []]
    for tag in tags:
        for kept, part in zip(parts, tag.split("-"), strict=True):
            if part not in kept:
                kept.append(part)
    return "-".join(".".join(p) for p in parts)


def _scripts(dist: metadata.Distribution) -> set[str]:
    """The names of the scripts an installer makes from the distribution's entry points."""
    names: set[str] = set()
    for point in dist.entry_points:
        if point.group in ("console_scripts", "gui_scripts"):
            names |= {point.name, f"{point.name}.exe", f"{point.name}-script.py", f"{point.name}-script.pyw"}
    return names


def _inside(path: Path, folder: str) -> Path | None:
    try:
        return path.relative_to(Path(folder).resolve())
    except ValueError:
        return None


def pack(dist: metadata.Distribution, out: Path) -> Path:
    """An installed distribution packed back into a wheel in ``out`` (see the module's docstring)."""
    files = list(dist.files or ())
    info = next((f.parts[0] for f in files if f.parts and f.parts[0].endswith(".dist-info")), None)
    if info is None or not any(f.name == "RECORD" for f in files):
        raise NoWheel(f"{dist.metadata['Name']} lists none of its files: it was not installed from a wheel.")
    name, version = str(dist.metadata["Name"]), str(dist.version)
    data = f"{info[:-len('.dist-info')]}.data"
    site = Path(str(dist.locate_file(""))).resolve()
    paths = sysconfig.get_paths()
    made = _scripts(dist)
    target = out / f"{canonicalize_name(name).replace('-', '_')}-{version}-{tags_of(dist)}.whl"
    record: list[tuple[str, str, str]] = []
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as wheel:
        def put(arcname: str, content: bytes, mode: int = 0o644) -> None:
            entry = zipfile.ZipInfo(arcname, (1980, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16  # a file, with its permissions (a script's x bits)
            wheel.writestr(entry, content, zipfile.ZIP_DEFLATED, 1)
            record.append((arcname, _digest(content), str(len(content))))

        for file in files:
            path = Path(str(dist.locate_file(file))).resolve()
            if path.suffix == ".pyc" or "__pycache__" in file.parts or not path.is_file():
                continue
            if file.parts[0] == info and file.name in ADDED_BY_INSTALLERS and len(file.parts) == 2:
                continue
            content = path.read_bytes()
            mode = path.stat().st_mode & 0o777
            inside = _inside(path, str(site))
            if inside is not None:
                put(inside.as_posix(), content, mode)
            elif (script := _inside(path, paths["scripts"])) is not None:
                if script.name in made:
                    continue  # made again by the friend's installer from entry_points.txt
                if content.startswith(b"#!") and b"python" in content.split(b"\n", 1)[0]:
                    content = b"#!python" + content[content.index(b"\n"):] if b"\n" in content else b"#!python"
                put(f"{data}/scripts/{script.as_posix()}", content, mode)
            elif (other := _inside(path, paths["data"])) is not None:
                put(f"{data}/data/{other.as_posix()}", content, mode)
            else:
                log.info("%s: %s is outside this environment; left out of its wheel", name, path)
        listing = io.StringIO()
        writer = csv.writer(listing, lineterminator="\n")
        writer.writerows(record)
        writer.writerow((f"{info}/RECORD", "", ""))
        wheel.writestr(zipfile.ZipInfo(f"{info}/RECORD", (1980, 1, 1, 0, 0, 0)), listing.getvalue(),
                       zipfile.ZIP_DEFLATED)
    partial.replace(target)
    return target


def _copy_checkout(source: Path, into: Path) -> None:
    """What setuptools builds the wheel from: ``pyproject.toml``, the files it names, and each folder of its
    package map, as they are now (bytecode and compiled modules left out)."""
    with (source / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    named = ["pyproject.toml", "README.md", *project["project"].get("license-files", ())]
    for name in named:
        if (source / name).is_file():
            shutil.copy2(source / name, into / name)
    folders = set(project.get("tool", {}).get("setuptools", {}).get("package-dir", {}).values())
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd")
    for folder in sorted(folders):
        shutil.copytree(source / folder, into / folder, ignore=ignore)


BUILD = "import sys\nfrom setuptools import build_meta\nprint(build_meta.build_wheel(sys.argv[1]))\n"


def backend_here(checkout: Path) -> bool:
    """Whether this interpreter has what ``pyproject.toml`` builds with (``build-system.requires``, e.g.
    ``setuptools>=77``), at a version it accepts: a venv's own setuptools may be older (a venv of Python 3.11
    starts with the one ``ensurepip`` bundles), and then ``pip wheel`` builds in an environment of its own."""
    with (checkout / "pyproject.toml").open("rb") as f:
        wanted = tomllib.load(f).get("build-system", {}).get("requires", [])
    for line in wanted:
        requirement = Requirement(line)
        try:
            version = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


async def build(source: Path, out: Path) -> Path:
    """The wheel of the checkout at ``source``, built in a copy of it, into ``out``."""
    work = Path(tempfile.mkdtemp(prefix="checkout-", dir=out))
    try:
        _copy_checkout(source, work)
        if backend_here(work):
            command = [sys.executable, "-c", BUILD, str(out)]
        else:
            command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), "."]
        process = await asyncio.create_subprocess_exec(*command, cwd=work, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        try:
            said, _ = await asyncio.wait_for(process.communicate(), BUILD_SECONDS)
        except TimeoutError:
            process.kill()
            await process.wait()
            raise NoWheel(f"Building the client's wheel took longer than {BUILD_SECONDS:.0f} s.") from None
        except asyncio.CancelledError:
            process.kill()
            raise
        if process.returncode:
            log.warning("building the client's wheel from %s failed:\n%s", source, said.decode(errors="replace"))
            raise NoWheel("The client's wheel could not be built from this server's checkout (the log says why).")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    made = out / wheel_name(__version__)
    if not made.is_file():
        raise NoWheel(f"The build made no {made.name}.")
    return made


class Wheelhouse:
    """The wheels one page serves, each made once, the first time it is asked for (see the module)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.projects: dict[str, Project] | None = None
        self.missing: list[str] = []
        """Requirements not installed here: the index lacks them."""
        self.whole: bool | None = None
        self.made: dict[str, Path] = {}
        """Each project's wheel, by normalized name, once made."""
        self.locks: dict[str, asyncio.Lock] = {}
        self.digests: dict[Path, str] = {}

    def index(self) -> dict[str, Project]:
        """The projects of the index: cardtui and what it needs, as installed here."""
        if self.projects is None:
            self.projects, self.missing = needs(PROJECT)
        return self.projects

    def complete(self) -> bool:
        """Whether the index can serve every wheel the client needs, so that a friend on this host's system
        installs from the host alone: nothing required is missing here, and each project can be packed (or,
        cardtui from a checkout, built)."""
        if self.whole is None:
            projects = self.index()
            self.whole = not self.missing and all(packable(p) for p in projects.values())
        return self.whole

    def offline(self) -> str:
        """The system a friend installs the client from the host alone on (``system``), or "" where the index
        cannot serve every wheel the client needs."""
        return system() if self.complete() else ""

    async def wheel(self, key: str) -> Path:
        """The wheel of the project ``key`` (normalized), made now if it was not yet. Raises ``NoWheel``."""
        project = self.index().get(key)
        if project is None:
            raise NoWheel(f"{key} is not among the wheels this page serves.")
        if key in self.made:
            return self.made[key]
        async with self.locks.setdefault(key, asyncio.Lock()):
            if key in self.made:
                return self.made[key]
            if self.folder is None:
                self.folder = Path(tempfile.mkdtemp(prefix="cardtui-wheels-"))
            source = editable_source(project.dist)
            if source is not None:
                path = await build(source, self.folder)
            else:
                path = await asyncio.to_thread(pack, project.dist, self.folder)
            log.info("made %s (%d kB) for the page", path.name, path.stat().st_size // 1024)
            self.made[key] = path
            return path

    def digest(self, path: Path) -> str:
        """The wheel's SHA-256 in hex, as the index gives it after ``#sha256=`` (PEP 503)."""
        if path not in self.digests:
            self.digests[path] = hashlib.sha256(path.read_bytes()).hexdigest()
        return self.digests[path]

    def close(self) -> None:
        """Remove the wheels made (the page has stopped)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
        self.made.clear()
        self.digests.clear()
