"""Every python example of the README after the first runs as written, the record/replay commands run, and the
observation/action tables agree with the env's spaces."""

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text()


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)


def _section(title: str) -> str:
    start = TEXT.index(f"\n## {title}")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start:end if end >= 0 else None]


def _needs_train(block: str) -> bool:
    return "import stable_baselines3" in block or "from stable_baselines3" in block


@pytest.mark.parametrize("index", [pytest.param(i, marks=[pytest.mark.extra("train")] if _needs_train(b) else [])
                                   for i, b in enumerate(_python_blocks()) if i >= 1])
def test_python_example_runs(index, tmp_path, monkeypatch):
    block = _python_blocks()[index]  # pettingzoo's examples: the test extra
    monkeypatch.chdir(tmp_path)  # examples may save files
    exec(compile(block, f"README.md python block {index}", "exec"), {})


@pytest.mark.extra("video")  # the GIF and the MP4 of the README's commands
def test_record_and_replay_commands_run(tmp_path, monkeypatch, capsys):
    from agents.cli import main

    block = re.search(r"```bash\n(.*?)```", _section("Watching matches"), flags=re.S).group(1)
    commands = [shlex.split(line.split("#")[0]) for line in block.strip().splitlines()]
    assert [c[:2] for c in commands] == [["nineball", "match"]] + [["nineball", "replay"]] * 3
    monkeypatch.chdir(tmp_path)
    for argv in commands:
        assert main([*argv[1:], *(["--no-progress"] if argv[1] == "match" else [])]) == 0, argv
    assert (tmp_path / "break.gif").read_bytes()[:6] == b"GIF89a"
    assert (tmp_path / "rack1.mp4").stat().st_size > 1000
    assert "rack 1 shot 1:" in capsys.readouterr().out


def test_tables_match_the_spaces():
    import gymnasium as gym

    import nineball_env  # noqa: F401

    env = gym.make("NineBall-v0")
    section = _section("The environment")
    action_rows = re.findall(r"^\| (\d+) \| [A-Z_]+ \|", section, flags=re.M)
    assert [int(i) for i in action_rows] == list(range(env.action_space.shape[0]))
    slices = re.findall(r"^\| (\d+)(?::(\d+))? \| [a-z_]+ \|", section, flags=re.M)
    ends = [int(b) if b else int(a) + 1 for a, b in slices]
    starts = [int(a) for a, _ in slices]
    assert starts[0] == 0 and starts[1:] == ends[:-1] and ends[-1] == env.observation_space.shape[0]
    assert f"({env.observation_space.shape[0]},)" in section and f"({env.action_space.shape[0]},)" in section


def test_first_screen_still_leads_with_the_two_commands():
    head = TEXT[:TEXT.index("\n## ")]
    block = re.search(r"```bash\n(.*?)```", head, flags=re.S).group(1).strip().splitlines()
    assert len(block) == 2 and "nineball match" in block[0] and "pytest" in block[1]
