"""Nine-ball for RLlib (the ``ray`` extra): the single-agent env and a two-player ``MultiAgentEnv`` for self-play.

``register()`` makes two RLlib env names known (call it in the driver before building the algorithm):

* ``"nineball"`` (``SINGLE_AGENT``): ``NineBall-v0``, one learner against the env's opponent. When
  RLlib asks for ``num_envs`` tables (``config.env_runners(gym_env_vectorize_mode="vector_entry_point")``)
  it gets the native ``NineBallVectorEnv`` through Gymnasium's vector entry point (one batch
  simulation per step for all tables) instead of a ``SyncVectorEnv`` of copies.
* ``"nineball-selfplay"`` (``SELF_PLAY``): ``NineBallMultiAgentEnv``, both players as agents.

``env_config`` holds the keyword arguments of ``NineBallEnv`` (``noise``, ``match_race``,
``reward_shaping``, ...) or of ``NineBallAEC`` (``noise``, ``match_race``, ``max_decisions``, ...).
"""

from __future__ import annotations

from typing import Any, Mapping

import gymnasium as gym

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.tune.registry import register_env
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError('nineball_env.rllib needs RLlib: pip install "nineball[ray]"') from err

import nineball_env  # noqa: F401  (registers NineBall-v0 and its vector entry point)
from nineball_env.aec import AGENTS, NineBallAEC

SINGLE_AGENT = "nineball"
SELF_PLAY = "nineball-selfplay"


def single_agent_env(config: Mapping[str, Any] | None = None) -> gym.Env | gym.vector.VectorEnv:
    """RLlib's creator for ``"nineball"``: ``NineBall-v0``, or its native vector env when ``config`` has ``num_envs``."""
    kwargs = dict(config or {})
    num_envs = kwargs.pop("num_envs", None)
    if num_envs is None:
        return gym.make("NineBall-v0", **kwargs)
    return gym.make_vec("NineBall-v0", num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)


class NineBallMultiAgentEnv(MultiAgentEnv):
    """Two-player nine-ball for RLlib: ``player_0`` and ``player_1``, the rules (``NineBallAEC``) deciding who acts.

    Each step takes the action of the one player to move and returns the observation of the player to
    move next (the same player after a legal pot), from that player's point of view; when the rack or
    the match is decided (or ``max_decisions`` is reached) both players get their last observation and
    ``terminateds`` / ``truncateds`` are set for both and ``"__all__"``. Rewards: +1 / −1 to the winner /
    loser of each rack, to both players on the step that decides it (RLlib credits a player who did not
    act at its next observation). ``env_config``: the keyword arguments of ``NineBallAEC``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.game = NineBallAEC(**dict(config or {}))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: self.game.observation_space(a) for a in AGENTS}
        self.action_spaces = {a: self.game.action_space(a) for a in AGENTS}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.game.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        mover = self.game.agent_selection
        return {mover: self.game.observe(mover)}, {mover: self.game.infos[mover]}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        mover = self.game.agent_selection
        if set(action_dict) != {mover}:
            raise ValueError(f"action_dict: expected an action for {mover!r} only (the player to move), "
                             f"got keys {sorted(action_dict)}")
        self.game.step(action_dict[mover])  # ValueError for a bad action, nothing changed
        rewards = {a: float(self.game.rewards[a]) for a in AGENTS}
        terminated = all(self.game.terminations.values())
        truncated = not terminated and all(self.game.truncations.values())
        if terminated or truncated:
            observing = list(AGENTS)
            self.agents = []
        else:
            observing = [self.game.agent_selection]
        obs = {a: self.game.observe(a) for a in observing}
        infos = {a: self.game.infos[a] for a in observing}
        terminateds = {**{a: terminated for a in observing}, "__all__": terminated}
        truncateds = {**{a: truncated for a in observing}, "__all__": truncated}
        return obs, rewards, terminateds, truncateds, infos

    def render(self) -> Any:
        return self.game.render()

    def close(self) -> None:
        self.game.close()


def register() -> None:
    """Register ``"nineball"`` and ``"nineball-selfplay"`` with RLlib (``config.environment(SINGLE_AGENT)``)."""
    register_env(SINGLE_AGENT, single_agent_env)
    register_env(SELF_PLAY, lambda config: NineBallMultiAgentEnv(config))
