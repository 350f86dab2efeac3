"""One interface, two engines: :class:`Simulation` and :func:`simulate` run a shot in the engine
asked for, ``"pymunk"`` (a fixed-step Chipmunk world, :mod:`sliders.physics.engine`) or
``"exact"`` (event-driven, :mod:`sliders.physics.exact`, loaded only when asked for).

Both implement the same pawn model with the same :class:`~sliders.physics.PhysicsParams`
(docs/model.md). ``engine=None`` means :data:`DEFAULT_ENGINE`.
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from sliders import __version__
from sliders.errors import UserError
from sliders.outcome import ENGINES

if TYPE_CHECKING:
    from sliders.boards import Face, Layout
    from sliders.boards.geometry import PlacedPawn
    from sliders.outcome import Event, PawnRest, ShotResult
    from sliders.physics.params import PhysicsParams
    from sliders.physics.shot import Shot


DEFAULT_ENGINE = "exact"
"""the engine used when none is named: the exact one (docs/model.md says when to pick which)"""


def simulate(
    layout: Layout,
    face: Face,
    table: Sequence[PlacedPawn],
    shot: Shot,
    params: PhysicsParams | None = None,
    seed: int | np.random.Generator | None = None,
    engine: str | None = None,
) -> ShotResult:
    """Slide one pawn and run the world until every pawn is at rest or removed (or the shot
    times out: ``result.settled`` is then False), in ``engine``."""
    name = check_engine(engine)
    if name == "pymunk":  # it checks its parameters itself
        pymunk_engine: Any = _load_pymunk()
        result: ShotResult = pymunk_engine.simulate_pymunk(layout, face, table, shot, params, seed)
        return result
    exact: Any = _load_exact()
    check_params(params)
    result = exact.simulate_exact(layout, face, table, shot, params, seed)
    return result


def check_params(params: PhysicsParams | None) -> None:
    """``params.check()`` (a one-line UserError for a value outside its legal range), once for
    each parameter set in a row. The exact engine's own entry points
    (:mod:`sliders.physics.exact`) take any values, so that its tests can reach past the legal
    ranges; a shot run through this module is checked in either engine."""
    global _checked
    if params is None or params is _checked:
        return
    params.check()
    _checked = params


_checked: PhysicsParams | None = None


def check_engine(engine: str | None) -> str:
    """The engine's name (``None``: the default), or a one-line UserError."""
    if engine is None:
        return DEFAULT_ENGINE
    if engine not in ENGINES:
        raise UserError(f"engine {engine!r} is unknown (choose {' or '.join(ENGINES)})")
    return engine


def require_engine(engine: str | None) -> str:
    """The engine's name, once it is known to load (a one-line UserError otherwise)."""
    name = check_engine(engine)
    if name == "exact":
        _load_exact()
    return name


def engine_version(engine: str | None = None) -> str:
    """What a result records as its engine's version: this sliders' version."""
    check_engine(engine)
    return __version__


class _ChooseEngine(abc.ABCMeta):
    """``Simulation(..., engine=...)`` builds the chosen engine's simulation."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is not Simulation:
            return super().__call__(*args, **kwargs)
        if len(args) > 6:
            args, kwargs = args[:6], {**kwargs, "engine": args[6]}
        name = check_engine(kwargs.pop("engine", None))
        if name == "pymunk":
            return _load_pymunk().PymunkSimulation(*args, **kwargs)
        exact = _load_exact()
        check_params(args[4] if len(args) > 4 else kwargs.get("params"))
        return exact.ExactSimulation(*args, **kwargs)


class Simulation(metaclass=_ChooseEngine):
    """One shot, stepped: ``Simulation(layout, face, table, shot, params, seed, engine)`` builds
    it in the chosen engine (every engine's simulation is an instance of this class).

    ``step()`` advances by ``params.dt`` (a frame); ``run()`` goes on to rest or the time-out,
    ``run_until(t)`` to time ``t``;
    ``moving`` tells whether it is still going, ``t`` its time; ``positions()`` and
    ``velocities()`` give every pawn still on the table; ``result()`` classifies the rest state;
    ``events``, ``removed``, ``shooter`` and ``order`` (the shooter, then the table's pawns) are
    what happened so far and who took part.
    """

    engine: str
    params: PhysicsParams
    shooter: str
    order: list[str]
    events: list[Event]
    removed: dict[str, PawnRest]
    moving: bool
    t: float

    def __init__(
        self,
        layout: Layout,
        face: Face,
        table: Sequence[PlacedPawn],
        shot: Shot,
        params: PhysicsParams | None = None,
        seed: int | np.random.Generator | None = None,
        engine: str | None = None,
    ) -> None:
        """Never called for this class itself: its metaclass builds the engine's class."""

    def step(self) -> None:
        raise NotImplementedError

    def run(self) -> None:
        raise NotImplementedError

    def run_until(self, t: float) -> None:
        """Go on to time ``t``, or to rest if it comes first (an engine that steps goes on by
        whole steps, up to the first step at or past ``t``)."""
        while self.moving and self.t < t - 1e-12:
            self.step()

    def positions(self) -> dict[str, tuple[float, float, float]]:
        raise NotImplementedError

    def velocities(self) -> dict[str, tuple[float, float, float]]:
        raise NotImplementedError

    def kinetic_energy(self) -> float:
        raise NotImplementedError

    def result(self) -> ShotResult:
        raise NotImplementedError


def _load_pymunk() -> Any:
    """The pymunk engine's module. It subclasses :class:`Simulation`, so it is loaded by name
    when a shot asks for it rather than imported here (this module is its base)."""
    return importlib.import_module("sliders.physics.engine")


def _load_exact() -> Any:
    """The exact engine's module, registered as a :class:`Simulation`; one line if it cannot
    load."""
    try:
        module = importlib.import_module("sliders.physics.exact")
    except ModuleNotFoundError as exc:
        if exc.name is not None and "sliders.physics.exact".startswith(exc.name):
            raise UserError(
                "engine 'exact' is not part of this sliders yet (use --engine pymunk)"
            ) from None
        raise UserError(f"engine 'exact' cannot load: {exc}") from None
    except ImportError as exc:
        raise UserError(f"engine 'exact' cannot load: {exc}") from None
    if not issubclass(module.ExactSimulation, Simulation):
        Simulation.register(module.ExactSimulation)
    return module
