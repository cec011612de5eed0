"""GhostBall decides many tables at once (``act_batch``) exactly as it decides one (``act``), and as it did.

``data/ghost_decisions.npz`` holds recorded decisions (f99e323, before GhostBall was batched): 236 observations of
a vector env with GhostBall as the opponent (noise icga, and none) and 83 ``TableView``s of seeded ghost-vs-ghost
matches (noise icga), a stratified sample over every intent, with the actions and intents that code gave.
"""

import copy
from pathlib import Path

import numpy as np
import pytest

from agents.players.ghost_ball import GhostBallAgent, GhostBallConfig
from agents.protocol import INTENTS, TableView, observed_layouts
from agents.shots import round_kernels as RK
from agents.shots.aim import corrected_phis
from agents.shots.outcome import settled
from agents.shots.pots import PotOption, cue_spot_rows, cue_spots
from nineball_env import observation
from nineball_env.noise import make_noise
from nineball_env.vector import NineBallVectorEnv
from nineball_env.rules import RackState
import physics
from physics import DEFAULT_PARAMS, BallState

DATA = np.load(Path(__file__).parent / "data" / "ghost_decisions.npz")


def _views() -> list[TableView]:
    return [TableView(BallState.from_packed(s), RackState.from_packed(r), int(p), noise=make_noise("icga"))
            for s, r, p in zip(DATA["view_states"], DATA["view_racks"], DATA["view_players"])]


def test_the_recorded_sample_covers_every_intent():
    assert set(DATA["obs_intents"]) | set(DATA["view_intents"]) == set(INTENTS)


def test_the_round_kernels_intent_codes_name_every_intent_once():
    assert sorted(RK.INTENT_NAMES) == sorted(INTENTS)


def test_act_gives_the_recorded_actions_bit_for_bit():
    agent = GhostBallAgent()
    for obs, want, intent in zip(DATA["obs"], DATA["obs_actions"], DATA["obs_intents"]):
        assert np.array_equal(agent.act(obs), want) and agent.intent == intent
    for view, want, intent in zip(_views(), DATA["view_actions"], DATA["view_intents"]):
        assert np.array_equal(agent.act(None, view), want) and agent.intent == intent


@pytest.mark.parametrize("rows", [2, 8, 64])
def test_act_batch_equals_act_row_by_row(rows):
    batch, single = GhostBallAgent(), GhostBallAgent()
    obs = DATA["obs"]
    for start in range(0, len(obs), rows):
        chunk = obs[start:start + rows]
        got = batch.act_batch(chunk)
        assert got.shape == (len(chunk), 9)
        for row, action, intent in zip(chunk, got, batch.intents):
            assert np.array_equal(single.act(row), action) and single.intent == intent
    assert batch.jumps == single.jumps and sum(batch.jumps.values()) > 0


def test_a_new_config_decides_the_next_round_of_the_same_size():
    """The kernel arguments a round builds are kept per batch size and reused only while every input is the same
    object: an agent given another config decides as a fresh agent with it."""
    obs = DATA["obs"][:8]
    agent = GhostBallAgent()
    default = agent.act_batch(obs)
    changed = False
    for config in (GhostBallConfig(jumps=False), GhostBallConfig(correct_throw=False), GhostBallConfig()):
        agent.config = config
        got = agent.act_batch(obs)
        assert np.array_equal(got, GhostBallAgent(config).act_batch(obs))
        changed |= not np.array_equal(got, default)
    assert changed and np.array_equal(got, default)


def test_a_config_with_more_jump_samples_gets_room_for_their_worths():
    """The round's buffers are kept per batch size: a config with other ``jump_samples`` gets buffers of its width
    (a kept narrower ``known`` had the kernel read past its rows)."""
    from agents.players.ghost_ball import _known_width

    obs = DATA["obs"][:8]
    agent = GhostBallAgent()
    agent.act_batch(obs)
    agent.config = GhostBallConfig(jump_samples=16)
    got = agent.act_batch(obs)
    assert agent._work[len(obs)][0].shape[1] == _known_width(16) > _known_width(8)
    assert np.array_equal(got, GhostBallAgent(GhostBallConfig(jump_samples=16)).act_batch(obs))


def test_act_batch_of_no_rows():
    assert GhostBallAgent().act_batch(np.zeros((0, 54), dtype=np.float32)).shape == (0, 9)


def test_observed_layouts_rejects_a_wrong_shape():
    with pytest.raises(ValueError, match="obs: expected shape"):
        observed_layouts(np.zeros((3, 50), dtype=np.float32))


def test_observed_layouts_separates_overlapping_balls():
    obs = DATA["obs"][:1].copy()
    obs[0, 0:4] = (0.5, 0.5, 0.5, 0.5)  # the cue ball and the 1 at the same point
    obs[0, 20:22] = 1.0
    pos, on = observed_layouts(obs)
    R = DEFAULT_PARAMS.R
    assert on[0, 0] and on[0, 1]
    assert np.hypot(*(pos[0, 1] - pos[0, 0])) >= 2.0 * R


def test_decide_batch_rejects_views_of_different_tables():
    views = _views()[:2]
    other = TableView(views[1].balls, views[1].rack, views[1].player, params=physics.PhysicsParams(u_r=0.02),
                      noise=views[1].noise)
    with pytest.raises(ValueError, match="views: expected one table"):
        GhostBallAgent().decide_batch([views[0], other])


def test_a_vector_env_asks_one_ghost_for_all_its_tables():
    ghost = GhostBallAgent()
    venv = NineBallVectorEnv(4, opponent=ghost, noise="icga")
    assert all(seat.opponent is ghost for seat in venv.seats)
    sizes = []
    act_batch = ghost.act_batch

    def counted(obs):
        sizes.append(len(obs))
        return act_batch(obs)

    ghost.act_batch = counted
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        venv.step(rng.uniform(-1, 1, (4, 9)))
    assert max(sizes) > 1


def test_cue_spot_rows_of_many_layouts_are_cue_spots_of_each():
    views = [v for v in _views()][:12] + [TableView.from_observation(o) for o in DATA["obs"][:12]]
    views = [v for v in views if v.rack.phase.value != "break"]
    found = cue_spot_rows([v.balls.pos for v in views], [v.on for v in views], [v.rack.lowest for v in views],
                          sigma_phi=[0.125] * len(views))
    assert sum(len(points) for points, _ in found) > 0
    for view, (points, rows) in zip(views, found):
        one = cue_spots(view.balls.pos, view.on, view.rack.lowest)
        assert [spot for spot, _ in one] == [tuple(p) for p in points.tolist()]
        assert [o for _, o in one] == [PotOption.from_row(r) for r in rows]
    with pytest.raises(ValueError, match="pos, on, lowest, sigma_phi"):
        cue_spot_rows([views[0].balls.pos], [views[0].on], [1, 2], sigma_phi=[0.1])


def test_settled_states_are_the_physics_final_states_and_a_refused_layout_raises():
    state = physics.place_balls({0: (0.6, 1.0), 1: (0.6, 1.5), 9: (0.3, 2.0)})
    shots = [physics.Shot(V0=1.5, phi=90.0), physics.Shot(V0=0.8, phi=30.0)]
    ends = settled([state], [0, 0], shots, physics.DEFAULT_TABLE, DEFAULT_PARAMS, max_events=256, max_time=20.0)
    for end, shot in zip(ends, shots):
        want = physics.simulate(state, shot, max_events=256, max_time=20.0).state.packed()
        assert np.array_equal(end, want)
    overlap = physics.place_balls({0: (0.6, 1.0), 1: (0.6, 1.0 + DEFAULT_PARAMS.R)})
    with pytest.raises(ValueError):
        settled([overlap], [0], shots[:1], physics.DEFAULT_TABLE, DEFAULT_PARAMS, max_events=256, max_time=20.0)


def test_views_of_observations_read_the_rack_and_refuse_a_rack_that_is_over():
    obs = DATA["obs"][:8]
    for row, view in zip(obs, TableView.from_observations(obs)):
        o = observation.decode(row)
        assert view.rack.phase.value == o["phase"] and view.rack.ball_in_hand.value == o["in_hand"]
        assert view.rack.breaker == (0 if o["breaker"] else 1) and view.rack.foul_counts == o["fouls"]
        assert view.rack.on_table == frozenset(b for b in range(1, 10) if o["on_table"][b])
    over = obs.copy()
    over[3, observation.LAYOUT["phase"]] = 0.0
    with pytest.raises(ValueError, match="the rack is over"):
        TableView.from_observations(over)


def test_a_ghost_ball_agent_deep_copies_like_any_object_and_a_vector_env_still_shares_it() -> None:
    """The vector env shares an opponent with ``act_batch`` by its own rule; deepcopy is not bent to do it."""
    agent = GhostBallAgent()
    assert copy.deepcopy(agent) is not agent
    envs = NineBallVectorEnv(3, threads=1, opponent=agent)
    assert all(seat.opponent is agent for seat in envs.seats)


def _reference_jumps(agent: GhostBallAgent, rows, which, cues, safeties, finalists=4):
    """GhostBall's jump choice with every simulation run (as before ``round_kernels.jump_round`` skipped the ones that
    cannot change it): all candidates ruled, the best ``finalists`` of worth > 0 (stable), each and the safety
    sampled ``jump_samples`` times with the fixed draws, the best mean if it beats the safety's."""
    from agents.players import ghost_ball as G
    from agents.shots.jumps import jump_rows
    from nineball_env.noise import LIMITS

    n, t, p = agent.config.jump_samples, rows.table, rows.params
    found, pockets, _, counts = jump_rows(cues, rows.pos[which], rows.on[which], rows.lowest[which], t, p,
                                          rows.scale[which, 2], rows.scale[which, 1])
    e = G._normals((finalists + 1) * n)
    strikes, kind = np.zeros((len(which), 5)), np.full(len(which), -1)
    for r in range(len(which)):
        if not counts[r]:
            continue
        states, racks = rows.states(which[r:r + 1], cues[r:r + 1]), rows.shot_racks(which[r:r + 1])
        shots = found[r, :counts[r]]
        values = agent._worth(states, racks, np.zeros(len(shots), dtype=np.int64), shots, t, p)
        finals = [q for q in np.argsort(-values, kind="stable")[:finalists] if values[q] > 0]
        if not finals:
            continue
        bases = [safeties[r]] + [shots[q] for q in finals]
        samples = np.array([base if rows.silent[which[r]] else RK.perturbed(*base, e[j * n + s], rows.noise[which[r]],
                                                                           p.R, LIMITS)
                            for j, base in enumerate(bases) for s in range(n)])
        means = agent._worth(states, racks, np.zeros(len(samples), dtype=np.int64), samples, t, p).reshape(-1, n)
        means = means.mean(axis=1)
        top = int(np.argmax(means[1:]))
        if means[1 + top] > means[0]:
            strikes[r], kind[r] = shots[finals[top]], int(pockets[r, finals[top]] >= 0)
    return strikes, kind


@pytest.mark.parametrize("max_events", [1000, 12])
def test_the_jumps_choose_as_if_every_sample_were_simulated(monkeypatch, max_events):
    # jump_round stops simulating a finalist that cannot win and the safety once the choice is settled: the same
    # choices as all the simulations (12 events: most jumps stop in the air, ruled again with the largest caps). The
    # rows that may jump, their cue balls and safeties come from the same round without jumps.
    from agents.players import ghost_ball as G

    monkeypatch.setattr(G, "JUMP_MAX_EVENTS", max_events)
    G._sim_constants.cache_clear()
    G._round_constants.cache_clear()
    agent, plain = GhostBallAgent(), GhostBallAgent(G.GhostBallConfig(jumps=False))
    replays = []
    worth = agent._worth

    def counted(*args):
        replays.append(len(args[2]))
        return worth(*args)

    monkeypatch.setattr(agent, "_worth", counted)
    try:
        rounds = []
        for rows, decide in ((G._Rows.from_observations(DATA["obs"], make_noise("icga")),
                              lambda who: who.decide_observations(DATA["obs"])),
                             (G._Rows.from_views(_views()), lambda who: who.decide_batch(_views()))):
            _, plain_intents = decide(plain)
            _, intents = decide(agent)
            n = len(rows.pos)
            shots, stage, cues = plain._work[n][2].copy(), plain._work[n][8].copy(), plain._work[n][9].copy()
            rounds.append((rows, plain_intents, shots, stage, cues, intents, agent._work[n][2].copy()))
        n_replays = len(replays)
    finally:
        G._sim_constants.cache_clear()
        G._round_constants.cache_clear()
    jumped = 0
    for rows, plain_intents, safeties, stage, cues, intents, shots in rounds:
        weak = np.flatnonzero(((stage & RK.ASK_JUMP) != 0) & (plain_intents != "push-out"))
        want_strikes, want_kind = _reference_jumps(agent, rows, weak, cues[weak], safeties[weak])
        names = np.array(["safety", "jump", "jump-pot"])[want_kind + 1]
        np.testing.assert_array_equal(intents[weak], names)
        np.testing.assert_array_equal(shots[weak], np.where((want_kind >= 0)[:, None], want_strikes, safeties[weak]))
        jumped += int(np.count_nonzero(want_kind >= 0))
    assert jumped >= 50
    assert (n_replays > 0) == (max_events < 1000)


def _reference_aim(cue, obj, target, direction, strike, iterations=2):
    """``aim.corrected_phi`` as first written: every iteration the whole two-ball shot (64 events, 2 s)."""
    R, phi, want = DEFAULT_PARAMS.R, strike[1], direction
    for _ in range(iterations):
        state = physics.place_balls({0: tuple(cue), target: tuple(obj)})
        result = physics.simulate(state, physics.Shot(strike[0], phi, *strike[2:]), max_events=64, max_time=2.0)
        first = next((e for e in result.events if e.kind == physics.EventKind.BALL_BALL and 0 in (e.ball_a, e.ball_b)),
                     None)
        if first is None or target not in (first.ball_a, first.ball_b):
            break
        k = result.events.rows
        row = k[list(result.events).index(first)]
        vx, vy = (row[7], row[8]) if int(row[2]) == target else (row[15], row[16])
        if vx == 0.0 and vy == 0.0:
            break
        error = (np.degrees(np.arctan2(vy, vx)) - direction + 180.0) % 360.0 - 180.0
        if abs(error) < 0.01:
            break
        want -= error
        gx, gy = obj[0] - 2 * R * np.cos(np.radians(want)), obj[1] - 2 * R * np.sin(np.radians(want))
        phi = np.degrees(np.arctan2(gy - cue[1], gx - cue[0]))
    return phi


def test_the_throw_corrected_aims_equal_whole_simulations():
    # the aim simulates the first AIM_FIRST_EVENTS events first (the cue ball's first contact), all of them only when
    # the contact is not there: the same aims as whole simulations
    from agents.players import ghost_ball as G
    from agents.shots import kernels as K

    cfg = G.GhostBallConfig(correct_throw=False)
    rows = G._Rows.from_observations(DATA["obs"], make_noise("icga"))
    n = len(DATA["obs"])
    shots, spots, cues, best = np.empty((n, 5)), np.empty((n, 2)), np.empty((n, 2)), np.empty((n, K.OPT_W))
    flags = [np.empty(n, dtype=np.bool_) for _ in range(3)]
    intent, stage, out = np.empty(n, np.int64), np.empty(n, np.int64), np.empty((n, 9), np.float32)
    t, p = rows.table, rows.params
    RK.plan_rows(rows.pos, rows.on, rows.lowest, rows.racks, rows.aim, rows.scale, *G._plan_constants(t, p, cfg),
                 G.empty_packed(10), *G._aim_constants(t, p, cfg), shots, flags[0], flags[1], spots, flags[2], intent,
                 stage, cues, best, out)
    pots = np.flatnonzero(intent == RK.POT)
    assert len(pots) > 50
    target = best[pots, K.O_TARGET].astype(np.int64)
    got = corrected_phis(cues[pots], rows.pos[pots, target], target, best[pots, K.O_DIRECTION], shots[pots], t, p)
    want = [_reference_aim(cues[i], rows.pos[i, k], int(k), best[i, K.O_DIRECTION], shots[i]) for i, k in
            zip(pots, target)]
    np.testing.assert_array_equal(got, want)
    assert np.count_nonzero(got != shots[pots, 1]) > 50


def test_act_batch_rows_do_not_depend_on_the_batch_and_its_buffers_are_not_returned():
    # one compiled call decides the round in buffers kept per batch size: a row's action and intent are the recorded
    # ones whatever rows share its batch (shuffled, repeated), and an earlier answer is never overwritten
    agent = GhostBallAgent()
    obs, want, intents = DATA["obs"], DATA["obs_actions"], DATA["obs_intents"]
    got = agent.act_batch(obs)
    assert np.array_equal(got, want) and list(agent.intents) == list(intents)
    order = np.random.default_rng(3).permutation(len(obs))
    again = agent.act_batch(obs[order])
    assert np.array_equal(again, want[order]) and list(agent.intents) == list(intents[order])
    assert np.array_equal(got, want)
    pairs = np.repeat(order[:40], 2)
    assert np.array_equal(agent.act_batch(obs[pairs]), want[pairs])
    over = obs[:8].copy()
    over[5, observation.LAYOUT["phase"]] = 0.0
    with pytest.raises(ValueError, match=r"the rack is over, there is no decision to make \(row 5\)"):
        agent.act_batch(over)
    assert np.array_equal(agent.act_batch(obs[:8]), want[:8])


def test_the_jump_counters_count_the_rounds_jumps():
    agent = GhostBallAgent()
    agent.act_batch(DATA["obs"])
    counted = dict(agent.jumps)
    assert counted == {"jump": int(np.sum(agent.intents == "jump")), "jump-pot": int(np.sum(agent.intents == "jump-pot"))}
    assert counted["jump"] > 0 and counted["jump-pot"] > 0
    agent.decide_batch(_views())
    _, intents = GhostBallAgent().decide_batch(_views())
    assert agent.jumps["jump"] == counted["jump"] + int(np.sum(intents == "jump"))


def test_a_jump_ruled_in_python_never_outlives_its_round_even_when_the_round_raises(monkeypatch):
    # the worths Python rules for jumps a cap stops in the air go into a buffer kept per batch size: a round that
    # raises after one (here a placement with no free spot) must not leave it for the next round of that size
    from agents.protocol import observed

    agent = GhostBallAgent()
    obs = DATA["obs"][:2]
    agent.act_batch(obs)  # builds the buffers of two rows
    known, replay, cues = agent._work[2][0], agent._work[2][1], agent._work[2][9]
    answers = iter([RK.ROUND_REPLAY, RK.ROUND_NO_SPOT])

    def decide_round(*args):
        replay[:] = (0, 3, 2.0, 90.0, 0.0, 0.0, 0.0)
        cues[0] = observed(obs)[0][0, 0]
        return next(answers)

    monkeypatch.setattr(RK, "decide_round", decide_round)
    with pytest.raises(ValueError, match="no free spot"):
        agent.act_batch(obs)
    assert np.isnan(known).all()
    monkeypatch.undo()
    assert np.array_equal(agent.act_batch(obs), DATA["obs_actions"][:2])
