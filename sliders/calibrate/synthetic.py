"""Clips with a known answer: slides simulated with known parameters, filmed as a phone would.

:func:`protocol` lays out the slides of the filming protocol (docs/calibration.md) on the solo
layout, whose three blocker rails close the board: free slides that stop on the board, slides into
a pawn standing on it, slides straight at the far rail. :func:`simulate_clip` runs one through the
physics (:func:`sliders.physics.start`) and samples every pawn at each frame; :func:`render_clip`
draws the frames from above and spoils them (perspective, lens blur, motion blur, noise, uneven
light, a hand over the near edge, the video codec's compression) and writes the video. OpenCV
(the ``calibrate`` extra) is loaded only to render.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sliders.boards import BUILTIN_FACES
from sliders.boards.faces import BOARD_SIDE
from sliders.calibrate.tables import Track
from sliders.calibrate.video import TRACK_VIEW, VIEW_MARGIN, load_cv2
from sliders.core.outcome import Shot
from sliders.files.layouts import load_layout
from sliders.files.scenes import ScenePawn
from sliders.physics import PhysicsParams, Setup, start

SHOOTER, TARGET = "south-1", "south-2"
COLOURS = {SHOOTER: (40, 40, 210), TARGET: (200, 100, 30)}
"""BGR: the shooter red, the pawn standing on the board blue"""


@dataclass(frozen=True)
class Slide:
    """One slide of a clip: ``kind`` free, pawn or rail; the shot; the pawn standing on the board
    (pawn slides)."""

    kind: str
    speed: float
    angle_deg: float
    offset: float
    target: tuple[float, float] | None = None


def protocol(
    free: int,
    pawn: int,
    rail: int,
    params: PhysicsParams,
    seed: int = 0,
    glance: int = 0,
    slant: int = 0,
) -> list[Slide]:
    """The slides of the filming protocol, their speeds chosen for ``params`` so that free slides
    stop on the board, pawn slides hit at 0.3–0.6 m/s and rail slides reach the far rail at
    0.35–0.6 m/s; ``glance`` slides cut a pawn thinly (its centre 1.5–1.8 radii off the line) at
    0.4–0.7 m/s and ``slant`` slides reach the far rail 12.5–13.5° off square at 0.3–0.5 m/s
    (from the lane's far side: about the widest the lane's walls let through that comes back
    clear of the side rails), so that the rims
    slide (rim friction)."""
    rng = np.random.default_rng(seed)
    a, r, half = params.deceleration, params.pawn_radius, BOARD_SIDE / 2
    foul = -0.35  # the solo layout's foul line, y
    out = []
    for _ in range(free):
        stop_y = rng.uniform(-0.09, 0.09)
        out.append(
            Slide(
                "free",
                math.sqrt(2 * a * (stop_y - foul)),
                rng.uniform(-4, 4),
                rng.uniform(-0.02, 0.02),
            )
        )
    for _ in range(pawn):
        tx, ty = rng.uniform(-0.015, 0.015), rng.uniform(-0.06, 0.02)
        offset = rng.uniform(-0.02, 0.02)
        hit = rng.uniform(0.3, 0.6)
        aim = tx + rng.uniform(-0.4, 0.4) * r - offset
        angle = math.degrees(math.atan2(aim, ty - foul))
        dist = math.hypot(aim, ty - 2 * r - foul)
        out.append(Slide("pawn", math.sqrt(hit * hit + 2 * a * dist), angle, offset, (tx, ty)))
    for _ in range(rail):
        hit = rng.uniform(0.35, 0.6)
        dist = half - r - foul
        out.append(
            Slide(
                "rail",
                math.sqrt(hit * hit + 2 * a * dist),
                rng.uniform(-3, 3),
                rng.uniform(-0.02, 0.02),
            )
        )
    for k in range(glance):
        tx, ty = rng.uniform(-0.015, 0.015), rng.uniform(-0.06, 0.0)
        offset = rng.uniform(-0.02, 0.02)
        hit = rng.uniform(0.4, 0.7)
        aim = tx + (1 if k % 2 else -1) * rng.uniform(1.5, 1.8) * r - offset
        angle = math.degrees(math.atan2(aim, ty - foul))
        dist = math.hypot(aim, ty - foul) - 2 * r
        out.append(Slide("glance", math.sqrt(hit * hit + 2 * a * dist), angle, offset, (tx, ty)))
    for k in range(slant):  # from the lane's far side, so as to stay on the track
        sign = 1 if k % 2 else -1
        angle = sign * rng.uniform(12.5, 13.5)
        offset = -sign * 0.035
        hit = rng.uniform(0.3, 0.5)
        dist = (half - r - foul) / math.cos(math.radians(angle))
        out.append(Slide("slant", math.sqrt(hit * hit + 2 * a * dist), angle, offset))
    return out


def simulate_clip(
    slide: Slide, params: PhysicsParams, fps: float, label: str, engine: str | None = None
) -> list[Track]:
    """Every pawn's centre at each frame (time from the release) until the shot settles and a
    half second more, through the physics."""
    layout = load_layout("solo")
    face = BUILTIN_FACES[layout.face]
    table = [ScenePawn(TARGET, *slide.target)] if slide.target else []
    shot = Shot.from_degrees(
        "south", slide.speed, slide.angle_deg, offset=slide.offset, pawn=SHOOTER
    )
    sim = start(Setup(layout, face, params, engine), table, shot)
    samples: dict[str, list[tuple[float, float, float]]] = {}
    k, after = 0, 0
    while after < fps / 2 and k < 20 * fps:
        t = k / fps
        sim.run_until(t)
        for pid, (x, y, _) in sim.positions().items():
            samples.setdefault(pid, []).append((t, x, y))
        after += 0 if sim.moving else 1
        k += 1
    tracks = []
    for pid, rows in samples.items():
        a = np.array(rows)
        tracks.append(Track(label, pid, a[:, 0], a[:, 1], a[:, 2]))
    return tracks


@dataclass(frozen=True)
class Camera:
    """How the phone sees the board: the corners of the board's view (the board,
    :data:`VIEW_MARGIN` round it and the track's last :data:`TRACK_VIEW`, 0.32 m by 0.41 m) in
    the picture, as fractions of its size, clockwise from the top left, and the spoilers."""

    size: int = 320
    quad: tuple[tuple[float, float], ...] = ((0.2, 0.05), (0.84, 0.03), (0.9, 0.97), (0.13, 0.93))
    blur: float = 0.8
    """lens blur, sd in pixels"""
    noise: float = 4.0
    """sensor noise, sd in grey levels"""
    light: float = 0.35
    """uneven light: the brightness falls by this fraction across the picture"""
    exposure: float = 0.5
    """the shutter is open for this fraction of a frame (motion blur)"""
    hand: bool = True


def board_corners(camera: Camera) -> list[tuple[float, float]]:
    """The board's corners in the picture, south-west, south-east, north-east, north-west."""
    cv2 = load_cv2()
    H = _camera(camera, cv2)
    half, view, scale = BOARD_SIDE / 2, BOARD_SIDE / 2 + VIEW_MARGIN, _scale(camera)
    pts = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    canvas = np.stack([(pts[:, 0] + view) * scale, (view - pts[:, 1]) * scale], axis=1)
    img = cv2.perspectiveTransform(canvas.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in img]


def _scale(camera: Camera) -> float:
    """px/m of the drawing before the camera's view: a millimetre to a pixel of a 320-pixel
    video, finer for a larger one."""
    return 1000.0 * max(1.0, camera.size / 320)


def _camera(camera: Camera, cv2: Any) -> np.ndarray:
    width, height = (v * _scale(camera) for v in _view())
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    dst = np.array(camera.quad, dtype=np.float32) * camera.size
    return np.asarray(cv2.getPerspectiveTransform(src, dst))


def render_clip(
    path: str,
    slide: Slide,
    params: PhysicsParams,
    fps: float = 60.0,
    camera: Camera | None = None,
    seed: int = 0,
    engine: str | None = None,
) -> list[Track]:
    """Simulate ``slide``, film it through ``camera`` into the video ``path`` (MP4), and return
    the true tracks at the frames' times."""
    cv2 = load_cv2()
    camera = camera or Camera()
    rng = np.random.default_rng(seed)
    sub = 2
    fine = simulate_clip(slide, params, fps * sub, "fine", engine)
    H = _camera(camera, cv2)
    view = BOARD_SIDE / 2 + VIEW_MARGIN
    scale = _scale(camera)
    width, height = (int(round(v * scale)) for v in _view())
    base = _board(width, height, view, scale, cv2)
    yy, xx = np.mgrid[0 : camera.size, 0 : camera.size] / camera.size
    light = (1 - camera.light * (0.6 * xx + 0.4 * yy))[..., None]
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), fps, (camera.size, camera.size))
    n = int(max(len(tr.t) for tr in fine) // sub)
    open_for = max(1, round(camera.exposure * sub))
    r_px = params.pawn_radius * scale
    for k in range(n):
        frames = []
        for j in range(open_for):
            canvas = base.copy()
            for tr in fine:
                i = k * sub + j
                if i < len(tr.t):
                    c = (
                        int(round((tr.x[i] + view) * scale)),
                        int(round((view - tr.y[i]) * scale)),
                    )
                    cv2.circle(canvas, c, int(round(r_px)), COLOURS.get(tr.pawn, (30, 160, 30)), -1)
                    cv2.circle(
                        canvas,
                        c,
                        int(round(r_px * 0.45)),
                        _lighter(COLOURS.get(tr.pawn, (30, 160, 30))),
                        -1,
                    )
            frames.append(canvas.astype(np.float32))
        canvas = np.mean(frames, axis=0).astype(np.uint8)
        t = k / fps
        if camera.hand and 0.15 < t < 0.6:  # a hand over the near edge, drawn back
            cy = int((view + 0.10 + 0.25 * (t - 0.15)) * scale)
            cv2.ellipse(
                canvas,
                (width // 2 + 60, cy),
                (int(0.06 * scale), int(0.05 * scale)),
                20,
                0,
                360,
                (150, 175, 225),
                -1,
            )
        img = cv2.warpPerspective(canvas, H, (camera.size, camera.size), flags=cv2.INTER_AREA)
        img = cv2.GaussianBlur(img, (0, 0), camera.blur) if camera.blur > 0 else img
        noisy = img.astype(np.float32) * light + rng.normal(0, camera.noise, img.shape)
        writer.write(np.clip(noisy, 0, 255).astype(np.uint8))
    writer.release()
    return [
        Track(
            path,
            tr.pawn,
            tr.t[::sub][:n],
            tr.x[::sub][:n],
            tr.y[::sub][:n],
        )
        for tr in fine
    ]


def _lighter(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(int(min(255, c * 1.25 + 20)) for c in bgr)  # type: ignore[return-value]


def _view() -> tuple[float, float]:
    """The width and height (m) of what the camera films: the board, :data:`VIEW_MARGIN` round
    it and :data:`TRACK_VIEW` of the track south of it (as the tracker rectifies it)."""
    return 2 * (BOARD_SIDE / 2 + VIEW_MARGIN), BOARD_SIDE + VIEW_MARGIN + TRACK_VIEW


def _board(width: int, height: int, view: float, scale: float, cv2: Any) -> np.ndarray:
    """The board and its surroundings drawn from above, ``scale`` px/m."""
    img = np.full((height, width, 3), (45, 60, 75), dtype=np.uint8)  # the table
    half = BOARD_SIDE / 2

    def px(x: float, y: float) -> tuple[int, int]:
        return int(round((x + view) * scale)), int(round((view - y) * scale))

    cv2.rectangle(img, px(-0.058, -half), px(0.058, -half - TRACK_VIEW - 0.01), (120, 120, 125), -1)
    cv2.rectangle(img, px(-half, half), px(half, -half), (195, 212, 222), -1)
    for radius in (0.020, 0.045, 0.070, 0.095):
        cv2.circle(img, px(0, 0), int(radius * scale), (150, 160, 165), 2)
    t = 0.006
    for a, b in (
        ((-half - t, -half), (-half, half + t)),
        ((-half - t, half), (half + t, half + t)),
        ((half, -half), (half + t, half + t)),
    ):
        cv2.rectangle(img, px(*a), px(*b), (70, 70, 70), -1)
    return img
