"""The exact, event-driven engine for the pawn model.

Between events every pawn's path is a quadratic in time, so the next event — a contact with a pawn
(a quartic root) or a rail (a quadratic), the centre leaving the table or crossing the hole's rim,
the end of a slide — is solved for, jumped to and resolved, with no time step. The hot loop is
compiled with numba (cached on first use).

:class:`ExactSimulation` and :func:`simulate_exact` mirror the pymunk engine's ``Simulation`` and
``simulate``; :func:`simulate_batch` runs many shots of one table inside compiled code.
"""

from sliders.physics.exact.compile import ensure_compiled
from sliders.physics.exact.simulation import ExactSimulation, simulate_exact

__all__ = ["ExactSimulation", "ensure_compiled", "simulate_exact"]
