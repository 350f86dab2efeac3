"""The tournament's yardsticks of a style: the aggressive one knocks pawns onto SORRY! corners
where the rules-aware greedy scores, the defensive one minds its exposure, and each is a named
player of ``sliders tournament``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sliders.ai.value import GameSpot, study_state
from sliders.boards import face
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.physics import PhysicsParams, Setup, simulate
from sliders.rules import apply_shot
from sliders.rules.happenings import Penalty
from sliders.tournament.players import (
    BUILTIN,
    AggressiveBot,
    DefensiveBot,
    MixedBot,
    check_name,
    make_player,
)

SEATS = ("south", "north")


def _position(north_board=(1, 0, 0, 0)):
    """South to slide its first pawn; north's pawn worth 1 stands near the north-east SORRY!
    corner, open to a cut from south's foul line."""
    table = (PawnRest("north-1", "north", 0.085, 0.06, Status.ON_TARGET, 1),)
    spot = GameSpot((("south", (0, 0, 0, 0)), ("north", north_board)))
    return study_state("race-for-home", SEATS, "south", table, spot)


def _played(name, state):
    layout, f, p = load_layout("square", SEATS), face("race-for-home"), PhysicsParams.default()
    shot = make_player(name, "south", np.random.default_rng(1)).choose_shot(state, layout, f, p)
    _, happened = apply_shot(state, simulate(Setup(layout, f, p, "exact"), state.table, shot))
    return [h for h in happened if isinstance(h, Penalty) and h.scoring is not None]


def test_the_aggressive_yardstick_knocks_a_pawn_into_a_corner_where_race_scores():
    # knocking north's pawn costs north one space; a 5 in the centre is worth more to the
    # rules-aware greedy, not to the player that counts the other seat's penalties first
    state = _position()
    assert [h.seat for h in _played("aggressive", state)] == ["north"]
    assert _played("race", state) == []


def test_the_aggressive_yardstick_knocks_under_its_hand_too():
    assert [h.seat for h in _played("aggressive:low", _position((5, 3, 0, 0)))] == ["north"]


def test_exposure_is_what_the_defensive_yardstick_minds():
    layout, f, p = load_layout("square", SEATS), face("race-for-home"), PhysicsParams.default()
    state = _position()
    bot = DefensiveBot("north", make_player("race", "north", np.random.default_rng(0)).hand,
                       np.random.default_rng(0))  # fmt: skip
    # north's pawn near the corner, south still to slide: exposed; in the centre, far less
    near = bot._spaces_at_risk(state, layout, f, p, [("north-1", 0.085, 0.06, Status.ON_TARGET)])
    centre = bot._spaces_at_risk(state, layout, f, p, [("north-1", 0.0, 0.0, Status.ON_TARGET)])
    assert near > 2 * centre > 0
    # a guard of north's standing between south's lane and the pawn closes the cuts from there
    guarded = bot._spaces_at_risk(
        state, layout, f, p,
        [("north-1", 0.085, 0.06, Status.ON_TARGET), ("north-2", 0.07, 0.02, Status.ON_TARGET),
         ("north-3", 0.05, 0.03, Status.ON_TARGET)],
    )  # fmt: skip
    assert guarded < near


@pytest.mark.parametrize("name", ["aggressive", "defensive", "mixed", "aggressive:low"])
def test_the_yardsticks_are_named_players(name):
    assert check_name(name) == name
    assert {"aggressive", "defensive", "mixed"} <= set(BUILTIN)
    kind = name.partition(":")[0]
    cls = {"aggressive": AggressiveBot, "defensive": DefensiveBot, "mixed": MixedBot}[kind]
    assert isinstance(make_player(name, "south", np.random.default_rng(0)), cls)


def test_a_yardstick_plays_the_same_shot_from_the_same_seed():
    layout, f, p = load_layout("square", SEATS), face("race-for-home"), PhysicsParams.default()
    state = _position((5, 3, 0, 0))
    shots = [
        make_player("mixed:low", "south", np.random.default_rng(7)).choose_shot(state, layout, f, p)
        for _ in range(2)
    ]
    assert shots[0] == shots[1]


def test_a_tournament_plays_with_a_house_rule_and_its_results_file_records_it(tmp_path, capsys):
    from sliders.cli import main

    results = tmp_path / "t.jsonl"
    args = ["tournament", "--players", "centre,centre:high", "--games", "2", "--max-rounds", "2",
            "--jobs", "1", "--quiet", "--results", str(results), "--png", str(tmp_path / "t.png")]  # fmt: skip
    assert main([*args, "--house-rule", "no-knock-penalty"]) == 0
    head = json.loads(results.read_text().splitlines()[0])
    assert head["house"] == ["no-knock-penalty"]
    capsys.readouterr()
    # the same file without the house rule is another tournament
    assert main(args) == 2
    assert "house" in capsys.readouterr().err


def test_the_game_a_tournament_plays_carries_its_house_rule():
    from sliders.game import HeadlessGame

    g = HeadlessGame("race-for-home", "square", SEATS, 1, house=["no-knock-penalty"])
    assert g.state.house == ("no-knock-penalty",)
    assert g.turns.game.to_json()["house"] == ["no-knock-penalty"]
