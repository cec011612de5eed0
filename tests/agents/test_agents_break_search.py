"""SearchAgent's break: Monte-Carlo over cue spots, speeds and draw; legal from the kitchen, seeded."""

import numpy as np

from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import TableView
from nineball_env.game import Game, GameConfig
from nineball_env.noise import make_noise


def _break_view(seed=0):
    game = Game(GameConfig(), np.random.default_rng(seed))
    return TableView.from_game(game, make_noise("icga"))


def test_searched_break_starts_in_the_kitchen_and_is_reproducible():
    view = _break_view()
    spot1, shot1 = SearchAgent(SearchConfig(break_samples=2), seed=1).break_shot(view)
    spot2, shot2 = SearchAgent(SearchConfig(break_samples=2), seed=1).break_shot(view)
    assert (spot1, shot1) == (spot2, shot2)
    assert view.table.in_kitchen(*spot1)
    assert shot1.V0 >= 9.0


def test_break_samples_zero_keeps_the_fixed_centre_break():
    view = _break_view()
    spot, shot = SearchAgent(SearchConfig(break_samples=0, break_speed=8.0)).break_shot(view)
    assert abs(spot[0] - view.table.width / 2) < 1e-9 and shot.V0 == 8.0 and shot.b == 0.0


def test_break_value_scores_a_foul_as_nothing():
    import physics

    view = _break_view()
    agent = SearchAgent()
    state = view.balls.copy()
    state.place(0, view.table.width / 2, view.table.head_string_y - 0.03)
    whiff = physics.Shot(V0=0.5, phi=-90.0)  # away from the rack: no contact with the 1
    assert agent._break_value(view, state, whiff) == 0.0


def test_batched_break_values_match_single_simulations():
    import physics
    from agents.players.search import BREAK_BOOK

    view = _break_view(3)
    agent = SearchAgent()
    state = view.balls.copy()
    dx, dy, V, b = BREAK_BOOK[0]
    state.place(0, view.table.width / 2 + dx, view.table.head_string_y - dy)
    shots = [physics.Shot(V0=V + 0.1 * k, phi=90.0 + 0.05 * k, b=b) for k in range(4)]
    rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots])
    batch = physics.simulate_batch_packed(np.repeat(state.packed()[None], 4, axis=0), rows, view.table,
                                          view.params, max_events=2000, max_time=60.0, log_capacity=16)
    assert agent._break_values(view, batch).tolist() == [agent._break_value(view, state, s) for s in shots]


def test_noisy_rows_follow_the_noise_model():
    from agents.players.search import _noisy_rows

    rows = _noisy_rows(np.array([[5.0, 10.0, 0.0, 0.0, 0.0], [2.0, 20.0, 0.0, 0.0, 0.5]]), 4000,
                       make_noise("icga"), np.random.default_rng(0), view_params())
    first, second = rows[:4000], rows[4000:]
    assert abs(first[:, 1].std() - 0.125) < 0.01 and abs(first[:, 1].mean() - 10.0) < 0.01
    assert abs(second[:, 0].mean() - 2.0) < 0.01 and np.all(first[:, 2] >= 0.0)


def view_params():
    from physics import DEFAULT_PARAMS

    return DEFAULT_PARAMS
