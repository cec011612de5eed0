"""The one mechanism for tests that need an optional extra (``tests/extrakit.py``): skip naming it, fail under CI."""

import sys
import tomllib
from pathlib import Path

import pytest

import extrakit

ROOT = Path(__file__).resolve().parent.parent


def test_a_missing_extra_skips_naming_it_and_how_to_install_it(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setitem(sys.modules, "stable_baselines3", None)
    with pytest.raises(pytest.skip.Exception) as skipped:
        extrakit.require_extra("train", "stable_baselines3")
    assert "needs the train extra (stable_baselines3:" in str(skipped.value)
    assert 'pip install -e ".[train]"' in str(skipped.value)


@pytest.mark.parametrize("ci", ["true", "1", "yes"])
def test_under_ci_a_missing_extra_that_ci_installs_fails(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(pytest.fail.Exception, match="CI=true installs the video extra, but needs the video extra"):
        extrakit.require_extra("video")


def test_under_ci_an_extra_ci_does_not_install_still_skips(monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(pytest.skip.Exception, match="needs the human extra"):
        extrakit.require_extra("human")


def test_a_present_extra_returns_the_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", sys)  # any importable module stands in
    assert extrakit.require_extra("human") is sys


def test_unknown_extras_and_modules_are_errors():
    with pytest.raises(ValueError, match="extra: expected one of train, video, human, ray, got 'gpu'"):
        extrakit.require_extra("gpu")
    with pytest.raises(ValueError, match="module: expected one of the train extra's modules"):
        extrakit.require_extra("train", "numpy")


def test_the_extras_are_pyprojects_and_ci_installs_its_ci_extras():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(extrakit.EXTRAS) <= set(extras)
    in_all = {e.split("[", 1)[1].rstrip("]") for e in extras["all"]}.pop().split(",")
    assert extrakit.CI_EXTRAS == (set(extrakit.EXTRAS) & set(in_all)) | {"ray"}  # .ci/run: all, then ray
    ci = (ROOT / ".ci" / "run").read_text()
    assert '-e ".[all]"' in ci and '-e ".[all,ray]"' in ci


@pytest.mark.extra("human")
def test_the_marker_runs_the_test_when_the_extra_is_there_and_skips_it_when_not():
    import pygame  # noqa: F401  (reached only with the human extra installed)
