"""One shot of the physics (``physics.kernels.entry.run_shot``) behind a C function pointer, for the compiled turn.

numba builds a separate machine-code copy of every compiled function a kernel calls into that kernel's own
library, so each kernel of the turn that reached ``run_shot`` directly carried another copy of the whole physics
and paid its code generation on a cold cache (tens of seconds each). Here the physics is compiled once, as a C
callback (``numba.cfunc``, cached), and the turn calls it through its address (``simulate``): its kernels link
none of the physics, and they run the same machine code as ``physics.simulate_batch``. The callback is built on
first use (``physics_address``), not at import: importing the env compiles nothing.
"""

from __future__ import annotations

from functools import cache

from llvmlite import ir
from numba import carray, cfunc, njit, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from physics.kernels.codes import LOG_W, STATE_W
from physics.kernels.entry import run_shot

_F = types.CPointer(types.float64)
_I = types.CPointer(types.int64)
# state, shot, strike, n_balls, segments, n_segments, jaws, n_jaws, pockets, n_pockets, p, n_p, width, length,
# rail, n_rail, tol, max_events, max_time, log, log_rows, out (flags, layout code, i, j)
_ARGS = (_F, _F, types.int64, types.int64, _F, types.int64, _F, types.int64, _F, types.int64, _F, types.int64,
         types.float64, types.float64, _F, types.int64, types.float64, types.int64, types.float64, _F, types.int64, _I)
_POINTERS = tuple(i for i, a in enumerate(_ARGS) if isinstance(a, types.CPointer))


@intrinsic
def _readonly(typingctx, array):
    """``array`` typed read-only (the same data): the physics' own callers pass the parameters read-only
    (``physics.api.params_array``), so ``run_shot`` is called with their types and the compiled physics in its cache
    serves this callback too, instead of a second copy compiled for a writable parameter array."""
    sig = array.copy(readonly=True)(array)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])  # a new reference to the data

    return sig, codegen


def run_shot_c(state, shot, strike, n_balls, segments, n_segments, jaws, n_jaws, pockets, n_pockets, p, n_p, width,
               length, rail, n_rail, tol, max_events, max_time, log, log_rows, out):
    """``run_shot`` on raw arrays: the packed state (n_balls, 9) simulated in place, (n_events) returned and
    (flags, layout code, i, j) written to ``out``."""
    count, flags, code, i, j = run_shot(carray(state, (n_balls, STATE_W)), carray(shot, 5), strike != 0,
                                        carray(segments, (n_segments, 6)), carray(jaws, (n_jaws, 3)),
                                        carray(pockets, (n_pockets, 3)), _readonly(carray(p, n_p)), width, length,
                                        carray(rail, n_rail), tol, max_events, max_time, carray(log, (log_rows, LOG_W)))
    out[0], out[1], out[2], out[3] = flags, code, i, j
    return count


@intrinsic
def _call(typingctx, address, state, shot, strike, n_balls, segments, n_segments, jaws, n_jaws, pockets, n_pockets,
          p, n_p, width, length, rail, n_rail, tol, max_events, max_time, log, log_rows, out):
    """Call the C function at ``address`` with ``run_shot_c``'s arguments, its pointers given as integer addresses."""
    sig = types.int64(address, state, shot, strike, n_balls, segments, n_segments, jaws, n_jaws, pockets, n_pockets,
                      p, n_p, width, length, rail, n_rail, tol, max_events, max_time, log, log_rows, out)

    def codegen(context, builder, signature, values):
        lltypes = [context.get_value_type(a) for a in _ARGS]
        fnty = ir.FunctionType(ir.IntType(64), lltypes)
        target = builder.inttoptr(values[0], fnty.as_pointer())
        call_args = []
        for i, (value, given, want) in enumerate(zip(values[1:], signature.args[1:], _ARGS)):
            if i in _POINTERS:
                call_args.append(builder.inttoptr(value, lltypes[i]))
            else:
                call_args.append(context.cast(builder, value, given, want))
        return builder.call(target, call_args)

    return sig, codegen


@njit(cache=True)
def simulate(address, state, shot, strike, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time,
             log, out):
    """``run_shot`` (same arguments, C-contiguous arrays) through the C function at ``address``
    (``physics_address()``):
    (n_events, flags, layout code, i, j), ``out`` (4,) int64 a scratch buffer."""
    count = _call(address, state.ctypes.data, shot.ctypes.data, 1 if strike else 0, state.shape[0],
                  segments.ctypes.data, segments.shape[0], jaws.ctypes.data, jaws.shape[0], pockets.ctypes.data,
                  pockets.shape[0], p.ctypes.data, p.shape[0], width, length, rail.ctypes.data, rail.shape[0], tol,
                  max_events, max_time, log.ctypes.data, log.shape[0], out.ctypes.data)
    return count, out[0], out[1], out[2], out[3]


@cache
def _callback():
    """``run_shot_c`` as a C callback, compiled (or loaded from numba's cache) once; kept alive here, since its
    machine code lives as long as this object."""
    return cfunc(types.int64(*_ARGS), cache=True)(run_shot_c)


def physics_address() -> int:
    """Where the compiled turn finds the physics in this process (the callback built on the first call)."""
    return _callback().address
