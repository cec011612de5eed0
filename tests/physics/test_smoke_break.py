"""Smoke: a break runs to rest without caps and leaves a valid layout."""

import numpy as np

import physics


def test_break_runs_to_rest():
    state = physics.nine_ball_rack(np.random.default_rng(0))
    result = physics.simulate(state, physics.Shot(V0=8.0, phi=90.0))
    assert not result.hit_event_cap and not result.hit_time_cap
    assert result.state.at_rest()
    physics.validate_state(result.state, physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS)
