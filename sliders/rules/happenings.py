"""What the rules did: typed records returned with every new state.

A game window animates them, the scorekeeper prints them (``describe()``), tests assert on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sliders.core.outcome import Status

from .state import colour, pawn_label, square_name


@dataclass(frozen=True, slots=True)
class PawnRemoved:
    """A roller pawn left play for the rest of the round."""

    pawn: str
    seat: str
    status: Status
    penalty: bool

    def describe(self) -> str:
        why = {
            Status.OTHER_TRACK: "stopped on another player's track",
            Status.OFF_BOARD: "went off the board",
            Status.OFF_SIDE: "went off a side of the board",
            Status.SORRY_CORNER: "rests on a SORRY! corner",
            Status.IN_HOLE: "dropped into the hole",
            Status.DANGER_DOT: "rests on a danger dot",
            Status.KNOCKED_OVER: "was knocked over",
            Status.FOUL: "was a foul",
        }[self.status]
        tail = " (penalty)" if self.penalty else ""
        return f"{pawn_label(self.pawn)} {why}: out for the round{tail}"


@dataclass(frozen=True, slots=True)
class Penalty:
    """The owner's highest non-HOME scoring pawn went back to START (``scoring`` None: nothing to
    send back, every pawn being on START or HOME)."""

    seat: str
    cause: str
    scoring: int | None
    from_square: int

    def describe(self) -> str:
        if self.scoring is None:
            return f"{colour(self.seat)} has no pawn to send back: no penalty"
        return (
            f"{colour(self.seat)} scoring pawn {self.scoring + 1} goes back to START "
            f"from {square_name(self.from_square)}"
        )


@dataclass(frozen=True, slots=True)
class InstantHome:
    """Instant Home: a roller pawn in the hole moved one of its owner's scoring pawns HOME."""

    seat: str
    cause: str
    scoring: int | None
    from_square: int

    def describe(self) -> str:
        if self.scoring is None:
            return f"{colour(self.seat)} has no scoring pawn left to move HOME"
        return (
            f"{colour(self.seat)} scoring pawn {self.scoring + 1} jumps HOME "
            f"from {square_name(self.from_square)}"
        )


@dataclass(frozen=True, slots=True)
class Advanced:
    """Round-end scoring: roller pawn ``pawn`` moved scoring pawn ``scoring`` by ``points``."""

    seat: str
    pawn: str
    scoring: int
    points: int
    from_square: int
    to_square: int

    def describe(self) -> str:
        return (
            f"{pawn_label(self.pawn)} scores {self.points}: scoring pawn {self.scoring + 1} "
            f"{square_name(self.from_square)} → {square_name(self.to_square)}"
        )


@dataclass(frozen=True, slots=True)
class PointsLost:
    """Round-end scoring: a roller pawn's points that no scoring pawn could take."""

    seat: str
    pawn: str
    points: int

    def describe(self) -> str:
        return f"{pawn_label(self.pawn)} scores {self.points} but no pawn can take it: lost"


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """Play passed to ``seat``."""

    seat: str

    def describe(self) -> str:
        return f"{colour(self.seat)} to slide"


@dataclass(frozen=True, slots=True)
class RoundOver:
    """Every roller pawn has been slid: round ``round`` is to be scored."""

    round: int

    def describe(self) -> str:
        return f"round {self.round} is over: time to score"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    starter: str

    def describe(self) -> str:
        return f"round {self.round} begins; {colour(self.starter)} slides first"


@dataclass(frozen=True, slots=True)
class Won:
    """``seat`` won, at once (Instant Home) or at the end of round ``round``."""

    seat: str
    round: int
    instant: bool

    def describe(self) -> str:
        how = "instantly, mid-round" if self.instant else f"at the end of round {self.round}"
        return f"{colour(self.seat)} has all four pawns HOME and wins {how}!"


Happening = (
    PawnRemoved
    | Penalty
    | InstantHome
    | Advanced
    | PointsLost
    | TurnPassed
    | RoundOver
    | RoundStarted
    | Won
)
