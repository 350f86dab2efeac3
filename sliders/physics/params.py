"""The physics parameter record: every number the simulator uses, in one frozen, printable place.

No one has published measurements of the physical game; these defaults are estimates (see the
README). A calibration changes this data, not the code.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import math
import textwrap
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from sliders.core.errors import UserError
from sliders.core.fileio import read_toml


@dataclass(frozen=True, slots=True)
class Range:
    """The legal values of one parameter: from ``lo`` to ``hi``, each end included unless it is
    marked open."""

    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False

    def __contains__(self, value: float) -> bool:
        if not (self.lo <= value <= self.hi):  # also refuses NaN
            return False
        return not ((self.lo_open and value == self.lo) or (self.hi_open and value == self.hi))

    def __str__(self) -> str:
        """The range as ``sliders params`` prints it; a bound that six digits cannot show is
        rounded inward, so that the printed bound is itself legal."""
        lo, hi = _bound_text(self.lo, up=True), _bound_text(self.hi, up=False)
        return f"{'(' if self.lo_open else '['}{lo}, {hi}{')' if self.hi_open else ']'}"

    def to_json(self) -> dict[str, Any]:
        return {"min": self.lo, "max": self.hi, "min_open": self.lo_open, "max_open": self.hi_open}


def _bound_text(value: float, up: bool) -> str:
    """``value`` to six significant digits, rounded up (``up``) or down when ``:g`` would
    round it the other way."""
    text = f"{value:g}"
    if float(text) == value or not math.isfinite(value) or value == 0:
        return text
    exact = Decimal(value)
    quantum = Decimal(1).scaleb(exact.adjusted() - 5)
    return f"{float(exact.quantize(quantum, rounding=ROUND_CEILING if up else ROUND_FLOOR)):g}"


def _p(default: float, lo: float, hi: float, lo_open: bool = False, hi_open: bool = False) -> Any:
    """A parameter field with its default and its legal range."""
    return field(default=default, metadata={"range": Range(lo, hi, lo_open, hi_open)})


MAX_STEPS = 2_000_000
"""at most this many steps of ``dt`` in ``max_time`` (so a shot cannot run for hours)"""


@dataclass(frozen=True, slots=True)
class PhysicsParams:
    """Physics defaults, SI units. Build with :meth:`default` and change with :meth:`replace`.

    Every field has a legal range (:func:`ranges`); :meth:`check` refuses anything outside it,
    and the one limit that ties fields together, ``max_time/dt ≤ MAX_STEPS``. Each bound holds
    whatever the other fields are (the pymunk engine splits ``dt`` into :attr:`substeps` so that
    no pawn moves more than its radius in one of its steps).
    """

    dt: float = _p(1 / 240, 1e-4, 1 / 60)
    """the window's frame and the pymunk engine's fixed step (split in equal steps of at most
    pawn_radius/max_speed); the exact engine's results never depend on it, s"""
    iterations: int = _p(10, 1, 100)
    """solver iterations per step (pymunk engine)"""
    collision_slop: float = _p(1e-4, 0.0, 1e-3)
    """allowed overlap between shapes (pymunk engine), m"""
    g: float = _p(9.81, 1.0, 30.0)
    """gravity, m/s²"""
    mu_roll: float = _p(0.05, 0.005, 1.0)
    """rolling resistance: a rolling pawn decelerates at mu_roll·g"""
    spin_damping_torque: float = _p(2e-6, 0.0, 1e-2, lo_open=True)
    """Coulomb friction torque on a pawn's spin, N·m"""
    pawn_radius: float = _p(0.0125, 0.005, 0.05)
    """radius of a roller pawn's base, m"""
    pawn_mass: float = _p(0.015, 0.001, 1.0)
    """mass of a roller pawn, kg"""
    pawn_height: float = _p(0.035, 0.005, 0.2)
    """height of a roller pawn, m (drawing and documentation; the model is top-down)"""
    restitution_pawn: float = _p(0.85, 0.0, 1.0, lo_open=True)
    """coefficient of restitution of a pawn-pawn hit"""
    restitution_rail: float = _p(0.6, 0.0, 1.0, lo_open=True)
    """coefficient of restitution of a pawn-rail hit (and of a pawn rolling back into the hole)"""
    friction_pawn: float = _p(0.2, 0.0, 2.0)
    """Coulomb friction between two pawns' rims (the pair's coefficient)"""
    friction_rail: float = _p(0.1, 0.0, 2.0)
    """Coulomb friction between a pawn's rim and a rail (the pair's coefficient)"""
    knock_over_impulse: float = _p(0.025, 0.0, 1.0, lo_open=True)
    """a contact's normal impulse above this topples a pawn that was at rest, N·s (0.025 N·s is
    a head-on hit at about 1.8 m/s); each pawn of a contact, and a pawn hitting a rail, is tested"""
    knock_over_moving_factor: float = _p(1.5, 1.0, 10.0)
    """a pawn that was moving before the contact topples above knock_over_impulse × this"""
    knock_over_spread: float = _p(0.0, 0.0, 1.0)
    """0: the threshold is sharp. >0: each pawn draws its threshold once a shot (from the
    shot's seeded generator), logistic around T with this scale and never below 0, so an
    impulse J topples it with probability 1/(1+exp(-(J - T)/spread)) rescaled to be 0 at J = 0,
    N·s"""
    topple_time: float = _p(1 / 240, 0.0, 0.5)
    """how long a toppled pawn keeps sliding and hitting what is in its way before it leaves
    the table (its place: where it toppled), s"""
    hole_drop_height: float = _p(0.005, 0.0, 0.05, lo_open=True)
    """how far a pawn drops into the hole, m: it drops in when its centre stays within
    hole radius − pawn radius for √(2h/g); one crossing the rim outward climbs this much"""
    max_speed: float = _p(3.0, 0.1, 10.0)
    """the fastest flick, m/s"""
    max_time: float = _p(60.0, 0.1, 600.0)
    """a shot still moving after this long is stopped and reported as timed out, s"""
    rest_check_steps: int = _p(8, 1, 1000)
    """steps between checks that everything has stopped (pymunk engine)"""

    @classmethod
    def default(cls) -> PhysicsParams:
        """The defaults (one shared, immutable instance)."""
        return _DEFAULT if cls is PhysicsParams else cls()

    @property
    def deceleration(self) -> float:
        return self.mu_roll * self.g

    def stopping_distance(self, speed: float) -> float:
        """The closed-form stopping distance of a lone pawn released at ``speed``: v²/(2μg) in
        both engines (the pymunk engine's leapfrog steps stop it within μg·h²/8 of it, h its
        :attr:`pymunk_step`)."""
        return speed * speed / (2 * self.deceleration)

    def replace(self, **changes: Any) -> PhysicsParams:
        return dataclasses.replace(self, **changes)

    def with_overrides(self, items: list[str] | tuple[str, ...]) -> PhysicsParams:
        """Apply ``name=value`` strings, e.g. from ``--param mu_roll=0.06``."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for item in items:
            name, sep, text = item.partition("=")
            name = name.strip()
            if not sep:
                raise UserError(f"--param {item!r}: expected NAME=VALUE")
            if name not in fields:
                raise UserError(
                    f"--param {item!r}: unknown parameter {name!r} (see sliders params)"
                )
            whole = isinstance(getattr(self, name), int)
            try:
                value = int(text) if whole else float(text)
            except ValueError:
                kind = "a whole number" if whole else "a number"
                raise UserError(f"--param {item!r}: {text!r} is not {kind}") from None
            changes[name] = value
        new = self.replace(**changes)
        new.check()
        return new

    def check(self) -> None:
        """Raise UserError, one line naming the parameter and its legal range, for a value
        outside it (see :func:`ranges`), and for the limits that tie parameters together."""
        for name, legal in ranges().items():
            value = getattr(self, name)
            whole = isinstance(_DEFAULT_VALUES[name], int)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise UserError(f"parameter {name} must be a number, got {value!r}")
            if whole and not isinstance(value, int):
                raise UserError(f"parameter {name} must be a whole number in {legal}, got {value}")
            if value not in legal:
                raise UserError(f"parameter {name}={value:g} is outside its legal range {legal}")
        if self.max_time / self.dt > MAX_STEPS:
            raise UserError(
                f"parameters max_time={self.max_time:g} s and dt={self.dt:g} s: max_time/dt = "
                f"{self.max_time / self.dt:,.0f} steps exceed {MAX_STEPS:,} "
                f"(lower max_time or raise dt)"
            )

    @property
    def substeps(self) -> int:
        """How many equal steps the pymunk engine splits ``dt`` into: the fewest that keep
        ``max_speed × step ≤ pawn_radius``, so that in one step no pawn moves more than its
        radius (it never passes through a rail or a pawn). 1 whenever max_speed·dt ≤
        pawn_radius (the defaults)."""
        ratio = self.max_speed * self.dt / (self.pawn_radius * (1 + 1e-12))
        return max(1, math.ceil(ratio))

    @property
    def pymunk_step(self) -> float:
        """The pymunk engine's fixed step, s: ``dt / substeps``."""
        n = self.substeps
        return self.dt if n == 1 else self.dt / n

    @property
    def drop_time(self) -> float:
        """How long a pawn's centre must stay over the hole for it to drop in: √(2h/g), s."""
        return math.sqrt(2 * self.hole_drop_height / self.g)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PhysicsParams:
        """From :meth:`to_json`; parameters left out keep their defaults."""
        if not isinstance(data, dict):
            raise UserError("physics parameters must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise UserError(f"unknown physics parameters: {', '.join(sorted(unknown))}")
        new = cls(**data)
        new.check()
        return new

    def changes(self) -> dict[str, Any]:
        """The parameters that differ from the defaults (name: value), as a game log records
        them; :meth:`from_json` of it gives these parameters back."""
        return {k: v for k, v in dataclasses.asdict(self).items() if v != _DEFAULT_VALUES[k]}

    def to_toml(self, header: str = "", extra: str = "") -> str:
        """The parameters as a parameter file (:func:`load_params` reads it back): a ``[physics]``
        table of every field, after ``header`` (comment lines) and before ``extra`` (more tables,
        which the loader leaves to their writers)."""
        lines = [f"# {line}" if line else "#" for line in header.splitlines()]
        lines += ["# sliders physics parameters: --params FILE loads them (see sliders params)"]
        lines += ["", "[physics]"]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            lines.append(f"{f.name} = {value!r}")
        text = "\n".join(lines) + "\n"
        return text + ("\n" + extra.rstrip("\n") + "\n" if extra else "")

    def describe(self) -> list[tuple[str, Any, Range, str]]:
        """(name, value, legal range, documentation) for every parameter."""
        docs, legal = _field_docs(), ranges()
        return [
            (f.name, getattr(self, f.name), legal[f.name], docs.get(f.name, ""))
            for f in dataclasses.fields(self)
        ]


PARAMS_TABLES = ("physics", "calibration")
"""the tables of a parameter file: ``[physics]`` the values; ``[calibration]`` how a fit found
them (``sliders calibrate``), kept for the record and not read back"""


def load_params(path: str) -> PhysicsParams:
    """The parameters of a parameter file (``sliders params --save FILE`` or ``sliders calibrate``
    writes one): its ``[physics]`` table, every parameter left out at its default; a one-line
    UserError for a file that is not one, an unknown parameter or a value outside its range."""
    data = read_toml(path, "parameter file")
    unknown = sorted(set(data) - set(PARAMS_TABLES))
    if unknown:
        raise UserError(
            f"parameter file {path}: unknown entry {unknown[0]!r} (expected a [physics] table)"
        )
    physics = data.get("physics")
    if not isinstance(physics, dict):
        raise UserError(f"parameter file {path}: no [physics] table")
    wrong = sorted(set(physics) - set(_DEFAULT_VALUES))
    if wrong:
        raise UserError(
            f"parameter file {path}: unknown parameter {wrong[0]!r} (see sliders params)"
        )
    for name, value in physics.items():
        if isinstance(_DEFAULT_VALUES[name], float) and isinstance(value, int):
            if not isinstance(value, bool):
                physics[name] = float(value)
    try:
        new = PhysicsParams(**physics)
        new.check()
    except UserError as exc:
        raise UserError(f"parameter file {path}: {exc}") from None
    return new


def ranges() -> dict[str, Range]:
    """Every parameter's legal range, by name."""
    return {f.name: f.metadata["range"] for f in dataclasses.fields(PhysicsParams)}


_DEFAULT = PhysicsParams()
_DEFAULT_VALUES = dataclasses.asdict(_DEFAULT)


def _field_docs() -> dict[str, str]:
    """The docstring under each field, read from the source once."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(PhysicsParams)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, nxt in zip(body, body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            docs[node.target.id] = " ".join(nxt.value.value.split())
    return docs
