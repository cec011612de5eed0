"""Evaluation during training: every ``every`` learner steps, a fixed-seed match of the current policy against
GhostBall (and, every ``search_every``-th time, against Search), logged to TensorBoard with its Wilson interval.

The policy is exported to numpy first (``agents.learned.numpy_policy``), so the match plays exactly what a shipped
``learned`` agent would, with no torch call per decision. Logged: ``eval/<opponent>_rack_rate`` and its
``_lo`` / ``_hi`` 95 % bounds (share of racks the learner won), at the step the evaluation ran.
"""

from __future__ import annotations

from typing import Any

from agents.arena.match import MatchConfig
from agents.arena.series import run_series
from agents.arena.stats import Rate, wilson
from agents.learned.agent import LearnedAgent
from agents.learned.numpy_policy import export_sb3
from agents.registry import make_agent
from nineball_env.noise import make_noise


def rack_rate(policy: Any, opponent_spec: str, matches: int, race_to: int, seed: int, noise: str = "icga") -> Rate:
    """The share of racks ``policy`` (a NumpyPolicy) wins in ``matches`` races to ``race_to`` against an opponent."""
    learner = LearnedAgent(policy)
    learner.name = "learner"
    result = run_series("learner", opponent_spec, matches, MatchConfig(race_to=race_to, noise=make_noise(noise)), seed=seed,
                        jobs=1, progress=False, agents=(learner, make_agent(opponent_spec)))
    tally = result.tally(0)
    return wilson(tally.racks_won, tally.racks)


def eval_callback(every: int, matches: int, race_to: int, seed: int, search_every: int = 0, noise: str = "icga") -> Any:
    """The SB3 callback (see the module docstring); ``search_every`` = 0 never plays Search."""
    from stable_baselines3.common.callbacks import BaseCallback

    if every < 1 or matches < 1:
        raise ValueError(f"every, matches: expected whole numbers >= 1, got {every!r}, {matches!r}")

    class EvalCallback(BaseCallback):
        def _init_callback(self) -> None:
            self.next_at, self.evals = every, 0

        def _on_step(self) -> bool:
            if self.num_timesteps < self.next_at:
                return True
            self.next_at += every
            self.evals += 1
            policy = export_sb3(self.model)
            opponents = ["ghost"] + (["search"] if search_every and self.evals % search_every == 0 else [])
            for spec in opponents:
                rate = rack_rate(policy, spec, matches, race_to, seed, noise)
                for key, value in (("rack_rate", rate.p), ("rack_rate_lo", rate.lo), ("rack_rate_hi", rate.hi)):
                    self.logger.record(f"eval/{spec}_{key}", value)
            self.logger.dump(self.num_timesteps)
            return True

    return EvalCallback()
