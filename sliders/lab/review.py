"""A game reviewed shot by shot: the chance of winning before and after every shot, the best shot
the one search finds from that position under the shooter's hand, and a mark.

For every shot of a saved game log (:class:`sliders.rules.Game`, replayed to its states):

- **before** and **after**: the shooter's chance of winning from the position before the shot
  and from the one it left (the one value, :func:`sliders.ai.value.win_model`, under the
  shooter's hand);
- **best**: the shot the one search (:class:`sliders.ai.planner.PlanSearch`, with the review's
  mind :data:`REVIEW_MIND`) finds from the position before, under the shooter's hand, for the
  pawn that was slid, with its chance (the search's smoothed value: the mean over its samples
  under the hand, so a best shot's chance already counts the hand's misses);
- **played**: the chance the shot as slid was worth before its outcome was known: the shot slid
  again :data:`PLAYED_SAMPLES` times under the shooter's hand (the same search, given that one
  shot), the mean of the chances it leaves; ``after − played`` is the shot's **luck**;
- **loss**: ``best − played`` in points of a percent, at least 0 (so a lucky outcome does not
  hide a poor choice, nor an unlucky one blame a good choice). A shot the log keeps no slide
  of has no ``played``: its loss is ``best − after``;
- **mark**, by the loss: *good* under :data:`MARKS` ``imprecise`` (4 points), *imprecise* under
  ``mistake`` (10), *mistake* under ``blunder`` (20), *blunder* from 20 points of a percent
  (the best shot's chance is the best of many noisy means, a little optimistic: a margin of
  4 points keeps sampling noise from marking a good shot).

Every round-end choice (how a seat moved its scoring pawns) is reviewed too: the chance of
winning the choice left against the best legal assignment's (:class:`ChoiceReview`), marked by
the same loss.

A scorekeeper's log (``sliders score --log``: a game played on the physical board) holds what
happened, not where: each shot's outcome, the round-end choices, no positions and no slides.
Its review has each seat's chance of winning after every step, the round-end choices judged,
and each shot's **luck**, the whole change of the shooter's chance (``after − before``: the
chance before already expects what the shooter's hand does on average, and without the slide
nothing of the change can be put down to the aim). The best shot, the shot's worth, its loss
and mark need the pawns' positions: those shots are *unjudged* (:func:`has_positions`).

The shooter's hand is the one the log records for a person (``hands``: ``steady``, ``normal``,
``shaky``, ``exact``); a seat the log gives no hand (a computer's, or a scorekeeper's game) is
reviewed with the ``medium`` hand, the person's ``normal``.

The review is deterministic: each shot's search draws from a generator seeded by the log's own
bytes (its SHA-256) and the shot's index, so the same log gives the same review on any machine.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from sliders.ai import MINDS, Mind, PlanSearch
from sliders.ai.value import win_model
from sliders.boards import face as face_named
from sliders.core.errors import UserError
from sliders.core.fileio import read_bytes, write_json_atomic, write_text_atomic
from sliders.game.config import HANDS
from sliders.game.saves import load_replay, params_of, replay_layout
from sliders.physics import Noise, PhysicsParams
from sliders.rules import Game, GameState, ScoreStep, ShotStep, legal_assignments
from sliders.rules.engine import score_assigned
from sliders.rules.notation import format_assignment

REVIEW_MIND: Mind = replace(MINDS["strong"], name="review")
"""The search's settings for a review: the ``strong`` computer's mind (5,000 simulations a
shot), which reviews a 40-shot game in under 30 s on one core (``python benchmarks/review.py``
measures it: about 6 s of CPU)."""

PLAYED_SAMPLES = 32
"""samples of the shot as slid, to value it under the hand"""

MARKS: dict[str, float] = {"imprecise": 4.0, "mistake": 10.0, "blunder": 20.0}
"""the loss (points of a percent of the chance of winning) from which a shot gets each mark;
below the first, *good*"""

_PLAYED = replace(
    REVIEW_MIND,
    name="played",
    simulations=PLAYED_SAMPLES,
    first=PLAYED_SAMPLES,
    samples=PLAYED_SAMPLES,
    refine=0.0,
    bandwidth=0.0,
)

UNJUDGED = "unjudged"
"""the mark of a shot of a log without positions (a scorekeeper's): its aim cannot be judged"""
NO_POSITIONS = (
    "a scorekeeper's log holds no positions: the best shot, each shot's worth, loss and mark "
    "need them (a game played with sliders play has them)"
)
"""what a review of a log without positions says it leaves out"""

DEFAULT_HAND = "medium"
"""the hand of a seat the log names none for"""


@dataclass(frozen=True, slots=True)
class ShotReview:
    """One shot's review (chances are the shooter's, 0..1; ``loss`` in points of a percent)."""

    index: int
    """the step's index in the log"""
    round: int
    seat: str
    pawn: str
    hand: str
    before: float
    after: float
    played: float
    luck: float
    best: float | None
    """None: no positions to search from (a scorekeeper's log)"""
    best_kind: str
    best_label: str
    best_speed: float | None
    best_angle_deg: float | None
    best_offset: float | None
    played_speed: float | None
    played_angle_deg: float | None
    played_offset: float | None
    loss: float
    mark: str
    simulations: int


@dataclass(frozen=True, slots=True)
class ChoiceReview:
    """One seat's round-end choice: the chance of winning the assignment it chose leaves, against
    the best legal assignment's (the others' choices as they were made)."""

    index: int
    """the step's index in the log"""
    round: int
    seat: str
    chosen: str
    """the assignment as the scorekeeper writes it (``3@0 1@5``)"""
    after: float
    best: float
    best_choice: str
    loss: float
    mark: str


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game's review: every shot, and each seat's chance of winning after every step
    (``curve[k]``: the chances before step ``k``; the last, at the end)."""

    face: str
    seats: tuple[str, ...]
    winner: str | None
    shots: tuple[ShotReview, ...]
    curve: tuple[dict[str, float], ...]
    digest: str
    choices: tuple[ChoiceReview, ...] = ()
    positions: bool = True
    """False: a log without positions (a scorekeeper's), whose shots are unjudged"""

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "face": self.face,
            "seats": list(self.seats),
            "winner": self.winner,
            "log_sha256": self.digest,
            "mind": {"simulations": REVIEW_MIND.simulations, "first": REVIEW_MIND.first},
            "marks": MARKS,
            "shots": [asdict(s) for s in self.shots],
            "choices": [asdict(c) for c in self.choices],
            "curve": [dict(c) for c in self.curve],
        }

    def counts(self) -> dict[str, dict[str, int]]:
        """Each seat's number of shots of each mark."""
        out = {s: dict.fromkeys(("good", *MARKS), 0) for s in self.seats}
        for s in self.shots:
            if s.mark != UNJUDGED:
                out[s.seat][s.mark] += 1
        return out

    def luck(self) -> dict[str, float]:
        """Each seat's luck over its shots, in points of a percent."""
        out = dict.fromkeys(self.seats, 0.0)
        for s in self.shots:
            out[s.seat] += 100.0 * s.luck
        return out


def mark_of(loss: float) -> str:
    """The mark of a shot that lost ``loss`` points of a percent (see :data:`MARKS`)."""
    mark = "good"
    for name, limit in MARKS.items():
        if loss >= limit:
            mark = name
    return mark


def has_positions(game: Game) -> bool:
    """Whether ``game``'s log says where the pawns were (it names the layout played on): a
    scorekeeper's log does not (its pawns all stand at the board's centre)."""
    return game.layout is not None


def hand_of(game: Game, seat: str, hands: Mapping[str, Noise] | None = None) -> tuple[str, Noise]:
    """The hand ``seat`` is reviewed with (its name, its noise): one given in ``hands``, else
    the one the log records for a person, else :data:`DEFAULT_HAND`."""
    if hands and seat in hands:
        return "given", hands[seat]
    name = game.hands.get(seat)
    if name in HANDS:
        return name, Noise.level(HANDS[name])
    return DEFAULT_HAND, Noise.level(DEFAULT_HAND)


def review_game(
    path: str | os.PathLike[str],
    *,
    mind: Mind = REVIEW_MIND,
    hands: Mapping[str, Noise] | None = None,
    params: PhysicsParams | None = None,
    progress: Callable[[int, int], None] | None = None,
    limit: int | None = None,
) -> Review:
    """The review of the game log at ``path`` (see the module); ``progress(done, total)`` is
    called after each shot; ``limit``: only the first that many shots are reviewed (the curve
    covers the whole game)."""
    digest = hashlib.sha256(read_bytes(path, "game log")).hexdigest()
    game = load_replay(path)
    return review_of(game, digest, mind=mind, hands=hands, params=params, progress=progress,
                     limit=limit, where=f"game log {path}")  # fmt: skip


def log_digest(game: Game) -> str:
    """The SHA-256 of the log ``game`` saves as (:meth:`Game.save`): a game reviewed in the window
    right after it was played is reviewed as its saved log is."""
    return hashlib.sha256(game.text().encode()).hexdigest()


def review_of(
    game: Game,
    digest: str,
    *,
    mind: Mind = REVIEW_MIND,
    hands: Mapping[str, Noise] | None = None,
    params: PhysicsParams | None = None,
    progress: Callable[[int, int], None] | None = None,
    limit: int | None = None,
    where: str = "game log",
) -> Review:
    """The review of ``game`` (replayed), its draws seeded by ``digest`` (the log's SHA-256, see
    :func:`log_digest`); the rest as :func:`review_game`."""
    layout = replay_layout(game)
    face = face_named(game.face)
    p = params or params_of(game)  # the physics the game was played with
    states = game.states
    named = {s: hand_of(game, s, hands) for s in game.seats}
    models = {s: win_model(layout, face, s, named[s][1], p) for s in game.seats}

    def chances(k: int) -> dict[str, float]:
        return {s: models[s].win_probability(states[k], s) for s in game.seats}

    curve = tuple(chances(k) for k in range(len(states)))
    positions = has_positions(game)
    base = int(digest[:15], 16)
    total = sum(isinstance(s, ShotStep) for s in game.steps)
    if limit is not None:
        total = min(total, limit)
    shots: list[ShotReview] = []
    for i, step in enumerate(game.steps):
        if not isinstance(step, ShotStep):
            continue
        if len(shots) >= total:
            break
        state = states[i]
        seat = state.turn
        if seat is None:
            raise UserError(f"{where}: step {i + 1} is a shot with no seat to slide")
        hand_name, hand = named[seat]
        before, after = curve[i][seat], curve[i + 1][seat]
        if not positions:
            shots.append(_unjudged(i, state.round, seat, step, hand_name, before, after))
            if progress is not None:
                progress(len(shots), total)
            continue
        rng = np.random.default_rng([base, i])
        search = PlanSearch(seat, hand, mind, rng, state, layout, face, p, pawn=step.result.shooter)
        search.run()
        kind, label, best = search.best_candidate()
        shot = search.best()
        if not math.isfinite(best):
            best = before
        slide = step.slide
        played = after
        if slide is not None:
            release = layout.seat(seat).foul if slide.release is None else slide.release
            again = PlanSearch(
                seat,
                hand,
                _PLAYED,
                np.random.default_rng([base, i, 1]),
                state,
                layout,
                face,
                p,
                shots=np.array([[slide.speed, slide.angle, slide.offset, release]]),
                pawn=step.result.shooter,
            )
            again.run()
            played = again.best_candidate()[2]
            if not math.isfinite(played):
                played = after
        loss = max(0.0, 100.0 * (best - played))
        shots.append(
            ShotReview(
                index=i,
                round=state.round,
                seat=seat,
                pawn=step.result.shooter,
                hand=hand_name,
                before=before,
                after=after,
                played=played,
                luck=after - played,
                best=best,
                best_kind=kind,
                best_label=label,
                best_speed=shot.speed,
                best_angle_deg=math.degrees(shot.angle),
                best_offset=shot.offset,
                played_speed=None if slide is None else slide.speed,
                played_angle_deg=None if slide is None else math.degrees(slide.angle),
                played_offset=None if slide is None else slide.offset,
                loss=loss,
                mark=mark_of(loss),
                simulations=search.simulations,
            )
        )
        if progress is not None:
            progress(len(shots), total)
    choices = tuple(
        c
        for i, step in enumerate(game.steps)
        if isinstance(step, ScoreStep)
        for c in _choices(i, states[i], step, models)
    )
    winner = states[-1].winner
    return Review(game.face, tuple(game.seats), winner, tuple(shots), curve, digest, choices,
                  positions)  # fmt: skip


def _unjudged(
    i: int, round: int, seat: str, step: ShotStep, hand: str, before: float, after: float
) -> ShotReview:
    """A shot of a log without positions: its chances and its luck (the whole change), no best,
    no worth, no mark."""
    return ShotReview(
        index=i,
        round=round,
        seat=seat,
        pawn=step.result.shooter,
        hand=hand,
        before=before,
        after=after,
        played=before,
        luck=after - before,
        best=None,
        best_kind="",
        best_label="",
        best_speed=None,
        best_angle_deg=None,
        best_offset=None,
        played_speed=None,
        played_angle_deg=None,
        played_offset=None,
        loss=0.0,
        mark=UNJUDGED,
        simulations=0,
    )


def _choices(
    i: int, state: GameState, step: ScoreStep, models: Mapping[str, Any]
) -> list[ChoiceReview]:
    """Each seat's choice at the round's end ``step`` (from ``state``) against its best legal
    one, the other seats' choices as made; a seat with nothing to choose is left out."""
    out = []
    for seat, chosen in step.assignments.items():
        options = legal_assignments(state, seat)
        if len(options) < 2:
            continue

        def chance(a: tuple[Any, ...], seat: str = seat) -> float:
            after, _ = score_assigned(state, {**step.assignments, seat: a})
            return float(models[seat].win_probability(after, seat))

        got = chance(tuple(chosen))
        best_a = max(options, key=chance)
        best = max(chance(best_a), got)
        loss = max(0.0, 100.0 * (best - got))
        out.append(
            ChoiceReview(
                index=i,
                round=state.round,
                seat=seat,
                chosen=format_assignment(state, seat, tuple(chosen)),
                after=got,
                best=best,
                best_choice=format_assignment(state, seat, best_a),
                loss=loss,
                mark=mark_of(loss),
            )
        )
    return out


COLUMNS = tuple(ShotReview.__dataclass_fields__)


def write_table(review: Review, path: str | os.PathLike[str]) -> None:
    """The review as a table, whole or not at all: CSV (one row a shot) or JSON (every shot, the
    curve and the settings), by the file's suffix."""
    if str(path).lower().endswith(".json"):
        write_json_atomic(path, review.to_json())
        return
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for s in review.shots:
        row = asdict(s)
        w.writerow([_cell(row[c]) for c in COLUMNS])
    write_text_atomic(path, buf.getvalue())


def _cell(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def summary(review: Review) -> str:
    """A few lines for the terminal: each seat's marks, and the biggest losses."""
    lines = [
        f"{review.face}: {', '.join(review.seats)}; "
        + (f"{review.winner} won" if review.winner else "no winner yet")
        + f"; {len(review.shots)} shots reviewed"
    ]
    if not review.positions:
        lines.append(f"  shots unjudged: {NO_POSITIONS}")
        for seat, luck in review.luck().items():
            lines.append(f"  {seat:<6} luck {luck:+.0f} points of a percent over its shots")
    else:
        for seat, c in review.counts().items():
            lines.append(f"  {seat:<6} " + ", ".join(f"{n} {m}" for m, n in c.items()))
    poor = [c for c in review.choices if c.mark != "good"]
    lines.append(
        f"  round-end choices: {len(review.choices) - len(poor)} of {len(review.choices)} good"
    )
    for ch in sorted(poor, key=lambda ch: -ch.loss)[:3]:
        lines.append(
            f"  round {ch.round} ({ch.seat}): {ch.mark}, chose {ch.chosen} ({ch.after:.0%}); "
            f"best {ch.best_choice} ({ch.best:.0%})"
        )
    worst = sorted(review.shots, key=lambda s: -s.loss)[:3]
    for s in worst:
        if s.loss <= 0:
            break
        lines.append(
            f"  shot {s.index + 1} ({s.seat}, round {s.round}): {s.mark}, chance "
            f"{s.before:.0%} → {s.after:.0%} (the shot was worth {s.played:.0%}); best "
            f"{s.best_kind} ({s.best_label}) {s.best or 0:.0%}"
        )
    return "\n".join(lines)


def dumps(review: Review) -> str:
    return json.dumps(review.to_json(), indent=2)
