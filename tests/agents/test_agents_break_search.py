"""SearchAgent's break: Monte-Carlo over cue spots, speeds and draw; legal from the kitchen, seeded."""

import numpy as np

from agents.base import TableView
from agents.search import SearchAgent, SearchConfig
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


def test_break_value_scores_a_scratch_as_a_foul():
    import physics
    from agents.search import FOUL

    view = _break_view()
    agent = SearchAgent()
    state = view.balls.copy()
    state.place(0, view.table.width / 2, view.table.head_string_y - 0.03)
    whiff = physics.Shot(V0=0.5, phi=-90.0)  # away from the rack: no contact with the 1
    assert agent._break_value(view, state, whiff) == FOUL
