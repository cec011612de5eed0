"""Top view of the table as a uint8 RGB array, drawn with numpy only; plus the optional pygame window.

The head cushion is on the left, the foot cushion on the right (table y runs left to right, x
top to bottom). Balls are drawn in their standard colours with their numbers (a 3×5 bitmap font),
the last shot's trajectories as thin lines in each ball's colour.
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np

import physics
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, SimResult, Table

BALL_COLOURS = np.array([
    (245, 245, 238),  # 0 cue
    (250, 200, 10),   # 1 yellow
    (25, 50, 190),    # 2 blue
    (215, 30, 35),    # 3 red
    (100, 40, 150),   # 4 purple
    (245, 120, 10),   # 5 orange
    (20, 125, 55),    # 6 green
    (115, 20, 35),    # 7 maroon
    (15, 15, 15),     # 8 black
    (250, 200, 10),   # 9 yellow stripe (on white)
], dtype=np.float64)
CLOTH = (38, 96, 150)  # tournament blue
CUSHION = (28, 72, 115)
RAIL = (95, 58, 30)
POCKET = (8, 8, 8)
MARK = (150, 180, 210)
WHITE = np.array((250, 250, 250), dtype=np.float64)

_FONT = {  # 3×5 digits, rows top to bottom
    "0": ("111", "101", "101", "101", "111"), "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"), "3": ("111", "001", "111", "001", "111"),
    "4": ("101", "101", "111", "001", "001"), "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"), "7": ("111", "001", "001", "001", "001"),
    "8": ("111", "101", "111", "101", "111"), "9": ("111", "101", "111", "001", "111"),
}
GLYPHS = {k: np.array([[c == "1" for c in row] for row in rows]) for k, rows in _FONT.items()}


class Renderer:
    """Draws frames of one table at ``scale`` pixels per metre; the empty table is drawn once and cached."""

    def __init__(self, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                 scale: float = 400.0, rail: float = 0.1, trail_samples: int = 150) -> None:
        if not (math.isfinite(scale) and scale >= 100.0):
            raise ValueError(f"scale: expected at least 100 pixels per metre, got {scale!r}")
        self.table, self.params, self.scale, self.trail_samples = table, params, float(scale), trail_samples
        # Frame size rounded up to multiples of 16 (video codecs' macro blocks).
        self.width_px = int(math.ceil((table.length + 2 * rail) * scale / 16.0) * 16)
        self.height_px = int(math.ceil((table.width + 2 * rail) * scale / 16.0) * 16)
        self.col0 = (self.width_px - table.length * scale) / 2.0
        self.row0 = (self.height_px - table.width * scale) / 2.0
        self._background = self._draw_table()

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        """Table coordinates (…, 2) [m] to pixel coordinates (…, 2) as (row, col) floats."""
        xy = np.asarray(xy, dtype=np.float64)
        return np.stack([self.row0 + xy[..., 0] * self.scale, self.col0 + xy[..., 1] * self.scale], axis=-1)

    def _draw_table(self) -> np.ndarray:
        t, s = self.table, self.scale
        img = np.empty((self.height_px, self.width_px, 3), dtype=np.uint8)
        img[:] = RAIL
        cushion = 0.045 * s
        r0, c0 = self.row0, self.col0
        r1, c1 = r0 + t.width * s, c0 + t.length * s
        img[int(r0 - cushion):int(math.ceil(r1 + cushion)), int(c0 - cushion):int(math.ceil(c1 + cushion))] = CUSHION
        img[int(round(r0)):int(round(r1)), int(round(c0)):int(round(c1))] = CLOTH
        for x, y, r in t.pockets:
            fill_disc(img, *self.to_px((x, y)), r * s, POCKET)
        hs = int(round(c0 + t.head_string_y * s))
        img[int(round(r0)):int(round(r1)), hs] = MARK  # the head string
        fill_disc(img, *self.to_px(t.foot_spot), 2.5, MARK)
        return img

    def draw(self, balls: BallState, result: SimResult | None = None) -> np.ndarray:
        """The frame: the table, the last shot's trajectories (if ``result``) and the balls of ``balls`` on the table."""
        img = self._background.copy()
        if result is not None and len(result.events) > 1:
            self._draw_trails(img, result)
        r = self.params.R * self.scale
        for ball in np.flatnonzero(balls.on_table()).tolist():
            draw_ball(img, *self.to_px(balls.pos[ball]), r, ball)
        return img

    def _draw_trails(self, img: np.ndarray, result: SimResult) -> None:
        times = np.linspace(0.0, result.duration, self.trail_samples)
        path = self.to_px(physics.sample_positions(result, times, self.params))  # (T, n, 2)
        start_on = result.initial.on_table()
        for ball in range(path.shape[1]):
            p = path[:, ball]
            if not start_on[ball] or np.ptp(p, axis=0).max() < 1.0:
                continue
            seg = np.hypot(*np.diff(p, axis=0).T)
            arc = np.concatenate([[0.0], np.cumsum(seg)])
            n = max(int(arc[-1] * 2.0), 2)
            at = np.linspace(0.0, arc[-1], n)
            rows = np.interp(at, arc, p[:, 0]).round().astype(int)
            cols = np.interp(at, arc, p[:, 1]).round().astype(int)
            ok = (rows >= 0) & (rows < img.shape[0]) & (cols >= 0) & (cols < img.shape[1])
            colour = BALL_COLOURS[ball] if ball != 8 else np.array((90, 90, 90))
            img[rows[ok], cols[ok]] = colour.astype(np.uint8)


def fill_disc(img: np.ndarray, row: float, col: float, radius: float, colour: object,
              band: float | None = None, band_colour: object = None) -> None:
    """Blend an anti-aliased disc into ``img``; ``band`` (px) paints a horizontal stripe of half-height ``band``."""
    h, w = img.shape[:2]
    r0, r1 = max(int(row - radius - 1), 0), min(int(row + radius + 2), h)
    c0, c1 = max(int(col - radius - 1), 0), min(int(col + radius + 2), w)
    if r0 >= r1 or c0 >= c1:
        return
    rr, cc = np.mgrid[r0:r1, c0:c1]
    dist = np.hypot(rr + 0.5 - row, cc + 0.5 - col)
    alpha = np.clip(radius + 0.5 - dist, 0.0, 1.0)[..., None]
    paint = np.broadcast_to(np.asarray(colour, dtype=np.float64), alpha.shape[:2] + (3,)).copy()
    if band is not None:
        stripe = np.abs(rr + 0.5 - row) <= band
        paint[stripe] = np.asarray(band_colour, dtype=np.float64)
    patch = img[r0:r1, c0:c1].astype(np.float64)
    img[r0:r1, c0:c1] = (patch * (1.0 - alpha) + paint * alpha).round().astype(np.uint8)


def draw_digit(img: np.ndarray, row: float, col: float, text: str, px: int, colour: object) -> None:
    """Write ``text`` (digits) centred at (row, col) with ``px``-pixel font cells."""
    glyphs = [GLYPHS[c] for c in text]
    width = (4 * len(glyphs) - 1) * px
    top = int(round(row - 2.5 * px))
    left = int(round(col - width / 2.0))
    for k, g in enumerate(glyphs):
        cells = np.kron(g, np.ones((px, px), dtype=bool))
        r, c = top, left + 4 * k * px
        if r < 0 or c < 0 or r + cells.shape[0] > img.shape[0] or c + cells.shape[1] > img.shape[1]:
            continue
        img[r:r + cells.shape[0], c:c + cells.shape[1]][cells] = colour


def draw_ball(img: np.ndarray, row: float, col: float, radius: float, ball: int) -> None:
    """One ball in its colour (the 9 striped), with its number on a white disc (the cue ball plain)."""
    if ball == 9:
        fill_disc(img, row, col, radius, WHITE, band=0.55 * radius, band_colour=BALL_COLOURS[9])
    else:
        fill_disc(img, row, col, radius, BALL_COLOURS[ball])
    if ball == 0:
        return
    px = 2 if radius >= 9.0 else 1
    fill_disc(img, row, col, max(0.62 * radius, 3.2 * px), WHITE)
    draw_digit(img, row, col, str(ball), px, (0, 0, 0))


#: Render modes available here: "human" only where pygame is installed (the ``human`` extra).
RENDER_MODES = ["rgb_array", "human"] if importlib.util.find_spec("pygame") is not None else ["rgb_array"]
NO_PYGAME = ('render_mode="human" needs pygame, which is not installed: pip install "nineball[human]" '
             '(or use render_mode="rgb_array")')


def check_render_mode(render_mode: str | None) -> None:
    """ValueError for an unknown mode; DependencyNotInstalled for "human" without pygame."""
    if render_mode == "human" and "human" not in RENDER_MODES:
        from gymnasium.error import DependencyNotInstalled

        raise DependencyNotInstalled(NO_PYGAME)
    if render_mode is not None and render_mode not in ("rgb_array", "human"):
        raise ValueError(f"render_mode: expected None, 'rgb_array' or 'human', got {render_mode!r}")


class HumanWindow:
    """A pygame window showing frames (``render_mode="human"``); needs the ``human`` extra."""

    def __init__(self, width: int, height: int, fps: int = 30) -> None:
        try:
            import pygame
        except ImportError as err:
            from gymnasium.error import DependencyNotInstalled

            raise DependencyNotInstalled(NO_PYGAME) from err
        self._pg = pygame
        pygame.init()
        pygame.display.init()
        self.screen = pygame.display.set_mode((width, height))
        pygame.display.set_caption("nineball")
        self.clock = pygame.time.Clock()
        self.fps = fps

    def show(self, frame: np.ndarray) -> None:
        """Blit ``frame`` (H, W, 3) and keep the window responsive."""
        pg = self._pg
        pg.event.pump()
        surf = pg.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        self.screen.blit(surf, (0, 0))
        pg.display.flip()
        self.clock.tick(self.fps)

    def close(self) -> None:
        self._pg.display.quit()
        self._pg.quit()


class GameScreen:
    """What an env's ``render()`` does: draw the game (its last shot's paths too) as an RGB frame, and show it
    in a window in ``"human"`` mode. Pickles without its window and renderer, which are rebuilt on demand."""

    def __init__(self, mode: str, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS) -> None:
        self.mode, self.table, self.params = mode, table, params
        self._renderer: Renderer | None = None
        self._window: HumanWindow | None = None
        if mode == "human":  # open the window now: a missing pygame fails at construction
            self._open()

    def render(self, game) -> np.ndarray | None:
        """The frame of ``game`` (a ``nineball_env.game.Game``); None in "human" mode, where it is shown."""
        frame = self._draw().draw(game.balls, game.last.result if game.last is not None else None)
        if self.mode != "human":
            return frame
        (self._window or self._open()).show(frame)
        return None

    def _draw(self) -> Renderer:
        if self._renderer is None:
            self._renderer = Renderer(self.table, self.params)
        return self._renderer

    def _open(self) -> HumanWindow:
        self._window = HumanWindow(self._draw().width_px, self._draw().height_px)
        return self._window

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_window": None, "_renderer": None}
