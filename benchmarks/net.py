"""The game host on the loopback: latency from a shot's release to its first frame elsewhere, and
a host serving many games of bot seats at once.

    python benchmarks/net.py [--rooms 25] [--seats 4] [--idle-games 4] [--max-rounds 1] [--hops]

A ``sliders host`` process serves the rooms; ``--client-processes`` processes connect one client a seat (the
``centre`` bot) and, for every shot, times the moment the shooter sends it to the moment each
other client of the room has drawn its first frame (the shot as slid arrives, the same engine
sets it up on the table and steps once). Two runs: one room alone (``--idle-games`` games one
after another), then ``--rooms`` rooms of ``--seats`` bot seats at once (goal: 100 connections).
Printed per run: the release-to-first-frame latency (median, 99th percentile, worst; goal
under 50 ms and 100 ms), the shots played, any shot lost or seen twice (each room's log against
what every client saw), and the host process's CPU per shot (its user and system time read from
/proc, over every shot it served). With ``--hops`` the clients are probed as well (which costs
them CPU, so the latency is measured without): the latency's hops (from the release to the
shot's bytes at the other client's socket, which holds the host's part; from there to the
client's reading it; the frame) and the clients' garbage collections while they played.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from websockets.asyncio.client import ClientConnection

from sliders.core.outcome import Shot
from sliders.game.saves import load_replay
from sliders.net.client import Client
from sliders.physics import PhysicsParams, start
from sliders.tournament.players import make_player

SEAT_ORDER = ("south", "west", "north", "east")
ARRIVED: dict[int, float] = {}
"""when the last bytes holding a ``shot`` reached each client connection (by its id)"""
PAUSES: list[tuple[int, float]] = []
"""this process's garbage collections: (generation, seconds)"""


def host_cpu(pid: int) -> float:
    """The host process's user + system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play_room(
    url: str,
    room: str,
    codes: dict[str, str],
    latencies: list[float],
    hops: list[tuple[float, ...]],
) -> dict[str, Any]:
    """Every seat of ``room`` played by a bot; each shot's release-to-first-frame latency at
    every other client appended to ``latencies``, and its hops to ``hops``."""
    sent: dict[int, float] = {}
    clients = [await Client.join(url, room, c, verify=False) for c in codes.values()]
    seen: dict[str, list[int]] = {c.seat or "": [] for c in clients}

    async def run(client: Client) -> None:
        seat = client.seat or ""
        player = make_player("centre:low", seat, np.random.default_rng(len(seat)))
        table = client.table
        async for msg in client.messages():
            kind = msg["type"]
            if kind == "turn" and msg["seat"] == seat and msg["step"] == table.step:
                shot = player.choose_shot(
                    table.state, table.layout, table.face, PhysicsParams.default()
                )
                sent[table.step] = time.perf_counter()
                await client.shoot(shot)
            elif kind == "shot" and msg["slide"]["seat"] != seat:
                read = time.perf_counter()
                sim = start(table.setup, table.state.table, Shot.from_json(msg["slide"]))
                sim.step()
                sim.positions()
                if msg["step"] in sent:
                    drawn, released = time.perf_counter(), sent[msg["step"]]
                    latencies.append(drawn - released)
                    arrived = ARRIVED.get(id(client.ws), read)
                    hops.append((arrived - released, read - arrived, drawn - read))
            elif kind == "step":
                seen[seat].append(msg["n"])
            elif kind == "over":
                break
        await client.close()

    await asyncio.gather(*(run(c) for c in clients))
    return {"seen": seen, "shots": len(sent)}


def start_host(
    folder: Path, rooms: int, seats: int, max_rounds: int
) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    spec = ",".join(f"{s}=remote" for s in SEAT_ORDER[:seats])
    cmd = [
        sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--rooms", str(rooms),
        "--seats", spec, "--max-rounds", str(max_rounds), "--dir", str(folder), "--hand", "exact",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    listing = json.loads(proc.stdout.readline())
    said: list[str] = []
    listing["said"] = said  # the host's news, and its own part of the latency when it ends

    def read() -> None:
        assert proc.stdout is not None
        said.extend(line for line in proc.stdout if line.startswith("host:"))

    threading.Thread(target=read, daemon=True).start()
    return proc, listing


def play_rooms(url: str, rooms: dict[str, Any]) -> tuple[Any, ...]:
    """Every room of ``rooms`` played in this process: the latencies, each room's result, this
    process's CPU seconds, the latencies' hops and its garbage collections meanwhile."""

    async def main() -> list[dict[str, Any]]:
        return list(
            await asyncio.gather(
                *(play_room(url, n, r["codes"], latencies, hops) for n, r in rooms.items())
            )
        )

    latencies: list[float] = []
    hops: list[tuple[float, ...]] = []
    PAUSES.clear()
    cpu0 = time.process_time()
    results = asyncio.run(main())
    return latencies, results, time.process_time() - cpu0, hops, list(PAUSES)


def one_run(
    rooms: int,
    seats: int,
    games: int,
    max_rounds: int,
    procs: int,
    profile: str = "",
    probe: bool = False,
) -> None:
    latencies: list[float] = []
    hops: list[tuple[float, ...]] = []
    pauses: list[tuple[int, float]] = []
    shots = lost = doubled = 0
    cpu = mine = 0.0
    hosts: list[str] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(procs, initializer=warm_up, initargs=(probe,)) as pool:
        list(pool.map(time.sleep, [0.1] * procs))  # every worker up and warm
        for _ in range(games):
            with tempfile.TemporaryDirectory() as tmp:
                proc, listing = start_host(Path(tmp), rooms, seats, max_rounds)
                spy = profile_host(proc.pid, profile) if profile else None
                cpu0 = host_cpu(proc.pid)
                url = f"127.0.0.1:{listing['port']}"
                names = list(listing["rooms"])
                chunks = [{n: listing["rooms"][n] for n in names[i::procs]} for i in range(procs)]
                done = list(pool.map(play_rooms, [url] * procs, [c for c in chunks]))
                cpu += host_cpu(proc.pid) - cpu0
                proc.wait(timeout=60)
                time.sleep(0.2)
                hosts += listing["said"]
                if spy is not None:
                    spy.wait(timeout=60)
                for chunk, (lat, results, used, hop, paused) in zip(chunks, done, strict=True):
                    latencies += lat
                    hops += hop
                    pauses += paused
                    mine += used
                    for r, res in zip(chunk.values(), results, strict=True):
                        logged = len(load_replay(r["log"]).steps)
                        for steps in res["seen"].values():
                            lost += len(set(range(logged)) - set(steps))
                            doubled += len(steps) - len(set(steps))
                        shots += res["shots"]
    wall = time.perf_counter() - started
    ms = np.array(latencies) * 1000
    print(
        f"{rooms} room(s) x {seats} bot seats ({rooms * seats} connections, clients in {procs} "
        f"process(es)), {games} game(s) each: {shots} shots in {wall:.1f} s; "
        f"lost {lost}, seen twice {doubled}"
    )
    if len(ms):
        print(
            f"  release to first frame elsewhere: median {np.median(ms):.1f} ms, "
            f"p99 {np.percentile(ms, 99):.1f} ms, worst {ms.max():.1f} ms ({len(ms)} frames)"
        )
        parts = np.array(hops) * 1000
        if probe:
            print(
                "  its hops (median / p99 ms): to the other client's socket "
                + ", read there ".join(
                    f"{np.median(h):.1f} / {np.percentile(h, 99):.1f}" for h in parts.T[:2]
                )
                + f", the frame {np.median(parts[:, 2]):.1f} / {np.percentile(parts[:, 2], 99):.1f}"
            )
    for line in hosts:
        print(f"  {line.strip()}")
    collections = (
        f", {sum(g == 2 for g, _ in pauses)} full garbage collections among {len(pauses)}, the "
        f"longest {1000 * max((t for _, t in pauses), default=0.0):.1f} ms"
        if probe
        else ""
    )
    print(
        f"  host CPU: {cpu:.2f} s, {1000 * cpu / max(shots, 1):.1f} ms a shot (rules, physics, "
        f"log, messages); the clients: {mine:.2f} s CPU{collections}"
    )


def profile_host(pid: int, path: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the host process (every thread, idle ones left out) into ``path`` as
    collapsed stacks, until the host ends."""
    spy = Path(sys.executable).with_name("py-spy")
    cmd = [str(spy), "record", "--pid", str(pid), "--format", "raw", "--output", path]
    return subprocess.Popen([*cmd, "--rate", "200", "--threads"], stdout=subprocess.DEVNULL)


def warm_up(probe: bool) -> None:
    """The engine loaded in this process before anything is timed; with ``probe``, the arrival
    of each shot at a client's socket, and each garbage collection, noted from now on (the
    probes cost the clients some CPU: the latency is measured without them by default)."""
    from sliders.game import HeadlessGame

    game = HeadlessGame("instant-sorry", "square", ("south", "north"), 0)
    start(game.turns.setup, (), Shot("south", 0.5, pawn="south-1", seed=0)).run()
    if not probe:
        return
    received = ClientConnection.data_received

    def data_received(self: ClientConnection, data: bytes) -> None:
        if b'"type":"shot"' in data:
            ARRIVED[id(self)] = time.perf_counter()
        received(self, data)

    ClientConnection.data_received = data_received  # type: ignore[method-assign]
    began = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            PAUSES.append((info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(collected)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooms", type=int, default=25)
    p.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--idle-games", type=int, default=4)
    p.add_argument("--max-rounds", type=int, default=1)
    p.add_argument("--client-processes", type=int, default=4, help="processes the clients run in")
    p.add_argument(
        "--profile",
        metavar="FILE",
        default="",
        help="py-spy the host of the many-rooms run into FILE",
    )
    p.add_argument(
        "--hops",
        action="store_true",
        help="probe the clients: each latency's hops and their garbage collections",
    )
    args = p.parse_args()
    if args.idle_games:
        one_run(1, args.seats, args.idle_games, args.max_rounds, 1, probe=args.hops)
    if args.rooms:
        one_run(
            args.rooms, args.seats, 1, args.max_rounds, args.client_processes, args.profile,
            args.hops,
        )  # fmt: skip


if __name__ == "__main__":
    main()
