"""The first-run notice: say on stderr that the numba kernels are compiling, how long that takes, and how far along.

A cold numba cache makes the first command compile for minutes before anything happens (``NOTICE`` gives the measured
time). Numba announces each real compilation (never a load from its on-disk cache) as a ``numba:compile`` event: the
first such event of a ``physics`` / ``nineball_env`` / ``agents`` function prints ``NOTICE``, once per process; while
a compilation runs, a line every ``PROGRESS_EVERY_S`` says how long it has taken so far and how many kernels are done;
``uninstall`` ends with the total. Nothing is printed when every kernel comes from the cache. A command that compiles
part of the kernels in another process (``agents.arena.warmup``) prints the notice itself (``announce``) and adds
that process's kernels and the time it waited on them to the total (``credit``).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

#: Measured (issue 28, at 295c331 against 5aab397, alternating, a fresh cache each run):
#: ``NUMBA_CACHE_DIR=$(mktemp -d) python -m agents.cli match ghost random`` (the README's first command, install
#: excluded) took 43.6, 46.4, 44.6 s of wall time (62-65 s of CPU over its two processes) on the 2-core machine with
#: little other work (load <= 1.4), 5aab397 64.4, 70.7, 68.4 s; under load 2-4 from other work 50-166 s against 84-115
#: s. Alone, the child's half (``agents.arena.warmup``) took 53 s, this process's half 27 s. Update the figure when
#: the compile time changes.
#: At 5c79f20 against 5aab397 (alternating, three rounds each, quiet): 31.3-32.1 s against 48.4-48.7 s, and 45 s with
#: the install in CI's fresh venv (``.ci/run``'s stage 1). Only a match or tournament compiles on both cores
#: (``agents.arena.warmup``); training and the env compile in the process that needs the kernels.
NOTICE = ("nineball: compiling the numba kernels for this machine, first run only: about a minute (a match: 30-45 s "
          "on a quiet 2-core machine); later runs load them from the cache in seconds...")
PACKAGES = ("physics", "nineball_env", "agents")
PROGRESS_EVERY_S = 30.0
_INSTALLED: list[Any] = []  # the listeners ``install`` registered and ``uninstall`` has not removed


def _duration(seconds: float) -> str:
    """``75.2`` -> ``1 min 15 s``; under a minute ``42 s``."""
    minutes, secs = divmod(int(round(seconds)), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


class CompileNotice:
    """Listens to ``numba:compile``: the notice once, progress while compiling, the total at the end."""

    def __init__(self, stream: TextIO | None, every_s: float) -> None:
        self.stream = stream
        self.every_s = every_s
        self.said = False
        self.kernels = 0  # our functions compiled (each signature once)
        self.depth = 0  # compilations in flight (they nest: a kernel compiles what it calls)
        self.compile_s = 0.0  # wall time with a compilation in flight
        self._outer_start = 0.0
        self._last_line = 0.0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def on_start(self, ev: Any) -> None:
        ours = _ours(ev)
        if self.depth == 0:
            if not (ours or self.said):
                return  # someone else's kernel before any of ours: not ours to time
            self._outer_start = self._last_line = time.perf_counter()
        self.depth += 1
        if ours:
            self.announce()

    def announce(self) -> None:
        """Print ``NOTICE`` and start the progress line, once."""
        if self.said:
            return
        self.said = True
        self.say(NOTICE)
        self._ticker = threading.Thread(target=self._tick, name="nineball-compile-progress", daemon=True)
        self._ticker.start()

    def credit(self, kernels: int, seconds: float) -> None:
        """Count ``kernels`` compiled elsewhere (a warm-up's child process) and ``seconds`` this process waited on
        them in the total."""
        self.kernels += kernels
        self.compile_s += seconds

    def on_end(self, ev: Any) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if _ours(ev):
            self.kernels += 1
        if self.depth == 0:
            self.compile_s += time.perf_counter() - self._outer_start

    def progress(self) -> str:
        """The progress line: time compiling so far and kernels done."""
        now = self.compile_s + (time.perf_counter() - self._outer_start if self.depth else 0.0)
        return f"nineball: still compiling ({_duration(now)} so far, {self.kernels} kernels done)..."

    def summary(self) -> str | None:
        """The closing line, or None when nothing of ours was compiled."""
        if not self.said:
            return None
        return (f"nineball: compiled {self.kernels} kernels in {_duration(self.compile_s)}; later runs load them from "
                "the cache")

    def _tick(self) -> None:
        while not self._stop.wait(min(1.0, self.every_s)):
            if self.depth and time.perf_counter() - self._last_line >= self.every_s:
                self._last_line = time.perf_counter()
                self.say(self.progress())

    def stop(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()

    def say(self, line: str) -> None:
        if self.stream is None:  # above any progress bar on stderr, which tqdm then redraws
            from tqdm import tqdm

            tqdm.write(line, file=sys.stderr)
        else:
            print(line, file=self.stream, flush=True)


def _ours(ev: Any) -> bool:
    dispatcher = (ev.data or {}).get("dispatcher")
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    return module.split(".")[0] in PACKAGES


def install(stream: TextIO | None = None, every_s: float = PROGRESS_EVERY_S) -> Any:
    """Print ``NOTICE`` to ``stream`` (stderr by default) the first time one of our kernels compiles, then a progress
    line every ``every_s`` seconds while compiling. Returns the listener (``uninstall`` removes it and prints the
    total); nothing is printed when every kernel is in the cache."""
    from numba.core import event

    class Listener(event.Listener):
        def __init__(self) -> None:
            self.notice = CompileNotice(stream, every_s)

        def on_start(self, ev: Any) -> None:
            self.notice.on_start(ev)

        def on_end(self, ev: Any) -> None:
            self.notice.on_end(ev)

    listener = Listener()
    event.register("numba:compile", listener)
    _INSTALLED.append(listener)
    return listener


def announce() -> None:
    """Print the notice now (a command that knows the cache is cold, before its first compilation)."""
    for listener in _INSTALLED:
        listener.notice.announce()


def credit(kernels: int, seconds: float) -> None:
    """Count ``kernels`` compiled in another process and ``seconds`` this one waited on them in the total
    (``CompileNotice.credit``) of the installed listener."""
    for listener in _INSTALLED:
        listener.notice.credit(kernels, seconds)


class KernelCounter:
    """``with KernelCounter() as c:``: ``c.kernels`` of our functions compiled (each signature once) inside."""

    def __init__(self) -> None:
        self.kernels = 0

    def __enter__(self) -> "KernelCounter":
        from numba.core import event

        counter = self

        class Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                pass

            def on_end(self, ev: Any) -> None:
                counter.kernels += int(_ours(ev))

        self._listener = Listener()
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc: object) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)


def uninstall(listener: Any) -> None:
    """Stop the listener of ``install`` and print how long compiling took (if anything was compiled)."""
    from numba.core import event

    event.unregister("numba:compile", listener)
    if listener in _INSTALLED:
        _INSTALLED.remove(listener)
    listener.notice.stop()
    line = listener.notice.summary()
    if line is not None:
        listener.notice.say(line)
