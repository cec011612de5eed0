"""The env's fast paths into the rules give exactly what the validating paths give.

A game rules the physics log rows straight (``rules.decide_log``: no event objects, no
re-validation of what the physics guarantees) and unpacks the kernel's next ``RackState`` without
re-validating it. On random physics shots both must agree with the validating path
(``rules.from_rows`` + ``rules.decide``) and with a freshly validated ``RackState``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import physics
from nineball_env import actions, rules
from nineball_env.game import Game, GameConfig, complete_shot


def test_log_summaries_and_derived_states_match_the_validating_paths() -> None:
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
                _, rows = complete_shot(physics.simulate(start, outcome.shot), game.config)
                fast = rules.ShotFacts.of_log(rows).summary()
                checked = rules.summarize(rules.from_rows(rows[:, :5]), rack.on_table)
                assert fast == checked
                assert fast.first_contact_time is None or type(fast.first_contact_time) is float
                ruled = rules.decide(rack, rules.from_rows(rows[:, :5]), outcome.declaration)
                assert rules.decide_log(rack, rows, outcome.declaration) == ruled == outcome.ruling
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
    batch = rules.ShotFacts(3)
    batch.read(logs, counts, np.arange(3))
    for k in range(3):
        assert batch.summary(k) == rules.ShotFacts.of_log(logs[k, : counts[k]]).summary()
    assert batch.summary(0) == rules.ShotSummary(frozenset(), None, frozenset(), (), ())


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
