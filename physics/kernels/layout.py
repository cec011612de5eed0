"""Layout check kernel: finiteness, inside the cushions, outside the pockets, no overlaps, no ball in the air,
pocket numbers that match the motion codes, a rail no lower than the cushion nose."""

import math

from physics.kernels.codes import AIRBORNE, POCKETED, ROLLING, Motion
from physics.kernels.jit import kernel
from physics.params import P_CUSHION_H, P_R
from physics.table import RAIL_HEIGHT

OK, NOT_FINITE, OUTSIDE, IN_POCKET, OVERLAP, BAD_MOTION, TOO_FAST, BAD_POCKET = 0, 1, 2, 3, 4, 5, 6, 7
IN_AIR = 8  # a ball with motion AIRBORNE: a state has no heights, so no shot starts with a ball in the air
RAIL_BELOW_NOSE = 9  # the table's rail top is lower than the params' cushion nose
NO_CUE_BALL = 10  # a strike was asked for with the cue ball off the table
MAX_MOTION_CODE = int(max(Motion))
OVERLAP_TOL = 1e-9  # [m] balls may touch (racks) but not overlap by more than this
# Physical bounds on a ball's state (shot=None starts from any state): the hardest strike Shot allows
# (12 m/s) launches the cue ball at under 19 m/s with a surface speed R·|ω| under 2.5 × that; a ball
# faster than MAX_BALL_SPEED or spinning faster than MAX_SURFACE_SPEED / R is no state a shot can produce.
MAX_BALL_SPEED = 30.0  # [m/s]
MAX_SURFACE_SPEED = 75.0  # [m/s], R·|ω|


@kernel
def _clear_of_cushions(x, y, segments, jaws, R, tol):
    """Whether a ball centred at (x, y) lies on the playing side of every nearby cushion and jaw."""
    for k in range(segments.shape[0]):
        x1, y1, x2, y2, nx, ny = segments[k, 0], segments[k, 1], segments[k, 2], segments[k, 3], segments[k, 4], segments[k, 5]
        ex = x2 - x1
        ey = y2 - y1
        s = ((x - x1) * ex + (y - y1) * ey) / (ex * ex + ey * ey)
        d = (x - x1) * nx + (y - y1) * ny
        if 0.0 <= s <= 1.0 and d < R - tol and d > -4.0 * R:
            return False
    for k in range(jaws.shape[0]):
        dx = x - jaws[k, 0]
        dy = y - jaws[k, 1]
        reach = jaws[k, 2] + R - tol
        if dx * dx + dy * dy < reach * reach:
            return False
    return True


@kernel(inline="always")  # called per ball: a call that passes arrays costs reference counting
def ball_region(x, y, width, length, segments, jaws, pockets, R, tol):
    """Where a ball centred at (x, y) lies: (OK, -1) on the playing surface, (OUTSIDE, -1) within R − tol of a
    cushion or beyond it, (IN_POCKET, k) inside pocket k's capture circle."""
    r_in = R - tol
    if x < r_in or x > width - r_in or y < r_in or y > length - r_in:
        near_pocket = False
        for k in range(pockets.shape[0]):
            dx = x - pockets[k, 0]
            dy = y - pockets[k, 1]
            if dx * dx + dy * dy < 0.15 * 0.15:
                near_pocket = True
        if not near_pocket or x < -R or x > width + R or y < -R or y > length + R:
            return OUTSIDE, -1
        if not _clear_of_cushions(x, y, segments, jaws, R, tol):
            return OUTSIDE, -1
    for k in range(pockets.shape[0]):
        dx = x - pockets[k, 0]
        dy = y - pockets[k, 1]
        if dx * dx + dy * dy < pockets[k, 2] * pockets[k, 2]:
            return IN_POCKET, k
    return OK, -1


@kernel
def check_layout(pos, vel, spin, motion, width, length, segments, jaws, pockets, R, tol):
    """First problem found as (code, i, j); (OK, -1, -1) when the layout is legal.

    Motion codes must be known and not AIRBORNE, every value finite and within the physical bounds (MAX_BALL_SPEED,
    MAX_SURFACE_SPEED).

    A centre must lie within R of no cushion: inside the rectangle [R, width − R] × [R, length − R],
    or in a pocket's mouth (within 0.15 m of its capture circle's centre, on the playing side of
    its facings and clear of its jaws), where a ball can come to rest hanging in the jaws.
    """
    n = pos.shape[0]
    for i in range(n):
        if motion[i] < 0 or motion[i] > MAX_MOTION_CODE:
            return BAD_MOTION, i, -1
        if motion[i] == AIRBORNE:
            return IN_AIR, i, -1
        for k in range(2):
            if not (math.isfinite(pos[i, k]) and math.isfinite(vel[i, k])):
                return NOT_FINITE, i, -1
        for k in range(3):
            if not math.isfinite(spin[i, k]):
                return NOT_FINITE, i, -1
        if (vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1] > MAX_BALL_SPEED * MAX_BALL_SPEED
                or R * R * (spin[i, 0] * spin[i, 0] + spin[i, 1] * spin[i, 1] + spin[i, 2] * spin[i, 2])
                > MAX_SURFACE_SPEED * MAX_SURFACE_SPEED):
            return TOO_FAST, i, -1
    touch = 2.0 * R - tol
    touch2 = touch * touch  # squared distances against it: no root per pair (issue 25)
    for i in range(n):
        if motion[i] > ROLLING:
            continue
        x = pos[i, 0]
        y = pos[i, 1]
        code, k = ball_region(x, y, width, length, segments, jaws, pockets, R, tol)
        if code != OK:
            return code, i, k
        for j in range(i + 1, n):
            if motion[j] > ROLLING:
                continue
            dx = pos[j, 0] - x
            dy = pos[j, 1] - y
            if dx * dx + dy * dy < touch2:
                return OVERLAP, i, j
    return OK, -1, -1


@kernel(inline="always")
def check_state(pos, vel, spin, motion, pocket, strike, segments, jaws, pockets, p, width, length, rail, tol):
    """Whether a state may be simulated on this table with these parameters: (code, i, j), OK or what is wrong with
    which balls. The layout (``check_layout``); pocket numbers -1 or a pocket, and -1 unless the ball is POCKETED
    (one taken off by ``BallState.remove`` has none); the cue ball on the table when ``strike``; the rail's top no
    lower than the cushion nose, so that a ball which clears a cushion is above the rail."""
    if rail[RAIL_HEIGHT] < p[P_CUSHION_H]:
        return RAIL_BELOW_NOSE, -1, -1
    code, bad_i, bad_j = check_layout(pos, vel, spin, motion, width, length, segments, jaws, pockets, p[P_R], tol)
    if code != OK:
        return code, bad_i, bad_j
    for i in range(pocket.shape[0]):
        if pocket[i] < -1 or pocket[i] >= pockets.shape[0] or (pocket[i] != -1 and motion[i] != POCKETED):
            return BAD_POCKET, i, -1
    if strike and motion[0] >= POCKETED:
        return NO_CUE_BALL, 0, -1
    return OK, -1, -1


SHOT_OK, SHOT_NOT_FINITE, SHOT_SPEED, SHOT_ELEVATION, SHOT_TIP = 0, 1, 2, 3, 4


@kernel(entry=True)
def check_shot_rows(shots, max_speed, max_elevation, max_tip):
    """First bad shot row (V0, phi°, theta°, a, b) as (index, code); (-1, SHOT_OK) when every row is legal.
    A row whose V0 is NaN means no strike and is not checked."""
    for k in range(shots.shape[0]):
        V0, phi, theta, a, b = shots[k, 0], shots[k, 1], shots[k, 2], shots[k, 3], shots[k, 4]
        if math.isnan(V0):
            continue
        if not (math.isfinite(V0) and math.isfinite(phi) and math.isfinite(theta) and math.isfinite(a)
                and math.isfinite(b)):
            return k, SHOT_NOT_FINITE
        if not (0.0 < V0 <= max_speed):
            return k, SHOT_SPEED
        if not (0.0 <= theta <= max_elevation):
            return k, SHOT_ELEVATION
        if math.hypot(a, b) > max_tip:
            return k, SHOT_TIP
    return -1, SHOT_OK
