"""The agents' kernels call the physics with the env's argument types, so one compiled physics serves both.

numba compiles a function once per distinct argument types, and a literal argument (``True``, ``64``) is a type of its
own: when the aim kernel called ``run_shot(..., True, ..., 64, ...)`` the whole physics (the flat and the airborne
loop) was compiled a second time on a cold cache, 115 of the 428 s of ``nineball match ghost random`` (issue 28). The
call types are read by numba's type inference of the calling kernel, which loads (or compiles) only what it calls.
"""

import inspect
import sys
from pathlib import Path

import numpy as np
from numba.core import compiler, typed_passes, types

import physics
import agents.shots
from agents.shots import kernels as K
from agents.shots.aim import corrected_phi
from agents.shots.leaves import shot_value
from agents.shots.pots import pot_rows
from agents.protocol import TableView
from nineball_env import observation
from nineball_env.noise import make_noise
from nineball_env.rules import Match, RackState
from physics.kernels import entry


def _calls_of(caller, callee) -> list[tuple[types.Type, ...]]:
    """The argument types of every call of the dispatcher ``callee`` in ``caller``'s (first) compiled signature."""
    (signature,) = caller.signatures
    ir = compiler.run_frontend(caller.py_func)
    inferred = typed_passes.type_inference_stage(caller.typingctx, caller.targetctx, ir, signature, None)
    found = []
    for expr, call in inferred.calltypes.items():
        if getattr(expr, "op", None) == "call":
            target = inferred.typemap[expr.func.name]
            if isinstance(target, types.Dispatcher) and target.dispatcher is callee:
                found.append(tuple(call.args))
    return found


def _by_name(dispatcher, argtypes) -> dict[str, types.Type]:
    return dict(zip(inspect.signature(dispatcher.py_func).parameters, argtypes))


def test_the_agents_kernels_call_the_physics_with_the_envs_types():
    state = physics.nine_ball_rack(np.random.default_rng(0))
    physics.simulate(state, physics.Shot(V0=8.0, phi=90.0))  # the env's path: run_arrays
    (env_sig,) = entry.run_arrays.signatures
    env_types = _by_name(entry.run_arrays, env_sig)

    corrected_phi(state, state.pos[0], 1, 90.0, physics.Shot(V0=2.0, phi=90.0))
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 9}), phase="normal", ball_in_hand="none")
    balls = physics.place_balls({0: (0.5, 0.5), 1: (0.3, 0.3), 9: (0.9, 1.9)})
    view = TableView.from_observation(observation.encode(balls.pos, balls.on_table(), rack, Match(race_to=1), 0,
                                                         1.27, 2.54), noise=make_noise("icga"))
    shot_value(view, view.balls.copy(), physics.Shot(V0=2.0, phi=225.0))

    for caller in (K.corrected_phi_batch, K.shot_values_batch):
        calls = _calls_of(caller, entry.run_shot)
        assert calls, f"{caller.__name__} no longer calls run_shot: update this test"
        for argtypes in calls:
            got = _by_name(entry.run_shot, argtypes)
            assert not [t for t in got.values() if isinstance(t, types.Literal)], (caller.__name__, got)
            shared = sorted(set(got) & set(env_types))
            assert {"strike", "max_events", "max_time", "p", "log"} <= set(shared)
            assert {k: got[k] for k in shared} == {k: env_types[k] for k in shared}, caller.__name__


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
