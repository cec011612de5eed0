"""The rule IDs of docs/rules.md as an enum, so every foul and every decision cites the rule behind it."""

from __future__ import annotations

from enum import StrEnum


class RuleId(StrEnum):
    """Every rule of docs/rules.md; the value is the ID string (``RuleId.LOWEST == "R-LOWEST"``).

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
