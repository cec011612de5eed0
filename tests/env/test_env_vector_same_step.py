"""NineBallVectorEnv's SAME_STEP autoreset: a finished table's new rack dealt and opened in the step that ended its
episode, the final observation and info aside; table by table the same racks, decisions and rewards as NEXT_STEP."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import nineball_env  # noqa: F401  (registers NineBall-v0)
from nineball_env.vector import NineBallVectorEnv

SAME = AutoresetMode.SAME_STEP


def _equal(x, y) -> bool:
    """Equal values, NaN equal to NaN, arrays and tuples element by element, dicts key by key in order."""
    if isinstance(x, dict) and isinstance(y, dict):
        return list(x) == list(y) and all(_equal(x[k], y[k]) for k in x)
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return type(x) is type(y) and len(x) == len(y) and all(_equal(u, v) for u, v in zip(x, y))
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype == object or y.dtype == object:
            return x.shape == y.shape and all(_equal(u, v) for u, v in zip(x.ravel(), y.ravel()))
        return x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
    return x == y or (x != x and y != y)


def _row(infos: dict, k: int) -> dict:
    """Table k's values of vector infos (``_key`` masks and the final ones dropped)."""
    return {key: _row(v, k) if isinstance(v, dict) else v[k] for key, v in infos.items()
            if not key.startswith("_") and key not in ("final_obs", "final_info")}


def _opponent(kind: str):
    if kind == "aiming":
        return None  # the compiled default
    if kind == "ghost":
        from agents.players.ghost_ball import GhostBallAgent
        return GhostBallAgent()  # shared, one batched query per round
    if kind == "random":
        from agents.players.random_agent import RandomAgent
        return RandomAgent(1)  # copied per table, asked row by row
    from test_env_vector_native import _WinsFirstBreaks  # wins its first breaks outright: redeals
    return _WinsFirstBreaks()


def _trace(mode: AutoresetMode, opponent: str, steps: int, B: int = 4, **kw) -> list[list[tuple]]:
    """Per table, what it went through: ("step", obs, reward, terminated, truncated, readable info, array info) per
    learner decision and ("reset", obs, readable info, array info) per deal. Table k's decisions are the actions of
    its own generator, in order, whatever the mode."""
    venv = NineBallVectorEnv(B, opponent=_opponent(opponent), autoreset_mode=mode, **kw)
    assert venv.autoreset_mode is mode and venv.metadata["autoreset_mode"] is mode
    rngs = [np.random.default_rng(100 + k) for k in range(B)]
    obs, info = venv.reset(seed=9)
    out = [[("reset", obs[k], venv.table_info(k), _row(info, k))] for k in range(B)]
    pending = np.zeros(B, dtype=bool)  # NEXT_STEP: the table resets this step
    for _ in range(steps):
        acts = np.zeros((B, 9), dtype=np.float32)
        for k in range(B):
            if not pending[k]:
                acts[k] = rngs[k].uniform(-1, 1, 9)
        obs, reward, term, trunc, info = venv.step(acts)
        ended = term | trunc
        for k in range(B):
            if pending[k]:
                assert reward[k] == 0.0 and not ended[k]
                out[k].append(("reset", obs[k], venv.table_info(k), _row(info, k)))
                continue
            if mode is SAME and ended[k]:
                final = _row(info["final_info"], k)
                out[k].append(("step", info["final_obs"][k], reward[k], term[k], trunc[k], venv.final_table_info(k),
                               final))
                out[k].append(("reset", obs[k], venv.table_info(k), _row(info, k)))
            else:
                out[k].append(("step", obs[k], reward[k], term[k], trunc[k], venv.table_info(k), _row(info, k)))
        if mode is SAME:
            assert set(info) >= {"final_obs", "_final_obs", "final_info", "_final_info"} or not ended.any()
            if ended.any():
                assert info["_final_obs"].tolist() == ended.tolist() == info["_final_info"].tolist()
                assert all((o is None) != e for o, e in zip(info["final_obs"], ended))
        else:
            pending = ended
    return out


@pytest.mark.parametrize("opponent, kw", [
    ("aiming", dict(noise="icga", max_episode_steps=4)),
    ("ghost", dict(noise="icga", max_episode_steps=5)),
    ("random", dict(noise="icga", max_episode_steps=4, match_race=2)),
    ("redeals", dict(first_breaker="opponent", max_episode_steps=3)),
])
def test_same_step_plays_what_next_step_plays(opponent, kw):
    """Seeded alike, SAME_STEP and NEXT_STEP give every table the same racks, observations, rewards, ends and infos
    (readable and arrays), with the compiled aiming opponent and with Python ones (a shared batched GhostBall, a
    per-table RandomAgent, one that wins deals outright so they are dealt again)."""
    nxt = _trace(AutoresetMode.NEXT_STEP, opponent, 16, **kw)
    same = _trace(SAME, opponent, 12, **kw)
    ends = 0
    for a, b in zip(nxt, same):
        n = min(len(a), len(b))
        assert n >= 12
        for x, y in zip(a[:n], b[:n]):
            assert x[0] == y[0] and _equal(x[1:], y[1:]), (x, y)
            ends += x[0] == "reset"
    assert ends > 4  # episodes ended, on terminations and truncations
    if opponent == "redeals":
        assert any(x[0] == "reset" and x[2]["redeals"] > 0 for t in same for x in t[1:])


def test_same_step_final_obs_and_info():
    """The step that ends a table's episode returns its new rack's observation and info; the final observation and
    info are under final_obs / final_info (masked), and final_table_info(k) is the readable final info."""
    venv = gym.make_vec("NineBall-v0", num_envs=3, max_episode_steps=2, autoreset_mode="SameStep")
    assert isinstance(venv, NineBallVectorEnv) and venv.metadata["autoreset_mode"] is SAME
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    _, _, term, trunc, info = venv.step(rng.uniform(-1, 1, (3, 9)))
    if not (term | trunc).any():
        assert "final_obs" not in info and "final_info" not in info
        with pytest.raises(ValueError, match="did not end"):
            venv.final_table_info(0)
        obs, reward, term, trunc, info = venv.step(rng.uniform(-1, 1, (3, 9)))
    assert trunc.all() or (term | trunc).all()  # the 2-step limit at the latest
    ended = term | trunc
    assert info["_final_obs"].all() and info["final_info"]["_ruling"].all()
    for k in range(3):
        assert info["final_obs"][k].shape == (54,) and info["final_obs"][k].dtype == np.float32
        final = venv.final_table_info(k)
        assert final["reward_parts"] == {p: float(v[k]) for p, v in info["final_info"]["reward_parts"].items()
                                         if not p.startswith("_")}
        assert sum(final["reward_parts"].values()) == pytest.approx(reward[k])
        assert venv.table_info(k)["n_events"] == 0 and info["n_events"][k] == 0  # the new rack's reset info
    assert ended.all() and (venv.unwrapped._elapsed == 0).all()
    obs2, *_ = venv.step(rng.uniform(-1, 1, (3, 9)))  # the new racks play on
    assert obs2.shape == (3, 54)


def test_autoreset_mode_option():
    """NEXT_STEP stays the default; SAME_STEP is offered by member or value; anything else is a clear ValueError;
    switching modes is refused while a table awaits a NEXT_STEP autoreset."""
    assert gym.make_vec("NineBall-v0", num_envs=2).metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert NineBallVectorEnv(2, autoreset_mode=SAME).metadata["autoreset_mode"] is SAME
    assert NineBallVectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP  # the class keeps its default
    for bad in ("same_step", "Disabled", AutoresetMode.DISABLED, 1, None):
        with pytest.raises(ValueError, match="autoreset_mode: expected AutoresetMode.NEXT_STEP or"):
            NineBallVectorEnv(2, autoreset_mode=bad)
    venv = NineBallVectorEnv(2, max_episode_steps=1)
    with pytest.raises(ValueError, match="autoreset_mode"):
        venv.autoreset_mode = "sameStep"
    venv.reset(seed=0)
    venv.step(np.zeros((2, 9)))  # both truncated: they await their autoreset
    with pytest.raises(RuntimeError, match="await"):
        venv.autoreset_mode = SAME
    venv.step(np.zeros((2, 9)))
    venv.autoreset_mode = "SameStep"
    assert venv.metadata["autoreset_mode"] is SAME
    _, _, _, trunc, info = venv.step(np.zeros((2, 9)))
    assert trunc.all() and info["_final_obs"].all()
