"""The rules of Sorry! Sliders as a pure engine: Race for Home, Instant Home, Instant Sorry! and
Danger Dots, for 1 to 4 players.

Start with :func:`new_game` (or a :class:`Game`, which also keeps the history), apply each shot's
:class:`~sliders.outcome.ShotResult` with :func:`apply_shot`, and when the phase is SCORING call
:func:`score_round` with each seat's chosen :class:`Move` assignment (or none: the default).
No physics and no pygame here: the same engine keeps score for the physical game.
"""

from .engine import (
    apply_shot,
    check_shot,
    default_assignment,
    default_assignments,
    instant_home_default,
    penalised,
    penalty_target,
    removal_order,
    score_round,
)
from .happenings import (
    Advanced,
    Happening,
    InstantHome,
    PawnRemoved,
    Penalty,
    PointsLost,
    RoundOver,
    RoundStarted,
    TurnPassed,
    Won,
)
from .log import SCHEMA, Game, LayoutRef, ScoreStep, ShotStep, Slide, Step
from .scoring import (
    Assignment,
    Move,
    apply_assignment,
    best_single_score,
    check_assignment,
    legal_assignments,
    scores_of,
)
from .state import (
    HOME,
    START,
    GameState,
    Phase,
    PlayerState,
    RulesError,
    new_game,
    parse_seat,
    pawn_label,
)

__all__ = [
    "HOME",
    "SCHEMA",
    "START",
    "Advanced",
    "Assignment",
    "Game",
    "GameState",
    "Happening",
    "InstantHome",
    "LayoutRef",
    "Move",
    "PawnRemoved",
    "Penalty",
    "Phase",
    "PlayerState",
    "PointsLost",
    "RoundOver",
    "RoundStarted",
    "RulesError",
    "ScoreStep",
    "ShotStep",
    "Slide",
    "Step",
    "TurnPassed",
    "Won",
    "apply_assignment",
    "apply_shot",
    "best_single_score",
    "check_assignment",
    "check_shot",
    "default_assignment",
    "default_assignments",
    "instant_home_default",
    "legal_assignments",
    "new_game",
    "parse_seat",
    "pawn_label",
    "penalised",
    "penalty_target",
    "removal_order",
    "score_round",
    "scores_of",
]
