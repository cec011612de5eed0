"""Game.prepare / Game.finish: the two halves of Game.apply (the vector env simulates in between, in a batch)."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from nineball_env import actions
from nineball_env.game import Game, GameConfig


def test_prepare_changes_nothing_and_finish_equals_apply() -> None:
    rng = np.random.default_rng(5)
    decisions = 0
    for seed in range(20):
        a = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        b = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        while not a.over and decisions < 200:
            decision = a.decode(rng.uniform(-1.0, 1.0, actions.N_ACTION))
            before = b.snapshot()
            prepared = b.prepare(b.rack.shooter, decision)
            assert b.balls == before.balls and b.rack is before.rack and b.rng.bit_generator.state == before.rng_state
            result = None
            if prepared.shot is not None:
                cfg = b.config
                result = physics.simulate(prepared.start, prepared.shot, cfg.table, cfg.params,
                                          max_events=cfg.max_events, max_time=cfg.max_time)
            mine = b.finish(prepared, result)
            ref = a.apply(a.rack.shooter, decision)
            assert mine.ruling == ref.ruling and mine.placement == ref.placement and mine.n_events == ref.n_events
            assert a.balls == b.balls and a.rack == b.rack and a.match == b.match
            decisions += 1
    assert decisions >= 80


def test_finish_refuses_a_stale_or_mismatched_preparation() -> None:
    g = Game(GameConfig(), np.random.default_rng(0), first_breaker=0)
    decision = g.decode(np.zeros(actions.N_ACTION))
    prepared = g.prepare(0, decision)
    with pytest.raises(ValueError):
        g.finish(prepared, None)  # a shot needs its simulation
    g.apply(0, decision)
    with pytest.raises(ValueError):
        g.finish(prepared, None)  # the game moved on
    with pytest.raises(ValueError):
        g.prepare(1 - g.rack.shooter, decision)  # not that player's turn
