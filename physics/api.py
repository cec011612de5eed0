"""The Python API around the kernels: validate once, convert once, call one entry point."""

from __future__ import annotations

import math

import numpy as np

from physics.events import EventLog, SimResult
from physics.kernels.codes import (
    AIR_LOG_W, FLAG_AIRBORNE, FLAG_EVENT_CAP, FLAG_IN_FLIGHT, FLAG_TIME_CAP, FLAG_UNRESOLVED, LOG_W, STATE_W,
)
from physics.kernels.entry import run_arrays
from physics.kernels.motion import evolve_ball
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.shot import Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE, Table
from physics.validate import OVERLAP_TOL, raise_layout_error

DEFAULT_MAX_EVENTS = 4000
DEFAULT_MAX_TIME = 120.0  # [s] of simulated time
# Largest event cap accepted: a shot's log of that many rows is 168 MB (a break takes ~80 events).
MAX_EVENTS_LIMIT = 1_000_000
INITIAL_LOG_ROWS = 256  # a shot with more events reruns with a log that fits
_NO_SHOT = (0.0, 0.0, 0.0, 0.0, 0.0)  # the strike's numbers when there is none


def shot_array(shot: Shot) -> np.ndarray:
    """(V0 [m/s], phi [rad], theta [rad], a, b) as the kernels read it."""
    return np.array([shot.V0, math.radians(shot.phi), math.radians(shot.theta), shot.a, shot.b])


_PARAMS_ARRAYS: dict[int, tuple[PhysicsParams, np.ndarray]] = {}


def params_array(params: PhysicsParams) -> np.ndarray:
    """``params.to_array()``, converted once per parameter object (read-only; frozen objects never change)."""
    hit = _PARAMS_ARRAYS.get(id(params))
    if hit is not None and hit[0] is params:
        return hit[1]
    arr = params.to_array()
    arr.flags.writeable = False
    if len(_PARAMS_ARRAYS) > 256:
        _PARAMS_ARRAYS.clear()
    _PARAMS_ARRAYS[id(params)] = (params, arr)
    return arr


def check_caps(max_events: int, max_time: float) -> None:
    """Raise ValueError unless the event cap is an integer in 1..MAX_EVENTS_LIMIT and the time cap positive and finite."""
    if (type(max_events) is int and type(max_time) is float and 1 <= max_events <= MAX_EVENTS_LIMIT
            and 0.0 < max_time < math.inf):
        return
    if (isinstance(max_events, (bool, np.bool_)) or not isinstance(max_events, (int, np.integer))
            or not 1 <= max_events <= MAX_EVENTS_LIMIT):
        raise ValueError(f"max_events: expected an integer in 1..{MAX_EVENTS_LIMIT}, got {max_events!r}")
    if (isinstance(max_time, (bool, np.bool_)) or not isinstance(max_time, (int, float, np.integer, np.floating))
            or not math.isfinite(max_time) or max_time <= 0):
        raise ValueError(f"max_time: expected a positive finite number of seconds, got {max_time!r}")


_F64, _I64 = np.dtype(np.float64), np.dtype(np.int64)


def check_types(state: object, shot: object, table: object, params: object) -> bool:
    """Raise ValueError unless the arguments have the expected types and array shapes.

    Returns True when the state's arrays are already what the kernels take (float64 / int64, native byte
    order); otherwise ``native_arrays`` converts them.
    """
    if type(state) is BallState and (shot is None or type(shot) is Shot) and type(table) is Table and type(
            params) is PhysicsParams:  # the common case first, in a few identity tests
        pos, vel, spin, motion, pocket = state.pos, state.vel, state.spin, state.motion, state.pocket
        if (type(pos) is np.ndarray and type(vel) is np.ndarray and type(spin) is np.ndarray
                and type(motion) is np.ndarray and type(pocket) is np.ndarray and pos.dtype is _F64
                and vel.dtype is _F64 and spin.dtype is _F64 and motion.dtype is _I64 and pocket.dtype is _I64
                and pos.ndim == 2):
            n = pos.shape[0]
            if (n >= 1 and pos.shape[1] == 2 and vel.shape == (n, 2) and spin.shape == (n, 3)
                    and motion.shape == (n,) and pocket.shape == (n,)):
                return True
    if not isinstance(state, BallState):
        raise ValueError(f"state: expected a physics.BallState, got {type(state).__name__}")
    if shot is not None and not isinstance(shot, Shot):
        raise ValueError(f"shot: expected a physics.Shot or None, got {type(shot).__name__}")
    if not isinstance(table, Table):
        raise ValueError(f"table: expected a physics.Table, got {type(table).__name__}")
    if not isinstance(params, PhysicsParams):
        raise ValueError(f"params: expected a physics.PhysicsParams, got {type(params).__name__}")
    pos = state.pos
    if not isinstance(pos, np.ndarray) or pos.ndim != 2 or pos.shape[0] < 1:
        raise ValueError(f"state.pos: expected an array of shape (n_balls, 2), got {getattr(pos, 'shape', pos)!r}")
    n = pos.shape[0]
    native = True
    for name, shape, kinds, dtype in (("pos", (n, 2), "fi", _F64), ("vel", (n, 2), "fi", _F64),
                                      ("spin", (n, 3), "fi", _F64), ("motion", (n,), "iu", _I64),
                                      ("pocket", (n,), "iu", _I64)):
        arr = getattr(state, name)
        if not isinstance(arr, np.ndarray) or arr.shape != shape:
            raise ValueError(f"state.{name}: expected an array of shape {shape}, got {getattr(arr, 'shape', arr)!r}")
        if arr.dtype.kind not in kinds:
            raise ValueError(f"state.{name}: expected dtype kind in {kinds!r}, got {arr.dtype}")
        native = native and arr.dtype == dtype and arr.dtype.isnative
    return native


_NATIVE = (_F64, _F64, _F64, _I64, _I64)


def native_arrays(state: BallState) -> tuple[np.ndarray, ...]:
    """pos, vel, spin (float64) and motion, pocket (int64) in native byte order, converted only when they are not
    (big-endian arrays, int positions, int32 codes): numba rejects non-native byte orders."""
    out = (state.pos, state.vel, state.spin, state.motion, state.pocket)
    converted = []
    for name, a, d in zip(("pos", "vel", "spin", "motion", "pocket"), out, _NATIVE):
        if d.kind == "i" and a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            raise ValueError(f"state.{name}: value {a.max()} out of range")
        converted.append(np.ascontiguousarray(a, dtype=d))
    return tuple(converted)


_SPARE_AIR_LOGS: list[np.ndarray] = []  # air logs, reused: one is read (copied) only when a ball leaves the cloth


def _take_spare_air_log() -> np.ndarray:
    """A spare (rows, AIR_LOG_W) buffer of any contents (list.pop is atomic, so threads never share one)."""
    try:
        return _SPARE_AIR_LOGS.pop()
    except IndexError:
        return np.empty((INITIAL_LOG_ROWS, AIR_LOG_W))


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

    ``shot=None`` evolves ``state`` as it is (balls may already be moving, at most
    ``layout.MAX_BALL_SPEED`` = 30 m/s and ``MAX_SURFACE_SPEED`` = 75 m/s of R·|ω|, beyond any shot; none in
    the air). ``max_events`` (at most ``MAX_EVENTS_LIMIT``) caps the log: it never holds more rows. A shot that a
    cap stops with a ball in the air is unresolved (``SimResult.in_flight``): that ball keeps motion AIRBORNE in
    the final state and nothing logs it off the table. The input state is not modified. Raises ValueError naming
    the field for bad input, before anything is simulated.
    """
    native = check_types(state, shot, table, params)
    check_caps(max_events, max_time)
    arrays = (state.pos, state.vel, state.spin, state.motion, state.pocket) if native else native_arrays(state)
    rows = min(int(max_events), INITIAL_LOG_ROWS)
    n = state.pos.shape[0]
    pos, vel, spin = np.empty((n, 2)), np.empty((n, 2)), np.empty((n, 3))
    motion, pocket = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    initial = np.empty((n, STATE_W))
    p = params_array(params)
    if shot is None:
        strike, (V0, phi, theta, a, b) = False, _NO_SHOT
    else:
        strike, V0, phi, theta, a, b = True, shot.V0, math.radians(shot.phi), math.radians(shot.theta), shot.a, shot.b
    spare = _take_spare_air_log()  # zeroed and filled by the kernel only if a ball leaves the cloth
    while True:
        log = np.empty((rows, LOG_W))
        if spare.shape[0] != rows:
            spare = np.empty((rows, AIR_LOG_W))
        count, flags, code, i, j = run_arrays(
            *arrays, V0, phi, theta, a, b, strike, table.segments, table.jaws, table.pockets, p, table.spec.width,
            table.spec.length, table.rail, OVERLAP_TOL, int(max_events), float(max_time), log, spare, pos, vel, spin,
            motion, pocket, initial,
        )
        if code:  # not OK (0): the layout is refused
            _SPARE_AIR_LOGS.append(spare)
            raise_layout_error(code, i, j, state, table, params)
        if count <= rows:
            break
        rows = count  # rerun (deterministically) with a log that holds every event
    air = spare[:count].copy() if flags & FLAG_AIRBORNE else None
    _SPARE_AIR_LOGS.append(spare)  # back for the next call
    return SimResult._of(initial, BallState(pos, vel, spin, motion, pocket), EventLog._of(log[:count], air),
                         bool(flags & FLAG_EVENT_CAP), bool(flags & FLAG_TIME_CAP), bool(flags & FLAG_UNRESOLVED),
                         bool(flags & FLAG_IN_FLIGHT))


def sample_positions(result: SimResult, times: np.ndarray, params: PhysicsParams = DEFAULT_PARAMS) -> np.ndarray:
    """Ball centres at each of ``times`` [s] from the logged segments: array (len(times), n_balls, 2).

    Pocketed balls report the position where they dropped. For rendering and analysis.
    """
    if not isinstance(result, SimResult):
        raise ValueError(f"result: expected a physics.SimResult, got {type(result).__name__}")
    if not isinstance(params, PhysicsParams):
        raise ValueError(f"params: expected a physics.PhysicsParams, got {type(params).__name__}")
    raw = np.asarray(times)
    if raw.dtype.kind not in "fiu":
        raise ValueError(f"times: expected real numbers [s], got dtype {raw.dtype}")
    times = raw.astype(np.float64)
    if times.ndim != 1 or not np.all(np.isfinite(times)) or np.any(times < 0):
        raise ValueError("times: expected a 1-D array of finite, non-negative times [s]")
    if times.size > 1 and np.any(np.diff(times) < 0):
        raise ValueError("times: expected non-decreasing times")
    log = result.events
    init = result.initial
    n_balls = init.n_balls
    out = np.empty((times.size, n_balls, 2))
    p = params_array(params)
    ball_a, ball_b, ev_time = log.ball_a, log.ball_b, log.time
    for ball in range(n_balls):
        seg_t = [0.0]
        seg_s = [np.concatenate([init.pos[ball], init.vel[ball], init.spin[ball], [float(init.motion[ball])]])]
        for i in range(len(log)):
            if ball_a[i] == ball:
                seg_t.append(float(ev_time[i]))
                seg_s.append(log.state_a[i])
            elif ball_b[i] == ball:
                seg_t.append(float(ev_time[i]))
                seg_s.append(log.state_b[i])
        seg_t_arr = np.array(seg_t)
        k = np.searchsorted(seg_t_arr, times, side="right") - 1
        for j in range(times.size):
            x, y = evolve_ball(seg_s[k[j]], times[j] - seg_t_arr[k[j]], p)
            out[j, ball, 0] = x
            out[j, ball, 1] = y
    return out
