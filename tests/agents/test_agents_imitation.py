"""Imitation of Search in the macro space: labels invert the macro decoding, the dataset is seeded, cloning fits."""

import numpy as np
import pytest

import physics
from agents.learned.macro import MACRO_DIM, MACRO_OBS_SIZE, MacroPlanner, N_SLOTS, macro_obs_size
from agents.players.search import SearchConfig
from agents.protocol import TableView
from agents.training.imitation import Dataset, SearchRecorder, behaviour_clone, generate, pot_label, slot_value
from nineball_env import observation
from nineball_env.noise import make_noise
from nineball_env.rules import Match, RackState

TINY_SEARCH = SearchConfig(candidates=8, top=2, samples=2, refine=1, options=2, placements=1, lookahead=0,
                           break_samples=0, hard_below=0.0)


def _position():
    balls = physics.place_balls({0: (0.6, 1.0), 1: (0.5, 1.8), 4: (1.0, 1.2), 9: (0.9, 2.2)})
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 4, 9}), phase="normal", ball_in_hand="none")
    obs = observation.encode(balls.pos, balls.on_table(), rack, Match(race_to=1), 0, 1.27, 2.54)
    return obs, TableView.from_observation(obs, noise=make_noise("icga"))


def test_slot_value_selects_its_slot():
    planner = MacroPlanner()
    obs, _ = _position()
    for slot in range(N_SLOTS):
        u = np.zeros(MACRO_DIM)
        u[0] = slot_value(slot)
        planner.action(obs, u)
        assert planner.last_slot in (slot, 0, N_SLOTS - 1)  # an empty pot slot falls back to slot 0 or the safety
    planner.action(obs, np.array([slot_value(0), 0, 0, 0, 0, 0]))
    assert planner.last_slot == 0


@pytest.mark.parametrize("u", [(0.3, 0.4, -0.5, 0.2), (-0.6, -0.3, 0.9, -1.0), (0.0, 0.0, 0.0, 0.0)])
def test_pot_label_inverts_the_macro_decoding(u):
    obs, view = _position()
    planner = MacroPlanner()
    _, _, pots = planner.slots(obs)
    filled = [i for i, o in enumerate(pots) if o is not None]
    assert filled
    cue = view.balls.pos[0].copy()
    state = view.balls.copy()
    for i in filled:
        macro = np.array([slot_value(i), *u, 0.0])
        shot = planner._pot_shot(view, state, cue, pots[i], macro)
        label, mask = pot_label(planner, view, cue, pots, shot)
        assert label[0] == pytest.approx(slot_value(i))
        np.testing.assert_allclose(label[1:5], macro[1:5], atol=1e-6)
        np.testing.assert_array_equal(mask, [1, 1, 1, 1, 1, 0])


def test_pot_label_drops_a_shot_outside_the_slots():
    obs, view = _position()
    planner = MacroPlanner()
    _, _, pots = planner.slots(obs)
    state = view.balls.copy()
    cue = view.balls.pos[0].copy()
    shot = planner._pot_shot(view, state, cue, pots[0], np.zeros(MACRO_DIM))
    phis = [planner._pot_shot(view, state, cue, o, np.zeros(MACRO_DIM)).phi for o in pots if o is not None]
    away = max(phis) + 40.0  # far from every slot's aim
    assert pot_label(planner, view, cue, pots, physics.Shot(shot.V0, away, shot.theta, shot.a, shot.b)) is None


def test_generate_is_seeded_and_labels_are_in_range():
    a = generate(1, seed=5, config=TINY_SEARCH)
    b = generate(1, seed=5, config=TINY_SEARCH)
    assert len(a) > 0 and a.x.shape == (len(a), macro_obs_size(True)) and a.u.shape == a.m.shape == (len(a), MACRO_DIM)
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.u, b.u)
    assert np.all(np.abs(a.u) <= 1.0) and set(np.unique(a.m)) <= {0.0, 1.0}
    assert np.all(a.u[a.m == 0] == 0.0)
    assert a.dropped.get("break", 0) >= 1  # every rack starts with a break, never labelled
    with pytest.raises(ValueError, match="matches"):
        generate(0, seed=5)


def test_dataset_round_trips(tmp_path):
    data = Dataset(np.ones((3, macro_obs_size(True)), np.float32), np.zeros((3, MACRO_DIM), np.float32),
                   np.ones((3, MACRO_DIM), np.float32), {"break": 2})
    data.save(str(tmp_path / "d.npz"))
    back = Dataset.load(str(tmp_path / "d.npz"))
    np.testing.assert_array_equal(back.x, data.x)
    assert back.dropped == {"break": 2} and len(Dataset.concat([data, back])) == 6


def test_recorder_plays_legal_actions():
    recorder = SearchRecorder(TINY_SEARCH, seed=0)
    obs, view = _position()
    action = recorder.act(obs, view)
    assert action.shape == (9,) and np.all(np.abs(action) <= 1.0)
    data = recorder.dataset()
    assert len(data) == 1 and data.x.shape[1] == MACRO_OBS_SIZE + (macro_obs_size(True) - MACRO_OBS_SIZE)


@pytest.mark.extra("train")
def test_behaviour_cloning_fits_the_labels():
    import gymnasium as gym
    from stable_baselines3 import PPO

    from agents.learned.macro import macro_action_space, macro_observation_space

    class Env(gym.Env):
        observation_space = macro_observation_space(True)
        action_space = macro_action_space()

        def reset(self, seed=None, options=None):
            return np.zeros(self.observation_space.shape, np.float32), {}

        def step(self, action):
            return np.zeros(self.observation_space.shape, np.float32), 0.0, True, False, {}

    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, (512, macro_obs_size(True))).astype(np.float32)
    u = np.clip(np.tanh(x[:, :MACRO_DIM] * 2 - 1), -1, 1).astype(np.float32)
    m = (rng.uniform(size=u.shape) < 0.7).astype(np.float32)
    model = PPO("MlpPolicy", Env(), seed=0, device="cpu", n_steps=64, batch_size=64)
    losses = behaviour_clone(model, Dataset(x, u * m, m, {}), epochs=60, lr=3e-3, batch_size=128, seed=0)
    assert losses[-1] < 0.2 * losses[0]
    pred, _ = model.predict(x, deterministic=True)
    assert np.sum((pred - u) ** 2 * m) / m.sum() < 0.05
    with pytest.raises(ValueError, match="observations"):
        behaviour_clone(model, Dataset(x[:, :-1], u, m, {}), epochs=1)


def test_dagger_round_labels_the_students_positions(tmp_path):
    from agents.learned.numpy_policy import NumpyPolicy

    n = macro_obs_size(True)
    student = NumpyPolicy([np.zeros((n, MACRO_DIM))], [np.full(MACRO_DIM, 0.75)], "tanh", -np.ones(MACRO_DIM),
                          np.ones(MACRO_DIM)).save(tmp_path / "student.npz")  # always the safety slot
    search_played = generate(1, seed=5, config=TINY_SEARCH)
    student_played = generate(1, seed=5, config=TINY_SEARCH, student=str(student))
    assert len(student_played) > 0
    assert len(student_played) != len(search_played) or not np.array_equal(student_played.x, search_played.x)
    np.testing.assert_array_equal(generate(1, seed=5, config=TINY_SEARCH, first=1).x,
                                  generate(2, seed=5, config=TINY_SEARCH).x[len(search_played):])


@pytest.mark.extra("train")
def test_training_with_a_warm_start_saves_the_cloned_policy(tmp_path):
    import json

    from agents.training.ppo import Args, train

    data = generate(1, seed=5, config=TINY_SEARCH)
    data.save(str(tmp_path / "d.npz"))
    args = Args(total_timesteps=32, n_envs=2, n_steps=16, batch_size=32, n_epochs=1, opponent="random", leaves=True,
                imitation_matches=1, imitation_data=str(tmp_path / "d.npz"), bc_epochs=2, eval_freq=0,
                checkpoint_freq=10**9, runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"),
                progress_bar=False)
    path = train(args)
    bc = json.loads((path.parent / "bc_loss.json").read_text())
    assert (path.parent / "bc.zip").exists() and bc["labels"] == len(data) and len(bc["losses"][0]) == 2
    with pytest.raises(ValueError, match="leaves"):
        train(Args(**{**args.__dict__, "leaves": False}))
