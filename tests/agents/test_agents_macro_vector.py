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


def _old_adapter_step(venv, acts):
    """What the SB3 adapter returned before it used SAME_STEP: a NEXT_STEP step, then a masked reset of the finished
    tables (their terminal observations and infos kept)."""
    from nineball_env.sb3_vec import unbatch_info

    base = venv.unwrapped
    obs, reward, term, trunc, infos = venv.step(acts)
    dones = term | trunc
    per_env = [{**base.table_info(k), **unbatch_info(infos, k)} for k in range(venv.num_envs)]
    for k in range(venv.num_envs):
        per_env[k]["TimeLimit.truncated"] = bool(trunc[k] and not term[k])
    if dones.any():
        for k in np.flatnonzero(dones):
            per_env[k]["terminal_observation"] = obs[k].copy()
        new_obs, _ = venv.reset(options={"reset_mask": dones})
        obs = np.where(dones[:, None], new_obs, obs)
    return obs, reward.astype(np.float32), dones, per_env


@pytest.mark.extra("train")
@pytest.mark.parametrize("opponent", ["ghost", "aiming"])
def test_sb3_adapter_same_step_equals_step_then_reset(opponent):
    """The SB3 adapter (one SAME_STEP vector step per SB3 step, final observations turned into features by the macro
    wrapper) returns what a NEXT_STEP step followed by a masked reset returned: observations, rewards, dones, infos
    with terminal observations and truncation flags, and the new racks' infos in reset_infos."""
    from gymnasium.vector import AutoresetMode

    from agents.players.ghost_ball import GhostBallAgent
    from nineball_env.sb3_vec import SB3VecEnvAdapter

    B, kw = 4, dict(noise="icga", max_episode_steps=3)
    opp = (lambda: GhostBallAgent()) if opponent == "ghost" else (lambda: None)
    old = MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=B, opponent=opp(), **kw))
    old.env.unwrapped.array_infos = False
    vec = SB3VecEnvAdapter(MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=B, opponent=opp(), **kw)))
    assert vec.base.autoreset_mode is AutoresetMode.SAME_STEP
    vec.seed(4)
    np.testing.assert_array_equal(vec.reset(), old.reset(seed=4)[0])
    rng, ends = np.random.default_rng(3), 0
    for _ in range(10):
        macro = rng.uniform(-1, 1, (B, MACRO_DIM)).astype(np.float32)
        vec.step_async(macro)
        got, want = vec.step_wait(), _old_adapter_step(old, macro)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[2], want[2])
        for k in range(B):
            a, b = got[3][k], want[3][k]
            assert list(a) == list(b)
            for key in a:
                if isinstance(a[key], np.ndarray):
                    np.testing.assert_array_equal(a[key], b[key])
                elif key != "placement":
                    assert a[key] == b[key], key
            if got[2][k]:
                new_rack = old.env.unwrapped.table_info(k)  # the old adapter's reset left it there
                assert [(x, v) for x, v in vec.reset_infos[k].items() if x != "placement"] == [
                    (x, v) for x, v in new_rack.items() if x != "placement"]
        ends += int(got[2].sum())
    assert ends >= B
