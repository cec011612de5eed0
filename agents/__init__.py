"""nineball agents: baseline, search and learned players, and head-to-head evaluation.

    from agents import make_agent, run_series, MatchConfig
    result = run_series("search", "ghost", n_matches=10, config=MatchConfig(race_to=3))

Every agent follows ``agents.base.Agent``: ``act(observation, view=None) -> action``. Names resolve
lazily, so ``import agents`` stays cheap (the CLI's ``shot`` command needs none of this).
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.version import __version__

_EXPORTS = {
    "Agent": "agents.base", "BaseAgent": "agents.base", "TableView": "agents.base",
    "RandomAgent": "agents.random_agent",
    "GhostBallAgent": "agents.ghost_ball", "GhostBallConfig": "agents.ghost_ball",
    "SearchAgent": "agents.search", "SearchConfig": "agents.search",
    "LearnedAgent": "agents.learned",
    "MacroActionWrapper": "agents.macro", "MacroPlanner": "agents.macro",
    "make_agent": "agents.registry",
    "MatchConfig": "agents.match", "play_match": "agents.match", "run_series": "agents.match",
    "round_robin": "agents.match",
    "wilson": "agents.stats", "elo_with_intervals": "agents.stats",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = sorted(_EXPORTS) + ["__version__"]
