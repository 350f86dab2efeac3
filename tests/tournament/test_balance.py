"""The balance report: players with a hand of any noise, what a game's record says about the
hole, the report's runs (resumable, interleaved) and its figures."""

from __future__ import annotations

import os

import numpy as np
import pytest

from sliders.ai import ComputerPlayer
from sliders.ai.value import GameSpot, study_state
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.physics import NOISE_LEVELS
from sliders.pictures.balance import FIGURES, write_report
from sliders.rules import InstantHome, PawnRemoved, Penalty
from sliders.tournament.balance import Plan, decided_by_hole, findings, load, play
from sliders.tournament.players import RaceGreedy, make_player
from sliders.tournament.run import Job, _count_hole, play_game

RNG = np.random.default_rng(0)


def test_a_hand_is_a_level_or_a_multiple_of_the_medium_hand():
    m = NOISE_LEVELS["medium"]
    bot = make_player("centre:1.5", "south", RNG)
    assert bot.hand.speed_rel == pytest.approx(1.5 * m.speed_rel)
    assert bot.hand.angle_deg == pytest.approx(1.5 * m.angle_deg)
    assert make_player("centre:high", "south", RNG).hand == NOISE_LEVELS["high"]
    cpu = make_player("cpu:easy:low", "south", RNG, "exact")
    assert isinstance(cpu, ComputerPlayer) and cpu.engine == "exact"
    assert cpu.strength.noise == NOISE_LEVELS["low"]
    assert cpu.strength.budget == make_player("cpu:easy", "south", RNG).strength.budget
    for bad in ("centre:-1", "centre:wobbly", "cpu:easy:11", "cpu:expert"):
        with pytest.raises(UserError, match="player"):
            make_player(bad, "south", RNG)


def test_the_hole_tally_counts_jumps_home_and_hole_penalties_only():
    holes = {"south": {"hole": 0, "hole_spaces": 0}, "north": {"hole": 0, "hole_spaces": 0}}
    # Instant Home: south's pawn drops in, a scoring pawn jumps HOME from 2
    _count_hole(
        [
            PawnRemoved("south-1", "south", Status.IN_HOLE, False),
            InstantHome("south", "south-1", 0, 2),
        ],
        holes,
    )
    # Instant Sorry!: north's pawn drops in (penalty from 5); another goes off (penalty from 3)
    _count_hole(
        [
            PawnRemoved("north-1", "north", Status.IN_HOLE, True),
            Penalty("north", "north-1", 0, 5),
            PawnRemoved("north-2", "north", Status.OFF_BOARD, True),
            Penalty("north", "north-2", 1, 3),
        ],
        holes,
    )
    assert holes == {
        "south": {"hole": 1, "hole_spaces": 4},
        "north": {"hole": 1, "hole_spaces": -5},
    }


def _game(win, ended=False, **seats):
    return {
        "winner_seat": win,
        "ended_on_shot": ended,
        "by_seat": {s: {"hole_spaces": h, "progress": p} for s, (h, p) in seats.items()},
    }


def test_a_game_is_decided_by_the_hole_when_its_swing_covers_the_lead():
    assert decided_by_hole(_game("south", True, south=(6, 24), north=(0, 10)))
    assert decided_by_hole(_game("south", south=(6, 24), north=(0, 20)))  # lead 4, swing 6
    assert not decided_by_hole(_game("south", south=(6, 24), north=(0, 12)))  # lead 12
    # Instant Sorry!: the loser's penalties in the hole count for the winner
    assert decided_by_hole(_game("north", south=(-5, 21), north=(0, 24)))
    assert not decided_by_hole(_game("north", south=(0, 21), north=(0, 24)))
    assert not decided_by_hole(_game(None, south=(6, 20), north=(0, 20)))


def test_a_game_record_says_who_won_from_which_seat_and_what_the_hole_did():
    plan = Plan("centre", games=1, faces=("instant-home",), layouts=("square",), max_rounds=3)
    (run, *_) = plan.runs()
    record = play_game(Job(run.settings, 0, 0, ""))
    assert record["winner_seat"] in (None, "south", "north")
    assert set(record["by_seat"]) == {"south", "north"}
    for st in record["by_seat"].values():
        assert set(st) == {"hole", "hole_spaces", "progress"} and 0 <= st["progress"] <= 24
    assert isinstance(record["ended_on_shot"], bool)


def test_the_report_plays_every_run_resumes_and_draws_its_figures(tmp_path):
    plan = Plan(
        "centre", games=2, skill_games=2, gaps=(2.0,), faces=("race-for-home", "instant-home"),
        layouts=("square", "crazy-corner"), max_rounds=2,
    )  # fmt: skip
    runs_dir = str(tmp_path / "runs")
    seen: list[int] = []
    played = play(plan, runs_dir, 1, lambda done, total: seen.append(total))
    assert len(played) == 2 * 2 + 2 and all(len(g) == r.settings.games for r, g in played.items())
    assert seen[-1] == 2 * 2 * 2 + 2 * 2
    crazy = next(r for r in played if r.layout == "crazy-corner")
    assert crazy.settings.seats == ("south", "west")  # the layout's own two seats
    skill = next(r for r in played if r.kind == "skill")
    assert skill.settings.players == ("centre:1", "centre:2")
    # a run killed mid-line resumes with only its missing game
    path = os.path.join(runs_dir, crazy.file_name())
    lines = open(path).read().splitlines()
    open(path, "w").write("\n".join(lines[:-1]) + "\n" + lines[-1][:15])
    seen.clear()
    again = play(plan, runs_dir, 1, lambda done, total: seen.append(done))
    assert len(seen) == 1 and again == load(plan, runs_dir)
    f = findings(plan, again)
    assert {(e.face, e.layout) for e in f.even} == {
        (a, b) for a in plan.faces for b in plan.layouts
    }
    out = tmp_path / "docs" / "balance.md"
    out.parent.mkdir()
    write_report(f, str(out), str(tmp_path / "docs" / "balance"), "asked 2, ran 2")
    text = out.read_text()
    for heading in ("starter's advantage", "Game length", "skill shows", "hole decides"):
        assert heading in text
    assert "asked 2, ran 2" in text and "](balance/starter.png)" in text
    # two rounds rarely see a winner: the length table and the findings say how many did not
    share = max(e.draws / e.games for e in f.even)
    assert share >= 0.5
    assert "% unfinished" in text and f"(up to {100 * share:.0f} % of games" in text
    assert "often reach the 2-round cap" in text
    for name in FIGURES:
        assert (tmp_path / "docs" / "balance" / name).read_bytes()[:4] == b"\x89PNG"


def test_the_race_bot_values_the_race_by_exact_count_and_both_seats():
    bot = make_player("race", "south", RNG)
    assert isinstance(bot, RaceGreedy)

    def lead(points: int, seat: str = "south", board=(5, 5, 5, 0)) -> float:
        rest = PawnRest(f"{seat}-1", seat, 0.0, 0.0, Status.ON_TARGET, points, (points,))
        spot = GameSpot((("north", (0, 0, 0, 0)), ("south", board)))
        return bot.value(
            study_state("race-for-home", ("south", "north"), "south", (rest,), spot), ()
        )

    assert lead(0) == 15.0
    assert lead(6) == 21.0 and lead(1) == 16.0  # a pawn on START takes the 6, one on 5 the 1
    assert lead(3, board=(5, 5, 5, 5)) == 20.0  # 3 fits no pawn by exact count: lost
    assert lead(5, "north") == 10.0  # the opponent's points count against it
