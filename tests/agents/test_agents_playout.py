"""``agents.shots.playout``: candidate shots played and ruled as the game plays and rules them, position features, bad
input."""

import numpy as np
import pytest

import physics
from agents.protocol import TableView
from agents.shots import playout_kernels as PK
from agents.shots.leaves import shot_rack
from agents.shots.playout import REJECTED, SHOT, Playout
from nineball_env import actions
from nineball_env.game import Game, GameConfig
from nineball_env.kernels.codes import RackCol as C
from nineball_env.noise import make_noise
from nineball_env.rules import RackState

SILENT = make_noise("none")


def _game_after_break(seed: int) -> Game:
    game = Game(GameConfig(), np.random.default_rng(seed), 0, SILENT)
    t = game.config.table
    spot = (t.width / 2.0, t.head_string_y - 0.1)
    one = game.balls.pos[1]
    phi = float(np.degrees(np.arctan2(one[1] - spot[1], one[0] - spot[0])))
    game.play(0, actions.shot_to_action(physics.Shot(V0=9.0, phi=phi), placement=spot, ball_in_hand="kitchen"))
    return game


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_play_rules_and_rests_the_balls_as_the_game_does(seed):
    """The break, then an ordinary shot: the rack row after and the balls at rest equal the game's (no noise)."""
    game = Game(GameConfig(), np.random.default_rng(seed), 0, SILENT)
    t, p = game.config.table, game.config.params
    pool = Playout(t, p, SILENT)
    wanted = (t.width / 2.0 + 0.05 * seed, t.head_string_y - 0.1)
    one = game.balls.pos[1]
    act = actions.shot_to_action(physics.Shot(V0=9.0, phi=float(np.degrees(np.arctan2(one[1] - wanted[1],
                                                                                        one[0] - wanted[0])))),
                                 placement=wanted, ball_in_hand="kitchen")
    spot = actions.action_to_placement(act, "kitchen", t, p)  # what the game plays: the action, decoded
    start = game.balls.copy()
    start.place(0, *spot)
    states, after = pool.play(start.packed()[None], game.rack.packed()[None], [0], [_row(act)], SHOT, 2000)
    game.play(0, act)
    _same_as_game(game, states[0], after[0])
    if game.over or game.rack.ball_in_hand != "none":
        return
    view = TableView.from_game(game, SILENT)
    d = view.balls.pos[view.rack.lowest] - view.balls.pos[0]
    act = actions.shot_to_action(physics.Shot(V0=2.5, phi=float(np.degrees(np.arctan2(d[1], d[0]))), b=-0.2))
    states, after = pool.play(view.balls.packed()[None], game.rack.packed()[None], [0], [_row(act)])
    game.play(view.player, act)
    _same_as_game(game, states[0], after[0])


def _row(act: np.ndarray) -> list[float]:
    shot = actions.action_to_shot(act)
    return [shot.V0, shot.phi, shot.theta, shot.a, shot.b]


def _same_as_game(game: Game, state: np.ndarray, after: np.ndarray) -> None:
    rack = game.rack
    if rack.winner is not None:
        assert after[C.WINNER] == rack.winner
        return
    assert after[C.SHOOTER] == rack.shooter
    assert after[C.ON_BITS] == rack.packed()[C.ON_BITS]
    assert after[C.IN_HAND] == rack.packed()[C.IN_HAND] and after[C.PHASE] == rack.packed()[C.PHASE]
    on = game.on_table()
    mine = state[:, 7] <= PK.ROLLING
    np.testing.assert_array_equal(mine[1:], on[1:])
    np.testing.assert_allclose(state[on, :2], game.balls.pos[on], atol=1e-9)


def test_a_layout_the_physics_rejects_is_marked_and_left_as_it_was():
    balls = physics.place_balls({0: (0.6, 1.0), 1: (0.6, 1.5), 9: (0.9, 2.0)})
    packed = balls.packed()
    packed[1, :2] = packed[0, :2] + [0.01, 0.0]  # two balls in one place
    rack = RackState(breaker=0, shooter=0, on_table=frozenset({1, 9}), phase="normal", ball_in_hand="none").packed()
    states, after = Playout().play(packed[None], rack[None], [0], [[2.0, 90.0, 0.0, 0.0, 0.0]])
    assert after[0, C.SHOOTER] == REJECTED
    np.testing.assert_array_equal(states[0], packed)


def _mirror(state: np.ndarray, table) -> np.ndarray:
    out = state.copy()
    out[:, 0] = table.spec.width - out[:, 0]
    out[:, 1] = table.spec.length - out[:, 1]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_features_see_the_table_the_same_way_mirrored(seed):
    """The table is symmetric across both axes: mirrored positions have mirrored coordinates and equal ratings."""
    game = _game_after_break(seed)
    assert not game.over  # (the 9 does not fall on these breaks)
    pool = Playout(noise=make_noise("icga"))
    t = game.config.table
    state, rack = game.balls.packed(), game.rack.packed()
    f, g = pool.features(np.stack([state, _mirror(state, t)]), np.stack([rack, rack]))
    coords = [PK.F_CUE_X, PK.F_CUE_Y] + [PK.F_SLOT0 + 4 * s + k for s in range(PK.SLOTS) for k in (1, 2)]
    present = [PK.F_SLOT0 + 4 * s for s in range(PK.SLOTS)]
    rest = [i for i in range(PK.N_FEATURES) if i not in coords]
    np.testing.assert_allclose(g[rest], f[rest], atol=1e-9)
    assert f[present].sum() >= 2
    for s in [s for s in range(PK.SLOTS) if f[present[s]]]:
        c = PK.F_SLOT0 + 4 * s
        np.testing.assert_allclose([g[c + 1], g[c + 2]], [1.0 - f[c + 1], 1.0 - f[c + 2]], atol=1e-9)
    np.testing.assert_allclose([g[PK.F_CUE_X], g[PK.F_CUE_Y]], [1.0 - f[PK.F_CUE_X], 1.0 - f[PK.F_CUE_Y]], atol=1e-9)


def test_features_order_the_balls_and_read_the_rack():
    balls = physics.place_balls({0: (0.6, 1.0), 3: (0.5, 1.6), 7: (0.3, 2.0), 9: (0.9, 2.2)})
    rack = RackState(breaker=0, shooter=1, on_table=frozenset({3, 7, 9}), phase="normal", ball_in_hand="anywhere",
                     foul_counts=(2, 1))
    f = Playout().features(balls.packed()[None], rack.packed()[None])[0]
    t = physics.DEFAULT_TABLE
    assert f[PK.F_IN_HAND] == 1.0 and f[PK.F_CUE_X] == 0.0 and f[PK.F_CUE_Y] == 0.0  # in hand: no cue ball
    assert f[PK.F_MY1] == 1.0 and f[PK.F_MY2] == 0.0  # player 1 to act has one foul
    assert f[PK.F_OPP2] == 1.0 and f[PK.F_OPP1] == 0.0
    assert f[PK.F_LEFT] == pytest.approx(3 / 9)
    firsts = [tuple(f[PK.F_SLOT0 + 4 * s: PK.F_SLOT0 + 4 * s + 4]) for s in range(4)]
    assert firsts[0] == pytest.approx((1.0, 0.5 / t.spec.width, 1.6 / t.spec.length, 0.0))  # the 3, the lowest
    assert firsts[1][1] == pytest.approx(0.3 / t.spec.width)  # the 7
    assert firsts[2][3] == 1.0 and firsts[3] == (0.0, 0.0, 0.0, 0.0)  # then the 9, then nothing
    assert f[PK.F_EASE] == 0.0  # no cue ball: no shot from it
    over = rack.packed().copy()
    over[C.SHOOTER] = -1
    assert not Playout().features(balls.packed()[None], over[None]).any()


def test_bad_input_names_the_argument():
    pool = Playout()
    balls = physics.place_balls({0: (0.6, 1.0), 1: (0.5, 1.6), 9: (0.9, 2.0)}).packed()
    rack = RackState(breaker=0, shooter=0, on_table=frozenset({1, 9}), phase="normal", ball_in_hand="none").packed()
    with pytest.raises(ValueError, match="which"):
        pool.play(balls[None], rack[None], [1], [[1.0, 0.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="which"):
        pool.play(balls[None], rack[None], [0, 0], [[1.0, 0.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="shots"):
        pool.play(balls[None], rack[None], [0], [[np.nan, 0.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="starts, racks"):
        pool.play(balls, rack[None], [0], [[1.0, 0.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="states, racks"):
        pool.features(balls[None], rack[None, :5])


def test_shot_rack_of_a_view_plays_an_ordinary_shot():
    view = TableView(physics.place_balls({0: (0.6, 1.0), 1: (0.6, 1.5), 9: (0.9, 2.0)}),
                     RackState(breaker=0, shooter=0, on_table=frozenset({1, 9}), phase="normal",
                               ball_in_hand="none"), 0)
    states, after = Playout().play(view.balls.packed()[None], shot_rack(view)[None], [0],
                                   [[1.0, 90.0, 0.0, 0.0, 0.0]])
    assert after[0, C.SHOOTER] in (0, 1) and states.shape == (1, 10, 9)
