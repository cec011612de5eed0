"""MacroStyle: the macro layer's ball-in-hand spot and safety taken from Search's candidates, and the exported
policy's meta that tells ``learned`` which style it was trained with."""

import zlib

import numpy as np
import pytest

import physics
from agents.learned.agent import LearnedAgent
from agents.learned.macro import LEAVE_GRID, MACRO_DIM, MACRO_OBS_SIZE, MacroPlanner, MacroStyle, SAFETY, macro_obs_size
from agents.learned.numpy_policy import NumpyPolicy
from agents.protocol import TableView
from agents.shots.leaves import shot_value
from nineball_env import actions, observation
from nineball_env.noise import make_noise
from nineball_env.rules import Match, RackState

STYLE = MacroStyle(placement="leave", safety="search")


def _obs(balls: dict, in_hand: str = "none") -> np.ndarray:
    state = physics.place_balls(balls)
    on = frozenset(b for b in balls if b)
    rack = RackState(breaker=1, shooter=0, on_table=on, phase="normal", ball_in_hand=in_hand)
    return observation.encode(state.pos, state.on_table(), rack, Match(race_to=1), 0, 1.27, 2.54)


def _safety_slot(u1: float = 0.0, u2: float = 0.0) -> np.ndarray:
    return np.array([0.99, u1, u2, 0.5, -0.5, -1.0])


def test_style_parses_and_rejects_bad_specs():
    assert MacroStyle.parse("") == MacroStyle() == MacroStyle("ghost", "ghost")
    assert MacroStyle.parse("placement=leave, safety=search") == STYLE
    assert MacroStyle(**STYLE.to_dict()) == STYLE
    with pytest.raises(ValueError, match="placement"):
        MacroStyle(placement="search")
    with pytest.raises(ValueError, match="key=value"):
        MacroStyle.parse("break_shot=book")
    with pytest.raises(ValueError, match="key=value"):
        MacroStyle.parse("leave")


def test_leave_placement_picks_the_spot_with_the_best_leave():
    # Ball in hand anywhere, the 1 in the open with the 4 and the 9 around it.
    obs = _obs({1: (0.6, 1.5), 4: (0.3, 2.0), 9: (0.9, 2.1)}, in_hand="anywhere")
    ghost, styled = MacroPlanner(leaves=True), MacroPlanner(leaves=True, style=STYLE)
    view, ghost_spot, ghost_pots = ghost.slots(obs)
    assert view.cue_in_hand and ghost_spot is not None
    _, spot, pots = styled.slots(obs)
    x = styled.features(obs)[MACRO_OBS_SIZE:]
    # The features are the leave values at the chosen spot, whose best pot beats (or ties) GhostBall's spot's.
    np.testing.assert_array_equal(x[:-1], styled.leave_values(view, spot, pots, safety=False)[:-1])
    ghost_best = ghost.leave_values(view, ghost_spot, ghost_pots, safety=False)[:-1].max()
    assert x[:-1].max() >= ghost_best > 0.0
    # The action places the cue ball on that spot and plays the pot slot's shot from it.
    u = np.array([-1.0, 0.0, LEAVE_GRID[0][0], LEAVE_GRID[0][1], 0.0, -1.0])
    placement = actions.action_to_placement(styled.action(obs, u), "anywhere")
    assert placement == pytest.approx(tuple(spot), abs=1e-6)
    assert styled.last_slot == 0 and pots[0] is not None


def test_search_safety_is_played_as_found_and_valued_as_played():
    obs = _obs({0: (0.3, 0.4), 1: (1.0, 2.2), 5: (0.9, 2.0), 9: (1.1, 1.9)})
    planner = MacroPlanner(leaves=True, style=STYLE)
    x = planner.features(obs)
    view, _, _ = planner.slots(obs)
    action = planner.action(obs, _safety_slot())
    assert planner.last_slot == SAFETY
    shot = planner._search_safety(view, view.balls.pos[0], zlib.crc32(np.asarray(obs, dtype=np.float32).tobytes()))
    expected = actions.shot_to_action(shot, table=view.table, params=view.params, scale=view.scale)
    np.testing.assert_array_equal(action, expected)
    np.testing.assert_array_equal(planner.action(obs, _safety_slot(0.9, -0.9)), expected)  # no refinement
    assert x[-1] == pytest.approx(shot_value(view, view.balls.copy(), shot), abs=1e-6)
    # A function of the observation: a fresh planner, or the same one after another position, plays the same.
    np.testing.assert_array_equal(MacroPlanner(leaves=True, style=STYLE).action(obs, _safety_slot()), expected)
    planner.features(_obs({0: (0.6, 0.5), 1: (0.6, 1.5), 9: (0.3, 2.0)}))
    np.testing.assert_array_equal(planner.action(obs, _safety_slot()), expected)
    # GhostBall's safety differs, and its refinements apply.
    ghost = MacroPlanner(leaves=True)
    assert not np.array_equal(ghost.action(obs, _safety_slot()), ghost.action(obs, _safety_slot(0.9, -0.9)))


def _policy(meta=None) -> NumpyPolicy:
    n = macro_obs_size(True)
    return NumpyPolicy([np.zeros((n, MACRO_DIM))], [np.zeros(MACRO_DIM)], "tanh", -np.ones(MACRO_DIM),
                       np.ones(MACRO_DIM), meta)


def test_exported_policy_carries_its_style(tmp_path):
    path = _policy({"macro_style": STYLE.to_dict()}).save(tmp_path / "p.npz")
    loaded = NumpyPolicy.load(path)
    assert loaded.meta == {"macro_style": STYLE.to_dict()}
    assert LearnedAgent(loaded).planner.style == STYLE
    assert LearnedAgent(_policy()).planner.style == MacroStyle()
    # A file written before the meta existed plays with GhostBall's style.
    p = _policy()
    np.savez(tmp_path / "old.npz", w0=p.weights[0], b0=p.biases[0], activation=np.array("tanh"), low=p.low,
             high=p.high, version=np.array(1))
    assert NumpyPolicy.load(tmp_path / "old.npz").meta == {}
    assert LearnedAgent(NumpyPolicy.load(tmp_path / "old.npz")).planner.style == MacroStyle()
    with pytest.raises(ValueError, match="macro_style"):
        LearnedAgent(_policy({"macro_style": {"placement": "nowhere"}}))
    with pytest.raises(ValueError, match="macro_style"):
        LearnedAgent(_policy({"macro_style": {"corner": "left"}}))
    with pytest.raises(ValueError, match="meta"):
        _policy(["not", "a", "dict"])  # type: ignore[arg-type]


def test_styled_learned_agent_plays_legal_actions():
    agent = LearnedAgent(_policy({"macro_style": STYLE.to_dict()}))
    for balls, in_hand in (({1: (0.6, 1.5), 4: (0.3, 2.0), 9: (0.9, 2.1)}, "anywhere"),
                           ({0: (0.3, 0.4), 1: (1.0, 2.2), 5: (0.9, 2.0), 9: (1.1, 1.9)}, "none")):
        obs = _obs(balls, in_hand)
        view = TableView.from_observation(obs, noise=make_noise("icga"))
        action = agent.act(obs, view)
        assert action.shape == (actions.N_ACTION,) and np.all(np.abs(action) <= 1.0)


@pytest.mark.extra("train")
def test_training_exports_the_policy_with_its_style(tmp_path):
    from agents.training.ppo import Args, train

    args = Args(total_timesteps=16, n_envs=1, n_steps=16, batch_size=16, n_epochs=1, opponent="random", leaves=True,
                macro_style="placement=leave,safety=search", rerank_samples=3, eval_freq=0, checkpoint_freq=10**9,
                runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"), progress_bar=False)
    path = train(args)
    exported = NumpyPolicy.load(path.parent / "final.npz")
    assert exported.meta == {"macro_style": STYLE.to_dict(), "rerank_samples": 3}
    agent = LearnedAgent(exported)
    assert agent.planner.style == STYLE and agent.rerank_samples == 3
    with pytest.raises(ValueError, match="safety"):
        train(Args(**{**args.__dict__, "macro_style": "safety=ghostly"}))
    with pytest.raises(ValueError, match="rerank_samples"):
        train(Args(**{**args.__dict__, "rerank_samples": -1}))


def _win_obs() -> np.ndarray:
    # The 9 alone, straight in front of the bottom-left corner pocket: any soft pot wins the rack (R-WIN-9).
    return _obs({0: (0.5, 0.5), 9: (0.3, 0.3)})


def test_rerank_keeps_the_action_without_samples_and_on_breaks():
    planner = MacroPlanner(leaves=True, style=STYLE)
    u = _safety_slot()
    np.testing.assert_array_equal(planner.rerank(_win_obs(), u, 0), u)
    state = physics.place_balls({0: (0.6, 0.5), 1: (0.635, 1.9), 9: (0.635, 2.0)})
    rack = RackState(breaker=0, shooter=0, on_table=frozenset({1, 9}), phase="break", ball_in_hand="kitchen")
    brk = observation.encode(state.pos, state.on_table(), rack, Match(race_to=1), 0, 1.27, 2.54)
    np.testing.assert_array_equal(planner.rerank(brk, u, 6), u)


def test_rerank_replaces_a_poor_choice_by_a_better_candidate():
    # A makeable cut of the 1 into the corner, where GhostBall's full-hit safety gives the table away.
    obs = _obs({0: (0.6, 0.6), 1: (0.15, 0.3), 9: (0.9, 1.9)})
    planner = MacroPlanner(leaves=True)
    x = planner.features(obs)
    view, _, pots = planner.slots(obs)
    assert pots[0] is not None and x[-1] < 0.1
    # The policy asks for the safety: re-ranking plays a pot slot, a candidate worth more without noise too.
    chosen = planner.rerank(obs, _safety_slot(), 6)
    slot, shot = planner._decode(view, None, pots, chosen)
    assert slot != SAFETY
    assert shot_value(view, view.balls.copy(), shot) > 0.5 > x[-1]
    # Seeded by the observation: a fresh planner chooses the same.
    np.testing.assert_array_equal(MacroPlanner(leaves=True).rerank(obs, _safety_slot(), 6), chosen)
    # With the 9 hanging, a soft pot of it wins under every noise sample: a tie with the alternatives keeps it.
    good = np.array([-1.0, 0.0, 0.0, 0.0, 0.0, -1.0])
    np.testing.assert_array_equal(planner.rerank(_win_obs(), good, 6), good)


def test_learned_agent_rejects_a_bad_rerank_setting():
    with pytest.raises(ValueError, match="rerank_samples"):
        LearnedAgent(_policy({"rerank_samples": -2}))
    with pytest.raises(ValueError, match="rerank_samples"):
        LearnedAgent(_policy({"rerank_samples": "six"}))
    agent = LearnedAgent(_policy({"macro_style": STYLE.to_dict(), "rerank_samples": 4}))
    obs = _win_obs()
    action = agent.act(obs, TableView.from_observation(obs, noise=make_noise("icga")))
    assert action.shape == (actions.N_ACTION,) and np.all(np.abs(action) <= 1.0) and agent.intent == "pot"
