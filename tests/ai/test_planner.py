"""The planner: legal shots only, every kind of shot considered, the same play from the same
seed however its steps are sliced."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sliders.ai import STRENGTHS, ComputerPlayer, make_strength
from sliders.boards import face
from sliders.boards.geometry import check_pawns
from sliders.core.errors import UserError
from sliders.core.outcome import PawnRest, Status
from sliders.files.layouts import load_layout
from sliders.game import legal_shot
from sliders.physics import PhysicsParams, Setup, simulate
from sliders.rules import new_game


def _crowded(rng: np.random.Generator, layout, n: int):
    """Up to ``n`` pawns scattered over the board and the lanes' release areas, none touching."""
    r = PhysicsParams.default().pawn_radius
    placed: list[PawnRest] = []
    count = {"south": 0, "north": 0}
    for _ in range(200):
        if len(placed) == n:
            break
        seat = "north" if rng.random() < 0.6 else "south"
        if count[seat] == 3:
            continue
        if rng.random() < 0.25:  # near a foul line, where a release point may be taken
            lane = layout.seat(str(rng.choice(["south", "north"])))
            x, y = lane.to_world(lane.foul + rng.uniform(-0.02, 0.05), rng.uniform(-0.04, 0.04))
            status = Status.OWN_TRACK
        else:
            x, y = rng.uniform(-0.11, 0.11, size=2)
            status = Status.ON_TARGET
        p = PawnRest(f"{seat}-{count[seat] + 1}", seat, float(x), float(y), status, 2)
        try:
            check_pawns(layout, [*placed, p], r)
        except UserError:
            continue
        placed.append(p)
        count[seat] += 1
    state = new_game("race-for-home", ["south", "north"])
    players = []
    for pl in state.players:
        mine = {q.id for q in placed if q.seat == pl.seat}
        players.append(replace(pl, in_hand=tuple(i for i in pl.in_hand if i not in mine)))
    return replace(state, players=tuple(players), table=tuple(placed))


def test_never_proposes_a_shot_the_physics_or_the_rules_refuse():
    """Crowded tables, pawns standing on the release points: the intended and the executed shot
    are legal as they are (the game's legal-shot check leaves them unchanged) and the physics
    takes them."""
    layout, f = load_layout("square", ("south", "north")), face("race-for-home")
    rng = np.random.default_rng(4)
    quick = make_strength("medium", "weak")
    tried = 0
    for k in range(12):
        state = _crowded(rng, layout, int(rng.integers(2, 7)))
        search = ComputerPlayer("south", quick, seed=k).search(state, layout, f)
        search.run()
        params = PhysicsParams.default()
        for shot in (search.best(), search.executed()):
            assert legal_shot(shot, state, layout, params) == shot
            simulate(
                Setup(layout, f, params, "exact"), state.table, replace(shot, seed=0)
            )  # no UserError
            tried += 1
    assert tried == 24


def test_considers_draws_takeouts_hits_and_guards():
    layout, f = load_layout("square", ("south", "north")), face("race-for-home")
    table = (
        PawnRest("north-1", "north", 0.0, 0.01, Status.ON_TARGET, 5),
        PawnRest("south-1", "south", 0.02, -0.03, Status.ON_TARGET, 4),
    )
    state = new_game("race-for-home", ["south", "north"])
    players = tuple(replace(p, in_hand=p.in_hand[1:]) for p in state.players)
    state = replace(state, players=players, table=table)
    search = ComputerPlayer("south", "hard", seed=0).search(state, layout, f)
    kinds = {c.kind for c in search.candidates}
    assert {"draw", "hit", "takeout", "guard"} <= kinds
    labels = " / ".join(c.label for c in search.candidates)
    assert "into a SORRY! corner" in labels and "off the board" in labels


def test_the_same_seed_plays_the_same_shot_however_the_search_is_sliced():
    layout, f = load_layout("square", ("south", "north")), face("race-for-home")
    table = (PawnRest("north-1", "north", 0.01, 0.03, Status.ON_TARGET, 4),)
    state = new_game("race-for-home", ["south", "north"])
    players = tuple(replace(p, in_hand=p.in_hand[1:]) if p.seat == "north" else p
                    for p in state.players)  # fmt: skip
    state = replace(state, players=players, table=table)
    whole = ComputerPlayer("south", "hard", seed=3).search(state, layout, f)
    whole.run()
    sliced = ComputerPlayer("south", "hard", seed=3).search(state, layout, f)
    while not sliced.run(seconds=0.0):
        pass
    assert whole.simulations == sliced.simulations <= STRENGTHS["hard"].budget
    assert whole.best() == sliced.best()
    assert whole.executed() == sliced.executed()
    other = ComputerPlayer("south", "hard", seed=4).search(state, layout, f)
    other.run()
    assert other.executed() != whole.executed()


def test_takeouts_are_aimed_with_the_physics_parameters_restitution():
    """A livelier pawn needs a slower takeout: the planner reads the restitution the physics
    uses, so a changed parameter reaches its aim (a pawn leaves a head-on hit at (1 + e)/2 of
    the striker's speed)."""
    layout, f = load_layout("square", ("south", "north")), face("race-for-home")
    table = (PawnRest("north-1", "north", 0.0, 0.01, Status.ON_TARGET, 5),)
    state = new_game("race-for-home", ["south", "north"])
    players = tuple(replace(p, in_hand=p.in_hand[1:]) for p in state.players)
    state = replace(state, players=players, table=table)

    def takeout_speeds(restitution: float) -> list[float]:
        params = PhysicsParams.default().replace(restitution_pawn=restitution)
        search = ComputerPlayer("south", "hard", seed=0).search(state, layout, f, params)
        return sorted(float(c.x[0]) for c in search.candidates if c.kind == "takeout")

    dull, lively = takeout_speeds(0.5), takeout_speeds(0.95)
    assert dull and len(dull) == len(lively)
    assert all(d > v for d, v in zip(dull, lively, strict=True))


def test_the_spots_aimed_at_are_read_from_the_physics_parameters():
    """The draws aim at spots found with the physics' own pawn and zones: a wider pawn touches
    other zones from the same point, so the spots change with the parameter."""
    from sliders.ai.aims import target_spots

    layout, f = load_layout("square", ("south", "north")), face("race-for-home")
    default = PhysicsParams.default()
    wide = default.replace(pawn_radius=default.pawn_radius * 1.3)
    narrow, broad = (
        target_spots(layout, f, "south", default),
        target_spots(layout, f, "south", wide),
    )
    assert narrow.keys() == broad.keys() and narrow != broad
    assert target_spots(layout, f, "south", default) is narrow  # measured once a process
