"""The README's two commands, as written, in a new venv with only what they install (CI runs this: ``.ci/run``).

Deselected by default (``-m fresh_venv`` runs it; minutes). The new venv installs this checkout (editable, as the
README does) and shares its numba cache: run it in a fresh clone to time a first run on a fresh machine, as CI does.
It is the one check that catches a test needing more than the README's test command installs (torch, say). ``CI``
is not passed on (the commands run as a user runs them, where a test that needs another extra skips); ``PYTEST_ADDOPTS``
is (CI runs the suite on both cores with ``-n 2``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Variables of this run that would change what the commands do in the new venv.
DROPPED = ("CI", "PYTHONPATH", "PYTHONHOME", "NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTEST_CURRENT_TEST")


def readme_commands() -> list[str]:
    """The README's first code block: two shell commands (comments cut)."""
    block = re.search(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S).group(1)
    return [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]


def test_the_readme_block_is_two_commands_to_run():
    first, second = readme_commands()
    assert first.startswith("pip install -e . && nineball match")
    assert second.startswith('pip install -e ".[test]" && python -m pytest')


def _run(command: str, env: dict) -> tuple[int, str, float]:
    """Run ``command`` in bash at the repository's root: exit code, output (echoed line by line: live with ``-s``,
    as CI runs it), seconds."""
    start = time.perf_counter()
    lines = []
    with subprocess.Popen(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        for line in process.stdout:
            lines.append(line)
            print(line, end="", flush=True)
    seconds = time.perf_counter() - start
    print(f"== fresh venv: {seconds:.0f} s, exit {process.returncode}: {command}", flush=True)
    return process.returncode, "".join(lines), seconds


@pytest.mark.fresh_venv
def test_the_readme_commands_pass_in_a_new_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in DROPPED and not k.startswith("PYTEST_XDIST")}
    env.update(VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    for command in readme_commands():
        code, out, _ = _run(command, env)
        assert code == 0, f"{command}\n...\n{out[-8000:]}"
    assert not re.search(r"^(FAILED|ERROR) ", out, flags=re.M)
    # Every skip names why: the extra it needs, or what else is missing.
    skips = re.findall(r"^SKIPPED \[\d+\] (\S+): (.*)$", out, flags=re.M)
    unexplained = [(where, why) for where, why in skips if not re.search(r"needs (the \w+ extra|pooltool)|"
                                                                            r"numba has \d+ thread", why)]
    assert not unexplained, unexplained
