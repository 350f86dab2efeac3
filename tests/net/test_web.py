"""The web page the host serves (sliders/net/web.py, sliders/net/web/): its files and their
weight, the lobby with and without the host's key, the page behind the host's gate, the QR codes; what a
client that draws is sent (the table, each shot's motion and each step's position, from the
host's own game); the page's numbers the window's; and the page's own logic under node's test
runner (tests/web/*.test.mjs)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import segno
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus

from sliders.boards import face
from sliders.files.layouts import load_layout
from sliders.game.config import METERS, config_from_flags
from sliders.net import view
from sliders.net.host import Host, new_room, parse_host_seats
from sliders.net.protocol import HOST_TYPES, ProtocolError, check_client
from sliders.net.web import WEB_DIR, Site, qr_lines, seat_link, side_by_side
from sliders.physics import PhysicsParams
from sliders.scenes import controls, hand
from sliders.scenes.camera import HAND_BACK
from sliders.scenes.table import MIN_FLICK

ROOT = Path(__file__).resolve().parents[2]
WEB_TESTS = ROOT / "tests" / "web"
PAGE_WEIGHT = 500_000
"""bytes the page may weigh, every file it loads together"""


def js_number(name: str, text: str) -> float:
    found = re.search(rf"export const {name} = ([0-9.e+-]+);", text)
    assert found, name
    return float(found.group(1))


def test_the_page_reads_the_hand_with_the_windows_numbers() -> None:
    flick = (WEB_DIR / "flick.js").read_text()
    geometry = (WEB_DIR / "geometry.js").read_text()
    assert js_number("FLICK_GAIN", flick) == controls.FLICK_GAIN
    assert js_number("WINDOW", flick) == hand.WINDOW
    assert js_number("MIN_SAMPLES", flick) == hand.MIN_SAMPLES
    assert js_number("OUTLIER", flick) == hand.OUTLIER
    assert js_number("MIN_FLICK", flick) == MIN_FLICK
    assert js_number("HAND_BACK", geometry) == HAND_BACK
    assert js_number("CANCEL_PULL", geometry) == controls.CANCEL_PULL
    assert js_number("PULL_MAX", geometry) == controls.PULL_MAX
    assert js_number("REACH", geometry) == controls.REACH
    meters = re.search(r"export const METERS = \{([^}]*)\}", geometry)
    assert meters is not None
    periods = dict(re.findall(r"(\w+): ([0-9.]+)", meters.group(1)))
    assert {k: float(v) for k, v in periods.items()} == {k: m.period for k, m in METERS.items()}


def test_the_node_tests_table_is_the_hosts() -> None:
    made = view.table_json(
        load_layout("square", ("south", "north")), face("race-for-home"), PhysicsParams.default()
    )
    assert json.loads((WEB_TESTS / "square.json").read_text()) == json.loads(json.dumps(made))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_pages_logic_passes_its_node_tests() -> None:
    files = sorted(str(p) for p in WEB_TESTS.glob("*.test.mjs"))
    run = subprocess.run(
        ["node", "--test", *files], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert re.search(r"# pass [1-9]", run.stdout) and "# fail 0" in run.stdout


def test_the_page_weighs_less_than_half_a_megabyte_and_names_nothing_outside() -> None:
    files = [p for p in WEB_DIR.iterdir() if p.is_file()]
    assert sum(p.stat().st_size for p in files) < PAGE_WEIGHT
    for p in files:
        text = p.read_text().replace("http://www.w3.org/2000/svg", "")  # a name, not a load
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), f"{p.name} names a site"


def two_rooms(folder: Path) -> dict[str, Any]:
    plans = parse_host_seats("south=remote,north=cpu:easy")
    config = config_from_flags("race-for-home", "square", "south=human,north=cpu:easy", 5)
    return {"1": new_room("1", config, plans, folder, 1)}


def http(site: Site, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    class Req:
        pass

    req: Any = Req()
    req.path = path
    req.headers = Headers({"Host": "127.0.0.1:8765", **headers})
    res = site(None, req)  # type: ignore[arg-type]
    assert res is not None
    return res.status_code, dict(res.headers.raw_items()), res.body


def test_the_lobby_lists_seats_and_gives_codes_with_the_hosts_key_alone(tmp_path: Path) -> None:
    rooms = two_rooms(tmp_path)
    site = Site(rooms)
    south = rooms["1"].codes["south"]
    status, headers, body = http(site, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"south" in body and b"the computer" in body and south.encode() not in body
    assert b"/table#room=1" in body
    status, headers, body = http(site, "/?key=" + "0" * 32)
    assert south.encode() not in body
    status, headers, body = http(site, f"/?key={site.key}")
    assert south.encode() in body and body.count(b"<svg") == 1  # the remote seat's QR code
    assert (
        headers["Cache-Control"] == "no-store"
        and "default-src 'self'" in headers["Content-Security-Policy"]
    )
    for path, kind in [
        ("/play", "text/html"),
        ("/table", "text/html"),
        ("/web/app.js", "text/javascript"),
        ("/web/style.css", "text/css"),
    ]:
        status, headers, _ = http(site, path)
        assert status == 200 and headers["Content-Type"].startswith(kind), path
    for path in ["/web/../host.py", "/web/nothing.js", "/etc/passwd", "/web/"]:
        assert http(site, path)[0] == 404, path
    assert Site(rooms, web=False)(None, _req("/")) is None  # type: ignore[arg-type]


def _req(path: str, **headers: str) -> Any:
    class Req:
        pass

    req: Any = Req()
    req.path, req.headers = path, Headers({"Host": "127.0.0.1:8765", **headers})
    return req


def test_the_page_and_its_socket_pass_the_hosts_gate_first(tmp_path: Path) -> None:
    """The page is served after the gate (docs/web.md): a browser's handshake from another
    site's page is refused, one from the page's own origin and a program's (no Origin) are
    not; the page itself answers plain requests only and leaves handshakes to the host."""
    site = Site({})
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
    assert site(None, _req("/", **upgrade, Origin="http://evil.example")) is None  # type: ignore[arg-type]
    assert site(None, _req("/web/app.js")).status_code == 200  # type: ignore[arg-type]

    async def main() -> tuple[int, list[str]]:
        plans = parse_host_seats("south=remote,north=remote")
        config = config_from_flags("race-for-home", "square", "south=human,north=human", 3)
        host = Host([new_room("1", config, plans, tmp_path, 1)])
        host.http = Site(host.rooms)
        await host.start()
        url = f"ws://127.0.0.1:{host.port}"
        said = []
        try:
            with pytest.raises(InvalidStatus) as refused:
                async with connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                    pass
            hello = {"v": 1, "type": "hello", "room": "1", "watch": True}
            for origin in (f"http://127.0.0.1:{host.port}", None):
                async with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                    await ws.send(json.dumps(hello))
                    said.append(json.loads(await ws.recv())["type"])
        finally:
            await host.close()
        return refused.value.response.status_code, said

    status, said = asyncio.run(asyncio.wait_for(main(), 60))
    assert status == 403 and said == ["welcome", "welcome"]


def test_a_seats_link_is_a_qr_code_in_the_terminal() -> None:
    link = seat_link("http://192.168.1.5:8765", "1", "ab" * 16)
    assert link == "http://192.168.1.5:8765/play#room=1&code=" + "ab" * 16
    lines = qr_lines(link)
    size = segno.make(link, error="m", micro=False).symbol_size(border=2)[0]
    assert len(lines) == (size + 1) // 2 and all(len(line) == size for line in lines)
    blocks = [["a", *lines], ["b", *lines], ["c", *lines]]
    assert len(side_by_side(blocks, 2 * size + 2)) == 2 * (len(lines) + 1)


def test_hello_draw_is_checked() -> None:
    base = {"v": 1, "type": "hello", "room": "1", "watch": True}
    assert check_client({**base, "draw": True})["draw"] is True
    with pytest.raises(ProtocolError, match="hello.draw"):
        check_client({**base, "draw": 1})
    assert {"motion", "state"} <= set(HOST_TYPES)


def test_a_client_that_draws_gets_the_table_each_motion_and_state_and_the_rest_is_the_hosts(
    tmp_path: Path,
) -> None:
    """A spectator that draws watches the host's computer play a whole round: the welcome has
    the table and the position, each shot a motion whose last frame is where the step's result
    put each moving pawn, each step the position the turn machine reached."""

    async def main() -> list[dict[str, Any]]:
        plans = parse_host_seats("south=cpu:easy,north=cpu:easy")
        config = config_from_flags("race-for-home", "square", "south=cpu:easy,north=cpu:easy", 3)
        room = new_room("1", config, plans, tmp_path, 1)
        host = Host([room])
        await host.start()
        got: list[dict[str, Any]] = []
        try:
            async with connect(f"ws://127.0.0.1:{host.port}", max_size=2**25) as ws:
                await ws.send(
                    json.dumps({"v": 1, "type": "hello", "room": "1", "watch": True, "draw": True})
                )
                async for frame in ws:
                    got.append(json.loads(frame))
                    if got[-1]["type"] == "over":
                        break
        finally:
            await host.close()
        return got

    got = asyncio.run(asyncio.wait_for(main(), 120))
    welcome = got[0]
    assert welcome["type"] == "welcome" and welcome["table"]["layout"] == "square"
    assert welcome["state"]["step"] == 0 and welcome["state"]["round"] == 1
    motions = [m for m in got if m["type"] == "motion"]
    steps = [m for m in got if m["type"] == "step" and "shot" in m["step"]]
    states = [m for m in got if m["type"] == "state"]
    assert len(motions) == len(steps) >= 8 and len(states) == len(
        [m for m in got if m["type"] == "step"]
    )
    for motion, step in zip(motions, steps, strict=True):
        assert motion["step"] == step["n"]
        rest = {p["id"]: p for p in step["step"]["shot"]["pawns"]}
        last = motion["frames"][-1]
        for pid, sample in zip(motion["pawns"], last, strict=True):
            if sample is None:
                assert rest[pid]["status"] not in ("on_target", "own_track", "tipping")
                continue
            assert abs(sample[0] - rest[pid]["x"]) < 1e-5 and abs(sample[1] - rest[pid]["y"]) < 1e-5
            assert sample[2] == 0 and sample[3] == 0
    for state, step in zip(states, [m for m in got if m["type"] == "step"], strict=True):
        assert state["step"] == step["n"] + 1
    assert states[-1]["winner"] is not None or states[-1]["phase"] in ("over", "shooting")
