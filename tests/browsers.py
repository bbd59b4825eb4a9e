"""The browsers a worker keeps for its browser tests (the ``browsers`` fixture of ``tests/conftest.py``)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tools.web_shots import Device


class Browsers:
    """Chromium, started once per worker for each size and pixel ratio that tests ask for, and kept: each test
    opens its tabs in a context of its own (``tools.web_shots.fresh_context``: its own cookies, storage, cache),
    so it starts from what a new browser would show, without the second or so of CPU a browser's start takes
    (its browser, GPU and utility processes; the page's renderer is the context's own either way). A browser
    that died is started again for the next test."""

    def __init__(self, chromium: str, profiles: Path) -> None:
        self.chromium = chromium
        self.profiles = profiles
        self.running: dict[tuple[int, int, float], tuple[subprocess.Popen[bytes], str]] = {}
        self.started = 0

    def devtools(self, device: Device) -> str:
        """The DevTools address of a browser whose window and pixel ratio are ``device``'s."""
        key = (device.width, device.height, device.scale)
        if key in self.running and self.running[key][0].poll() is None:
            return self.running[key][1]
        from tools import web_shots  # the browser tests' own: a worker that runs none never imports it

        self.started += 1  # a profile of its own each start: a dead browser's DevTools port file is not read again
        profile = self.profiles / f"{device.width}x{device.height}@{device.scale:g}-{self.started}"
        self.running[key] = web_shots.start(self.chromium, device, profile)
        return self.running[key][1]

    def close(self) -> None:
        for browser, _devtools in self.running.values():
            browser.terminate()
        for browser, _devtools in self.running.values():
            browser.wait(10)
