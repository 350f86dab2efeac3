"""The game review on golden logs: deterministic, every shot marked by its documented threshold,
the table and the picture written whole; bad input refused in one line."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from sliders.cli import main
from sliders.game.saves import load_replay, params_of, save_game
from sliders.lab.review import (
    MARKS,
    REVIEW_MIND,
    UNJUDGED,
    has_positions,
    log_digest,
    mark_of,
    review_game,
    review_of,
    write_table,
)
from sliders.pictures.review import write_review_png
from sliders.rules import ScoreStep, ShotStep

GAMES = Path(__file__).resolve().parents[1] / "fixtures" / "games"
KEPT = Path(__file__).resolve().parents[1] / "fixtures" / "score" / "instant-sorry.log.json"
"""a scorekeeper's log (sliders score --log): outcomes and round-end choices, no positions"""
RACE = GAMES / "race-for-home-square-exact.json"
SMALL = replace(REVIEW_MIND, simulations=40, first=2)
"""a small budget: the everyday run checks the plumbing, not the search"""


def test_marks_follow_the_documented_thresholds() -> None:
    assert mark_of(0.0) == "good"
    assert mark_of(MARKS["imprecise"] - 0.01) == "good"
    assert mark_of(MARKS["imprecise"]) == "imprecise"
    assert mark_of(MARKS["mistake"]) == "mistake"
    assert mark_of(MARKS["blunder"] + 30) == "blunder"


def test_a_review_is_deterministic_and_consistent(tmp_path: Path) -> None:
    a = review_game(RACE, mind=SMALL, limit=3)
    b = review_game(RACE, mind=SMALL, limit=3)
    assert a == b
    assert len(a.shots) == 3
    assert a.winner == "south"
    assert len(a.curve) == 37  # before each of the 36 steps, and the end
    assert a.curve[-1] == {"south": 1.0, "north": 0.0}
    for s in a.shots:
        assert 0 <= s.before <= 1 and 0 <= s.after <= 1 and 0 <= s.best <= 1
        assert s.before == a.curve[s.index][s.seat]
        assert s.after == a.curve[s.index + 1][s.seat]
        assert s.loss == pytest.approx(max(0.0, 100 * (s.best - s.played)))
        assert s.mark == mark_of(s.loss)
        assert s.luck == pytest.approx(s.after - s.played)
        assert s.played_speed is not None
    write_table(a, tmp_path / "r.csv")
    write_table(a, tmp_path / "r.json")
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert [r["mark"] for r in rows] == [s.mark for s in a.shots]
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["log_sha256"] == a.digest and len(data["shots"]) == 3
    write_review_png(str(tmp_path / "r.png"), a.seats, a.curve, data["shots"], "t")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["review", "no-such-log.json"], "no-such-log.json"),
        (["review", str(RACE), "--out", "r.txt"], ".csv or .json"),
        (["review", str(RACE), "--picture", "r.jpg"], "PNG"),
        (["review", str(RACE), "--hand", "south"], "SEAT=HAND"),
        (["review", str(RACE), "--hand", "south=wobbly"], "wobbly"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


@pytest.mark.slow
def test_a_whole_game_reviews_the_same_twice() -> None:
    a = review_game(RACE)
    assert len(a.shots) == 32
    assert a == review_game(RACE)
    assert all(s.simulations > 0 for s in a.shots)


def test_a_game_reviewed_in_memory_is_reviewed_as_its_saved_log(tmp_path: Path) -> None:
    game = load_replay(RACE)
    saved = save_game(game, tmp_path / "again.json")
    assert review_of(game, log_digest(game), mind=SMALL, limit=2) == review_game(
        saved, mind=SMALL, limit=2
    )


def test_a_scorekeepers_log_is_reviewed_for_what_it_holds(tmp_path: Path, capsys) -> None:
    """No positions: every step's chances, each shot's luck (the whole change), the round-end
    choices judged; the best shot, the worth, the loss and the mark of a shot are left unjudged,
    and the summary says why. ``--show`` (the table drawn) is refused in one line."""
    game = load_replay(KEPT)
    assert not has_positions(game) and has_positions(load_replay(RACE))
    r = review_game(KEPT, mind=SMALL)
    assert not r.positions
    shots = sum(isinstance(s, ShotStep) for s in game.steps)
    assert len(r.shots) == shots and len(r.curve) == len(game.steps) + 1
    for s in r.shots:
        assert s.mark == UNJUDGED and s.best is None and s.simulations == 0
        assert s.before == r.curve[s.index][s.seat] and s.after == r.curve[s.index + 1][s.seat]
        assert s.luck == pytest.approx(s.after - s.before)
    assert r.choices, "the log's round ends"
    for c in r.choices:
        assert isinstance(game.steps[c.index], ScoreStep)
        assert 0 <= c.after <= c.best <= 1 and c.mark == mark_of(c.loss)
        assert c.after == pytest.approx(r.curve[c.index + 1][c.seat])  # the choice made
    assert sum(r.counts()[s]["good"] for s in r.seats) == 0  # unjudged shots are not counted
    assert main(["review", str(KEPT), "--out", str(tmp_path / "k.json")]) == 0
    out = capsys.readouterr().out
    assert "shots unjudged: a scorekeeper's log holds no positions" in out
    assert "round-end choices:" in out
    data = json.loads((tmp_path / "k.json").read_text())
    assert data["positions"] is False and len(data["choices"]) == len(r.choices)
    assert main(["review", str(KEPT), "--show"]) == 2
    err = capsys.readouterr().err
    assert "--show draws the table" in err and err.count("\n") == 1


def test_a_game_is_reviewed_in_the_physics_it_was_played_with(tmp_path: Path) -> None:
    """A log that records changed physics parameters (``sliders play --params``) is reviewed
    with them, not with the defaults."""
    from sliders.physics import PhysicsParams

    game = load_replay(RACE)
    game.params = {"mu_roll": 0.07}
    path = save_game(game, tmp_path / "slow.json")
    played = review_game(path, mind=SMALL, limit=1)
    assert played == review_game(path, mind=SMALL, limit=1, params=params_of(game))
    assert played != review_game(path, mind=SMALL, limit=1, params=PhysicsParams.default())
