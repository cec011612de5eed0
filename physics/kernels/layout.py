"""Layout check kernel: finiteness, inside the cushions, outside the pockets, no overlaps."""

import math

from numba import njit

OK, NOT_FINITE, OUTSIDE, IN_POCKET, OVERLAP, BAD_MOTION = 0, 1, 2, 3, 4, 5
MAX_MOTION_CODE = 6


@njit(cache=True)
def check_layout(pos, vel, spin, motion, width, length, pockets, R, tol):
    """First problem found as (code, i, j); (OK, -1, -1) when the layout is legal."""
    n = pos.shape[0]
    for i in range(n):
        if motion[i] < 0 or motion[i] > MAX_MOTION_CODE:
            return BAD_MOTION, i, -1
        for k in range(2):
            if not (math.isfinite(pos[i, k]) and math.isfinite(vel[i, k])):
                return NOT_FINITE, i, -1
        for k in range(3):
            if not math.isfinite(spin[i, k]):
                return NOT_FINITE, i, -1
    r_in = R - tol
    for i in range(n):
        if motion[i] > 3:
            continue
        x = pos[i, 0]
        y = pos[i, 1]
        if x < r_in or x > width - r_in or y < r_in or y > length - r_in:
            return OUTSIDE, i, -1
        for k in range(pockets.shape[0]):
            dx = x - pockets[k, 0]
            dy = y - pockets[k, 1]
            if dx * dx + dy * dy < pockets[k, 2] * pockets[k, 2]:
                return IN_POCKET, i, k
        for j in range(i + 1, n):
            if motion[j] > 3:
                continue
            if math.hypot(pos[j, 0] - x, pos[j, 1] - y) < 2.0 * R - tol:
                return OVERLAP, i, j
    return OK, -1, -1
