"""The web page on the loopback: latency from a shot's release to the start of its animation on
every other screen (goal: median at most 50 ms).

    python benchmarks/web_latency.py [--screens 2] [--rounds 2]

A ``sliders host`` process serves one room: south is a program that sends a shot the moment its
turn comes (the release), north the host's computer. ``--screens`` table pages (``/table``) in
headless Chromium (Debian's ``chromium``, driven by Playwright) watch; each logs the moment the
shot's motion came and its animation started. Printed: each screen's latency for every one of
south's shots, then the median, the 90th percentile and the worst over all; the page's first
paint too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--screens", type=int, default=2, help="pages watching (default: 2)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the game (default: 2)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="web-latency-"))
    seats = "south=remote,north=cpu:easy"
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--dir",
         str(folder), "--seats", seats, "--max-rounds", str(args.rounds), "--seed", "1",
         "--turn-timeout", "600"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())
        port, codes = listing["port"], listing["rooms"]["1"]["codes"]
        base = f"http://127.0.0.1:{port}"
        released: list[tuple[int, float]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            pages = []
            for _ in range(args.screens):
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(f"{base}/table#room=1")
                page.wait_for_function("() => window.sliders && window.sliders.view")
                pages.append(page)
            paints = [
                dict(pg.evaluate("performance.getEntriesByType('paint').map(e => [e.name, e.startTime])"))
                for pg in pages
            ]  # fmt: skip
            thread = threading.Thread(
                target=asyncio.run, args=(shooter(port, codes["south"], released),)
            )
            thread.start()
            while thread.is_alive():
                for pg in pages:
                    pg.evaluate("0")  # keep the pages' loops served by the driver
                time.sleep(0.2)
            thread.join()
            logs = [
                pg.evaluate("window.sliders.log.filter(e => e.type === 'animate')") for pg in pages
            ]
            browser.close()
    finally:
        host.terminate()
        host.wait(10)
    latencies = []
    for i, log in enumerate(logs):
        started = {e["step"]: e["at"] for e in log}
        mine = [started[s] - t for s, t in released if s in started]
        latencies += mine
        print(f"screen {i + 1}: " + " ".join(f"{ms:.1f}" for ms in mine) + " ms")
    latencies.sort()
    print(
        f"release to animation start, {len(latencies)} (shot, screen) pairs: median "
        f"{statistics.median(latencies):.1f} ms, p90 {latencies[int(0.9 * (len(latencies) - 1))]:.1f} ms, "
        f"worst {latencies[-1]:.1f} ms (goal: median at most 50 ms)"
    )
    fcp = [p.get("first-contentful-paint", float("nan")) for p in paints]
    print("first contentful paint: " + ", ".join(f"{v:.0f} ms" for v in fcp))


if __name__ == "__main__":
    main()
