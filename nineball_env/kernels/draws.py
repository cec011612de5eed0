"""Draws from a table's own ``numpy.random.Generator`` inside the kernels, exactly as numpy makes them.

A kernel is handed a generator as one row of ``GEN_W`` integers (``generator_row``): the address of its bit
generator's state and the addresses of the bit generator's own ``next_uint64``, ``next_uint32`` and
``next_double`` functions, which numpy publishes for compiled code (``BitGenerator.ctypes``, the interface
numpy documents for numba). The kernel calls those functions on the generator's live state, so a draw
here advances the very generator the env holds: no copy of it exists and nothing is synced afterwards.
On top of the raw draws, ``standard_normal``, ``random_interval`` and ``bounded_int`` are numpy's own
algorithms (``distributions.c``: the 256-level ziggurat, the masked rejection of ``shuffle`` and Lemire's
bounded integers), with numpy's ziggurat tables, so every value equals the one numpy would draw
(``tests/env/test_env_draws.py`` checks them against numpy). numpy's generator lock is not taken: a
kernel is the only user of a table's generator while it runs.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic
from numba.np.random._constants import fi_double, ki_double, wi_double, ziggurat_nor_inv_r, ziggurat_nor_r

GEN_W = 4  # a generator row: state address, next_uint64, next_uint32, next_double (function addresses)
_KI = np.asarray(ki_double, dtype=np.uint64)  # numpy's ziggurat tables (ziggurat_constants.h)
_WI = np.asarray(wi_double, dtype=np.float64)
_FI = np.asarray(fi_double, dtype=np.float64)
_NOR_R, _NOR_INV_R = float(ziggurat_nor_r), float(ziggurat_nor_inv_r)


def generator_row(rng: np.random.Generator, out: np.ndarray) -> None:
    """Write ``rng``'s row (state and function addresses, see the module docstring) into ``out`` (GEN_W,) int64.
    The row is valid while ``rng`` lives; a generator replaced by another (a new seed) needs a new row."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
    c = rng.bit_generator.ctypes  # numpy caches it on the bit generator
    out[0] = c.state_address
    out[1] = _address(c.next_uint64)
    out[2] = _address(c.next_uint32)
    out[3] = _address(c.next_double)


def _address(function) -> int:
    return ctypes.cast(function, ctypes.c_void_p).value


def _caller(result: ir.Type, numba_type: types.Type):
    """An intrinsic calling the C function at address ``fn`` (an int64) on the state at address ``state``."""

    @intrinsic
    def call(typingctx, fn, state):
        sig = numba_type(types.int64, types.int64)

        def codegen(context, builder, signature, args):
            void_p = ir.IntType(8).as_pointer()
            fnty = ir.FunctionType(result, [void_p])
            target = builder.inttoptr(args[0], fnty.as_pointer())
            return builder.call(target, [builder.inttoptr(args[1], void_p)])

        return sig, codegen

    return call


_call_u64 = _caller(ir.IntType(64), types.uint64)
_call_u32 = _caller(ir.IntType(32), types.uint32)
_call_double = _caller(ir.DoubleType(), types.float64)


@njit(cache=True)
def next_uint64(gen):
    """The generator's next raw 64-bit draw (``gen``: its row)."""
    return _call_u64(gen[1], gen[0])


@njit(cache=True)
def next_uint32(gen):
    """The generator's next 32-bit draw (buffered by the bit generator as numpy buffers it)."""
    return _call_u32(gen[2], gen[0])


@njit(cache=True)
def next_double(gen):
    """The generator's next double in [0, 1)."""
    return _call_double(gen[3], gen[0])


@njit(cache=True)
def standard_normal(gen):
    """One standard normal draw: numpy's ``random_standard_normal`` (the ziggurat of Marsaglia & Tsang, 256 levels)."""
    while True:
        r = next_uint64(gen)
        idx = np.intp(r & np.uint64(0xFF))
        r = r >> np.uint64(8)
        sign = r & np.uint64(1)
        rabs = (r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF)
        x = np.float64(rabs) * _WI[idx]
        if sign == np.uint64(1):
            x = -x
        if rabs < _KI[idx]:
            return x  # 99.3 % of draws
        if idx == 0:  # the tail
            while True:
                xx = -_NOR_INV_R * np.log1p(-next_double(gen))
                yy = -np.log1p(-next_double(gen))
                if yy + yy > xx * xx:
                    if (rabs >> np.uint64(8)) & np.uint64(1):
                        return -(_NOR_R + xx)
                    return _NOR_R + xx
        elif (_FI[idx - 1] - _FI[idx]) * next_double(gen) + _FI[idx] < np.exp(-0.5 * x * x):
            return x


@njit(cache=True)
def standard_normals(gen, out):
    """``out[:] = Generator.standard_normal(len(out))``: the draws in order."""
    for i in range(out.shape[0]):
        out[i] = standard_normal(gen)


@njit(cache=True)
def random_interval(gen, top):
    """A uniform integer in [0, top] (``top`` < 2**32): numpy's ``random_interval``, ``Generator.shuffle``'s draw."""
    if top == 0:
        return 0
    mask = np.uint32(top)
    mask |= mask >> np.uint32(1)
    mask |= mask >> np.uint32(2)
    mask |= mask >> np.uint32(4)
    mask |= mask >> np.uint32(8)
    mask |= mask >> np.uint32(16)
    while True:
        value = next_uint32(gen) & mask
        if value <= np.uint32(top):
            return np.int64(value)


@njit(cache=True)
def bounded_int(gen, high):
    """``Generator.integers(high)`` for 2 <= ``high`` <= 2**32 - 1 (int64): numpy's Lemire rejection on 32-bit draws."""
    rng = np.uint32(high - 1)
    excl = np.uint64(high)
    m = np.uint64(next_uint32(gen)) * excl
    leftover = m & np.uint64(0xFFFFFFFF)
    if leftover < excl:
        threshold = (np.uint64(0xFFFFFFFF) - np.uint64(rng)) % excl
        while leftover < threshold:
            m = np.uint64(next_uint32(gen)) * excl
            leftover = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))
