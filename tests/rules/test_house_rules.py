"""House rules: off by default; ``no-knock-penalty`` spares a pawn knocked onto a SORRY! corner
by another player's slide, ``corners-only`` a pawn off a side of the board, and both flow through
the game's log, its replay and the scorekeeper."""

from __future__ import annotations

import io
import json
import sys

import pytest

from sliders.cli import main
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, ShotResult, Status
from sliders.rules import (
    CORNERS_ONLY,
    HOUSE_RULES,
    NO_KNOCK_PENALTY,
    Game,
    Penalty,
    RulesError,
    apply_shot,
    new_game,
)

SEATS = ("south", "north")


def _knock(house=(), own=False):
    """North's pawn stands on the 3; south's slide knocks it onto a SORRY! corner (or, ``own``,
    south's own earlier pawn)."""
    state = new_game("race-for-home", SEATS, "north", {"south": (4, 2, 0, 0),
                     "north": (5, 1, 0, 0)}, house=house)  # fmt: skip
    first = "north-1" if not own else None
    if own:  # south starts, its first pawn lands on the 3, north slides to its own track
        state = new_game("race-for-home", SEATS, "south", {"south": (4, 2, 0, 0),
                         "north": (5, 1, 0, 0)}, house=house)  # fmt: skip
        state, _ = apply_shot(state, ShotResult("race-for-home", "south-1", (
            PawnRest("south-1", "south", 0.1, 0.1, Status.ON_TARGET, 3),)))  # fmt: skip
        state, _ = apply_shot(state, ShotResult("race-for-home", "north-1", (
            PawnRest("south-1", "south", 0.1, 0.1, Status.ON_TARGET, 3),
            PawnRest("north-1", "north", 0.0, -0.2, Status.OWN_TRACK, 0))))  # fmt: skip
        result = ShotResult("race-for-home", "south-2", (
            PawnRest("south-1", "south", 0.12, 0.12, Status.SORRY_CORNER, 0),
            PawnRest("north-1", "north", 0.0, -0.2, Status.OWN_TRACK, 0),
            PawnRest("south-2", "south", 0.05, 0.05, Status.ON_TARGET, 3)))  # fmt: skip
        return apply_shot(state, result)
    state, _ = apply_shot(state, ShotResult("race-for-home", first, (
        PawnRest(first, "north", 0.1, 0.1, Status.ON_TARGET, 3),)))  # fmt: skip
    result = ShotResult("race-for-home", "south-1", (
        PawnRest("north-1", "north", 0.12, 0.12, Status.SORRY_CORNER, 0),
        PawnRest("south-1", "south", 0.05, 0.05, Status.ON_TARGET, 3)))  # fmt: skip
    return apply_shot(state, result)


def test_the_rulebook_penalises_a_knock_onto_a_corner_and_the_house_rule_spares_it():
    after, happened = _knock()
    assert [h.seat for h in happened if isinstance(h, Penalty)] == ["north"]
    assert after.player("north").board == (0, 1, 0, 0)
    after, happened = _knock((NO_KNOCK_PENALTY,))
    assert not [h for h in happened if isinstance(h, Penalty)]
    assert after.player("north").board == (5, 1, 0, 0)
    assert not after.on_table("north")  # the pawn still leaves play, its points with it
    assert after.house == (NO_KNOCK_PENALTY,)


def test_a_players_own_slide_is_penalised_under_the_house_rule_too():
    for house in ((), (NO_KNOCK_PENALTY,)):
        after, happened = _knock(house, own=True)
        assert [h.seat for h in happened if isinstance(h, Penalty)] == ["south"]
        assert after.player("south").board == (0, 2, 0, 0)


def _off(status: Status, house=()):
    """North's pawn on the 3 is knocked by south's slide off the board (``status``: off a
    corner, ``off_board``, or a side, ``off_side``)."""
    state = new_game("race-for-home", SEATS, "north", {"south": (4, 2, 0, 0),
                     "north": (5, 1, 0, 0)}, house=house)  # fmt: skip
    state, _ = apply_shot(state, ShotResult("race-for-home", "north-1", (
        PawnRest("north-1", "north", 0.0, 0.1, Status.ON_TARGET, 3),)))  # fmt: skip
    return apply_shot(state, ShotResult("race-for-home", "south-1", (
        PawnRest("north-1", "north", 0.0, 0.13, status, 0),
        PawnRest("south-1", "south", 0.0, 0.05, Status.ON_TARGET, 3))))  # fmt: skip


def test_corners_only_spares_a_pawn_off_a_side_and_nothing_else():
    for status in (Status.OFF_SIDE, Status.OFF_BOARD):  # by the rulebook as the project reads it
        after, happened = _off(status)
        assert [h.seat for h in happened if isinstance(h, Penalty)] == ["north"]
        assert after.player("north").board == (0, 1, 0, 0)
    after, happened = _off(Status.OFF_SIDE, (CORNERS_ONLY,))
    assert not [h for h in happened if isinstance(h, Penalty)]
    assert after.player("north").board == (5, 1, 0, 0) and not after.on_table("north")
    after, happened = _off(Status.OFF_BOARD, (CORNERS_ONLY,))  # off a corner: still a penalty
    assert after.player("north").board == (0, 1, 0, 0)
    after, happened = _knock((CORNERS_ONLY,))  # onto a SORRY! corner: still a penalty
    assert after.player("north").board == (0, 1, 0, 0)


def test_an_unknown_house_rule_is_refused_in_one_line():
    with pytest.raises(RulesError, match="unknown house rule 'gentle'.*no-knock-penalty"):
        new_game("race-for-home", SEATS, house=["gentle"])
    assert list(HOUSE_RULES) == [NO_KNOCK_PENALTY, CORNERS_ONLY]
    assert new_game("race-for-home", SEATS).house == ()  # off by default
    assert "house" not in new_game("race-for-home", SEATS).to_json()


def test_the_log_keeps_the_house_rules_and_its_replay_applies_them(tmp_path):
    game = Game("race-for-home", SEATS, "north", boards={"north": (5, 1, 0, 0)},
                house=[NO_KNOCK_PENALTY])  # fmt: skip
    game.shoot(ShotResult("race-for-home", "north-1", (
        PawnRest("north-1", "north", 0.1, 0.1, Status.ON_TARGET, 3),)))  # fmt: skip
    game.shoot(ShotResult("race-for-home", "south-1", (
        PawnRest("north-1", "north", 0.12, 0.12, Status.SORRY_CORNER, 0),
        PawnRest("south-1", "south", 0.05, 0.05, Status.ON_TARGET, 3))))  # fmt: skip
    path = tmp_path / "g.json"
    game.save(path)
    data = json.loads(path.read_text())
    assert data["house"] == [NO_KNOCK_PENALTY]
    again = Game.load(path)
    assert again.house == (NO_KNOCK_PENALTY,) and again.state == game.state
    assert again.state.player("north").board == (5, 1, 0, 0)
    # the same steps by the rulebook: the replay penalises the knock
    del data["house"]
    plain = Game.from_json(data)
    assert plain.state.player("north").board == (0, 1, 0, 0)
    data["house"] = ["gentle"]
    with pytest.raises(UserError, match="house"):
        Game.from_json(data)


def _score(monkeypatch, capsys, args, lines):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_scorekeeper_plays_a_house_rule_logs_it_and_its_summary_names_it(
    monkeypatch, capsys, tmp_path
):
    log = tmp_path / "g.json"
    args = ["--face", "race-for-home", "--players", "red,blue", "--boards", "red=0,0,0,0",
            "blue=5,1,0,0", "--starter", "blue"]  # fmt: skip
    lines = ["blue 3", "red 2, blue#1 sorry"]
    code, out, err = _score(monkeypatch, capsys, [*args, "--log", str(log),
                            "--house-rule", NO_KNOCK_PENALTY], lines)  # fmt: skip
    assert code == 0, err
    game = Game.load(log)
    assert game.house == (NO_KNOCK_PENALTY,)
    assert game.state.player("west").board == (5, 1, 0, 0)
    code, out, err = _score(monkeypatch, capsys, ["--replay", str(log)], [])
    assert code == 0 and f"house rules: {NO_KNOCK_PENALTY}" in out
    # by the rulebook the same lines send blue's 5 back to START
    plain = tmp_path / "plain.json"
    code, out, err = _score(monkeypatch, capsys, [*args, "--log", str(plain)], lines)
    assert code == 0, err
    assert Game.load(plain).state.player("west").board == (0, 1, 0, 0)
    # a log taken up again with another house rule than it was played with is refused
    code, out, err = _score(monkeypatch, capsys, ["--log", str(plain), "--house-rule",
                            NO_KNOCK_PENALTY], [])  # fmt: skip
    assert code == 2 and "no house rule" in err


def test_the_scorekeeper_takes_a_pawn_off_a_side(monkeypatch, capsys, tmp_path):
    args = ["--face", "race-for-home", "--players", "red,blue", "--boards", "red=0,0,0,0",
            "blue=5,1,0,0", "--starter", "blue"]  # fmt: skip
    lines = ["blue 3", "red 2, blue#1 side"]
    for house, board in (([], (0, 1, 0, 0)), (["--house-rule", CORNERS_ONLY], (5, 1, 0, 0))):
        log = tmp_path / f"g{len(house)}.json"
        code, out, err = _score(monkeypatch, capsys, [*args, "--log", str(log), *house], lines)
        assert code == 0, err
        assert Game.load(log).state.player("west").board == board
