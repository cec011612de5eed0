"""The Python API around the kernels: validate once, convert once, call one entry point."""

from __future__ import annotations

import math

import numpy as np

from physics.events import STATE_COLS, EventLog, SimResult
from physics.kernels.loop import FLAG_EVENT_CAP, FLAG_TIME_CAP, simulate_kernel
from physics.kernels.motion import evolve_ball
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.shot import Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE, Table
from physics.validate import validate_state

DEFAULT_MAX_EVENTS = 4000
DEFAULT_MAX_TIME = 120.0  # [s] of simulated time
_INITIAL_LOG = 256


def shot_array(shot: Shot) -> np.ndarray:
    """(V0 [m/s], phi [rad], theta [rad], a, b) as the kernels read it."""
    return np.array([shot.V0, math.radians(shot.phi), math.radians(shot.theta), shot.a, shot.b])


def _check_caps(max_events: int, max_time: float) -> None:
    if isinstance(max_events, bool) or not isinstance(max_events, (int, np.integer)) or max_events < 1:
        raise ValueError(f"max_events: expected a positive integer, got {max_events!r}")
    if not isinstance(max_time, (int, float)) or not math.isfinite(max_time) or max_time <= 0:
        raise ValueError(f"max_time: expected a positive finite number of seconds, got {max_time!r}")


def _check_types(shot: object, table: object, params: object) -> None:
    if shot is not None and not isinstance(shot, Shot):
        raise ValueError(f"shot: expected a physics.Shot or None, got {type(shot).__name__}")
    if not isinstance(table, Table):
        raise ValueError(f"table: expected a physics.Table, got {type(table).__name__}")
    if not isinstance(params, PhysicsParams):
        raise ValueError(f"params: expected a physics.PhysicsParams, got {type(params).__name__}")


def simulate(
    state: BallState,
    shot: Shot | None,
    table: Table = DEFAULT_TABLE,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_time: float = DEFAULT_MAX_TIME,
) -> SimResult:
    """Strike the cue ball with ``shot`` and run every event until all balls rest (or a cap is hit).

    ``shot=None`` evolves ``state`` as it is (balls may already be moving). The input state is
    not modified. Raises ValueError naming the field for bad input, before anything is simulated.
    """
    _check_types(shot, table, params)
    _check_caps(max_events, max_time)
    validate_state(state, table, params)
    if shot is not None and not state.on_table()[0]:
        raise ValueError("state: the cue ball (ball 0) must be on the table to take a shot")
    work = state
    # Start with a small log; a shot with more events reruns (deterministically) with a log that fits.
    count, flags, buffers = _run(work, shot, table, params, min(int(max_events), _INITIAL_LOG), int(max_events),
                                 float(max_time))
    if count > buffers[5].shape[0]:
        count, flags, buffers = _run(work, shot, table, params, count, int(max_events), float(max_time))
    pos, vel, spin, motion, pocket, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b = buffers
    log = EventLog(ev_time[:count].copy(), ev_kind[:count].copy(), ev_a[:count].copy(), ev_b[:count].copy(),
                   ev_target[:count].copy(), ev_state_a[:count].copy(), ev_state_b[:count].copy())
    final = BallState(pos, vel, spin, motion, pocket)
    return SimResult(state.copy(), final, log, bool(flags & FLAG_EVENT_CAP), bool(flags & FLAG_TIME_CAP))


def _run(work: BallState, shot: Shot | None, table: Table, params: PhysicsParams, n: int, max_events: int,
         max_time: float):
    """One kernel call on fresh copies of ``work`` with an n-row event log."""
    pos = np.array(work.pos, dtype=np.float64, order="C")
    vel = np.array(work.vel, dtype=np.float64, order="C")
    spin = np.array(work.spin, dtype=np.float64, order="C")
    motion = np.array(work.motion, dtype=np.int64, order="C")
    pocket = np.array(work.pocket, dtype=np.int64, order="C")
    ev_time = np.empty(n)
    ev_kind = np.empty(n, dtype=np.int64)
    ev_a = np.empty(n, dtype=np.int64)
    ev_b = np.empty(n, dtype=np.int64)
    ev_target = np.empty(n, dtype=np.int64)
    ev_state_a = np.empty((n, STATE_COLS))
    ev_state_b = np.empty((n, STATE_COLS))
    strike = shot is not None
    shot_arr = shot_array(shot) if strike else np.zeros(5)
    count, flags = simulate_kernel(
        pos, vel, spin, motion, pocket, shot_arr, strike,
        table.segments, table.jaws, table.pockets, params.to_array(), max_events, max_time,
        ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b,
    )
    return count, flags, (pos, vel, spin, motion, pocket, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)


def sample_positions(result: SimResult, times: np.ndarray, params: PhysicsParams = DEFAULT_PARAMS) -> np.ndarray:
    """Ball centres at each of ``times`` [s] from the logged segments: array (len(times), n_balls, 2).

    Pocketed balls report the position where they dropped. For rendering and analysis.
    """
    times = np.asarray(times, dtype=np.float64)
    if times.ndim != 1 or not np.all(np.isfinite(times)) or np.any(times < 0):
        raise ValueError("times: expected a 1-D array of finite, non-negative times [s]")
    if times.size > 1 and np.any(np.diff(times) < 0):
        raise ValueError("times: expected non-decreasing times")
    log = result.events
    init = result.initial
    n_balls = init.n_balls
    out = np.empty((times.size, n_balls, 2))
    p = params.to_array()
    # Per ball: the segment starts (time, state row) in time order.
    for ball in range(n_balls):
        seg_t = [0.0]
        seg_s = [np.concatenate([init.pos[ball], init.vel[ball], init.spin[ball], [float(init.motion[ball])]])]
        for i in range(len(log)):
            if log.ball_a[i] == ball:
                seg_t.append(float(log.time[i]))
                seg_s.append(log.state_a[i])
            elif log.ball_b[i] == ball:
                seg_t.append(float(log.time[i]))
                seg_s.append(log.state_b[i])
        seg_t_arr = np.array(seg_t)
        k = np.searchsorted(seg_t_arr, times, side="right") - 1
        for j, t in enumerate(times):
            s = seg_s[k[j]]
            x, y = evolve_ball(s, t - seg_t_arr[k[j]], p)
            out[j, ball, 0] = x
            out[j, ball, 1] = y
    return out
