"""The cold-cache warm-up on two cores (``agents.arena.warmup``): complete, split in disjoint halves, and harmless
when its child fails or hangs or the cache is warm."""

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents import first_run
from agents.arena import warmup

ROOT = Path(__file__).resolve().parents[2]
OURS = ("physics", "nineball_env", "agents")
# Records our kernels compiled while running a step (numba's ``numba:compile`` event: never a load from the cache).
PROBE = """
import json, sys
from numba.core import event
from agents.arena import warmup

compiled = []

class Listener(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        f = ev.data["dispatcher"].py_func
        if f.__module__.split(".")[0] in ("physics", "nineball_env", "agents"):
            compiled.append(f"{f.__module__}.{f.__qualname__}")

event.register("numba:compile", Listener())
step = sys.argv[1]
if step == "physics":
    warmup.physics_half(ghost=True)
elif step == "env":
    warmup.env_half(ghost=True)
else:
    from agents.arena.match import MatchConfig, play_match
    from agents.registry import make_agent

    child = warmup.warm_up(ghost=True)
    done = list(compiled)
    compiled.clear()
    for i in range(2):
        play_match(make_agent("ghost"), make_agent("random"), MatchConfig(race_to=2), 0, i)
    print(json.dumps({"child": child, "warm_up": done, "match": compiled}))
    sys.exit(0)
print(json.dumps(compiled))
"""


def _probe(step: str, cache: Path) -> subprocess.Popen:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.Popen([sys.executable, "-c", PROBE, step], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen):
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.splitlines()[-1])


@pytest.mark.slow
def test_the_halves_compile_disjoint_kernels_on_a_cold_cache(tmp_path):
    # each half on its own empty cache: a kernel both compile would be compiled twice at once by the warm-up
    physics, env = _probe("physics", tmp_path / "a"), _probe("env", tmp_path / "b")
    physics, env = set(_result(physics)), set(_result(env))
    assert "physics.kernels.entry.run_shot" in physics and "agents.shots.kernels.ruled_shots" in physics
    assert "nineball_env.kernels.turn.play_turns" in env and "agents.shots.round_kernels.plan_rows" in env
    assert not any(name.startswith("physics.") for name in env), sorted(env)
    assert physics & env <= warmup.SHARED, sorted(physics & env - warmup.SHARED)


@pytest.mark.slow
def test_after_the_warm_up_a_match_compiles_nothing(tmp_path):
    got = _result(_probe("match", tmp_path))
    assert got["child"] > 50  # the physics, compiled by the child
    assert "nineball_env.kernels.turn.play_turns" in got["warm_up"]
    assert got["match"] == []


def test_a_failing_child_leaves_the_warm_up_to_this_process(monkeypatch):
    credited = []
    monkeypatch.setattr(first_run, "credit", lambda kernels, seconds: credited.append(kernels))
    assert warmup.warm_up(ghost=False, command=[sys.executable, "-c", "import sys; sys.exit(3)"]) == 0
    assert credited == [0]


def test_a_hanging_child_is_killed_at_the_timeout():
    start = time.monotonic()
    assert warmup.warm_up(ghost=False, timeout_s=1.0,
                          command=[sys.executable, "-c", "import time; time.sleep(60)"]) == 0
    assert time.monotonic() - start < 30


def test_the_child_reports_what_it_compiled():
    out = subprocess.run([sys.executable, "-m", "agents.arena.warmup"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].startswith(warmup.CHILD_DONE + " ")


def test_a_warm_cache_starts_no_warm_up(monkeypatch):
    warmup.warm_up(ghost=True)  # whatever this checkout's cache held, it is warm now
    monkeypatch.setattr(warmup, "warm_up", lambda **kw: pytest.fail("warmed up a warm cache"))
    assert warmup.before_play(["ghost", "random"]) is False


def test_the_notice_counts_the_childs_kernels_and_the_wait():
    stream = io.StringIO()
    listener = first_run.install(stream=stream, every_s=3600.0)
    try:
        first_run.announce()
        first_run.credit(7, 65.0)
    finally:
        first_run.uninstall(listener)
    lines = stream.getvalue().splitlines()
    assert lines[0] == first_run.NOTICE
    assert lines[-1].startswith("nineball: compiled 7 kernels in 1 min 05 s")
