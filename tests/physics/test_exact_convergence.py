"""The pymunk engine converges to the exact engine as its step shrinks (a small slice of
benchmarks/convergence.py's corpus; the script prints the full figures)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

_PATH = pathlib.Path(__file__).parents[2] / "benchmarks" / "convergence.py"


@pytest.fixture(scope="module")
def convergence():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("convergence", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["convergence"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_agreement_holds_and_positions_shrink_as_the_step_shrinks(convergence) -> None:  # noqa: ANN001
    cases = convergence.corpus(40, 2026)
    assert all(6 <= len(c.table) <= 15 and 0.4 <= c.shot.speed <= 2.0 for c in cases)
    coarse, fine = convergence.compare(cases, [1 / 240, 1 / 1920])[0]
    assert fine.agreement >= coarse.agreement
    assert fine.agreement >= 0.95
    # second order in the step (leapfrog steps, contacts and the rim met where they happen):
    # 8× smaller step, about 64× closer
    assert fine.median_diff < coarse.median_diff / 20


def test_the_corpus_is_fixed(convergence) -> None:  # noqa: ANN001
    a, b = convergence.corpus(5, 7), convergence.corpus(5, 7)
    assert a == b
