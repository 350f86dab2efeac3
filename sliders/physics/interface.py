"""The engine interface: every shot goes one way through the physics.

A :class:`Setup` is what a shot is simulated in: the layout, its face, the physics parameters and
the engine. :func:`simulate` runs one :class:`~sliders.core.outcome.Shot` (with its seed) on a table
until every pawn is at rest or removed; :func:`simulate_many` runs a batch of shots of one seat on
one table, as arrays; :func:`simulate_each` one shot on each of many tables (what many games'
shots are), solved together; :func:`start` sets a shot up to be stepped frame by frame (a
:class:`Simulation`, what the window and a replay draw). Each goes through the set-up's engine in
:data:`REGISTRY`: ``"exact"`` (event-driven, :mod:`sliders.physics.exact`) or ``"pymunk"`` (a
fixed-step Chipmunk world, :mod:`sliders.physics.pymunk_engine`). Both implement one pawn model with
the same parameters (docs/model.md); the result of a shot is final, nothing above the physics
edits it.
"""

from __future__ import annotations

import abc
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from sliders.boards import Face, Layout
from sliders.boards.geometry import PlacedPawn
from sliders.core.errors import UserError
from sliders.core.outcome import (
    STATUSES,
    BatchResult,
    Event,
    EventType,
    PawnRest,
    Shot,
    ShotResult,
    Status,
    check_engine,
)
from sliders.physics import pymunk_engine as pymunk_engine
from sliders.physics.limits import shot_limits
from sliders.physics.params import PhysicsParams
from sliders.physics.shot import at_rest, next_in_hand

if TYPE_CHECKING:
    from types import ModuleType


@dataclass(frozen=True, init=False)
class Setup:
    """What a shot is simulated in: ``layout`` and its ``face``, the physics ``params`` (None:
    the defaults, checked against their legal ranges here) and the ``engine`` (None: the
    default, :data:`~sliders.core.outcome.DEFAULT_ENGINE`). One is made where a game, a study, a
    command or a search starts, and every shot of it goes through :func:`simulate`,
    :func:`simulate_many` or :func:`start` with it."""

    layout: Layout
    face: Face
    params: PhysicsParams
    engine: str

    def __init__(
        self,
        layout: Layout,
        face: Face,
        params: PhysicsParams | None = None,
        engine: str | None = None,
    ) -> None:
        params = params or PhysicsParams.default()
        _check_params(params)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "engine", check_engine(engine))


@runtime_checkable
class Simulation(Protocol):
    """One shot set up in an engine (:func:`start`), to be run to rest or stepped frame by frame.

    ``step()`` advances by ``params.dt``; ``run()`` goes on to rest or the time-out,
    ``run_until(t)`` to time ``t`` (an engine that steps goes on by whole steps); ``moving``
    tells whether it is still going, ``t`` its time; ``positions()`` and ``velocities()`` give
    every pawn still on the table; ``result()`` classifies the rest state; ``events``,
    ``removed``, ``shooter`` and ``order`` (the shooter, then the table's pawns) are what
    happened so far and who took part.
    """

    engine: str
    params: PhysicsParams
    shooter: str
    order: list[str]
    events: list[Event]
    removed: dict[str, PawnRest]
    moving: bool
    settled: bool
    t: float

    def step(self) -> None: ...

    def run(self) -> None: ...

    def run_until(self, t: float) -> None: ...

    def positions(self) -> dict[str, tuple[float, float, float]]: ...

    def velocities(self) -> dict[str, tuple[float, float, float]]: ...

    def kinetic_energy(self) -> float: ...

    def result(self) -> ShotResult: ...


class Engine(abc.ABC):
    """One engine of :data:`REGISTRY`: how it sets a shot up (:meth:`start`), runs it to rest
    (:meth:`simulate`) and runs many (:meth:`simulate_many`: one shot after another, unless the
    engine has a faster batch path)."""

    name = ""

    def load(self) -> None:
        """Make sure the engine can run (a one-line UserError if it cannot): an engine that
        loads with this module has nothing to do."""
        return None

    def cold(self) -> bool:
        """True when :meth:`prepare` will take long: this process's first use compiles the
        engine (its first run on this machine)."""
        return False

    def prepare(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Load the engine and make it ready to run, so that no shot waits for it (a window
        calls it in the background while it draws); ``progress`` is told of the parts done and
        the parts in all as a long preparation goes on."""
        self.load()

    @abc.abstractmethod
    def start(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> Simulation:
        """``shot`` set up on ``table``, not yet run (a UserError for one the physics refuses)."""

    def simulate(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> ShotResult:
        sim = self.start(setup, table, shot)
        sim.run()
        return sim.result()

    def check(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> None:
        """Set the shot up without running it: the physics' own checks, as a UserError."""
        self.start(setup, table, shot)

    def run_all(self, sims: Sequence[Simulation]) -> None:
        """Run each of ``sims`` (shots this engine set up) to rest, as its ``run()`` does: one
        after another, unless the engine solves them together."""
        for sim in sims:
            sim.run()

    def simulate_many(self, setup: Setup, table: Sequence[PlacedPawn], shots: Shots) -> BatchResult:
        """Each of ``shots`` run to rest by :meth:`simulate`, into arrays."""
        shooter = shots.pawn or next_in_hand(shots.seat, table)
        seat = setup.layout.seat(shots.seat)
        n, order = len(shots.speed), (shooter, *(q.id for q in table))
        release = np.full(n, np.nan) if shots.release is None else shots.release
        shot_limits(setup.layout, seat, setup.params).check_arrays(
            shots.speed, shots.angle, shots.offset, np.where(np.isnan(release), seat.foul, release)
        )
        out = _empty(order, n)
        before = at_rest(setup.layout, setup.face, table, setup.params)
        for s in range(n):
            shot = shots.shot(s, shooter)
            try:
                result = self.simulate(setup, table, shot)
            except UserError:
                if shots.refuse:
                    raise
                at = seat.to_world(seat.foul if shot.release is None else shot.release, shot.offset)
                foul = PawnRest(shooter, shots.seat, at[0], at[1], Status.FOUL)
                result = ShotResult(setup.face.name, shooter, (foul, *before), engine=self.name)
                out.refused[s] = True
            _fill(out, s, result)
        return out


def progress_note(note: str, done: int, total: int, seconds: float) -> str:
    """``note`` with the parts done of ``total`` and, once a few are done, an estimate of the
    seconds left at the pace so far."""
    line = f"{note}: part {done} of {total}"
    if done >= 3 and done < total:
        line += f", about {seconds / done * (total - done):.0f} s left"
    return line


class ExactEngine(Engine):
    """The exact, event-driven engine: compiled (numba) the first time a shot asks for it."""

    name = "exact"

    def load(self) -> None:
        _exact()

    def cold(self) -> bool:
        from sliders.physics.exact.compile import compile_needed

        return compile_needed()

    def prepare(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Compiled, when it must be (the install compiles it: docs/model.md), in a child process
        (so that a window drawing meanwhile does not wait for the compiler), then loaded here from
        numba's cache."""
        exact = _exact()
        if exact.compile.compile_needed():
            exact.compile.compile_in_child(progress)
        exact.ensure_compiled(quiet=True)

    def start(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> Simulation:
        sim: Simulation = _exact().ExactSimulation(
            setup.layout, setup.face, table, shot, setup.params, shot.seed
        )
        return sim

    def run_all(self, sims: Sequence[Simulation]) -> None:
        """The shots not yet run solved together in one compiled call, each bit for bit as its
        own ``run()`` solves it (:func:`sliders.physics.exact.simulation.run_fresh`)."""
        _exact().simulation.run_fresh(sims)

    def simulate_many(self, setup: Setup, table: Sequence[PlacedPawn], shots: Shots) -> BatchResult:
        """The whole batch solved inside compiled code (each shot as :meth:`simulate` gives it)."""
        rows: BatchResult = _exact().batch.simulate_batch(
            setup.layout, setup.face, table, shots.seat, shots.speed, shots.angle, shots.offset,
            shots.release, setup.params, shots.seeds, shots.pawn, refuse=shots.refuse,
        )  # fmt: skip
        return rows


class PymunkEngine(Engine):
    """The pymunk engine: a fixed-step Chipmunk world, the cross-check of the exact one."""

    name = "pymunk"

    def start(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> Simulation:
        return pymunk_engine.PymunkSimulation(
            setup.layout, setup.face, table, shot, setup.params, shot.seed
        )

    def check(self, setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> None:
        sim = pymunk_engine.PymunkSimulation(
            setup.layout, setup.face, table, shot, setup.params, shot.seed
        )
        # give the shot's space back now: one kept to the end of the interpreter can be freed
        # after the physics library is torn down (a crash at exit, seen after a Dask run)
        sim.world.release()


REGISTRY: dict[str, Engine] = {e.name: e for e in (ExactEngine(), PymunkEngine())}
"""The engines by name (:data:`~sliders.core.outcome.ENGINES`)."""


@dataclass(frozen=True)
class Shots:
    """Many shots from ``seat``: speeds m/s, angles rad right of straight, offsets m right of
    the lane's axis, releases m from the lane's near end (None, or NaN in a row: the foul
    line), ``seeds`` one per shot (None: none), ``pawn`` the pawn slid (None: the seat's next in
    hand). A shot the physics refuses (its release point taken, or past the end of the lane) is
    a UserError, or with ``refuse=False`` a row marked ``refused``, left unsimulated: the shot
    pawn a foul where it was let go, the table as it was."""

    seat: str
    speed: np.ndarray
    angle: np.ndarray
    offset: np.ndarray
    release: np.ndarray | None = None
    seeds: np.ndarray | None = None
    pawn: str | None = None
    refuse: bool = True

    def __post_init__(self) -> None:
        speed = np.asarray(self.speed, dtype=np.float64)
        n = speed.shape[0]
        object.__setattr__(self, "speed", speed)
        for name in ("angle", "offset"):
            value = np.asarray(getattr(self, name), dtype=np.float64)
            object.__setattr__(self, name, np.broadcast_to(value, (n,)))

    def shot(self, s: int, pawn: str | None = None) -> Shot:
        """Shot ``s`` as one :class:`~sliders.core.outcome.Shot`."""
        release = None if self.release is None else float(self.release[s])
        return Shot(
            self.seat,
            float(self.speed[s]),
            float(self.angle[s]),
            float(self.offset[s]),
            None if release is None or math.isnan(release) else release,
            pawn or self.pawn,
            None if self.seeds is None else int(self.seeds[s]),
        )


def require_engine(name: str | None) -> str:
    """The engine's name (None: the default), once it is known to load (a one-line UserError
    otherwise)."""
    found = REGISTRY[check_engine(name)]
    found.load()
    return found.name


def simulate(setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> ShotResult:
    """Slide ``shot`` onto ``table`` and run the world in ``setup`` until every pawn is at rest
    or removed (or the shot times out: ``result.settled`` is then False)."""
    return REGISTRY[setup.engine].simulate(setup, table, shot)


def simulate_many(setup: Setup, table: Sequence[PlacedPawn], shots: Shots) -> BatchResult:
    """Every shot of ``shots`` slid onto ``table`` in ``setup``, each as :func:`simulate` runs
    it, as arrays."""
    return REGISTRY[setup.engine].simulate_many(setup, table, shots)


def simulate_each(
    setup: Setup, tables: Sequence[Sequence[PlacedPawn]], shots: Sequence[Shot]
) -> list[ShotResult]:
    """Shot ``k`` of ``shots`` slid onto ``tables[k]`` in ``setup``, each result (its events
    too) bit for bit what :func:`simulate` gives; the exact engine solves them in one compiled
    call (:func:`run_all`). A shot the physics refuses is a UserError, as in :func:`simulate`."""
    sims = [start(setup, table, shot) for table, shot in zip(tables, shots, strict=True)]
    run_all(sims)
    return [sim.result() for sim in sims]


def run_all(sims: Sequence[Simulation]) -> None:
    """Run every simulation of ``sims`` (shots set up by :func:`start`, each on its own table,
    in any set-ups) to rest, each bit for bit as its own ``run()`` would; the exact engine
    solves those not yet run in one compiled call."""
    for name in sorted({sim.engine for sim in sims}):
        REGISTRY[name].run_all([sim for sim in sims if sim.engine == name])


def start(setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> Simulation:
    """``shot`` slid onto ``table`` in ``setup``, set up to be stepped (see :class:`Simulation`)."""
    return REGISTRY[setup.engine].start(setup, table, shot)


def check_shot(setup: Setup, table: Sequence[PlacedPawn], shot: Shot) -> None:
    """Set ``shot`` up without running it: a UserError for a shot or table the physics refuses
    (pawns off the table or overlapping, no pawn in hand, the release point taken or off the
    lane)."""
    REGISTRY[setup.engine].check(setup, table, shot)


@functools.lru_cache(maxsize=64)
def _check_params(params: PhysicsParams) -> None:
    """``params.check()``, once for each set of parameters. The engines' own entry points take
    any values (their tests reach past the legal ranges); a shot set up here is checked."""
    params.check()


def _exact() -> ModuleType:
    """The exact engine's package (its ``batch`` module loaded too), imported
    when a shot first asks for it: it loads numba and compiles its kernels, which ``import
    sliders.physics`` must not do (a one-line UserError if it cannot)."""
    try:
        import sliders.physics.exact.batch
    except ImportError as exc:
        raise UserError(f"engine 'exact' cannot load: {exc}") from None
    return sliders.physics.exact


def _empty(order: tuple[str, ...], n: int) -> BatchResult:
    m = len(order)
    return BatchResult(
        order,
        status=np.zeros((n, m), dtype=np.int8),
        points=np.zeros((n, m), dtype=np.int16),
        x=np.zeros((n, m)),
        y=np.zeros((n, m)),
        settle_time=np.zeros(n),
        contacts=np.zeros(n, dtype=np.int64),
        settled=np.zeros(n, dtype=np.bool_),
        refused=np.zeros(n, dtype=np.bool_),
    )


_CODES = {s: i for i, s in enumerate(STATUSES)}


def _fill(out: BatchResult, s: int, result: ShotResult) -> None:
    """Row ``s`` of ``out`` from one shot's result."""
    for c, p in enumerate(result.pawns):
        out.status[s, c], out.points[s, c] = _CODES[p.status], p.points
        out.x[s, c], out.y[s, c] = p.x, p.y
    out.settle_time[s] = result.settle_time
    out.contacts[s] = sum(1 for e in result.events if e.type is EventType.CONTACT)
    out.settled[s] = result.settled
