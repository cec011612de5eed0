"""The observation kernel: ``observation.encode`` is it on a batch of one, ``TableBatch.encode`` on many tables."""

from __future__ import annotations

from numba import njit

from nineball_env.kernels.codes import ObsCol as O
from nineball_env.kernels.codes import PhaseCode
from nineball_env.kernels.codes import RackCol as C
from physics.kernels.codes import S_MOTION
from physics.state import Motion

_ON_TABLE_MAX = float(Motion.ROLLING)  # packed motion codes <= this are on the table (frozen: see kernels/__init__)


@njit(cache=True)
def encode_rows(balls, rack, won, ks, player, race_to, sx, sy, out):
    """Write the observation of ``player`` for tables ``ks`` into ``out`` (len(ks), 54) float64 (zeroed here);
    ``sx``, ``sy`` are 1 / width and 1 / length (layout: ``nineball_env.observation``)."""
    other = 1 - player
    for i in range(ks.shape[0]):
        k = ks[i]
        out[i] = 0.0
        for b in range(10):
            if balls[k, b, S_MOTION] <= _ON_TABLE_MAX:  # clipped: a ball resting in a pocket mouth lies past the rail line
                out[i, O.POS + 2 * b] = min(max(balls[k, b, 0] * sx, 0.0), 1.0)
                out[i, O.POS + 2 * b + 1] = min(max(balls[k, b, 1] * sy, 0.0), 1.0)
                out[i, O.ON_TABLE + b] = 1.0
        phase = rack[k, C.PHASE]
        if phase != PhaseCode.RACK_OVER:
            on = rack[k, C.ON_BITS]
            lowest = 1
            while lowest < 9 and not (on >> lowest) & 1:
                lowest += 1
            out[i, O.LOWEST - 1 + lowest] = 1.0
            out[i, O.PHASE + phase] = 1.0
            out[i, O.TO_MOVE] = 1.0 if rack[k, C.SHOOTER] == player else 0.0
        out[i, O.IN_HAND + rack[k, C.IN_HAND]] = 1.0
        mine, theirs = rack[k, C.COUNT0 + player], rack[k, C.COUNT0 + other]
        out[i, O.FOULS] = min(mine, 2) * 0.5
        out[i, O.FOULS + 1] = min(theirs, 2) * 0.5
        out[i, O.WARNING] = 1.0 if mine == 2 else 0.0
        out[i, O.WARNING + 1] = 1.0 if theirs == 2 else 0.0
        if race_to > 1:
            out[i, O.SCORE] = won[k, player] / race_to
            out[i, O.SCORE + 1] = won[k, other] / race_to
        out[i, O.BREAKER] = 1.0 if rack[k, C.BREAKER] == player else 0.0
