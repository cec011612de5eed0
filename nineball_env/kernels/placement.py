"""``placement.is_free`` compiled with numba, for the kernels that place a cue ball in hand."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def is_free(x, y, balls, n_balls, R, width, length, head_y, kitchen, pockets, margin):
    """A cue ball in hand centred at (x, y) [m] is a legal placement (R-BIH, R-BREAK-POS): on the playing surface
    (behind the head string ``head_y`` when ``kitchen``), outside every pocket's capture circle and touching none
    of the first ``n_balls`` centres of ``balls``; ``margin`` [m] widens the ball and pocket clearances."""
    y_hi = head_y if kitchen else length - R
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
def free_mask(points, balls, n_balls, R, width, length, head_y, kitchen, pockets, margin, out):
    """``is_free`` for every candidate centre of ``points`` (m, 2) into the boolean ``out`` (m,)."""
    for i in range(points.shape[0]):
        out[i] = is_free(points[i, 0], points[i, 1], balls, n_balls, R, width, length, head_y, kitchen, pockets, margin)
