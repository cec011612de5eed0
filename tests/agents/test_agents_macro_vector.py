"""The macro-action vector wrapper decodes the same shots as the single-env MacroActionWrapper on the same states."""

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
from agents.learned.macro import MACRO_DIM, MACRO_OBS_SIZE, MacroActionWrapper
from agents.learned.macro_vector import MacroActionVectorWrapper


def test_vector_wrapper_decodes_as_the_single_wrapper():
    B, seed = 3, 11
    venv = MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=B, noise="icga"))
    singles = [MacroActionWrapper(gym.make("NineBall-v0", noise="icga")) for _ in range(B)]
    obs, _ = venv.reset(seed=seed)
    assert obs.shape == (B, MACRO_OBS_SIZE) and venv.single_action_space.shape == (MACRO_DIM,)
    for k, env in enumerate(singles):
        np.testing.assert_array_equal(obs[k], env.reset(seed=seed + k)[0])
    rng = np.random.default_rng(0)
    live = set(range(B))
    decided = set()
    for _ in range(40):
        macro = rng.uniform(-1, 1, (B, MACRO_DIM)).astype(np.float32)
        decoded, slots = venv.decode(macro)
        for k in live:
            expected = singles[k].planner.action(singles[k]._obs, macro[k])
            np.testing.assert_array_equal(decoded[k], expected)
            decided.add(int(slots[k]))
        obs, reward, term, trunc, info = venv.step(macro)
        for k in list(live):
            o, r, t, tr, _ = singles[k].step(macro[k])
            np.testing.assert_array_equal(obs[k], o)
            assert reward[k] == pytest.approx(r) and term[k] == t and trunc[k] == tr
            assert info["macro_slot"][k] == slots[k]
            if t or tr:
                live.discard(k)
        if not live:
            break
    assert decided & {0, 1, 2, 3}  # pot and safety slots were decoded, not only breaks


@pytest.mark.parametrize("leaves", [False, True])
def test_masked_reset_features_equal_the_whole_batch(leaves):
    """A reset with a reset_mask computes only the reset rows' features; every row equals the planner's features of
    the observation, also when the tables changed behind the wrapper (stepped through the inner env)."""
    B = 4
    venv = MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=B, noise="icga"), leaves=leaves)
    venv.reset(seed=5)
    rng = np.random.default_rng(1)
    for i in range(6):
        venv.step(rng.uniform(-1, 1, (B, MACRO_DIM)))
        mask = np.zeros(B, dtype=bool)
        mask[i % B] = True
        if i == 3:  # the inner env moves on without the wrapper: its saved features are stale
            inner = venv.env.unwrapped
            inner.step(np.where(inner._autoreset[:, None], 0.0, rng.uniform(-1, 1, (B, 9))))
        feats, _ = venv.reset(options={"reset_mask": mask})
        np.testing.assert_array_equal(feats, venv.planner.features_batch(venv.env.unwrapped.tables.obs.copy()))


def test_vector_wrapper_rejects_bad_input():
    with pytest.raises(ValueError, match="NineBallVectorEnv"):
        MacroActionVectorWrapper(gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1")]))
    venv = MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=2))
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.zeros((2, MACRO_DIM)))
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        venv.step(np.zeros((3, MACRO_DIM)))


@pytest.mark.extra("train")
def test_training_runs_on_both_vector_paths(tmp_path):
    from agents.training.common import make_vec_env
    from agents.training.ppo import Args, train

    for kind in ("native", "dummy"):
        args = Args(total_timesteps=64, n_envs=2, n_steps=16, batch_size=32, n_epochs=1, opponent="random",
                    vec_env=kind, eval_freq=0, checkpoint_freq=10**6, runs_dir=str(tmp_path / kind / "runs"),
                    checkpoints_dir=str(tmp_path / kind / "ck"), progress_bar=False)
        assert train(args).exists()
    with pytest.raises(ValueError, match="vec_env"):
        make_vec_env("subproc", 2, "random", "icga", True, 0.1, -0.1, 0)
