"""The agents' kernels call the physics with the env's argument types, so one compiled physics serves both.

numba compiles a function once per distinct argument types, and a literal argument (``True``, ``64``) is a type of its
own: when the aim kernel called ``run_shot(..., True, ..., 64, ...)`` the whole physics (the flat and the airborne
loop) was compiled a second time on a cold cache (issue 28: a cold ``nineball match ghost random`` took 168 s of CPU
with it, 131 s without it and the other literals these tests forbid). The call types are read while numba compiles a
fresh copy of the calling kernel (its callees come from the cache).
"""

import inspect
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.dispatcher import Dispatcher
from numba.core.typed_passes import NopythonTypeInference

import physics
import agents.shots
from agents.shots import kernels as K
from agents.shots import round_kernels as RK
from agents.shots.aim import corrected_phi
from agents.shots.jumps import jump_rows, jump_speed
from agents.shots.leaves import shot_value
from agents.shots.outcome import ruled_rows, settled_rows
from agents.shots.pots import pot_rows
from agents.arena.match import MatchConfig, play_match
from agents.learned.macro import MACRO_DIM, MacroPlanner
from agents.players.ghost_ball import GhostBallAgent
from agents.protocol import TableView
from agents.registry import make_agent
from nineball_env import observation
from nineball_env.noise import make_noise
from nineball_env.rules import Match, RackState
from nineball_env.kernels import shot as env_shot
from physics.kernels import entry

DECISIONS = np.load(Path(__file__).parent / "data" / "ghost_decisions.npz")


OURS = ("physics", "nineball_env", "agents")


class _Typed(Exception):
    """Raised once a kernel's types are inferred: ``_TypeOnly`` compiles no further."""


@register_pass(mutates_CFG=False, analysis_only=True)
class _StopAfterTyping(FunctionPass):
    _name = "nineball_stop_after_typing"

    def __init__(self) -> None:
        FunctionPass.__init__(self)

    def run_pass(self, state) -> bool:
        raise _Typed


class _TypeOnly(CompilerBase):
    """numba's nopython pipeline up to type inference (every call resolved, hence every callee compiled), no further:
    the calls a kernel makes, without the code generation of a fresh copy of it."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(_StopAfterTyping, NopythonTypeInference)
        pm.finalize()
        return [pm]


def _calls(caller, signature=None) -> list[tuple[object, tuple[types.Type, ...]]]:
    """(callee kernel, argument types) of every call of one of our kernels that numba resolves while it compiles
    ``caller`` for ``signature`` (default: its only compiled one), each time it resolves one. A fresh, uncached copy
    of ``caller`` is typed, as on a cold cache: a variable set to a literal and changed later (``n = 0`` ...
    ``n += 1``) is resolved with the literal first, and that version of the callee is compiled too."""
    if signature is None:
        (signature,) = caller.signatures
    found = []
    resolve = Dispatcher.get_call_template

    def recording(self, args, kws):
        if self.py_func.__module__.split(".")[0] in OURS:  # not numba's own
            found.append((self, tuple(args)))
        return resolve(self, args, kws)

    Dispatcher.get_call_template = recording
    try:
        numba.njit(caller.py_func, pipeline_class=_TypeOnly).compile(signature)
    except _Typed:
        pass
    finally:
        Dispatcher.get_call_template = resolve
    return found


def _our_kernels() -> list[Dispatcher]:
    """Every numba kernel defined in a module of ours that is imported now."""
    found = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in OURS and module is not None:
            found.extend(obj for obj in vars(module).values()
                         if isinstance(obj, Dispatcher) and obj.py_func.__module__ == name)
    return found


def _walk_calls(todo, follow=lambda callee: True):
    """(caller, callee, argument types) of every call reachable from the (kernel, signature) pairs ``todo``, each
    caller version typed once (``_calls``); a callee that ``follow`` accepts is walked in turn."""
    todo, done = list(todo), set()
    while todo:
        kernel, signature = todo.pop()
        if (kernel, signature) in done:
            continue
        done.add((kernel, signature))
        for callee, argtypes in _calls(kernel, signature):
            yield kernel, callee, argtypes
            if follow(callee):
                todo.append((callee, tuple(argtypes)))


def _qualified(dispatcher) -> str:
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def match_call_types() -> list[str]:
    """Play a real match (GhostBall against random), then type fresh copies of every kernel it compiled or loaded
    and of all they call: the kernels called with more than one set of argument types, or with a literal (one line
    each). Run in a process of its own (``python -c``), so that only the match's kernels count."""
    play_match(make_agent("ghost"), make_agent("random"), MatchConfig(race_to=1), 0, 0)
    by_callee: dict = {}
    todo = [(k, tuple(s)) for k in _our_kernels() for s in k.signatures]
    for kernel, signature in todo:  # the versions the match compiled or loaded (called from Python or a kernel)
        by_callee.setdefault(kernel, {}).setdefault(signature, set()).add("(the match)")
    for kernel, callee, argtypes in _walk_calls(todo):
        by_callee.setdefault(callee, {}).setdefault(argtypes, set()).add(kernel.__name__)
    found = [f"called: {name}" for name in sorted(_qualified(k) for k in by_callee)]
    for callee, versions in by_callee.items():
        for argtypes, callers in versions.items():
            literals = {n: t for n, t in _by_name(callee, argtypes).items() if isinstance(t, types.Literal)}
            if literals:
                found.append(f"literal: {sorted(callers)} call {_qualified(callee)} with literals {literals}")
        if len(versions) > 1:
            found.append(f"versions: {_qualified(callee)} is called with {len(versions)} sets of types: "
                         + "; ".join(f"{sorted(c)}: {a}" for a, c in versions.items()))
    return found


def test_a_match_compiles_every_kernel_for_one_set_of_argument_types():
    # numba compiles a kernel once per distinct argument types: every kernel a match runs (the env's compiled turn
    # and default opponent, GhostBall's round, the physics) is called with one set of types by all its callers
    # (issue 28: a literal ``True`` / ``0`` in one caller, ``n = 0 ... n += 1`` passed on, compiled 14 kernels twice or
    # four times on a cold cache, ~8 s of a cold ``nineball match ghost random``).
    probe = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import {Path(__file__).stem} as t; "
             "print('\\n'.join(t.match_call_types()))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=Path(__file__).parents[2], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    names = {line.split(": ", 1)[1] for line in lines if line.startswith("called: ")}
    assert {"nineball_env.kernels.turn.play_decision", "nineball_env.kernels.placement.is_free",
            "agents.shots.round_kernels.spot_rows", "nineball_env.kernels.shot.simulate"} <= names, sorted(names)
    assert [line for line in lines if not line.startswith("called: ")] == []


def _by_name(dispatcher, argtypes) -> dict[str, types.Type]:
    return dict(zip(inspect.signature(dispatcher.py_func).parameters, argtypes))


@pytest.fixture(scope="module")
def shot_kernel_calls() -> dict[str, list[tuple[object, tuple[types.Type, ...]]]]:
    """The calls of every shot kernel (the three the Python API calls, and the shot kernels they call), by caller,
    after the public API has run them."""
    state = physics.nine_ball_rack(np.random.default_rng(0))
    corrected_phi(state, state.pos[0], 1, 90.0, physics.Shot(V0=2.0, phi=90.0))
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 9}), phase="normal", ball_in_hand="none")
    balls = physics.place_balls({0: (0.5, 0.5), 1: (0.3, 0.3), 9: (0.9, 1.9)})
    view = TableView.from_observation(observation.encode(balls.pos, balls.on_table(), rack, Match(race_to=1), 0,
                                                         1.27, 2.54), noise=make_noise("icga"))
    shot_value(view, view.balls.copy(), physics.Shot(V0=2.0, phi=225.0))
    pot_rows(state.pos[0][None], state.pos[None], state.on_table()[None], np.ones(1, dtype=int))
    GhostBallAgent().act_batch(DECISIONS["obs"])  # its jumps, push-outs and ball-in-hand spots, batched
    GhostBallAgent().place(view), GhostBallAgent().safety(view, view.balls.pos[0])
    MacroPlanner().actions_batch(DECISIONS["obs"], np.zeros((len(DECISIONS["obs"]), MACRO_DIM)))  # the macro layer's
    _refined_rows(len(DECISIONS["obs"]))  # (the macro kernels call it; from a warm cache it has no version here)
    jump_speed(state.pos[0], state.pos[1], state.pos[[2]], 52.0, 0.5)
    jump_rows(state.pos[None, 0], state.pos[None], state.on_table()[None], [1], tip_max=[0.5], v_max=[8.0])
    packed = balls.packed()[None].copy()  # the ruled shots (GhostBall's jumps rule with them only shots stopped in the air)
    ruled_rows(packed, rack.packed()[None].copy(), np.zeros(1, dtype=np.int64), np.array([[2.0, 60.0, 0.0, 0.0, 0.0]]),
               physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS, 64, 2.0)
    settled_rows(packed, np.zeros(1, dtype=np.int64), np.array([[2.0, 60.0, 0.0, 0.0, 0.0]]), physics.DEFAULT_TABLE,
                 physics.DEFAULT_PARAMS, 64, 2.0)
    # the kernels the Python API calls (GhostBall's round: spots, safeties, pot speeds, noisy samples, actions)
    todo = [(kernel, kernel.signatures[0]) for kernel in (K.corrected_phi_batch, K.shot_values_batch,
                                                          K.pot_options_batch, K.ruled_shots, K.settled_states,
                                                          K.jump_candidate_rows, K.jump_speed_to,
                                                          RK.decide_round, RK.spot_rows, RK.safety_row,
                                                          RK.refined_rows)]
    calls: dict = {}
    while todo:
        kernel, signature = todo.pop()
        found = calls.setdefault(kernel.__name__, [])
        for callee, argtypes in _calls(kernel, signature):
            found.append((callee, argtypes))
            if callee.py_func.__module__ in (K.__name__, RK.__name__) and not any(c is callee for c, _ in todo) \
                    and callee.__name__ not in calls:
                todo.append((callee, argtypes))
    return calls


def _refined_rows(n: int) -> None:
    """``round_kernels.refined_rows`` for n safeties from the recorded layouts, called with the types the macro
    kernels pass it (``macro_kernels.slot_strikes``), so the walk below reaches it from a warm cache too."""
    from agents.learned.macro import _REFINE
    from agents.players.ghost_ball import GHOST_MAX_SPEED, GHOST_MIN_SPEED
    from agents.protocol import observed_layouts
    from agents.shots.pots import physics_row

    pos, on = observed_layouts(DECISIONS["obs"][:n])
    p, t = physics.DEFAULT_PARAMS, physics.DEFAULT_TABLE
    RK.refined_rows(np.full(n, 3), np.zeros((n, 3, K.OPT_W)), np.zeros((n, MACRO_DIM)),
                    np.ascontiguousarray(pos[:, 0]), pos, on, np.ones(n, dtype=np.int64), float(p.R),
                    (2.0 * p.R) ** 2, float(t.width), float(t.length), physics_row(p), GHOST_MIN_SPEED,
                    GHOST_MAX_SPEED, _REFINE, np.empty((n, 5)))


def test_the_agents_kernels_call_the_physics_with_the_envs_types(shot_kernel_calls):
    state = physics.nine_ball_rack(np.random.default_rng(0))
    physics.simulate(state, physics.Shot(V0=8.0, phi=90.0))  # the env's path: run_arrays
    (env_sig,) = entry.run_arrays.signatures
    env_types = _by_name(entry.run_arrays, env_sig)
    for caller in ("shot_values_batch", "ruled_shots", "settled_states"):  # through run_row
        assert any(callee is K.run_row for callee, _ in shot_kernel_calls[caller]), caller
    for caller in ("run_row",):
        calls = [args for callee, args in shot_kernel_calls[caller] if callee is entry.run_shot]
        assert calls, f"{caller} no longer calls run_shot: update this test"
        for argtypes in calls:
            got = _by_name(entry.run_shot, argtypes)
            shared = sorted(set(got) & set(env_types))
            assert {"strike", "max_events", "max_time", "p", "log"} <= set(shared)
            assert {k: got[k] for k in shared} == {k: env_types[k] for k in shared}, caller


def test_the_jumps_and_aims_call_the_envs_physics_callback_with_the_turns_types(shot_kernel_calls):
    # GhostBall's jumps and throw-corrected aims simulate through the env's C callback (no copy of the physics of
    # their own): with the compiled turn's argument types, so that one compiled ``simulate`` serves all
    for caller in ("jump_worth", "corrected_phi_row", "push_roll"):
        assert [callee for callee, _ in shot_kernel_calls[caller] if callee is env_shot.simulate], caller
        assert not [callee for callee, _ in shot_kernel_calls[caller] if callee is entry.run_shot], caller
    assert any(callee is K.corrected_phi_row for callee, _ in shot_kernel_calls["plan_rows"])
    assert {RK.plan_rows, RK.push_roll, RK.jump_round} <= {callee for callee, _ in shot_kernel_calls["decide_round"]}
    play_match(make_agent("random"), make_agent("random"), MatchConfig(race_to=1), 0, 0)
    assert len(env_shot.simulate.signatures) == 1, env_shot.simulate.signatures


def test_no_shot_kernel_passes_a_literal_to_a_kernel(shot_kernel_calls):
    # A literal argument, or a variable set to a literal and changed later (numba types it as the literal first),
    # compiles the callee once more (and everything it calls) for a version that is never or rarely needed.
    assert set(shot_kernel_calls) >= {"corrected_phi_batch", "shot_values_batch", "pot_options_batch",
                                      "pot_options_row", "leave_ease", "_direct", "ruled_shots", "settled_states",
                                      "cue_spot_points", "least_jump_speed", "run_row", "_clears", "spot_rows",
                                      "safety_row", "rolling_speed", "jump_candidate_rows", "plan_rows", "choose",
                                      "encode_rows", "jump_round", "jump_worth", "spot_pots", "refined_rows",
                                      "corrected_phi_row", "decide_round", "push_roll", "start_state"}
    for caller, calls in shot_kernel_calls.items():
        for callee, argtypes in calls:
            literals = {name: t for name, t in _by_name(callee, argtypes).items() if isinstance(t, types.Literal)}
            assert not literals, f"{caller} calls {callee.__name__} with literals {literals}"


def test_the_shot_kernels_cache_is_dropped_when_a_kernel_they_compile_in_changes():
    # numba checks a cached function against its own file only; the shot kernels embed the physics' and the env's
    # kernels, so every one of their files must be watched (agents.shots.KERNEL_SOURCES), else an edit to the
    # physics left the aims of the agents on the old physics.
    compiled_in = {Path(m.__file__).resolve() for name, m in sys.modules.items()
                   if name.startswith(("physics.kernels", "nineball_env.kernels")) and getattr(m, "__file__", None)}
    assert Path(entry.__file__).resolve() in compiled_in
    assert compiled_in <= set(agents.shots.KERNEL_SOURCES)


def test_pot_rows_compile_one_kernel_for_one_layout_and_many():
    # one layout with a scalar sigma made read-only arrays (a broadcast view), another type to numba than many layouts
    pos = physics.nine_ball_rack(np.random.default_rng(1)).pos
    on = np.ones(pos.shape[0], dtype=bool)
    for n, sigma in ((1, 0.125), (3, 0.125), (3, np.full(3, 0.2))):
        pot_rows(np.tile([[0.6, 0.5]], (n, 1)), np.broadcast_to(pos, (n, *pos.shape)),
                 np.broadcast_to(on, (n, on.size)), np.ones(n, dtype=int), sigma_phi=sigma)
    assert len(K.pot_options_batch.signatures) == 1, K.pot_options_batch.signatures



def test_the_playout_kernels_pass_no_literal_and_the_envs_types():
    # the value player's kernels (agents.shots.playout_kernels): the same rules as the shot kernels above
    from agents.shots import playout_kernels as PK
    from agents.shots.playout import SHOT, Playout

    state = physics.nine_ball_rack(np.random.default_rng(0))
    rack = RackState(breaker=0, shooter=0, on_table=frozenset(range(1, 10)), phase="break", ball_in_hand="kitchen")
    pool = Playout()
    pool.play(state.packed()[None], rack.packed()[None], [0], [[8.0, 90.0, 0.0, 0.0, 0.0]], SHOT, 64)
    pool.features(state.packed()[None], rack.packed()[None])
    physics.simulate(state, physics.Shot(V0=8.0, phi=90.0))  # the env's path: run_arrays
    env_types = _by_name(entry.run_arrays, entry.run_arrays.signatures[0])
    todo = [(kernel, kernel.signatures[0]) for kernel in (PK.play_rows, PK.position_features)]
    seen = set()
    while todo:
        kernel, signature = todo.pop()
        for callee, argtypes in _calls(kernel, signature):
            literals = {n: t for n, t in _by_name(callee, argtypes).items() if isinstance(t, types.Literal)}
            assert not literals, f"{kernel.__name__} calls {callee.__name__} with literals {literals}"
            if callee is entry.run_shot:
                got = _by_name(entry.run_shot, argtypes)
                shared = sorted(set(got) & set(env_types))
                assert {k: got[k] for k in shared} == {k: env_types[k] for k in shared}
            if callee.py_func.__module__ == PK.__name__ and callee.__name__ not in seen:
                seen.add(callee.__name__)
                todo.append((callee, argtypes))
    assert "_pottability" in seen


def test_the_macro_kernels_call_the_shared_kernels_with_the_python_apis_types():
    # agents.learned.macro_kernels compile in the layouts, pot options, strikes and action encoding that the Python
    # API (and GhostBall) call too: with the same argument types, so one compiled version serves both, and no literal
    from agents.learned import macro_kernels as MK
    from agents.protocol import observed_layouts
    from agents import protocol_kernels as PROTOCOL

    obs = np.ascontiguousarray(DECISIONS["obs"], dtype=np.float32)
    pos, on = observed_layouts(obs)
    pot_rows(pos[:, 0], pos, on, np.ones(len(obs), dtype=int))
    GhostBallAgent().act_batch(DECISIONS["obs"])
    _refined_rows(len(obs))
    planner = MacroPlanner(cache_size=2 * len(obs))
    planner.features_batch(obs)
    planner.actions_batch(obs, np.zeros((len(obs), MACRO_DIM)))
    planner.leave_values(*planner.slots(obs[5]))  # the readable path: pot slots, strikes, aims
    shared = {K.pot_options_batch, PROTOCOL.observed_layouts, RK.refined_rows, RK.encode_rows}
    python_types = {callee: set(callee.signatures) for callee in shared - {RK.encode_rows}}
    # GhostBall encodes its actions inside its round's one call (``round_kernels.decide_round``): with these types
    python_types[RK.encode_rows] = {argtypes for _, callee, argtypes in _walk_calls(
        [(RK.decide_round, RK.decide_round.signatures[0])], lambda callee: callee.py_func.__module__ == RK.__name__)
        if callee is RK.encode_rows}
    assert len(python_types[RK.encode_rows]) == 1, python_types[RK.encode_rows]
    todo = [(kernel, signature) for kernel in (MK.lookup_rows, MK.feature_rows, MK.strike_rows, MK.action_rows)
            for signature in kernel.signatures]
    assert len(todo) == 4, todo
    called = set()
    for kernel, callee, argtypes in _walk_calls(todo, lambda callee: callee.py_func.__module__ == MK.__name__):
        literals = {n: t for n, t in _by_name(callee, argtypes).items() if isinstance(t, types.Literal)}
        assert not literals, f"{kernel.__name__} calls {callee.__name__} with literals {literals}"
        if callee in shared:
            called.add(callee)
            assert argtypes in python_types[callee], f"{kernel.__name__} calls {callee.__name__} with {argtypes}"
    assert called == shared
    assert all(len(callee.signatures) == 1 for callee in shared - {RK.encode_rows}), \
        {c.__name__: c.signatures for c in shared}
    assert len(RK.encode_rows.signatures) <= 1, RK.encode_rows.signatures  # none when loaded with its callers
