"""The exact engine's batch path: compiled rest statuses agree with boards.geometry.classify, and
a batch gives what one shot at a time gives."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import numpy as np
import pytest

from sliders.boards import BUILTIN_FACES, classify
from sliders.core.outcome import SEATS, STATUSES, Status
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout
from sliders.physics import PhysicsParams, Setup, Shot
from sliders.physics.exact import simulate_exact
from sliders.physics.exact.batch import classify_points, simulate_batch

from .test_exact_properties import SQUARE4, crowd

P = PhysicsParams.default()


@pytest.mark.parametrize("layout_name", sorted(BUILTIN_LAYOUTS))
@pytest.mark.parametrize("face_name", sorted(BUILTIN_FACES))
def test_compiled_classification_agrees_with_classify(layout_name: str, face_name: str) -> None:
    layout = load_layout(layout_name)
    face = BUILTIN_FACES[face_name]
    rng = np.random.default_rng(11)
    xs = rng.uniform(-0.8, 0.8, 4000)
    ys = rng.uniform(-0.8, 0.8, 4000)
    # crowd points near the board where zones are decided
    xs[:2000] *= 0.2
    ys[:2000] *= 0.2
    for seat in layout.seat_names:
        status, points = classify_points(layout, face, seat, xs, ys, P)
        for x, y, s, pts in zip(xs, ys, status, points, strict=True):
            v = classify(layout, face, seat, float(x), float(y), P.pawn_radius)
            assert (STATUSES[s], pts) == (v.status, v.points), (seat, x, y)


@pytest.mark.parametrize("count", [0, 6, 15])
def test_a_batch_gives_what_single_shots_give(count: int) -> None:
    rng = np.random.default_rng(count)
    table = crowd(rng, count)
    n = 60
    speed = rng.uniform(0.4, 2.5, n)
    angle = np.radians(rng.uniform(-4, 4, n))
    offset = rng.uniform(-0.03, 0.03, n)
    batch = simulate_batch(
        SQUARE4, BUILTIN_FACES["race-for-home"], table, "south", speed, angle, offset
    )
    assert batch.settled.all()
    for s in range(n):
        one = simulate_exact(SQUARE4, BUILTIN_FACES["race-for-home"], table,
                             Shot("south", float(speed[s]), float(angle[s]), float(offset[s])))  # fmt: skip
        assert [p.id for p in one.pawns] == list(batch.order)
        assert [p.status for p in one.pawns] == [STATUSES[c] for c in batch.status[s]]
        assert [p.points for p in one.pawns] == list(batch.points[s])
        assert [p.x for p in one.pawns] == list(batch.x[s])
        assert one.settle_time == batch.settle_time[s]
        assert sum(e.type == "contact" for e in one.events) == batch.contacts[s]


@pytest.mark.parametrize(
    ("face_name", "spread"),
    [("race-for-home", 0.0), ("instant-home", 0.0), ("instant-home", 0.005)],
)
def test_a_batch_row_is_bit_for_bit_the_single_shot(face_name: str, spread: float) -> None:
    """Every shot of a batch on a crowded table (a face with a hole among them, fouls among the
    shots, random topples drawn from each shot's seed) is the single shot, to the last bit."""
    face = BUILTIN_FACES[face_name]
    params = P.replace(knock_over_spread=spread, knock_over_impulse=0.01) if spread else P
    rng = np.random.default_rng(21)
    table = crowd(rng, 12, spread=0.09)
    n = 16
    speed = rng.uniform(0.4, 2.5, n)
    angle = np.radians(rng.uniform(-5, 5, n))
    offset = rng.uniform(-0.03, 0.03, n)
    foul = SQUARE4.seat("south").foul
    release = np.where(np.arange(n) % 5 == 4, foul + 0.01, np.nan)  # every fifth a foul
    seeds = np.arange(n) + 100
    batch = simulate_batch(SQUARE4, face, table, "south", speed, angle, offset, release, params,
                           seeds)  # fmt: skip
    fouls = topples = 0
    for s in range(n):
        shot = Shot("south", float(speed[s]), float(angle[s]), float(offset[s]),
                    None if np.isnan(release[s]) else float(release[s]))  # fmt: skip
        one = simulate_exact(SQUARE4, face, table, shot, params, seed=int(seeds[s]))
        assert [p.id for p in one.pawns] == list(batch.order)
        assert [p.status for p in one.pawns] == [STATUSES[c] for c in batch.status[s]]
        assert [p.points for p in one.pawns] == list(batch.points[s])
        assert [p.x for p in one.pawns] == list(batch.x[s])
        assert [p.y for p in one.pawns] == list(batch.y[s])
        assert one.settle_time == batch.settle_time[s]
        assert one.settled == batch.settled[s]
        assert sum(e.type == "contact" for e in one.events) == batch.contacts[s]
        fouls += one.pawns[0].status is Status.FOUL
        topples += sum(p.status is Status.KNOCKED_OVER for p in one.pawns)
    assert fouls == 3
    assert spread == 0 or topples > 0


def test_a_batch_with_a_spread_matches_seeded_single_shots() -> None:
    rng = np.random.default_rng(5)
    table = crowd(rng, 10)
    params = P.replace(knock_over_spread=0.005, knock_over_impulse=0.01)
    speed = np.full(8, 2.0)
    seeds = np.arange(8)
    batch = simulate_batch(SQUARE4, BUILTIN_FACES["race-for-home"], table, "south", speed, 0.0, 0.0,
                           params=params, seeds=seeds)  # fmt: skip
    for s in range(8):
        one = simulate_exact(
            SQUARE4, BUILTIN_FACES["race-for-home"], table, Shot("south", 2.0), params, seed=s
        )
        assert [p.status for p in one.pawns] == [STATUSES[c] for c in batch.status[s]]
    assert Status.KNOCKED_OVER in {STATUSES[c] for c in batch.status.ravel()}


def test_a_batch_chunk_in_the_exact_engine_matches_shot_by_shot() -> None:
    """sliders.batch.work runs an exact-engine chunk in one compiled call; every row is what
    simulate(..., engine="exact") gives for the executed shot and its seed."""
    from sliders.batch import Design, Study
    from sliders.batch.work import STATUSES as TABLE_STATUSES
    from sliders.batch.work import pawn_columns, run_chunk
    from sliders.files.scenes import Scene, ScenePawn
    from sliders.physics import Noise, simulate

    pawns = (
        ScenePawn("north-1", 0.0, 0.02),
        ScenePawn("west-2", 0.03, -0.01),
        ScenePawn("south-1", -0.02, 0.05),
    )
    scene = Scene("square", SEATS, "race-for-home", pawns)
    design = Design.grid(speed="0.4:1.6:4", angle="-4:4:3")
    study = Study.create(scene, "south", design, 5, Noise.level("medium"), engine="exact")
    ctx = study.context
    n = study.n_shots
    out = run_chunk(ctx, 0, n, study.slice(0, n))
    layout, face = ctx.build()
    for r in range(0, n, 7):
        shot = Shot(
            "south",
            float(out["exec_speed"][r]),
            float(np.radians(out["exec_angle"][r])),
            float(out["exec_offset"][r]),
            float(out["exec_release"][r]),
        )
        one = simulate(
            Setup(layout, face, ctx.params, "exact"),
            scene.pawns,
            replace(shot, seed=int(out["seed"][r])),
        )
        assert TABLE_STATUSES[out["status"][r]] == one.pawns[0].status
        assert out["points"][r] == one.pawns[0].points
        for q in one.pawns[1:]:
            assert TABLE_STATUSES[out[pawn_columns(q.id)[0]][r]] == q.status


@pytest.mark.parametrize("engine", ["exact", "pymunk"])
def test_a_noise_free_batch_row_is_the_shot_as_aimed(engine: str) -> None:
    """A study without noise executes each shot as aimed: its row (place, status, recorded angle)
    is, to the last bit, what one simulate() of the aimed shot gives, as `sliders shot --angle`
    runs it (±3° is an angle whose degrees(radians(3)) is not 3)."""
    from sliders.batch import Design, Study
    from sliders.batch.work import STATUSES as TABLE_STATUSES
    from sliders.batch.work import run_chunk
    from sliders.files.scenes import Scene, ScenePawn
    from sliders.physics import Noise, simulate

    assert np.degrees(np.radians(-3.0)) != -3.0
    pawns = (ScenePawn("north-1", 0.0, 0.02), ScenePawn("west-2", 0.03, -0.01))
    scene = Scene("square", SEATS, "instant-home", pawns)
    design = Design.grid(speed="0.5:1.5:3", angle="-3:3:3", offset="0.01")
    study = Study.create(scene, "south", design, 1, Noise.level("none"), engine=engine)
    ctx = study.context
    out = run_chunk(ctx, 0, study.n_shots, study.slice(0, study.n_shots))
    layout, face = ctx.build()
    for r in range(study.n_shots):
        aimed = Shot.from_degrees("south", float(out["speed"][r]), float(out["angle"][r]),
                                  offset=float(out["offset"][r]))  # fmt: skip
        aimed = dataclasses.replace(aimed, seed=int(out["seed"][r]))
        one = simulate(Setup(layout, face, ctx.params, engine), scene.pawns, aimed)
        assert out["exec_angle"][r] == out["angle"][r]
        assert (out["x"][r], out["y"][r]) == (one.pawns[0].x, one.pawns[0].y)
        assert TABLE_STATUSES[out["status"][r]] == one.pawns[0].status


@pytest.mark.parametrize("face_name", sorted(BUILTIN_FACES))
def test_a_shots_rest_statuses_are_classifys(face_name: str) -> None:
    """simulate_exact finds rest statuses in compiled code; they are classify's, choices and all."""
    from sliders.core.outcome import PawnRest

    face = BUILTIN_FACES[face_name]
    rng = np.random.default_rng(3)
    table = crowd(rng, 12)
    for speed in (0.5, 0.9, 1.4, 2.2):
        result = simulate_exact(SQUARE4, face, table, Shot.from_degrees("south", speed, 1.0))
        for p in result.pawns:
            if p.status.removed and p.status is not Status.IN_HOLE:
                continue
            v = classify(SQUARE4, face, p.seat, p.x, p.y, P.pawn_radius)
            assert p == PawnRest(p.id, p.seat, p.x, p.y, v.status, v.points, v.choices)


def test_refused_samples_in_the_exact_engine_are_recorded_as_in_the_pymunk_engine() -> None:
    """A release past the lane's end (a foul) and a release point taken by a pawn are that
    sample's outcome in both engines' chunks, row for row."""
    from sliders.batch import Design, Study, empty_scene, run_study
    from sliders.files.scenes import Scene, ScenePawn
    from sliders.physics import Noise

    layout, _ = empty_scene().build()
    x, y = layout.seat("south").to_world(0.16, 0.026)
    lane_pawn = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("south-1", x, y),))
    cases = [
        (lane_pawn, Design.grid(speed="0.6,0.9"), Noise.level("medium")),
        (empty_scene(), Design.grid(speed="0.6", release="0.3"), Noise(release=0.05)),
    ]
    for scene, design, noise in cases:
        tables = []
        for engine in ("pymunk", "exact"):
            study = Study.create(
                scene, "south", design, samples=40, noise=noise, seed=2, engine=engine
            )
            tables.append(run_study(study, workers=1).table)
        pym, exact = tables
        assert (pym["fault"] != 0).any()
        same = ["shot", "fault", "exec_speed", "exec_angle", "exec_offset", "exec_release", "seed"]
        for name in same:
            assert np.array_equal(pym[name], exact[name], equal_nan=True), name
        refused = pym["fault"] != 0
        for name in pym:
            assert np.array_equal(pym[name][refused], exact[name][refused], equal_nan=True), name


@pytest.mark.parametrize(
    ("face_name", "spread", "log_rows"),
    [("race-for-home", 0.0, None), ("instant-home", 0.0, 5), ("instant-home", 0.005, None)],
)
def test_one_shot_on_each_of_many_tables_is_bit_for_bit_the_single_shot(
    face_name: str, spread: float, log_rows: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`~sliders.physics.simulate_each` solves one shot on each of many tables in one
    compiled call: every result, its events, removals, rest places and settle time, is what
    :func:`~sliders.physics.simulate` gives (crowded tables of every size, every seat sliding,
    fouls among the shots, random topples drawn from each shot's seed, hard shots that knock
    pawns off, into the hole and over; with a log of a few rows, drained many times a shot)."""
    from sliders.physics import simulate, simulate_each
    from sliders.physics.exact import simulation

    if log_rows is not None:
        monkeypatch.setattr(simulation, "_RECORD_ROWS", log_rows)

    face = BUILTIN_FACES[face_name]
    params = P.replace(knock_over_spread=spread, knock_over_impulse=0.01) if spread else P
    setup = Setup(SQUARE4, face, params)
    rng = np.random.default_rng(31)
    tables, shots = [], []
    for k in range(40):
        table = crowd(rng, k % 13, spread=0.09)
        on = {q.id for q in table}
        seat, pawn = next(
            (s, f"{s}-{n}")
            for s in SEATS[k % 4 :] + SEATS[: k % 4]
            for n in range(1, 5)
            if f"{s}-{n}" not in on
        )
        foul = SQUARE4.seat(seat).foul
        release = foul + 0.01 if k % 7 == 6 else None
        shot = Shot(seat, float(rng.uniform(0.3, 3.0)), float(np.radians(rng.uniform(-6, 6))),
                    0.0, release, pawn, seed=1000 + k)  # fmt: skip
        tables.append(table)
        shots.append(shot)
    each = simulate_each(setup, tables, shots)
    one = [simulate(setup, t, s) for t, s in zip(tables, shots, strict=True)]
    assert each == one
    removed = {p.status for r in one for p in r.pawns} - {Status.ON_TARGET}
    assert Status.FOUL in removed and Status.OFF_BOARD in removed
    assert spread == 0 or Status.KNOCKED_OVER in removed
    assert sum(len(r.events) for r in one) > 150


def test_shots_already_stepped_and_of_other_engines_run_on_their_own() -> None:
    """:func:`~sliders.physics.run_all` takes any simulations: a shot already stepped goes on as
    its ``run()`` takes it, a pymunk shot runs in its engine; each ends as it would alone."""
    from sliders.physics import run_all, start

    rng = np.random.default_rng(3)
    table = crowd(rng, 6)
    face = BUILTIN_FACES["race-for-home"]
    shot = Shot("south", 1.5, 0.02, 0.0, seed=4)
    exact, pymunk = Setup(SQUARE4, face), Setup(SQUARE4, face, engine="pymunk")
    stepped = start(exact, table, shot)
    for _ in range(5):
        stepped.step()
    sims = [stepped, start(exact, table, shot), start(pymunk, table, shot)]
    run_all(sims)
    alone = [start(exact, table, shot), start(exact, table, shot), start(pymunk, table, shot)]
    for _ in range(5):
        alone[0].step()
    for sim in alone:
        sim.run()
    assert [s.result() for s in sims] == [s.result() for s in alone]
    assert not any(s.moving for s in sims)
    assert sims[1].contacts == alone[1].contacts > 0
