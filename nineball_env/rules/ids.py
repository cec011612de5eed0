"""Sets of rule IDs (``RuleId``, defined with the kernels' codes in ``nineball_env.kernels.codes``)."""

from __future__ import annotations

from nineball_env.kernels.codes import RuleId


#: The rules a shot can break (the foul reasons a ruling reports); R-FOUL-JUMP-SHOT is listed but never arises.
FOUL_IDS: frozenset[RuleId] = frozenset({
    RuleId.BREAK_FIRST, RuleId.BREAK_LEGAL, RuleId.BREAK_SCRATCH, RuleId.BREAK_JUMP,
    RuleId.FOUL_WRONG_BALL, RuleId.FOUL_NO_RAIL, RuleId.FOUL_SCRATCH, RuleId.FOUL_JUMP,
    RuleId.FOUL_JUMP_SHOT,
})

#: The ways a rack ends (R-GAME-END).
RACK_ENDINGS: frozenset[RuleId] = frozenset({RuleId.WIN_9, RuleId.THREE_FOULS, RuleId.FORFEIT})
