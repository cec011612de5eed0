"""``kernel``: numba's ``njit`` for the physics kernels, cached, compiling one machine-code copy per argument types,
and for the kernels only other kernels call, no Python wrappers.

A numba dispatcher called from another kernel compiles a separate copy for every distinct type of its arguments, and
a literal constant is a type of its own: ``refresh_ball(i, -1, ...)`` and ``refresh_ball(a, b, ...)`` were two full
compilations, and type inference, which refines a caller's variables step by step (``kind = -1`` before it learns
``kind = rail_kind[i]``), compiled callees for the literal types it saw on the way, never used (three copies of the
air event, nine of ``record``). The kernels here take their integers as plain int64, so a cold compile builds each
one once.

numba also gives every compiled function two wrappers, one that unboxes Python arguments (a few hundred LLVM
instructions per array argument) and one for a C callback, and optimises and emits machine code for them with the
function: about a tenth of a cold compile, for the ninety-odd kernels that Python never calls. A kernel is compiled
without them unless it is declared an entry point (``@kernel(entry=True)``: those the Python API calls). A call
from Python to any other kernel (tests, tools) goes to a second dispatcher of the same function, with the wrappers,
compiled on first use and cached under its own key.

numba counts references to every array a function binds: an atomic increment when an argument is bound and a
decrement when it dies, in calls to the runtime (NRT) that LLVM's pruning leaves in any body that branches. A kernel
that the loop calls per event with a dozen arrays (``refresh_ball``), or per ball per event with the parameter array
(``evolve``), spent more time counting than computing: about a third of a break. A kernel that only borrows arrays
(it neither allocates nor returns one, and its callers hold every array it is given for the whole call) needs no
counts, so kernels that only other kernels call are compiled without them (numba's ``_nrt=False``: the same
arithmetic, so the same results) unless declared ``refcounts=True`` (those that allocate, which must own what they
make). A kernel without counts that would return an array is refused when it compiles.
"""

from __future__ import annotations

from typing import Callable

from numba.core import types
from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher

# numba's options that drop the two wrappers (what numba itself sets for the implementations of @overload)
NO_WRAPPERS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


def _holds_array(ty: types.Type) -> bool:
    """Whether a value of numba type ``ty`` is or contains an array."""
    if isinstance(ty, types.Array):
        return True
    return isinstance(ty, types.BaseTuple) and any(_holds_array(t) for t in ty.types)


class KernelDispatcher(CPUDispatcher):
    """A CPU dispatcher that types calls from other kernels with their arguments' non-literal types."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def add_overload(self, cres):
        if self.targetoptions.get("_nrt") is False and _holds_array(cres.signature.return_type):
            raise TypeError(f"{self.py_func.__qualname__}: a kernel without reference counts cannot return an array "
                            f"({cres.signature.return_type}): declare it @kernel(refcounts=True)")
        super().add_overload(cres)


class _TaggedCache(FunctionCache):
    """numba's per-function cache whose index keys carry a tag: a function compiled two ways (with and without the
    Python wrappers) keeps both in one index, and the copy without is never loaded where Python must call it."""

    def __init__(self, py_func, tag: str):
        super().__init__(py_func)
        self._tag = tag

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), self._tag)


class InternalKernel(KernelDispatcher):
    """A kernel that other kernels call: compiled without the Python wrappers. Called from Python, it hands the call
    to a dispatcher of the same function with them (``python_dispatcher``)."""

    _python: KernelDispatcher | None = None

    def enable_caching(self):
        self._cache = _TaggedCache(self.py_func, "no-python-wrappers")

    @property
    def python_dispatcher(self) -> KernelDispatcher:
        """The same function compiled with the Python wrappers, for calls from Python (made on first use)."""
        if self._python is None:
            # with the wrappers and the reference counts (Python owns what it passes and what it gets back)
            options = {k: v for k, v in self.targetoptions.items() if k not in NO_WRAPPERS and k != "_nrt"}
            python = KernelDispatcher(py_func=self.py_func, locals={}, targetoptions=options)
            if isinstance(self._cache, _TaggedCache):
                python.enable_caching()
            self._python = python
        return self._python

    def __call__(self, *args, **kwargs):
        return self.python_dispatcher(*args, **kwargs)


def kernel(func: Callable | None = None, *, inline: str = "never", parallel: bool = False, cache: bool = True,
           entry: bool = False, refcounts: bool | None = None) -> KernelDispatcher | Callable[[Callable], KernelDispatcher]:
    """``numba.njit(cache=cache, inline=inline, parallel=parallel)`` through ``KernelDispatcher``; ``@kernel`` or
    ``@kernel(inline="always")`` (numba inlines its IR at every call site, translated and typed again there), or
    ``@kernel(inline="llvm")`` (compiled once, and LLVM always inlines the machine-level function into its callers:
    the same operations, so the same results). ``entry=True``: the Python API calls it (compiled with the Python
    wrappers, no hand-over per call); otherwise only other kernels do (``InternalKernel``). ``refcounts``: whether numba
    counts references to its arrays (the module notes); default: an entry point does, an internal kernel does not."""
    if inline not in ("never", "always", "llvm"):
        raise ValueError(f"inline: expected 'never', 'always' or 'llvm', got {inline!r}")

    def wrap(f: Callable) -> KernelDispatcher:
        # forceinline always given: numba lets a callee compiled inside an LLVM-inlined kernel inherit it otherwise
        options = {"nopython": True, "boundscheck": None, "inline": "never" if inline == "llvm" else inline,
                   "forceinline": inline == "llvm", "_nrt": entry if refcounts is None else bool(refcounts)}
        if parallel:
            options["parallel"] = True
        if entry:
            disp = KernelDispatcher(py_func=f, locals={}, targetoptions=options)
        else:
            disp = InternalKernel(py_func=f, locals={}, targetoptions={**options, **NO_WRAPPERS})
        if cache:
            disp.enable_caching()
        return disp

    return wrap(func) if func is not None else wrap
