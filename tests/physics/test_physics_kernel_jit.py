"""physics.kernels.jit.kernel: one compiled copy of a kernel per argument types, whatever literals its callers pass."""

import importlib
import pkgutil

import numpy as np
import pytest
from numba.core import types
from numba.core.dispatcher import Dispatcher

import physics.kernels
from physics.kernels.jit import KernelDispatcher, kernel


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
    with pytest.raises(ValueError, match="inline: expected 'never' or 'always'"):
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
