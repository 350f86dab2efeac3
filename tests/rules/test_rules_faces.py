"""The scorekeeper reads the same face records as the physics: a pawn it records scores what the
physics would have it score, on every face, for every word."""

from __future__ import annotations

import pytest

from sliders.boards import FACES, face, worth
from sliders.core.outcome import Status
from sliders.rules import RulesError, apply_shot, new_game, scores_of
from sliders.rules.notation import WORDS, parse_shot

NUMBERS = [str(n) for n in range(0, 7)]


@pytest.mark.parametrize("name", FACES)
def test_the_scorekeeper_scores_every_word_as_the_physics_would(name):
    f = face(name)
    state = new_game(name, ["red"])
    made = set()
    for word in [*WORDS, "circle", *NUMBERS]:
        try:
            result, home = parse_shot(state, f"red {word}")
            apply_shot(state, result, home)  # the rules accept it on this face
        except RulesError:
            continue
        (p,) = result.pawns
        made.add(p.status)
        if not p.status.in_play:
            assert p.points == 0
            continue
        scores = scores_of(p, f)
        assert p.points == worth(scores)  # one definition: a choice is worth its best
        if p.status is Status.ON_TARGET:
            assert set(scores) <= f.points_offered
            if set(scores) & set(f.choice_points):
                assert scores == f.choice_points
        else:
            assert scores == f.scores(p.status)
    assert (Status.IN_HOLE in made) == (Status.HOLE_EDGE in made) == f.has_hole
    assert (Status.DANGER_DOT in made) == f.dots_remove


@pytest.mark.parametrize(
    ("name", "word", "points", "choices"),
    [
        ("instant-sorry", "circle", 6, (4, 5, 6)),
        ("instant-sorry", "5", 6, (4, 5, 6)),
        ("instant-sorry", "edge", 6, (4, 5, 6)),
        ("instant-home", "edge", 4, (4,)),
        ("instant-home", "5", 5, (5,)),
        ("race-for-home", "tip", 1, (1,)),
    ],
)
def test_a_pawn_with_a_choice_carries_its_best_in_the_log_as_the_physics_does(
    name, word, points, choices
):
    (p,) = parse_shot(new_game(name, ["red"]), f"red {word}")[0].pawns
    assert (p.points, p.choices) == (points, choices)


@pytest.mark.parametrize(
    ("name", "word", "message"),
    [
        ("race-for-home", "circle", "Race for Home has no 4/5/6 circle"),
        ("instant-home", "hole@9", "not a square"),
        ("instant-sorry", "hole@2", "on Instant Home only"),
        ("instant-sorry", "7", "no ring is worth 7"),
        ("danger-dots", "6", "no ring is worth 6"),
    ],
)
def test_words_a_face_does_not_have_are_refused(name, word, message):
    with pytest.raises(RulesError, match=message):
        parse_shot(new_game(name, ["red"]), f"red {word}")
