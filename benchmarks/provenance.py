"""Where a benchmark's figures came from: the commit and the machine, for the JSON every script prints."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def commit() -> str | None:
    """The checkout's short commit hash, None outside a git checkout."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def provenance() -> dict[str, str | None]:
    """``commit``, ``python`` and ``machine`` keys for a benchmark's JSON output."""
    return {"commit": commit(), "python": platform.python_version(), "machine": platform.machine()}
