"""The rules of Sorry! Sliders as a pure engine: Race for Home, Instant Home, Instant Sorry! and
Danger Dots, for 1 to 4 players.

Start with :func:`new_game` (or a :class:`Game`, which also keeps the history; both can start
from given score boards), apply each shot's :class:`ShotResult` with :func:`apply_shot`, and
when the phase is SCORING call :func:`score_round` with each seat's chosen :class:`Move`
assignment (or none: the default). No physics and no pygame here: the same engine keeps score
for the physical game.

Everything a caller needs to describe a shot is exported here: a :class:`ShotResult` lists
every pawn's :class:`PawnRest` (its :class:`Status`, and the points it offers), with the
shot's :class:`Event` records (:class:`EventType`) when the order of removals matters; pawns
are named by :func:`pawn_id`. What each game means is its face's record (:class:`Face`,
:class:`HoleRule`), which the rules read.
"""

from sliders.boards.faces import DEFAULT_FACE, FACES, Face, HoleRule
from sliders.core.outcome import Event, EventType, PawnRest, ShotResult, Status, pawn_id

from .engine import (
    apply_shot,
    check_shot,
    default_assignment,
    default_assignments,
    drawn,
    instant_home_default,
    penalised,
    penalty_target,
    removal_order,
    score_round,
    spared_penalties,
)
from .gamelog import (
    CHOSEN_BY,
    SCHEMA,
    SLID_BY,
    Game,
    LayoutRef,
    ScoreStep,
    ShotStep,
    Step,
    log_head,
    log_text,
    step_text,
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
from .house import CORNERS_ONLY, HOUSE_RULES, NO_KNOCK_PENALTY
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
    check_board,
    new_game,
    parse_house,
    parse_seat,
    pawn_label,
)

__all__ = [
    "CORNERS_ONLY",
    "HOUSE_RULES",
    "NO_KNOCK_PENALTY",
    "CHOSEN_BY",
    "DEFAULT_FACE",
    "FACES",
    "HOME",
    "SCHEMA",
    "START",
    "Advanced",
    "Assignment",
    "Event",
    "EventType",
    "Face",
    "Game",
    "GameState",
    "Happening",
    "HoleRule",
    "InstantHome",
    "LayoutRef",
    "Move",
    "PawnRemoved",
    "PawnRest",
    "Penalty",
    "Phase",
    "PlayerState",
    "PointsLost",
    "RoundOver",
    "RoundStarted",
    "RulesError",
    "ScoreStep",
    "ShotResult",
    "SLID_BY",
    "ShotStep",
    "Status",
    "Step",
    "log_head",
    "log_text",
    "step_text",
    "TurnPassed",
    "Won",
    "apply_assignment",
    "apply_shot",
    "best_single_score",
    "check_assignment",
    "check_board",
    "check_shot",
    "default_assignment",
    "default_assignments",
    "drawn",
    "instant_home_default",
    "legal_assignments",
    "new_game",
    "parse_house",
    "parse_seat",
    "pawn_id",
    "pawn_label",
    "penalised",
    "penalty_target",
    "removal_order",
    "score_round",
    "spared_penalties",
    "scores_of",
]
