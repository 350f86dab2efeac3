"""A bot that joins a game served by ``sliders host``, speaking the protocol directly (see
docs/protocol.md): nothing of sliders is imported, so the same steps work in any language with a
WebSocket library.

    python examples/net_bot.py 127.0.0.1:8765 --room 1 --code 5f0c...e9

It slides each pawn straight down its lane from the foul line at a speed drawn around 0.6 m/s,
takes one of the legal ways to move its scoring pawns at a round's end at random, and prints
what the host tells it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random

from websockets.asyncio.client import connect


async def play(address: str, room: str, code: str, seed: int) -> None:
    rng = random.Random(seed)
    url = address if address.startswith("ws") else f"ws://{address}"
    async with connect(url, max_size=2**25) as ws:
        await ws.send(
            json.dumps({"v": 1, "type": "hello", "room": room, "code": code, "name": "example bot"})
        )
        seat = None
        async for frame in ws:
            msg = json.loads(frame)
            kind = msg["type"]
            if kind == "welcome":
                seat = msg["seat"]
                print(f"playing {seat} in room {msg['room']}, the game at step {msg['step']}")
            elif kind == "turn" and msg["seat"] == seat:
                shot = {
                    "v": 1,
                    "type": "shot",
                    "step": msg["step"],  # the step this shot is for: a stale one is refused
                    "speed": round(rng.uniform(0.5, 0.7), 3),  # m/s
                    "angle_rad": round(rng.uniform(-0.02, 0.02), 4),  # to the right of straight
                    "offset": 0.0,  # m to the right of the lane's axis
                    "release": None,  # None: from the foul line
                }
                await ws.send(json.dumps(shot))
            elif kind == "ask" and msg.get("choice") == "score":  # how its points move its
                moves = rng.choice(msg["options"])  # scoring pawns at the round's end
                await ws.send(
                    json.dumps({"v": 1, "type": "score", "step": msg["step"], "moves": moves})
                )
            elif kind == "ask":  # which scoring pawn its pawn in the hole sends HOME
                answer = {"v": 1, "type": "home", "step": msg["step"], "pawn": msg["pawn"]}
                await ws.send(json.dumps({**answer, "scoring": msg["default"]}))
            elif kind == "news":
                for line in msg["lines"]:
                    print(line)
            elif kind == "refused":
                print(f"refused: {msg['reason']}")
            elif kind == "bye":
                print(f"the host closed: {msg['reason']}")
            elif kind == "over":
                print("over:", f"{msg['winner']} wins" if msg["winner"] else "a draw")
                return


def main() -> None:
    p = argparse.ArgumentParser(description="a bot for a game served by sliders host")
    p.add_argument("address", help="HOST:PORT as the host printed it")
    p.add_argument("--room", default="1")
    p.add_argument("--code", required=True, help="the seat's join code")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    asyncio.run(play(args.address, args.room, args.code, args.seed))


if __name__ == "__main__":
    main()
