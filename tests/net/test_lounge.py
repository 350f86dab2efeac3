"""Bots that join a tournament over the network (``net:NAME`` players) on the loopback: the
example bot and a bot that misses its clock once and sends a bad message once play game after
game; each fault loses that one shot (said in the player's count), never the tournament. A bot
is asked its round-end choice, and its answer is the player's."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import threading
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sliders.net.lounge import CURRENT, ROOM, Lounge
from sliders.rules import default_assignment, legal_assignments
from sliders.tournament.run import Settings, run

from .test_host import scoring_room

ROOT = Path(__file__).resolve().parents[2]


def example_bot() -> Any:
    spec = importlib.util.spec_from_file_location("net_bot", ROOT / "examples" / "net_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def faulty(url: str, code: str, clock: float, turns: list[int]) -> None:
    """A bot that sleeps past its clock on its first turn and sends a malformed shot on its
    second (its connection closed: it joins again), then plays straight down its lane."""
    joined = 0
    while True:
        async with connect(url, max_size=2**25) as ws:
            joined += 1
            hello = {"v": 1, "type": "hello", "room": ROOM, "code": code}
            await ws.send(json.dumps(hello))
            seat = None
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    msg = json.loads(frame)
                    if msg["type"] == "welcome":
                        seat = msg["seat"]
                    elif msg["type"] == "over":
                        return
                    elif msg["type"] == "turn" and msg["seat"] == seat:
                        turns.append(msg["step"])
                        if len(turns) == 1:
                            await asyncio.sleep(clock * 1.5)
                        shot = {"v": 1, "type": "shot", "step": msg["step"], "speed": 0.6}
                        if len(turns) == 2:
                            shot["speed"] = "fast"  # refused: the shot is lost
                        await ws.send(json.dumps(shot))
            if joined > 3:
                return


def test_network_bots_play_a_tournament_and_a_fault_loses_one_shot(tmp_path: Path) -> None:
    # the clock leaves the faulty bot time to join again after its refused shot: with 0.5 s its
    # next turn was sometimes lost too, the clock running out before it was back
    clock = 2.0
    lounge = Lounge(["ex", "faulty"], clock)
    lounge.open()
    url = f"ws://127.0.0.1:{lounge.port}"
    turns: list[int] = []

    async def bots() -> None:
        await asyncio.gather(
            example_bot().play(url, ROOM, lounge.seats["ex"].code, 3),
            faulty(url, lounge.seats["faulty"].code, clock, turns),
        )

    thread = threading.Thread(target=asyncio.run, args=(bots(),), daemon=True)
    thread.start()
    try:
        assert lounge.wait(10) == []
        settings = Settings(
            ("net:ex", "net:faulty"), 2, "race-for-home", "square", ("south", "north"), 1, 1
        )
        games = run(settings, str(tmp_path / "t.jsonl"), 1)
    finally:
        lounge.close()
        thread.join(20)
    assert CURRENT == []
    assert len(games) == 2 and all(g["rounds"] == 2 for g in games)  # both games played out
    assert lounge.seats["faulty"].lost == 2 and lounge.seats["ex"].lost == 0
    assert len(turns) == 8  # every one of its turns was asked of it, the faulted ones too
    shots = {p: sum(g["players"][p]["shots"] for g in games) for p in ("net:ex", "net:faulty")}
    assert shots == {"net:ex": 8, "net:faulty": 8}


def test_a_network_bot_is_asked_its_round_end_choice_and_its_answer_is_the_players(
    tmp_path: Path,
) -> None:
    game = scoring_room(tmp_path).game  # round 2 over: north has a choice
    lounge = Lounge(["b"], 5.0)
    lounge.open()
    asks: list[dict[str, Any]] = []

    async def bot() -> None:
        async with connect(f"ws://127.0.0.1:{lounge.port}", max_size=2**25) as ws:
            hello = {"v": 1, "type": "hello", "room": ROOM, "code": lounge.seats["b"].code}
            await ws.send(json.dumps(hello))
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    msg = json.loads(frame)
                    if msg["type"] == "ask":
                        asks.append(msg)
                        other = next(o for o in msg["options"] if o != msg["default"])
                        answer = {"type": "score", "step": msg["step"], "moves": other}
                        await ws.send(json.dumps({"v": 1, **answer}))
                    elif msg["type"] == "over":
                        return

    thread = threading.Thread(target=asyncio.run, args=(bot(),), daemon=True)
    thread.start()
    try:
        assert lounge.wait(10) == []
        player = lounge.player("b", "north")
        player.begin(game)
        chosen = player.choose_assignment(game.state)
    finally:
        lounge.close()
        thread.join(20)
    options = legal_assignments(game.state, "north")
    default = default_assignment(game.state, "north")
    assert chosen == next(o for o in options if o != default)  # the bot's, not the rules'
    (ask,) = asks
    assert (ask["choice"], ask["seat"], ask["step"], len(ask["options"])) == (
        "score", "north", 8, len(options),
    )  # fmt: skip
