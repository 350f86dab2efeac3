"""The rules of the pawn model that both engines implement, written once (docs/model.md).

The pymunk engine (:mod:`sliders.physics.pymunk_engine`) calls these functions; the exact engine's
compiled kernels (:mod:`sliders.physics.exact`) follow them line for line, since compiled code
cannot call Python, and it draws the knock-over thresholds here. ``tests/physics/test_model_spec.py``
checks every rule in both engines with the same assertions.

- **Knock-over**: a contact's *normal* impulse ``J_n`` (rim friction never topples a pawn) is
  tested for each pawn that receives it against that pawn's threshold for the shot
  (:func:`knock_over_thresholds`), times ``knock_over_moving_factor`` if the pawn was moving
  before the contact (:func:`topples`). A toppled pawn keeps sliding and hitting for
  ``topple_time`` and then leaves the table, its place the one where it toppled.
- **The hole**: its base fits in the hole when its centre is within the capture radius
  ``R − r`` (:func:`capture_radius`); none fits when the base is as wide as the hole or wider.
  A pawn whose centre stays within it for ``drop_time`` drops in, as does one coming to rest
  within it; a pawn crossing the rim outward climbs out of its dip or rolls back
  (:func:`climb_out`).
- **Rest**: a shot has settled when no pawn translates (speed above ``REST_SPEED``); spin alone
  never keeps it going.
"""

from __future__ import annotations

import math

import numpy as np

from sliders.physics.params import PhysicsParams

REST_SPEED = 1e-6
"""a pawn slower than this (m/s) does not translate: the shot settles when every pawn is"""


def knock_over_thresholds(params: PhysicsParams, rng: np.random.Generator, n: int) -> np.ndarray:
    """Each of ``n`` pawns' knock-over threshold for one shot (N·s), in the order the shot
    lists its pawns (the shooter first, then the table's), drawn at the start of the shot.

    With ``knock_over_spread = s = 0`` every threshold is ``T = knock_over_impulse`` and nothing
    is drawn. With ``s > 0`` each is ``T + s·logit(U)``, logistic around ``T`` with scale ``s``
    and conditioned on being positive (``U`` uniform between F(0) and 1, F the logistic's
    distribution function): one impulse ``J`` topples a pawn at rest with probability
    ``(F(J) − F(0)) / (1 − F(0))``, ``F(J) = 1/(1 + exp(−(J − T)/s))`` — the logistic law when
    ``s`` is small against ``T`` (F(0) < 5e-5 for s ≤ T/10), and never a topple from a touch of
    no force, whatever the spread. One draw a pawn a shot: a pawn pushed many times is not
    given many chances, so the result does not depend on how an engine splits a push into
    impulses.
    """
    t, s = params.knock_over_impulse, params.knock_over_spread
    if s <= 0:
        return np.full(n, t)
    floor = 1.0 / (1.0 + math.exp(min(t / s, 700.0)))  # F(0)
    u = floor + (1.0 - floor) * rng.random(n)
    u = np.clip(u, max(floor, 1e-300), 1 - 1e-16)
    # math.log, not numpy's: numpy's own vector logarithm differs in the last bit from one
    # processor to another (AVX-512 or not), and a shot must give the same bits on every machine
    return np.array([max(t + s * math.log(v / (1 - v)), 0.0) for v in u.tolist()])


def topples(impulse: float, threshold: float, was_moving: bool, params: PhysicsParams) -> bool:
    """Whether a pawn with knock-over ``threshold`` receiving the normal ``impulse`` topples:
    above the threshold, times ``knock_over_moving_factor`` when it was moving before."""
    if was_moving:
        threshold *= params.knock_over_moving_factor
    return impulse > threshold


def capture_radius(hole_radius: float, params: PhysicsParams) -> float:
    """How near the hole's centre a pawn's centre must be for its base to fit in the hole:
    ``hole_radius − pawn_radius``; 0 or less (no face without a hole, or a base at least as
    wide as the hole) means no pawn ever drops in (at rest over the hole it is ``hole_edge``)."""
    if hole_radius <= 0:
        return -1.0
    return hole_radius - params.pawn_radius


def climb_out(vn: float, tau: float, params: PhysicsParams) -> float:
    """A pawn's centre reaches the hole's rim moving outward at ``vn`` after ``tau`` seconds
    over the hole: its ball has dipped ``d = min(h, g·τ²/2)`` and must climb. Returns its new
    outward speed: ``√(vn² − 2·g·d)`` when it climbs out (> 0), or ``−restitution_rail·vn``
    when it rolls back in (< 0)."""
    dip = min(params.hole_drop_height, 0.5 * params.g * tau * tau)
    need = 2 * params.g * dip
    if vn * vn > need:
        return math.sqrt(vn * vn - need)
    return -params.restitution_rail * vn
