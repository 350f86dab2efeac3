"""Playing a tournament: every pairing of the players plays ``games`` two-seat games, each
seeded from the tournament's seed, in worker processes; each finished game is one JSON line
appended to the results file, so a tournament interrupted (Ctrl-C, a crash) resumes where it
stopped when run again with the same settings.

In a pairing's game ``i`` the two players swap seats every game (the first player takes the first
seat in even games), and the first seat slides first, so each player starts half the games.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from itertools import chain, combinations, islice
from typing import Any

import numpy as np

from sliders.batch.runners import POLL, drop_workers, forkserver_context, worker_init
from sliders.boards import worth
from sliders.core import checks
from sliders.core.errors import UserError
from sliders.core.fileio import parse_json, read_text, write_text_atomic
from sliders.core.outcome import Status
from sliders.core.signals import held_stops
from sliders.game import HeadlessGame
from sliders.physics import PhysicsParams
from sliders.rules import HOME, InstantHome, PawnRemoved, Penalty
from sliders.tournament.players import make_player

KIND = "sorry-sliders-tournament"
VERSION = 1
MAX_GAMES = 100_000
"""the most games one tournament plays (every pairing's together): days of play, a results file of
tens of megabytes, all of it held in memory for the report"""
RESULTS_LIMIT = 256 * 2**20
"""bytes: the largest results file read (:data:`MAX_GAMES` games take about 60 MB)"""


class WorkerLost(Exception):
    """A worker process died (killed from outside): the games finished are kept."""


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
    params: tuple[tuple[str, float], ...] = ()
    """the physics parameters that differ from the defaults (``--params FILE``, ``--param``), by
    name; recorded in the results file's first line beside the engine"""
    house: tuple[str, ...] = ()
    """the house rules every game is played with (``--house-rule``, :mod:`sliders.rules.house`);
    recorded in the results file's first line when there are any"""

    def header(self) -> dict[str, Any]:
        head = {"kind": KIND, "version": VERSION, **asdict(self)}
        head["params"] = dict(self.params)
        if not self.params:  # the defaults: a results file as it was before parameters were kept
            del head["params"]
        head["house"] = list(self.house)
        if not self.house:  # the rulebook's rules: a results file as it was before house rules
            del head["house"]
        return head

    def physics(self) -> PhysicsParams | None:
        """The games' physics parameters (None: the defaults)."""
        return PhysicsParams.default().replace(**dict(self.params)) if self.params else None

    def pairings(self) -> list[tuple[str, str]]:
        return list(combinations(self.players, 2))

    @property
    def total(self) -> int:
        """how many games the tournament plays"""
        return self.games * len(self.pairings())

    def schedule(self) -> Iterator[tuple[int, int]]:
        """Every game as (pairing index, game index), interleaved so a partial run covers every
        pairing evenly; made as they are played, never held all at once."""
        n = len(self.pairings())
        return ((p, g) for g in range(self.games) for p in range(n))

    def check(self) -> None:
        """:class:`UserError` if the tournament is too long to play (:data:`MAX_GAMES`)."""
        n = len(self.pairings())
        if self.games > MAX_GAMES or self.total > MAX_GAMES:
            raise UserError(
                f"--games {self.games}: {n} pairing{'s' if n > 1 else ''} × {self.games:,} games "
                f"is more than {MAX_GAMES:,} games; give fewer"
            )


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
        max_rounds=s.max_rounds, params=s.physics(), house=s.house,
    )  # fmt: skip
    g.prepare(players)  # a computer measures its hand's odds before the clock runs
    for player in players.values():  # a network player's bot is told the game begins
        begin = getattr(player, "begin", None)
        if callable(begin):
            begin(g)
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
    for player in players.values():
        end = getattr(player, "end", None)
        if callable(end):
            end(g)
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


OPTIONAL_HEADER_KEYS = frozenset({"params", "house"})
"""header keys written only when they differ from the defaults"""
GAME_KEYS = frozenset({"pairing", "game", "seed", "seats", "winner", "rounds", "players"})
"""every game record has these (the first results files had only these)"""
NEWER_GAME_KEYS = frozenset({"winner_seat", "ended_on_shot", "by_seat"})
"""written since, checked when present"""
STAT_KEYS = frozenset({"shots", "points", "think", "think_max"})
HOLE_KEYS = frozenset({"hole", "hole_spaces", "progress"})


def read_results(path: str, settings: Settings) -> list[dict[str, Any]]:
    """The games already in ``path`` (none if it does not exist); :class:`UserError` if it holds
    another tournament, or a line that is not one of its games (read strictly: see
    :func:`check_game`), or a game twice. A torn last line (the run was killed while writing it)
    is dropped."""
    if not os.path.lexists(path):
        return []
    lines = read_text(path, "results file", limit=RESULTS_LIMIT).splitlines()
    if not lines:
        return []
    try:
        header = parse_json(lines[0], f"{path}, line 1")
    except UserError:
        raise UserError(f"{path}: not a tournament results file") from None
    if not isinstance(header, dict) or header.get("kind") != KIND:
        raise UserError(f"{path}: not a tournament results file")
    version = header.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise UserError(
            f"{path}: a results file of version {version}, from a newer sliders (this one reads "
            f"version {VERSION})"
        )
    want = json.loads(json.dumps(settings.header()))
    unknown = sorted(set(header) - set(want) - OPTIONAL_HEADER_KEYS)
    if unknown:
        raise UserError(f"{path}: its header has an unknown key {unknown[0]!r}")
    if header != want:
        diff = next(k for k in (*want, *header) if header.get(k) != want.get(k))
        had, asked = _difference(header.get(diff), want.get(diff))
        raise UserError(
            f"{path} holds another tournament ({diff} {had}, not {asked}): choose another "
            "--results file"
        )
    games: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    pairings = settings.pairings()
    for i, line in enumerate(lines[1:], start=2):
        where = f"{path}, line {i}"
        try:
            record = parse_json(line, where)
        except UserError:
            if i == len(lines) and not line.rstrip().endswith("}"):
                break  # torn by a kill as it was written
            raise
        check_game(record, settings, pairings, where)
        key = (record["pairing"], record["game"])
        if key in seen:
            raise UserError(f"{where}: game {key[1]} of pairing {key[0]} is there twice")
        seen.add(key)
        games.append(record)
    return games


def _difference(had: Any, asked: Any) -> tuple[str, str]:
    """Two settings that differ, shown so that they read differently: a list of names as the
    flag is written (``cpu:easy,centre``), and where the two are the same length, the first
    place they differ as well."""

    def plain(value: Any) -> str:
        if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
            return ",".join(str(v) for v in value)
        return json.dumps(value, sort_keys=True)

    a, b = plain(had), plain(asked)
    if len(a) > 60 or len(b) > 60:
        if isinstance(had, list) and isinstance(asked, list):
            i = next((k for k, (x, y) in enumerate(zip(had, asked, strict=False)) if x != y), None)
            if i is None:
                return f"a list of {len(had)}", f"a list of {len(asked)}"
            return f"{checks.shown(had[i])} at place {i + 1}", checks.shown(asked[i])
        return checks.shown(had), checks.shown(asked)
    return a, b


def check_game(
    record: Any, settings: Settings, pairings: Sequence[tuple[str, str]], where: str
) -> None:
    """:class:`UserError` unless ``record`` is a game of ``settings`` as :func:`play_game` writes
    it: its keys, a pairing and game that exist, its seats held by that pairing's players, a
    winner who played, counts that are whole numbers from 0 and times that are finite."""
    checks.obj(record, where, sorted(GAME_KEYS | NEWER_GAME_KEYS), sorted(GAME_KEYS))
    p = checks.whole(record["pairing"], f"{where}: pairing", 0, len(pairings) - 1)
    checks.whole(record["game"], f"{where}: game", 0, settings.games - 1)
    checks.whole(record["seed"], f"{where}: seed", 0, 2**64)
    names = set(pairings[p])
    seats = record["seats"]
    if not (
        isinstance(seats, dict)
        and all(isinstance(v, str) for v in seats.values())
        and set(seats) == set(settings.seats)
        and set(seats.values()) == names
    ):
        raise UserError(f"{where}: seats: expected {', '.join(settings.seats)} held by "
                        f"{' and '.join(pairings[p])}")  # fmt: skip
    winner = record["winner"]
    if winner is not None and (not isinstance(winner, str) or winner not in names):
        raise UserError(f"{where}: winner {checks.shown(winner)} did not play this game")
    if "winner_seat" in record:
        winner_seat = record["winner_seat"]
        if (winner is None) != (winner_seat is None) or (
            winner_seat is not None
            and (not isinstance(winner_seat, str) or seats.get(winner_seat) != winner)
        ):
            raise UserError(f"{where}: winner_seat {checks.shown(winner_seat)} is not the winner's")
    if not isinstance(record.get("ended_on_shot", False), bool):
        raise UserError(f"{where}: ended_on_shot: expected true or false")
    checks.whole(record["rounds"], f"{where}: rounds", 0, settings.max_rounds + 1)
    checks.obj(record["players"], f"{where}: players", sorted(names), sorted(names))
    for name in names:
        st = record["players"][name]
        w = f"{where}: players.{name}"
        checks.obj(st, w, sorted(STAT_KEYS | {"penalties"}), sorted(STAT_KEYS))
        shots = checks.whole(st["shots"], f"{w}.shots", 0, 10**6)
        checks.whole(st["points"], f"{w}.points", 0, 6 * max(shots, 1))
        checks.number(st["think"], f"{w}.think", 0, 1e9, "s")
        checks.number(st["think_max"], f"{w}.think_max", 0, 1e9, "s")
        if "penalties" in st:  # counted since the first results files
            checks.whole(st["penalties"], f"{w}.penalties", 0, 10**6)
    if "by_seat" not in record:
        return
    checks.obj(
        record["by_seat"],
        f"{where}: by_seat",
        sorted(set(settings.seats)),
        sorted(set(settings.seats)),
    )
    for seat in settings.seats:
        holes = record["by_seat"][seat]
        w = f"{where}: by_seat.{seat}"
        checks.obj(holes, w, sorted(HOLE_KEYS), sorted(HOLE_KEYS))
        for key in sorted(HOLE_KEYS):
            checks.whole(holes[key], f"{w}.{key}", -(10**6), 10**6)


def run(
    settings: Settings,
    path: str,
    jobs: int,
    on_game: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play every game of ``settings`` not yet in ``path``, appending each as it finishes; all
    the games, in schedule order."""
    settings.check()
    done = read_results(path, settings)
    have = {(r["pairing"], r["game"]) for r in done}
    todo = (k for k in settings.schedule() if k not in have)
    rewrite(path, settings, done)  # drops a torn line, writes the header of a new file
    cwd = os.getcwd()
    with open(path, "a", encoding="utf-8") as fh:
        for _, record in play_jobs((Job(settings, p, g, cwd) for p, g in todo), jobs):
            fh.write(json.dumps(record, sort_keys=True) + "\n")
            fh.flush()
            done.append(record)
            if on_game:
                on_game(len(done), settings.total)
    return sorted(done, key=lambda r: (r["game"], r["pairing"]))


def play_jobs(work: Iterable[Job], jobs: int) -> Iterator[tuple[Job, dict[str, Any]]]:
    """The games of ``work`` (of one tournament or several) as they finish, each with its job,
    on ``jobs`` worker processes, taking a few more jobs from ``work`` as each game ends (so a
    long tournament is never held in memory).

    Workers ignore signals (the command decides) and end with their parent however it ends
    (:func:`~sliders.batch.runners.worker_init`). While they play, a stop signal is only noted
    (:func:`~sliders.core.signals.held_stops`): raised where it landed, inside the pool's own
    locking, it could leave a lock held that the pool's shutdown then waits on for ever. Noted,
    it ends the workers at once, the games they were playing left for a resumed run, and is then
    given to its own handler (the command's raises :class:`KeyboardInterrupt`). So does a caller
    that stops (an exception, a closed generator). A worker killed from outside is
    :class:`WorkerLost`."""
    work = iter(work)
    first = list(islice(work, max(jobs, 1)))
    if jobs <= 1 or len(first) <= 1:
        for job in chain(first, work):
            yield job, play_game(job)
        return

    n = len(first)
    ctx = forkserver_context(["sliders.tournament.run"])
    with held_stops() as stops:
        yield from _pooled(chain(first, work), n, ctx, stops)


def _pooled(
    todo: Iterator[Job], n: int, ctx: Any, stops: list[int]
) -> Iterator[tuple[Job, dict[str, Any]]]:
    """:func:`play_jobs` on a pool of ``n`` workers of context ``ctx``, until ``todo`` is done or
    a stop signal is noted in ``stops``."""
    pool = ProcessPoolExecutor(n, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),))
    pending: dict[Future[dict[str, Any]], Job] = {}

    def submit() -> None:
        job = next(todo, None)
        if job is not None:
            pending[pool.submit(play_game, job)] = job

    try:
        for _ in range(2 * n):
            submit()
        while pending and not stops:
            finished, _ = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
            for fut in finished:
                if stops:
                    break
                job = pending.pop(fut)
                try:
                    record = fut.result()
                except BrokenProcessPool:
                    raise WorkerLost("a worker process was lost") from None
                submit()
                yield job, record
    finally:
        if pending:
            drop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def rewrite(path: str, settings: Settings, games: list[dict[str, Any]]) -> None:
    """``path`` as a results file of ``settings`` holding ``games`` (written whole)."""

    lines = [json.dumps(settings.header(), sort_keys=True)]
    lines += [json.dumps(r, sort_keys=True) for r in games]
    write_text_atomic(path, "\n".join(lines) + "\n")
