"""A cold numba cache compiled on two cores: the physics in a child process, the env's and GhostBall's kernels here.

numba compiles on one core, and a cold ``nineball match ghost random`` spends most of its first run compiling: the
physics (its C callback and the agents' kernels that embed it, about half) and the env's and GhostBall's kernels,
which do not embed it (the env's compiled turn and GhostBall's aims reach it through a C pointer,
``nineball_env.kernels.shot``).
``warm_up`` compiles the two at once: a child process (``python -m agents.arena.warmup``) runs ``physics_half``
while this one runs ``env_half``, then waits for the child (and compiles the little that needs both,
``jump_decision``). Each half calls the public API the match calls, on tiny
real inputs, so every kernel is compiled for the argument types the match passes; the halves compile different
kernels (numba's cache takes concurrent writers of different functions), and the match loads them all from the cache.

A child that fails or hangs costs time only: this process stops waiting for it (``CHILD_TIMEOUT_S``) and compiles
whatever it still lacks when it plays.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import physics
from agents import first_run
from agents.arena import kernel_cache
from agents.arena.match import MatchConfig
from agents.players.ghost_ball import GhostBallAgent, GhostBallConfig
from agents.protocol import TableView
from agents.registry import parse_spec
from agents.shots import outcome
from agents.shots.jumps import jump_launches
from agents.shots.pots import pot_rows
from nineball_env.game import Game
from nineball_env.kernels.shot import physics_address
from nineball_env.rules import RackState

#: The child's last line on stdout, followed by how many of our kernels it compiled.
CHILD_DONE = "nineball-warmup: compiled"
#: Kernels both halves may call (the rules in GhostBall's ruled shots, in the env's turn and in GhostBall's round,
#: geometry helpers of its jumps and plans), about 2 s of compiling: the child reaches the rules late (``ruled_rows``),
#: after this process has cached them with the turn, so in a warm-up each is compiled once (whichever half is second
#: loads it). Every other kernel belongs to one half only.
SHARED = frozenset({
    "nineball_env.kernels.ruling.rule_batch", "nineball_env.kernels.ruling._cite", "nineball_env.kernels.ruling._spot",
    "nineball_env.kernels.ruling._next", "nineball_env.kernels.ruling._bits", "nineball_env.kernels.ruling._end",
    "nineball_env.kernels.ruling.rule_log",
    "nineball_env.kernels.facts.summarize_rows", "nineball_env.kernels.aiming.path_clear",
    "nineball_env.kernels.aiming.unit", "nineball_env.kernels.aiming.ghost", "agents.shots.kernels.cut_between",
    "agents.shots.kernels.pocket_target",
})
#: How long this process waits for the child at most [s] (its half takes ~45 s on a loaded 2-core machine).
CHILD_TIMEOUT_S = 600.0


def physics_half(ghost: bool) -> None:
    """Compile the physics: the env's C callback (``nineball_env.kernels.shot.physics_address``, which compiles
    ``run_shot``) and ``physics.simulate``'s entry; with ``ghost`` first GhostBall's jump launches (the physics' strike
    and bounce called from Python), then its kernel that embeds ``run_shot``: the ruled shots of
    jumps stopped in the air. (Its throw-corrected aims, push-outs and jumps reach the physics through the callback,
    inside ``round_kernels.decide_round``: ``env_half`` compiles them.)"""
    balls = physics.place_balls({0: (0.5, 0.5), 1: (0.3, 0.9), 9: (0.9, 1.9)})
    if ghost:
        jump_launches((0.5,), physics.DEFAULT_PARAMS)
    physics_address()
    physics.simulate(balls, physics.Shot(V0=2.0, phi=60.0))
    if not ghost:
        return
    table, params = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 9}), phase="normal", ball_in_hand="none")
    packed = balls.packed()[None].copy()
    shot = np.array([[2.0, 60.0, 0.0, 0.0, 0.0]])
    which = np.zeros(1, dtype=np.int64)
    outcome.ruled_rows(packed, rack.packed()[None].copy(), which, shot, table, params, 64, 2.0)


def env_half(ghost: bool) -> None:
    """Compile the kernels of a match that do not embed the physics: the env's compiled turn (``play_turns``, with
    the default opponent, the rules, placement and the deal), its observation, and with ``ghost`` GhostBall's round
    (``round_kernels.decide_round`` and all it calls: the pot options, the throw-corrected aims, push-outs and jumps
    through the physics' C callback) through GhostBall itself, its push-outs and jumps off."""
    config = MatchConfig()
    game = Game(config.game_config(), np.random.default_rng(0), 0, config.noise, config.scale)
    obs = game.observe(0)
    game.tables.compile_turn()
    if not ghost:
        return
    view = TableView.from_game(game, config.noise, config.scale)
    GhostBallAgent(GhostBallConfig(correct_throw=False, jumps=False, push_below=0.0)).act(obs, view)
    cue = view.balls.pos[None, 0]
    pot_rows(cue, view.balls.pos[None], view.on[None], np.ones(1, dtype=np.int64))


def jump_decision() -> None:
    """GhostBall's whole decision on a layout whose lowest ball is blocked (a jump pot: its jumps sampled and chosen,
    the action encoded again): the few kernels only such decisions run, after both halves (all else loads)."""
    balls = physics.place_balls({0: (0.635, 0.6), 2: (0.635, 0.9), 1: (0.635, 1.2), 9: (0.3, 2.0)})
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 2, 9}), phase="normal", ball_in_hand="none")
    config = MatchConfig()
    GhostBallAgent().decide(TableView(balls, rack, 0, noise=config.noise, scale=config.scale))


def _child(ghost: bool) -> subprocess.Popen:
    """``physics_half`` in a new Python process on this process's code and numba cache, its stdout a pipe."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "agents.arena.warmup"] + (["--ghost"] if ghost else [])
    return _start(command, env)


def _start(command: Sequence[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(list(command), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, text=True, env=env)


def _kernels_done(child: subprocess.Popen, timeout_s: float) -> int:
    """Wait for the child to end (killed past ``timeout_s``): the number of kernels it says it compiled (0 when it
    failed or was killed)."""
    try:
        out, _ = child.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return 0
    lines = [line for line in out.splitlines() if line.startswith(CHILD_DONE)]
    return int(lines[-1].rsplit(" ", 1)[1]) if child.returncode == 0 and lines else 0


def warm_up(ghost: bool = True, timeout_s: float = CHILD_TIMEOUT_S, command: Sequence[str] | None = None) -> int:
    """Compile a match's kernels on two cores (see the module docstring); ``ghost``: GhostBall plays. The child's
    kernels and the time this process waits on it count in the first-run notice's total. ``command`` replaces the
    child's (tests). Returns the number of kernels the child compiled."""
    child = _child(ghost) if command is None else _start(command)
    first_run.announce()
    try:
        env_half(ghost)
    except BaseException:  # an error here (or Ctrl-C) ends the child too
        child.kill()
        child.communicate()
        raise
    start = time.monotonic()
    kernels = _kernels_done(child, timeout_s)
    first_run.credit(kernels, time.monotonic() - start)
    if ghost:
        jump_decision()
    return kernels


def before_play(specs: Sequence[str]) -> bool:
    """``warm_up`` when the numba cache is cold (``kernel_cache.cold``) before a match or tournament between the
    agents ``specs`` (``agents.registry``); whether it ran."""
    if not kernel_cache.cold():
        return False
    warm_up(ghost=any(parse_spec(spec)[0] == "ghost" for spec in specs))
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """The child: ``physics_half`` (GhostBall's part with ``--ghost``), then ``CHILD_DONE`` and the number of our
    kernels it compiled."""
    argv = sys.argv[1:] if argv is None else list(argv)
    with first_run.KernelCounter() as counter:
        physics_half(ghost="--ghost" in argv)
    print(f"{CHILD_DONE} {counter.kernels}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
