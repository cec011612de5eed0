"""Every phase of a rack through the env, with the action semantics each one has."""

from __future__ import annotations

import numpy as np
import pytest
from envkit import FOOT_LEFT, MISS, R, TABLE, W, Scripted, act, on_line, pot_action, position

from agents.shots.aim import direction_deg
from nineball_env import actions, observation
from nineball_env.aiming import AimingPolicy, pocket_aims
from nineball_env.env import NineBallEnv

OBJ = {1: (0.3, 1.6), 9: (0.9, 2.0)}  # a quiet layout: the 1 and the 9


def _obs(env):
    return observation.decode(env._game.observe(0))


def test_break_places_the_cue_ball_in_the_kitchen():
    env = NineBallEnv(opponent=Scripted([MISS]), first_breaker="learner")
    obs, _ = env.reset(seed=0)
    assert observation.decode(obs)["phase"] == "break" and observation.decode(obs)["in_hand"] == "kitchen"
    a = np.zeros(9, dtype=np.float32)
    a[actions.A.AIM], a[actions.A.SPEED] = 0.5, 0.6  # straight up the table, hard
    a[actions.A.ELEVATION] = -1.0  # a level cue (u = 0 is 15°: at 8 m/s the cue ball would jump the rack)
    a[actions.A.PLACE_X], a[actions.A.PLACE_Y] = 0.0, 1.0  # PLACE_Y = +1 is the head string on the break
    _, _, _, _, info = env.step(a)
    assert info["placement"] == pytest.approx((W / 2, TABLE.head_string_y))
    assert info["ruling"]["declaration"] == "shot" and info["n_events"] > 10
    assert any(c.startswith("R-BREAK") for c in info["ruling"]["cited"] + info["ruling"]["fouls"])
    # The same PLACE_Y anywhere on the table would be the foot rail: the mapping follows the phase.
    assert actions.action_to_placement(a, "anywhere")[1] == pytest.approx(TABLE.length - R)


def test_push_out_declared_and_passed_back():
    """The learner pushes out (R-PUSH-FREE: no contact needed); the opponent passes it back; the learner shoots."""
    opp = Scripted([actions.choice_action(pass_back=True)])
    env = NineBallEnv(opponent=opp, first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), **OBJ}, phase="push-out-allowed")
    assert _obs(env)["phase"] == "push-out-allowed"
    _, r, _, _, info = env.step(act(0.0, 0.6, push_out=True))  # a soft roll that touches nothing
    assert info["ruling"]["declaration"] == "push-out" and not info["ruling"]["foul"]
    assert observation.decode(opp.seen[0])["phase"] == "push-out-choice"
    assert info["opponent"]["rulings"][0].startswith("pass-back")
    d = _obs(env)
    assert d["phase"] == "normal" and d["to_move"] and d["in_hand"] == "none" and r == 0.0


def test_push_out_declared_and_taken():
    """After the learner's push-out the opponent chooses to shoot (the default policy always does)."""
    env = NineBallEnv(first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), **OBJ}, phase="push-out-allowed")
    _, _, _, _, info = env.step(act(0.0, 0.6, push_out=True))
    assert info["opponent"]["rulings"][0].startswith("shoot")
    assert info["opponent"]["decisions"] >= 2  # the choice, then its shot(s)


def test_push_out_flag_is_ignored_when_no_push_out_is_allowed():
    env = NineBallEnv(opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), **OBJ})
    _, _, _, _, info = env.step(act(0.0, 0.6, push_out=True))
    assert info["ruling"]["declaration"] == "shot" and "R-FOUL-WRONG-BALL" in info["ruling"]["fouls"]


@pytest.mark.parametrize("pass_back", [False, True])
def test_learner_choice_after_the_opponents_push_out(pass_back):
    opp = Scripted([MISS])
    env = NineBallEnv(opponent=opp, first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), **OBJ}, phase="push-out-choice")
    assert _obs(env)["phase"] == "push-out-choice"
    choice = actions.choice_action(pass_back=pass_back)
    choice[actions.A.SPEED] = 1.0  # shot components are ignored on a choice
    _, _, _, _, info = env.step(choice)
    assert info["ruling"]["declaration"] == ("pass-back" if pass_back else "shoot") and info["n_events"] == 0
    if pass_back:  # the pusher must shoot: the opponent's (foul) shot follows, the learner gets ball in hand
        assert info["opponent"]["decisions"] == 1 and _obs(env)["in_hand"] == "anywhere"
    else:  # the learner plays on from the position left
        assert info["opponent"]["decisions"] == 0 and _obs(env)["phase"] == "normal" and _obs(env)["to_move"]


def test_a_natural_break_then_a_push_out_and_the_opponents_choice():
    """The default hard break pockets a ball, so the breaker may push out (R-PUSH-WHO); the opponent then chooses."""
    opp = Scripted([actions.choice_action(pass_back=False), MISS])
    env = NineBallEnv(opponent=opp, first_breaker="learner")
    obs, _ = env.reset(seed=0)
    _, _, term, _, info = env.step(AimingPolicy().act(obs))
    assert not term and info["ruling"]["cited"] == ("R-BREAK-CONTINUE",) and info["pocketed"]
    assert _obs(env)["phase"] == "push-out-allowed" and _obs(env)["to_move"]
    _, _, _, _, info = env.step(act(0.0, 0.4, push_out=True))
    assert info["ruling"]["declaration"] == "push-out"
    assert observation.decode(opp.seen[0])["phase"] == "push-out-choice"
    assert info["opponent"]["rulings"][0].startswith("shoot")


def test_ball_in_hand_anywhere_after_a_foul():
    env = NineBallEnv(opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), **OBJ})
    _, _, _, _, info = env.step(act(0.0, 0.6))  # learner fouls: no contact
    assert info["ruling"]["foul"] and info["opponent"]["fouls"] == 1  # then the opponent fouls
    d = _obs(env)
    assert d["in_hand"] == "anywhere" and not d["on_table"][0]
    side = 2  # the left side pocket: a straight pot of the 1 that touches no rail
    aim, one = np.asarray(pocket_aims(TABLE)[side]), np.asarray(OBJ[1])
    spot = tuple(float(c) for c in one - 0.3 * (aim - one) / np.linalg.norm(aim - one))  # past the head string
    _, _, _, _, info = env.step(pot_action(spot, OBJ[1], pocket=side, placement=spot))
    assert info["placement"] == pytest.approx(spot) and not info["placement_adjusted"]
    assert info["pocketed"] == (1,) and not info["ruling"]["foul"]


def test_three_fouls_lose_the_rack_with_the_warning_seen():
    env = NineBallEnv(opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.3, 0.3), **OBJ})
    rewards, warnings = [], []
    for _ in range(3):
        obs, r, term, _, info = env.step(MISS)
        rewards.append(r)
        warnings.append(observation.decode(obs)["warning"])
    assert rewards == [0.0, 0.0, -1.0] and term
    assert warnings[1] == (True, True)  # both stand on two fouls (R-WARNING)
    assert "R-THREE-FOULS" in info["ruling"]["cited"] and info["racks"] == ("opponent",)


def test_nine_on_a_legal_break_wins():
    cue = (1.2, 0.3)  # the 9 drops straight, touching no rail or jaw
    nine = on_line(tuple(pocket_aims(TABLE)[FOOT_LEFT]), cue, 0.25)
    one = on_line(nine, cue, 2 * R + 1e-4)
    rest = {b: (1.1, 0.9 + 0.1 * b) for b in range(2, 9)}
    env = NineBallEnv(first_breaker="learner")
    env.reset(seed=0)
    position(env, {1: one, 9: nine, **rest}, phase="break")
    _, r, term, _, info = env.step(act(direction_deg(cue, one), 6.0, placement=cue, bih="kitchen"))
    assert 9 in info["pocketed"] and set(info["ruling"]["cited"]) >= {"R-BREAK-9", "R-WIN-9"}
    assert r == 1.0 and term


def test_nine_on_a_foul_break_is_spotted():
    """The cue ball hits the 9 first (R-BREAK-FIRST): the foul stands and the 9 returns to the foot spot."""
    cue = (1.2, 0.3)
    nine = on_line(tuple(pocket_aims(TABLE)[FOOT_LEFT]), cue, 0.25)
    env = NineBallEnv(opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {1: (1.1, 1.0), 9: nine}, phase="break")
    _, r, term, _, info = env.step(act(direction_deg(cue, nine), 6.0, placement=cue, bih="kitchen"))
    assert 9 in info["pocketed"] and "R-BREAK-FIRST" in info["ruling"]["fouls"]
    assert "R-SPOT-9" in info["ruling"]["cited"] and not term and r == 0.0
    assert env._game.balls.on_table()[9]
    assert tuple(env._game.balls.pos[9]) == pytest.approx(TABLE.foot_spot)
