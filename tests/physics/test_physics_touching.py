"""Shots into pawns standing touching or nearly touching always finish, and Ctrl-C stops a shot
(a bounded slice of benchmarks/touching.py's campaign; the script runs thousands). Every shot
runs in a watched child process, so a hang fails the test instead of stopping the suite."""

from __future__ import annotations

import importlib.util
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

_PATH = pathlib.Path(__file__).parents[2] / "benchmarks" / "touching.py"
_ROOT = pathlib.Path(__file__).parents[2]


@pytest.fixture(scope="module")
def touching():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("touching", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["touching"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def _python(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=_ROOT,
    )


def test_the_reported_hang_finishes_in_both_engines() -> None:
    """A pawn at (0, −0.04) and one at (0, −0.0150000001) stand 1e-10 m inside each other (a
    legal overlap); a 1 m/s shot into them used to hang the pymunk engine inside Chipmunk's
    step (the struck pawn, asleep, was moved inside the collision handler)."""
    done = _python(
        """
        from sliders.boards import face
        from sliders.files.layouts import square
        from sliders.core.outcome import PawnRest, Status
        from sliders.physics import Setup, Shot, simulate
        table = [PawnRest("north-1", "north", 0.0, -0.04, Status.ON_TARGET),
                 PawnRest("north-2", "north", 0.0, -0.0150000001, Status.ON_TARGET)]
        for engine in ("pymunk", "exact"):
            setup = Setup(square("south,north"), face("race-for-home"), None, engine)
            r = simulate(setup, table, Shot("south", 1.0))
            print(engine, r.settled, r.pawns[1].status.value, r.pawns[2].status.value)
        """,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0].startswith("pymunk True") and lines[1].startswith("exact True")
    # the struck pair ends the same in both engines
    assert lines[0].split()[2:] == lines[1].split()[2:]


@pytest.mark.parametrize("engine,shots", [("pymunk", 120), ("exact", 40)])
def test_a_campaign_of_shots_into_touching_pawns_finishes(
    touching, engine: str, shots: int
) -> None:
    cases = touching.corpus(shots, 11)
    assert max(len(c.table) for c in cases) == 15
    assert {c.face for c in cases} == {"race-for-home", "instant-home"}
    hung, timed_out, done, _ = touching.campaign(engine, shots, 11, limit=120.0)
    assert hung == [] and timed_out == [] and done == shots


def test_ctrl_c_stops_a_pymunk_shot() -> None:
    """SIGINT during a long pymunk shot raises KeyboardInterrupt at once, every time (it used
    to be dropped when it landed inside a collision handler, about one time in four): four
    Ctrl-Cs, at four moments of one process's loop of shots."""
    code = """
        import signal
        import sys
        signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
        from sliders.boards import face
        from sliders.files.layouts import square
        from sliders.core.outcome import PawnRest, Status
        from sliders.physics import PhysicsParams, Setup, Shot, simulate
        table = [PawnRest(f"north-{k}", "north", 0.026 * (k - 2.5), 0.0, Status.ON_TARGET)
                 for k in range(1, 5)]
        params = PhysicsParams.default().replace(dt=1e-4)
        for trial in range(4):
            print("started", flush=True)
            try:
                while True:
                    simulate(Setup(square("south,north"), face("race-for-home"), params, "pymunk"),
                             table, Shot("south", 2.0))
            except KeyboardInterrupt:
                print("interrupted", flush=True)
        sys.exit(3)
    """
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True, cwd=_ROOT
    )
    # a dropped Ctrl-C leaves the loop running: the watchdog ends it, and the line never comes
    watchdog = threading.Timer(120, proc.kill)
    watchdog.start()
    try:
        assert proc.stdout is not None
        for trial in range(4):
            assert proc.stdout.readline().strip() == "started", f"trial {trial}"
            try:
                proc.wait(timeout=0.2 + 0.1 * trial)  # into the loop of shots, each time later
            except subprocess.TimeoutExpired:
                pass
            proc.send_signal(signal.SIGINT)
            assert proc.stdout.readline().strip() == "interrupted", f"trial {trial}"
        assert proc.wait(timeout=60) == 3
    finally:
        watchdog.cancel()
        proc.kill()
