"""A host left open on a network, on the loopback: connections capped in total and from one
address, watchers in a room and their code, browsers' origins, TLS and IPv6, a large welcome
streamed, a log that cannot be written, a release kept and taken up again by ``--resume``,
refusals told with counts, and the smaller checks (names, versions, the codes file, the port)."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import shutil
import socket
import ssl
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from sliders.cli import main
from sliders.core.errors import MachineFault, UserError, os_error
from sliders.core.fileio import write_json_atomic
from sliders.core.outcome import Shot
from sliders.game.saves import load_replay
from sliders.net import host as hosting
from sliders.net.client import Client, address_url
from sliders.net.guard import Gate, connection_cap, listen, origin_allowed, server_tls
from sliders.net.host import Host, resume_room
from sliders.net.lounge import ROOM, Lounge
from sliders.net.protocol import ProtocolError, check_client, decode

from .test_host import bots, raw, rooms

ROOT = Path(__file__).resolve().parents[2]
HELLO = {"v": 1, "type": "hello", "room": "1"}


def watch(port: int, **extra: Any) -> str:
    return json.dumps({**HELLO, "watch": True, **extra})


# -- caps -------------------------------------------------------------------------------------------


def test_connections_past_the_caps_are_refused_at_once_with_the_reason(tmp_path: Path) -> None:
    async def main_() -> tuple[list[str], int]:
        (r,) = rooms(tmp_path)
        host = Host([r], Gate(total=3, per_address=2))
        await host.start()
        url = f"127.0.0.1:{host.port}"
        kept = [await Client.join(url, "1", watch=True) for _ in range(2)]
        said = []
        with pytest.raises(UserError) as info:
            await Client.join(url, "1", watch=True)
        said.append(str(info.value))
        host.gate.per_address = 10
        kept.append(await Client.join(url, "1", watch=True))
        with pytest.raises(UserError) as info:
            await Client.join(url, "1", watch=True)
        said.append(str(info.value))
        for c in kept:
            await c.close()
        await asyncio.sleep(0.1)
        again = await Client.join(url, "1", watch=True)  # a connection gone is counted out
        await again.close()
        await host.close()
        return said, host.gate.open

    said, left = asyncio.run(main_())
    assert said == [
        "the host refused the connection: too many connections from one address (2)",
        "the host refused the connection: the host is full (3 connections)",
    ]
    assert left == 0


def test_the_caps_leave_descriptors_for_the_logs() -> None:
    assert connection_cap(1, files=1024) == 1024 - 64 - 4
    assert connection_cap(10, files=100_000) == 1000
    assert connection_cap(1, files=10) == 1


@pytest.mark.parametrize("errno_name", ["EMFILE", "ENFILE", "ENOMEM", "ENOSPC"])
def test_no_descriptor_or_memory_left_is_the_machines_fault(errno_name: str) -> None:
    import errno

    exc = OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))
    assert isinstance(os_error("cannot write x", exc), MachineFault)


def test_a_room_takes_so_many_watchers_and_a_watch_code_when_it_has_one(tmp_path: Path) -> None:
    async def main_() -> list[list[dict[str, Any]]]:
        (r,) = rooms(tmp_path, max_watchers=1, watch_code=True)
        host = Host([r])
        await host.start()
        assert r.watch_code is not None
        seen = [
            await raw(host.port, watch(host.port), wait=0.3),  # no code
            await raw(host.port, watch(host.port, code=r.codes["south"]), wait=0.3),  # a seat's
        ]
        first = await Client.join(f"127.0.0.1:{host.port}", "1", r.watch_code, watch=True)
        seen.append(await raw(host.port, watch(host.port, code=r.watch_code), wait=0.3))
        await first.close()
        await host.close()
        return seen

    no_code, seat_code, full = asyncio.run(main_())
    assert [m["type"] for m in no_code] == ["bye"]
    assert no_code[0]["reason"] == "watching this room needs its watch code"
    assert seat_code[0]["reason"] == "watching this room needs its watch code"
    assert full[0]["reason"] == "room 1 has 1 watchers: no room for more"
    kept = json.loads((tmp_path / "1.json.codes.json").read_text())
    assert len(kept["watch"]) == 32  # kept with the seats' codes: --resume takes it


def test_refusals_and_kicks_are_told_in_one_line_with_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosting, "REPORT_EVERY", 1.0)
    lines: list[str] = []

    async def main_() -> None:
        (r,) = rooms(tmp_path)
        host = Host([r], say=lines.append)
        await host.start()
        for _ in range(5):
            await raw(host.port, json.dumps({**HELLO, "code": "ab" * 16}), wait=0.2)
        await raw(host.port, "not json", wait=0.2)
        await raw(host.port, watch(host.port), json.dumps({"v": 1, "type": "aim"}), wait=0.2)
        await asyncio.sleep(1.1)
        for _ in range(3):
            await raw(host.port, "{}", wait=0.2)
        await host.close()

    asyncio.run(main_())
    assert len(lines) == 3, lines  # the first at once, then at most one each REPORT_EVERY
    assert (
        lines[0]
        == "host: 1 connection(s) refused or closed: 1 refused hello: no seat has this join code"
    )
    assert lines[1].startswith("host: 6 connection(s) refused or closed: ")
    assert "4 refused hello: no seat has this join code" in lines[1]
    assert "1 refused hello: message is not valid JSON" in lines[1]
    assert "1 closed: aim" in lines[1]
    assert lines[2] == (
        "host: 3 connection(s) refused or closed: 3 refused hello: protocol version None"
    )


# -- browsers, TLS, IPv6 --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin, host, allowed, ok",
    [
        (None, "127.0.0.1:8765", (), True),  # not a browser
        ("http://127.0.0.1:8765", "127.0.0.1:8765", (), True),  # this host's own page
        ("https://games.example", "games.example", (), True),
        ("https://games.example:443", "games.example", (), True),
        ("http://evil.example", "127.0.0.1:8765", (), False),
        ("http://127.0.0.1:9999", "127.0.0.1:8765", (), False),
        ("null", "127.0.0.1:8765", (), False),
        ("https://play.example", "127.0.0.1:8765", ("https://play.example",), True),
        ("http://[::1]:8765", "[::1]:8765", (), True),
    ],
)
def test_a_browsers_connection_is_taken_from_this_hosts_own_pages_only(
    origin: str | None, host: str, allowed: tuple[str, ...], ok: bool
) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_a_page_of_another_site_is_refused_and_the_hosts_own_is_not(tmp_path: Path) -> None:
    async def main_() -> tuple[int, str]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"ws://127.0.0.1:{host.port}"
        with pytest.raises(InvalidStatus) as info:
            async with connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                pass
        async with connect(url, origin=f"http://127.0.0.1:{host.port}") as ws:  # type: ignore[arg-type]
            await ws.send(watch(host.port))
            assert json.loads(await ws.recv())["type"] == "welcome"
        await host.close()
        return info.value.response.status_code, (info.value.response.body or b"").decode()

    status, body = asyncio.run(main_())
    assert status == 403 and body.strip() == "a page of another site may not connect here"


def _certificate(folder: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def test_a_host_serves_tls_and_a_client_that_trusts_its_certificate_joins(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    trusted = ssl.create_default_context(cafile=str(cert))

    async def main_() -> tuple[str, str]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start(tls=server_tls(str(cert), str(key)))
        url = f"wss://127.0.0.1:{host.port}"
        client = await Client.join(url, "1", r.codes["south"], tls=trusted)
        seat = str(client.seat)
        await client.close()
        with pytest.raises(UserError) as info:  # the system's certificates do not name it
            await Client.join(url, "1", watch=True)
        await host.close()
        return seat, str(info.value)

    seat, refused = asyncio.run(main_())
    assert seat == "south"
    assert refused.startswith("wss://127.0.0.1:") and "TLS failed" in refused


def test_a_host_with_a_certificate_serves_its_page_over_https_with_its_watch_code(
    tmp_path: Path,
) -> None:
    """``--cert``/``--key`` cover the web page too: the links printed say https, the page is
    served over TLS on the same port, and the table's link carries the room's watch code."""
    cert, key = _certificate(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--dir",
         str(tmp_path), "--seats", "south=remote,north=cpu", "--cert", str(cert), "--key",
         str(key), "--watch-code"],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())
        lobby = listing["web"]["lobby"]
        assert listing["tls"] is True and lobby.startswith("https://")
        port = listing["port"]
        trusted = ssl.create_default_context(cafile=str(cert))
        page = (
            urllib.request.urlopen(
                lobby.replace(listing["web"]["base"], f"https://127.0.0.1:{port}"),
                context=trusted,
                timeout=10,
            )
            .read()
            .decode()
        )
        watch = listing["rooms"]["1"]["watch"]
        assert f"https://127.0.0.1:{port}/table#room=1&amp;code={watch}" in page
        with pytest.raises((OSError, http.client.HTTPException)):  # plain http on the TLS port
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
    finally:
        host.kill()
        host.wait()


def test_a_certificate_that_cannot_be_used_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    with pytest.raises(UserError, match="not a certificate and its key in PEM"):
        server_tls(str(bad), str(bad))


def test_a_public_host_listens_on_ipv6_and_ipv4_alike(tmp_path: Path) -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6")
    sock = listen("::", 0)
    if sock.family != socket.AF_INET6:
        sock.close()
        pytest.skip("no IPv6 here")

    async def main_() -> list[str]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start(sock=sock)
        seen = []
        for where in (f"[::1]:{host.port}", f"127.0.0.1:{host.port}"):
            c = await Client.join(where, "1", watch=True)
            seen.append(c.welcome["type"])
            await c.close()
        await host.close()
        return seen

    assert asyncio.run(main_()) == ["welcome", "welcome"]


# -- welcomes, the log, the release ---------------------------------------------------------------


def test_a_large_welcome_streams_in_pieces_and_every_client_has_the_whole_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosting, "WELCOME_PIECE", 300)  # even the first welcome is in pieces

    async def main_() -> tuple[list[Client], list[Client], Any]:
        (r,) = rooms(tmp_path)
        host = Host([r])
        await host.start()
        url = f"127.0.0.1:{host.port}"
        watchers: list[Client] = []

        async def late_watchers() -> None:
            while r.step < 3:
                await asyncio.sleep(0.02)
            for _ in range(3):
                w = await Client.join(url, "1", watch=True)
                watchers.append(w)
                asyncio.ensure_future(_drain(w))

        players, _ = await asyncio.gather(bots(host, r), late_watchers())
        await host.wait()
        await host.close()
        return players, watchers, r

    players, watchers, r = asyncio.run(main_())
    logged = load_replay(r.log).to_json()
    for c in (*players, *watchers):
        assert c.table.game.to_json() == logged and c.table.mismatches == []
    assert json.loads(r.log_bytes()) == {**r.head, "steps": r.steps_json}


async def _drain(client: Client) -> None:
    async for _ in client.messages():
        pass


def test_a_log_that_cannot_be_written_keeps_the_game_going_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (r,) = rooms(tmp_path)
    real = r.writer.write
    fails = {"left": 3}

    def flaky() -> None:
        if fails["left"] > 0:
            fails["left"] -= 1
            raise MachineFault(f"cannot lock game log {r.log}: Too many open files")
        real()

    monkeypatch.setattr(r.writer, "write", flaky)
    news: list[str] = []

    async def main_() -> list[Client]:
        host = Host([r])
        await host.start()
        players = await bots(host, r, tell=lambda m: news.extend(m.get("lines", [])))
        await host.wait()
        await host.close()
        return players

    players = asyncio.run(main_())
    assert all(c.over is not None for c in players)  # nobody was dropped
    assert any("the game log cannot be written (cannot lock game log" in n for n in news)
    assert any(n == "the game log is written again" for n in news)
    assert load_replay(r.log).to_json()["steps"] == r.steps_json  # whole in the end


def test_a_release_kept_before_its_step_was_written_is_slid_again_as_it_was(
    tmp_path: Path,
) -> None:
    (r,) = rooms(tmp_path)
    slide = r.game.release(Shot("south", 0.6, 0.02), by_hand=True)  # released, sent, not logged
    write_json_atomic(r.release_path, {"step": 0, "slide": slide.to_json(), "by": "remote"})
    assert load_replay(r.log).steps == []  # the host was killed here

    resumed = resume_room(r.log, None, max_rounds=1)
    assert resumed.resumed == (slide, "remote")

    async def main_() -> list[dict[str, Any]]:
        host = Host([resumed])
        await host.start()
        seen: list[dict[str, Any]] = []
        await bots(host, resumed, tell=seen.append)
        await host.wait()
        await host.close()
        return seen

    asyncio.run(main_())
    first = load_replay(r.log).steps[0]
    assert first.slide == slide  # the same shot, the same seed: no re-roll  # type: ignore[union-attr]
    assert not r.release_path.exists()
    # a release its log already has is not slid twice
    write_json_atomic(r.release_path, {"step": 0, "slide": slide.to_json(), "by": "remote"})
    assert resume_room(r.log, None, max_rounds=1).resumed is None


# -- the smaller checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", [5, "", "x" * 33, "a\nb", "a\u2028b", "ann\u202e", "\u2066x", "tab\there", "\x7f", None]
)
def test_a_name_is_text_without_control_line_break_or_direction_characters(name: Any) -> None:
    with pytest.raises(ProtocolError, match="hello.name"):
        check_client({**HELLO, "watch": True, "name": name})
    assert check_client({**HELLO, "watch": True, "name": "Ann Ödön 李"})


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_only_the_number_1_is_version_1(version: Any) -> None:
    with pytest.raises(ProtocolError, match="protocol version"):
        decode(json.dumps({**HELLO, "v": version, "watch": True}))


def test_the_codes_file_is_the_owners_alone_before_it_is_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    modes = []
    replace = os.replace

    def seen(src: Any, dst: Any) -> None:
        modes.append(stat.S_IMODE(os.stat(src).st_mode))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", seen)
    os.umask(old := os.umask(0o022))
    rooms(tmp_path)
    codes = tmp_path / "1.json.codes.json"
    assert stat.S_IMODE(codes.stat().st_mode) == 0o600
    assert modes[-1] == 0o600  # the temporary file too, before its rename
    assert old is not None


def test_resume_refuses_a_codes_file_with_an_unknown_seat_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (r,) = rooms(tmp_path)
    codes = tmp_path / "1.json.codes.json"
    data = json.loads(codes.read_text())
    data["kinds"]["south"] = "robot"
    codes.write_text(json.dumps(data))
    assert main(["host", "--resume", str(r.log), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seat 'south' is 'robot': a seat is remote or cpu" in err


def test_a_port_in_use_leaves_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["host", "--port", str(port), "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot listen on 127.0.0.1" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["host", "--port", "70000"], "argument --port: '70000' is not a port from 0 to 65535"),
        (["host", "--port", "-1"], "argument --port: '-1' is not a port"),
        (["host", "--port", "65536"], "argument --port: '65536' is not a port"),
        (["tournament", "--players", "a,b", "--port", "70000"], "argument --port: '70000'"),
        (["tournament", "--players", "net:a,b", "--wait", "-1"], "argument --wait: '-1'"),
        (["host", "--cert", "c.pem"], "--cert and --key go together"),
        (["host", "--origin", "evil.example"], "--origin 'evil.example': expected https://NAME"),
        (["join", "localhost:notaport", "--watch"], "the port is a number from 1 to 65535"),
        (["join", "[::1", "--watch"], "an IPv6 address is written [ADDRESS]:PORT"),
        (["join", "ftp://x:1", "--watch"], "expected HOST:PORT, ws://HOST:PORT"),
        (["join", "127.0.0.1:1", "--watch", "--seed", "-1"], "argument --seed: '-1'"),
        (["join", "127.0.0.1:1", "--watch", "--name", "a\u202eb"], "--name: expected 1 to 32"),
    ],
)
def test_bad_network_flags_are_one_line_before_anything_is_written(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "given, url",
    [
        ("localhost:9000", "ws://localhost:9000/"),
        ("localhost", "ws://localhost:8765/"),
        ("[::1]:9000", "ws://[::1]:9000/"),
        ("[::1]", "ws://[::1]:8765/"),
        ("wss://games.example:443", "wss://games.example:443/"),
        ("ws://10.0.0.2:8765/", "ws://10.0.0.2:8765/"),
    ],
)
def test_addresses_a_client_takes(given: str, url: str) -> None:
    assert address_url(given) == url


def test_the_tournament_server_closes_a_bot_that_sends_too_fast() -> None:
    lounge = Lounge(["fast"])
    lounge.open()

    async def flood() -> list[dict[str, Any]]:
        hello = {**HELLO, "room": ROOM, "code": lounge.seats["fast"].code}
        aim = json.dumps({"v": 1, "type": "aim", "along": 0.1, "across": 0.0})
        return await raw(lounge.port, json.dumps(hello), *[aim] * 200, wait=1.0)

    try:
        said = asyncio.run(flood())
    finally:
        lounge.close()
    assert said[-1] == {"v": 1, "type": "bye", "reason": "more than 40 messages a second"}


def test_host_json_lines_leave_at_once_through_a_pipe(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host = subprocess.Popen(
        [sys.executable, "-m", "sliders.cli", "host", "--port", "0", "--json", "--dir",
         str(tmp_path), "--seats", "south=remote,north=cpu"],
        stdout=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        listing = json.loads(host.stdout.readline())
        assert listing["tls"] is False and listing["rooms"]["1"]["watch"] is None

        async def join() -> None:
            c = await Client.join(
                f"127.0.0.1:{listing['port']}", "1", listing["rooms"]["1"]["codes"]["south"]
            )
            await asyncio.sleep(0.2)
            await c.close()

        asyncio.run(join())
        assert host.stdout.readline().strip() == "room 1: south is here"  # while it runs
    finally:
        host.kill()
        host.wait()
