"""The headless game: legal shots from any wish, whole games between computers, seeded."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from sliders.boards import face
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.game import HeadlessGame, ShotLost, legal_shot, release_limits, run_together
from sliders.physics import Noise, PhysicsParams, Setup, Shot, start
from sliders.physics.limits import MAX_ANGLE
from sliders.rules import Phase, drawn, new_game
from sliders.tournament.players import CentreBot

P = PhysicsParams.default()
LAYOUT = load_layout("square", ("south", "north"))


def _table(*where):
    state = new_game("race-for-home", ("south", "north"))
    pawns = tuple(
        PawnRest(f"north-{i + 1}", "north", x, y, Status.OWN_TRACK)
        for i, (x, y) in enumerate(where)
    )
    return replace(state, table=pawns)


def test_a_legal_shot_is_unchanged():
    shot = Shot("south", 0.6, 0.1, 0.01, 0.1, "south-1")
    assert legal_shot(shot, _table(), LAYOUT, P) == shot


def test_out_of_range_wishes_are_clipped_to_what_a_hand_can_do():
    lo, foul, limit = release_limits(LAYOUT.seat("south"), P)
    shot = legal_shot(Shot("south", 9.0, 3.0, 1.0, 5.0, "south-1"), _table(), LAYOUT, P)
    assert (shot.speed, shot.angle, shot.offset, shot.release) == (
        P.max_speed,
        MAX_ANGLE,
        limit,
        None,
    )
    shot = legal_shot(Shot("south", math.nan, -3.0, -1.0, -5.0, "south-1"), _table(), LAYOUT, P)
    assert shot.speed == 0.5 and shot.angle == -MAX_ANGLE and shot.offset == -limit
    assert shot.release == lo


def test_a_release_on_a_pawn_moves_beside_it_or_back_down_the_lane():
    seat = LAYOUT.seat("south")
    state = _table(seat.to_world(seat.foul, 0.0))
    shot = legal_shot(Shot("south", 0.6, 0.0, 0.0, None, "south-1"), state, LAYOUT, P)
    assert shot.release is None and abs(shot.offset) >= 2 * P.pawn_radius
    start(Setup(LAYOUT, face("race-for-home"), P), state.table, replace(shot, seed=1))
    # three pawns across the whole foul line: the release goes back down the lane
    lane = [seat.to_world(seat.foul, c) for c in (-0.04, 0.0, 0.04)]
    state = _table(*lane)
    shot = legal_shot(Shot("south", 0.6, 0.0, 0.0, None, "south-1"), state, LAYOUT, P)
    assert shot.release is not None and shot.release < seat.foul - P.pawn_radius
    start(Setup(LAYOUT, face("race-for-home"), P), state.table, replace(shot, seed=1))


def _play(seed):
    g = HeadlessGame(
        "race-for-home",
        "square",
        ("south", "north"),
        seed,
        computers={"south": "easy", "north": "easy"},
    )
    shots = []
    while not g.over:
        if g.state.phase is Phase.SCORING:
            g.score()
        else:
            shots.append(g.shoot(g.computer_shot()).shot)
    return g, shots


def test_computers_play_a_seeded_game_to_its_winner_the_same_way_twice():
    g1, s1 = _play(5)
    g2, s2 = _play(5)
    assert g1.winner in ("south", "north") and s1 == s2
    assert g1.state == g2.state
    assert len(g1.turns.game.steps) > len(s1)  # shots and round scores in the log


def test_a_shot_out_of_turn_is_refused():
    g = HeadlessGame("race-for-home", "square", ("south", "north"), 1)
    with pytest.raises(UserError, match="turn"):
        g.shoot(Shot("north", 0.6))


def test_the_round_cap_is_a_draw_of_the_rules():
    """A game still going after ``max_rounds`` rounds is over without a winner: no seat is to
    move and no shot is taken (Race for Home cannot be won in one round: 4 pawns of 5 points at
    most, 24 spaces to go)."""
    g = HeadlessGame(
        "race-for-home", "square", ("south", "north"), 3,
        computers={"south": "easy", "north": "easy"}, max_rounds=1,
    )  # fmt: skip
    g.play()
    assert g.over and g.drawn and g.winner is None
    assert g.state.round == 2 and g.turns.turn is None
    assert drawn(g.state, 1) and not drawn(g.state, 2) and not drawn(g.state, None)
    with pytest.raises(UserError, match="game is over"):
        g.step()
    with pytest.raises(UserError, match="turn"):
        g.shoot(Shot("south", 0.6))


def test_prepare_readies_every_computer_and_every_player_given_before_its_first_turn():
    """One call prepares the table's computers and the players a caller seats (a window calls
    it in the background, the environments and the tournament before the first turn)."""

    class Counting:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def prepare(self, layout, f, params) -> None:  # noqa: ANN001
            self.calls.append(f.name)

    g = HeadlessGame("instant-home", "square", ("south", "north"), 1, computers={"north": "easy"})
    seen: list[tuple[str, str]] = []
    north = g.turns.computers["north"]
    north.prepare = lambda layout, f, params=None: seen.append((layout.name, f.name))  # type: ignore[method-assign]
    mine = Counting()
    g.prepare({"south": mine})
    assert seen == [(g.layout.name, "instant-home")] and mine.calls == ["instant-home"]


def test_games_played_side_by_side_play_as_each_alone():
    """:func:`~sliders.game.run_together` steps many games' plays, their shots in flight solved
    together: each game's log and state are bit for bit what stepping it alone gives, with a
    bot with a hand, a player that loses some shots (forfeits) and a computer seat."""

    class Sometimes(CentreBot):
        def choose_shot(self, state, layout, face, params=None):
            if self.rng.random() < 0.35:
                raise ShotLost("clock")
            return super().choose_shot(state, layout, face, params)

    def games():
        out = []
        for k in range(4):
            rng = np.random.default_rng(k)
            g = HeadlessGame("race-for-home", "square", ("south", "north"), 10 + k,
                             computers={"north": "easy"} if k == 3 else None)  # fmt: skip
            players = {"south": Sometimes("south", Noise.level("medium"), rng)}
            if k != 3:
                players["north"] = CentreBot("north", Noise.level("medium"), rng)
            out.append((g, players))
        return out

    alone, together = games(), games()
    for _ in range(12):
        for g, players in alone:
            if not g.over:
                g.step(players)
        live = [(g, p) for g, p in together if not g.over]
        run_together([g.stepping(p) for g, p in live])
    for (a, _), (b, _) in zip(alone, together, strict=True):
        assert a.turns.game.steps == b.turns.game.steps
        assert a.state == b.state
    lost = [getattr(s, "by", None) == "clock" for g, _ in together for s in g.turns.game.steps]
    assert sum(lost) >= 2  # shots lost among the others
