"""Playing a tournament: every pairing of the players plays ``games`` two-seat games, each
seeded from the tournament's seed, in worker processes; each finished game is one JSON line
appended to the results file, so a tournament interrupted (Ctrl-C, a crash) resumes where it
stopped when run again with the same settings.

In a pairing's game ``i`` the two players swap seats every game (the first player takes the first
seat in even games), and the first seat slides first, so each player starts half the games.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

import numpy as np

from sliders.boards import worth
from sliders.core.errors import UserError
from sliders.core.fileio import read_text, write_text_atomic
from sliders.core.outcome import Status
from sliders.game import HeadlessGame
from sliders.rules import HOME, InstantHome, PawnRemoved, Penalty
from sliders.tournament.players import make_player

KIND = "sorry-sliders-tournament"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Settings:
    """What a tournament plays: the results file's first line, checked on resume."""

    players: tuple[str, ...]
    games: int
    face: str
    layout: str
    seats: tuple[str, str]
    seed: int
    max_rounds: int
    engine: str = "pymunk"
    """the physics engine of the games' shots, and of the searches of the players that simulate
    shot by shot (the planner plans in the exact engine's batch path whatever it is)"""

    def header(self) -> dict[str, Any]:
        return {"kind": KIND, "version": VERSION, **asdict(self)}

    def pairings(self) -> list[tuple[str, str]]:
        return list(combinations(self.players, 2))

    def schedule(self) -> list[tuple[int, int]]:
        """Every game as (pairing index, game index), interleaved so a partial run covers every
        pairing evenly."""
        return [(p, g) for g in range(self.games) for p in range(len(self.pairings()))]


@dataclass(frozen=True, slots=True)
class Job:
    settings: Settings
    pairing: int
    game: int
    cwd: str


def game_seed(settings: Settings, pairing: int, game: int) -> int:
    seq = np.random.SeedSequence([settings.seed, pairing, game])
    return int(seq.generate_state(2, np.uint32).view(np.uint64)[0] >> np.uint64(1))


def play_game(job: Job) -> dict[str, Any]:
    """One game of a pairing, to its end (or ``max_rounds``: a draw); its record."""

    if job.cwd and job.cwd not in sys.path:  # a user's player module beside the command
        sys.path.insert(0, job.cwd)
    s = job.settings
    a, b = s.pairings()[job.pairing]
    names = (a, b) if job.game % 2 == 0 else (b, a)
    seat_of = dict(zip(s.seats, names, strict=True))
    seed = game_seed(s, job.pairing, job.game)
    streams = np.random.SeedSequence(seed).spawn(len(s.seats))
    players = {
        seat: make_player(seat_of[seat], seat, np.random.default_rng(stream), s.engine)
        for seat, stream in zip(s.seats, streams, strict=True)
    }
    g = HeadlessGame(
        s.face, s.layout, s.seats, seed, starter=s.seats[0], engine=s.engine,
        max_rounds=s.max_rounds,
    )  # fmt: skip
    g.prepare(players)  # a computer measures its hand's odds before the clock runs
    stats = {
        seat: {"shots": 0, "points": 0, "think": 0.0, "think_max": 0.0, "penalties": 0}
        for seat in s.seats
    }
    holes = {seat: {"hole": 0, "hole_spaces": 0} for seat in s.seats}
    on_shot = False
    while not g.over:
        out = g.step(players)
        if out is None:  # a round scored
            continue
        rest = out.result.pawn(out.result.shooter)
        st = stats[out.shot.seat]
        st["shots"] += 1
        st["points"] += worth(rest.choices) if rest.status.in_play else 0
        st["think"] += out.think
        st["think_max"] = max(st["think_max"], out.think)
        _count_hole(out.happened, holes)
        for h in out.happened:  # a penalty that sent a scoring pawn back, charged to its owner
            if isinstance(h, Penalty) and h.scoring is not None:
                stats[h.seat]["penalties"] += 1
        on_shot = g.over  # an instant win (Instant Home's last jump), not a round's scoring
    draw = g.drawn
    winner = None if draw else seat_of[g.winner] if g.winner else None
    return {
        "pairing": job.pairing,
        "game": job.game,
        "seed": seed,
        "seats": seat_of,
        "winner": winner,
        "winner_seat": None if draw else g.winner,
        "ended_on_shot": g.over and on_shot,
        "rounds": g.state.round,  # a draw: the cap + 1, the round the cap stopped
        "players": {seat_of[seat]: st for seat, st in stats.items()},
        "by_seat": {
            seat: {**holes[seat], "progress": sum(g.state.player(seat).board)} for seat in s.seats
        },
    }


def _count_hole(happened: Sequence[Any], holes: dict[str, dict[str, int]]) -> None:
    """Add a shot's doings of the centre hole to each seat's tally: ``hole`` roller pawns
    dropped in, ``hole_spaces`` the spaces its scoring pawns moved for it (Instant Home's jumps
    HOME count +, Instant Sorry!'s penalties -)."""
    in_hole = {
        h.pawn for h in happened if isinstance(h, PawnRemoved) and h.status is Status.IN_HOLE
    }
    for h in happened:
        if isinstance(h, PawnRemoved) and h.pawn in in_hole:
            holes[h.seat]["hole"] += 1
        elif isinstance(h, InstantHome) and h.scoring is not None:
            holes[h.seat]["hole_spaces"] += HOME - h.from_square
        elif isinstance(h, Penalty) and h.cause in in_hole and h.scoring is not None:
            holes[h.seat]["hole_spaces"] -= h.from_square


def read_results(path: str, settings: Settings) -> list[dict[str, Any]]:
    """The games already in ``path`` (none if it does not exist); :class:`UserError` if it holds
    another tournament. A torn last line (the run was killed while writing it) is dropped."""
    if not os.path.exists(path):
        return []
    lines = read_text(path, "results file", limit=1 << 30).splitlines()
    if not lines:
        return []
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise UserError(f"{path}: not a tournament results file") from None
    if not isinstance(header, dict) or header.get("kind") != KIND:
        raise UserError(f"{path}: not a tournament results file")
    want = json.loads(json.dumps(settings.header()))
    if header != want:
        diff = next(k for k in want if header.get(k) != want[k])
        raise UserError(
            f"{path} holds another tournament ({diff} {header.get(diff)!r}, not {want[diff]!r}): "
            "choose another --results file"
        )
    games: list[dict[str, Any]] = []
    for i, line in enumerate(lines[1:], start=2):
        try:
            games.append(json.loads(line))
        except json.JSONDecodeError:
            if i != len(lines):
                raise UserError(f"{path}, line {i}: not a game record") from None
    return games


def run(
    settings: Settings,
    path: str,
    jobs: int,
    on_game: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play every game of ``settings`` not yet in ``path``, appending each as it finishes; all
    the games, in schedule order."""
    done = read_results(path, settings)
    have = {(r["pairing"], r["game"]) for r in done}
    todo = [k for k in settings.schedule() if k not in have]
    rewrite(path, settings, done)  # drops a torn line, writes the header of a new file
    total = len(settings.schedule())
    cwd = os.getcwd()
    with open(path, "a", encoding="utf-8") as fh:
        for record in _play(settings, todo, jobs, cwd):
            fh.write(json.dumps(record, sort_keys=True) + "\n")
            fh.flush()
            done.append(record)
            if on_game:
                on_game(len(done), total)
    order = {k: i for i, k in enumerate(settings.schedule())}
    return sorted(done, key=lambda r: order.get((r["pairing"], r["game"]), -1))


def _play(
    settings: Settings, todo: Sequence[tuple[int, int]], jobs: int, cwd: str
) -> Iterator[dict[str, Any]]:
    """The games ``todo`` as they finish, on ``jobs`` worker processes. Workers ignore Ctrl-C
    (the command decides): when the caller stops (an exception, Ctrl-C, a closed generator) the
    workers are ended at once and the games they were playing are left for a resumed run."""
    for _, record in play_jobs([Job(settings, p, g, cwd) for p, g in todo], jobs):
        yield record


def play_jobs(work: Sequence[Job], jobs: int) -> Iterator[tuple[Job, dict[str, Any]]]:
    """The games of ``work`` (of one tournament or several) as they finish, each with its job,
    on ``jobs`` worker processes (see :func:`_play`)."""
    if jobs <= 1 or len(work) <= 1:
        for job in work:
            yield job, play_game(job)
        return

    ctx = multiprocessing.get_context("forkserver")
    pool = ctx.Pool(min(jobs, len(work)), initializer=_worker_start)
    try:
        yield from pool.imap_unordered(_play_job, work, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _play_job(job: Job) -> tuple[Job, dict[str, Any]]:
    return job, play_game(job)


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def rewrite(path: str, settings: Settings, games: list[dict[str, Any]]) -> None:
    """``path`` as a results file of ``settings`` holding ``games`` (written whole)."""

    lines = [json.dumps(settings.header(), sort_keys=True)]
    lines += [json.dumps(r, sort_keys=True) for r in games]
    write_text_atomic(path, "\n".join(lines) + "\n")
