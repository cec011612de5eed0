"""Every python example of the README after the first, and of the docs pages, runs as written; the record/replay
commands run; the action/observation tables of docs/environment.md agree with the env's spaces."""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ENVIRONMENT = ROOT / "docs" / "environment.md"
TEXT = README.read_text()


def _python_blocks() -> list[tuple[str, str]]:
    """(where, code) of every python block to run: the README's after the first (tests/test_readme.py runs that
    one), then each docs page's."""
    blocks = [(f"README.md python block {i}", b)
              for i, b in enumerate(re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)) if i > 0]
    for page in sorted((ROOT / "docs").glob("*.md")):
        blocks += [(f"docs/{page.name} python block {i}", b)
                   for i, b in enumerate(re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S))]
    return blocks


def _section(text: str, title: str) -> str:
    """From the heading ``title`` (any level) to the next heading of the same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", text, flags=re.M)
    assert match, f"no heading {title!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", flags=re.M).search(text, match.end())
    return text[match.start():end.start() if end else None]


def test_examples_are_collected():
    where = [w for w, _ in _python_blocks()]
    assert any(w.startswith("README.md") for w in where) and any(w.startswith("docs/environment.md") for w in where)


def _needs_train(block: str) -> bool:
    return "import stable_baselines3" in block or "from stable_baselines3" in block


@pytest.mark.parametrize("where, block", [pytest.param(w, b, id=w, marks=[pytest.mark.extra("train")] * _needs_train(b))
                                          for w, b in _python_blocks()])
def test_python_example_runs(where, block, tmp_path, monkeypatch):  # pettingzoo's examples: the test extra
    monkeypatch.chdir(tmp_path)  # examples may save files
    exec(compile(block, where, "exec"), {})


@pytest.mark.extra("video")  # the GIF and the MP4 of the README's commands
def test_record_and_replay_commands_run(tmp_path, monkeypatch, capsys):
    from agents.cli import main

    block = re.search(r"```bash\n(.*?)```", _section(TEXT, "Watching matches: record and replay"), flags=re.S).group(1)
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
    section = _section(ENVIRONMENT.read_text(), "Spaces")
    action_rows = re.findall(r"^\| (\d+) \| [A-Z_]+ \|", section, flags=re.M)
    assert [int(i) for i in action_rows] == list(range(env.action_space.shape[0]))
    slices = re.findall(r"^\| (\d+)(?::(\d+))? \| [a-z_]+ \|", section, flags=re.M)
    ends = [int(b) if b else int(a) + 1 for a, b in slices]
    starts = [int(a) for a, _ in slices]
    assert starts[0] == 0 and starts[1:] == ends[:-1] and ends[-1] == env.observation_space.shape[0]
    for text in (section, _section(TEXT, "The environment")):
        assert f"({env.observation_space.shape[0]},)" in text and f"({env.action_space.shape[0]},)" in text


def test_first_screen_still_leads_with_the_two_commands():
    head = TEXT[:TEXT.index("\n## ")]
    block = re.search(r"```bash\n(.*?)```", head, flags=re.S).group(1).strip().splitlines()
    assert len(block) == 2 and "nineball match" in block[0] and "pytest" in block[1]
