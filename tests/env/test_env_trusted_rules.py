"""The env's trusted fast paths into the rules give exactly what the validating paths give.

``Game.apply`` converts the physics rows with ``rules.events._from_trusted_rows`` (no per-event
re-validation) and the engine derives the next ``RackState`` with ``RackState._derive`` (no
re-validation); on random physics shots both must agree with ``from_rows`` and with a freshly
validated ``RackState``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from nineball_env import actions, rules
from nineball_env.game import Game, GameConfig
from nineball_env.rules.events import _from_trusted_rows


def _fields(event: rules.ShotEvent) -> tuple:
    return tuple((f.name, type(getattr(event, f.name)), getattr(event, f.name)) for f in dataclasses.fields(event))


def test_trusted_rows_and_derived_states_match_the_validating_paths() -> None:
    rng = np.random.default_rng(2024)
    shots = 0
    for seed in range(60):
        game = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        while not game.over and shots < 300:
            rack = game.rack
            act = rng.uniform(-1.0, 1.0, actions.N_ACTION)
            decision = game.decode(act)
            if decision.shot is not None:
                start = game.balls.copy()
                if decision.placement is not None:
                    spot, _ = game._placement(decision.placement)
                    start.place(0, *spot)
                _, rows = game._simulate(start, decision.shot)
                trusted, checked = _from_trusted_rows(rows), rules.from_rows(rows)
                assert trusted == checked
                assert [_fields(e) for e in trusted] == [_fields(e) for e in checked]
                declaration = (rules.Declaration.PUSH_OUT if decision.push_out and rack.phase is rules.Phase.PUSH_OUT_ALLOWED
                               else rules.Declaration.SHOT)
                assert rules.decide(rack, trusted, declaration) == rules.decide(rack, checked, declaration)
                shots += 1
            outcome = game.apply(rack.shooter, decision)
            after = outcome.ruling.after
            assert outcome.ruling.before is rack
            revalidated = rules.RackState(**{f.name: getattr(after, f.name) for f in dataclasses.fields(after)})
            assert revalidated == after
            assert hash(revalidated) == hash(after)
    assert shots >= 200


def test_derived_state_is_an_independent_frozen_copy() -> None:
    state = rules.RackState.start(1)
    derived = state._derive(shooter=0, phase=rules.Phase.NORMAL, ball_in_hand=rules.BallInHand.ANYWHERE)
    assert state == rules.RackState.start(1)  # unchanged
    assert derived == rules.RackState(breaker=1, shooter=0, phase=rules.Phase.NORMAL,
                                      ball_in_hand=rules.BallInHand.ANYWHERE)
    try:
        derived.shooter = 1  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a derived RackState must stay frozen")
