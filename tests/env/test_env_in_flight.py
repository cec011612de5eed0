"""Shots a cap stops with a ball in the air (``physics.SimResult.in_flight``): the compiled turn replays them from
their start with the replay caps (``GameConfig.replay_caps``) and voids one still in the air then (no ruling, the
table as before it, the same shooter); a shot capped on the cloth is still continued past the caps."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from envkit import R, TABLE

import physics
from nineball_env import actions, rules
from nineball_env.game import Game, GameConfig, TableBatch, simulate_shot
from nineball_env.vector import step_infos
from physics.api import MAX_EVENTS_LIMIT

# The hop of test_env_airborne: the cue ball leaves the cloth at once and drives ball 5 off over the foot cushion
# (18 events); any event cap up to 11 stops it with a ball in the air.
Y_OBJ = TABLE.length - R - 0.2
LAYOUT = {0: (0.6, Y_OBJ - 0.35), 5: (0.6, Y_OBJ), 9: (0.25, 1.0)}
HOP = physics.Shot(V0=7.0, phi=90.0, theta=10.0)
# A flat shot into the 9 that ends on the cloth after some 20 events; a cap of 3 stops it rolling
FLAT = physics.Shot(V0=3.0, phi=75.0)
FLAT_LAYOUT = {0: (0.6, 1.0), 9: (0.8, 1.6)}


def _game(config: GameConfig, layout: dict[int, tuple[float, float]]) -> Game:
    game = Game(config, np.random.default_rng(0))
    snap = game.snapshot()
    rack = rules.RackState(shooter=0, phase=rules.Phase.NORMAL, on_table=frozenset(b for b in layout if b),
                           ball_in_hand=rules.BallInHand.NONE, breaker=0)
    game.restore(dataclasses.replace(snap, balls=physics.place_balls(layout), rack=rack))
    return game


def _play(config: GameConfig, layout: dict[int, tuple[float, float]], shot: physics.Shot):
    game = _game(config, layout)
    before = (game.balls.packed(), game.rack, game.match)
    outcome = game.play(0, actions.shot_to_action(shot), shot=shot)
    return game, before, outcome


def test_the_premise_a_small_event_cap_stops_the_hop_in_the_air() -> None:
    start = physics.place_balls(LAYOUT)
    assert not physics.simulate(start, HOP).in_flight
    capped = physics.simulate(start, HOP, max_events=5)
    assert capped.in_flight and capped.hit_event_cap
    flat = physics.simulate(physics.place_balls(FLAT_LAYOUT), FLAT, max_events=3)
    assert flat.hit_event_cap and not flat.in_flight and not flat.state.at_rest()


def test_a_shot_capped_in_the_air_is_replayed_with_the_replay_caps_and_ruled_as_the_uncapped_shot() -> None:
    full_game, _, full = _play(GameConfig(), LAYOUT, HOP)
    game, _, outcome = _play(GameConfig(max_events=5), LAYOUT, HOP)
    assert outcome.replayed and not outcome.voided and not full.replayed
    assert outcome.n_events == full.n_events == 18
    assert outcome.ruling == full.ruling and "R-FOUL-JUMP" in outcome.ruling.fouls and outcome.off_table == (5,)
    np.testing.assert_array_equal(game.balls.packed(), full_game.balls.packed())
    assert game.rack == full_game.rack and game.to_move == 1
    # the Python replay of the record (Outcome.result) plays it the same way
    assert not outcome.result.in_flight and len(outcome.result.events) == 18
    np.testing.assert_array_equal(outcome.result.events.rows, full.result.events.rows)


def test_a_shot_still_in_the_air_at_the_replay_caps_is_void_and_changes_nothing_else() -> None:
    config = GameConfig(max_events=5, replay_max_events=8)
    game, (balls, rack, match), outcome = _play(config, LAYOUT, HOP)
    assert outcome.replayed and outcome.voided and outcome.n_events == 8
    assert outcome.fouls == () and outcome.pocketed == () and outcome.off_table == () and not outcome.foul
    assert outcome.before == outcome.after == rack.packed().tolist()
    assert outcome.text() == "void: a ball was still in the air at the replay caps, no ruling"
    np.testing.assert_array_equal(game.balls.packed(), balls)
    assert game.rack == rack and game.match == match and game.to_move == 0 and not game.over
    assert outcome.result.in_flight  # the Python replay agrees: still in the air
    # the same player plays again from the same table, and the shot counts when it lands in time
    again = game.play(0, actions.shot_to_action(FLAT), shot=physics.Shot(V0=1.0, phi=0.0))
    assert not again.voided and not again.replayed


def test_a_void_shot_from_hand_leaves_the_cue_ball_in_hand() -> None:
    config = GameConfig(max_events=5, replay_max_events=5)
    game = _game(config, {b: p for b, p in LAYOUT.items() if b})
    snap = game.snapshot()
    game.restore(dataclasses.replace(snap, rack=dataclasses.replace(snap.rack, ball_in_hand=rules.BallInHand.ANYWHERE)))
    balls, rack = game.balls.packed(), game.rack
    act = actions.shot_to_action(HOP, placement=LAYOUT[0], table=TABLE)
    outcome = game.play(0, act, shot=HOP)
    assert outcome.voided and outcome.placement == pytest.approx(LAYOUT[0])
    np.testing.assert_array_equal(game.balls.packed(), balls)
    assert game.rack == rack and game.rack.ball_in_hand is rules.BallInHand.ANYWHERE


def test_the_vector_infos_and_a_batch_of_tables_say_which_shot_was_void() -> None:
    config = GameConfig(max_events=5, replay_max_events=8)
    tables = TableBatch(config, [np.random.default_rng(k) for k in range(3)], breakers=[0, 0, 0])
    rack = rules.RackState(shooter=0, phase=rules.Phase.NORMAL, on_table=frozenset({5, 9}),
                            ball_in_hand=rules.BallInHand.NONE, breaker=0).packed()
    for k, layout in enumerate((LAYOUT, FLAT_LAYOUT | {5: (0.3, 0.5)}, LAYOUT)):
        tables.balls[k] = physics.place_balls(layout).packed()
        tables.rack[k] = rack
    shots = [HOP, FLAT, physics.Shot(V0=1.0, phi=0.0)]
    ks = np.arange(3)
    acts = np.stack([actions.shot_to_action(s) for s in shots])
    rows = np.array([[s.V0, s.phi, s.theta, s.a, s.b] for s in shots])
    outcomes = tables.play(ks, 0, acts, shots=rows)
    assert [o.voided for o in outcomes] == [True, False, False]
    infos = step_infos(tables, ks, np.ones(3, dtype=np.bool_))
    assert infos["voided"].tolist() == [True, False, False] and infos["_voided"].all()


def test_a_shot_capped_on_the_cloth_is_still_continued_past_the_caps() -> None:
    game, _, outcome = _play(GameConfig(max_events=3, replay_max_events=3), FLAT_LAYOUT, FLAT)
    assert not outcome.replayed and not outcome.voided and outcome.n_events == 3
    result, rows = simulate_shot(physics.place_balls(FLAT_LAYOUT), FLAT, game.config)
    assert result.state.at_rest() and len(rows) > 3
    np.testing.assert_array_equal(game.balls.packed(), result.state.packed())


@pytest.mark.parametrize("kwargs, message", [
    ({"max_events": 100, "replay_max_events": 99}, "replay_max_events"),
    ({"replay_max_events": MAX_EVENTS_LIMIT + 1}, "replay_max_events"),
    ({"replay_max_events": 5000.0}, "replay_max_events"),
    ({"max_time": 10.0, "replay_max_time": 9.0}, "replay_max_time"),
    ({"replay_max_time": float("inf")}, "replay_max_time"),
    ({"max_events": 0}, "max_events"),
])
def test_bad_caps_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameConfig(**kwargs)
