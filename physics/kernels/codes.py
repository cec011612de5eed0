"""The codes the kernels and the Python API share, written once: motion states, event kinds (logged, and the loops'
internal ones), result flags, and the columns of packed ball states, event-log rows and air rows.

The public enums (``physics.Motion``, ``physics.EventKind``) are defined here; the kernels read the same values as
plain integers (numba freezes module globals at compile time, so this file lives with the kernels: their cache is
dropped when it changes, ``kernels/__init__``).
"""

from enum import IntEnum


class Motion(IntEnum):
    """Motion-state code of one ball (the kernels use the integer values)."""

    STATIONARY = 0
    SPINNING = 1
    SLIDING = 2
    ROLLING = 3
    POCKETED = 4
    AIRBORNE = 5  # in the air (only during a shot, or at its end when a cap stopped it in the air: ``in_flight``)
    OFF_TABLE = 6  # left the table without being pocketed (jumped off, or taken off by the safety net)


class EventKind(IntEnum):
    """Kinds of logged events (the kernels use the integer values)."""

    STICK_BALL = 0  # the cue strikes the cue ball (t = 0)
    BALL_BALL = 1
    BALL_CUSHION = 2  # target = cushion segment index
    BALL_JAW = 3  # target = jaw index (a rounded pocket jaw counts as a cushion, docs/rules.md)
    BALL_POCKET = 4  # target = pocket index
    SLIDING_ROLLING = 5
    ROLLING_SPINNING = 6
    ROLLING_STATIONARY = 7
    SPINNING_STATIONARY = 8
    # ball_a leaves the table: over the rail it comes down onto the rail's top, crosses its outer edge or meets a ball
    # (docs/table.md); target = the cushion or facing whose rail it flew over (-1: it came down off the playing
    # surface, or the safety net took it off)
    BALL_OFF_TABLE = 9
    BALL_AIRBORNE = 10  # ball_a leaves the cloth (a cue strike into the slate, a ball driven up by a ball)
    BALL_LANDING = 11  # ball_a lands on the cloth: it bounces (motion AIRBORNE) or settles


# The kernels' integers, generated from the enums
STATIONARY, SPINNING, SLIDING, ROLLING, POCKETED, AIRBORNE, OFF_TABLE = (int(m) for m in Motion)
(EV_STICK, EV_BALL_BALL, EV_CUSHION, EV_JAW, EV_POCKET, EV_SLIDE_ROLL, EV_ROLL_SPIN, EV_ROLL_STOP, EV_SPIN_STOP,
 EV_OFF_TABLE, EV_AIRBORNE, EV_LANDING) = (int(k) for k in EventKind)

# Internal event kinds: what the loops' caches schedule, resolved into a logged kind (or none)
EV_TRANSITION = 100  # a ball's motion state ends (logged as SLIDING_ROLLING ... SPINNING_STATIONARY, or a landing)
EV_CLEAR = 101  # an airborne ball's centre crosses a cushion's or facing's line above its nose (over the rail, not logged)
EV_NOSE = 102  # an airborne ball meets a cushion's nose (logged as BALL_CUSHION)
EV_JAW_NOSE = 103  # an airborne ball meets a jaw's rounded top edge (logged as BALL_JAW)
EV_JAW_CLEAR = 104  # an airborne ball's centre comes over a jaw post (then over the rail, not logged)
EV_LINER = 105  # an airborne ball meets a pocket's liner wall (logged as BALL_JAW, the pocket's nearest jaw)
EV_LINER_EDGE = 106  # an airborne ball meets a liner's top edge (logged as BALL_JAW)
EV_LINER_CLEAR = 107  # an airborne ball's centre passes over a liner's circle (over the rail, not logged)
EV_RAIL_RETURN = 108  # a ball over the rail comes back over the playing area (in the air there, not logged)

# Flags of a simulated shot (the kernels return them OR-ed)
FLAG_EVENT_CAP = 1  # max_events stopped the shot
FLAG_TIME_CAP = 2  # max_time stopped the shot
# A ball the loop could not keep on the cloth (none in the 10⁶-shot soak): at the end it is taken off the table
# (motion OFF_TABLE, a logged BALL_OFF_TABLE event, this flag) where it lies, never clamped, so the final state stays a
# legal layout and the rules see an off-table ball.
FLAG_UNRESOLVED = 4
FLAG_AIRBORNE = 8  # a ball left the cloth (air.py): the cue strike, or a contact between two balls, lifted it
# A cap stopped the shot with a ball in the air: where it comes down is not known, so the shot is unresolved (it
# keeps motion AIRBORNE in the final state, which no shot can start from; nothing logs it off the table).
FLAG_IN_FLIGHT = 16

# Columns of a packed ball state (``BallState.packed``: one row per ball); a logged ball state is its first LOGGED_W
S_X, S_Y, S_VX, S_VY, S_WX, S_WY, S_WZ, S_MOTION, S_POCKET = range(9)
STATE_W = 9
LOGGED_W = 8  # x, y, vx, vy, wx, wy, wz, motion
# Columns of an event-log row: time, kind, ball_a, ball_b, target, then ball_a's and ball_b's logged states
LOG_TIME, LOG_KIND, LOG_A, LOG_B, LOG_TARGET = range(5)
LOG_STATE_A = 5
LOG_STATE_B = LOG_STATE_A + LOGGED_W
LOG_W = LOG_STATE_B + LOGGED_W
# Columns of an air-log row (``EventLog.air``): height of the bottom above the cloth [m] and vertical velocity [m/s]
# of ball_a, then of ball_b, after the event
AIR_H_A, AIR_VZ_A, AIR_H_B, AIR_VZ_B = range(4)
AIR_LOG_W = 4
