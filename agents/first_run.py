"""The first-run notice: say once, on stderr, that the numba kernels are being compiled.

A cold numba cache makes the first command sit silent for about 20 s. Numba announces each real
compilation (never a load from its on-disk cache) as a ``numba:compile`` event; the first such event
of a ``nineball_env``/``physics``/``agents`` function prints ``NOTICE``, once per process.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

NOTICE = ("nineball: compiling the numba kernels for this machine (first run only, about 20-30 s; "
          "later runs load them from the cache in about a second)...")
PACKAGES = ("physics", "nineball_env", "agents")


def install(stream: TextIO | None = None) -> Any:
    """Print ``NOTICE`` to ``stream`` (stderr by default) the first time one of our kernels compiles.

    Returns the listener (``uninstall`` removes it); nothing is printed when every kernel is in the cache."""
    from numba.core import event

    class CompileNotice(event.Listener):
        """Listens to ``numba:compile`` and speaks once."""

        def __init__(self) -> None:
            self.said = False

        def on_start(self, ev: Any) -> None:
            if self.said:
                return
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            if module.split(".")[0] in PACKAGES:
                self.said = True
                if stream is None:  # above any progress bar on stderr, which tqdm then redraws
                    from tqdm import tqdm

                    tqdm.write(NOTICE, file=sys.stderr)
                else:
                    print(NOTICE, file=stream, flush=True)

        def on_end(self, ev: Any) -> None:
            pass

    listener = CompileNotice()
    event.register("numba:compile", listener)
    return listener


def uninstall(listener: Any) -> None:
    """Stop the listener of ``install``."""
    from numba.core import event

    event.unregister("numba:compile", listener)
