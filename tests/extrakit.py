"""Tests that need an optional extra, one mechanism: ``@pytest.mark.extra("train")`` on the test (``tests/conftest.py``
checks it before the test runs; ``pytest -m extra`` selects them) or ``require_extra("ray", "ray.rllib")`` at the top
of a test module whose imports need the extra.

Without the extra the test skips, and the reason names the extra and how to install it (the README's test command
installs only the ``test`` extra, whose modules tests import plainly). Under ``CI=true`` it fails instead, for every
extra CI installs (``CI_EXTRAS``, see ``.ci/run``): there a missing extra is a broken install, not a reason to skip.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

#: The modules tests import from each optional extra of pyproject.toml (the ``test`` extra's are imported plainly).
EXTRAS = {
    "train": ("torch", "stable_baselines3", "tensorboard"),
    "video": ("PIL", "imageio", "imageio_ffmpeg"),
    "human": ("pygame",),
    "ray": ("ray", "ray.rllib"),
}
#: The extras ``.ci/run`` installs: under CI=true a test that needs one of them fails when it is missing.
CI_EXTRAS = frozenset({"train", "video", "ray"})
INSTALL = {
    "train": 'pip install torch --index-url https://download.pytorch.org/whl/cpu && pip install -e ".[train]"',
    "video": 'pip install -e ".[video]"',
    "human": 'pip install -e ".[human]"',
    "ray": 'pip install torch --index-url https://download.pytorch.org/whl/cpu && pip install -e ".[ray]"',
}


def in_ci() -> bool:
    """CI=true (or 1, yes) in the environment."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require_extra(extra: str, module: str | None = None) -> ModuleType | None:
    """Import ``module`` of ``extra`` (every module of the extra when None; returns the last) or skip the calling test
    (module) with a reason naming the extra; under CI=true fail for an extra of ``CI_EXTRAS``."""
    if extra not in EXTRAS:
        raise ValueError(f"extra: expected one of {', '.join(EXTRAS)}, got {extra!r}")
    modules = EXTRAS[extra] if module is None else (module,)
    if not set(modules) <= set(EXTRAS[extra]):
        raise ValueError(f"module: expected one of the {extra} extra's modules {EXTRAS[extra]}, got {module!r}")
    imported = None
    for name in modules:
        try:
            imported = importlib.import_module(name)
        except ImportError as err:
            reason = f"needs the {extra} extra ({name}: {err}): {INSTALL[extra]}"
            if in_ci() and extra in CI_EXTRAS:
                pytest.fail(f"CI=true installs the {extra} extra, but {reason}", pytrace=False)
            # reported at the test (or module) that needs the extra, as a skipif mark is
            raise pytest.skip.Exception(reason, allow_module_level=True, _use_item_location=True)
    return imported
