"""Self-play: the pool adds and samples frozen snapshots; a table's opponent is fixed for its rack."""

import copy

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
from agents.learned.macro import MACRO_DIM, MACRO_OBS_SIZE
from agents.learned.numpy_policy import NumpyPolicy
from agents.training.selfplay import SelfPlayOpponent, SnapshotPool


def _policy(bias: float) -> NumpyPolicy:
    return NumpyPolicy([np.zeros((MACRO_OBS_SIZE, MACRO_DIM))], [np.full(MACRO_DIM, bias)], "tanh",
                       -np.ones(MACRO_DIM), np.ones(MACRO_DIM))


def test_pool_adds_keeps_the_latest_and_samples_them_all():
    pool = SnapshotPool(capacity=3)
    assert pool.sample(np.random.default_rng(0)) is None
    policies = [_policy(b) for b in (-0.9, -0.3, 0.3, 0.9)]
    for p in policies:
        pool.add(p)
    assert len(pool) == 3 and pool.added == 4 and pool.snapshots == policies[1:]
    rng = np.random.default_rng(1)
    drawn = {id(pool.sample(rng)) for _ in range(200)}
    assert drawn == {id(p) for p in policies[1:]}
    assert copy.deepcopy(pool) is pool
    with pytest.raises(ValueError, match="NumpyPolicy"):
        pool.add("not a policy")
    with pytest.raises(ValueError, match="capacity"):
        SnapshotPool(0)


def _bound(n: int, pool: SnapshotPool, seed: int = 4):
    opponent = SelfPlayOpponent(pool)
    venv = gym.make_vec("NineBall-v0", num_envs=n, opponent=opponent, noise="icga")
    opponent.bind(venv)
    venv.reset(seed=seed)
    return opponent, venv


def test_opponent_is_fixed_for_a_rack_and_redrawn_on_reset():
    pool = SnapshotPool(capacity=8)
    assert SelfPlayOpponent(pool).snapshot is None  # empty pool: GhostBall
    for b in np.linspace(-0.9, 0.9, 8):
        pool.add(_policy(float(b)))
    opponent, venv = _bound(3, pool)
    assert all(env.opponent is opponent for env in venv.unwrapped.envs)  # one opponent for every table
    first = dict(opponent.snapshots)
    assert sorted(first) == [0, 1, 2] and all(s is not None for s in first.values())
    rng = np.random.default_rng(0)
    ended = np.zeros(3, dtype=bool)
    for _ in range(3):  # within the rack the snapshot stays
        _, _, term, trunc, _ = venv.step(rng.uniform(-1, 1, (3, 9)))
        ended |= term | trunc
        for k in range(3):
            if not ended[k]:
                assert opponent.snapshots[k] is first[k]
    draws = set()
    for seed in range(10):  # each reset (a new rack) draws again
        venv.reset(seed=100 + seed)
        draws |= {id(s) for s in opponent.snapshots.values()}
    assert len(draws) > 3
    # the draw is the table's: the same seeds deal the same snapshots
    again, venv2 = _bound(3, pool, seed=100 + 9)
    assert [again.snapshots[k] for k in range(3)] == [opponent.snapshots[k] for k in range(3)]


def _varied_policy(seed: int) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    return NumpyPolicy([rng.normal(0, 0.3, (MACRO_OBS_SIZE, 16)), rng.normal(0, 0.3, (16, MACRO_DIM))],
                       [rng.normal(0, 0.1, 16), rng.normal(0, 0.3, MACRO_DIM)], "tanh", -np.ones(MACRO_DIM),
                       np.ones(MACRO_DIM))


def test_batched_opponent_plays_as_each_table_alone_and_is_asked_once_per_round():
    from agents.learned.agent import LearnedAgent

    pool = SnapshotPool(capacity=2)
    pool.add(_varied_policy(1))
    pool.add(_varied_policy(2))
    opponent, venv = _bound(6, pool, seed=11)
    asked: list[tuple[np.ndarray, list, np.ndarray]] = []
    inner = opponent.act_batch

    def recorded(obs):
        out = inner(obs)
        asked.append((obs.copy(), [opponent.snapshots[k] for k in opponent._encoded.tolist()], out.copy()))
        return out

    opponent.act_batch = recorded  # type: ignore[method-assign]
    rng = np.random.default_rng(3)
    for _ in range(6):
        venv.step(rng.uniform(-1, 1, (6, 9)))
    assert asked and max(len(obs) for obs, _, _ in asked) > 1  # several tables answered in one call
    assert any(len({id(s) for s in snaps}) == 2 for _, snaps, _ in asked)  # both snapshots within one call
    for obs, snaps, out in asked:
        for row in range(len(obs)):
            alone = LearnedAgent(snaps[row]).act(obs[row])
            np.testing.assert_allclose(out[row], alone, atol=2e-6)
    with pytest.raises(RuntimeError, match="bound vector env"):
        inner(np.concatenate([asked[0][0], asked[0][0]]))  # rows that are not the last round's
    with pytest.raises(ValueError, match="built with this opponent"):
        SelfPlayOpponent(pool).bind(venv)


@pytest.mark.extra("train")
def test_tiny_self_play_training_adds_snapshots(tmp_path):
    from agents.training.ppo import Args, train

    args = Args(total_timesteps=96, n_envs=2, n_steps=16, batch_size=32, n_epochs=1, opponent="selfplay",
                snapshot_every=1, pool_size=2, checkpoint_freq=10**6, runs_dir=str(tmp_path / "runs"),
                checkpoints_dir=str(tmp_path / "ck"), progress_bar=False)
    assert train(args).exists()


@pytest.mark.extra("train")
def test_training_logs_evaluations_with_intervals(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from agents.training.ppo import Args, train

    args = Args(total_timesteps=64, n_envs=2, n_steps=16, batch_size=32, n_epochs=1, opponent="random",
                eval_freq=32, eval_matches=1, eval_race=1, eval_search_every=2, checkpoint_freq=10**6,
                runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"), progress_bar=False)
    train(args)
    (run,) = (tmp_path / "runs").iterdir()
    events = EventAccumulator(str(run))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"eval/ghost_rack_rate", "eval/ghost_rack_rate_lo", "eval/ghost_rack_rate_hi"} <= tags
    assert "eval/search_rack_rate" in tags  # the second evaluation also played Search
    ghost = [e.value for e in events.Scalars("eval/ghost_rack_rate")]
    lo = [e.value for e in events.Scalars("eval/ghost_rack_rate_lo")]
    hi = [e.value for e in events.Scalars("eval/ghost_rack_rate_hi")]
    assert len(ghost) == 2 and all(0.0 <= a <= p <= b <= 1.0 for a, p, b in zip(lo, ghost, hi))
