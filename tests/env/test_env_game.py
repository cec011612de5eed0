"""The Game: the physics → rules adapter, turns, snapshots, clones and matches."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from agents.shots.aim import direction_deg, ghost_ball
from nineball_env import actions, rules
from nineball_env.aiming import pocket_aims
from nineball_env.game import Game, GameConfig, GameSnapshot


def _game(seed=0, **kw):
    return Game(GameConfig(**kw), np.random.default_rng(seed), 0)


def test_a_new_game_is_a_tight_rack_with_the_cue_ball_in_the_breakers_hand():
    g = _game()
    assert g.to_move == 0 and str(g.rack.phase) == "break" and str(g.rack.ball_in_hand) == "kitchen"
    on = g.on_table()
    assert not on[0] and on[1:].all()
    physics.validate_state(g.balls, physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS)
    slots = physics.rack_positions()
    assert tuple(g.balls.pos[1]) == tuple(slots[0]) and tuple(g.balls.pos[9]) == tuple(slots[4])  # R-RACK


def test_racks_follow_the_seed():
    assert _game(1).balls == _game(1).balls
    assert any(_game(1).balls != _game(s).balls for s in range(2, 6))


def test_only_the_player_to_move_may_act_and_nothing_changes():
    g = _game()
    before = g.snapshot()
    with pytest.raises(ValueError, match="player 1 cannot act"):
        g.play(1, np.zeros(9))
    assert g.balls == before.balls and g.rack == before.rack


def test_clone_and_snapshot_replay_the_same_decision():
    g = _game(3)
    twin = g.clone()
    snap = g.snapshot()
    act = np.full(9, 0.4)
    first = g.play(0, act)
    assert twin.play(0, act).ruling == first.ruling and twin.balls == g.balls
    g.restore(snap)
    assert g.play(0, act).ruling == first.ruling


def test_match_racks_again_after_a_rack_ends():
    g = _game(race_to=2)
    rack = rules.RackState(0, 0, frozenset({9}), "normal", "anywhere", (0, 0))
    g.restore(GameSnapshot(physics.place_balls({9: (0.2, 2.2)}), rack, g.match, g.tables.rngs[0].bit_generator.state, None))
    # The cue ball in hand straight behind the 9 towards the foot-left corner pocket.
    target = pocket_aims()[4]
    spot = (0.3, 1.9)
    shot = physics.Shot(V0=3.0, phi=direction_deg(spot, ghost_ball(np.array([0.2, 2.2]), target)))
    out = g.play(0, actions.shot_to_action(shot, placement=spot), shot=shot)
    assert out.rack_winner == 0 and g.match.racks_won == (1, 0) and not g.over
    assert g.rack.breaker == 1 and g.to_move == 1 and str(g.rack.phase) == "break"  # alternate breaks (R-MATCH)
    assert g.on_table()[1:].all()


def test_config_validates():
    with pytest.raises(ValueError, match="race_to"):
        GameConfig(race_to=0)
    with pytest.raises(ValueError, match="break_order"):
        GameConfig(break_order="loser")
