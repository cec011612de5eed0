"""The env's fast paths into the rules give exactly what the readable, validating paths give.

A game rules a round of physics logs in one batch and unpacks the kernel's next ``RackState`` without
re-validating it. On random physics shots its ruling must be ``rules.decide_log``'s on the shot's whole log,
and its states must equal freshly validated ``RackState``s.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import physics
from nineball_env import actions, rules
from nineball_env.game import Game, GameConfig, simulate_shot
from nineball_env.rules.facts import ShotFacts


def test_game_rulings_and_derived_states_match_the_validating_paths() -> None:
    rng = np.random.default_rng(2024)
    shots = 0
    for seed in range(60):
        game = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        while not game.over and shots < 300:
            rack, start = game.rack, game.balls
            outcome = game.play(rack.shooter, rng.uniform(-1.0, 1.0, actions.N_ACTION))
            if outcome.shot is not None:  # the shot again, from where it was played, to rest
                if outcome.placement is not None:
                    start.place(0, *outcome.placement)
                _, rows = simulate_shot(start, outcome.shot, game.config)
                assert rules.decide_log(rack, rows, outcome.declaration) == outcome.ruling
                shots += 1
            after = outcome.ruling.after
            assert outcome.ruling.before == rack
            revalidated = rules.RackState(**{f.name: getattr(after, f.name) for f in dataclasses.fields(after)})
            assert revalidated == after
            assert hash(revalidated) == hash(after)
    assert shots >= 200


def test_batch_summaries_match_one_by_one() -> None:
    rng = np.random.default_rng(7)
    logs = np.zeros((3, 40, 21))
    counts = np.array([0, 40, 17])
    for k in range(3):
        kinds = rng.choice([1, 2, 3, 4, 5, 7], size=40)
        logs[k, :, 0] = np.sort(rng.uniform(0, 3, 40))
        logs[k, :, 1] = kinds
        logs[k, :, 2] = rng.integers(0, 10, 40)
        logs[k, :, 3] = (logs[k, :, 2] + rng.integers(1, 10, 40)) % 10
    batch = ShotFacts(3)
    batch.read(logs, counts, np.arange(3))
    for k in range(3):
        one = ShotFacts(1)
        one.read(logs[k:k + 1, : counts[k]], counts[k:k + 1], np.zeros(1, dtype=np.int64))
        for name in ShotFacts.__slots__:
            assert np.array_equal(getattr(batch, name)[k], getattr(one, name)[0]), (k, name)
    assert batch.first_bits[0] == batch.cushion_bits[0] == batch.n_pocketed[0] == batch.n_off[0] == 0
    assert batch.first_time[0] < 0.0  # no first contact


def test_derived_state_is_an_independent_frozen_copy() -> None:
    state = rules.RackState.start(1)
    want = rules.RackState(breaker=1, shooter=0, phase=rules.Phase.NORMAL, ball_in_hand=rules.BallInHand.ANYWHERE)
    derived = state.unpack(want.packed())
    assert state == rules.RackState.start(1)  # unchanged
    assert derived == rules.RackState(breaker=1, shooter=0, phase=rules.Phase.NORMAL,
                                      ball_in_hand=rules.BallInHand.ANYWHERE)
    try:
        derived.shooter = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a derived RackState must stay frozen")
