"""``kernels.round.prepare_round`` decodes and perturbs exactly as ``actions`` and ``noise.perturb`` do."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from nineball_env import actions
from nineball_env.game import Game, GameConfig
from nineball_env.kernels.codes import BallInHandCode, DeclarationCode, PhaseCode, RackCol
from nineball_env.kernels.round import prepare_round
from nineball_env.noise import MIN_SPEED, TIP_LIMIT, NoiseConfig, perturb


@pytest.mark.parametrize("scale", [actions.DEFAULT_SCALE,
                                   actions.ActionScale(v_min=1.0, v_max=11.5, tip_max=0.63, theta_max=60.0)])
def test_prepare_round_matches_the_scalar_paths_bit_for_bit(scale) -> None:
    """Wide noise drives speeds, elevations and tips onto their limits; every row must equal
    ``perturb(action_to_shot(...))`` and every ball-in-hand spot ``action_to_placement``."""
    noise = NoiseConfig(phi=0.5, V0=0.6, theta=4.0, a=0.01, b=0.01)
    cfg = GameConfig()
    t, p = cfg.table, cfg.params
    game = Game(cfg, np.random.default_rng(0))
    n = 400
    rng = np.random.default_rng(1)
    balls = np.repeat(game.balls.packed()[None], n, axis=0)
    rack = np.repeat(game.rack.packed()[None], n, axis=0)
    rack[n // 2:, RackCol.PHASE], rack[n // 2:, RackCol.IN_HAND] = PhaseCode.NORMAL, BallInHandCode.ANYWHERE  # half ball in hand anywhere
    acts = rng.uniform(-1, 1, (n, actions.N_ACTION))
    acts[:20, [actions.A.SIDE, actions.A.VERTICAL]] = rng.choice([-1.0, 1.0], (20, 2))  # tips at the corner
    acts[20:40, [actions.A.SPEED, actions.A.ELEVATION]] = 1.0  # speed and elevation at the top of the scale
    seeds = rng.integers(2**31, size=n)
    errors = np.stack([np.random.default_rng(s).standard_normal(5) for s in seeds])
    out = [np.empty((n, 10, 9)), np.empty((n, 5)), np.empty(n, dtype=np.int64), np.empty(n, dtype=bool),
           np.empty(n, dtype=bool)]
    box = np.array([p.R, t.width - p.R, t.head_string_y, t.length - p.R, t.width, t.length])
    prepare_round(balls, rack, np.arange(n), acts, errors, True, np.array([noise.phi, noise.V0, noise.theta, noise.a,
                  noise.b]), p.R, np.array([scale.v_min, scale.v_max, scale.tip_max, scale.theta_max]),
                  np.array([MIN_SPEED, physics.shot.MAX_SPEED, physics.shot.MAX_ELEVATION, TIP_LIMIT]), box,
                  np.ascontiguousarray(t.pockets), *out)
    start, rows, declaration, placed, _ = out
    want = [perturb(actions.action_to_shot(a, scale), noise, np.random.default_rng(s), p) for a, s in zip(acts, seeds)]
    assert np.array_equal(rows, np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in want]))
    assert (declaration == DeclarationCode.SHOT).all() and placed.all()
    for i in range(n):
        box_name = "kitchen" if i < n // 2 else "anywhere"
        assert tuple(start[i, 0, 0:2]) == actions.action_to_placement(acts[i], box_name, t, p)
    tips = np.hypot(rows[:, 3], rows[:, 4])
    assert tips.max() == pytest.approx(TIP_LIMIT)  # the tip limit engaged
    if scale.v_max > 11.0:
        assert (rows[:, 0] == physics.shot.MAX_SPEED).any()  # and the speed limit
