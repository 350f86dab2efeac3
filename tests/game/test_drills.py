"""Drills: the ladder covers every challenge on every face where it means something, each drill's
table is a scene file `sliders shot --scene` reads, a try is scored by its documented rule on the
real physics, the best scores and the hand's attempts are kept in the data directory."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sliders.ai.aims import aim_at
from sliders.cli import main
from sliders.core.outcome import FACES
from sliders.files.scenes import Scene
from sliders.game.drills import (
    KINDS,
    LADDER,
    SHOOTER,
    attempt,
    best_scores,
    drill,
    record_score,
    score_try,
    target,
)
from sliders.game.hand import kept_attempts, kept_spreads
from sliders.physics import PhysicsParams, Setup, Shot, start

P = PhysicsParams.default()


def slide(name: str, speed: float, angle: float) -> int:
    d = drill(name)
    layout, face = d.scene.build()
    sim = start(Setup(layout, face, P, "exact"), d.scene.pawns, Shot(SHOOTER, speed, angle))
    sim.run()
    return score_try(d, sim.result())


def test_the_ladder_has_every_challenge_on_every_face_it_fits() -> None:
    names = {d.name for d in LADDER}
    for kind in KINDS[:-1]:
        assert {f"{kind}-{f}" for f in FACES} <= names
    assert [d.face for d in LADDER if d.kind == "hole"] == ["instant-home"]
    for d in LADDER:  # each table is a scene file, read back strictly
        assert Scene.from_json(d.scene.to_json()) == d.scene


@pytest.mark.parametrize("name", ["centre-race-for-home", "hole-instant-home"])
def test_a_shot_at_the_target_scores_full_marks_and_a_short_one_nothing(name: str) -> None:
    d = drill(name)
    layout, _ = d.scene.build()
    seat = layout.seat(SHOOTER)
    spot = target(d)
    assert spot is not None
    aim = aim_at(seat, P, seat.foul, 0.0, *spot)
    assert aim is not None
    assert slide(name, *aim) == 3
    assert slide(name, 0.2, 0.0) == 0
    intended, slid = attempt(d, Shot(SHOOTER, aim[0] * 1.1, aim[1] + 0.01))
    assert intended == pytest.approx((aim[0], math.degrees(aim[1])))
    assert slid == pytest.approx((aim[0] * 1.1, math.degrees(aim[1] + 0.01)))


def test_passing_between_the_pawns_and_hitting_one() -> None:
    assert slide("pass-race-for-home", 0.6, 0.0) == 3
    assert slide("pass-race-for-home", 0.75, 0.0) == 0  # untouched, but past the target
    q = drill("pass-race-for-home").scene.pawns[0]
    assert attempt(drill("pass-race-for-home"), Shot(SHOOTER, 0.7)) is None
    assert slide("pass-race-for-home", 0.8, math.atan2(q.x, q.y + 0.19)) == 0


def test_best_scores_and_attempts_are_kept_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert best_scores() == {}
    assert record_score("takeout-danger-dots", 7) == (7, True)
    assert record_score("takeout-danger-dots", 5) == (7, False)
    assert best_scores() == {"takeout-danger-dots": 7}
    tries = ["--try", "0.586,0", "--try", "0.6,1", "--try", "0.55,-1", "--try", "0.62,0.5"]
    assert main(["drills", "centre-race-for-home", *tries, "--try", "0.58,0.2"]) == 0
    out = capsys.readouterr().out
    assert "(a new best)" in out
    assert "your spread: speed " in out and "(your first measured drill)" in out
    assert 0 < best_scores()["centre-race-for-home"] <= 15
    assert len(kept_attempts()) == 5
    (spread,) = kept_spreads()  # the tries' own spread: 0.55 to 0.62 m/s, -1° to +1°
    assert spread.n == 5 and 0.03 < spread.speed < 0.06 and 0.5 < spread.angle < 1.0
    assert main(["drills"]) == 0
    assert "your spread: speed" in capsys.readouterr().out  # kept over sessions
    picture = tmp_path / "hand.png"
    assert main(["drills", "--fit-hand", "--picture", str(picture)]) == 0
    assert (tmp_path / "sliders" / "hand.json").exists()
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["drills", "nope"], "unknown drill"),
        (["drills", "centre-race-for-home", "--try", "1,x"], "SPEED,ANGLE"),
        (["drills", "--try", "1,0"], "need a drill"),
        (["drills", "--picture", "hand.png"], "--fit-hand"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err
