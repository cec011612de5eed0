"""``kernel``: numba's ``njit`` for the physics kernels, cached, compiling one machine-code copy per argument types.

A numba dispatcher called from another kernel compiles a separate copy for every distinct type of its arguments, and
a literal constant is a type of its own: ``refresh_ball(i, -1, ...)`` and ``refresh_ball(a, b, ...)`` were two full
compilations, and type inference, which refines a caller's variables step by step (``kind = -1`` before it learns
``kind = rail_kind[i]``), compiled callees for the literal types it saw on the way, never used (three copies of the
air event, nine of ``record``). The kernels here take their integers as plain int64, so a cold compile builds each
one once.
"""

from __future__ import annotations

from typing import Callable

from numba.core import types
from numba.core.registry import CPUDispatcher


class KernelDispatcher(CPUDispatcher):
    """A CPU dispatcher that types calls from other kernels with their arguments' non-literal types."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def kernel(func: Callable | None = None, *, inline: str = "never", parallel: bool = False,
           cache: bool = True) -> KernelDispatcher | Callable[[Callable], KernelDispatcher]:
    """``numba.njit(cache=cache, inline=inline, parallel=parallel)`` through ``KernelDispatcher``; ``@kernel`` or
    ``@kernel(inline="always")``."""
    if inline not in ("never", "always"):
        raise ValueError(f"inline: expected 'never' or 'always', got {inline!r}")

    def wrap(f: Callable) -> KernelDispatcher:
        options = {"nopython": True, "boundscheck": None, "inline": inline}
        if parallel:
            options["parallel"] = True
        disp = KernelDispatcher(py_func=f, locals={}, targetoptions=options)
        if cache:
            disp.enable_caching()
        return disp

    return wrap(func) if func is not None else wrap
