"""Which numba kernels the on-disk cache holds for this machine, read without compiling or loading any.

``nineball doctor`` prints it; ``nineball match`` and ``tournament`` compile a match's kernels on two cores before
play when the cache is ``cold`` (``agents.arena.warmup``), and a series called otherwise plays its first match before
fanning out to worker processes (``agents.arena.series``), so that the kernels compile once, not once per worker.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Sequence

import nineball_env.kernels
import physics.kernels
from agents import protocol_kernels
from agents.learned import dense_kernel, macro_kernels
from agents.shots import kernels as shot_kernels
from agents.shots import playout_kernels, round_kernels

#: The packages (every module in them) and modules whose numba kernels ``cache_state`` reads.
KERNEL_PACKAGES = (physics.kernels, nineball_env.kernels, protocol_kernels, shot_kernels, round_kernels,
                   playout_kernels, macro_kernels, dense_kernel)
#: Kernels every match compiles or loads: the physics' single-shot entry point and the env's compiled turn (a series
#: counts the cache cold when any of these is not cached).
MATCH_KERNELS = ("physics.kernels.entry.run_arrays", "nineball_env.kernels.turn.play_turns")


@dataclass(frozen=True)
class KernelCache:
    """One ``@njit(cache=True)`` kernel: its qualified name, where numba caches it, and how many compiled versions
    (one per argument types) the cache holds for this machine, this numba and the kernel's current code."""

    name: str
    path: str
    cached: int


def _kernel_modules() -> list[Any]:
    modules = []
    for module in KERNEL_PACKAGES:
        modules.append(module)
        if hasattr(module, "__path__"):
            modules.extend(importlib.import_module(f"{module.__name__}.{m.name}")
                           for m in pkgutil.iter_modules(module.__path__))
    return modules


def cache_state() -> list[KernelCache]:
    """Every cached kernel of ``KERNEL_PACKAGES`` with the compiled versions numba's cache index holds for it, read
    without compiling or loading any (importing the modules drops stale caches, as any import of them does)."""
    from numba.core.caching import FunctionCache
    from numba.core.dispatcher import Dispatcher

    found = []
    for module in _kernel_modules():
        for obj in vars(module).values():
            if not (isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__
                    and isinstance(obj._cache, FunctionCache)):
                continue
            cache = obj._cache
            codegen = obj.targetctx.codegen()
            code = cache._index_key((), codegen)[2]  # hashes of the bytecode (and closure) the entries were made from
            index = cache._cache_file._load_index()  # {} when absent, stale or of another numba version
            n = sum(1 for key in index if key[1] == codegen.magic_tuple() and key[2] == code)
            found.append(KernelCache(f"{module.__name__}.{obj.py_func.__qualname__}", cache._cache_path, n))
    return found


def cold(names: Sequence[str] = MATCH_KERNELS) -> bool:
    """Whether any kernel of ``names`` (qualified) has no compiled version in numba's cache."""
    cached = {k.name: k.cached for k in cache_state()}
    unknown = sorted(set(names) - set(cached))
    if unknown:
        raise ValueError(f"names: no cached numba kernel {unknown[0]!r} (expected one of cache_state's names)")
    return any(cached[n] == 0 for n in names)
