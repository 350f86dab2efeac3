"""Calibration proved on answers known in advance: slides simulated with chosen parameters,
tracked from the videos they are filmed into (perspective, blur, noise, uneven light, a hand, the
codec's compression), fitted back; hand measurements made from the closed forms; and every refused
input one line, exit 2, nothing written."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from sliders.calibrate.fit import fit_measurements, fit_tracks
from sliders.calibrate.synthetic import Camera, board_corners, protocol, render_clip, simulate_clip
from sliders.calibrate.tables import Measurement, Track, read_table, write_tracks
from sliders.calibrate.video import track_video
from sliders.cli import main
from sliders.physics import PhysicsParams
from sliders.physics.params import load_params

TRUTH = PhysicsParams.default().replace(mu_roll=0.06, restitution_pawn=0.8, restitution_rail=0.55)
BASE = PhysicsParams.default()


def _close(fit, mu_rel: float = 0.03, e_abs: float = 0.05) -> None:
    mu = fit.estimates["mu_roll"]
    assert abs(mu.value / TRUTH.mu_roll - 1) < mu_rel, mu
    for name in ("restitution_pawn", "restitution_rail"):
        assert abs(fit.estimates[name].value - getattr(TRUTH, name)) < e_abs, fit.estimates[name]


def test_simulated_paths_with_tracking_noise_give_the_parameters_back() -> None:
    rng = np.random.default_rng(3)
    tracks = []
    for i, slide in enumerate(protocol(5, 3, 3, TRUTH, seed=1)):
        for tr in simulate_clip(slide, TRUTH, 60, f"clip{i}"):
            seen = np.abs(tr.y) < 0.16  # what the camera sees: the board and round it
            n = int(seen.sum())
            noisy = (tr.x[seen] + rng.normal(0, 3e-4, n), tr.y[seen] + rng.normal(0, 3e-4, n))
            tracks.append(Track(tr.clip, tr.pawn, tr.t[seen], *noisy))
    fit = fit_tracks(tracks, BASE, "simulated")
    _close(fit)
    mu = fit.estimates["mu_roll"]
    assert mu.low <= TRUTH.mu_roll <= mu.high or abs(mu.value / TRUTH.mu_roll - 1) < 0.005
    assert fit.spread is not None and fit.spread.value < 0.02  # one surface: no spread
    assert len(fit.stops) >= 5


@pytest.mark.slow  # 18 clips rendered and tracked: about 50 s of CPU
def test_filmed_slides_are_tracked_and_fitted_within_the_stated_tolerances(
    tmp_path, capsys
) -> None:
    camera = Camera(size=320)
    corners = ",".join(f"{v:.2f}" for c in board_corners(camera) for v in c)
    videos = []
    truth = TRUTH.replace(friction_pawn=0.2, friction_rail=0.03)
    for i, slide in enumerate(protocol(4, 3, 3, truth, seed=0, glance=4, slant=4)):
        videos.append(str(tmp_path / f"slide{i}.mp4"))
        render_clip(videos[-1], slide, truth, 60, camera, seed=i)
    table, params, pictures = tmp_path / "tracks.csv", tmp_path / "board.toml", tmp_path / "pics"
    pictures.mkdir()
    argv = ["calibrate", "video", *videos, "--corners", corners, "--out", str(table)]
    assert main([*argv, "--pictures", str(pictures)]) == 0
    assert (
        main(["calibrate", "fit", str(table), "--out", str(params), "--pictures", str(pictures)])
        == 0
    )
    fitted = load_params(str(params))
    assert abs(fitted.mu_roll / TRUTH.mu_roll - 1) < 0.03
    assert abs(fitted.restitution_pawn - TRUTH.restitution_pawn) < 0.05
    assert abs(fitted.restitution_rail - TRUTH.restitution_rail) < 0.05
    assert abs(fitted.friction_pawn - 0.2) < 0.05 and abs(fitted.friction_rail - 0.03) < 0.01
    assert "joint loss: the data show none" in capsys.readouterr().out  # the model has none
    assert {p.name for p in pictures.iterdir()} >= {
        "residuals.png",
        "stops.png",
        "contacts.png",
        "slide0.png",
    }
    # the board found without its corners given, to a fraction of a pixel
    found = track_video(videos[0], None, TRUTH.pawn_radius)
    assert np.max(np.abs(np.subtract(found.corners, board_corners(camera)))) < 1.5
    # a camera 1 m up sees the pawns' tops: positions brought toward the centre by h/H
    given = track_video(videos[0], found.corners, TRUTH.pawn_radius)
    lifted = track_video(videos[0], found.corners, TRUTH.pawn_radius, lift=0.035)
    assert np.allclose(lifted.tracks[0].y, given.tracks[0].y * (1 - 0.035))


def test_hand_measurements_give_the_parameters_back(tmp_path, capsys) -> None:
    a, e, er = TRUTH.deceleration, TRUTH.restitution_pawn, TRUTH.restitution_rail
    rng = np.random.default_rng(0)
    rows = ["kind,speed,travel,stop,stop_other"]
    for v in rng.uniform(0.4, 0.9, 8):
        rows.append(f"slide,{v:.4f},,{v * v / (2 * a) * (1 + rng.normal(0, 0.01)):.4f},")
    for v in (0.6, 0.7, 0.8):
        vc = math.sqrt(v * v - 2 * a * 0.1)
        d1, d2 = ((1 - e) / 2 * vc) ** 2 / (2 * a), ((1 + e) / 2 * vc) ** 2 / (2 * a)
        rows.append(f"collision,{v},0.1,{d1:.5f},{d2:.5f}")
    for v in (0.7, 0.9):
        vc = math.sqrt(v * v - 2 * a * 0.2)
        rows.append(f"rail,{v},0.2,{(er * vc) ** 2 / (2 * a):.5f},")
    path = tmp_path / "measured.csv"
    path.write_text("\n".join(rows) + "\n")
    fit = fit_measurements(read_table(str(path)), BASE, str(path))  # type: ignore[arg-type]
    _close(fit)
    out = tmp_path / "board.toml"
    assert main(["calibrate", "fit", str(path), "--out", str(out)]) == 0
    assert "mu_roll" in capsys.readouterr().out
    assert main(["params", "--params", str(out)]) == 0  # every command loads it
    assert abs(load_params(str(out)).mu_roll - TRUTH.mu_roll) < 0.002


def test_a_parameter_the_data_cannot_tell_keeps_its_value_with_a_warning() -> None:
    rows = [
        Measurement("slide", v, 0.0, v * v / (2 * TRUTH.deceleration), 0.0) for v in (0.5, 0.6, 0.7)
    ]
    fit = fit_measurements(rows, BASE, "three slides")
    assert "restitution_pawn" not in fit.estimates
    assert any(w.startswith("restitution_pawn: not told") for w in fit.warnings)
    assert fit.params(BASE).restitution_pawn == BASE.restitution_pawn
    assert abs(fit.params(BASE).mu_roll - TRUTH.mu_roll) < 1e-9


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["calibrate", "video", "{dir}/notes.txt", "--out", "{dir}/out.csv"], "not a video"),
        (
            ["calibrate", "video", "{dir}/blank.mp4", "--out", "{dir}/out.csv"],
            "board was not found in frame 0",
        ),
        (
            [
                "calibrate",
                "video",
                "{dir}/blank.mp4",
                "--corners",
                "10,90,90,90,90,10,10,10",
                "--out",
                "{dir}/out.csv",
                "--pictures",
                "{dir}",
            ],
            "no pawn found in any of its",
        ),
        (
            ["calibrate", "fit", "{dir}/few.csv", "--out", "{dir}/out.toml", "--pictures", "{dir}"],
            "too few slides",
        ),
        (["calibrate", "fit", "{dir}/notes.txt", "--out", "{dir}/out.toml"], "neither"),
        (["calibrate", "video", "{dir}/blank.mp4", "--corners", "1,2,3"], "expected eight numbers"),
    ],
)
def test_refused_input_is_one_line_exit_2_and_nothing_written(
    tmp_path, capsys, argv, needle
) -> None:
    import cv2

    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "few.csv").write_text("kind,speed,travel,stop,stop_other\nslide,0.5,,0.2,\n")
    w = cv2.VideoWriter(
        str(tmp_path / "blank.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 30, (100, 100)
    )
    for _ in range(5):
        w.write(np.full((100, 100, 3), 90, np.uint8))
    w.release()
    before = set(tmp_path.iterdir())
    code = main([a.format(dir=tmp_path) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and len(err.splitlines()) == 1, err
    assert set(tmp_path.iterdir()) == before


def test_tracks_table_round_trips(tmp_path) -> None:
    tr = Track("c", "red1", np.array([0.0, 0.1]), np.array([0.01, 0.02]), np.array([-0.1, -0.05]))
    write_tracks(str(tmp_path / "t.csv"), [tr])
    (back,) = read_table(str(tmp_path / "t.csv"))
    assert isinstance(back, Track) and np.allclose(back.y, tr.y) and back.pawn == "red1"


def test_import_sliders_does_not_load_opencv() -> None:
    code = "import sys, sliders, sliders.calibrate.fit; sys.exit('cv2' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_surface_that_varies_from_slide_to_slide_shows_a_spread() -> None:
    rng = np.random.default_rng(0)
    slides = protocol(12, 0, 0, TRUTH, seed=0)
    mus = TRUTH.mu_roll * (1 + 0.05 * rng.standard_normal(len(slides)))
    tracks = []
    for i, slide in enumerate(slides):
        for tr in simulate_clip(slide, TRUTH.replace(mu_roll=float(mus[i])), 60, f"clip{i}"):
            seen = np.abs(tr.y) < 0.16
            n = int(seen.sum())
            noisy = (tr.x[seen] + rng.normal(0, 3e-4, n), tr.y[seen] + rng.normal(0, 3e-4, n))
            tracks.append(Track(tr.clip, tr.pawn, tr.t[seen], *noisy))
    fit = fit_tracks(tracks, BASE, "a varying surface")
    drawn = float(np.std(mus, ddof=1) / np.mean(mus))
    assert fit.spread is not None and fit.spread.low > 0.005
    assert fit.spread.low <= drawn <= fit.spread.high


def test_without_opencv_a_video_is_refused_in_one_line_saying_what_to_install(
    tmp_path, capsys, monkeypatch
) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # as if the extra were not installed
    (tmp_path / "a.mp4").write_bytes(b"\0" * 64)
    assert main(["calibrate", "video", str(tmp_path / "a.mp4")]) == 2
    err = capsys.readouterr().err
    assert "pip install 'sorry-sliders[calibrate]'" in err and len(err.splitlines()) == 1


def test_a_small_filmed_hit_is_tracked_within_a_millimetre(tmp_path) -> None:
    """The everyday suite's video: one slide into a pawn at 160 × 160, every spoiler on."""
    camera = Camera(size=160)
    video = str(tmp_path / "hit.mp4")
    truth = render_clip(video, protocol(0, 1, 0, TRUTH, seed=3)[0], TRUTH, 60, camera, seed=0)
    got = track_video(video, board_corners(camera), TRUTH.pawn_radius)
    assert sorted(tr.pawn for tr in got.tracks) == ["blue1", "red1"]
    by_colour = {"red1": "south-1", "blue1": "south-2"}
    for tr in got.tracks:
        (true,) = [t for t in truth if t.pawn == by_colour[tr.pawn]]
        i = np.searchsorted(true.t, tr.t - 1e-9)
        err = np.hypot(true.x[i] - tr.x, true.y[i] - tr.y)
        assert np.median(err) < 1e-3 and len(tr.t) > 60, (tr.pawn, np.median(err))


def _noisy_tracks(slides, truth, seed: int) -> list[Track]:
    """Simulated paths as a camera seeing the board and the track's last 12 cm would track them."""
    rng = np.random.default_rng(seed)
    tracks = []
    for i, slide in enumerate(slides):
        for tr in simulate_clip(slide, truth, 60, f"clip{i}"):
            seen = (tr.y > -0.25) & (tr.y < 0.16)
            n = int(seen.sum())
            noisy = (tr.x[seen] + rng.normal(0, 3e-4, n), tr.y[seen] + rng.normal(0, 3e-4, n))
            tracks.append(Track(tr.clip, tr.pawn, tr.t[seen], *noisy))
    return tracks


@pytest.mark.slow  # 11 slides fitted twice: about 15 s of CPU
def test_rim_friction_is_told_by_glancing_hits_and_only_bounded_by_hits_that_stick() -> None:
    truth = TRUTH.replace(friction_pawn=0.2, friction_rail=0.03)
    slides = protocol(3, 0, 0, truth, seed=2, glance=4, slant=4)
    fit = fit_tracks(_noisy_tracks(slides, truth, 0), BASE, "glancing")
    pawn, rail = fit.estimates["friction_pawn"], fit.estimates["friction_rail"]
    assert abs(pawn.value - 0.2) < 0.06 and pawn.low < pawn.value < pawn.high, pawn
    assert abs(rail.value - 0.03) < 0.01 and rail.low <= 0.03 <= rail.high + 0.005, rail
    # at 0.1 the rims on the far rail stick at the widest angle the lane lets through: a bound
    truth = truth.replace(friction_rail=0.1)
    fit = fit_tracks(_noisy_tracks(slides, truth, 1), BASE, "stuck")
    assert "friction_rail" not in fit.estimates
    warning = next(w for w in fit.warnings if w.startswith("friction_rail: not told"))
    assert "at least 0.0" in warning
    assert fit.params(BASE).friction_rail == BASE.friction_rail


def _crossing(clip: str, v0: float, keep: float, rng: np.random.Generator) -> Track:
    """A pawn released at ``v0`` 12 cm down the track, keeping ``keep`` of its speed where it
    crosses onto the board (y = -0.13), tracked at 60 frames a second with 0.3 mm of noise."""
    a, y0, joint = TRUTH.deceleration, -0.25, -0.13
    t_j = (v0 - math.sqrt(v0 * v0 - 2 * a * (joint - y0))) / a
    v_j = (v0 - a * t_j) * keep
    t = np.arange(0, t_j + v_j / a + 0.3, 1 / 60)
    after = np.clip(t - t_j, 0, v_j / a)
    y = np.where(t < t_j, y0 + v0 * t - a * t * t / 2, joint + v_j * after - a * after * after / 2)
    n = len(t)
    return Track(clip, "red1", t, rng.normal(0, 3e-4, n), y + rng.normal(0, 3e-4, n))


def test_a_loss_at_the_track_board_joint_is_measured_and_none_is_said_so() -> None:
    rng = np.random.default_rng(0)
    speeds = np.linspace(0.75, 0.95, 6)
    lossy = [_crossing(f"c{i}", v, 0.95, rng) for i, v in enumerate(speeds)]
    fit = fit_tracks(lossy, BASE, "lossy")
    loss = fit.measured["joint_loss"]
    assert abs(loss.value - 0.05) < 0.01 and loss.low < 0.05 < loss.high, loss
    assert loss.low > 0 and any("which the model does not have" in w for w in fit.warnings)
    assert "joint_loss" in fit.toml(BASE) and fit.params(BASE) == fit.params(BASE)
    none = fit_tracks([_crossing(f"c{i}", v, 1.0, rng) for i, v in enumerate(speeds)], BASE, "")
    assert none.measured["joint_loss"].low <= 0 <= none.measured["joint_loss"].high
    assert any(w.startswith("joint loss: the data show none") for w in none.warnings)
    # the track's end not in view: not told
    cut = [
        Track(t.clip, t.pawn, t.t[t.y > -0.12], t.x[t.y > -0.12], t.y[t.y > -0.12]) for t in lossy
    ]
    assert any(w.startswith("joint loss: not told") for w in fit_tracks(cut, BASE, "").warnings)
