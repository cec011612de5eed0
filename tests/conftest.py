"""Suite-wide settings and fixtures, and the ``extra`` marker (``tests/extrakit.py``)."""

import os

import pytest
from hypothesis import settings

from extrakit import require_extra

# No per-example deadline: an example's first call compiles its numba kernels (minutes on a cold cache), which
# Hypothesis would report as a flaky failure. Property tests bound their work by max_examples instead.
settings.register_profile("nineball", deadline=None)
settings.load_profile("nineball")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``@pytest.mark.extra("train")``: skip (or fail under CI=true) without the extra, before the test's fixtures."""
    for mark in item.iter_markers("extra"):
        require_extra(*mark.args)


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_pytest_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """stable-baselines3 makes a logger folder in /tmp for every model without a log dir; keep them in pytest's."""
    os.environ.setdefault("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3")))
