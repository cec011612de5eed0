"""The default action range grew to 0–70° of elevation (jump shots); the macro planner, and so the shipped
``learned`` agent, must still play the same physical shots: they shoot with a level cue, u = −1 on any range."""

from __future__ import annotations

import numpy as np

from agents.learned.macro import MACRO_DIM, MacroPlanner
from nineball_env import actions
from nineball_env.env import NineBallEnv


def test_macro_actions_decode_to_the_same_shots_on_the_default_and_the_legacy_scale() -> None:
    env = NineBallEnv(first_breaker="learner")
    new, old = MacroPlanner(scale=actions.DEFAULT_SCALE), MacroPlanner(scale=actions.LEGACY_SCALE)
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=5)
    compared = 0
    for _ in range(12):
        for _ in range(4):
            macro = rng.uniform(-1.0, 1.0, MACRO_DIM)
            a_new, a_old = new.action(obs, macro), old.action(obs, macro)
            s_new, s_old = actions.action_to_shot(a_new), actions.action_to_shot(a_old, actions.LEGACY_SCALE)
            assert s_new == s_old and s_new.theta == 0.0
            compared += 1
        obs, _, terminated, truncated, _ = env.step(new.action(obs, rng.uniform(-1.0, 1.0, MACRO_DIM)))
        if terminated or truncated:
            obs, _ = env.reset()
    assert compared == 48
