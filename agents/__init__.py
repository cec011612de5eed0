"""nineball agents: baseline, search and learned players, and head-to-head evaluation.

    from agents import make_agent, run_series, MatchConfig
    result = run_series("search", "ghost", n_matches=10, config=MatchConfig(race_to=3))

Every agent follows ``agents.protocol.Agent``: ``act(observation, view=None) -> action``. Names resolve
lazily, so ``import agents`` stays cheap (the CLI's ``shot`` command needs none of this).

The package is a house of rooms by role; each room imports only the rooms below it, at module top::

    cli.py, training/   the ``nineball`` command; PPO, SAC, RLlib, imitation, self-play, the value network, evaluation
                        during training
    arena/              matches, series, seeding, records and their replay, animation, statistics, reports, Ray
    registry.py         agents by name ("ghost", "search:samples=8", "learned:PATH.npz", "ppo:PATH")
    learned/            the learned policy: the macro-action layer, the numpy actor, the agents that play policies,
                        the value network and the search that plays with it
    players/            the hand-written players: random, ghost ball, Monte-Carlo search
    shots/              shot geometry and valuation, no agent: aim, pots, jumps, candidates, outcomes, leaves, kernels,
                        playouts
    protocol.py         the agent protocol and the ``TableView`` searching agents read
                        (below all: ``nineball_env``, then ``physics``)

Why these rooms: the import graph before the split had the same layers hidden in 30 sibling modules behind 80
function-level imports. Shot geometry (pots, aims, jumps and their compiled kernels) was imported by every
player and by the macro layer and imported no agent, once the ruling of a simulated shot (``judge``) and the
candidate lists that GhostBall and the macro layer borrowed from Search moved beside it: a floor of its own, as
pooltool keeps ``ai/aim`` and ``ai/pot`` apart from its bots. The players import geometry only, as OpenSpiel's
``bots/``. The macro layer builds on GhostBall's shots and Search's candidates, and the agents that play learned
policies need it: the learned room sits above the players. The registry names players and learned agents; the
arena builds agents by name in its worker processes, so it sits above the registry; training (one module per
algorithm beside what they share, as stable-baselines3's ``common/``) evaluates in the arena. The CLI defers its
imports so that ``nineball --help`` and ``nineball shot`` load no agent. ``tests/test_import_layers.py`` holds the
house to this plan.
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.version import __version__

_EXPORTS = {
    "Agent": "agents.protocol", "BaseAgent": "agents.protocol", "TableView": "agents.protocol",
    "RandomAgent": "agents.players.random_agent",
    "GhostBallAgent": "agents.players.ghost_ball", "GhostBallConfig": "agents.players.ghost_ball",
    "SearchAgent": "agents.players.search", "SearchConfig": "agents.players.search",
    "LearnedAgent": "agents.learned.agent",
    "ValueSearchAgent": "agents.learned.value_agent", "ValueSearchConfig": "agents.learned.value_agent",
    "MacroActionWrapper": "agents.learned.macro", "MacroPlanner": "agents.learned.macro",
    "make_agent": "agents.registry",
    "MatchConfig": "agents.arena.match", "play_match": "agents.arena.match",
    "run_series": "agents.arena.series", "round_robin": "agents.arena.series",
    "wilson": "agents.arena.stats", "elo_with_intervals": "agents.arena.stats",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = sorted(_EXPORTS) + ["__version__"]
