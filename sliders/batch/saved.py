"""A saved study read back: its table, its record, the study it describes and its summary,
without simulating anything.

>>> from sliders.batch import load
>>> saved = load("study.parquet")                       # doctest: +SKIP
>>> saved.summary(0.9)["mean_value"]                    # doctest: +SKIP
>>> saved.to_pandas().groupby("speed")["value"].mean()  # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sliders.ai.value import GameSpot
from sliders.batch.runners import empty_table
from sliders.batch.study import MAX_SHOTS, PARAMETERS, Context, Design, Study
from sliders.batch.summary import summarise
from sliders.batch.tables import is_status, read_table
from sliders.batch.work import STATUSES, upgrade
from sliders.core.errors import UserError
from sliders.core.outcome import check_engine
from sliders.files.scenes import Scene
from sliders.physics.noise import Noise
from sliders.physics.params import PhysicsParams

Columns = dict[str, np.ndarray]


@dataclass
class Saved:
    """A table written by ``sliders batch`` (or :meth:`BatchResult.write`) and its study."""

    path: str
    table: Columns
    record: dict[str, Any]
    study: Study
    complete: bool = field(default=True)

    @property
    def n_shots(self) -> int:
        return len(self.table["shot"])

    def summary(self, confidence: float = 0.95) -> Columns:
        """One row per intended shot, as ``sliders batch`` writes it."""

        return summarise(self.table, self.study, confidence)

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame, statuses as categories (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise UserError("to_pandas() needs pandas (pip install pandas)") from None

        names = [str(s) for s in STATUSES]
        data = {
            k: pd.Categorical.from_codes(v, names) if is_status(k) else v
            for k, v in self.table.items()
        }
        return pd.DataFrame(data)


def load(path: str, fmt: str | None = None) -> Saved:
    """Read a study's table and rebuild the study from its record (a UserError if the file is not
    a batch table, or its record is missing or from another version's table)."""

    table, record = read_table(path, fmt)
    if not record or "scene" not in record:
        raise UserError(f"{path} has no study record (not written by sliders batch?)")
    if "intended" in table and "mean_points" in table and "shot" not in table:
        raise UserError(f"{path} is a summary; give the table of every shot")
    study = checked_study(path, record, table)
    table = upgrade(study.context, table)  # an older table's value: see docs/batch.md
    check_table(path, table, study)
    return Saved(path, table, record, study, bool(record.get("complete", True)))


def checked_study(path: str, record: dict[str, Any], table: Columns) -> Study:
    """:func:`study_from_record`, any fault in the record a one-line :class:`UserError`."""
    try:
        return study_from_record(record, table)
    except UserError as exc:
        raise UserError(f"{path}: its study record: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError) as exc:
        raise UserError(f"{path}: its study record is incomplete or wrong ({exc})") from None


RANGES: dict[str, tuple[float, float]] = {
    "points": (0, 6),
    "penalties": (0, 100),
    "own_removed": (0, 100),
    "opp_removed": (0, 100),
    "opp_penalties": (0, 100),
    "contacts": (0, 10**4),
    "value": (0.0, 1.0),
    "fault": (0, 2),
    "x": (-10.0, 10.0),
    "y": (-10.0, 10.0),
}
"""the values a column of a study's table can hold (NaN aside), where they are bounded"""


def check_table(path: str, table: Columns, study: Study) -> None:
    """:class:`UserError` naming the first difference if ``table`` is not a table ``study`` can
    have written: its columns' names and types, each row's shot, intended shot and sample, rest
    statuses and faults that exist, counts and values within their ranges, no infinity."""
    want = empty_table(study)
    if sorted(table) != sorted(want):
        missing = sorted(set(want) - set(table))
        extra = sorted(set(table) - set(want))
        named = f"no column {missing[0]}" if missing else f"an unknown column {extra[0]}"
        raise UserError(f"{path}: has {named} (not this study's table)")
    for name, empty in want.items():
        if table[name].dtype != empty.dtype:
            raise UserError(f"{path}: column {name} holds {table[name].dtype}, not {empty.dtype}")
    shot, n = table["shot"], study.n_shots
    if len(shot) > n:
        raise UserError(f"{path}: {len(shot):,} rows, more than its study's {n:,} shots")
    if len(shot) and (shot.min() < 0 or shot.max() >= n or np.any(np.diff(shot) <= 0)):
        raise UserError(f"{path}: column shot holds shots that are not its study's, or twice")
    samples = study.context.samples
    if not np.array_equal(table["intended"] * samples + table["sample"], shot):
        raise UserError(f"{path}: columns intended and sample do not give each row's shot")
    for name, values in table.items():
        if is_status(name) and len(values) and (values.min() < 0 or values.max() >= len(STATUSES)):
            raise UserError(f"{path}: column {name} holds a code that is no rest status")
        if values.dtype.kind == "f" and np.isinf(values).any():
            raise UserError(f"{path}: column {name} holds an infinite number")
        lo, hi = RANGES.get(name, (None, None))
        if lo is not None and len(values):
            v = values[~np.isnan(values)] if values.dtype.kind == "f" else values
            if len(v) and (v.min() < lo or v.max() > hi):
                bad = v[(v < lo) | (v > hi)][0]
                raise UserError(f"{path}: column {name} holds {bad}, outside {lo}..{hi}")


def study_from_record(record: dict[str, Any], table: Columns) -> Study:
    """The :class:`Study` a table's record describes (its design rebuilt exactly)."""

    scene = Scene.from_json(record["scene"], "the table's scene")
    ctx = Context(
        scene,
        str(record["seat"]),
        record.get("pawn"),
        int(record["samples"]),
        Noise.from_json(record["noise"]),
        PhysicsParams.from_json(record["params"]),
        int(record["seed"]),
        check_engine(record.get("engine", "pymunk")),
        spot=GameSpot.from_json(record.get("score_boards")),
        common_random=bool(record.get("common_random", True)),
    )
    ranges = {n: (float(a), float(b)) for n, (a, b) in record["ranges"].items()}
    intended = int(record["intended"])
    if not 0 <= intended * max(ctx.samples, 1) <= MAX_SHOTS:
        raise ValueError(f"{intended} intended shots × {ctx.samples} samples: over {MAX_SHOTS:,}")
    axes_rec = record.get("axes")
    if record.get("design") == "grid" and axes_rec:
        axes = {n: np.array(axes_rec[n], dtype=float) for n in PARAMETERS}
        if any(a.ndim != 1 for a in axes.values()):
            raise ValueError("axes: each is a list of numbers")
        if math.prod(len(a) for a in axes.values()) != intended:
            raise ValueError("the axes do not make the recorded number of intended shots")
        mesh = np.meshgrid(*(axes[n] for n in PARAMETERS), indexing="ij")
        design = Design(np.stack([m.ravel() for m in mesh], axis=1), axes, ranges)
    else:
        design = _design_from_rows(table, int(record["intended"]), ranges)
    if len(design) != int(record["intended"]):
        raise ValueError("the design does not have the recorded number of intended shots")
    _check_rows(design, table)
    return Study(ctx, design)


def _design_from_rows(table: Columns, n: int, ranges: dict[str, tuple[float, float]]) -> Design:
    """A design read off the rows (a random design, or a grid from before axes were recorded):
    every intended shot needs at least one row."""
    which = table["intended"]
    if n > len(which):
        raise ValueError("some intended shots have no row to read them from (resume it first)")
    if len(which) and (which.min() < 0 or which.max() >= n):
        raise ValueError("rows name intended shots the design does not have")
    shots = np.full((n, len(PARAMETERS)), np.nan)
    for j, name in enumerate(PARAMETERS):
        shots[which, j] = table[name]
    if np.isnan(shots).any():
        raise ValueError("some intended shots have no row to read them from (resume it first)")
    return Design(shots, None, ranges)


def _check_rows(design: Design, table: Columns) -> None:
    which = table["intended"]
    if len(which) and (which.min() < 0 or which.max() >= len(design)):
        raise ValueError("rows name intended shots the design does not have")
    for j, name in enumerate(PARAMETERS):
        if not np.array_equal(design.shots[which, j], table[name]):
            raise ValueError(f"the rows' {name} differ from the recorded design")
