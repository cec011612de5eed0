"""Watching a recorded match: animation frames of each re-simulated shot (``recording.resimulate``), written as
GIF/MP4 or shown in a window.

The table and balls are drawn by ``nineball_env.render``; a banner above the table names the rack, the
shot, the shooter and the score, and after the balls stop, the ruling. Banner text needs Pillow (the
``video`` extra, which also brings imageio and ffmpeg for MP4); the window needs pygame (``human``).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

import physics
from agents.arena.recording import MatchFile, ReplayedShot
from nineball_env.render import BALL_COLOURS, HumanWindow, Renderer, draw_ball

BANNER_PX = 32  # a multiple of 16, so frames stay codec-friendly
BANNER = (24, 24, 24)
HOLD_S = 1.0  # the ruling stays on screen this long after the balls stop
MAX_GIF_MEGAPIXELS = 300.0  # Pillow holds every GIF frame in memory (one byte a pixel) before writing


class MissingExtra(RuntimeError):
    """An optional package needed for this output is not installed (the message says which extra)."""


def _pil():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as err:
        raise MissingExtra("drawing the replay needs Pillow: pip install 'nineball[video]'") from err
    return Image, ImageDraw, ImageFont


def _font(ImageFont, size: int = 12):
    """Pillow's built-in font at ``size`` px (a FreeType font since Pillow 10.1), its small bitmap font otherwise."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ValueError, OSError):  # an older Pillow or one built without FreeType
        return ImageFont.load_default()


def check_outputs(gif: str | None, mp4: str | None, window: bool) -> None:
    """MissingExtra before anything is simulated when an output's package is missing."""
    if gif or mp4 or window:
        _pil()
    if mp4 and (importlib.util.find_spec("imageio") is None or importlib.util.find_spec("imageio_ffmpeg") is None):
        raise MissingExtra("--mp4 needs imageio and imageio-ffmpeg: pip install 'nineball[video]'")
    if window and importlib.util.find_spec("pygame") is None:
        raise MissingExtra("--window needs pygame: pip install 'nineball[human]'")


def ruling_text(shot: ReplayedShot, names: Sequence[str]) -> str:
    """One line on the ruling: legal or the fouls, what was pocketed, who is next (or who won the rack)."""
    r = shot.record.ruling
    parts = [("FOUL " + " ".join(r["fouls"])) if r["fouls"] else "legal"]
    if r["declaration"] == "push-out":
        parts[0] = "push-out, " + parts[0]
    if r["declaration"] in ("pass-back", "shoot"):  # the answer to a push-out
        parts = [f"chooses to {r['declaration'].replace('-', ' ')}"]
    if r["pocketed"]:
        parts.append("pocketed " + " ".join(map(str, r["pocketed"])))
    if r["nine_spotted"]:
        parts.append("9 spotted")
    if r["rack_winner"] is not None:
        parts.append(f"{names[r['rack_winner']]} wins the rack ({r['ended_by']})")
    elif r["next_shooter"] is not None:
        parts.append(f"{names[r['next_shooter']]} to shoot")
    return ", ".join(parts)


@dataclass
class FrameMaker:
    """Frames of re-simulated shots: the table at ``scale`` px/m with a banner, ``fps`` frames per second."""

    names: tuple[str, str]
    table: physics.Table
    params: physics.PhysicsParams
    scale: float = 200.0
    fps: int = 15

    def __post_init__(self) -> None:
        if not (isinstance(self.fps, int) and 1 <= self.fps <= 60):
            raise ValueError(f"fps: expected a whole number from 1 to 60, got {self.fps!r}")
        self.renderer = Renderer(self.table, self.params, scale=self.scale)
        Image, ImageDraw, ImageFont = _pil()
        self._image, self._draw = Image, ImageDraw
        self._font = _font(ImageFont)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of a frame in pixels."""
        return self.renderer.width_px, self.renderer.height_px + BANNER_PX

    def n_frames(self, shot: ReplayedShot) -> int:
        """How many frames ``frames(shot)`` yields."""
        hold = max(int(self.fps * HOLD_S), 1)
        if shot.result is None:
            return int(self.fps * HOLD_S) * 2
        return len(np.arange(0.0, shot.result.duration, 1.0 / self.fps)) + hold

    def frames(self, shot: ReplayedShot) -> Iterator[np.ndarray]:
        """The shot from the moment before the strike until the balls stop, then the ruling, held ``HOLD_S``."""
        rec = shot.record
        p = rec.player
        head = (f"rack {rec.rack + 1}  shot {rec.shot + 1}   {self.names[p]} (player {p}) at the table   "
                f"score {self.names[0]} {shot.score[0]} - {shot.score[1]} {self.names[1]}")
        result = shot.result
        if result is None:  # the push-out choice: nothing moves
            still = self._balls(shot.before.pos, shot.before.on_table())
            for _ in range(int(self.fps * HOLD_S) * 2):
                yield self._banner(still, head, ruling_text(shot, self.names))
            return
        duration = result.duration
        times = np.arange(0.0, duration, 1.0 / self.fps)
        path = physics.sample_positions(result, np.append(times, duration), self.params)
        gone = np.full(result.initial.n_balls, np.inf)
        for e in result.events.of_kind(physics.EventKind.BALL_POCKET):
            gone[e.ball_a] = min(gone[e.ball_a], e.time)
        start_on = result.initial.on_table()
        for k, t in enumerate(times):
            yield self._banner(self._balls(path[k], start_on & (gone > t)), head, "")
        final = result.state
        last = self._balls(final.pos, final.on_table())
        text = ruling_text(shot, self.names)
        for _ in range(max(int(self.fps * HOLD_S), 1)):
            yield self._banner(last, head, text)

    def _balls(self, pos: np.ndarray, on: np.ndarray) -> np.ndarray:
        img = self.renderer.draw(physics.BallState.empty())  # the empty table
        r = self.params.R * self.renderer.scale
        for ball in range(len(on)):
            if on[ball]:
                draw_ball(img, *self.renderer.to_px(pos[ball]), r, ball)
        return img

    def _banner(self, table_img: np.ndarray, head: str, ruling: str) -> np.ndarray:
        h, w = table_img.shape[:2]
        frame = np.empty((h + BANNER_PX, w, 3), dtype=np.uint8)
        frame[:BANNER_PX] = BANNER
        frame[BANNER_PX:] = table_img
        image = self._image.fromarray(frame)
        draw = self._draw.Draw(image)
        draw.text((6, 2), head, fill=(235, 235, 235), font=self._font)
        if ruling:
            colour = (255, 120, 110) if ruling.startswith("FOUL") or ", FOUL" in ruling else (150, 230, 150)
            draw.text((6, 16), ruling, fill=colour, font=self._font)
        return np.asarray(image)


def select(shots: Iterable[ReplayedShot], rack: int | None, shot: int | None) -> list[ReplayedShot]:
    """The shots of ``rack`` (1-based; all racks when None), only its ``shot``-th (1-based) when given."""
    out = [s for s in shots if (rack is None or s.record.rack == rack - 1)
           and (shot is None or s.record.shot == shot - 1)]
    return out


def check_selection(record: MatchFile, rack: int | None, shot: int | None) -> None:
    """ValueError naming the flag when ``--rack``/``--shot`` point past the record."""
    if shot is not None and rack is None:
        raise ValueError("--shot: needs --rack (shots are counted within a rack)")
    if rack is not None and not 1 <= rack <= len(record.racks):
        raise ValueError(f"--rack: expected 1 to {len(record.racks)} (racks in this record), got {rack}")
    if shot is not None:
        n = len(record.rack_shots(rack - 1))  # type: ignore[operator]
        if not 1 <= shot <= n:
            raise ValueError(f"--shot: rack {rack} has shots 1 to {n}, got {shot}")


def write_gif(frames: Iterable[np.ndarray], path: str | Path, fps: int) -> int:
    """An animated GIF (loops) from ``frames``; returns the number of frames."""
    Image, _, _ = _pil()
    images = [Image.fromarray(f).quantize(colors=64, method=Image.Quantize.MEDIANCUT) for f in frames]
    if not images:
        raise ValueError("nothing to animate")
    images[0].save(str(path), save_all=True, append_images=images[1:], duration=int(round(1000 / fps)), loop=0,
                   optimize=False)
    return len(images)


def write_mp4(frames: Iterable[np.ndarray], path: str | Path, fps: int) -> int:
    """An H.264 MP4 from ``frames`` (imageio with its ffmpeg); returns the number of frames."""
    try:
        import imageio.v2 as imageio
    except ImportError as err:
        raise MissingExtra("--mp4 needs imageio and imageio-ffmpeg: pip install 'nineball[video]'") from err
    n = 0
    with imageio.get_writer(str(path), fps=fps, codec="libx264", macro_block_size=16, pixelformat="yuv420p") as w:
        for f in frames:
            w.append_data(f)
            n += 1
    return n


def show_window(frames: Iterable[np.ndarray], size: tuple[int, int], fps: int) -> int:
    """Show ``frames`` in a pygame window (the ``human`` extra); returns the number shown."""
    window = HumanWindow(*size, fps=fps)
    n = 0
    try:
        for f in frames:
            window.show(f)
            n += 1
    finally:
        window.close()
    return n


def shot_legend(frame: np.ndarray, pocketed: Sequence[int]) -> np.ndarray:
    """``frame`` (a ``nineball shot --png`` drawing) with a legend strip below: the ball colours, what the
    lines and discs mean, what was pocketed. Needs Pillow (MissingExtra otherwise)."""
    Image, ImageDraw, ImageFont = _pil()
    h, w = frame.shape[:2]
    strip = 48
    out = np.empty((h + strip, w, 3), dtype=np.uint8)
    out[:h] = frame
    out[h:] = BANNER
    chip = 14
    for ball in range(len(BALL_COLOURS)):
        r, c = h + 6 + chip // 2, 10 + ball * (chip + 34) + chip // 2
        draw_ball(out, r, c, chip / 2, ball)
    image = Image.fromarray(out)
    draw = ImageDraw.Draw(image)
    font = _font(ImageFont)
    for ball in range(len(BALL_COLOURS)):
        draw.text((10 + ball * (chip + 34) + chip + 3, h + 6), "cue" if ball == 0 else str(ball),
                  fill=(235, 235, 235), font=font)
    down = ", ".join(map(str, pocketed)) if pocketed else "none"
    draw.text((10, h + 28), f"lines: each ball's path during the shot, in its colour; discs: where the balls "
                            f"came to rest; pocketed: {down}", fill=(235, 235, 235), font=font)
    return np.asarray(image)
