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

from nineball_env.rules import Match, Phase, RackState

N_BALLS = 10
LAYOUT: dict[str, slice] = {
    "pos": slice(0, 20),
    "on_table": slice(20, 30),
    "lowest": slice(30, 39),
    "phase": slice(39, 43),
    "in_hand": slice(43, 46),
    "fouls": slice(46, 48),
    "warning": slice(48, 50),
    "score": slice(50, 52),
    "to_move": slice(52, 53),
    "breaker": slice(53, 54),
}
OBS_SIZE = 54
PHASES = (Phase.BREAK, Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE, Phase.NORMAL)
IN_HAND = ("none", "kitchen", "anywhere")
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_IN_HAND_INDEX = {b: i for i, b in enumerate(IN_HAND)}


def unit_clip(v: float) -> float:
    """``v`` clipped to [0, 1]: a ball resting in a pocket mouth has its centre up to a few mm beyond the
    rail line, and the observation must stay inside its declared ``Box`` (the kernels clip the same way)."""
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


def observation_space() -> spaces.Box:
    """Box(0, 1, (54,), float32): every entry is normalised, so the bounds are finite."""
    return spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)


def encode(pos: np.ndarray, on_table: np.ndarray, rack: RackState, match: Match, player: int,
           width: float, length: float) -> np.ndarray:
    """The observation of ``player`` (0 or 1) for ball centres ``pos`` (10, 2) [m] and the mask ``on_table``."""
    obs = [0.0] * OBS_SIZE  # filled as Python floats (float64 arithmetic), cast to float32 once at the end
    sx, sy = 1.0 / width, 1.0 / length
    for i, (xy, on) in enumerate(zip(np.asarray(pos, dtype=np.float64).tolist(),
                                     np.asarray(on_table, dtype=bool).tolist())):
        if on:  # 0 for a ball off the table; a centre in a pocket mouth can lie past the rail line: clipped
            obs[2 * i] = unit_clip(xy[0] * sx)
            obs[2 * i + 1] = unit_clip(xy[1] * sy)
            obs[20 + i] = 1.0
    other = 1 - player
    if rack.phase is not Phase.RACK_OVER:
        obs[29 + min(rack.on_table)] = 1.0  # the lowest ball (R-LOWEST)
        obs[39 + _PHASE_INDEX[rack.phase]] = 1.0
        obs[52] = float(rack.shooter == player)
    obs[43 + _IN_HAND_INDEX[rack.ball_in_hand]] = 1.0
    counts = rack.foul_counts
    mine, theirs = counts[player], counts[other]
    obs[46] = min(mine, 2) * 0.5
    obs[47] = min(theirs, 2) * 0.5
    obs[48] = float(mine == 2)
    obs[49] = float(theirs == 2)
    if match.race_to > 1:
        obs[50] = match.racks_won[player] / match.race_to
        obs[51] = match.racks_won[other] / match.race_to
    obs[53] = float(rack.breaker == player)
    return np.array(obs, dtype=np.float32)


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
        "phase": str(PHASES[int(np.argmax(phase))]) if phase.any() else "rack-over",
        "in_hand": IN_HAND[int(np.argmax(obs[LAYOUT["in_hand"]]))],
        "fouls": tuple(int(round(v * 2)) for v in obs[LAYOUT["fouls"]]),
        "warning": tuple(bool(v > 0.5) for v in obs[LAYOUT["warning"]]),
        "score": tuple(float(v) for v in obs[LAYOUT["score"]]),
        "to_move": bool(obs[52] > 0.5),
        "breaker": bool(obs[53] > 0.5),
    }
