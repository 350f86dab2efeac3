"""How often the two engines agree on fast takeouts with toppling, and why they differ when not.

    python benchmarks/agreement.py [--shots 1000] [--seed 2027] [--dt 1920] [--near 0.5]

Two fixed corpora of takeout shots, one on race-for-home and one on instant-home (the hole under
the centre): 6–15 pawns at rest near the centre of the square 4-seat board, the south pawn
released from the foul line at 0.4–3 m/s (a head-on hit topples a pawn from about 1.8 m/s) aimed
at one of them with a small miss. Each shot runs in the exact engine (the reference: it has no
step) and in the pymunk engine at step 1/``--dt`` s. A shot *agrees* when every pawn ends with
the same status and points in both.

Prints per corpus the share of shots that agree, and sorts each disagreement by its cause, the
first that applies:

- *line*: every pawn that differs is on the table in both engines and within ``--near`` mm of a
  line where its status or points change (a ring, a track's edge, the hole's rim, the table's edge)
  in the exact engine's rest place;
- *topple*: a pawn toppled in one engine only, and the largest impulse it received in the exact
  engine is within 5 % of its threshold;
- otherwise, where the two runs' event sequences first part (the first contact, rail hit or
  removal found in one run and not in the other within 2 ms), in the exact run:
  *simultaneous*: the parting event comes within 1 ms of another event of one of its pawns
  (near-simultaneous hits, whose order decides the outcome); *hole*: it involves a pawn over
  the hole or dropping in; *graze*: a contact or rail hit of less than 2 mN·s (a slow pawn's
  path just meeting another, or just missing it); *other*: anything else (listed, with the
  shot's index).

At 1/1920 s every shot of both corpora agrees (the figures and what can still part the two
engines: docs/model.md, "Fast takeouts with toppling"); the causes sort what a coarser step, or
another seed, shows.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from dataclasses import replace

from convergence import Case, agree  # noqa: E402  (this folder: run as python benchmarks/agreement.py)
from convergence import corpus as takeouts  # noqa: E402

from sliders.boards import Face, classify, face
from sliders.core.outcome import Event, EventType, PawnRest, ShotResult, Status
from sliders.files.layouts import square
from sliders.physics import PhysicsParams, Setup, simulate

LAYOUT = square("south,west,north,east")
SEATS = ("west", "north", "east", "south")
FACES = ("race-for-home", "instant-home")


def corpus(n: int, seed: int) -> list[Case]:
    """``n`` fast crowded takeouts (0.4 to 3 m/s), the same for the same seed."""
    return takeouts(n, seed, top=3.0)


def near_a_line(board: Face, rest: PawnRest, reach: float, r: float) -> bool:
    """Whether a pawn resting at ``rest`` is within ``reach`` of a place where its status or
    points change (tried at 32 points around it, and halfway)."""
    here = classify(LAYOUT, board, rest.seat, rest.x, rest.y, r)
    for k in range(32):
        a = 2 * math.pi * k / 32
        for d in (reach, reach / 2):
            there = classify(LAYOUT, board, rest.seat, rest.x + d * math.cos(a),
                             rest.y + d * math.sin(a), r)  # fmt: skip
            if (there.status, there.points) != (here.status, here.points):
                return True
    return False


def cause(board: Face, a: ShotResult, b: ShotResult, reach: float, p: PhysicsParams) -> str:
    """Why the exact result ``a`` and the pymunk result ``b`` differ (see the module's text)."""
    r = p.pawn_radius
    differ = [
        (x, y)
        for x, y in zip(a.pawns, b.pawns, strict=True)
        if (x.status, x.points) != (y.status, y.points)
    ]
    if all(
        not x.status.removed and not y.status.removed and near_a_line(board, x, reach, r)
        for x, y in differ
    ):
        return "line"
    toppled = [
        x
        for x, y in differ
        if (x.status is Status.KNOCKED_OVER) != (y.status is Status.KNOCKED_OVER)
    ]
    if toppled:
        for x in toppled:
            hits = [
                e.impulse
                for e in a.events
                if e.type in (EventType.CONTACT, EventType.RAIL) and x.id in e.pawns
            ]
            limit = p.knock_over_impulse
            if not hits or not any(
                abs(j / t - 1) < 0.05
                for j in hits
                for t in (limit, limit * p.knock_over_moving_factor)
            ):
                return "other"
        return "topple"
    return parting(a, b)


def _key(e: Event) -> tuple[str, frozenset[str]]:
    return e.type.value, frozenset(e.pawns)


def parting(a: ShotResult, b: ShotResult) -> str:
    """Where the exact run ``a`` and the pymunk run ``b`` first part (see the module's text)."""
    kinds = (EventType.CONTACT, EventType.RAIL, EventType.KNOCKED_OVER, EventType.OFF_BOARD,
             EventType.IN_HOLE)  # fmt: skip
    ea = [e for e in a.events if e.type in kinds]
    eb = [e for e in b.events if e.type in kinds]
    used = [False] * len(eb)
    first: Event | None = None
    for e in ea:
        match = next(
            (
                k
                for k, f in enumerate(eb)
                if not used[k] and _key(f) == _key(e) and abs(f.t - e.t) < 2e-3
            ),
            None,
        )
        if match is None:
            first = e
            break
        used[match] = True
    if first is None:
        first = next((f for k, f in enumerate(eb) if not used[k]), None)
    if first is None:
        return "other"
    near = [
        e for e in ea
        if e is not first and abs(e.t - first.t) < 1e-3 and set(e.pawns) & set(first.pawns)
        and e.type in (EventType.CONTACT, EventType.RAIL)
    ]  # fmt: skip
    if near:
        return "simultaneous"
    hole = 0.015 + PhysicsParams.default().pawn_radius
    if first.type is EventType.IN_HOLE or (
        first.type is EventType.CONTACT and math.hypot(first.x, first.y) < hole
    ):
        return "hole"
    if first.type in (EventType.CONTACT, EventType.RAIL) and first.impulse < 2e-3:
        return "graze"
    return "other"


def compare(
    board_name: str, cases: list[Case], dt: float, reach: float
) -> tuple[float, Counter[str], list[int], float, float]:
    """(share agreeing, causes, indices of 'other' disagreements, exact s, pymunk s)."""
    board = face(board_name)
    p = PhysicsParams.default()
    t0 = time.process_time()
    exact = [
        simulate(Setup(LAYOUT, board, p, "exact"), c.table, replace(c.shot, seed=0)) for c in cases
    ]
    t1 = time.process_time()
    fine = p.replace(dt=dt)
    runs = [
        simulate(Setup(LAYOUT, board, fine, "pymunk"), c.table, replace(c.shot, seed=0))
        for c in cases
    ]
    t2 = time.process_time()
    causes: Counter[str] = Counter()
    others = []
    for i, (a, b) in enumerate(zip(exact, runs, strict=True)):
        if not agree(a, b):
            why = cause(board, a, b, reach, p)
            causes[why] += 1
            if why == "other":
                others.append(i)
    share = sum(agree(a, b) for a, b in zip(exact, runs, strict=True)) / len(cases)
    return share, causes, others, t1 - t0, t2 - t1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=1000, help="shots per corpus (default 1000)")
    ap.add_argument("--seed", type=int, default=2027, help="the corpora's seed (default 2027)")
    ap.add_argument("--dt", type=int, default=1920, help="the pymunk step, as 1/N s")
    ap.add_argument("--near", type=float, default=0.5, help="'near a line' distance, mm")
    args = ap.parse_args()
    reach = args.near / 1000
    print(f"takeouts, {args.shots} a corpus (seed {args.seed}), 6–15 pawns, 0.4–3 m/s; "
          f"pymunk at dt 1/{args.dt} against exact")  # fmt: skip
    print(f"{'face':<14} {'agree':>7} {'line':>5} {'topple':>7} {'simult.':>8} {'hole':>5} "
          f"{'graze':>6} {'other':>6} {'exact s':>8} {'pymunk s':>9}  other shots")  # fmt: skip
    for k, board in enumerate(FACES):
        cases = corpus(args.shots, args.seed + k)
        share, causes, others, se, sp = compare(board, cases, 1 / args.dt, reach)
        shown = ", ".join(map(str, others[:15])) + (" …" if len(others) > 15 else "")
        print(f"{board:<14} {share:>7.1%} {causes['line']:>5} {causes['topple']:>7} "
              f"{causes['simultaneous']:>8} {causes['hole']:>5} {causes['graze']:>6} "
              f"{causes['other']:>6} {se:>8.1f} {sp:>9.1f}  {shown}")  # fmt: skip
    print(
        f"\nline: every differing pawn within {args.near:g} mm of a line where its status or "
        "points change; topple: toppled in one engine only, the exact impulse within 5 % of "
        "the threshold; cpu seconds."
    )


if __name__ == "__main__":
    main()
