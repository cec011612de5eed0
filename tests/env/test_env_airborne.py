"""Balls driven off the table through the envs: the rules see the physics' BALL_OFF_TABLE (R-FOUL-JUMP), a
jumped object ball stays off, a jumped 9 is spotted (R-SPOT-9), in NineBall-v0, the AEC env and the vector env."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from envkit import MISS, R, TABLE, Scripted, position

import physics
from nineball_env import actions, observation, rules
from nineball_env.kernels.codes import RuleCode
from nineball_env.aec import NineBallAEC
from nineball_env.vector import NineBallVectorEnv

# A hard, slightly elevated shot (10°, the butt over a rail) at a ball 0.2 m off the foot cushion: the cue
# ball hops, meets the ball in the air above its equator and drives it down and on into the cushion, over it.
Y_OBJ = TABLE.length - R - 0.2
CUE = (0.6, Y_OBJ - 0.35)
HOP = physics.Shot(V0=7.0, phi=90.0, theta=10.0)
QUIET_NINE = (0.25, 1.0)


def _hop_action() -> np.ndarray:
    return actions.shot_to_action(HOP)


def test_the_shot_drives_the_object_ball_off_over_the_cushion_in_the_physics() -> None:
    """The premise of the env tests, in the physics alone: the cue ball stays, the object ball leaves."""
    for ball in (5, 9):
        r = physics.simulate(physics.place_balls({0: CUE, ball: (0.6, Y_OBJ)}), HOP)
        kinds = r.events.kind
        assert physics.EventKind.BALL_AIRBORNE in kinds
        off = r.events.of_kind(physics.EventKind.BALL_OFF_TABLE)
        assert [e.ball_a for e in off] == [ball] and not r.unresolved
        assert r.state.motion[ball] == physics.Motion.OFF_TABLE and r.state.motion[0] != physics.Motion.OFF_TABLE


def test_the_default_scale_reaches_jump_elevations_and_the_legacy_scale_keeps_0_to_30() -> None:
    top = np.ones(actions.N_ACTION)
    assert actions.action_to_shot(top).theta == pytest.approx(70.0)
    assert actions.action_to_shot(top, actions.LEGACY_SCALE).theta == pytest.approx(30.0)
    level = -np.ones(actions.N_ACTION)
    assert actions.action_to_shot(level).theta == actions.action_to_shot(level, actions.LEGACY_SCALE).theta == 0.0
    # a readable 10° shot decodes to 10° (float32 rounding) on either scale
    for scale in (actions.DEFAULT_SCALE, actions.LEGACY_SCALE):
        assert actions.action_to_shot(actions.shot_to_action(HOP, scale=scale), scale).theta == pytest.approx(10.0, abs=1e-5)


def test_nineball_v0_a_jumped_object_ball_is_a_foul_and_stays_off() -> None:
    env = gym.make("NineBall-v0", opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: CUE, 5: (0.6, Y_OBJ), 9: QUIET_NINE})
    obs, _, _, _, info = env.step(_hop_action())
    assert info["ruling"]["foul"] and "R-FOUL-JUMP" in info["ruling"]["fouls"]
    seen = observation.decode(env.unwrapped.opponent.seen[0])  # what the opponent saw after the shot
    assert not seen["on_table"][5] and seen["on_table"][9] and seen["in_hand"] == "anywhere"
    assert not observation.decode(obs)["on_table"][5]  # still off after the opponent's turn


def test_nineball_v0_a_jumped_nine_is_spotted() -> None:
    env = gym.make("NineBall-v0", opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: CUE, 9: (0.6, Y_OBJ)})
    _, _, terminated, _, info = env.step(_hop_action())
    assert "R-FOUL-JUMP" in info["ruling"]["fouls"] and not terminated
    seen = observation.decode(env.unwrapped.opponent.seen[0])
    assert seen["on_table"][9]
    assert tuple(seen["pos"][9]) == pytest.approx(TABLE.foot_spot, abs=1e-6)  # R-SPOT-9


def test_aec_a_jumped_nine_is_spotted_and_the_other_player_has_ball_in_hand() -> None:
    env = NineBallAEC(first_breaker="player_0")
    env.reset(seed=0)
    position(env, {0: CUE, 9: (0.6, Y_OBJ)})
    env.step(_hop_action())
    assert "R-FOUL-JUMP" in env.infos["player_0"]["ruling"]["fouls"]
    assert env.agent_selection == "player_1"
    seen = observation.decode(env.observe("player_1"))
    assert seen["on_table"][9] and tuple(seen["pos"][9]) == pytest.approx(TABLE.foot_spot, abs=1e-6)
    assert seen["in_hand"] == "anywhere"


def test_vector_env_tables_rule_the_jump_like_the_single_env() -> None:
    """Table 0 has the jumped 9, table 1 the jumped 5: both fouls, the 9 spotted, the 5 off."""
    venv = NineBallVectorEnv(2, opponent=Scripted([MISS]), first_breaker="learner")
    venv.reset(seed=0)
    layouts = ({0: CUE, 9: (0.6, Y_OBJ)}, {0: CUE, 5: (0.6, Y_OBJ), 9: QUIET_NINE})
    for k, balls in enumerate(layouts):
        on = frozenset(b for b in balls if b != 0)
        rack = rules.RackState(0, 0, on, rules.Phase("normal"), rules.BallInHand("none"), (0, 0))
        venv.tables.balls[k] = physics.place_balls(balls).packed()
        venv.tables.rack[k] = rack.packed()
    obs, _, terminated, _, infos = venv.step(np.stack([_hop_action()] * 2))
    assert not terminated.any()
    assert all("R-FOUL-JUMP" in venv.table_info(k)["ruling"]["fouls"] for k in range(2))
    assert all(infos["ruling"]["fouls"] & (1 << int(RuleCode.FOUL_JUMP)))
    nine = observation.decode(obs[0])
    five = observation.decode(obs[1])
    assert nine["on_table"][9] and tuple(nine["pos"][9]) == pytest.approx(TABLE.foot_spot, abs=1e-6)
    assert not five["on_table"][5] and five["on_table"][9]
