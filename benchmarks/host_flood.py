"""A host under a flood of watchers on the loopback: honest players' release latency, and the
host's memory and CPU, while hundreds of watchers join, leave or never read.

    python benchmarks/host_flood.py [--steps 2500] [--watchers 300] [--seconds 25]
                                    [--before PATH]

A game log of ``--steps`` steps (two seats, weak random shots, so the game goes on) is made once
and taken up by a ``sliders host --resume`` process. Two honest players (one process, bare
WebSocket clients) shoot as soon as it is their turn and time each shot from its sending to its
release coming back (the host's ``shot``). First the players alone for ``--seconds`` / 2, then
with the flood: ``--watchers`` connections from 30 loopback addresses (127.0.0.2 to
127.0.0.31), a third joining, reading the whole welcome and leaving, over and over; a third
joining and leaving without reading; a third joining and never reading (each made again when
the host closes it). Printed for each phase: the players' shots and release latency (median,
worst), the host's memory (resident, at the start and its peak) and its CPU seconds.
``--before PATH``: the same, with the host run from the sources at PATH (another checkout), in
turn with this one.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from websockets.asyncio.client import connect

from sliders.core.outcome import Shot
from sliders.game import HeadlessGame
from sliders.game.saves import save_game
from sliders.rules import Phase

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [f"127.0.0.{i}" for i in range(2, 32)]
"""the flood's addresses: the loopback's, 10 connections each for 300"""


def make_log(path: Path, steps: int) -> None:
    """A game of ``steps`` steps not yet over: weak random shots, so few points are scored."""
    for seed in range(100):
        game = HeadlessGame("instant-sorry", "square", ["south", "north"], seed=seed)
        rng = np.random.default_rng(seed)
        while not game.over and len(game.turns.game.steps) < steps:
            if game.state.phase is Phase.SCORING:
                game.score()
                continue
            seat = str(game.state.turn)
            speed = float(rng.uniform(0.05, 0.45))
            game.shoot(Shot(seat, speed, float(rng.uniform(-0.1, 0.1))))
        if not game.over:
            save_game(game.turns.game, path)
            return
    raise SystemExit("no long game found")


def rss(pid: int) -> float:
    """The process's resident memory, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the players' process -------------------------------------------------------------------------


async def players(url: str, codes: list[str], seconds: float) -> dict[str, Any]:
    """Two seats that shoot at once on their turn; each shot's latency from its sending to its
    release (the host's ``shot``) coming back."""
    latencies: list[float] = []
    end = time.monotonic() + seconds

    async def seat(code: str) -> None:
        async with connect(url, max_size=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "room": "1", "code": code}))
            welcome = json.loads(await ws.recv())
            me = welcome["seat"]
            sent: float | None = None
            while time.monotonic() < end:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
                except TimeoutError:
                    return
                kind = msg["type"]
                if kind == "turn" and msg["seat"] == me:
                    sent = time.perf_counter()
                    shot = {"v": 1, "type": "shot", "step": msg["step"], "speed": 0.3}
                    await ws.send(json.dumps(shot))
                elif kind == "shot" and msg["slide"]["seat"] == me and sent is not None:
                    latencies.append(time.perf_counter() - sent)
                    sent = None
                elif kind == "ask" and msg["seat"] == me:
                    answer: dict[str, Any] = {"v": 1, "step": msg["step"]}
                    if msg["choice"] == "score":
                        answer.update(type="score", moves=msg["default"])
                    else:
                        answer.update(type="home", pawn=msg["pawn"], scoring=msg["default"])
                    await ws.send(json.dumps(answer))

    await asyncio.gather(*(seat(c) for c in codes))
    return {"latencies": latencies}


# -- the flood's process --------------------------------------------------------------------------


def _frame(text: str) -> bytes:
    """A client's masked text frame."""
    data, mask = text.encode(), os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    n = len(data)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0xFE]) + n.to_bytes(2, "big")
    return head + mask + masked


async def _bare(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket handshake and a watcher's hello on a bare socket, nothing read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        + _frame(json.dumps({"v": 1, "type": "hello", "room": "1", "watch": True}))
    )
    return reader, writer


async def flood(port: int, watchers: int, seconds: float) -> dict[str, int]:
    counts = {"joined": 0, "failed": 0}
    end = time.monotonic() + seconds

    async def reading(source: str) -> None:  # join, read the whole welcome, leave
        while time.monotonic() < end:
            try:
                async with connect(
                    f"ws://127.0.0.1:{port}", max_size=None, open_timeout=10,
                    local_addr=(source, 0),
                ) as ws:  # fmt: skip
                    await ws.send(json.dumps({"v": 1, "type": "hello", "room": "1", "watch": True}))
                    await asyncio.wait_for(ws.recv(), 10)
                    counts["joined"] += 1
            except Exception:
                counts["failed"] += 1
                await asyncio.sleep(0.2)

    async def leaving(source: str) -> None:  # join and leave without reading
        while time.monotonic() < end:
            try:
                _, writer = await _bare(port, source)
                counts["joined"] += 1
                await asyncio.sleep(0.5)
                writer.transport.abort()
            except OSError:
                counts["failed"] += 1
                await asyncio.sleep(0.2)

    async def silent(source: str) -> None:  # join and never read (again when closed)
        while time.monotonic() < end:
            try:
                reader, writer = await _bare(port, source)
                counts["joined"] += 1
                while time.monotonic() < end and not reader.at_eof():
                    await asyncio.sleep(0.5)  # never read: only see whether it is closed
                    if writer.transport.is_closing():
                        break
                writer.transport.abort()
            except OSError:
                counts["failed"] += 1
                await asyncio.sleep(0.2)

    kinds = (reading, leaving, silent)
    await asyncio.gather(*(kinds[i % 3](SOURCES[i % len(SOURCES)]) for i in range(watchers)))
    return counts


# -- one run --------------------------------------------------------------------------------------


def one_run(label: str, log: Path, sources: Path, watchers: int, seconds: float) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="flood-"))
    game = folder / "1.json"  # its room: 1
    shutil.copy(log, game)
    env = {**os.environ, "PYTHONPATH": str(sources)}
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--resume", str(game), "--port", "0",
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())
        port, codes = listing["port"], list(listing["rooms"]["1"]["codes"].values())
        url = f"ws://127.0.0.1:{port}"
        me = [sys.executable, __file__]
        out: dict[str, Any] = {"label": label}
        for phase, n in (("alone", 0), ("flood", watchers)):
            span = seconds / 2 if n == 0 else seconds
            mem0, cpu0 = rss(host.pid), cpu(host.pid)
            play = subprocess.Popen(
                [*me, "--role", "players", url, *codes, "--seconds", str(span)],
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            crowd = None
            if n:
                crowd = subprocess.Popen(
                    [*me, "--role", "flood", str(port), "--watchers", str(n), "--seconds",
                     str(span)], stdout=subprocess.PIPE, text=True,
                )  # fmt: skip
            peak = mem0
            while play.poll() is None:
                peak = max(peak, rss(host.pid))
                time.sleep(0.25)
            said = json.loads(play.communicate()[0])
            counts = json.loads(crowd.communicate()[0]) if crowd is not None else {}
            lat = sorted(said["latencies"])
            out[phase] = {
                "shots": len(lat),
                "median_ms": 1000 * statistics.median(lat) if lat else None,
                "max_ms": 1000 * lat[-1] if lat else None,
                "rss_start_mb": mem0,
                "rss_peak_mb": peak,
                "cpu_s": cpu(host.pid) - cpu0,
                **counts,
            }
        return out
    finally:
        host.kill()
        host.wait()
        shutil.rmtree(folder, ignore_errors=True)


def show(run: dict[str, Any]) -> None:
    for phase in ("alone", "flood"):
        r = run[phase]
        lat = (
            f"median {r['median_ms']:.1f} ms, worst {r['max_ms']:.1f} ms"
            if r["shots"]
            else "no shot"
        )
        extra = f", watchers joined {r['joined']} (failed {r['failed']})" if "joined" in r else ""
        print(
            f"{run['label']:>6} {phase:>5}: {r['shots']} shots, release {lat}; host memory "
            f"{r['rss_start_mb']:.0f} -> peak {r['rss_peak_mb']:.0f} MB "
            f"(+{r['rss_peak_mb'] - r['rss_start_mb']:.0f}), CPU {r['cpu_s']:.1f} s{extra}",
            flush=True,
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--role", choices=("players", "flood"), help=argparse.SUPPRESS)
    p.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    p.add_argument("--steps", type=int, default=2500, help="the game log's steps")
    p.add_argument("--watchers", type=int, default=300)
    p.add_argument("--seconds", type=float, default=25.0, help="the flood's length")
    p.add_argument("--before", metavar="PATH", help="also run the host of another checkout")
    args = p.parse_args()
    if args.role == "players":
        print(json.dumps(asyncio.run(players(args.rest[0], args.rest[1:], args.seconds))))
        return
    if args.role == "flood":
        print(json.dumps(asyncio.run(flood(int(args.rest[0]), args.watchers, args.seconds))))
        return
    folder = Path(tempfile.mkdtemp(prefix="flood-log-"))
    log = folder / "long.json"
    t0 = time.monotonic()
    make_log(log, args.steps)
    print(
        f"a game of {args.steps} steps, its log {log.stat().st_size / 2**20:.1f} MB "
        f"(made in {time.monotonic() - t0:.0f} s)",
        flush=True,
    )
    try:
        show(one_run("now", log, ROOT, args.watchers, args.seconds))
        if args.before:
            show(one_run("before", log, Path(args.before), args.watchers, args.seconds))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
