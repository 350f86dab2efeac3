"""Frame time of the play screen with 16 pawns on the table and the camera moving every frame,
against drawing the same screen with the camera still, measured in the same run.

    SDL_VIDEODRIVER=dummy python benchmarks/frame.py [--frames 600] [--size 1280x800] [--engine E]
    SDL_VIDEODRIVER=dummy python benchmarks/frame.py --idle [--frames 600]
    DISPLAY=:99 python benchmarks/frame.py --window [--seconds 4]

``--window`` measures the processor time of the whole process (every thread: ``os.times``) a
frame in a real X window, the window running its own loop (``App.run``, 60 frames a second, the
input polled in between) on a person's turn with the flick control on the square, at 1280x800
and 1920x1080: the pointer still; moving over the window (a steady 125 Hz device going round a
circle, through XTest from a process of its own, ``benchmarks/xdevice.py``); and dragging a pawn
(the device presses on the pawn in hand and carries it round, a turn a second). Each is run as
the window now draws and presents (the present path it chose, and only the held pawn's
rectangles drawn while nothing else moves), and as it used to: the picture sent through OpenGL
(``SDL_FRAMEBUFFER_ACCELERATION=1``) and the whole window drawn on every frame with pointer
motion. It needs an X display (``Xvfb :99 -screen 0 1920x1080x24 &``) and libXtst.

``--idle`` measures idle frames instead: a person's turn on the square at 800x600, 1280x800 and
1920x1080, the lane pane in and nothing moving, each frame a whole ``App.step`` (the window
draws only when something changed), against the same screen drawn every frame.

Sixteen pawns stand on the board of a four-player square and are kicked toward the middle every
half second, so they keep colliding (in the pymunk engine their velocities are set; the exact
engine's state is its solved segments, so there every half second a fresh hard shot is slid into
the sixteen, at a random angle). The camera flies a fixed path: from the overview down the
south lane to its near end, back to the board, close in on the rings and out again, its centre and
scale (pixels per metre, from the whole-table view to about 6000) changing every frame. Rows:

- draw, camera still (the baseline): the screen drawn at the whole-table view;
- draw, camera moving: the same with the camera on its path;
- update + draw, camera moving: a whole frame, physics included; the budget is 4 ms a frame.

Each frame's CPU time (this thread's) is the figure; wall-clock times are printed beside it, and
they grow with whatever else the machine runs (the load average is printed).

The table's tiles and pawn sprites start cold in every row, so painting them is counted.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

if "--window" in sys.argv:
    os.environ["SDL_VIDEODRIVER"] = "x11"
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from sliders.core.outcome import PawnRest, Status  # noqa: E402
from sliders.game.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.physics import DEFAULT_ENGINE, ENGINES, Setup, Shot, Simulation, start  # noqa: E402
from sliders.scenes import app as scene_app  # noqa: E402
from sliders.scenes import draw as scene_draw  # noqa: E402
from sliders.scenes.app import ACCELERATION, App  # noqa: E402
from sliders.scenes.controls import hand_spot  # noqa: E402
from sliders.scenes.screens import PlayScreen  # noqa: E402  (registers every screen)
from sliders.scenes.table import Match  # noqa: E402

FRAME = 1 / 60
SEATS = ("south", "west", "north", "east")
BUDGET_MS = 4.0


def camera_path(t: float, overview: float) -> tuple[tuple[float, float], float]:
    """The camera at ``t`` seconds into its 10-second loop: (centre, scale)."""
    # (time, centre x, centre y, scale) key frames, eased between
    keys = [
        (0.0, 0.0, 0.0, overview),
        (2.0, 0.0, -0.36, 3200.0),  # the south lane's near end, where a person aims
        (4.0, 0.0, -0.08, 1800.0),  # following the pawn to the board
        (5.5, 0.02, 0.0, 6000.0),  # close on the rings
        (7.5, -0.05, 0.05, 2600.0),
        (10.0, 0.0, 0.0, overview),
    ]
    t = t % keys[-1][0]
    for (t0, x0, y0, s0), (t1, x1, y1, s1) in zip(keys, keys[1:], strict=False):
        if t0 <= t <= t1:
            u = (t - t0) / (t1 - t0)
            u = u * u * (3 - 2 * u)  # smoothstep
            scale = math.exp(math.log(s0) + (math.log(s1) - math.log(s0)) * u)
            return (x0 + (x1 - x0) * u, y0 + (y1 - y0) * u), scale
    return (0.0, 0.0), overview


IDLE_SIZES = ((800, 600), (1280, 800), (1920, 1080))


def idle(frames: int) -> None:
    """Processor time of an idle frame (nothing moves: a person about to aim) at each size."""
    print(f"idle play screen (a person's turn, square), {frames} frames at dt={FRAME:.4f} s; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(f"{'size':>10} {'idle frame cpu ms':>18} {'drawn every frame':>18} {'frames drawn':>13}")
    for size in IDLE_SIZES:
        app = App(size, sound=False, think_budget=None)
        config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north=cpu"), 1)
        screen = PlayScreen(app, Match(config))
        app.show(screen)
        for _ in range(240):  # the lane pane slides in, the cameras settle
            app.step(FRAME)
        drawn = app.draws
        c0 = time.thread_time()
        for _ in range(frames):
            app.step(FRAME)
        cpu = (time.thread_time() - c0) / frames
        drawn = app.draws - drawn
        c0 = time.thread_time()
        for _ in range(frames):
            app.step(FRAME, draw=False)
            screen.draw(app.surface)
            pygame.display.flip()
        every = (time.thread_time() - c0) / frames
        label = f"{size[0]}x{size[1]}"
        print(f"{label:>10} {cpu * 1e3:18.3f} {every * 1e3:18.2f} {drawn:13d}")
        app.close()


WINDOW_SIZES = ((1280, 800), (1920, 1080))
DEVICE = Path(__file__).with_name("xdevice.py")


def window(seconds: float) -> None:
    """Process time a frame in a real X window: pointer still, moving, dragging a pawn; as the
    window draws now and as it used to."""
    if not os.environ.get("DISPLAY"):
        raise SystemExit("--window needs an X display: DISPLAY=:99 (Xvfb :99 &)")
    print(f"a person's turn (flick control, square) in a real X window, {seconds:g} s a row at "
          f"{scene_app.FPS} frames/s; processor time of the whole process a frame (all threads) "
          f"and of the window's thread; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")  # fmt: skip
    print(f"{'size':>10} {'draws':>6} {'pointer':>8} {'process ms':>11} {'thread ms':>10} "
          f"{'frames':>7} {'drawn':>6}  present")  # fmt: skip
    user = os.environ.get(ACCELERATION)
    for size in WINDOW_SIZES:
        for before in (True, False):
            if before:
                os.environ[ACCELERATION] = "1"
            elif user is None:
                os.environ.pop(ACCELERATION, None)
            else:
                os.environ[ACCELERATION] = user
            window_rows(size, before, seconds)
    if user is None:
        os.environ.pop(ACCELERATION, None)


def window_rows(size: tuple[int, int], before: bool, seconds: float) -> None:
    """The three rows of one window size, as the window draws now or as it used to."""
    app = App(size, sound=False, control="flick")
    config = MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 1)
    match = Match(config)
    screen = PlayScreen(app, match)
    app.show(screen)
    hover = scene_app.hover_changed
    if before:  # as it used to: every frame with motion drawn whole
        screen.PARTIAL = False  # type: ignore[misc]
        seen = [pygame.mouse.get_pos()]

        def moved() -> bool:
            pos = pygame.mouse.get_pos()
            changed, seen[0] = pos != seen[0], pos
            return changed

        scene_app.hover_changed = moved
    run_for(app, 120, lambda: screen.ready() and screen.lane_shown == 1.0
            and screen.lane_camera.settled(1.0))  # fmt: skip
    run_for(app, 1.5, lambda: False)  # the main pane's camera comes to rest
    lane = match.seat("south")
    x, y = screen.lane_view.to_screen(*lane.to_world(*hand_spot(match, "south", 0, 4)))
    ox, oy = pygame.display.get_window_position()  # the device moves in the screen's pixels
    x, y = x + ox, y + oy
    w, h = size
    label = f"{w}x{h}"
    how = "before" if before else "now"
    device = {
        "still": None,
        "moving": ["circle", ox + w // 2, oy + h // 2, h // 3, seconds + 1],
        "dragging": ["drag", x, y, 40, seconds + 1],
    }
    for pointer, args in device.items():
        proc = None
        if args is not None:
            proc = subprocess.Popen([sys.executable, str(DEVICE), *map(str, args)])
            run_for(app, 0.5, lambda: False)
        cpu, thread, frames, drawn = measured(app, seconds)
        if proc is not None:
            proc.wait(30)
        print(f"{label:>10} {how:>6} {pointer:>8} {cpu:11.2f} {thread:10.2f} "
              f"{frames:7d} {drawn:6d}  {app.present}", flush=True)  # fmt: skip
    scene_app.hover_changed = hover
    app.close()


def run_for(app: App, seconds: float, done: Callable[[], bool]) -> None:
    """Run the window's own loop until ``done()`` or ``seconds`` have passed."""
    plain = App.step.__get__(app)
    end = time.perf_counter() + seconds

    def step(dt: float, draw: bool = True) -> None:
        plain(dt, draw)
        if done() or time.perf_counter() > end:
            app.running = False

    app.step = step  # type: ignore[method-assign]
    app.running = True
    app.run()
    app.step = plain  # type: ignore[method-assign]


def measured(app: App, seconds: float) -> tuple[float, float, int, int]:
    """(process ms a frame, window thread ms a frame, frames, frames drawn) of ``seconds`` of
    the window's loop."""
    frames, drawn = app.frames, app.draws
    t0, c0 = os.times(), time.thread_time()
    run_for(app, seconds, lambda: False)
    t1, c1 = os.times(), time.thread_time()
    n = app.frames - frames
    cpu = (t1.user + t1.system - t0.user - t0.system) / n * 1e3
    return cpu, (c1 - c0) / n * 1e3, n, app.draws - drawn


def parse_args() -> tuple[argparse.Namespace, int, int]:
    """The command line's options, and the window's width and height."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--idle", action="store_true", help="idle frames at three window sizes")
    ap.add_argument(
        "--window",
        action="store_true",
        help="process time a frame in a real X window, pointer still and moving",
    )
    ap.add_argument("--seconds", type=float, default=4.0, help="--window: seconds a row")
    ap.add_argument("--size", default="1280x800", help="window size, WxH (default 1280x800)")
    ap.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                    help=f"physics engine (default {DEFAULT_ENGINE})")  # fmt: skip
    args = ap.parse_args()
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
        if not (320 <= w <= 8192 and 240 <= h <= 8192):
            raise ValueError
    except ValueError:
        ap.error(f"--size {args.size!r}: give WxH, e.g. 1920x1080")
    return args, w, h


def main() -> None:
    args, w, h = parse_args()
    if args.window:
        window(args.seconds)
    elif args.idle:
        idle(args.frames)
    else:
        busy(args, w, h)


def busy(args: argparse.Namespace, w: int, h: int) -> None:
    """Frame times with 16 pawns moving, the camera still and moving."""
    app = App((w, h), sound=False, think_budget=None)
    specs = parse_seat_specs(",".join(f"{s}=cpu:easy" for s in SEATS))
    match = Match(MatchConfig("race-for-home", "square", specs, seed=1, engine=args.engine))
    screen = PlayScreen(app, match)
    app.show(screen)
    rng = np.random.default_rng(0)
    view = screen.view
    look_at = view.look_at
    camera = {"t": 0.0, "moving": False}

    def aim(rect: pygame.Rect) -> None:
        """Whatever the screen asks of the view, show the benchmark's camera."""
        if camera["moving"]:
            centre, scale = camera_path(camera["t"], view.fit_scale(rect))
        else:
            x0, y0, x1, y1 = view.bounds
            centre, scale = ((x0 + x1) / 2, (y0 + y1) / 2), view.fit_scale(rect)
        look_at(centre, scale, rect)

    view.fit = aim  # type: ignore[method-assign]
    view.look_at = lambda centre, scale, rect: aim(rect)  # type: ignore[method-assign]

    def restart(speed: float = 2.0, angle: float = 0.0) -> Simulation:
        table = []
        k = 0
        for seat in SEATS:
            for n in range(1, 5):
                if (seat, n) == ("south", 4):
                    continue
                x, y = -0.06 + 0.04 * (k % 4), -0.06 + 0.04 * (k // 4)
                table.append(PawnRest(f"{seat}-{n}", seat, x, y, Status.ON_TARGET, 1))
                k += 1
        shot = Shot("south", speed, angle, 0.0, None, "south-4")
        sim = start(
            Setup(match.layout, match.face, match.params, args.engine), table, replace(shot, seed=1)
        )
        match.turns.sim = sim  # the benchmark's own shot in flight
        match._curr = match._prev = sim.positions()
        return sim

    def kick(sim: Simulation) -> Simulation:
        if sim.engine == "exact":
            return restart(float(rng.uniform(1.5, 2.5)), float(rng.uniform(-0.15, 0.15)))
        for body in sim.space.bodies:  # type: ignore[attr-defined]
            x, y = body.position
            a = math.atan2(-y, -x) + rng.uniform(-1.0, 1.0)
            speed = rng.uniform(0.2, 0.5)
            body.velocity = (speed * math.cos(a), speed * math.sin(a))
            body.activate()
        sim.moving = True
        return sim

    def measure(update: bool, moving: bool) -> tuple[list[float], list[float], float, int]:
        scene_draw.forget_fonts()  # cold tiles and sprites
        camera["moving"], camera["t"] = moving, 0.0
        sim = kick(restart())
        times, cpu, pawns = [], [], []
        for i in range(args.frames):
            if i % 30 == 0:
                if len(sim.positions()) < 12:
                    sim = restart()
                sim = kick(sim)
            camera["t"] = i * FRAME
            t0, c0 = time.perf_counter(), time.thread_time()
            if update:
                screen.update(FRAME)
            screen.draw(app.surface)
            pygame.display.flip()
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            pawns.append(len(sim.positions()))
        tiles = scene_draw._art(match.layout, match.face)[1].painted
        return times, cpu, statistics.fmean(pawns), tiles

    rows = [
        ("draw, camera still", *measure(update=False, moving=False)),
        ("draw, camera moving", *measure(update=False, moving=True)),
        ("update+draw, moving", *measure(update=True, moving=True)),
    ]
    physics = (
        "solved to each frame's time"
        if args.engine == "exact"
        else f"physics dt={match.params.dt:.5f} s, {round(FRAME / match.params.dt)} steps a frame"
    )
    print(
        f"play screen, {w}x{h}, {args.engine} engine, {args.frames} frames at dt={FRAME:.4f} s "
        f"({physics}); "
        f"camera loop 10 s, scale {view.fit_scale(view.rect):.0f}..6000 px/m; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    report(rows)
    app.close()


def report(rows: list[tuple[str, list[float], list[float], float, int]]) -> None:
    """The table of the rows measured, and the verdict on the whole frame's budget."""
    base = statistics.fmean(rows[0][2])
    print(
        f"{'':22} {'cpu ms':>7} {'wall ms':>8} {'median':>7} {'p95':>7} {'max':>7} "
        f"{'x still':>8} {'pawns':>6} {'tiles':>6}"
    )
    for name, times, cpu, pawns, tiles in rows:
        mean = statistics.fmean(cpu)
        print(
            f"{name:22} {mean * 1e3:7.2f} {statistics.fmean(times) * 1e3:8.2f} "
            f"{statistics.median(times) * 1e3:7.2f} {np.percentile(times, 95) * 1e3:7.2f} "
            f"{max(times) * 1e3:7.2f} {mean / base:8.2f} {pawns:6.1f} {tiles:6d}"
        )
    whole = statistics.fmean(rows[2][2]) * 1e3
    wall = statistics.median(rows[2][1]) * 1e3
    verdict = "within" if whole <= BUDGET_MS else "OVER"
    print(
        f"a whole frame with the camera moving: {whole:.2f} ms of CPU (median wall {wall:.2f} ms), "
        f"{verdict} the {BUDGET_MS} ms budget; x still = CPU time against the still camera's"
    )


if __name__ == "__main__":
    main()
