"""Ctrl-C stops a run in this process wherever it lands, even inside a finaliser (where Python
would print a KeyboardInterrupt and carry on, as it does inside pymunk's clean-up of a space)."""

from __future__ import annotations

import signal

import sliders.batch.work
from sliders.batch import Design, Study, empty_scene, run_study
from sliders.physics import Noise


class _InterruptWhenCollected:
    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)  # the handler runs here, inside the finaliser


def test_ctrl_c_inside_a_finaliser_stops_the_run(monkeypatch) -> None:
    real = sliders.batch.work.run_chunk
    calls = []

    def run_chunk(*args, **kwargs):
        calls.append(1)
        cols = real(*args, **kwargs)
        if len(calls) == 2:
            _InterruptWhenCollected()  # dropped at once: Ctrl-C arrives during its finaliser
        return cols

    monkeypatch.setattr(sliders.batch.work, "run_chunk", run_chunk)
    design = Design.grid(speed="0.5:0.8:4")
    study = Study.create(empty_scene(), "south", design, samples=2, noise=Noise.level("low"))
    result = run_study(study, workers=1, chunk_size=2)
    assert not result.complete
    assert (result.chunks_done, result.chunks_total, result.n_shots) == (2, 4, 4)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_run_without_ctrl_c_is_complete_and_leaves_the_handler_alone() -> None:
    design = Design.grid(speed="0.5:0.8:4")
    study = Study.create(empty_scene(), "south", design, samples=2, noise=Noise.level("low"))
    result = run_study(study, workers=1, chunk_size=2)
    assert result.complete and result.n_shots == 8
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
