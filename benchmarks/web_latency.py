"""The web page on the loopback: latency from a shot's release to the start of its animation on
every other screen, the table screens and the other players' phones (goal: median at most 50 ms).

    python benchmarks/web_latency.py [--screens 2] [--phones 2] [--rounds 1]

A ``sliders host`` process serves one room. South is a program that sends a shot the moment its
turn comes (the release). The next ``--phones`` seats (west, north, east) are phone pages
(390×844, touch) in headless Chromium (Debian's ``chromium``, driven by Playwright), each
flicked with a finger's touch events when its turn comes (its release: the moment the page sent
the shot); with no phones, north is the host's computer. ``--screens`` table pages
(``/table``, 1920×1080) watch. Every page logs the moment each shot's motion came and its
animation started. Printed: each screen's latencies, then for each kind of screen (table,
phone) the median, the 90th percentile and the worst over every (shot, screen) pair but the
shooter's own page; the host's own time from reading a shot to sending its release; the pages'
first paint.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
PHONE_SEATS = ("west", "north", "east")
TOUCH = 1 / 120
"""seconds between two touch samples of a phone's flick"""


async def shooter(port: int, code: str, released: list[tuple[int, float]]) -> None:
    """South: a shot sent as soon as each turn comes, its release time kept; the rules'
    suggestion for every choice."""
    async with connect(f"ws://127.0.0.1:{port}", max_size=2**25) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "room": "1", "code": code}))
        async for frame in ws:
            m = json.loads(frame)
            if m["type"] == "turn" and m["seat"] == "south":
                await asyncio.sleep(0.6)  # the screens are idle when the release comes
                released.append((m["step"], time.time() * 1000))
                shot = {"v": 1, "type": "shot", "step": m["step"], "speed": 0.62,
                        "angle_rad": 0.02 * (len(released) % 3 - 1)}  # fmt: skip
                await ws.send(json.dumps(shot))
            elif m["type"] == "ask" and m["choice"] == "score":
                await ws.send(json.dumps({"v": 1, "type": "score", "step": m["step"],
                                          "moves": m["default"]}))  # fmt: skip
            elif m["type"] == "ask":
                await ws.send(json.dumps({"v": 1, "type": "home", "step": m["step"],
                                          "pawn": m["pawn"], "scoring": m["default"]}))  # fmt: skip
            elif m["type"] in ("over", "bye"):
                return


def flick(page: Page, speed: float) -> None:
    """A finger swings the phone's first pawn in hand up its lane at ``speed`` CSS px/s and lets
    go: touch events stamped with their own times, TOUCH apart."""
    cdp = page.context.new_cdp_session(page)
    x0, y0 = page.evaluate("window.sliders.handAt(0)")
    across = page.evaluate("window.sliders.handLane(0)[1]")
    x1, y1 = page.evaluate(f"window.sliders.screen(0.1, {across})")
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = time.time()

    def touch(kind: str, at: float, *xy: float) -> None:
        points = [{"x": xy[0], "y": xy[1], "id": 1}] if xy else []
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": at})

    touch("touchStart", t, x0, y0)
    n = int(length / (speed * TOUCH))
    for k in range(1, n + 1):
        touch("touchMove", t + TOUCH * k, x0 + ux * speed * TOUCH * k, y0 + uy * speed * TOUCH * k)
    touch("touchEnd", t + TOUCH * n + 0.002)
    cdp.detach()


def serve_phone(page: Page, speeds: list[float]) -> None:
    """The phone's player: answers a question with the rules' suggestion, flicks on its turn."""
    if page.evaluate("!document.getElementById('ask').hidden"):
        page.click("#ask button.suggested")
    ready = page.evaluate(
        "() => { const s = window.sliders; return s.turn === s.seat && !s.motion && !s.held &&"
        " s.state && s.state.phase === 'shooting' && s.state.step === s.step &&"
        " s.sent.every(m => m.step !== s.step); }"
    )
    if ready:
        flick(page, speeds[page.evaluate("window.sliders.sent.length") % len(speeds)])


def summary(kind: str, latencies: list[float]) -> str:
    if not latencies:
        return f"{kind}: no shots seen"
    ms = sorted(latencies)
    return (
        f"{kind}, {len(ms)} (shot, screen) pairs: median {statistics.median(ms):.1f} ms, "
        f"p90 {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, worst {ms[-1]:.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screens", type=int, default=2, help="table pages watching (default: 2)")
    ap.add_argument("--phones", type=int, default=2, choices=range(4),
                    help="seats played from phone pages, after south (default: 2)")  # fmt: skip
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the game (default: 1)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="web-latency-"))
    phones = PHONE_SEATS[: args.phones]
    seats = ",".join(["south=remote", *(f"{s}=remote" for s in phones)])
    if not phones:
        seats += ",north=cpu:easy"
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--dir",
         str(folder), "--seats", seats, "--max-rounds", str(args.rounds), "--seed", "1",
         "--turn-timeout", "600"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    screens: list[tuple[str, str | None]] = []  # (name, seat)
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())
        port, codes = listing["port"], listing["rooms"]["1"]["codes"]
        base = f"http://127.0.0.1:{port}"
        released: list[tuple[int, float]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            pages: list[Page] = []
            for i in range(args.screens):
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(f"{base}/table#room=1")
                pages.append(page)
                screens.append((f"table {i + 1}", None))
            for seat in phones:
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              has_touch=True, is_mobile=True)  # fmt: skip
                page = context.new_page()
                page.goto(f"{base}/play#room=1&code={codes[seat]}")
                pages.append(page)
                screens.append((f"{seat}'s phone", seat))
            for page in pages:
                page.wait_for_function("() => window.sliders && window.sliders.view")
            paints = [
                dict(pg.evaluate("performance.getEntriesByType('paint').map(e => [e.name, e.startTime])"))
                for pg in pages
            ]  # fmt: skip
            thread = threading.Thread(
                target=asyncio.run, args=(shooter(port, codes["south"], released),)
            )
            thread.start()
            speeds = [560.0, 640.0, 600.0, 700.0, 520.0]
            while thread.is_alive():
                for pg, (_, seat) in zip(pages, screens, strict=True):
                    if seat is None:
                        pg.evaluate("0")  # keep the pages' loops served by the driver
                    else:
                        serve_phone(pg, speeds)
                time.sleep(0.1)
            thread.join()
            logs = [
                pg.evaluate("window.sliders.log.filter(e => e.type === 'animate')") for pg in pages
            ]
            sent = {
                seat: pg.evaluate("window.sliders.sent.filter(m => !m.foul)")
                for pg, (_, seat) in zip(pages, screens, strict=True)
                if seat is not None
            }
            browser.close()
    finally:
        try:  # the game is over: the host says how long it held the shots, and ends
            told, _ = host.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            host.terminate()
            told, _ = host.communicate(timeout=10)
    held = [line for line in (told or "").splitlines() if line.startswith("host:")]
    shots: list[tuple[str, int, float]] = [("south", s, t) for s, t in released]
    for seat, messages in sent.items():
        shots += [(seat, m["step"], m["at"]) for m in messages]
    by_kind: dict[str, list[float]] = {"table screens": [], "phones": []}
    by_shooter: dict[str, list[float]] = {"south (a program)": [], "a phone": []}
    for (name, seat), log in zip(screens, logs, strict=True):
        started = {e["step"]: e["at"] for e in log}
        mine = [started[s] - t for who, s, t in shots if s in started and who != seat]
        by_kind["table screens" if seat is None else "phones"] += mine
        for who, s, t in shots:
            if s in started and who != seat:
                by_shooter["south (a program)" if who == "south" else "a phone"].append(
                    started[s] - t
                )
        print(f"{name}: " + " ".join(f"{ms:.1f}" for ms in mine) + " ms")
    print(f"{len(shots)} shots ({len(released)} by south, the rest by phones)")
    print("release to animation start (goal: median at most 50 ms):")
    for kind, ms in (*by_kind.items(), *(("shot by " + k, v) for k, v in by_shooter.items())):
        print("  " + summary(kind, ms))
    print("  " + summary("every other screen", [*by_kind["table screens"], *by_kind["phones"]]))
    for line in held:
        print(line)
    fcp = [p.get("first-contentful-paint", float("nan")) for p in paints]
    print("first contentful paint: " + ", ".join(f"{v:.0f} ms" for v in fcp))


if __name__ == "__main__":
    main()
