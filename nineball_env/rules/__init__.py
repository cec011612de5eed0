"""The nine-ball rules engine: a pure function from a shot's events to a ruling, plus racks and matches.

Every decision cites the rule IDs of docs/rules.md (``RuleId``). Nothing here imports the physics or
Gymnasium: the env converts the physics event log with ``from_rows`` and positions with plain tuples.
"""

from nineball_env.rules.errors import IllegalAction, InvalidEventLog, RulesError
from nineball_env.rules.events import (
    CUE,
    NINE,
    OBJECT_BALLS,
    PHYSICS_KIND_CODES,
    ShotEvent,
    ShotEventKind,
    from_rows,
    hit,
    off,
    pocket,
    rail,
)
from nineball_env.rules.geometry import DEFAULT_GEOMETRY, RackGeometry
from nineball_env.rules.ids import FOUL_IDS, RACK_ENDINGS, RuleId
from nineball_env.rules.match import BreakOrder, Match
from nineball_env.rules.rack import apply_ruling, check_cue_placement, new_rack, rack_order, spot_nine
from nineball_env.rules.ruling import (
    Declaration,
    Ruling,
    break_fouls,
    decide,
    decide_summary,
    forfeit,
    format_outcome,
    push_out_fouls,
    shot_fouls,
)
from nineball_env.rules.state import BallInHand, Phase, RackState
from nineball_env.rules.summary import ShotSummary, summarize

__all__ = [
    "CUE", "NINE", "OBJECT_BALLS", "PHYSICS_KIND_CODES",
    "BallInHand", "BreakOrder", "Declaration", "IllegalAction", "InvalidEventLog", "Match", "Phase",
    "RackGeometry", "DEFAULT_GEOMETRY", "RackState", "RuleId", "FOUL_IDS", "RACK_ENDINGS", "Ruling",
    "RulesError", "ShotEvent", "ShotEventKind", "ShotSummary",
    "apply_ruling", "break_fouls", "check_cue_placement", "decide", "decide_summary", "forfeit", "format_outcome",
    "from_rows", "hit", "new_rack", "off", "pocket", "push_out_fouls", "rack_order", "rail",
    "shot_fouls", "spot_nine", "summarize",
]
