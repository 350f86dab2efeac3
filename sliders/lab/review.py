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
  hide a poor choice, nor an unlucky one blame a good choice). A log without the slides (a
  scorekeeper's) has no ``played``: its loss is ``best − after``;
- **mark**, by the loss: *good* under :data:`MARKS` ``imprecise`` (4 points), *imprecise* under
  ``mistake`` (10), *mistake* under ``blunder`` (20), *blunder* from 20 points of a percent
  (the best shot's chance is the best of many noisy means, a little optimistic: a margin of
  4 points keeps sampling noise from marking a good shot).

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
from sliders.game.saves import load_replay, replay_layout
from sliders.physics import Noise, PhysicsParams
from sliders.rules import Game, ShotStep

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
    best: float
    best_kind: str
    best_label: str
    best_speed: float
    best_angle_deg: float
    best_offset: float
    played_speed: float | None
    played_angle_deg: float | None
    played_offset: float | None
    loss: float
    mark: str
    simulations: int


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

    def to_json(self) -> dict[str, Any]:
        return {
            "face": self.face,
            "seats": list(self.seats),
            "winner": self.winner,
            "log_sha256": self.digest,
            "mind": {"simulations": REVIEW_MIND.simulations, "first": REVIEW_MIND.first},
            "marks": MARKS,
            "shots": [asdict(s) for s in self.shots],
            "curve": [dict(c) for c in self.curve],
        }

    def counts(self) -> dict[str, dict[str, int]]:
        """Each seat's number of shots of each mark."""
        out = {s: dict.fromkeys(("good", *MARKS), 0) for s in self.seats}
        for s in self.shots:
            out[s.seat][s.mark] += 1
        return out


def mark_of(loss: float) -> str:
    """The mark of a shot that lost ``loss`` points of a percent (see :data:`MARKS`)."""
    mark = "good"
    for name, limit in MARKS.items():
        if loss >= limit:
            mark = name
    return mark


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
    p = params or PhysicsParams.default()
    states = game.states
    named = {s: hand_of(game, s, hands) for s in game.seats}
    models = {s: win_model(layout, face, s, named[s][1], p) for s in game.seats}

    def chances(k: int) -> dict[str, float]:
        return {s: models[s].win_probability(states[k], s) for s in game.seats}

    curve = tuple(chances(k) for k in range(len(states)))
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
        rng = np.random.default_rng([base, i])
        search = PlanSearch(seat, hand, mind, rng, state, layout, face, p, pawn=step.result.shooter)
        search.run()
        kind, label, best = search.best_candidate()
        shot = search.best()
        before, after = curve[i][seat], curve[i + 1][seat]
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
    return Review(game.face, tuple(game.seats), states[-1].winner, tuple(shots), curve, digest)


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
    for seat, c in review.counts().items():
        lines.append(f"  {seat:<6} " + ", ".join(f"{n} {m}" for m, n in c.items()))
    worst = sorted(review.shots, key=lambda s: -s.loss)[:3]
    for s in worst:
        if s.loss <= 0:
            break
        lines.append(
            f"  shot {s.index + 1} ({s.seat}, round {s.round}): {s.mark}, chance "
            f"{s.before:.0%} → {s.after:.0%} (the shot was worth {s.played:.0%}); best {s.best_kind} ({s.best_label}) {s.best:.0%}"
        )
    return "\n".join(lines)


def dumps(review: Review) -> str:
    return json.dumps(review.to_json(), indent=2)
