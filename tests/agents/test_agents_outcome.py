"""The search's fast shot reading agrees with the rules engine on every shot (random layouts and cue strikes)."""

import numpy as np
import pytest

import physics
from agents.outcome import classify
from nineball_env import rules
from nineball_env.rules import Declaration, RackState


def _random_layout(rng, n_objects):
    balls = [0, *sorted(rng.choice(np.arange(1, 10), n_objects, replace=False).tolist())]
    if 9 not in balls:
        balls[-1] = 9
    positions = {}
    while len(positions) < len(balls):
        b = balls[len(positions)]
        xy = rng.uniform([0.05, 0.05], [1.22, 2.49])
        if all(np.hypot(*(xy - np.array(p))) > 0.06 for p in positions.values()):
            positions[b] = tuple(xy)
    return physics.place_balls(positions), sorted(b for b in positions if b)


@pytest.mark.parametrize("push_out", [False, True])
def test_classify_matches_rules(push_out):
    rng = np.random.default_rng(7 + push_out)
    checked = 0
    for _ in range(150):
        state, objects = _random_layout(rng, int(rng.integers(1, 9)))
        aim_at = state.pos[objects[int(rng.integers(len(objects)))]]
        phi = float(np.degrees(np.arctan2(*(aim_at - state.pos[0])[::-1])) + rng.normal(0, 4))
        shot = physics.Shot(float(rng.uniform(0.5, 7)), phi, 0.0, float(rng.uniform(-0.3, 0.3)),
                            float(rng.uniform(-0.4, 0.4)))
        result = physics.simulate(state, shot)
        if not result.state.at_rest():
            continue
        phase = "push-out-allowed" if push_out else "normal"
        rack = RackState(breaker=0, shooter=0, on_table=frozenset(objects), phase=phase, ball_in_hand="none")
        declaration = Declaration.PUSH_OUT if push_out else Declaration.SHOT
        ruling = rules.decide(rack, rules.from_rows(result.events.rows[:, :5]), declaration)
        out = classify(result, min(objects), push_out=push_out)
        assert out.foul == ruling.foul, ruling.describe()
        assert out.potted == sum(1 for b in ruling.pocketed if b != 0)
        assert out.nine == (9 in ruling.pocketed)
        if not push_out:
            assert (out.legal_pot and not out.nine) == (not ruling.foul and ruling.after.shooter == 0)
        checked += 1
    assert checked > 100
