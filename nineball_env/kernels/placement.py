"""``placement.is_free`` compiled with numba, for the kernels that place a cue ball in hand."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def is_free(x, y, balls, n_balls, R, width, length, kitchen, pockets, margin):
    """``placement.is_free``: a cue ball at (x, y) is a legal placement among the first ``n_balls`` centres."""
    y_hi = length / 4.0 if kitchen else length - R
    if not (R <= x <= width - R and R <= y <= y_hi):
        return False
    for p in range(pockets.shape[0]):
        if (pockets[p, 0] - x) ** 2 + (pockets[p, 1] - y) ** 2 < (pockets[p, 2] + margin) ** 2:
            return False
    reach = (2.0 * R + margin) ** 2
    for i in range(n_balls):
        if (balls[i, 0] - x) ** 2 + (balls[i, 1] - y) ** 2 < reach:
            return False
    return True
