"""The one entry point the Python API calls: validate the layout, then simulate, on packed arrays.

The single path (``run_arrays``) takes the caller's state arrays and returns the final state in
new arrays; the batched path (``run_batch`` → ``run_shot``) works on packed (n, 9) states. Both
go through ``_check_and_simulate``, so they cannot disagree.
"""

import numpy as np
from numba import njit, prange

from physics.kernels.layout import BAD_MOTION, BAD_POCKET, OK, check_state
from physics.kernels.air_loop import lifts_off, simulate_air_kernel
from physics.kernels.loop import simulate_kernel

STATE_W = 9  # x, y, vx, vy, wx, wy, wz, motion, pocket
LOG_W = 21  # time, kind, ball_a, ball_b, target, state_a (8), state_b (8)
AIR_LOG_W = 4  # the airborne loop's extra columns: height above the cloth and vertical velocity of ball_a, of ball_b


@njit(cache=True)
def _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width, length, rail,
                        tol, max_events, max_time, log, air_log):
    """Check the layout, then simulate in place on arrays the caller owns: (n_events, flags, layout_code, i, j).

    The flat loop: for a shot whose strike does not lift the cue ball (``lifts_off``), or no strike. If a
    ball–ball contact lifts a ball, the airborne loop takes over (FLAG_AIRBORNE), zeroes ``air_log`` (rows,
    AIR_LOG_W; any contents before) and fills it, as far as it has rows; otherwise ``air_log`` is left as it was.
    """
    code, bad_i, bad_j = check_state(pos, vel, spin, motion, pocket, strike, segments, jaws, pockets, p, width, length,
                                     rail, tol)
    if code != OK:
        return 0, 0, code, bad_i, bad_j
    count, flags = simulate_kernel(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, width, length,
                                   rail, p, max_events, max_time, log[:, 0], log[:, 1], log[:, 2], log[:, 3], log[:, 4],
                                   log[:, 5:13], log[:, 13:21], air_log)
    return count, flags, OK, -1, -1


@njit(cache=True)
def _check_and_simulate_air(pos, vel, spin, motion, pocket, shot, segments, jaws, pockets, p, width, length, rail,
                            tol, max_events, max_time, log, air_log):
    """``_check_and_simulate`` for a strike that lifts the cue ball: the airborne loop, which also fills ``air_log``
    (rows, AIR_LOG_W), zeroed by the caller, as far as it has rows."""
    code, bad_i, bad_j = check_state(pos, vel, spin, motion, pocket, True, segments, jaws, pockets, p, width, length,
                                     rail, tol)
    if code != OK:
        return 0, 0, code, bad_i, bad_j
    count, flags = simulate_air_kernel(pos, vel, spin, motion, pocket, shot, segments, jaws, pockets, width, length,
                                       rail, p, max_events, max_time, log[:, 0], log[:, 1], log[:, 2], log[:, 3], log[:, 4],
                                       log[:, 5:13], log[:, 13:21], air_log)
    return count, flags, OK, -1, -1


@njit(cache=True)
def _pack(pos, vel, spin, motion, pocket, state):
    """Write the ball arrays into one packed (n, 9) state: x, y, vx, vy, wx, wy, wz, motion, pocket."""
    for i in range(pos.shape[0]):
        state[i, 0] = pos[i, 0]
        state[i, 1] = pos[i, 1]
        state[i, 2] = vel[i, 0]
        state[i, 3] = vel[i, 1]
        state[i, 4] = spin[i, 0]
        state[i, 5] = spin[i, 1]
        state[i, 6] = spin[i, 2]
        state[i, 7] = motion[i]
        state[i, 8] = pocket[i]


@njit(cache=True)
def run_shot(state, shot, strike, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time, log):
    """Check and simulate one packed (n, 9) state in place: returns (n_events, flags, layout_code, i, j)."""
    n = state.shape[0]
    pos = np.ascontiguousarray(state[:, 0:2])
    vel = np.ascontiguousarray(state[:, 2:4])
    spin = np.ascontiguousarray(state[:, 4:7])
    motion = np.empty(n, dtype=np.int64)
    pocket = np.empty(n, dtype=np.int64)
    for i in range(n):
        m = state[i, 7]
        q = state[i, 8]
        # codes travel as floats: each must be a whole number in range before it is cast
        if not (0.0 <= m <= 6.0 and m == np.floor(m)):
            return 0, 0, BAD_MOTION, i, -1
        if not (-1.0 <= q < pockets.shape[0] and q == np.floor(q)):
            return 0, 0, BAD_POCKET, i, -1
        motion[i] = np.int64(m)
        pocket[i] = np.int64(q)
    if strike and lifts_off(shot, p):  # a batch's logs have no air columns
        result = _check_and_simulate_air(pos, vel, spin, motion, pocket, shot, segments, jaws, pockets, p, width,
                                         length, rail, tol, max_events, max_time, log, np.zeros((0, AIR_LOG_W)))
    else:
        result = _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width,
                                     length, rail, tol, max_events, max_time, log, np.zeros((0, AIR_LOG_W)))
    _pack(pos, vel, spin, motion, pocket, state)
    return result


@njit(cache=True, inline="always")
def _copy_in(pos_in, vel_in, spin_in, motion_in, pocket_in, pos, vel, spin, motion, pocket, initial):
    pos[:] = pos_in
    vel[:] = vel_in
    spin[:] = spin_in
    motion[:] = motion_in
    pocket[:] = pocket_in
    _pack(pos, vel, spin, motion, pocket, initial)


@njit(cache=True)
def run_arrays(pos_in, vel_in, spin_in, motion_in, pocket_in, V0, phi, theta, a, b, strike, segments, jaws, pockets, p,
               width, length, rail, tol, max_events, max_time, log, air_log, pos, vel, spin, motion, pocket, initial):
    """Check and simulate from the caller's arrays (left untouched): (n_events, flags, layout_code, i, j).

    The strike (V0, phi [rad], theta [rad], a, b) comes as five numbers (cheaper to pass than a new array).
    The final state goes to pos, vel, spin, motion, pocket and a packed copy of the starting state
    to ``initial`` — output buffers the caller allocates (cheaper than returning new arrays).
    The flat loop: the caller sends a strike that ``lifts_off`` to ``run_arrays_air``; ``air_log`` (rows, 4,
    any contents; it may have none) is zeroed and gets the air columns if a ball–ball contact hands the shot over
    to the airborne loop.
    """
    _copy_in(pos_in, vel_in, spin_in, motion_in, pocket_in, pos, vel, spin, motion, pocket, initial)
    shot = np.empty(5)
    shot[0], shot[1], shot[2], shot[3], shot[4] = V0, phi, theta, a, b
    return _check_and_simulate(pos, vel, spin, motion, pocket, shot, strike, segments, jaws, pockets, p, width, length,
                               rail, tol, max_events, max_time, log, air_log)


@njit(cache=True)
def run_arrays_air(pos_in, vel_in, spin_in, motion_in, pocket_in, shot, segments, jaws, pockets, p, width, length,
                   rail, tol, max_events, max_time, log, air_log, pos, vel, spin, motion, pocket, initial):
    """``run_arrays`` for a strike that lifts the cue ball: the airborne loop, with its (rows, 4) ``air_log``."""
    _copy_in(pos_in, vel_in, spin_in, motion_in, pocket_in, pos, vel, spin, motion, pocket, initial)
    return _check_and_simulate_air(pos, vel, spin, motion, pocket, shot, segments, jaws, pockets, p, width, length,
                                   rail, tol, max_events, max_time, log, air_log)


@njit(cache=True, parallel=True)
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
