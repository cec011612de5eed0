"""NineBallVectorEnv (nineball_env.vector): batch-simulated tables with NineBall-v0's semantics, and its SB3 adapter."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import nineball_env  # noqa: F401  (registers NineBall-v0)
from nineball_env.vector import NineBallVectorEnv


def _actions(rng: np.random.Generator, B: int) -> np.ndarray:
    return rng.uniform(-1, 1, (B, 9)).astype(np.float32)


def test_spaces_and_shapes():
    venv = NineBallVectorEnv(3)
    single = gym.make("NineBall-v0")
    assert venv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert venv.single_observation_space == single.observation_space
    assert venv.single_action_space == single.action_space
    assert venv.observation_space.shape == (3, 54) and venv.action_space.shape == (3, 9)
    assert venv.max_episode_steps == gym.spec("NineBall-v0").max_episode_steps
    obs, info = venv.reset(seed=0)
    assert obs.shape == (3, 54) and obs.dtype == np.float32 and venv.observation_space.contains(obs)
    assert info["_redeals"].all() and info["redeals"].shape == (3,)
    obs, reward, term, trunc, info = venv.step(venv.action_space.sample())
    assert obs.shape == (3, 54) and reward.shape == (3,) and term.dtype == bool and trunc.dtype == bool
    assert set(info) >= {"ruling", "_ruling", "reward_parts", "opponent", "n_events"}
    assert info["ruling"]["foul"].shape == (3,) and info["_ruling"].all()


def test_same_seed_same_observations():
    runs = []
    for _ in range(2):
        venv = NineBallVectorEnv(4, noise="icga")
        rng = np.random.default_rng(4)
        trace = [venv.reset(seed=7)[0]]
        for _ in range(12):
            trace.append(venv.step(_actions(rng, 4))[0])
        runs.append(np.stack(trace))
    assert np.array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0][0][0], runs[0][0][1]) or not np.array_equal(runs[0][1][0], runs[0][1][1])


@pytest.mark.parametrize("noise", ["none", "icga"])
def test_tables_evolve_like_single_envs(noise):
    """Table k replays gymnasium.make("NineBall-v0") seeded with seed + k, given the same actions (autoresets too)."""
    B, seed = 3, 11
    venv = NineBallVectorEnv(B, noise=noise, max_episode_steps=25)
    singles = [gym.make("NineBall-v0", noise=noise, max_episode_steps=25) for _ in range(B)]
    obs, _ = venv.reset(seed=seed)
    assert np.array_equal(obs, np.stack([e.reset(seed=seed + k)[0] for k, e in enumerate(singles)]))
    assert _replay(venv, singles, 60, np.random.default_rng(0)) > 0  # through at least one autoreset


def _replay(venv, singles, steps: int, rng: np.random.Generator) -> int:
    """Step ``venv`` and its single twins with the same random actions; every table must match its twin
    (observation, reward, terminated, truncated; NEXT_STEP autoresets). Returns the episodes ended."""
    B = len(singles)
    done, ends = [False] * B, 0
    for _ in range(steps):
        a = _actions(rng, B)
        obs, reward, term, trunc, _ = venv.step(a)
        for k, env in enumerate(singles):
            if done[k]:  # NEXT_STEP autoreset
                o, r, t, tr = env.reset()[0], 0.0, False, False
            else:
                o, r, t, tr, _ = env.step(a[k])
            assert np.array_equal(o, obs[k]) and r == reward[k] and (t, tr) == (term[k], trunc[k])
            done[k] = t or tr
            ends += done[k]
    return ends


def test_autoreset_next_step():
    venv = NineBallVectorEnv(2, max_episode_steps=3)
    venv.reset(seed=4)  # both tables reach the time limit at step 3 (seed 1's table 1 ends its game at step 2 since balls can jump)
    rng = np.random.default_rng(4)
    for _ in range(3):
        obs, reward, term, trunc, info = venv.step(_actions(rng, 2))
    assert (term | trunc).all()  # the time limit at the latest
    assert trunc.all()
    obs, reward, term, trunc, info = venv.step(_actions(rng, 2))  # the autoreset step: actions ignored
    assert not term.any() and not trunc.any() and (reward == 0).all()
    assert (info["opponent"]["decisions"] >= 0).all() and (info["n_events"] == 0).all()  # reset infos
    assert obs[:, 52].all()  # the learner is to decide
    assert (venv._elapsed == 0).all()


def _same_snapshot(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4])) and a[4] == b[4]


def test_bad_actions_raise_and_change_nothing():
    venv = NineBallVectorEnv(2)
    obs, _ = venv.reset(seed=5)
    before = venv.tables.snapshot()
    bad = np.zeros((2, 9), np.float32)
    bad[1, 3] = np.nan
    for actions in (bad, np.full((2, 9), 1.5), np.zeros((3, 9)), np.zeros(9)):
        with pytest.raises(ValueError):
            venv.step(actions)
    assert _same_snapshot(venv.tables.snapshot(), before)
    # and the env still steps exactly as one that never saw the bad actions
    twin = NineBallVectorEnv(2)
    twin.reset(seed=5)
    good = np.zeros((2, 9), np.float32)
    assert np.array_equal(venv.step(good)[0], twin.step(good)[0])


def test_a_rejected_strict_placement_changes_nothing():
    """With ``strict_placement`` a ball-in-hand spot on a ball raises ValueError; arrays and generators
    (noise already drawn) are put back, and the next step plays as if it never happened (R-BIH)."""
    venv = NineBallVectorEnv(2, strict_placement=True, first_breaker="learner", noise="icga")
    venv.reset(seed=2)
    before = venv.tables.snapshot()
    t = venv.config.table
    act = np.zeros((2, 9))
    act[:, 6] = 1.0  # the cue ball on the head string, x in the middle: free in an empty kitchen
    bad = act.copy()
    venv.tables.balls[1, 1, 0:2] = (t.width / 2.0, t.head_string_y)  # table 1: the 1 ball on that very spot
    moved = venv.tables.snapshot()
    with pytest.raises(ValueError, match="placement"):
        venv.step(bad)
    assert _same_snapshot(venv.tables.snapshot(), moved)
    venv.tables.restore(before)
    assert venv.step(act)[0].shape == (2, 54)


@pytest.mark.extra("train")
def test_sb3_adapter_ppo_smoke():
    import stable_baselines3 as sb3

    from nineball_env.sb3_vec import SB3VecEnvAdapter

    venv = NineBallVectorEnv(4, max_episode_steps=5)
    vec = SB3VecEnvAdapter(venv)
    vec.seed(0)
    obs = vec.reset()
    assert obs.shape == (4, 54)
    vec.action_space.seed(0)
    obs, rewards, dones, infos = vec.step(np.stack([vec.action_space.sample() for _ in range(4)]))
    assert obs.shape == (4, 54) and rewards.shape == (4,) and len(infos) == 4 and "ruling" in infos[0]
    # each table's info is its readable one (the vector env builds no array infos for the adapter to drop); a table
    # whose episode ended is dealt again in the same step, and its info is the final one (SB3's convention)
    assert not venv.array_infos
    for k in range(4):
        expected = venv.final_table_info(k) if dones[k] else venv.table_info(k)
        assert infos[k]["ruling"] == expected["ruling"], k
    model = sb3.PPO("MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=256)
    # terminal observations on episode ends (max 5 steps)
    vec.reset()
    seen = 0
    for _ in range(5):
        obs, rewards, dones, infos = vec.step(np.zeros((4, 9), np.float32))
        assert [("terminal_observation" in i) for i in infos] == dones.tolist()
        assert obs[dones, 52].all()  # already reset, SB3 style
        seen += dones.sum()
    assert seen >= 4  # the 5-step limit ends every table's episode at the latest
    vec.close()


class _BatchCounting:
    """A stateless opponent that decides in batches (like an SB3 model's ``predict``) and counts its calls."""

    def __init__(self) -> None:
        from nineball_env.aiming import AimingPolicy
        self.policy, self.calls, self.rows = AimingPolicy(), 0, 0

    def predict(self, obs, deterministic=True):
        obs = np.asarray(obs)
        self.calls += 1
        self.rows += len(obs) if obs.ndim == 2 else 1
        return (self.policy.act_batch(obs) if obs.ndim == 2 else self.policy.act(obs)), None


def test_a_shared_batch_opponent_is_queried_once_per_round_and_matches_single_envs():
    """An SB3-style opponent shared by the tables decides for all of them in one ``predict`` call per round;
    the tables still replay single envs with the same opponent (its batch rows equal its one-row answers)."""
    B, rng = 6, np.random.default_rng(4)
    opponent = _BatchCounting()
    venv = NineBallVectorEnv(B, opponent=opponent, max_episode_steps=20)
    singles = [gym.make("NineBall-v0", opponent=_BatchCounting(), max_episode_steps=20) for _ in range(B)]
    obs, _ = venv.reset(seed=3)
    for k, env in enumerate(singles):
        np.testing.assert_array_equal(env.reset(seed=3 + k)[0], obs[k])
    _replay(venv, singles, 10, rng)
    assert opponent.rows > opponent.calls  # several tables per call


def test_query_batch_checks_what_a_batch_opponent_returns():
    from nineball_env import opponents

    class Bad:
        def predict(self, obs, deterministic=True):
            return np.zeros((len(obs), 8)), None

    with pytest.raises(ValueError, match="opponent actions"):
        opponents.query_batch(Bad(), np.zeros((3, 54), dtype=np.float32), [{}] * 3)
    rows = opponents.query_batch(lambda obs, info: np.full(9, 2.0), np.zeros((2, 54), dtype=np.float32), [{}] * 2)
    assert rows.shape == (2, 9) and np.all(rows == 1.0)  # a plain callable: row by row, clipped like query


#: A break (learner's action encoding) that drops the 9 on the break from the tight rack of these seeds.
NINE_ON_THE_BREAK = [0.5046515740524253, 0.7791414308212499, -0.4232319447644574, 0.03352664617738664, -1.0,
                     -0.009580186411354809, 0.9783362129126666, -1.0, -1.0]


class _WinsFirstBreaks:
    """An opponent that wins its first two breaks with ``NINE_ON_THE_BREAK`` (when the 9 drops), then aims."""

    def __init__(self) -> None:
        from nineball_env.aiming import AimingPolicy
        self.aim, self.left = AimingPolicy(), 2

    def seed(self, seed: int) -> None:  # re-seeded on every reset: two winning breaks per episode
        self.left = 2

    def act(self, obs: np.ndarray) -> np.ndarray:
        if obs[39] == 1.0 and self.left > 0:  # the break
            self.left -= 1
            return np.array(NINE_ON_THE_BREAK, dtype=np.float32)
        return self.aim.act(obs)


def test_deals_the_opponent_wins_outright_are_dealt_again_like_single_envs():
    """A deal the opponent wins before the learner's first decision (the 9 on its break, R-BREAK-9) is dealt
    again, in reset and in autoresets, and counted in ``info["redeals"]`` exactly as by NineBall-v0."""
    B, kw = 4, dict(first_breaker="opponent", max_episode_steps=3)
    venv = NineBallVectorEnv(B, opponent=_WinsFirstBreaks(), **kw)
    singles = [gym.make("NineBall-v0", opponent=_WinsFirstBreaks(), **kw) for _ in range(B)]
    obs, info = venv.reset(seed=40)
    want = [env.reset(seed=40 + k) for k, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack([o for o, _ in want]))
    assert info["redeals"].tolist() == [i["redeals"] for _, i in want]
    assert info["redeals"].max() >= 1
    assert _replay(venv, singles, 8, np.random.default_rng(1)) > 0


def test_make_vec_builds_the_native_vector_env_with_make_kwargs():
    """``gymnasium.make_vec("NineBall-v0", num_envs=N, **kwargs)`` is NineBallVectorEnv, with gym.make's keyword
    arguments and the registered time limit; its tables replay gym.make singles with the same kwargs."""
    from agents.players.random_agent import RandomAgent

    venv = gym.make_vec("NineBall-v0", num_envs=2, noise="icga", match_race=2, first_breaker="learner")
    assert isinstance(venv, NineBallVectorEnv) and venv.num_envs == 2
    assert venv.max_episode_steps == gym.spec("NineBall-v0").max_episode_steps
    assert venv.config.race_to == 2 and venv.envs[0].first_breaker == "learner" and not venv.envs[0].noise.silent
    singles = [gym.make("NineBall-v0", noise="icga", match_race=2, first_breaker="learner") for _ in range(2)]
    obs, _ = venv.reset(seed=3)
    assert np.array_equal(obs, np.stack([e.reset(seed=3 + k)[0] for k, e in enumerate(singles)]))
    _replay(venv, singles, 8, np.random.default_rng(1))
    short = gym.make_vec("NineBall-v0", num_envs=3, max_episode_steps=4, opponent=RandomAgent(1))
    assert isinstance(short, NineBallVectorEnv) and short.max_episode_steps == 4
    assert gym.make_vec("NineBall-v0", num_envs=2, vectorization_mode="sync").__class__.__name__ == "SyncVectorEnv"


@pytest.mark.extra("train")
def test_sb3_adapter_infos_are_table_info_and_the_wrappers_keys():
    """The adapter's per-env infos are built in one pass (``table_infos``, ``final_table_infos``, ``unbatch_infos``)
    and are what a table at a time gives: a finished table's final info, else its info, then the keys a vector
    wrapper adds (masked ones left out, nested ones too), ``TimeLimit.truncated`` and the terminal observation;
    ``reset_infos`` holds a finished table's new rack's info."""
    import gymnasium as gym
    from gymnasium.vector import VectorWrapper

    from nineball_env.sb3_vec import SB3VecEnvAdapter, unbatch_info, unbatch_infos

    class Tagged(VectorWrapper):
        def _tag(self, info):
            n = self.num_envs
            slot = np.arange(n) * self.calls
            self.calls += 1
            return dict(info, slot=slot, _slot=slot % 3 != 1, deep={"x": slot * 0.5, "_x": slot % 2 == 0},
                        _deep=np.ones(n, dtype=bool))

        def reset(self, **kw):
            self.calls = 1
            obs, info = self.env.reset(**kw)
            return obs, self._tag(info)

        def step(self, actions):
            *out, info = self.env.step(actions)
            return (*out, self._tag(info))

    B = 5
    venv = NineBallVectorEnv(B, max_episode_steps=3, match_race=2, noise="icga", reward_shaping={"pot": 0.1})
    vec = SB3VecEnvAdapter(Tagged(venv))
    vec.seed(4)
    vec.reset()
    assert all(_equal(vec.reset_infos[k], {**venv.table_info(k), **unbatch_info({"slot": np.arange(B),
               "_slot": np.arange(B) % 3 != 1, "deep": {"x": np.arange(B) * 0.5, "_x": np.arange(B) % 2 == 0},
               "_deep": np.ones(B, dtype=bool)}, k)}) for k in range(B))
    rng, finished = np.random.default_rng(3), 0
    for _ in range(12):
        calls = vec.venv.calls
        obs, rewards, dones, infos = vec.step(rng.uniform(-1, 1, (B, 9)).astype(np.float32))
        slot = np.arange(B) * calls
        extra = {"slot": slot, "_slot": slot % 3 != 1, "deep": {"x": slot * 0.5, "_x": slot % 2 == 0},
                 "_deep": np.ones(B, dtype=bool)}
        assert [repr(d) for d in unbatch_infos(extra, B)] == [repr(unbatch_info(extra, k)) for k in range(B)]
        for k in range(B):
            cut = bool(venv._elapsed[k] == 0 and dones[k] and not venv._finals.done[k]) if dones[k] else False
            if dones[k]:
                finished += 1
                expected = {**venv.final_table_info(k), **unbatch_info(extra, k), "TimeLimit.truncated": cut}
                assert np.array_equal(infos[k].pop("terminal_observation"), venv._finals.obs[k])
                assert _equal(vec.reset_infos[k], venv.table_info(k))
            else:
                expected = {**venv.table_info(k), **unbatch_info(extra, k), "TimeLimit.truncated": False}
            assert _equal(infos[k], expected), k
    assert finished >= B


def _equal(x, y) -> bool:
    """Equal values, NaN equal to NaN, keys in the same order, tuples and arrays element by element."""
    if isinstance(x, dict) and isinstance(y, dict):
        return list(x) == list(y) and all(_equal(x[k], y[k]) for k in x)
    if isinstance(x, (tuple, np.ndarray)) or isinstance(y, (tuple, np.ndarray)):
        return type(x) is type(y) and len(x) == len(y) and all(_equal(u, v) for u, v in zip(x, y))
    return type(x) is type(y) and (x == y or (x != x and y != y))
