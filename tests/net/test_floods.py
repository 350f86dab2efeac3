"""The standing flood campaign, on the loopback and bounded in count and time: a game of two bots
goes on to its end while a crowd of connections past the caps, and a crowd of watchers joining,
leaving and never reading, come at the host; nothing fails inside it (no ERROR logged), what
waits unread stays within its bounds, and every client has the whole game. (Hostile clients:
test_fuzz_host.py; a hostile host: test_fake_host.py; kills and --resume: test_commands.py and
test_network.py.)"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from sliders.game.saves import load_replay
from sliders.net import host as hosting
from sliders.net.guard import Gate
from sliders.net.host import Host

from .test_host import bots, rooms

SOURCES = [f"127.0.0.{i}" for i in range(2, 8)]
WATCH = json.dumps({"v": 1, "type": "hello", "room": "1", "watch": True})


async def _watcher(port: int, source: str, how: str, until: asyncio.Event) -> str:
    """One watcher: ``read`` (the welcome, then leave), ``leave`` (without reading) or
    ``silent`` (never read, until the game ends); what became of it."""
    try:
        async with connect(
            f"ws://127.0.0.1:{port}", max_size=None, max_queue=1, local_addr=(source, 0)
        ) as ws:
            await ws.send(WATCH)
            if how == "read":
                await asyncio.wait_for(ws.recv(), 20)
                return "read"
            if how == "leave":
                return "left"
            ws.transport.pause_reading()  # never read: the host's writes stay unread
            await until.wait()
            ws.transport.abort()  # gone without a word
            return "silent"
    except Exception as exc:  # refused past the caps, or closed by the host
        return type(exc).__name__


def test_a_game_goes_on_through_a_flood_of_connections_and_watchers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(hosting, "WELCOME_PIECE", 512)  # every welcome streams in pieces
    monkeypatch.setattr(hosting, "TOTAL_UNREAD", 2**20)
    monkeypatch.setattr(hosting, "MIN_UNREAD", 2**14)
    worst: list[int] = []

    async def main_() -> tuple[Any, list[str]]:
        (r,) = rooms(tmp_path, max_watchers=40)
        host = Host([r], Gate(total=60, per_address=12))
        await host.start()
        over = asyncio.Event()

        async def crowd() -> list[str]:
            seen: list[str] = []
            for wave in range(3):
                kinds = ("read", "leave", "silent")
                seen += await asyncio.gather(
                    *(
                        _watcher(host.port, SOURCES[i % len(SOURCES)], kinds[i % 3], over)
                        if wave < 2 or i % 3 != 2
                        else asyncio.sleep(0, "skipped")
                        for i in range(72)
                    )
                )
                unread = [c.ws.transport.get_write_buffer_size() for c in r.everyone()]
                worst.append(max(unread, default=0))
            return seen

        async def game() -> list[Any]:
            players = await bots(host, r)
            over.set()
            return players

        players, seen = await asyncio.gather(game(), crowd())
        await host.wait()
        await host.close()
        return players, seen

    with caplog.at_level(logging.ERROR):
        players, seen = asyncio.run(asyncio.wait_for(main_(), 120))
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    logged = load_replay(tmp_path / "1.json").to_json()
    for c in players:
        assert c.over is not None and c.table.game.to_json() == logged
    assert "read" in seen and "left" in seen
    assert any(s == "InvalidStatus" for s in seen)  # past the caps: refused at once
    assert max(worst) <= 2**20 + hosting.WELCOME_PIECE * 4  # unread within its bound
