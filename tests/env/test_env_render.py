"""Rendering: the rgb_array top view (balls in colour with numbers, trajectories), human mode, video."""

from __future__ import annotations

import importlib.util

import gymnasium as gym
import numpy as np
import pytest
from envkit import R, Scripted, MISS, act, position

from nineball_env.env import NineBallEnv
from nineball_env.render import BALL_COLOURS, CLOTH, Renderer


def _frame_after_a_shot():
    env = NineBallEnv(render_mode="rgb_array", opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    return env, env.render()


def test_rgb_array_frame_shape_and_type():
    env, frame = _frame_after_a_shot()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] % 16 == 0 and frame.shape[1] % 16 == 0  # video-codec friendly


def test_balls_in_their_colours_with_numbers():
    env = NineBallEnv(render_mode="rgb_array")
    env.reset(seed=0)
    balls = {0: (0.3, 0.4), 3: (0.6, 1.0), 8: (0.9, 1.5), 9: (0.6, 2.0)}
    position(env, {b: xy for b, xy in balls.items()}, bih="none")
    frame = env.render()
    r = Renderer()
    rad = R * r.scale
    for ball, xy in balls.items():
        row, col = r.to_px(np.array(xy))
        ring = frame[int(row), int(col + 0.85 * rad)]  # between the number disc and the edge
        expected = BALL_COLOURS[ball] if ball != 9 else BALL_COLOURS[9]
        assert np.abs(ring.astype(int) - expected).max() < 40, ball
        if ball:  # a black digit on a white disc in the middle
            centre = frame[int(row) - 5:int(row) + 6, int(col) - 5:int(col) + 6]
            assert (centre.sum(axis=2) < 60).any() and (centre.min(axis=2) > 200).any()
    assert tuple(frame[r.height_px // 2, r.width_px // 2 + 80]) == CLOTH


def test_last_shot_trajectories_are_drawn():
    env = NineBallEnv(render_mode="rgb_array", opponent=Scripted([MISS]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.5), 1: (0.6, 1.5), 9: (0.3, 2.2)})
    empty = Renderer().draw(env._game.balls)
    env.step(act(90.0, 1.2))  # the learner hits the 1 up the table; the opponent then rolls the cue ball back down
    frame = env.render()
    r = Renderer()
    assert env._game.last.player == 1 and env._game.last.result.initial.pos[0][0] == pytest.approx(0.6)
    row, col = r.to_px(np.array([0.6, 1.0]))  # on the cue ball's last path, x = 0.6
    assert not np.array_equal(frame[int(row) - 2:int(row) + 3, int(col) - 2:int(col) + 3],
                              empty[int(row) - 2:int(row) + 3, int(col) - 2:int(col) + 3])


def test_render_needs_reset_and_mode():
    env = NineBallEnv(render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        env.render()


@pytest.mark.skipif(importlib.util.find_spec("pygame") is not None, reason="pygame is installed")
def test_human_mode_without_pygame_fails_clearly():
    with pytest.raises(gym.error.DependencyNotInstalled, match="pygame"):
        NineBallEnv(render_mode="human")


def test_record_video(tmp_path):
    # moviepy (RecordVideo's writer): the test extra
    from gymnasium.wrappers import RecordVideo

    folder = tmp_path / "videos"  # a new folder: RecordVideo warns when it overwrites one
    env = RecordVideo(gym.make("NineBall-v0", render_mode="rgb_array"), str(folder), episode_trigger=lambda e: True)
    env.reset(seed=0)
    for _ in range(3):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    env.close()
    assert list(folder.glob("*.mp4"))


def test_human_window_drives_pygame(monkeypatch):
    """The window code against a stand-in pygame (the real one is an optional extra)."""
    import sys
    from unittest import mock

    from nineball_env.render import HumanWindow

    fake = mock.MagicMock()
    monkeypatch.setitem(sys.modules, "pygame", fake)
    window = HumanWindow(64, 32)
    fake.display.set_mode.assert_called_once_with((64, 32))
    frame = np.zeros((32, 64, 3), dtype=np.uint8)
    window.show(frame)
    assert fake.surfarray.make_surface.call_args[0][0].shape == (64, 32, 3)  # pygame surfaces are (width, height)
    fake.display.flip.assert_called_once()
    window.close()
    fake.quit.assert_called_once()
