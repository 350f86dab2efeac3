"""The game host and its clients over real sockets on the loopback: a game played by bots and
watched, hostile clients refused one by one while the game goes on, a client that drops and
comes back, a host stopped and resumed from its log, the turn timeout and the clock."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sliders.core.outcome import Shot
from sliders.game import HeadlessGame, Turns
from sliders.game.config import config_from_flags
from sliders.game.saves import load_replay
from sliders.net.client import Client, play_bot
from sliders.net.host import Host, Room, new_room, parse_host_seats, resume_room
from sliders.net.protocol import MAX_MESSAGE, VERSION, ProtocolError, check_client, decode
from sliders.rules import (
    Game,
    Move,
    Phase,
    ScoreStep,
    default_assignment,
    default_assignments,
    legal_assignments,
)
from sliders.tournament.players import make_player

SEATS = "south=remote,north=remote"
SEATS_HUMAN = "south=human,north=human"


def centre(seat: str) -> Any:
    return make_player("centre:low", seat, np.random.default_rng(len(seat)))


def rooms(
    folder: Path, n: int = 1, seats: str = SEATS, first: int = 1, **options: Any
) -> list[Room]:
    plans = parse_host_seats(seats)
    spec = ",".join(f"{p.seat}=human" if p.kind == "remote" else f"{p.seat}=cpu" for p in plans)
    config = config_from_flags("instant-sorry", "square", spec, 7)
    return [new_room(str(i), config, plans, folder, 1, **options) for i in range(first, first + n)]


async def bots(host: Host, room: Room, **kw: Any) -> list[Client]:
    url = f"127.0.0.1:{host.port}"
    return list(
        await asyncio.gather(
            *(play_bot(url, room.name, c, centre, **kw) for c in room.codes.values())
        )
    )


async def raw(port: int, *frames: str | bytes, wait: float = 2.0) -> list[dict[str, Any]]:
    """Send ``frames`` on a bare connection; every message the host sent back until it closed
    the connection (or ``wait`` passed)."""
    got: list[dict[str, Any]] = []
    async with connect(f"ws://127.0.0.1:{port}", max_size=2**25) as ws:
        try:
            for f in frames:
                await ws.send(f)
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), wait)))
        except (ConnectionClosed, TimeoutError):
            pass
    return got


def test_bots_play_a_game_to_its_end_and_a_spectator_sees_every_step(tmp_path: Path) -> None:
    async def main() -> tuple[list[Client], Client, list[Room]]:
        made = rooms(tmp_path, 2)
        host = Host(made)
        await host.start()
        watcher = await Client.join(f"127.0.0.1:{host.port}", "2", watch=True)
        seen: list[dict[str, Any]] = []

        async def watch() -> None:
            async for msg in watcher.messages():
                seen.append(msg)

        watching = asyncio.create_task(watch())
        players = [c for r in made for c in await bots(host, r)]
        await host.wait()
        await host.close()
        await asyncio.wait_for(watching, 5)
        assert any(m["type"] == "shot" for m in seen)  # the slide, sent at release
        return players, watcher, made

    players, watcher, made = asyncio.run(main())
    for r in made:
        logged = load_replay(r.log)
        assert logged.state.round == 2 and len(logged.steps) == 9  # 8 shots and a round scored
        assert all(s.to_json() == j for s, j in zip(logged.steps, r.steps_json, strict=True))
        assert all(
            step.slide is not None and step.slide.seed is not None for step in logged.steps[:8]
        )  # type: ignore[union-attr]
    for c in (*players, watcher):
        assert c.over is not None and c.table.step == 9
        assert c.table.mismatches == []  # every shot ran here as on the host, bit for bit
    assert players[0].table.game.to_json() == load_replay(made[0].log).to_json()
    assert watcher.table.game.to_json() == load_replay(made[1].log).to_json()


def test_the_protocol_refuses_every_malformed_message() -> None:
    good = {"v": VERSION, "type": "shot", "step": 0, "speed": 0.5}
    assert check_client(decode(json.dumps(good)))["speed"] == 0.5
    move = {"pawn": "south-1", "scoring": 0, "points": 4}
    score = {"v": VERSION, "type": "score", "step": 8, "moves": [move]}
    assert check_client(decode(json.dumps(score)))["moves"] == [move]
    bad = [
        b"\x00binary",
        "not json",
        '{"v": 1, "type": "shot", "step": 0, "speed": 0.5',  # truncated
        "[1, 2]",
        json.dumps({**good, "v": 2}),
        json.dumps({**good, "type": "explode"}),
        json.dumps({**good, "type": "welcome"}),  # a host's message
        json.dumps({**good, "speed": float("nan")}).replace("NaN", "NaN"),
        json.dumps({**good, "speed": 1e308}),
        json.dumps({**good, "step": -1}),
        json.dumps({**good, "extra": 1}),
        json.dumps({**good, "release": "../../etc/passwd"}),
        json.dumps({"v": 1, "type": "hello", "room": "../x", "watch": True}),
        json.dumps({"v": 1, "type": "hello", "room": "1", "code": "00" * 15}),
        json.dumps({"v": 1, "type": "hello", "room": "1"}),  # neither code nor watch
        json.dumps({"v": 1, "type": "aim", "along": 0.1}),
        json.dumps({"v": 1, "type": "score", "step": 8}),  # no moves
        json.dumps({"v": 1, "type": "score", "step": 8, "moves": [move] * 5}),
        json.dumps({"v": 1, "type": "score", "step": 8, "moves": [{**move, "scoring": 4}]}),
        json.dumps({"v": 1, "type": "score", "step": 8, "moves": [{**move, "points": 99}]}),
        json.dumps({"v": 1, "type": "score", "step": 8, "moves": [{**move, "x": 1}]}),
        json.dumps({"v": 1, "type": "score", "step": 8, "moves": [{**move, "pawn": "../x"}]}),
        "x" * (MAX_MESSAGE + 1),
        "[" * 100 + "]" * 100,
    ]
    for frame in bad:
        with pytest.raises(ProtocolError):
            check_client(decode(frame))


def test_hostile_clients_are_closed_one_by_one_and_the_game_goes_on(tmp_path: Path) -> None:
    async def main() -> tuple[list[list[dict[str, Any]]], list[Client], Room]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        port = host.port
        south = r.codes["south"]
        hello = json.dumps({"v": 1, "type": "hello", "room": "1", "code": south})
        shot = {"v": 1, "type": "shot", "step": 0, "speed": 0.6}
        answers = [
            await raw(port, "garbage"),
            await raw(port, '{"v": 1, "type": "hello", "room": "1", "wat'),  # truncated
            await raw(port, "y" * (MAX_MESSAGE * 4)),  # too big for the socket
            await raw(port, json.dumps(shot)),  # no hello first
            await raw(port, json.dumps({"v": 1, "type": "hello", "room": "1", "code": "ab" * 16})),
            await raw(port, json.dumps({"v": 1, "type": "hello", "room": "9", "watch": True})),
            await raw(
                port,
                json.dumps({"v": 1, "type": "hello", "room": "1", "watch": True}),
                json.dumps(shot),  # a spectator cannot act
            ),
            await raw(port, hello, json.dumps({**shot, "step": 5}), wait=0.5),  # stale or future
            await raw(
                port,
                hello,
                *[json.dumps({"v": 1, "type": "aim", "along": 0.1, "across": 0.0})] * 200,
            ),
        ]
        players = await bots(host, r)
        await host.wait()
        await host.close()
        return answers, players, r

    answers, players, r = asyncio.run(main())
    reasons = [[m.get("reason", "") for m in a if m["type"] in ("bye", "refused")] for a in answers]
    assert "not valid JSON" in reasons[0][0]
    assert "not valid JSON" in reasons[1][0]
    assert reasons[2] == []  # closed by the WebSocket's size limit (1009), no message read
    assert reasons[3] == ["say hello first"]
    assert reasons[4] == ["no seat has this join code"]
    assert reasons[5] == ["no room named 9"]
    assert reasons[6] == ["a spectator cannot act"]
    assert answers[7][0]["type"] == "welcome" and reasons[7] in (
        ["not your turn"],
        ["the game is at step 0"],
    )
    assert "messages a second" in reasons[8][-1]
    assert all(c.over is not None for c in players)
    assert len(load_replay(r.log).steps) == 9


def test_out_of_turn_and_replayed_shots_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async def main() -> tuple[list[str], int]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        south = await Client.join(url, "1", r.codes["south"])
        north = await Client.join(url, "1", r.codes["north"])
        shot = Shot("south", 0.6)
        reasons: list[str] = []
        await north.shoot(Shot("north", 0.6))  # out of turn
        await south.shoot(shot)
        async for msg in south.messages():
            if msg["type"] == "step":
                await south.send({"type": "shot", "step": 0, "speed": 0.6})  # replayed
                await north.send(
                    {"type": "shot", "step": 0, "speed": 0.6}
                )  # replayed, and north's turn
            if msg["type"] == "refused":
                reasons.append(msg["reason"])
                break
        async for msg in north.messages():
            if msg["type"] == "refused":
                reasons.append(msg["reason"])
                if len(reasons) == 3:
                    break
        steps = r.step
        await host.close()
        return reasons, steps

    reasons, steps = asyncio.run(main())
    assert reasons[0] == "not your turn"
    assert set(reasons[1:]) <= {"not your turn", "the game is at step 1"}
    assert steps == 1


def test_a_client_that_drops_rejoins_its_seat_and_the_game_goes_on(tmp_path: Path) -> None:
    async def main() -> tuple[list[Client], list[str]]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        news: list[str] = []
        watcher = await Client.join(url, "1", watch=True)

        async def watch() -> None:
            async for msg in watcher.messages():
                news.extend(msg.get("lines", []))

        watching = asyncio.create_task(watch())
        first = await Client.join(url, "1", r.codes["south"])
        await first.shoot(Shot("south", 0.6))
        async for msg in first.messages():
            if msg["type"] == "step":
                break
        first.ws.transport.abort()  # killed
        await asyncio.sleep(0.2)
        players = await bots(host, r)  # south comes back with its code
        await host.wait()
        await host.close()
        await asyncio.wait_for(watching, 5)
        return players, news

    players, news = asyncio.run(main())
    assert "south dropped" in news
    assert sum(line.startswith("south is here") for line in news) == 2
    assert all(c.over is not None and c.table.mismatches == [] for c in players)


def test_a_client_joining_after_the_end_is_told_the_end_after_its_welcome(tmp_path: Path) -> None:
    """Its connection lost as the game ended, a client comes back to a game already over: the
    ``over`` it missed follows the welcome (else a window would wait for it for ever)."""

    async def main() -> list[list[dict[str, Any]]]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        await bots(host, r)
        await host.wait()
        hello = {"v": VERSION, "type": "hello", "room": "1"}
        got = [
            await raw(host.port, json.dumps(hello | {"code": r.codes["south"]}), wait=0.5),
            await raw(host.port, json.dumps(hello | {"watch": True}), wait=0.5),  # a spectator
        ]
        await host.close()
        return got

    for got in asyncio.run(main()):
        kinds = [m["type"] for m in got]
        assert kinds[0] == "welcome" and len(got[0]["log"]["steps"]) == 9
        assert kinds[-1] == "over" and kinds.count("over") == 1


def test_a_host_stopped_mid_game_resumes_from_its_log_with_the_same_codes(tmp_path: Path) -> None:
    async def first_half() -> Room:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"127.0.0.1:{host.port}"

        async def until_three_steps(seat: str) -> None:
            client = await Client.join(url, "1", r.codes[seat])
            async for msg in client.messages():
                if msg["type"] == "turn" and msg["seat"] == seat and client.table.step < 3:
                    await client.shoot(Shot(seat, 0.55))
                if client.table.step >= 3:
                    break

        await asyncio.gather(until_three_steps("south"), until_three_steps("north"))
        await host.close()  # the host goes away mid-game
        return r

    r = asyncio.run(first_half())
    codes = dict(r.codes)
    before = load_replay(r.log).to_json()["steps"]
    assert len(before) >= 3

    async def second_half() -> tuple[Room, list[Client]]:
        resumed = resume_room(r.log, None, max_rounds=1)
        assert resumed.codes == codes and resumed.step >= 3
        host = Host([resumed])
        await host.start()
        players = await bots(host, resumed)
        await host.wait()
        await host.close()
        return resumed, players

    resumed, players = asyncio.run(second_half())
    logged = load_replay(resumed.log)
    assert logged.to_json()["steps"][: len(before)] == before  # nothing lost, nothing doubled
    assert resumed.game.over and len(logged.steps) >= 8
    assert all(c.table.mismatches == [] for c in players)


def test_an_absent_seat_is_played_by_the_stand_in_and_a_silent_one_loses_its_shots(
    tmp_path: Path,
) -> None:
    async def main() -> tuple[Room, Room, list[str]]:
        (away,) = rooms(tmp_path / "a", turn_timeout=0.05, stand_in="easy")
        (slow,) = rooms(tmp_path / "b", first=2, clock=0.05)
        host = Host([away, slow])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        news: list[str] = []
        silent = [await Client.join(url, "2", c) for c in slow.codes.values()]

        async def listen(c: Client) -> None:
            async for msg in c.messages():
                news.extend(msg.get("lines", []))

        listening = [asyncio.create_task(listen(c)) for c in silent]
        await host.wait()
        await host.close()
        await asyncio.gather(*listening)
        return away, slow, news

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    away, slow, news = asyncio.run(main())
    played = load_replay(away.log)
    assert len(played.steps) == 9  # nobody came: the computer played it all, as the log says
    assert [getattr(s, "by", "") for s in played.steps[:8]] == ["stand-in"] * 8
    lost = load_replay(slow.log)
    assert len(lost.steps) == 9
    assert [getattr(s, "by", "") for s in lost.steps[:8]] == ["clock"] * 8
    # every one of the 8 shots lost, as both silent players were told
    assert news.count("south ran out of time: the shot is lost") == 4 * 2
    assert news.count("north ran out of time: the shot is lost") == 4 * 2
    assert sum("is a foul" in line for line in news) == 8 * 2


def test_the_hand_of_the_seat_to_move_is_relayed_to_the_others_and_no_one_elses(
    tmp_path: Path,
) -> None:
    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        south = await Client.join(url, "1", r.codes["south"])
        north = await Client.join(url, "1", r.codes["north"])
        await north.send({"type": "aim", "along": 0.2, "across": 0.0})  # not north's turn
        await south.send({"type": "aim", "along": 0.1, "across": -0.01})

        async def aims(c: Client) -> list[dict[str, Any]]:
            got: list[dict[str, Any]] = []
            try:
                async with asyncio.timeout(0.5):
                    async for msg in c.messages():
                        if msg["type"] == "aim":
                            got.append(msg)
            except TimeoutError:
                pass
            return got

        to_north, to_south = await asyncio.gather(aims(north), aims(south))
        await host.close()
        return to_north, to_south

    to_north, to_south = asyncio.run(main())
    assert [(m["seat"], m["along"], m["across"]) for m in to_north] == [("south", 0.1, -0.01)]
    assert to_south == []


def test_an_instant_home_choice_is_asked_of_the_remote_seat_and_its_answer_logged(
    tmp_path: Path,
) -> None:
    """South's pawn slid to rest in the hole in round 2, its scoring pawns on four squares: the
    host asks south which goes HOME, refuses an answer that is not an option, takes the next."""
    config = config_from_flags("instant-home", "square", SEATS_HUMAN, 3, hand="exact")
    boards = {"south": (4, 1, 0, 2), "north": (0, 0, 0, 0)}
    game = Game("instant-home", ("south", "north"), "south", "square", boards=boards, round=2)
    room = Room(
        "1",
        HeadlessGame.of(Turns(config, game=game, max_rounds=2)),
        parse_host_seats(SEATS),
        tmp_path / "1.json",
    )
    lane = room.game.seat("south")
    params = room.game.params
    reach = math.hypot(*lane.to_world(lane.foul, 0.0))  # the foul line to the hole
    lo, hi = 0.0, params.max_speed
    for _ in range(60):  # the speed that stops a lone pawn there
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if params.stopping_distance(mid) < reach else (lo, mid)

    async def main() -> list[dict[str, Any]]:
        host = Host([room])
        await host.start()
        south = await Client.join(f"127.0.0.1:{host.port}", "1", room.codes["south"])
        got: list[dict[str, Any]] = []
        async for msg in south.messages():
            got.append(msg)
            if msg["type"] == "turn" and msg["step"] == 0:
                await south.shoot(Shot("south", lo))
            elif msg["type"] == "ask":  # an answer for another pawn (refused), then the answer
                await south.send({"type": "home", "step": 0, "pawn": "south-2", "scoring": 3})
                await south.send({"type": "home", "step": 0, "pawn": msg["pawn"], "scoring": 3})
            elif msg["type"] == "step":
                break
        await host.close()
        return got

    got = asyncio.run(main())
    (ask,) = [m for m in got if m["type"] == "ask"]
    assert (ask["seat"], ask["pawn"], ask["board"], ask["options"], ask["default"]) == (
        "south",
        "south-1",
        [4, 1, 0, 2],
        [0, 1, 2, 3],
        2,
    )
    assert [m["reason"] for m in got if m["type"] == "refused"] == ["not one of the options"]
    logged = load_replay(room.log)
    assert logged.steps[0].home == {"south-1": 3}  # south's answer, not the default (2)


def scoring_room(folder: Path, **options: Any) -> Room:
    """A room whose round 2 has been played (south's scoring pawns on four squares, every roller
    pawn scoring): the round's end is to be scored, and both seats have a choice."""
    config = config_from_flags("instant-sorry", "square", SEATS_HUMAN, 3, hand="exact")
    boards = {"south": (4, 1, 0, 2), "north": (0, 0, 0, 0)}
    game = Game("instant-sorry", ("south", "north"), "south", "square", boards=boards, round=2)
    played = HeadlessGame.of(Turns(config, game=game, max_rounds=2))
    while played.state.turn is not None and not played.over and played.turns.sim is None:
        if played.state.phase is not Phase.SHOOTING:
            break
        seat = played.state.turn
        played.shoot(centre(seat).choose_shot(played.state, played.layout, played.face))
    return Room("1", played, parse_host_seats(SEATS), folder / "1.json", **options)


def test_a_round_end_choice_is_asked_of_each_remote_seat_and_bad_answers_are_refused(
    tmp_path: Path,
) -> None:
    """Round 2 over: the host asks south and north how their points move their scoring pawns;
    an answer for another seat's pawns, for a stale step, or that the rules refuse, is refused
    (the connection kept), and so is an answer given again; the answers given are scored."""
    room = scoring_room(tmp_path)
    state = room.game.state
    assert state.phase is Phase.SCORING

    async def main() -> tuple[dict[str, dict[str, Any]], list[str], list[dict[str, Any]]]:
        host = Host([room])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        south = await Client.join(url, "1", room.codes["south"])
        north = await Client.join(url, "1", room.codes["north"])
        asks: dict[str, dict[str, Any]] = {}
        reasons: list[str] = []
        async for msg in south.messages():
            if msg["type"] == "ask":
                asks["south"] = msg
                step, theirs = msg["step"], msg["options"][1]
                await south.send({"type": "score", "step": step, "moves": theirs})  # taken
                await south.send({"type": "score", "step": step, "moves": theirs})  # replayed
                await south.send({"type": "score", "step": step - 1, "moves": theirs})  # stale
            elif msg["type"] == "refused":
                reasons.append(msg["reason"])
                if len(reasons) == 2:
                    break
        async for msg in north.messages():
            if msg["type"] == "ask":
                asks["north"] = msg
                step, mine = msg["step"], msg["options"][-1]
                await north.send(
                    {"type": "score", "step": step, "moves": asks["south"]["options"][0]}
                )
                points = [{**m, "points": m["points"] % 6 + 1} for m in mine]  # not offered
                await north.send({"type": "score", "step": step, "moves": points})
                await north.send({"type": "score", "step": step, "moves": mine})
            elif msg["type"] == "refused":
                reasons.append(msg["reason"])
            elif msg["type"] == "step":
                break
        news = [m for m in room.steps_json if "score" in m]
        await host.close()
        return asks, reasons, news

    asks, reasons, scored = asyncio.run(main())
    for seat in ("south", "north"):
        ask = asks[seat]
        assert (ask["choice"], ask["seat"], ask["step"], ask["round"]) == ("score", seat, 8, 2)
        assert ask["board"] == list(state.player(seat).board)
        options = [tuple(Move.from_json(m) for m in a) for a in ask["options"]]
        assert options == legal_assignments(state, seat) and len(options) > 1
        assert tuple(Move.from_json(m) for m in ask["default"]) == default_assignment(state, seat)
    assert reasons[:2] == ["nothing asked", "nothing asked"]  # replayed, stale
    assert len(reasons) == 4 and all(r.startswith("not a legal choice") for r in reasons[2:])
    logged = load_replay(room.log).steps[8]
    assert isinstance(logged, ScoreStep) and logged.by == {}
    for seat, pick in (("south", 1), ("north", -1)):
        assert [m.to_json() for m in logged.assignments[seat]] == asks[seat]["options"][pick]
    assert scored[0] == logged.to_json()


def test_a_round_end_choice_not_made_in_time_is_the_rules_and_said(tmp_path: Path) -> None:
    """South is asked and stays silent past the clock, north is not connected: both take the
    rules' default, said to everyone and kept in the log (``by``)."""
    room = scoring_room(tmp_path, clock=0.3, turn_timeout=0.3)
    state = room.game.state

    async def main() -> list[str]:
        host = Host([room])
        await host.start()
        south = await Client.join(f"127.0.0.1:{host.port}", "1", room.codes["south"])
        lines: list[str] = []
        async for msg in south.messages():
            lines += msg.get("lines", [])
            if msg["type"] == "step":
                break
        await host.close()
        return lines

    lines = asyncio.run(main())
    assert "south did not choose in time: the rules' scoring" in lines
    assert "north is away: the rules' scoring" in lines
    logged = load_replay(room.log).steps[8]
    assert isinstance(logged, ScoreStep) and logged.by == {"south": "clock", "north": "away"}
    assert logged.assignments == default_assignments(state)


def test_a_client_that_reads_too_slowly_is_told_and_closed_and_nothing_more_is_queued() -> None:
    from websockets.protocol import State

    from sliders.net import host as hosting

    class Sent:
        state = State.OPEN

        def __init__(self) -> None:
            self.frames: list[bytes] = []

        def send_text(self, data: bytes) -> None:
            self.frames.append(data)

        def data_to_send(self) -> list[bytes]:
            return [b"frames"]

    class Unread:
        def __init__(self) -> None:
            self.unread = 0

        def get_write_buffer_size(self) -> int:
            return self.unread

        def write(self, data: bytes) -> None:
            self.unread += len(data)

    class Socket:
        def __init__(self) -> None:
            self.protocol, self.transport = Sent(), Unread()
            self.closed_with: tuple[int, str] | None = None

        async def close(self, code: int, reason: str) -> None:
            self.closed_with = (code, reason)

    async def main() -> Socket:
        ws = Socket()
        conn = hosting.Connection(ws)  # type: ignore[arg-type]
        conn.send({"type": "news", "lines": ["kept up"]})
        ws.transport.unread = hosting.MAX_UNREAD + 1
        conn.send({"type": "news", "lines": ["not read"]})
        conn.send({"type": "news", "lines": ["nor this"]})
        assert conn.closed is not None
        await conn.closed
        return ws

    ws = asyncio.run(main())
    said = [json.loads(f) for f in ws.protocol.frames]
    assert [m["type"] for m in said] == ["news", "bye"]
    assert said[1]["reason"] == "reads too slowly"
    assert ws.closed_with == (1008, "reads too slowly")
