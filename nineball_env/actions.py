"""The one flat action of every phase: named indices, the [-1, 1] ↔ physical mapping, and readable helpers.

A player's decision is always a vector in ``Box(-1, 1, (9,), float32)``; the phase decides which
components are read (the others are ignored):

======  ==============  ======================================  ==========================================
index   name            physical value                          read when
======  ==============  ======================================  ==========================================
0       ``AIM``         phi = 180·u deg (CCW from +x)           every shot
1       ``SPEED``       V0 = v_min + (u+1)/2·(v_max − v_min)    every shot
2       ``SIDE``        a = tip_max·u (fraction of R, + right)  every shot
3       ``VERTICAL``    b = tip_max·u (+ follow, − draw)        every shot
4       ``ELEVATION``   theta = (u+1)/2·theta_max deg (0–70°)   every shot
5       ``PLACE_X``     x over [R, width − R]                   ball in hand (kitchen or anywhere)
6       ``PLACE_Y``     y over [R, head string] / [R, L − R]    ball in hand (kitchen / anywhere)
7       ``PUSH_OUT``    u > 0 declares a push-out               the shot right after a legal break
8       ``PASS_BACK``   u > 0 passes the shot back              the choice after the opponent's push-out
======  ==============  ======================================  ==========================================

The default elevation range, 0–70°, holds jump shots (jump cues work at 45–70°; with follow, VERTICAL near +1,
the cue axis is close to the centre and a 45–62° stroke at 5–8 m/s jumps a ball 30 cm away). u = −1 is a
level cue at any range, so agents that shoot level encode and decode the same shots as before. The range
before balls could leave the cloth, 0–30°, is ``LEGACY_SCALE`` (pass it as ``action_scale`` to replay
actions recorded on it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nineball_env.kernels.codes import N_ACTION, A, BallInHand
from nineball_env.kernels.round import encode_action, lin, shot_of
from nineball_env.placement import region
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Shot, Table
from physics.checks import check_numbers


@dataclass(frozen=True)
class ActionScale:
    """Physical ranges the [-1, 1] components map onto (SI units, degrees)."""

    v_min: float = 0.5
    v_max: float = 10.0
    tip_max: float = 0.5
    theta_max: float = 70.0

    def __post_init__(self) -> None:
        check_numbers(self)
        if not 0.0 < self.v_min < self.v_max <= 12.0:
            raise ValueError(f"v_min, v_max: expected 0 < v_min < v_max <= 12 m/s, got {self.v_min}, {self.v_max}")
        if not 0.0 <= self.tip_max <= 0.9 / math.sqrt(2.0):
            raise ValueError(f"tip_max: expected in [0, {0.9 / math.sqrt(2.0):.4f}] so a²+b² <= 0.81, "
                             f"got {self.tip_max}")
        if not 0.0 <= self.theta_max <= 89.0:
            raise ValueError(f"theta_max: expected in [0, 89] degrees, got {self.theta_max}")

    @property
    def row(self) -> np.ndarray:
        """The scale as the kernels read it: (v_min, v_max, tip_max, theta_max)."""
        return np.array([self.v_min, self.v_max, self.tip_max, self.theta_max], dtype=np.float64)


DEFAULT_SCALE = ActionScale()
#: The elevation range of the flat-only simulator (0–30°), kept for actions and recordings made on it.
LEGACY_SCALE = ActionScale(theta_max=30.0)


def _in_unit_box(arr: np.ndarray) -> bool:
    """Every component of the 1-D float array ``arr`` lies in [-1, 1] (NaN does not); plain floats are
    faster than numpy reductions for a vector this short."""
    for v in arr.tolist():
        if not -1.0 <= v <= 1.0:
            return False
    return True


_NUMERIC_KINDS = "fiu"  # float, signed and unsigned integer arrays are numbers; bool, complex, text are not


def as_action_array(action: object, name: str = "action") -> np.ndarray:
    """``action`` as a float64 array (any shape), or TypeError naming ``name`` for what is not real numbers.

    Strings, bools, complex numbers and objects are rejected rather than converted: a stringly-typed
    or boolean action is a caller bug, and a complex one would silently lose its imaginary part.
    """
    if type(action) is np.ndarray and action.dtype.kind == "f":  # the common case
        return action.astype(np.float64, copy=False)
    if isinstance(action, (str, bytes)):
        raise TypeError(f"{name}: expected numbers in [-1, 1], got the text {action!r}")
    try:
        raw = np.asarray(action)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers in [-1, 1], got {action!r:.80}") from None
    if raw.dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(f"{name}: expected real numbers in [-1, 1], got an array of {raw.dtype} ({action!r:.80})")
    if not isinstance(action, np.ndarray) and _has_bool(action):
        raise TypeError(f"{name}: expected real numbers in [-1, 1], got booleans in {action!r:.80}")
    return raw.astype(np.float64)


def _has_bool(values: object) -> bool:
    """A (nested) Python sequence holds a bool (numpy turns ``[True, 0.5]`` into floats without a word)."""
    if isinstance(values, (bool, np.bool_)):
        return True
    if isinstance(values, (list, tuple)):
        return any(_has_bool(v) for v in values)
    return False


def check_action(action: object) -> np.ndarray:
    """The action as a float64 vector of length 9, or an error naming the problem: TypeError for what is not
    real numbers (text, bools, complex), ValueError for the shape, NaN or a component outside [-1, 1]."""
    arr = as_action_array(action)
    if arr.shape != (N_ACTION,):
        raise ValueError(f"action: expected shape ({N_ACTION},), got {arr.shape}")
    if _in_unit_box(arr):  # the common case
        return arr
    if not np.all(np.isfinite(arr)):
        bad = [A(i).name for i in np.flatnonzero(~np.isfinite(arr))]
        raise ValueError(f"action: NaN or infinite component(s) {bad}")
    bad = [f"{A(i).name}={arr[i]:g}" for i in np.flatnonzero(np.abs(arr) > 1.0)]  # finite, not all in [-1, 1]
    raise ValueError(f"action: component(s) outside [-1, 1]: {', '.join(bad)}")


def action_to_shot(action: np.ndarray, scale: ActionScale = DEFAULT_SCALE) -> Shot:
    """The cue strike encoded in components AIM … ELEVATION of a checked action."""
    V0, phi, theta, a, b = shot_of(np.asarray(action, dtype=np.float64), float(scale.v_min), float(scale.v_max),
                                   float(scale.tip_max), float(scale.theta_max))
    return Shot(V0=V0, phi=phi, theta=theta, a=a, b=b)


def action_to_placement(action: np.ndarray, ball_in_hand: str, table: Table = DEFAULT_TABLE,
                        params: PhysicsParams = DEFAULT_PARAMS) -> tuple[float, float]:
    """The cue-ball centre [m] encoded in PLACE_X, PLACE_Y for ``ball_in_hand`` "kitchen" or "anywhere"."""
    x_lo, x_hi, y_lo, y_hi = region(table, params, ball_in_hand == BallInHand.KITCHEN)
    return (lin(float(action[A.PLACE_X]), x_lo, x_hi), lin(float(action[A.PLACE_Y]), y_lo, y_hi))


def shot_to_action(shot: Shot | None = None, *, placement: tuple[float, float] | None = None,
                   ball_in_hand: str = BallInHand.ANYWHERE, push_out: bool = False, pass_back: bool = False,
                   table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                   scale: ActionScale = DEFAULT_SCALE) -> np.ndarray:
    """The float32 action for a readable shot (degrees, m/s, fractions of R) and placement [m].

    Values outside the scale's ranges are clipped to [-1, 1]; ``ball_in_hand`` says which box the
    placement is encoded in ("kitchen" on the break). Flags map to +1 (set) or −1 (not set).
    """
    box = (0.0, 0.0, 0.0, 0.0)
    if placement is not None:
        if ball_in_hand == BallInHand.NONE:
            raise ValueError("ball_in_hand: a placement needs 'kitchen' or 'anywhere', got 'none'")
        box = region(table, params, ball_in_hand == BallInHand.KITCHEN)
    s = shot or _NO_SHOT
    px, py = placement if placement is not None else (0.0, 0.0)
    u = np.empty(N_ACTION)
    encode_action(u, shot is not None, float(s.V0), float(s.phi), float(s.theta), float(s.a), float(s.b),
                  placement is not None, float(px), float(py), np.array(box), bool(push_out), bool(pass_back), scale.row)
    return u.astype(np.float32)


_NO_SHOT = Shot(V0=1.0, phi=0.0)  # the values a choice leaves unread


def choice_action(pass_back: bool) -> np.ndarray:
    """The action for the push-out choice: shoot (False) or pass the shot back (True)."""
    return shot_to_action(None, pass_back=pass_back)
