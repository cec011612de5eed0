"""The rules' vocabulary, written once: phases, ball in hand, declarations, rule IDs and the rack columns.

The public names are string enums (``Phase.BREAK == "break"``, ``RuleId.LOWEST == "R-LOWEST"``), so infos,
golden files and messages read as words. Each one's integer code for the kernels is its position in
the definition order, generated below as an ``IntEnum`` (``PhaseCode.BREAK == 0``); the kernels use these
codes directly, so nothing is copied by hand. This file lives with the kernels so that numba's cache
is dropped whenever the vocabulary changes (``kernels/__init__``).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Phase(StrEnum):
    """Where a rack stands; it decides which declarations are allowed (R-PUSH-WHO, R-PUSH-CHOICE)."""

    BREAK = "break"
    PUSH_OUT_ALLOWED = "push-out-allowed"  # the shot right after a legal break (R-PUSH-WHO)
    PUSH_OUT_CHOICE = "push-out-choice"  # the opponent decides after a legal push-out (R-PUSH-CHOICE)
    NORMAL = "normal"
    RACK_OVER = "rack-over"  # R-GAME-END


class BallInHand(StrEnum):
    """Where the incoming shooter may place the cue ball (R-BIH, R-BREAK-POS)."""

    NONE = "none"
    KITCHEN = "kitchen"
    ANYWHERE = "anywhere"


class Declaration(StrEnum):
    """What the player declares with an action (R-PUSH-DECLARE, R-PUSH-CHOICE)."""

    SHOT = "shot"  # an ordinary shot (the break included)
    PUSH_OUT = "push-out"  # a shot declared as a push-out (R-PUSH-WHO)
    SHOOT = "shoot"  # after a legal push-out: the opponent plays on from the position left
    PASS_BACK = "pass-back"  # after a legal push-out: the opponent hands the shot back to the pusher
    FORFEIT = "forfeit"  # the player to act concedes the rack (R-FORFEIT); see also ``rules.forfeit``


class RuleId(StrEnum):
    """Every rule of docs/rules.md, in rulebook order; the value is the ID string (``RuleId.LOWEST == "R-LOWEST"``).

    ``FOUL_JUMP_SHOT`` cannot arise here: the simulation has no stick model, so nothing but the cue
    ball or another ball ever moves a ball (docs/rules.md, R-FOUL-JUMP-SHOT); the engine never reports it.
    """

    # Equipment and set-up
    TABLE = "R-TABLE"
    RACK = "R-RACK"
    BREAK_POS = "R-BREAK-POS"
    # The object of the game
    LOWEST = "R-LOWEST"
    NO_CALL = "R-NO-CALL"
    CONTINUE = "R-CONTINUE"
    WIN_9 = "R-WIN-9"
    MATCH = "R-MATCH"
    # The break
    BREAK_FIRST = "R-BREAK-FIRST"
    BREAK_LEGAL = "R-BREAK-LEGAL"
    BREAK_SCRATCH = "R-BREAK-SCRATCH"
    BREAK_JUMP = "R-BREAK-JUMP"
    BREAK_FOUL_BIH = "R-BREAK-FOUL-BIH"
    BREAK_9 = "R-BREAK-9"
    BREAK_CONTINUE = "R-BREAK-CONTINUE"
    # The push-out
    PUSH_WHO = "R-PUSH-WHO"
    PUSH_DECLARE = "R-PUSH-DECLARE"
    PUSH_FREE = "R-PUSH-FREE"
    PUSH_POCKETED = "R-PUSH-POCKETED"
    PUSH_CHOICE = "R-PUSH-CHOICE"
    # Fouls
    FOUL_PENALTY = "R-FOUL-PENALTY"
    FOUL_WRONG_BALL = "R-FOUL-WRONG-BALL"
    FOUL_NO_RAIL = "R-FOUL-NO-RAIL"
    FOUL_SCRATCH = "R-FOUL-SCRATCH"
    FOUL_JUMP = "R-FOUL-JUMP"
    FOUL_JUMP_SHOT = "R-FOUL-JUMP-SHOT"
    BIH = "R-BIH"
    SPOT_9 = "R-SPOT-9"
    # Three fouls and the end of a rack
    THREE_FOULS = "R-THREE-FOULS"
    WARNING = "R-WARNING"
    FORFEIT = "R-FORFEIT"
    GAME_END = "R-GAME-END"


#: The rules a shot can break (the foul reasons a ruling reports); R-FOUL-JUMP-SHOT is listed but never arises.
FOUL_IDS: frozenset[RuleId] = frozenset({
    RuleId.BREAK_FIRST, RuleId.BREAK_LEGAL, RuleId.BREAK_SCRATCH, RuleId.BREAK_JUMP,
    RuleId.FOUL_WRONG_BALL, RuleId.FOUL_NO_RAIL, RuleId.FOUL_SCRATCH, RuleId.FOUL_JUMP,
    RuleId.FOUL_JUMP_SHOT,
})
#: The ways a rack ends (R-GAME-END).
RACK_ENDINGS: frozenset[RuleId] = frozenset({RuleId.WIN_9, RuleId.THREE_FOULS, RuleId.FORFEIT})

def _codes(name: str, words: type[StrEnum]) -> type[IntEnum]:
    """The integer codes of ``words``: each member's position in the definition order, under the same name."""
    return IntEnum(name, [(member.name, i) for i, member in enumerate(words)])  # type: ignore[return-value]


PhaseCode = _codes("PhaseCode", Phase)
BallInHandCode = _codes("BallInHandCode", BallInHand)
DeclarationCode = _codes("DeclarationCode", Declaration)
RuleCode = _codes("RuleCode", RuleId)

#: code -> word, for unpacking kernel results
PHASES: tuple[Phase, ...] = tuple(Phase)
BALL_IN_HAND: tuple[BallInHand, ...] = tuple(BallInHand)
DECLARATIONS: tuple[Declaration, ...] = tuple(Declaration)
RULES: tuple[RuleId, ...] = tuple(RuleId)
#: code -> plain string, for infos and text
PHASE_NAMES: tuple[str, ...] = tuple(p.value for p in Phase)
BALL_IN_HAND_NAMES: tuple[str, ...] = tuple(b.value for b in BallInHand)


class RackCol(IntEnum):
    """Columns of a rack state packed as one int64 row (the kernels' ``RackState``); -1 stands for "none"."""

    SHOOTER = 0  # player to act, -1 once the rack is over
    PHASE = 1  # PhaseCode
    IN_HAND = 2  # BallInHandCode
    ON_BITS = 3  # bit b set: object ball b is on the table
    COUNT0 = 4  # consecutive fouls of player 0 (player p: COUNT0 + p)
    COUNT1 = 5
    BREAKER = 6
    WINNER = 7  # -1 while the rack runs
    ENDED_BY = 8  # RuleCode of R-WIN-9 / R-THREE-FOULS / R-FORFEIT, -1 while the rack runs


RACK_W = len(RackCol)


class A(IntEnum):
    """Index of each component of the flat action (``nineball_env.actions``)."""

    AIM = 0
    SPEED = 1
    SIDE = 2
    VERTICAL = 3
    ELEVATION = 4
    PLACE_X = 5
    PLACE_Y = 6
    PUSH_OUT = 7
    PASS_BACK = 8


N_ACTION = len(A)


class ObsCol(IntEnum):
    """Where each field of the flat observation starts (``nineball_env.observation.LAYOUT`` has the slices)."""

    POS = 0  # (x / width, y / length) of balls 0..9
    ON_TABLE = 20  # balls 0..9
    LOWEST = 30  # one-hot, balls 1..9
    PHASE = 39  # one-hot over the phases before RACK_OVER
    IN_HAND = 43  # one-hot over BallInHand
    FOULS = 46  # (me, opponent)
    WARNING = 48
    SCORE = 50
    TO_MOVE = 52
    BREAKER = 53


OBS_SIZE = 54
N_BALLS = 10  # the cue ball and object balls 1–9
NO_PLAYER = -1
MAX_CITED = 8  # the most rules one ruling cites


# -- the compiled turn (``kernels.turn``) ----------------------------------------------------------------------------


class Seat(IntEnum):
    """Who decides for a player of a table in the compiled turn (``kernels.turn``)."""

    STOP = 0  # the turn stops when this player is to move (the learner; both players of a ``Game``)
    EXTERNAL = 1  # a Python opponent: the turn stops and Python asks it
    AIMING = 2  # the default opponent, decided inside the turn (``kernels.aiming``)


class Status(IntEnum):
    """Where a table's turn stopped (``kernels.turn.play_turns``): the first three are normal ends."""

    STOP = 0  # a STOP seat is to move
    EXTERNAL = 1  # an EXTERNAL seat is to move
    OVER = 2  # the match is decided
    FULL = 3  # the table's decision records are full: Python makes room and plays on
    STRICT = 4  # a ball-in-hand spot is not free and placement is strict (ValueError, R-BIH)
    NO_SPOT = 5  # no free spot for a cue ball in hand (ValueError)
    LAYOUT = 6  # the physics refused the layout (ValueError, re-raised by ``physics.simulate``)
    RUNAWAY = 7  # the opponent made MAX_OPPONENT_DECISIONS decisions in a row (RuntimeError)
    REDEALS = 8  # the opponent won MAX_REDEALS deals before the learner's first decision (RuntimeError)
    NO_NINE_SPOT = 9  # no free point on the long string to spot the 9 (ValueError, R-SPOT-9)


class Cfg(IntEnum):
    """Index of each number of the compiled turn's configuration row (``game.turn_config``)."""

    R = 0  # ball radius [m]
    WIDTH = 1
    LENGTH = 2
    HEAD_Y = 3  # the head string [m]
    RACE_TO = 4
    WINNER_BREAKS = 5  # 1: the winner of a rack breaks the next (else alternate), R-MATCH
    STRICT = 6  # 1: an illegal ball-in-hand spot is an error, not moved
    NOISY = 7  # 1: execution noise is drawn
    SIGMA = 8  # (phi, V0, theta, a, b): 8..12
    SCALE = 13  # (v_min, v_max, tip_max, theta_max): 13..16
    LIMITS = 17  # (min speed, max speed, max elevation, max tip offset): 17..20
    SIMULTANEOUS = 21  # [s] first contacts closer than this are simultaneous
    GAP = 22  # [m] clearance an adjusted placement keeps
    FIRST_BREAKER = 23  # a redeal's breaker: 0 or 1, or -1 to draw it (integers(2) of the table's generator)
    SHAPING = 24  # reward shaping (pot, foul, opponent_pot, opponent_foul): 24..27
    BREAK_SPEED = 28  # the aiming opponent's break speed [m/s]
    MAX_TIME = 29  # [s] the physics' time cap
    FOOT_X = 30  # the foot spot [m] (R-SPOT-9)
    FOOT_Y = 31
    REPLAY_EVENTS = 32  # the event cap of a shot replayed because a cap stopped it with a ball in the air
    REPLAY_TIME = 33  # [s] ... and its time cap


CFG_W = int(Cfg.REPLAY_TIME) + 1
MAX_CONTINUATIONS = 4  # extra simulations of a shot that hit the event or time cap on the cloth
MAX_OPPONENT_DECISIONS = 1000  # a safety net: the rules end every inning long before this
MAX_REDEALS = 100  # deals the opponent may win outright before the learner's first decision


class RecI(IntEnum):
    """Integer columns of one decision record (``kernels.turn``; ``game.Outcome`` reads them)."""

    PLAYER = 0
    DECLARATION = 1  # DeclarationCode
    FOULS = 2  # bit mask over RuleCode
    N_CITED = 3
    CITED = 4  # RuleCodes in order: 4..11
    N_POCKETED = 12
    POCKETED = 13  # balls in order: 13..22
    N_OFF = 23
    OFF = 24  # balls driven off the table: 24..33
    SPOTTED = 34
    BEFORE = 35  # the rack before, packed: 35..43
    AFTER = 44  # the rack after: 44..52
    PLACED = 53  # the cue ball was placed from hand
    ADJUSTED = 54  # ... at the nearest free spot, not the requested one
    N_EVENTS = 55  # events of the shot's first simulation (0: the push-out choice)
    SHOT = 56  # 1: a shot was simulated (not the push-out choice)
    REPLAYED = 57  # 1: a cap stopped the shot with a ball in the air, so it was simulated again with the replay caps
    VOIDED = 58  # 1: ... and it was still in the air then: the shot is void (no ruling, the table as before it)


class RecF(IntEnum):
    """Float columns of one decision record: the placement, the shot played and the state it started from."""

    PLACE_X = 0
    PLACE_Y = 1
    SHOT = 2  # V0 [m/s], phi [deg], theta [deg], a, b: 2..6 (after execution noise)
    START = 7  # the packed balls (10 x 9) the shot started from: 7..96


RECI_W = int(RecI.VOIDED) + 1
RECF_W = int(RecF.START) + N_BALLS * 9
