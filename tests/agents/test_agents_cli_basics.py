"""The newcomer's CLI: help with no arguments, --version from pyproject, clear exit-2 messages instead of tracebacks,
labelled event rows, the first-run compile notice, short labels and honest Elo intervals."""

import json
import re
import sys
import tomllib
from pathlib import Path

import pytest

import agents
from agents.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_no_arguments_prints_the_help(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: nineball") and "match" in out and "replay" in out


def test_version_is_the_pyproject_version(capsys):
    with open(ROOT / "pyproject.toml", "rb") as fh:
        version = tomllib.load(fh)["project"]["version"]
    assert agents.__version__ == version
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"nineball {version}"


def test_project_files_agree_with_the_version():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    cff = (ROOT / "CITATION.cff").read_text()
    assert re.search(rf"^version: {re.escape(agents.__version__)}$", cff, flags=re.M)
    assert f"## [{agents.__version__}]" in (ROOT / "CHANGELOG.md").read_text()


@pytest.fixture(scope="module")
def ppo_zip(tmp_path_factory):
    """A saved (untrained) PPO model on the macro-action wrapper (the tests that use it need the train extra)."""
    import gymnasium as gym
    from stable_baselines3 import PPO

    import nineball_env  # noqa: F401
    from agents.learned.macro import MacroActionWrapper

    path = tmp_path_factory.mktemp("model") / "ppo_nineball__1__1764000000" / "final.zip"
    path.parent.mkdir()
    PPO("MlpPolicy", MacroActionWrapper(gym.make("NineBall-v0")), n_steps=64, batch_size=64, device="cpu").save(
        str(path))
    return path


@pytest.mark.extra("train")
def test_a_ppo_model_played_as_sac_is_a_message(ppo_zip, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["match", f"sac:{ppo_zip}", "ghost"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "is a PPO model, not SAC" in err and f"ppo:{ppo_zip}" in err and "Traceback" not in err


def test_a_file_that_is_not_a_model_is_a_message(tmp_path, capsys):
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    with pytest.raises(SystemExit) as exc:
        main(["match", f"ppo:{junk}", "ghost"])
    assert exc.value.code == 2 and "not a saved stable-baselines3 model" in capsys.readouterr().err


@pytest.mark.extra("train")
def test_long_model_paths_get_short_labels_in_the_table(ppo_zip, capsys):
    assert main(["match", f"ppo:{ppo_zip}", "ghost", "--race", "1", "--matches", "1", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[next(i for i, line in enumerate(lines) if line.startswith("-----")) - 1]
    assert str(ppo_zip) not in header and "final.zip" in header and "ghost" in header
    assert any(str(ppo_zip) in line and "=" in line for line in lines)  # the full path is still said once
    assert max(len(line) for line in lines[2:]) < 120


def test_plot_without_matplotlib_fails_before_playing(monkeypatch, capsys):
    import agents.arena.series

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(agents.arena.series, "run_series", lambda *a, **k: pytest.fail("the match ran"))
    with pytest.raises(SystemExit) as exc:
        main(["match", "ghost", "random", "--plot", "out.png"])
    assert exc.value.code == 2 and "needs matplotlib" in capsys.readouterr().err


@pytest.mark.parametrize("script", ["agents.training.ppo", "agents.training.sac", "agents.train_ppo"])
@pytest.mark.parametrize("hidden", ["torch", "stable_baselines3", "tensorboard"])
def test_training_without_the_train_extra_is_a_hint(monkeypatch, capsys, script, hidden):
    import importlib
    import importlib.util

    if hidden == "tensorboard" and importlib.util.find_spec("stable_baselines3") is not None:
        # stable-baselines3 notes whether tensorboard imports when first imported: first imported here, with it
        # hidden, it reports tensorboard missing to every later test of this process
        importlib.import_module("stable_baselines3.common.logger")
    monkeypatch.setitem(sys.modules, hidden, None)
    module = importlib.import_module(script)
    assert module.main(["--total-timesteps", "10"]) == 2
    err = capsys.readouterr().err
    # the hint names the first module of the extra that cannot be imported: the hidden one, or one missing before it
    order = ["torch", "stable_baselines3", "tensorboard"]
    named = next(m for m in order if m == hidden or importlib.util.find_spec(m) is None)
    assert f"training needs {named}, which cannot be imported" in err
    assert "download.pytorch.org/whl/cpu" in err and 'pip install -e ".[train]"' in err


def test_shot_events_rows_name_their_fields(capsys):
    assert main(["shot", "--seed", "3", "--events"]) == 0
    log = json.loads(capsys.readouterr().out)["log"]
    kinds = {row["event"] for row in log}
    assert {"STICK_BALL", "BALL_BALL", "BALL_CUSHION"} <= kinds
    for row in log:
        assert {"t", "event", "ball"} <= set(row)
        assert ("other_ball" in row) == (row["event"] == "BALL_BALL")
        assert ("cushion" in row) == (row["event"] == "BALL_CUSHION")
        assert ("pocket" in row) == (row["event"] == "BALL_POCKET")


def test_shot_png_has_a_legend_strip(tmp_path):
    from PIL import Image  # the test extra

    from nineball_env.render import Renderer

    path = tmp_path / "shot.png"
    assert main(["shot", "--png", str(path)]) == 0
    with Image.open(path) as im:
        plain = Renderer()
        assert im.size[0] == plain.width_px and im.size[1] > plain.height_px  # the legend below the table


def test_first_run_notice_speaks_once_and_only_for_our_kernels():
    import io

    import numba

    from agents import first_run

    buf = io.StringIO()
    listener = first_run.install(buf)
    try:
        def foreign(x):
            return x + 1

        numba.njit(foreign)(1)
        assert buf.getvalue() == ""  # someone else's kernel: not ours to announce

        def ours(x):
            return x + 2

        def ours_too(x):
            return x + 3

        ours.__module__ = ours_too.__module__ = "physics._compile_notice_probe"
        numba.njit(ours)(1)
        numba.njit(ours_too)(1)
        assert buf.getvalue().count(first_run.NOTICE) == 1
    finally:
        first_run.uninstall(listener)


def _compile_event(module: str):
    """A stand-in for numba's ``numba:compile`` event of a function of ``module``."""
    from types import SimpleNamespace

    return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=SimpleNamespace(__module__=module))})


def test_first_run_notice_shows_progress_while_compiling_and_the_total_at_the_end():
    import io
    import time

    from agents import first_run

    buf = io.StringIO()
    notice = first_run.CompileNotice(buf, every_s=0.05)
    notice.on_start(_compile_event("physics.kernels.entry"))
    notice.on_start(_compile_event("numba.np.arrayobj"))  # numba's own helpers nest inside ours: not counted
    notice.on_end(_compile_event("numba.np.arrayobj"))
    notice.on_start(_compile_event("physics.kernels.loop"))
    time.sleep(0.3)
    notice.on_end(_compile_event("physics.kernels.loop"))
    notice.on_end(_compile_event("physics.kernels.entry"))
    lines = buf.getvalue().splitlines()
    notice.stop()
    assert lines[0] == first_run.NOTICE
    assert len(lines) >= 2 and all(re.fullmatch(r"nineball: still compiling \(0 s so far, [01] kernels done\)\.\.\.", x)
                                   for x in lines[1:]), lines
    assert notice.kernels == 2 and 0.3 <= notice.compile_s < 5.0
    assert notice.summary() == "nineball: compiled 2 kernels in 0 s; later runs load them from the cache"
    time.sleep(0.2)
    assert buf.getvalue().splitlines() == lines  # no progress once nothing compiles


def test_first_run_notice_is_silent_when_every_kernel_comes_from_the_cache():
    import io

    from agents import first_run

    buf = io.StringIO()
    notice = first_run.CompileNotice(buf, every_s=0.05)
    notice.on_start(_compile_event("numba.np.arrayobj"))  # someone else's compilation
    notice.on_end(_compile_event("numba.np.arrayobj"))
    notice.stop()
    assert buf.getvalue() == "" and notice.summary() is None and notice.kernels == 0


def test_first_run_durations_read_as_minutes_and_seconds():
    from agents.first_run import _duration

    assert [_duration(s) for s in (0.4, 42.0, 59.6, 60.0, 75.2, 3600.0)] == [
        "0 s", "42 s", "1 min 00 s", "1 min 00 s", "1 min 15 s", "60 min 00 s"]


def test_elo_says_when_there_are_too_few_games(capsys):
    assert main(["tournament", "random", "ghost", "--race", "1", "--matches", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("too few games for an interval") == 2 and "[1500.0, 1500.0]" not in out


@pytest.mark.extra("train")
def test_a_time_capped_training_bar_runs_on_the_clock(tmp_path, capsys):
    from agents.training.ppo import Args, train

    args = Args(total_timesteps=100_000, max_minutes=0.02, n_envs=1, n_steps=32, batch_size=32, n_epochs=1,
                opponent="random", runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"),
                checkpoint_freq=10_000)
    train(args)
    err = capsys.readouterr().err
    assert "of 0.02 min" in err  # the bar counts seconds of the cap ...
    assert "/100000" not in err.replace(",", "") and "step/s" not in err  # ... not steps of a total never reached


def test_doctor_reports_versions_platform_and_the_cache_without_compiling(capsys):
    from importlib import metadata

    import numba
    from numba.core import event

    from agents.arena import kernel_cache

    def overloads() -> int:
        return sum(len(getattr(m, k).overloads) for m in kernel_cache._kernel_modules() for k in vars(m)
                   if isinstance(getattr(m, k), numba.core.dispatcher.Dispatcher))

    before = overloads()
    with event.install_recorder("numba:compile") as recorded:
        assert main(["doctor", "--kernels"]) == 0
    assert recorded.buffer == [] and overloads() == before  # read from the index: nothing compiled, nothing loaded
    text = capsys.readouterr().out
    assert text.startswith(f"nineball          {agents.__version__}\n")
    for dist in ("numpy", "numba", "gymnasium", "torch", "stable-baselines3", "ray", "pettingzoo"):
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            version = "not installed"
        assert re.search(rf"^{re.escape(dist)} +{re.escape(version)}$", text, flags=re.M), dist
    assert "platform" in text and "numba cache" in text and re.search(r"^cache state +(cold|warm)", text, flags=re.M)
    assert re.search(r"^    physics\.kernels\.entry\.run_arrays \((not cached|\d+ cached versions?)\)$", text, flags=re.M)

    assert main(["doctor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["packages"]["numba"] == numba.__version__ and isinstance(report["cold"], bool)
    assert {k.name: k.cached for k in kernel_cache.cache_state()} == report["kernels"]
