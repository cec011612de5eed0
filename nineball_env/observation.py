"""The observation: one flat float32 vector in [0, 1], seen from one player's point of view.

=========  ========  ==================================================================================
slice      name      meaning
=========  ========  ==================================================================================
0:20       pos       (x / width, y / length) of balls 0 (cue) … 9, clipped to [0, 1]; 0 off the table/in hand
20:30      on_table  1 if ball 0 … 9 is on the table (the cue ball is 0 while it is in hand)
30:39      lowest    one-hot: the lowest object ball 1 … 9 (the ball to hit first, R-LOWEST)
39:43      phase     one-hot: break, push-out allowed, push-out choice, normal (all 0 once the rack is over)
43:46      in_hand   one-hot ball in hand: none, kitchen (the break), anywhere (after a foul)
46:48      fouls     consecutive fouls / 2 of (me, opponent) (R-THREE-FOULS)
48:50      warning   1 if (me, opponent) stand on two fouls (R-WARNING)
50:52      score     racks won / race_to of (me, opponent) (all 0 in a one-rack episode)
52         to_move   1 if it is my decision
53         breaker   1 if I broke this rack
=========  ========  ==================================================================================
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from nineball_env.kernels.codes import BALL_IN_HAND_NAMES, N_BALLS, OBS_SIZE, PHASE_NAMES
from nineball_env.kernels.codes import ObsCol as O
from nineball_env.kernels.observe import encode_rows
from nineball_env.rules import Match, RackState
from physics import Motion

_FIELDS = list(O)
#: name -> slice of each field (``kernels.codes.ObsCol`` gives where each starts)
LAYOUT: dict[str, slice] = {
    f.name.lower(): slice(int(f), int(_FIELDS[i + 1]) if i + 1 < len(_FIELDS) else OBS_SIZE)
    for i, f in enumerate(_FIELDS)}


def observation_space() -> spaces.Box:
    """Box(0, 1, (54,), float32): every entry is normalised, so the bounds are finite."""
    return spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


def encode(pos: np.ndarray, on_table: np.ndarray, rack: RackState, match: Match, player: int,
           width: float, length: float) -> np.ndarray:
    """The observation of ``player`` (0 or 1) for ball centres ``pos`` (10, 2) [m] and the mask ``on_table``:
    the tables' kernel (``kernels.observe.encode_rows``) on a batch of one."""
    balls = np.zeros((1, N_BALLS, 9))
    balls[0, :, 0:2] = pos
    balls[0, :, 7] = np.where(np.asarray(on_table, dtype=bool), Motion.STATIONARY, Motion.POCKETED)
    won = np.array([match.racks_won], dtype=np.int64)
    out = np.empty((1, OBS_SIZE))
    encode_rows(balls, rack.packed()[None], won, _ROW0, player, match.race_to, 1.0 / width, 1.0 / length, out)
    return out[0].astype(np.float32)


_ROW0 = np.zeros(1, dtype=np.int64)


def decode(obs: np.ndarray, width: float = 1.27, length: float = 2.54) -> dict[str, object]:
    """A readable dict of an observation (positions in metres, the one-hots as names) for agents and tests."""
    obs = np.asarray(obs, dtype=np.float64)
    on = obs[LAYOUT["on_table"]] > 0.5
    lowest = obs[LAYOUT["lowest"]]
    phase = obs[LAYOUT["phase"]]
    return {
        "pos": obs[LAYOUT["pos"]].reshape(N_BALLS, 2) * (width, length),
        "on_table": on,
        "lowest": int(np.argmax(lowest)) + 1 if lowest.any() else None,
        "phase": PHASE_NAMES[int(np.argmax(phase))] if phase.any() else "rack-over",
        "in_hand": BALL_IN_HAND_NAMES[int(np.argmax(obs[LAYOUT["in_hand"]]))],
        "fouls": tuple(int(round(v * 2)) for v in obs[LAYOUT["fouls"]]),
        "warning": tuple(bool(v > 0.5) for v in obs[LAYOUT["warning"]]),
        "score": tuple(float(v) for v in obs[LAYOUT["score"]]),
        "to_move": bool(obs[52] > 0.5),
        "breaker": bool(obs[53] > 0.5),
    }
