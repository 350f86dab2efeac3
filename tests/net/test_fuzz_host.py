"""Hostile clients drawn at random against a live host on the loopback: each case opens a bare
WebSocket and sends a few frames made from the protocol's own messages, mutated (a field set to a
nasty value, dropped, renamed or added; the text truncated, a byte flipped, sent as binary, made
huge or deeply nested; a seat's real code, the other seat's, or a forged one). Whatever comes: the
host answers only with its own message types, refuses in one line, never fails inside (nothing
logged at ERROR), keeps serving (a spectator is welcomed after), moves the game by at most the one
shot a valid message may slide, writes nothing but its room's log and codes (and the release of a
shot not yet logged), and its log loads.

A few cases in the everyday suite, more under ``--slow``, the same cases each run;
``SLIDERS_FUZZ_EXAMPLES`` sizes a campaign of fresh ones."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sliders.game.config import config_from_flags
from sliders.game.saves import load_replay
from sliders.net.host import Host, new_room, parse_host_seats
from sliders.net.protocol import CLIENT_TYPES, HOST_TYPES, MAX_MESSAGE, check_client

from .test_host import raw

EXAMPLES = int(
    os.environ.get("SLIDERS_FUZZ_EXAMPLES", "60" if os.environ.get("SLIDERS_SLOW") == "1" else "8")
)
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize="SLIDERS_FUZZ_EXAMPLES" not in os.environ,  # the suite's cases, the same each run
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEMPLATES: dict[str, dict[str, Any]] = {
    "hello": {"v": 1, "type": "hello", "room": "1", "code": "@SOUTH", "name": "ann"},
    "watch": {"v": 1, "type": "hello", "room": "1", "watch": True},
    "shot": {"v": 1, "type": "shot", "step": 0, "speed": 0.6, "angle_rad": 0.0, "offset": 0.0,
             "release": None},
    "aim": {"v": 1, "type": "aim", "along": 0.1, "across": 0.0},
    "home": {"v": 1, "type": "home", "step": 0, "pawn": "south-1", "scoring": 0},
    "score": {"v": 1, "type": "score", "step": 0,
              "moves": [{"pawn": "south-1", "scoring": 0, "points": 3}]},
}  # fmt: skip
"""every message a client sends, valid"""
NASTY: list[Any] = [
    None, True, 0, -1, 1, 2**63, 10**400, 1e308, -1e308, 0.6, "", "1", "x" * 5000, "../../x",
    "@NORTH", "@SOUTH", "ab" * 16, [], [1], {}, {"type": "shot"}, "shot", "hello", "welcome",
]  # fmt: skip


@st.composite
def frames(draw: st.DrawFn) -> str | bytes:
    """One frame: a client's message, mutated (or not) in its fields and then in its text."""
    data = copy.deepcopy(TEMPLATES[draw(st.sampled_from(sorted(TEMPLATES)))])
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        key = draw(st.sampled_from(sorted(data)))
        how = draw(st.sampled_from(["value", "drop", "rename", "add"]))
        if how == "value":
            data[key] = draw(st.sampled_from(NASTY))
        elif how == "drop":
            del data[key]
        elif how == "rename":
            data[key.upper()] = data.pop(key)
        else:
            data[draw(st.sampled_from(["extra", "seat", "seed", "by"]))] = draw(
                st.sampled_from(NASTY)
            )
    text = json.dumps(data)
    how = draw(st.sampled_from(["as is"] * 8 + ["cut", "flip", "binary", "huge", "deep"]))
    if how == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if how == "flip":
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + chr(ord(text[at]) ^ draw(st.integers(1, 127))) + text[at + 1 :]
    if how == "binary":
        return text.encode()
    if how == "huge":
        return text[:-1] + ', "pad": "' + "y" * (MAX_MESSAGE + 10) + '"}'
    if how == "deep":
        return "[" * 10_000 + text + "]" * 10_000
    return text


@FUZZ
@given(
    sent=st.lists(frames(), min_size=1, max_size=5),
    seated=st.sampled_from(["", "@SOUTH", "@NORTH"]),
)
def test_a_hostile_client_changes_nothing_it_should_not(
    sent, seated, tmp_path_factory, caplog
) -> None:
    """``seated``: the connection first claims that seat with its code (so that what follows
    reaches the game), or not."""
    if seated:
        sent = [json.dumps({**TEMPLATES["hello"], "code": seated}), *sent]
    folder = tmp_path_factory.mktemp("room")
    plans = parse_host_seats("south=remote,north=remote")
    config = config_from_flags("instant-sorry", "square", "south=human,north=human", 7)
    room = new_room("1", config, plans, folder, 1)
    codes = {"@SOUTH": room.codes["south"], "@NORTH": room.codes["north"]}

    def real(frame: str | bytes) -> str | bytes:
        if isinstance(frame, bytes):
            return frame
        for name, code in codes.items():
            frame = frame.replace(name, code)
        return frame

    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        host = Host([room])
        await host.start()
        try:
            answers = await raw(host.port, *[real(f) for f in sent], wait=0.3)
            after = await raw(host.port, json.dumps(TEMPLATES["watch"]), wait=0.3)
        finally:
            await host.close()
        return answers, after

    with caplog.at_level(logging.ERROR):
        answers, after = asyncio.run(main())
    said = f"{sent!r:.400} -> {answers!r:.400}"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], said
    assert all(m.get("type") in HOST_TYPES for m in answers), said
    for m in answers:
        if m["type"] in ("refused", "bye") and m.get("reason"):
            assert "\n" not in m["reason"] and len(m["reason"]) < 300, said
    assert after and after[0]["type"] == "welcome", said
    assert room.step <= 1, said
    # a shot's release is kept beside the log until its step is written
    assert {p.name for p in folder.iterdir()} <= {
        "1.json",
        "1.json.codes.json",
        "1.json.release.json",
    }, said
    if (folder / "1.json").exists():
        assert len(load_replay(folder / "1.json").steps) == room.step, said


def test_the_campaign_sends_every_message_a_client_may_send() -> None:
    """A message type added to the protocol joins the campaign in the same change."""
    assert {t["type"] for t in TEMPLATES.values()} == set(CLIENT_TYPES)
    assert all(check_client(dict(t)) for t in TEMPLATES.values() if "@" not in json.dumps(t))
