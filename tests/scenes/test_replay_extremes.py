"""A game log at the edges of what the log checks accept (positions 10 m away, the fastest slide,
the largest seed) replays in the window without a fault: shots the physics refuses glide."""

from __future__ import annotations

import json
import math

from sliders.game.saves import load_replay
from sliders.rules import Game
from sliders.scenes.app import App
from sliders.scenes.replay import ReplayScreen


def _edge_log() -> dict:
    steps = []
    corners = [(10.0, 10.0), (-10.0, -10.0), (10.0, -10.0), (-10.0, 10.0)]
    table: list[dict] = []
    for n in range(1, 5):
        for seat in ("south", "north"):
            pid = f"{seat}-{n}"
            x, y = corners[n - 1] if seat == "south" else (-corners[n - 1][0], corners[n - 1][1])
            pawn = {"id": pid, "seat": seat, "x": x, "y": y, "status": "on_target",
                    "points": 5, "choices": [5]}  # fmt: skip
            table = [*table, pawn]
            steps.append(
                {
                    "shot": {
                        "face": "race-for-home",
                        "shooter": pid,
                        "pawns": [pawn, *(p for p in table if p["id"] != pid)],
                        "events": [
                            {
                                "t": 1e4,
                                "type": "contact",
                                "pawns": [pid],
                                "impulse": 1e3,
                                "x": -10.0,
                                "y": 10.0,
                            }
                        ],  # fmt: skip
                        "settle_time": 1e4,
                    },
                    "home": {},
                    "slide": {
                        "seat": seat,
                        "pawn": pid,
                        "speed": 10.0 if n % 2 else 0.0,
                        "angle_rad": math.pi / 2 * (-1) ** n,
                        "offset": (-1.0) ** n,
                        "release": 10.0 if n < 3 else 0.0,
                        "seed": 2**128 - 1,
                    },  # fmt: skip
                }
            )
    return {"schema": 2, "face": "race-for-home", "seats": ["south", "north"], "steps": steps}


def test_a_log_at_the_edges_of_its_ranges_replays(tmp_path):
    path = tmp_path / "edge.json"
    path.write_text(json.dumps(_edge_log()))
    game = Game.load(path)
    assert len(game.steps) == 8
    app = App((640, 420), sound=False, background=False)
    try:
        replay = ReplayScreen(app, load_replay(path))
        app.show(replay)
        for _ in range(5000):
            if replay.finished:
                break
            app.step(0.1, draw=True)
        assert replay.finished
        assert replay.notice is not None and "cannot be re-simulated" in replay.notice
    finally:
        app.close()
