"""``observation.encode`` for many tables held as arrays (``table_batch.TableBatch``), in numba, bit for bit."""

from __future__ import annotations

from numba import njit

# kernels.ruling rack columns (a test checks the whole observation against observation.encode)
_SHOOTER, _PHASE, _IN_HAND, _ON_BITS, _COUNT0, _BREAKER = 0, 1, 2, 3, 4, 6
_RACK_OVER = 4
_ON_TABLE_MAX = 3.0  # physics.Motion.ROLLING


@njit(cache=True)
def _unit_clip(v):
    """``observation.unit_clip``: a centre in a pocket mouth past the rail line stays inside the Box."""
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit(cache=True)
def encode_rows(balls, rack, won, ks, player, race_to, sx, sy, out):
    """Write the observation of ``player`` for tables ``ks`` into ``out`` (len(ks), 54) float64 (zeroed here);
    ``sx``, ``sy`` are 1 / width and 1 / length, as ``observation.encode`` scales."""
    other = 1 - player
    for i in range(ks.shape[0]):
        k = ks[i]
        for j in range(out.shape[1]):
            out[i, j] = 0.0
        for b in range(10):
            if balls[k, b, 7] <= _ON_TABLE_MAX:
                out[i, 2 * b] = _unit_clip(balls[k, b, 0] * sx)
                out[i, 2 * b + 1] = _unit_clip(balls[k, b, 1] * sy)
                out[i, 20 + b] = 1.0
        phase = rack[k, _PHASE]
        if phase != _RACK_OVER:
            on = rack[k, _ON_BITS]
            lowest = 1
            while lowest < 9 and not (on >> lowest) & 1:
                lowest += 1
            out[i, 29 + lowest] = 1.0
            out[i, 39 + phase] = 1.0
            out[i, 52] = 1.0 if rack[k, _SHOOTER] == player else 0.0
        out[i, 43 + rack[k, _IN_HAND]] = 1.0
        mine, theirs = rack[k, _COUNT0 + player], rack[k, _COUNT0 + other]
        out[i, 46] = min(mine, 2) * 0.5
        out[i, 47] = min(theirs, 2) * 0.5
        out[i, 48] = 1.0 if mine == 2 else 0.0
        out[i, 49] = 1.0 if theirs == 2 else 0.0
        if race_to > 1:
            out[i, 50] = won[k, player] / race_to
            out[i, 51] = won[k, other] / race_to
        out[i, 53] = 1.0 if rack[k, _BREAKER] == player else 0.0
