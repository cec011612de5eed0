"""NineBallVectorEnv infos: arrays read off the compiled turn's records, and each table's readable info (the single
env's, ruling texts included) on request (``table_info``)."""

from __future__ import annotations

import math

import numpy as np

from nineball_env.rules.ruling import foul_rules


def _equal(x, y) -> bool:
    """Equal values, NaN equal to NaN, tuples element by element."""
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(_equal(u, v) for u, v in zip(x, y))
    if isinstance(x, dict) and isinstance(y, dict):
        return list(x) == list(y) and all(_equal(x[k], y[k]) for k in x)
    return x == y or (x != x and y != y)


def _arrays_say(info: dict, k: int, readable: dict) -> None:
    """The arrays of ``info`` for table k tell what its readable info says."""
    r, one = info["ruling"], readable["ruling"]
    assert r["declaration"][k] == one["declaration"] and bool(r["foul"][k]) == one["foul"]
    assert tuple(str(f) for f in foul_rules(int(r["fouls"][k]))) == one["fouls"]
    cited = [c for c in r["cited"][k].tolist() if c >= 0]
    assert len(cited) == len(one["cited"])
    one = readable
    assert tuple(b for b in info["pocketed"][k].tolist() if b >= 0) == one["pocketed"]
    assert all(math.isnan(a) and math.isnan(b) or a == b for a, b in zip(info["placement"][k], one["placement"]))
    assert bool(info["placement_adjusted"][k]) == one["placement_adjusted"] and info["n_events"][k] == one["n_events"]
    assert bool(info["voided"][k]) == one["voided"]
    opp = info["opponent"]
    assert opp["decisions"][k] == one["opponent"]["decisions"] and opp["fouls"][k] == one["opponent"]["fouls"]
    assert opp["pocketed"][k].tolist() == [one["opponent"]["pocketed"].count(b) for b in range(10)]
    assert info["phase"][k] == one["phase"] and info["ball_in_hand"][k] == one["ball_in_hand"]
    assert tuple(info["foul_counts"][k].tolist()) == one["foul_counts"]
    assert tuple(info["score"][k].tolist()) == one["score"]
    assert info["racks"][k].tolist() == [one["racks"].count("learner"), one["racks"].count("opponent")]
    assert info["redeals"][k] == one["redeals"]
    parts = {p: float(v[k]) for p, v in info["reward_parts"].items() if not p.startswith("_")}
    assert parts == readable["reward_parts"]


def test_infos_are_arrays_that_equal_the_single_envs_infos() -> None:
    """Every step's infos (ruling texts, opponent rulings, racks, reward parts, reset infos on autoreset) equal the
    single envs' infos table by table, with noise, a race to 2 and reward shaping; the arrays tell the same."""
    import gymnasium as gym

    from nineball_env.vector import NineBallVectorEnv

    B, kw = 3, dict(noise="icga", match_race=2, reward_shaping={"pot": 0.1, "foul": -0.2, "opponent_pot": -0.05})
    venv = NineBallVectorEnv(B, max_episode_steps=30, **kw)
    singles = [gym.make("NineBall-v0", max_episode_steps=30, **kw) for _ in range(B)]
    _, info = venv.reset(seed=21)
    for k, env in enumerate(singles):
        one = env.reset(seed=21 + k)[1]
        assert _equal(venv.table_info(k), one)
        _arrays_say(info, k, one)
        assert info["_ruling"][k] and info["ruling"]["_foul"][k]
    rng, done, texts = np.random.default_rng(2), [False] * B, 0
    for _ in range(40):
        acts = rng.uniform(-1, 1, (B, 9))
        _, reward, term, trunc, info = venv.step(acts)
        for k, env in enumerate(singles):
            if done[k]:
                one, done[k] = env.reset()[1], False
                assert reward[k] == 0.0 and not term[k] and not trunc[k]
            else:
                _, r, te, tr, one = env.step(acts[k])
                done[k] = te or tr
                assert (reward[k], term[k], trunc[k]) == (r, te, tr)
            assert _equal(venv.table_info(k), one)
            _arrays_say(info, k, one)
            texts += len(one["opponent"]["rulings"])
    assert texts > 20


def test_infos_have_the_same_keys_and_types_every_step() -> None:
    """SB3 and Gymnasium's wrappers want the same keys every step: the infos of a step and of a reset agree, and
    a masked reset marks only its tables."""
    from nineball_env.vector import NineBallVectorEnv

    def shape(info: dict) -> dict:
        return {k: shape(v) if isinstance(v, dict) else (v.dtype, v.shape) for k, v in info.items()}

    venv = NineBallVectorEnv(4, match_race=2)
    _, first = venv.reset(seed=3)
    stepped = venv.step(np.zeros((4, 9)))[4]
    assert shape(stepped) == shape(first)
    _, again = venv.reset(options={"reset_mask": np.array([True, False, True, False])})
    assert shape(first) == shape(again)
    assert again["_phase"].tolist() == [True, False, True, False] and again["opponent"]["_fouls"].tolist() == [
        True, False, True, False]


def test_without_array_infos_steps_and_resets_return_no_infos_of_the_env_and_play_the_same() -> None:
    """``array_infos = False`` (the SB3 adapter's setting) skips the arrays, every step and reset alike, and changes
    nothing else: the same observations and rewards, and ``table_info`` as before."""
    from nineball_env.vector import NineBallVectorEnv

    plain, bare = NineBallVectorEnv(3), NineBallVectorEnv(3)
    bare.array_infos = False
    (a, _), (b, none) = plain.reset(seed=5), bare.reset(seed=5)
    assert none == {} and np.array_equal(a, b)
    acts = np.random.default_rng(0).uniform(-1, 1, (6, 3, 9))
    for act in acts:
        one, two = plain.step(act), bare.step(act)
        assert two[4] == {} and all(np.array_equal(x, y) for x, y in zip(one[:4], two[:4]))
        assert all(_equal(plain.table_info(k), bare.table_info(k)) for k in range(3))
    assert bare.reset(options={"reset_mask": np.array([True, False, True])})[1] == {}


def test_table_infos_in_one_pass_equal_table_info_table_by_table() -> None:
    """``table_infos`` (every table, or some) and ``final_table_infos`` read all tables at once and give what
    ``table_info`` / ``final_table_info`` give one table at a time, as fresh dicts (an info is the caller's to
    change), with a Python opponent, a race to 2, shaping and same-step autoresets."""
    import gymnasium as gym

    from agents.players.random_agent import RandomAgent

    B = 5
    venv = gym.make_vec("NineBall-v0", num_envs=B, max_episode_steps=4, autoreset_mode="SameStep", noise="icga",
                        match_race=2, opponent=RandomAgent(seed=4), reward_shaping={"pot": 0.1, "opponent_foul": 0.2})
    venv.reset(seed=8)
    assert all(_equal(a, venv.table_info(k)) for k, a in enumerate(venv.table_infos()))
    rng, finals, placed = np.random.default_rng(1), 0, 0
    for _ in range(25):
        venv.step(rng.uniform(-1, 1, (B, 9)))
        every = venv.table_infos()
        assert all(_equal(a, venv.table_info(k)) for k, a in enumerate(every))
        assert all(_equal(a, venv.table_info(k)) for k, a in zip([3, 1], venv.table_infos([3, 1])))
        assert venv.table_infos([]) == []
        ended = np.flatnonzero(venv._finals.mask).tolist() if venv._finals is not None else []
        assert all(_equal(a, venv.final_table_info(k)) for k, a in zip(ended, venv.final_table_infos(ended)))
        finals += len(ended)
        placed += sum(not math.isnan(a["placement"][0]) for a in every)
        every[0]["reward_parts"]["rack"] = 7.0
        every[0]["opponent"]["decisions"] = -1
        assert venv.table_info(0)["reward_parts"]["rack"] != 7.0 and venv.table_info(0)["opponent"]["decisions"] >= 0
    assert finals > 5 and placed > 3
