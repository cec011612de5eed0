"""SearchAgent's two-shot look-ahead: leaves valued by the next pot and the position it gets on the ball after."""

import numpy as np
import pytest

import physics
from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import TableView
from nineball_env.noise import make_noise
from nineball_env.rules import RackState


def _view(positions):
    balls = physics.place_balls(positions)
    rack = RackState(breaker=0, shooter=0, on_table=frozenset(b for b in positions if b), phase="normal",
                     ball_in_hand="none")
    return TableView(balls, rack, 0, noise=make_noise("icga"))


def test_lookahead_values_are_chances_and_the_last_ball_is_its_ease():
    view = _view({0: (0.6, 0.8), 2: (0.5, 1.6), 5: (0.9, 2.0), 9: (0.3, 2.2)})
    agent = SearchAgent()
    only_nine = physics.place_balls({0: (0.3, 1.9), 9: (0.2, 2.2)})
    values = agent._lookahead(view, [view.balls, only_nine])
    assert np.all((0.0 <= values) & (values <= 1.0))
    assert values[1] == pytest.approx(agent._ease(view, only_nine))
    assert values[0] > 0.0  # the 2 is makeable from there


def test_lookahead_values_a_scratch_leave_as_nothing_and_a_cleared_table_as_a_win():
    view = _view({0: (0.6, 0.8), 2: (0.5, 1.6), 9: (0.3, 2.2)})
    agent = SearchAgent()
    scratched = physics.place_balls({2: (0.5, 1.6), 9: (0.3, 2.2)})
    cleared = physics.place_balls({0: (0.6, 0.8)})
    assert agent._lookahead(view, [scratched, cleared]).tolist() == [0.0, 1.0]


def test_lookahead_zero_and_bad_values():
    with pytest.raises(ValueError, match="lookahead"):
        SearchConfig(lookahead=-1)
    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 9: (0.9, 2.0)})
    small = dict(candidates=16, top=3, samples=4, refine=1, options=2, placements=2)
    for look in (0, 4):
        agent = SearchAgent(SearchConfig(lookahead=look, **small), seed=0)
        agent.decide(view)
        assert agent.last_plan is not None and 0.0 <= agent.last_plan.value <= 1.0


def test_pot_candidates_grid_has_fine_speed_control():
    from agents.players.search import DRAW_FOLLOW, SPEED_FACTORS

    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 9: (0.9, 2.0)})
    agent = SearchAgent()
    shots = agent._pot_candidates(view, view.balls, agent.config.candidates)
    per_option = len(SPEED_FACTORS) * len(DRAW_FOLLOW)
    assert len(shots) >= per_option  # the whole grid for the easiest pot at the default budget
    speeds = sorted({round(s.V0, 6) for s in shots[:per_option]})
    assert len(speeds) >= 6 and all(b / a < 1.3 for a, b in zip(speeds, speeds[1:]) if b < 8.0)


def test_hard_pots_get_a_wider_search():
    with pytest.raises(ValueError, match="hard_below"):
        SearchConfig(hard_below=1.5)
    # A long thin cut: the first search finds no easy pot, so the wider one runs (more candidates simulated).
    view = _view({0: (0.3, 0.4), 1: (1.0, 2.2), 9: (0.6, 1.4)})
    small = dict(candidates=16, top=3, samples=4, refine=1, options=2, placements=2, lookahead=0)
    calls = {}
    for hard in (0.0, 1.0):
        agent = SearchAgent(SearchConfig(hard_below=hard, **small), seed=0)
        counted = []
        original = agent._evaluate

        def counting(*args, _orig=original, _log=counted, **kw):
            _log.append(kw.get("top"))
            return _orig(*args, **kw)

        agent._evaluate = counting
        agent.decide(view)
        calls[hard] = counted
    assert 6 not in calls[0.0] and 6 in calls[1.0]
