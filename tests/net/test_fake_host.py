"""A hostile or broken host, faked on the loopback: whatever it sends after the client's hello (a
welcome without its log, deep nesting, text that is not JSON, a binary frame, an ``ask`` or a
step of the wrong shape, another version), ``sliders join`` says so in one line and ends with
status 2, never a traceback; a host that refuses the connection is named with its reason; a
host that goes while a bot chooses its shot is joined again; and an Instant Home choice asked of a
bot that joined after the shot went out is answered at once, with the host's default."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from http import HTTPStatus
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.server import ServerConnection, serve

import sliders.cli.join as join_command
from sliders.cli import main
from sliders.game import HeadlessGame
from sliders.net.guard import refusal
from sliders.tournament.players import make_player

CODE = "ab" * 16


def welcome() -> dict[str, Any]:
    game = HeadlessGame("instant-sorry", "square", ["south", "north"], seed=1)
    return {
        "v": 1, "type": "welcome", "room": "1", "seat": "south", "engine": "exact",
        "seats": [], "log": game.turns.game.to_json(), "step": 0, "turn": "south",
        "clock": None, "turn_timeout": None, "max_rounds": None,
    }  # fmt: skip


WELCOME = welcome()


def but(**changes: Any) -> str:
    data = copy.deepcopy(WELCOME)
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


ASK = {"v": 1, "type": "ask", "choice": "home", "step": 0, "seat": "south", "pawn": "south-1",
       "board": [0, 0, 0, 0], "options": [0, 1], "default": 0, "home": {}}  # fmt: skip
CASES: dict[str, list[str | bytes]] = {
    "welcome without log": [but(log=KeyError)],
    "welcome with a broken log": [but(log={"schema": 2, "face": 7})],
    "welcome with a seat of the wrong type": [but(seat=3)],
    "deep nesting": ["[" * 5000 + "]" * 5000],
    "deep nesting in an object": ['{"v":1,"type":"news","lines":' + "[" * 100 + "]" * 100 + "}"],
    "not JSON": ["this is not json"],
    "binary frame": [b"\x00\x01binary"],
    "version true": [json.dumps({**WELCOME, "v": True})],
    "unknown type": [json.dumps({"v": 1, "type": "party"})],
    "a JSON list": ["[1, 2]"],
    "ask with options of the wrong type": [but(), json.dumps({**ASK, "options": "x"})],
    "ask with a default of the wrong type": [but(), json.dumps({**ASK, "default": "0"})],
    "ask with home of the wrong type": [but(), json.dumps({**ASK, "home": [1]})],
    "ask of an unknown choice": [but(), json.dumps({**ASK, "choice": "dance"})],
    "a step out of order": [but(), json.dumps({"v": 1, "type": "step", "n": 5, "step": {}})],
    "a step that is no step": [but(), json.dumps({"v": 1, "type": "step", "n": 0, "step": {"x": 1}})],
    "a step as a list": [but(), json.dumps({"v": 1, "type": "step", "n": 0, "step": []})],
    "a shot without a slide": [but(), json.dumps({"v": 1, "type": "shot", "step": 0, "slide": 5})],
    "news of numbers": [but(), json.dumps({"v": 1, "type": "news", "lines": [1, 2]})],
    "a turn with a step of text": [but(), json.dumps({"v": 1, "type": "turn", "seat": "south", "step": "0"})],
}  # fmt: skip


class FakeHost:
    """A WebSocket server in a thread of its own that answers a client's first message with
    ``frames`` and then waits for it to go."""

    def __init__(self, frames: list[str | bytes]) -> None:
        self.frames = frames
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def handle(self, ws: ServerConnection) -> None:
        await ws.recv()
        for frame in self.frames:
            await ws.send(frame)
        await ws.wait_closed()

    def __enter__(self) -> FakeHost:
        self.thread.start()

        async def start() -> Any:
            return await serve(self.handle, "127.0.0.1", 0, max_size=None, close_timeout=0.5)

        self.server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            self.server.close()
            await self.server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture(params=["--watch", "--bot"])
def how(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    yield (
        ["--watch", "--text"] if request.param == "--watch" else ["--code", CODE, "--bot", "centre"]
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_host_is_one_line_and_status_2(
    case: str, how: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeHost(CASES[case]) as host:
        status = main(["join", f"127.0.0.1:{host.port}", *how, "--reconnect", "0"])
    out, err = capsys.readouterr()
    assert status == 2, (case, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, (case, err)
    assert err.startswith("sliders join: error: ")


def test_a_host_that_refuses_the_connection_is_named_with_its_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def handle(ws: ServerConnection) -> None:
        await ws.close()

    def full(conn: ServerConnection, request: Any) -> Any:
        return refusal(HTTPStatus.SERVICE_UNAVAILABLE, "the host is full (3 connections)")

    async def run() -> int:
        async with serve(handle, "127.0.0.1", 0, process_request=full) as server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.to_thread(main, ["join", f"127.0.0.1:{port}", "--watch", "--text"])

    assert asyncio.run(run()) == 2
    err = capsys.readouterr().err
    assert err == (
        "sliders join: error: the host refused the connection: the host is full (3 connections)\n"
    )


def join_bot(handle: Callable[[ServerConnection], Awaitable[None]], reconnect: float) -> int:
    """``sliders join --bot centre``'s status against a host on the loopback that answers each
    connection with ``handle``."""

    async def run() -> int:
        async with serve(handle, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            argv = ["join", f"127.0.0.1:{port}", "--code", CODE, "--bot", "centre"]
            return await asyncio.to_thread(main, [*argv, "--reconnect", f"{reconnect:g}"])

    return asyncio.run(run())


class Held:
    """A centre bot whose shots wait until ``gone`` is set (the host it chose for went)."""

    def __init__(self, seat: str, gone: threading.Event) -> None:
        self.player = make_player("centre", seat, np.random.default_rng(1))
        self.gone = gone
        self.choose_assignment = self.player.choose_assignment
        self.choose_home = self.player.choose_home

    def choose_shot(self, *args: Any) -> Any:
        assert self.gone.wait(10)
        return self.player.choose_shot(*args)


def test_a_host_gone_while_a_bot_chooses_its_shot_is_joined_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host goes (a host killed outright, then resumed) while a bot chooses its shot: the
    shot it then sends finds the connection lost, which ``sliders join --bot`` takes as it
    takes a connection lost while it reads: it joins again, shoots the turn the host gives it
    and plays on to the end, rather than stopping with status 2 while the resumed host waits
    for its seat."""
    gone = threading.Event()
    shots: list[dict[str, Any]] = []
    turn = json.dumps({"v": 1, "type": "turn", "seat": "south", "step": 0, "clock": None})
    over = json.dumps({"v": 1, "type": "over", "winner": None, "drawn": False})

    async def handle(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(json.dumps(WELCOME))
        await ws.send(turn)
        if not gone.is_set():  # the first host: it goes as the bot chooses
            await ws.close(1001)  # once the bot's side has the close
            gone.set()
            return
        shots.append(json.loads(await ws.recv()))
        await ws.send(over)
        await ws.wait_closed()

    monkeypatch.setattr(join_command, "make_player", lambda name, seat, rng: Held(seat, gone))
    status = join_bot(handle, reconnect=10)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "the connection to the host was lost: joining again" in out
    assert [(s["type"], s["step"]) for s in shots] == [("shot", 0)]


def test_a_home_choice_asked_of_a_bot_that_joined_after_the_shot_is_the_default() -> None:
    """A bot joined again after its shot's ``shot`` message went out has no slide to run for
    the Instant Home choice the host asks of it: it answers at once with the host's default,
    rather than leaving the host to wait out its time for the answer."""
    answers: list[dict[str, Any]] = []
    over = json.dumps({"v": 1, "type": "over", "winner": None, "drawn": False})
    asked: list[bool] = []

    async def handle(ws: ServerConnection) -> None:
        await ws.recv()
        if asked:  # asked once: the bot joining again is turned away
            await ws.close()
            return
        asked.append(True)
        await ws.send(json.dumps(WELCOME))
        await ws.send(json.dumps({**ASK, "default": 1}))
        try:
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
        except TimeoutError:  # no answer: the host gives up, and the test says so
            await ws.close()
            return
        await ws.send(over)
        await ws.wait_closed()

    status = join_bot(handle, reconnect=0)
    assert [(a["type"], a["step"], a["pawn"], a["scoring"]) for a in answers] == [
        ("home", 0, "south-1", 1)
    ]
    assert status == 0
