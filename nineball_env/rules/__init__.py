"""The nine-ball rules engine: a pure function from a shot's events to a ruling, plus racks and matches.

Every decision cites the rule IDs of docs/rules.md (``RuleId``). The rules are one numba kernel
(``nineball_env.kernels.ruling``) that the envs call on packed states; this package is its readable
view (``decide`` packs a frozen ``RackState`` and the shot's events, calls it, unpacks a ``Ruling``).
It never moves a ball: a shot comes as ``hit``/``rail``/``pocket``/``off`` events or as a physics log's rows
(``decide_log``), positions as plain tuples (the 9 is spotted on a ``physics.Table``).
"""

from nineball_env.rules.errors import IllegalAction, InvalidEventLog, RulesError
from nineball_env.rules.events import CUE, NINE, OBJECT_BALLS, ShotEvent, ShotEventKind, hit, off, pocket, rail
from nineball_env.kernels.codes import FOUL_IDS, RACK_ENDINGS, RuleId
from nineball_env.rules.match import BreakOrder, Match
from nineball_env.rules.rack import new_rack, rack_order, spot_nine
from nineball_env.rules.ruling import Declaration, Ruling, decide, decide_log, forfeit
from nineball_env.rules.state import BallInHand, Phase, RackState

__all__ = [
    "CUE", "NINE", "OBJECT_BALLS",
    "BallInHand", "BreakOrder", "Declaration", "IllegalAction", "InvalidEventLog", "Match", "Phase",
    "RackState", "RuleId", "FOUL_IDS", "RACK_ENDINGS", "Ruling",
    "RulesError", "ShotEvent", "ShotEventKind",
    "decide", "decide_log", "forfeit", "hit", "new_rack", "off", "pocket", "rack_order", "rail", "spot_nine",
]
