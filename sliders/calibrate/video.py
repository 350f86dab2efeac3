"""Tracking pawns in a video filmed from above.

The board's four corners (given, or found as the largest bright four-sided shape of the first
frame) fix the perspective: each frame is rectified to board metres (the board, :data:`VIEW_MARGIN`
round it and :data:`TRACK_VIEW` of the track south of it, :data:`SCALE` pixels a metre), every
pawn is found as a blob of its colour of about a pawn's size, and blobs are joined frame to frame
into tracks by nearest neighbour; a blob much smaller than its track's usual one (a pawn partly
hidden by the hand or the picture's edge) is left out. OpenCV's headless build does the image work: an optional extra (``pip install
'sorry-sliders[calibrate]'``), loaded only here and only when a video is read.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from sliders.boards.faces import BOARD_SIDE
from sliders.calibrate.tables import Track
from sliders.core.errors import UserError

VIEW_MARGIN = 0.03
"""m: how far round the board the rectified view reaches (the rails)"""
TRACK_VIEW = 0.12
"""m: how far south of the board the rectified view reaches: the end of the track, where a pawn
crosses the joint onto the board"""
PARTIAL = 0.75
"""a blob smaller than this share of its track's median blob is a pawn partly hidden (by the hand,
or by the picture's edge), whose centre is off: left out"""
SCALE = 1000.0
"""px/m of the rectified view (1 px a millimetre)"""
COLOURS: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((0, 8), (170, 180)),
    "yellow": ((20, 34),),
    "green": ((40, 85),),
    "blue": ((95, 130),),
}
"""the pawns' colours: ranges of hue (OpenCV's 0–179); saturation and value must be high too"""
MIN_SATURATION, MIN_VALUE = 120, 50


def load_cv2() -> ModuleType:
    """OpenCV, or one line saying how to install it."""
    try:
        import cv2
    except ImportError:
        raise UserError(
            "reading videos needs OpenCV: pip install 'sorry-sliders[calibrate]' "
            "(or opencv-python-headless)"
        ) from None
    return cv2


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``--corners X1,Y1,...,X4,Y4``: the board's south-west, south-east, north-east and
    north-west corners in the video's pixels."""
    try:
        v = [float(s) for s in text.split(",")]
    except ValueError:
        v = []
    if len(v) != 8 or not all(math.isfinite(x) for x in v):
        raise UserError(
            f"--corners {text!r}: expected eight numbers X1,Y1,...,X4,Y4 (pixels of the board's "
            "south-west, south-east, north-east and north-west corners)"
        )
    return [(v[i], v[i + 1]) for i in range(0, 8, 2)]


@dataclass
class Tracked:
    """What a video gave: its tracks, the board's corners used, its frame rate, its last frame
    (RGB, for the picture: the pawns at rest) and the homography from the frame to board metres."""

    tracks: list[Track]
    corners: list[tuple[float, float]]
    fps: float
    frame: np.ndarray
    to_board: np.ndarray
    frames: int = 0
    notes: list[str] = field(default_factory=list)


def find_corners(frame: np.ndarray, cv2: Any, where: str) -> list[tuple[float, float]]:
    """The board: the largest bright four-sided shape in ``frame``, its corners ordered
    south-west, south-east, north-east, north-west (the south edge nearest the frame's bottom)."""
    grey_sharp = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey_sharp, (0, 0), 2)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    inside, outside = grey[mask > 0], grey[mask == 0]
    if inside.size == 0 or outside.size == 0 or inside.mean() - outside.mean() < 30:
        raise UserError(
            f"{where}: the board was not found in frame 0 (give its corners: --corners)"
        )
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = frame.shape[0] * frame.shape[1]
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        if cv2.contourArea(c) < 0.1 * area:
            break
        hull = cv2.convexHull(c)
        quad = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(quad) == 4:  # each corner refined to a fraction of a pixel on the picture itself
            found = np.asarray(quad, dtype=np.float32).reshape(-1, 1, 2)
            stop = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
            found = cv2.cornerSubPix(grey_sharp, found, (7, 7), (-1, -1), stop)
            return _order([(float(p[0][0]), float(p[0][1])) for p in found])
    raise UserError(f"{where}: the board was not found in frame 0 (give its corners: --corners)")


def _order(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    by_y = sorted(pts, key=lambda p: p[1])
    top, bottom = sorted(by_y[:2]), sorted(by_y[2:])
    return [bottom[0], bottom[1], top[1], top[0]]


def track_video(
    path: str,
    corners: list[tuple[float, float]] | None,
    pawn_radius: float,
    colours: tuple[str, ...] = tuple(COLOURS),
    lift: float = 0.0,
    max_speed: float = 3.0,
) -> Tracked:
    """The tracks of every pawn of ``colours`` in the video ``path`` (a UserError naming the
    file, and the frame, for a file that is not a video, a board or pawns not found).

    ``lift``: the pawn's height over the camera's (a camera over the board's centre): the camera
    sees a pawn's top, which the board's perspective puts ``1/(1 - lift)`` times too far from the
    centre; each position is scaled back by ``1 - lift``."""
    cv2 = load_cv2()
    if not os.path.isfile(path):
        raise UserError(f"{path}: no such file")
    cap = cv2.VideoCapture(path)
    ok, frame = cap.read() if cap.isOpened() else (False, None)
    if not ok or frame is None:
        raise UserError(f"{path}: not a video this program can read")
    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0)
    if not 1 <= fps <= 2000:
        raise UserError(f"{path}: the video gives no frame rate")
    corners = corners or find_corners(frame, cv2, path)
    view = BOARD_SIDE / 2 + VIEW_MARGIN
    width = int(round(2 * view * SCALE))
    height = int(round((view + BOARD_SIDE / 2 + TRACK_VIEW) * SCALE))
    half = BOARD_SIDE / 2
    board_px = np.array(
        [[(x + view) * SCALE, (view - y) * SCALE] for x, y in
         ((-half, -half), (half, -half), (half, half), (-half, half))],
        dtype=np.float32,
    )  # fmt: skip
    H = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), board_px)
    area = math.pi * (pawn_radius * SCALE) ** 2
    tracker = _Tracker(max_speed / fps * 1.5 + 2 * pawn_radius, 1 / fps)
    last = frame
    k = 0
    kernel = np.ones((3, 3), np.uint8)
    while ok:
        top = cv2.warpPerspective(frame, H, (width, height), flags=cv2.INTER_LINEAR)
        hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
        sat = (hsv[..., 1] >= MIN_SATURATION) & (hsv[..., 2] >= MIN_VALUE)
        for name in colours:
            hue = np.zeros(sat.shape, dtype=bool)
            for lo, hi in COLOURS[name]:
                hue |= (hsv[..., 0] >= lo) & (hsv[..., 0] <= hi)
            mask = cv2.morphologyEx((hue & sat).astype(np.uint8), cv2.MORPH_OPEN, kernel)
            n, _, stats, cents = cv2.connectedComponentsWithStats(mask)
            found = [
                (
                    (c[0] / SCALE - view) * (1 - lift),
                    (view - c[1] / SCALE) * (1 - lift),
                    float(s[cv2.CC_STAT_AREA]),
                )
                for s, c in zip(stats[1:], cents[1:], strict=True)
                if 0.35 * area <= s[cv2.CC_STAT_AREA] <= 2.0 * area
            ]
            tracker.add(name, k / fps, found)
        last = frame
        ok, frame = cap.read()
        k += 1
    cap.release()
    label = os.path.splitext(os.path.basename(path))[0]
    tracks = tracker.tracks(label)
    if not tracks:
        raise UserError(
            f"{path}: no pawn found in any of its {k} frames (colours {', '.join(colours)})"
        )
    return Tracked(tracks, list(corners), fps, cv2.cvtColor(last, cv2.COLOR_BGR2RGB), H, k)


class _Tracker:
    """Blobs joined into tracks, colour by colour, by nearest neighbour; each sample keeps its
    blob's area, so that a pawn partly hidden is left out at the end (:data:`PARTIAL`)."""

    def __init__(self, reach: float, dt: float) -> None:
        self.reach, self.dt = reach, dt
        self.open: dict[str, list[list[tuple[float, float, float, float]]]] = {}
        self.done: list[tuple[str, list[tuple[float, float, float, float]]]] = []

    def add(self, colour: str, t: float, found: list[tuple[float, float, float]]) -> None:
        live = self.open.setdefault(colour, [])
        free = list(found)
        pairs = sorted(
            (math.hypot(x - tr[-1][1], y - tr[-1][2]), i, j)
            for i, tr in enumerate(live)
            for j, (x, y, _) in enumerate(free)
        )
        used_t, used_f = set(), set()
        for d, i, j in pairs:
            if i in used_t or j in used_f:
                continue
            gap = t - live[i][-1][0]
            if d <= self.reach * max(1.0, gap / self.dt):
                live[i].append((t, *free[j]))
                used_t.add(i)
                used_f.add(j)
        for j, p in enumerate(free):
            if j not in used_f:
                live.append([(t, *p)])
        keep = []
        for tr in live:
            if t - tr[-1][0] > 1.0:  # unseen for a second: a pawn gone
                self.done.append((colour, tr))
            else:
                keep.append(tr)
        self.open[colour] = keep

    def tracks(self, clip: str) -> list[Track]:
        every = self.done + [(c, tr) for c, trs in self.open.items() for tr in trs]
        out = []
        counts: dict[str, int] = {}
        for colour, tr in sorted(every, key=lambda e: (e[0], e[1][0][0])):
            a = np.array(tr)
            if len(a):
                a = a[a[:, 3] >= PARTIAL * np.median(a[:, 3])]
            if len(a) < 5:
                continue
            counts[colour] = counts.get(colour, 0) + 1
            out.append(Track(clip, f"{colour}{counts[colour]}", a[:, 0], a[:, 1], a[:, 2]))
        return out
