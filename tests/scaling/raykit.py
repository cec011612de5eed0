"""What the Ray tests share: the Ray import that skips without the extra (and fails in CI), a free port."""

import importlib
import os
import socket

import pytest


def require(module: str):
    """``pytest.importorskip(module)``, except under CI=true, where the ray extra is installed: there a missing
    module is an error, not a skip."""
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        return importlib.import_module(module)
    return pytest.importorskip(module, reason="needs the ray extra: pip install 'nineball[ray]'")


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
