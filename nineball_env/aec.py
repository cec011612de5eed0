"""Two-player nine-ball as a PettingZoo AEC env: the rules decide who moves next (needs the pettingzoo extra).

Agents ``player_0`` and ``player_1`` use the action and observation of ``NineBall-v0``
(``nineball_env.actions``, ``nineball_env.observation``); ``observe(agent)`` is from that
agent's point of view. A player who pockets legally is selected again.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError('nineball_env.aec needs PettingZoo: pip install "nineball[pettingzoo]"') from err

from nineball_env import actions, observation, turns
from nineball_env.env import GameEnv
from nineball_env.game import Game, Outcome
from nineball_env.noise import NoiseConfig
from nineball_env.render import RENDER_MODES
from physics import PhysicsParams, Table

AGENTS = ("player_0", "player_1")


class NineBallAEC(GameEnv, AECEnv):
    """Nine-ball for two agents, for self-play and head-to-head play.

    Rewards: +1 to the winner and −1 to the loser of each rack, 0 otherwise. Every agent is
    terminated when the rack (``match_race=None``) or the match is decided, and truncated after
    ``max_decisions`` decisions. Arguments as ``NineBallEnv``: ``match_race``, ``first_breaker``
    ("player_0", "player_1" or "random"), ``break_order``, ``noise``, ``strict_placement``,
    ``render_mode``, ``action_scale``, ``table``, ``params``. ``infos[agent]`` has the same keys
    every step: NineBall-v0's about the last decision (``ruling``, ``pocketed``, ``placement``,
    ``placement_adjusted``, ``n_events``, ``voided``), who made it (``by``), and the phase, ball in hand, foul
    counts and score (own first).
    """

    metadata = {"name": "nineball_v0", "render_modes": RENDER_MODES, "is_parallelizable": False,
                "render_fps": 4}
    PLAYERS = AGENTS

    def __init__(self, render_mode: str | None = None, *, match_race: int | None = None,
                 first_breaker: str = "random", break_order: str = "alternate",
                 noise: str | Mapping[str, float] | NoiseConfig | None = "none", strict_placement: bool = False,
                 max_decisions: int = 400, action_scale: actions.ActionScale | None = None,
                 table: Table | None = None, params: PhysicsParams | None = None) -> None:
        super().__init__()
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
            raise ValueError(f"max_decisions: expected a whole number >= 1, got {max_decisions!r}")
        self._configure(render_mode, first_breaker, match_race, break_order, noise, strict_placement, action_scale,
                        table, params)
        self.max_decisions = max_decisions
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = dict.fromkeys(AGENTS, spaces.Box(-1.0, 1.0, (actions.N_ACTION,), np.float32))
        self.observation_spaces = dict.fromkeys(AGENTS, observation.observation_space())
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Box:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Box:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self._game = Game(self.config, self.np_random, self.draw_breaker(), self.noise, self.scale)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._info(a, None) for a in self.agents}
        self.decisions = 0
        self.agent_selection = AGENTS[self._game.to_move]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> np.ndarray:
        return self._require_game().observe(AGENTS.index(agent))

    def step(self, action: np.ndarray | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        act = actions.check_action(action)  # ValueError, nothing changed
        game = self._require_game()
        player = AGENTS.index(agent)
        snap = game.tables.snapshot()
        try:
            outcome = game.play(player, act)
        except BaseException:
            game.tables.restore(snap)  # a rejected action changes nothing
            raise
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if outcome.rack_winner is not None:
            self.rewards[AGENTS[outcome.rack_winner]] = 1.0
            self.rewards[AGENTS[1 - outcome.rack_winner]] = -1.0
        if game.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.decisions >= self.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        self.infos = {a: self._info(a, outcome) for a in self.agents}
        nxt = game.to_move
        self.agent_selection = AGENTS[nxt] if nxt is not None else AGENTS[1 - player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def set_state(self, state) -> None:
        """Return the game to a ``get_state`` snapshot and select the player to move."""
        super().set_state(state)
        if self._game.to_move is not None:  # type: ignore[union-attr]
            self.agent_selection = AGENTS[self._game.to_move]  # type: ignore[union-attr]

    def _info(self, agent: str, outcome: Outcome | None) -> dict:
        return {**turns.decision_info(outcome), "by": AGENTS[outcome.player] if outcome else "",
                **turns.table_info(self._require_game().tables, 0, AGENTS.index(agent))}


def env(**kwargs: Any) -> AECEnv:
    """``NineBallAEC`` wrapped in PettingZoo's order-enforcing wrapper (the usual ``env()`` factory)."""
    return wrappers.OrderEnforcingWrapper(NineBallAEC(**kwargs))


raw_env = NineBallAEC
