"""A person's hand: by default (``exact``) the shot the control makes is the shot slid, nothing
drawn; a handicap a person chooses (``steady``, ``normal``, ``shaky``) adds a computer's noise,
drawn from the seat's own seeded stream (``normal`` as often in ring 5 as the ``medium``
computer's best shot) and recorded in the game's log."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sliders.ai.player import candidate_shots
from sliders.ai.release import fit_release
from sliders.game.config import DEFAULT_HAND, HANDS, MatchConfig, parse_seat_specs
from sliders.game.turns import Turns
from sliders.physics import NOISE_LEVELS, Shot, simulate
from sliders.physics.noise import apply_errors
from sliders.scenes.controls import PULL_MAX, pull_speed
from sliders.scenes.table import Match

PULLS = 400
"""simulated pulls of each hand (issue 27 asks for at least 200)"""


def best_pull(match: Match, seat: str) -> Shot:
    """The straight pull (whole pixels, from the middle of the foul line) whose shot, slid
    exactly, stops nearest the board's centre."""
    lane = match.seat(seat)
    distance = lane.from_world(0.0, 0.0)[0] - lane.foul
    p = match.params
    speeds = [pull_speed(match, seat, k / PULL_MAX) for k in range(1, PULL_MAX + 1)]
    speed = min(speeds, key=lambda v: abs(p.stopping_distance(v) - distance))
    return Shot(seat, speed, 0.0, 0.0, None, f"{seat}-1")


def ring5_rate(shots: list[Shot], turns: Turns) -> float:
    """The share of ``shots`` (each slid alone on the empty board) that stop in ring 5."""
    hits = 0
    for i, shot in enumerate(shots):
        result = simulate(turns.setup, (), dataclasses.replace(shot, seed=i))
        hits += result.pawn(result.shooter).points == 5
    return hits / len(shots)


def person_rate(hand: str = "normal", seed: int = 1, n: int = PULLS) -> float:
    match = Match(
        MatchConfig("race-for-home", "square", parse_seat_specs("south"), seed, hand=hand)
    )
    shot = best_pull(match, "south")
    return ring5_rate([match.by_hand(shot) for _ in range(n)], match.turns)


def computer_rate(seed: int = 1, n: int = PULLS) -> float:
    """The ``medium`` computer's best shot at ring 5 (its first candidate: the straight
    placement at the middle of the board) as its hand slides it, ``n`` times."""
    turns = Turns(MatchConfig("race-for-home", "square", parse_seat_specs("south=cpu"), seed))
    player = turns.computers["south"]
    state, layout, params = turns.state, turns.layout, turns.params
    shot, label = candidate_shots(state, layout, turns.face, params, "south", "south-1")[0]
    assert label == "stop at +0.00,+0.00"
    errors = player.strength.hand.draw(player.rng, n)
    seat = layout.seat("south")
    slid = [fit_release(apply_errors(shot, e, seat, params), state, layout, params) for e in errors]
    return ring5_rate(slid, turns)


def test_the_normal_hand_is_the_medium_computers():
    assert NOISE_LEVELS[HANDS["normal"]] == turns_hand("cpu:medium")


def turns_hand(strength: str):
    turns = Turns(MatchConfig("race-for-home", "square", parse_seat_specs(f"south={strength}"), 1))
    return turns.computers["south"].strength.hand


def test_a_persons_default_hand_adds_nothing():
    match = Match(MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), 3))
    assert match.config.hand == DEFAULT_HAND == "exact"
    shot = best_pull(match, "south")
    assert [match.by_hand(shot) for _ in range(20)] == [shot] * 20
    assert match.game.hands == {"south": "exact", "north": "exact"}  # people, no handicap


def test_the_normal_handicap_lands_ring_5_as_often_as_the_medium_computer():
    person, computer = person_rate(), computer_rate()
    assert abs(person - computer) <= 0.10, (person, computer)
    assert 0.15 < person < 0.85  # a skill, not a certainty
    assert person_rate("exact", n=20) == 1.0  # the best pull itself lands in ring 5
    assert person_rate("steady") > person > person_rate("shaky")


def test_the_hand_is_seeded_and_its_draws_are_the_seats_own():
    def shots(seed: int) -> list[Shot]:
        match = Match(
            MatchConfig("race-for-home", "square", parse_seat_specs("south,north"), seed,
                        hand="normal")
        )  # fmt: skip
        shot = best_pull(match, "south")
        return [match.by_hand(shot) for _ in range(5)]

    assert shots(3) == shots(3) and shots(3) != shots(4)
    state = np.random.get_state()[1][:4].tolist()
    shots(5)
    assert np.random.get_state()[1][:4].tolist() == state  # no global draw


@pytest.mark.parametrize("hand", ["steady", "normal", "shaky", "exact"])
def test_the_log_records_a_handicap_and_replays_the_shot_slid(hand, tmp_path):
    from sliders.rules import Game

    match = Match(
        MatchConfig("race-for-home", "square", parse_seat_specs("south,north=cpu"), 2, hand=hand)
    )
    slid = match.by_hand(best_pull(match, "south"))
    assert match.start(slid)
    match.advance(60.0, max_steps=10**7)
    match.finish()
    path = tmp_path / "game.json"
    match.game.save(path)
    game = Game.load(path)
    assert game.hands == {"south": hand}
    step = game.steps[0]
    assert (step.slide.speed, step.slide.angle, step.slide.offset) == (
        slid.speed, slid.angle, slid.offset,
    )  # fmt: skip
