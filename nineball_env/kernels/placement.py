"""Ball-in-hand placement checks compiled with numba (``placement.is_free`` on arrays), for many tables at once."""

from __future__ import annotations

import numpy as np
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



@njit(cache=True)
def free_batch(balls, requests, kitchen, R, width, length, pockets, out):
    """``out[k]``: the cue ball may be placed at ``requests[k]`` among the object balls on table k of the packed
    states ``balls`` (n, 10, 9) (motion code <= 3: on the table), in the kitchen where ``kitchen[k]``."""
    others = np.empty((10, 2))
    for k in range(balls.shape[0]):
        n = 0
        for b in range(1, balls.shape[1]):
            if balls[k, b, 7] <= 3.0:
                others[n, 0], others[n, 1] = balls[k, b, 0], balls[k, b, 1]
                n += 1
        out[k] = is_free(requests[k, 0], requests[k, 1], others, n, R, width, length, kitchen[k], pockets, 0.0)
