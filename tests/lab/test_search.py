"""`sliders best`: the search finds the shot a player would pick, says what it is worth from fresh
samples, offers other kinds of shot, and is deterministic."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from sliders.batch import Design, Study
from sliders.batch.work import run_chunk, run_paired
from sliders.boards.scene import Scene, ScenePawn
from sliders.cli import main
from sliders.lab.search import KINDS, Candidate, Sampler, Settings, kind_of, search
from sliders.outcome import ENGINES
from sliders.physics import Noise

SMALL = Settings(
    coarse={"speed": 9, "angle": 7, "offset": 3, "release": 3},
    first=4,
    survivors=3,
    refine_around=(3, 1),
    finalists=3,
    race=64,
    final=16,
    runner_up=8,
)
"""a small budget: the tests run in the exact engine's batch path"""


@pytest.mark.parametrize("engine", ENGINES)
def test_without_noise_it_finds_the_bullseye(engine: str) -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    box = {"speed": "0.3:1.1", "angle": "-4:4"}
    got = search(scene, "south", box, Noise(), seed=0, settings=SMALL, engine=engine)
    assert got.best.value == 5 and got.best.lo == got.best.hi == 5
    assert got.best.statuses == {"on_target": 1.0}


def test_an_opponent_on_the_bullseye_is_taken_out() -> None:
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0, 0),))
    got = search(scene, "south", {}, Noise.level("medium"), seed=3, settings=SMALL, engine="exact")
    assert got.best.kind == "takeout"
    assert got.best.value > 5  # the opponent's 5 gone, and points of its own
    kinds = [got.best.kind, *(e.kind for e in got.runners_up)]
    assert len(set(kinds)) == len(kinds) and set(kinds) <= set(KINDS)
    for e in (got.best, *got.runners_up):
        assert e.lo <= e.value <= e.hi


def test_the_search_is_deterministic_and_counts_its_simulations() -> None:
    scene = Scene("square", ("south", "north"), "instant-home", ())
    box = {"angle": "-3:3"}
    a = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    b = search(scene, "south", box, Noise.level("medium"), seed=5, settings=SMALL, engine="exact")
    assert a.best == b.best and a.simulations == b.simulations == a.history[-1][2]
    assert -3 <= a.best.shot[1] <= 3
    # the answer's samples are a plain batch study: the same table again
    from sliders.batch.work import run_chunk

    again = run_chunk(a.final_study.context, 0, a.best.n, a.final_study.design.shots)
    np.testing.assert_array_equal(again["value"], a.final_table["value"])
    assert again["value"].mean() == pytest.approx(a.best.value)


def test_batched_samples_are_the_samples_of_each_shot_alone() -> None:
    """The exact engine's batch of many candidates gives each the paired samples it gets alone,
    in either engine: the search's answer does not depend on how its samples are grouped."""
    scene = Scene("square", ("south", "north"), "instant-home", (ScenePawn("north-1", 0.01, 0),))
    study = Study.create(scene, "south", Design.grid(speed=0.6), 1, Noise.level("medium"), None,
                         4, None, "exact")  # fmt: skip
    together, alone = Sampler(study, 64), Sampler(study, 64)
    shots = [np.array([0.6, a, 0.0, study.design.shots[0][3]]) for a in (-2.0, 0.0, 2.5)]
    a = [Candidate(s.copy()) for s in shots]
    b = [Candidate(s.copy()) for s in shots]
    together.extend_all(a, 10)
    together.extend_all(a[1:], 24)
    for c in b:
        alone.extend(c, 10)
    for c in b[1:]:
        alone.extend(c, 24)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x.values, y.values)
        np.testing.assert_array_equal(x.hit, y.hit)
    assert together.simulations == alone.simulations == 10 + 24 + 24
    # and the pymunk engine's samples are the same draws (the same executed shots)
    ctx = replace(together.ctx, engine="pymunk")
    t = run_chunk(ctx, 0, 3, shots[0][None, :])
    u = run_paired(together.ctx, shots[:1], np.array([0]), np.array([3]))
    np.testing.assert_array_equal(t["exec_speed"], u["exec_speed"])
    np.testing.assert_array_equal(t["exec_angle"], u["exec_angle"])


def test_kinds() -> None:
    t, f = np.ones(4, bool), np.zeros(4, bool)
    assert kind_of(t, t, f) == "takeout"
    assert kind_of(f, f, t) == "guard"
    assert kind_of(t, f, t) == "draw"  # touching a pawn is no guard
    assert kind_of(f, f, f) == "draw"


def test_the_command_prints_json_and_a_board(tmp_path, capsys) -> None:
    png = tmp_path / "b.png"
    argv = ["best", "--face", "instant-home", "--noise", "low", "--final", "12", "--json",
            "--speed", "0.4:0.9", "--board", str(png), "--engine", "exact"]  # fmt: skip
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["best"]["n"] == 12 and 0.4 <= got["best"]["speed"] <= 0.9
    assert got["simulations"] > 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--speed", "0.3:1.5:4"], "no steps"),
        (["--final", "1"], "--final"),
        (["--score-board", "south=1,2"], "--score-board"),
        (["--angle", "9:3"], "backwards"),
    ],
)
def test_the_command_refuses_bad_flags_in_one_line(capsys, extra, message) -> None:
    assert main(["best", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def _sampler_with(values_of, shots: list[np.ndarray], n: int, most: int = 0) -> Sampler:
    """A sampler whose candidates' samples are ``values_of(executed shots)``: a known function
    of where the hand sent the pawn, in place of the physics."""
    scene = Scene("square", ("south", "north"), "race-for-home", ())
    study = Study.create(scene, "south", Design.grid(speed=0.8), 1, Noise.level("medium"), None,
                         7, None, "exact")  # fmt: skip
    sampler = Sampler(study, max(n, most))
    release = study.design.shots[0][3]
    for s in shots:
        c = Candidate(np.array([s[0], s[1], 0.0, release]))
        c.values = np.zeros(n)
        c.values = values_of(sampler._executed(c))
        sampler.pool.append(c)
    return sampler


def test_every_sample_values_a_shot_as_the_hand_blurs_it() -> None:
    """The estimate from every sample (importance-weighted by the hand's error density) is the
    expected value under the hand's noise, checked on functions with closed-form expectations:
    the executed speed (mean: the intended speed), the squared angle (a² + σ²), and a line a
    quarter of a degree either side of straight, far narrower than the hand's 2°, which a
    kernel over intended shots averages away."""
    grid = [np.array([s, a]) for s in np.arange(0.5, 1.11, 0.05) for a in np.arange(-6, 6.1, 1)]
    sigma = Noise.level("medium").angle_deg
    narrow = _sampler_with(lambda y: (np.abs(y[:, 1]) < 0.25).astype(float), grid, 400)
    squared = _sampler_with(lambda y: y[:, 1] ** 2 + 10 * y[:, 0], grid, 400)
    points = np.array([[0.8, a, 0.0, narrow.pool[0].shot[3]] for a in (0.0, 0.5, 1.5, -3.0)])
    est, ess = narrow.reused(points)
    from scipy.stats import norm

    exact = norm.cdf((0.25 - points[:, 1]) / sigma) - norm.cdf((-0.25 - points[:, 1]) / sigma)
    np.testing.assert_allclose(est, exact, atol=0.01)
    assert np.all(ess > 1000)  # far more than any one candidate's 400 samples
    est, _ = squared.reused(points)
    np.testing.assert_allclose(est, points[:, 1] ** 2 + sigma**2 + 8.0, rtol=0.03)


def test_the_race_spends_what_it_reports(monkeypatch) -> None:
    """Every simulation the search reports is a sample of a candidate or a fresh sample of an
    answer; the race's last round has its two finalists on ``race`` samples each, polished
    leaders included; and a rerun with the same seed repeats every sample."""
    import sliders.lab.search as search_module

    samplers: list[Sampler] = []

    class Recording(Sampler):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            samplers.append(self)

    monkeypatch.setattr(search_module, "Sampler", Recording)
    scene = Scene("square", ("south", "north"), "race-for-home", (ScenePawn("north-1", 0.02, 0),))
    cfg = replace(SMALL, finalists=4, race=270, race_rounds=3, polish=2)
    runs = [search(scene, "south", {}, Noise.level("medium"), seed=2, settings=cfg,
                   engine="exact") for _ in range(2)]  # fmt: skip
    got = runs[0]
    sampled = sum(c.n for c in samplers[0].pool)
    fresh = got.best.n + sum(e.n for e in got.runners_up)
    assert got.simulations == sampled + fresh == got.history[-1][2]
    stages = [h[0] for h in got.history]
    assert stages[-4:] == ["race 30", "race 90", "race", "final"]
    assert got.history[-2][1] == cfg.race_last
    assert sum(c.n == cfg.race for c in samplers[0].pool) == cfg.race_last
    assert runs[1].best == got.best and runs[1].simulations == got.simulations
    for a, b in zip(samplers[0].pool, samplers[1].pool, strict=True):
        np.testing.assert_array_equal(a.shot, b.shot)
        np.testing.assert_array_equal(a.values, b.values)


def test_the_estimate_kept_up_to_date_equals_one_from_scratch() -> None:
    """The sampler updates its mixture densities as candidates gain samples and new candidates
    come; the estimates are those of a sampler that saw the final samples at once."""
    f = lambda y: np.sin(y[:, 1]) + y[:, 0]  # noqa: E731
    first = [np.array([s, a]) for s in (0.6, 0.8, 1.0) for a in (-2.0, 0.0, 2.0)]
    later = [np.array([0.7, 1.0]), np.array([0.9, -1.0])]
    step = _sampler_with(f, first, 64, 128)
    points = np.array([[0.75, a, 0.0, step.pool[0].shot[3]] for a in (-1.5, 0.0, 0.5)])
    step.reused(points)
    for c in step.pool[::2]:  # some candidates gain samples
        c.values = np.zeros(128)
        c.values = f(step._executed(c))
    grown = _sampler_with(f, later, 64)
    for c in grown.pool:  # and new candidates come
        step.pool.append(c)
    whole = _sampler_with(f, first + later, 64, 128)
    for c in whole.pool[: len(first)][::2]:
        c.values = np.zeros(128)
        c.values = f(whole._executed(c))
    np.testing.assert_allclose(step.reused(points)[0], whole.reused(points)[0], rtol=1e-12)
    np.testing.assert_allclose(step.reused(points)[1], whole.reused(points)[1], rtol=1e-12)
