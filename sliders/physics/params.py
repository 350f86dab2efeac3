"""The physics parameter record: every number the simulator uses, in one frozen, printable place.

No one has published measurements of the physical game; these defaults are estimates (see the
README). A calibration changes this data, not the code.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from sliders.errors import UserError


@dataclass(frozen=True, slots=True)
class PhysicsParams:
    """Physics defaults, SI units. Build with :meth:`default` and change with :meth:`replace`."""

    dt: float = 1 / 240
    """fixed time step, s"""
    iterations: int = 10
    """solver iterations per step"""
    collision_slop: float = 1e-4
    """allowed overlap between shapes, m"""
    g: float = 9.81
    """gravity, m/s²"""
    mu_roll: float = 0.05
    """rolling resistance: a rolling pawn decelerates at mu_roll·g"""
    spin_damping_torque: float = 2e-6
    """Coulomb friction torque on a pawn's spin, N·m"""
    pawn_radius: float = 0.0125
    """radius of a roller pawn's base, m"""
    pawn_mass: float = 0.015
    """mass of a roller pawn, kg"""
    pawn_height: float = 0.035
    """height of a roller pawn, m (drawing and documentation; the model is top-down)"""
    restitution_pawn: float = 0.85
    """coefficient of restitution of a pawn-pawn hit"""
    restitution_rail: float = 0.6
    """coefficient of restitution of a pawn-rail hit"""
    friction_pawn: float = 0.2
    """Coulomb friction between two pawns' rims"""
    friction_rail: float = 0.1
    """Coulomb friction between a pawn and a rail"""
    knock_over_impulse: float = 0.025
    """a pawn-pawn contact impulse above this topples the pawn that was slower before the hit, N·s
    (0.025 N·s is a head-on hit at about 1.8 m/s)"""
    knock_over_spread: float = 0.0
    """0: the threshold is sharp. >0: a hit of impulse J topples with probability
    1/(1+exp(-(J - knock_over_impulse)/spread)), drawn from the shot's seeded generator"""
    hole_capture_speed: float = 0.5
    """a pawn whose centre is over the hole drops in unless it is moving faster than this, m/s"""
    max_speed: float = 3.0
    """the fastest flick, m/s"""
    max_time: float = 60.0
    """a shot is stopped after this long even if something still moves, s"""
    rest_check_steps: int = 8
    """steps between checks that everything is asleep"""

    @classmethod
    def default(cls) -> PhysicsParams:
        """The defaults (one shared, immutable instance)."""
        return _DEFAULT if cls is PhysicsParams else cls()

    @property
    def deceleration(self) -> float:
        return self.mu_roll * self.g

    def stopping_distance(self, speed: float) -> float:
        """The closed-form stopping distance of a lone pawn under the fixed-step integrator:
        v²/(2μg) + v·dt/2."""
        return speed * speed / (2 * self.deceleration) + speed * self.dt / 2

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
        """Raise UserError when a value makes no physical sense."""
        positive = [
            "dt",
            "g",
            "mu_roll",
            "pawn_radius",
            "pawn_mass",
            "pawn_height",
            "max_speed",
            "max_time",
            "knock_over_impulse",
        ]
        for name in positive:
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise UserError(f"parameter {name} must be positive, got {value}")
        for name in ("restitution_pawn", "restitution_rail"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise UserError(f"parameter {name} must be within 0..1, got {value}")
        for name in (
            "friction_pawn",
            "friction_rail",
            "knock_over_spread",
            "spin_damping_torque",
            "hole_capture_speed",
            "collision_slop",
        ):
            if not getattr(self, name) >= 0:
                raise UserError(f"parameter {name} must not be negative")
        if self.iterations < 1 or self.rest_check_steps < 1:
            raise UserError("parameters iterations and rest_check_steps must be at least 1")
        if self.dt > 1 / 60:
            raise UserError(f"parameter dt={self.dt} is too coarse (at most 1/60 s)")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PhysicsParams:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise UserError(f"unknown physics parameters: {', '.join(sorted(unknown))}")
        new = cls(**data)
        new.check()
        return new

    def describe(self) -> list[tuple[str, Any, str]]:
        """(name, value, documentation) for every parameter."""
        docs = _field_docs()
        return [
            (f.name, getattr(self, f.name), docs.get(f.name, "")) for f in dataclasses.fields(self)
        ]


_DEFAULT = PhysicsParams()


def _field_docs() -> dict[str, str]:
    """The docstring under each field, read from the source once."""
    import ast
    import inspect
    import textwrap

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
