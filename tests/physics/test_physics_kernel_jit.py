"""physics.kernels.jit.kernel: one compiled copy of a kernel per argument types, whatever literals its callers pass."""

import importlib
import os
import pkgutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba.core import types
from numba.core.dispatcher import Dispatcher

import physics.kernels
from physics.kernels import audit, entry, layout, motion
from physics.kernels.jit import InternalKernel, KernelDispatcher, kernel


@kernel(cache=False)
def _step(i, skip, values):
    total = 0.0
    for j in range(values.shape[0]):
        if j != i and j != skip:
            total += values[j]
    return total


@kernel(cache=False)
def _caller(values):
    kind = -1  # refined to int64 below: type inference sees the literal first
    for j in range(values.shape[0]):
        if values[j] > 1.0:
            kind = j
    return _step(0, -1, values) + _step(kind, 2, values) + _step(kind, kind, values)


def test_a_kernel_called_with_literals_compiles_once_for_int64():
    values = np.array([0.5, 2.0, 3.0, 0.25])
    assert _caller(values) == pytest.approx(5.25 + 2.75 + 2.75)
    assert len(_step.signatures) == 1
    assert _step.signatures[0][:2] == (types.int64, types.int64)


def test_kernel_refuses_an_unknown_inline_mode():
    with pytest.raises(ValueError, match="inline: expected 'never', 'always' or 'llvm'"):
        kernel(inline="sometimes")


def test_every_physics_kernel_takes_the_kernel_decorator():
    """A plain ``numba.njit`` kernel among them would compile a copy per literal again (issue 28)."""
    plain = []
    for info in pkgutil.iter_modules(physics.kernels.__path__):
        module = importlib.import_module(f"physics.kernels.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__ and not isinstance(
                    value, KernelDispatcher):
                plain.append(f"{module.__name__}.{name}")
    assert plain == []


@kernel(cache=False)
def _inner(x):
    return 2.0 * x


@kernel(cache=False, entry=True)
def _outer(x):
    return _inner(x) + 1.0


def _has_python_wrapper(dispatcher, sig) -> bool:
    cres = dispatcher.overloads[sig]
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name) != 0


def test_a_kernel_only_kernels_call_has_no_python_wrapper_and_python_calls_reach_a_copy_with_one():
    assert _outer(3.0) == 7.0
    (sig,) = _inner.signatures
    assert not _has_python_wrapper(_inner, sig)  # compiled for _outer only: no wrapper to optimise and emit
    assert _has_python_wrapper(_outer, _outer.signatures[0])
    assert _inner(3.0) == 6.0  # from Python: the copy with the wrapper
    assert _inner.signatures == [sig] and len(_inner.python_dispatcher.signatures) == 1
    assert _has_python_wrapper(_inner.python_dispatcher, _inner.python_dispatcher.signatures[0])


def test_the_kernels_the_python_api_calls_are_entry_points():
    # a call from Python to an internal kernel goes through one more Python call (python_dispatcher): not on a hot path
    for k in (entry.run_arrays, entry.run_batch, motion.evolve_ball, layout.check_shot_rows, audit.audit_shot,
              audit.audit_air_shot, audit.audit_batch):
        assert isinstance(k, KernelDispatcher) and not isinstance(k, InternalKernel), k.py_func.__name__
    assert isinstance(entry.run_shot, InternalKernel) and isinstance(entry.simulate_kernel, InternalKernel)


def test_the_cache_keeps_the_copies_with_and_without_the_python_wrapper_apart(tmp_path):
    # both copies of a function share numba's cache index: a copy without the wrapper loaded for a call from Python
    # would jump to address 0. A second process calls from Python first what the first cached for a kernel caller.
    (tmp_path / "twice.py").write_text(textwrap.dedent("""
        from physics.kernels.jit import kernel

        @kernel
        def inner(x):
            return 2.0 * x

        @kernel(entry=True)
        def outer(x):
            return inner(x) + 1.0
    """))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    first = "import twice; print(twice.outer(3.0), twice.inner(3.0))"
    second = ("import twice; print(twice.inner(3.0), twice.outer(3.0), len(twice.inner.python_dispatcher.stats.cache_hits),"
              " len(twice.outer.stats.cache_hits))")
    out = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
           for code in (first, second)]
    assert out[0].split() == ["7.0", "6.0"]
    assert out[1].split() == ["6.0", "7.0", "1", "1"]  # both from the cache, each its own copy


@kernel(cache=False)
def _leaf(x):
    return x * x


@kernel(inline="llvm", cache=False)
def _forced(x):
    return _leaf(x) + 1.0


@kernel(cache=False, entry=True)
def _calls_forced(x):
    return _forced(x) - 1.0


def test_an_llvm_inlined_kernel_is_compiled_once_marked_alwaysinline_and_its_callees_are_not():
    assert _calls_forced(3.0) == 9.0
    (sig,) = _forced.signatures
    assert "alwaysinline" in _forced.overloads[sig].library.get_llvm_str()
    assert _forced.overloads[sig].fndesc.inline
    # numba lets a callee compiled inside a forceinline function inherit the flag unless it is given
    assert not _leaf.overloads[_leaf.signatures[0]].fndesc.inline
    assert _forced(2.0) == 5.0  # from Python too


@kernel(cache=False)
def _borrow_sum(values):
    total = 0.0
    for j in range(values.shape[0]):
        total += values[j]
    return total


@kernel(cache=False)
def _returns_its_argument(values):
    return values


@kernel(cache=False, refcounts=True)
def _allocates(n):
    return np.full(n, 2.0)


@kernel(cache=False, refcounts=True)
def _owner(n):
    a = _allocates(n)
    return _borrow_sum(a) + _borrow_sum(_returns_its_argument_counted(a))


@kernel(cache=False, refcounts=True)
def _returns_its_argument_counted(values):
    return values


@kernel(cache=False, entry=True)
def _calls_returning(values):
    return _returns_its_argument(values)[0]


def test_internal_kernels_borrow_their_arrays_without_reference_counts_and_entry_points_count():
    assert _borrow_sum.targetoptions["_nrt"] is False
    assert _allocates.targetoptions["_nrt"] is True and _outer.targetoptions["_nrt"] is True
    assert entry.simulate_kernel.targetoptions["_nrt"] is True  # it allocates the per-shot caches
    # a kernel that allocates owns its arrays and lends them to one without counts; a counted one may return them
    assert _owner(3) == 12.0
    values = np.array([1.0, 2.5])
    assert _borrow_sum(values) == 3.5  # from Python: the copy with the wrappers counts references again
    assert _borrow_sum.python_dispatcher.targetoptions.get("_nrt", True) is not False
    # the kernel without counts refcounted nothing: the arrays are still alive and whole after the calls
    assert values.tolist() == [1.0, 2.5]


def test_a_kernel_without_reference_counts_that_would_return_an_array_is_refused():
    with pytest.raises(Exception, match="cannot return an array"):
        _calls_returning(np.array([1.0]))



def test_the_physics_without_reference_counts_frees_every_array_it_allocates_once():
    # kernels that borrow (no counts) beside kernels that own: a count missing or one too many would leave live
    # allocations behind or free one twice; numba's allocation statistics see both (they need NUMBA_NRT_STATS at start)
    code = textwrap.dedent("""
        import numpy as np, physics
        from numba.core.runtime import rtsys
        from physics.samples import break_shots, ordinary_shots
        pairs = break_shots(40, 3) + ordinary_shots(40, 4)
        pairs.append((pairs[1][0], physics.Shot(V0=6.0, phi=pairs[1][1].phi, theta=60.0, b=-0.5)))  # a jump
        states = np.stack([s.packed() for s, _ in pairs])
        rows = np.array([[sh.V0, sh.phi, sh.theta, sh.a, sh.b] for _, sh in pairs])
        physics.simulate(*pairs[0])  # loads the kernels (and starts numba's runtime, which keeps the statistics)
        before = rtsys.get_allocation_stats()
        airborne = 0
        for s, sh in pairs:
            airborne += physics.simulate(s, sh).events.air is not None
        b = physics.simulate_batch_packed(states, rows)
        after = rtsys.get_allocation_stats()
        print(after.alloc - before.alloc, after.alloc - after.free, after.mi_alloc - after.mi_free, airborne)
    """)
    env = {**os.environ, "NUMBA_NRT_STATS": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    allocated, live, live_meminfos, airborne = map(int, out.split())
    assert allocated > 0 and airborne > 0  # the loop allocated its caches, and the air's steps ran too
    assert live == 0 and live_meminfos == 0
