"""The one entry point the Python API calls: validate the layout, then simulate, on packed arrays.

The single path (``run_arrays``) takes the caller's state arrays and returns the final state in
new arrays; the batched path (``run_batch`` → ``run_shot``) works on packed (n, 9) states. Both
go through ``_check_and_simulate``, so they cannot disagree.
"""

import numpy as np
from numba import prange

from physics.kernels.codes import (
    AIR_LOG_W, LOG_A, LOG_B, LOG_KIND, LOG_STATE_A, LOG_STATE_B, LOG_TARGET, LOG_TIME, LOG_W, S_MOTION, S_POCKET, S_VX,
    S_WX, S_X, Motion,
)
from physics.kernels.jit import kernel
from physics.kernels.layout import BAD_MOTION, BAD_POCKET, OK, check_state
from physics.kernels.loop import simulate_kernel

MAX_MOTION = float(max(Motion))


@kernel(inline="always")  # into each entry point: a kernel of its own linked and re-optimised all the physics once more
def _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width, length, rail,
                        tol, max_events, max_time, log, air_log):
    """Check the layout, then simulate in place on arrays the caller owns: (n_events, flags, layout_code, i, j).
    ``air_log`` (rows, AIR_LOG_W; any contents, it may have none) is zeroed and filled as far as it has rows when a
    ball leaves the cloth (FLAG_AIRBORNE); otherwise it is left as it was."""
    code, bad_i, bad_j = check_state(pos, vel, spin, motion, pocket, strike, segments, jaws, pockets, p, width, length,
                                     rail, tol)
    if code != OK:
        return 0, 0, code, bad_i, bad_j
    count, flags = simulate_kernel(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, width, length,
                                   rail, p, max_events, max_time, log[:, LOG_TIME], log[:, LOG_KIND], log[:, LOG_A],
                                   log[:, LOG_B], log[:, LOG_TARGET], log[:, LOG_STATE_A:LOG_STATE_B],
                                   log[:, LOG_STATE_B:LOG_W], air_log)
    return count, flags, OK, -1, -1


@kernel
def _pack(pos, vel, spin, motion, pocket, state):
    """Write the ball arrays into one packed (n, STATE_W) state: x, y, vx, vy, wx, wy, wz, motion, pocket."""
    for i in range(pos.shape[0]):
        state[i, S_X] = pos[i, 0]
        state[i, S_X + 1] = pos[i, 1]
        state[i, S_VX] = vel[i, 0]
        state[i, S_VX + 1] = vel[i, 1]
        state[i, S_WX] = spin[i, 0]
        state[i, S_WX + 1] = spin[i, 1]
        state[i, S_WX + 2] = spin[i, 2]
        state[i, S_MOTION] = motion[i]
        state[i, S_POCKET] = pocket[i]


@kernel(refcounts=True)  # it allocates the unpacked state
def run_shot(state, shot, strike, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time, log):
    """Check and simulate one packed (n, STATE_W) state in place: returns (n_events, flags, layout_code, i, j)."""
    n = state.shape[0]
    # views of one float and one int block (fewer allocations per shot: issue 25); the batch's air log has no rows
    f = np.empty(7 * n)
    g = np.empty(2 * n, dtype=np.int64)
    pos = f[0:2 * n].reshape((n, 2))
    vel = f[2 * n:4 * n].reshape((n, 2))
    spin = f[4 * n:7 * n].reshape((n, 3))
    motion = g[0:n]
    pocket = g[n:2 * n]
    for i in range(n):
        pos[i, 0] = state[i, S_X]
        pos[i, 1] = state[i, S_X + 1]
        vel[i, 0] = state[i, S_VX]
        vel[i, 1] = state[i, S_VX + 1]
        spin[i, 0] = state[i, S_WX]
        spin[i, 1] = state[i, S_WX + 1]
        spin[i, 2] = state[i, S_WX + 2]
        m = state[i, S_MOTION]
        q = state[i, S_POCKET]
        # codes travel as floats: each must be a whole number in range before it is cast
        if not (0.0 <= m <= MAX_MOTION and m == np.floor(m)):
            return 0, 0, BAD_MOTION, i, -1
        if not (-1.0 <= q < pockets.shape[0] and q == np.floor(q)):
            return 0, 0, BAD_POCKET, i, -1
        motion[i] = np.int64(m)
        pocket[i] = np.int64(q)
    result = _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width, length,
                                 rail, tol, max_events, max_time, log, f[7 * n:].reshape((0, AIR_LOG_W)))
    _pack(pos, vel, spin, motion, pocket, state)
    return result


@kernel(entry=True)
def run_arrays(pos_in, vel_in, spin_in, motion_in, pocket_in, V0, phi, theta, a, b, strike, segments, jaws, pockets, p,
               width, length, rail, tol, max_events, max_time, log, air_log, pos, vel, spin, motion, pocket, initial):
    """Check and simulate from the caller's arrays (left untouched): (n_events, flags, layout_code, i, j).

    The strike (V0, phi [rad], theta [rad], a, b) comes as five numbers (cheaper to pass than a new array).
    The final state goes to pos, vel, spin, motion, pocket and a packed copy of the starting state
    to ``initial`` — output buffers the caller allocates (cheaper than returning new arrays). ``air_log`` (rows, 4,
    any contents; it may have none) is zeroed and gets the air columns if a ball leaves the cloth.
    """
    for i in range(pos_in.shape[0]):  # element by element: array assignment compiles its shape-error messages
        pos[i, 0] = pos_in[i, 0]
        pos[i, 1] = pos_in[i, 1]
        vel[i, 0] = vel_in[i, 0]
        vel[i, 1] = vel_in[i, 1]
        spin[i, 0] = spin_in[i, 0]
        spin[i, 1] = spin_in[i, 1]
        spin[i, 2] = spin_in[i, 2]
        motion[i] = motion_in[i]
        pocket[i] = pocket_in[i]
    _pack(pos, vel, spin, motion, pocket, initial)
    shot = np.empty(5)
    shot[0], shot[1], shot[2], shot[3], shot[4] = V0, phi, theta, a, b
    return _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width, length,
                               rail, tol, max_events, max_time, log, air_log)


@kernel(parallel=True, entry=True)
def run_batch(states, shots, strike, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time, logs,
              out):
    """``run_shot`` on B tables in parallel; out[k] = (n_events, flags, layout_code, i, j)."""
    for k in prange(states.shape[0]):
        c, f, code, i, j = run_shot(states[k], shots[k], strike[k], segments, jaws, pockets, p, width, length, rail,
                                    tol, max_events, max_time, logs[k])
        out[k, 0] = c
        out[k, 1] = f
        out[k, 2] = code
        out[k, 3] = i
        out[k, 4] = j
