"""The macro layer decides from arrays (no ``TableView`` per table): each row equals the readable decision made from
the row's view, bit for bit.

The readable path, written out here, is what ``MacroPlanner`` did table by table before its decisions came from
arrays: GhostBall's break (``decide``) and ball-in-hand spot (``place``) from the view, each pot slot's ghost-ball shot
(``pots.rolling_speed_for``, one throw-correcting ``corrected_phi``) or GhostBall's ``safety``, refined by the macro
components, encoded by ``actions.shot_to_action``. The observations are GhostBall's recorded decisions
(``data/ghost_decisions.npz``: normal play, ball in hand, breaks, push-outs, choices).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.learned.macro import (AIM_RANGE, MACRO_DIM, N_POTS, N_SLOTS, SAFETY, SPEED_OCTAVES, TIP_A, TIP_B,
                                  MacroPlanner)
from agents.players.ghost_ball import GHOST_MAX_SPEED, GHOST_MIN_SPEED, GhostBallAgent
from agents.protocol import TableView, observed
from agents.shots.aim import corrected_phi
from agents.shots.pots import aim_sigma, rolling_speed_for
from nineball_env import actions
from nineball_env.noise import make_noise
from nineball_env.rules import BallInHand, Phase
from physics import Shot

DECISIONS = np.load(Path(__file__).parent / "data" / "ghost_decisions.npz")
NOISE = make_noise("icga")


def _observations() -> np.ndarray:
    """The recorded observations, each phase included (a few rows flipped to the push-out choice's phase)."""
    return np.ascontiguousarray(DECISIONS["obs"], dtype=np.float32)


def _macros(n: int, seed: int) -> np.ndarray:
    """Random macro actions crowding every slot, the speed and tip ends and the push-out flag."""
    rng = np.random.default_rng(seed)
    u = rng.uniform(-1.0, 1.0, (n, MACRO_DIM))
    u[::3, 0] = -1.0 + (2 * rng.integers(0, N_SLOTS, len(u[::3])) + 1) / N_SLOTS  # each slot's centre
    u[1::5, 2:5] = rng.choice([-1.0, 1.0], (len(u[1::5]), 3))  # speed and tips at their ends
    return u


def _readable_action(planner: MacroPlanner, obs: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, int]:
    """The action and slot of macro action ``u`` on ``obs``, decided from the row's view, table by table."""
    ghost = GhostBallAgent()
    view = TableView.from_observation(obs, noise=NOISE)
    phase = view.rack.phase
    if phase is Phase.PUSH_OUT_CHOICE:
        return actions.choice_action(pass_back=bool(u[5] > 0.0)), -1
    if phase is Phase.BREAK:
        return ghost.decide(view), -1
    spot = np.asarray(ghost.place(view), dtype=float) if view.cue_in_hand else None
    cue = spot if spot is not None else view.balls.pos[0]
    _, _, pots = planner.slots(obs)
    slot = min(int((u[0] + 1.0) / 2.0 * N_SLOTS), N_SLOTS - 1)
    if slot < N_POTS and pots[slot] is None:
        slot = 0 if pots[0] is not None else SAFETY
    factor = 2.0 ** (SPEED_OCTAVES * u[2])
    a, b = TIP_A * u[4], TIP_B * u[3]
    if slot == SAFETY:
        base = ghost.safety(view, cue)
        shot = Shot(V0=min(max(base.V0 * factor, GHOST_MIN_SPEED), GHOST_MAX_SPEED), phi=base.phi + AIM_RANGE * u[1],
                    a=a, b=b)
    else:
        o = pots[slot]
        V = min(max(rolling_speed_for(o.d_cue, o.d_obj, o.cut, 0.6) * factor, GHOST_MIN_SPEED), GHOST_MAX_SPEED)
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        phi = corrected_phi(state, cue, o.target, o.direction, Shot(V0=V, phi=o.phi, a=a, b=b), iterations=1)
        shot = Shot(V0=V, phi=phi + AIM_RANGE * u[1], a=a, b=b)
    placement = (float(spot[0]), float(spot[1])) if spot is not None else None
    return actions.shot_to_action(shot, placement=placement,
                                  ball_in_hand=str(view.rack.ball_in_hand) if placement else "anywhere",
                                  push_out=phase is Phase.PUSH_OUT_ALLOWED and bool(u[5] > 0.0)), slot


def test_macro_actions_from_arrays_equal_the_readable_decisions_row_by_row():
    obs = _observations()
    macros = _macros(len(obs), seed=3)
    planner = MacroPlanner(cache_size=2 * len(obs))
    got, slots = planner.actions_batch(obs, macros)
    phases, kinds = set(), set()
    for k in range(len(obs)):
        want, slot = _readable_action(MacroPlanner(), obs[k], np.clip(macros[k], -1.0, 1.0))
        np.testing.assert_array_equal(got[k], want, err_msg=f"row {k}")
        assert slots[k] == slot, k
        phases.add(planner.slots(obs[k])[0].rack.phase)
        kinds.add(slot)
    assert {Phase.BREAK, Phase.NORMAL, Phase.PUSH_OUT_ALLOWED} <= phases  # the rows cover what they should
    assert {0, SAFETY} <= kinds


def test_ghost_spots_and_breaks_from_arrays_equal_those_from_views():
    obs = _observations()
    views = TableView.from_observations(obs, noise=NOISE)
    ghost = GhostBallAgent()
    pos, on, _, lowest = observed(obs)
    spots = ghost.place_layouts(pos, on, lowest, views[0].table, views[0].params,
                                np.full(len(obs), aim_sigma(NOISE)))
    assert [tuple(row) for row in spots.tolist()] == ghost.place_batch(views)
    want, want_intents = ghost.decide_batch(views)
    got, intents = ghost.decide_observations(obs, noise=NOISE)
    np.testing.assert_array_equal(got, want)
    assert intents.tolist() == want_intents.tolist()
    assert "break" in intents.tolist()


def test_macro_shots_from_arrays_equal_readable_shots_for_every_slot():
    # every slot of every deciding row, at the speed and tip ends too: the strikes the leave features value
    obs = _observations()
    planner = MacroPlanner(cache_size=2 * len(obs))
    deciding = [k for k in range(len(obs)) if planner.slots(obs[k])[0].rack.phase in (Phase.NORMAL,
                                                                                       Phase.PUSH_OUT_ALLOWED)]
    for k in deciding[::4]:
        for slot in range(N_SLOTS):
            for speed, tip in ((-1.0, -1.0), (0.0, 0.5), (1.0, 1.0)):
                u = np.array([-1.0 + (2 * slot + 1) / N_SLOTS, 0.3, speed, tip, -tip, 1.0])
                want, _ = _readable_action(planner, obs[k], u)
                np.testing.assert_array_equal(planner.action(obs[k], u), want, err_msg=f"row {k} slot {slot}")


def test_the_slot_table_never_reuses_a_row_the_batch_reads():
    # a small cache fed overlapping batches (rows it holds, new rows, repeats): every row as a fresh planner sees it
    obs = _observations()[:40]
    macros = _macros(len(obs), seed=5)
    fresh = MacroPlanner(cache_size=len(obs))
    want_features = fresh.features_batch(obs)
    want_actions, want_slots = fresh.actions_batch(obs, macros)
    planner = MacroPlanner(cache_size=1)
    for batch in ([0, 1, 2], [2, 3, 1, 4], [5, 5, 0, 6, 2], list(range(7, 40)), [39, 0, 38, 1], [3]):
        np.testing.assert_array_equal(planner.features_batch(obs[batch]), want_features[batch])
        got, slots = planner.actions_batch(obs[batch], macros[batch])
        np.testing.assert_array_equal(got, want_actions[batch])
        np.testing.assert_array_equal(slots, want_slots[batch])
