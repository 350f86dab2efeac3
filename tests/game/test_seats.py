"""The seat parser: presets, a hand and a mind, errors in one line."""

from __future__ import annotations

import pytest

from sliders.ai import MINDS, STRENGTHS
from sliders.core.errors import UserError
from sliders.game.config import parse_computer, parse_seat_specs, split_items
from sliders.physics import NOISE_LEVELS


def test_presets_keep_their_meaning():
    (south,) = parse_seat_specs("south=cpu:hard")
    assert south.level() is STRENGTHS["hard"]
    assert south.level().hand == NOISE_LEVELS["low"] and south.level().mind is MINDS["strong"]
    (north,) = parse_seat_specs("north=cpu")
    assert north.level() is STRENGTHS["medium"]
    assert parse_computer("") is STRENGTHS["medium"]


@pytest.mark.parametrize(
    "text, hand, mind",
    [
        ("south=cpu:hand=low,mind=strong", "low", "strong"),
        ("south=cpu:hand=high", "high", "fair"),  # the mind left out: medium's
        ("south=cpu:mind=classic", "medium", "classic"),
        ("south=cpu:hard,mind=weak", "low", "weak"),  # a preset, then an override
        ("red=computer:hand=none:mind=fair", "none", "fair"),
        ("south=cpu: Hand = LOW , mind=Strong", "low", "strong"),
    ],
)
def test_a_hand_and_a_mind(text, hand, mind):
    (spec,) = parse_seat_specs(text)
    level = spec.level()
    assert level.hand == NOISE_LEVELS[hand]
    assert level.mind is MINDS[mind]


def test_hand_and_mind_items_stay_with_their_seat():
    specs = parse_seat_specs("south=cpu:hand=low,mind=strong,north=human,west=cpu:easy")
    assert [(s.seat, s.kind) for s in specs] == [
        ("south", "cpu"),
        ("west", "cpu"),
        ("north", "human"),
    ]
    assert specs[0].describe() == "computer (hard)"  # low hand, strong mind: the hard preset
    assert split_items("cpu:hand=low,mind=classic,greedy") == [
        "cpu:hand=low,mind=classic",
        "greedy",
    ]
    (custom,) = parse_seat_specs("east=cpu:hand=high,mind=strong")
    assert custom.describe() == "computer (hand high, mind strong)"


@pytest.mark.parametrize(
    "text, words",
    [
        ("south=cpu:hand=shaky", "unknown hand 'shaky'"),
        ("south=cpu:mind=genius", "unknown mind 'genius'"),
        ("south=cpu:brain=big", "unknown computer setting 'brain'"),
        ("south=cpu:grandmaster", "unknown strength 'grandmaster'"),
        ("south=human:hard", "a person has no strength"),
    ],
)
def test_bad_settings_are_one_line_errors(text, words):
    with pytest.raises(UserError, match=words) as err:
        parse_seat_specs(text)
    assert "\n" not in str(err.value)
