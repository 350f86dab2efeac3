"""A tournament's picture: each pairing's score with its interval, and the players' ratings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sliders.core.fileio import write_atomic
from sliders.tournament.report import pairings, player_lines


def write_png(
    path: str, players: Sequence[str], games: Sequence[dict[str, Any]], title: str
) -> None:
    """A picture: the row player's score against each column player (with its 95 % interval),
    and the ratings with points per shot and seconds per decision."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    n = len(players)
    grid = np.full((n, n), np.nan)
    notes: dict[tuple[int, int], str] = {}
    for p in pairings(players, games):
        i, j = players.index(p.a), players.index(p.b)
        if not p.games:
            continue
        lo, hi = p.interval_a
        grid[i, j], grid[j, i] = p.rate_a, 1 - p.rate_a
        notes[(i, j)] = f"{100 * p.rate_a:.0f}%\n{100 * lo:.0f}–{100 * hi:.0f}\nn={p.games}"
        notes[(j, i)] = (
            f"{100 * (1 - p.rate_a):.0f}%\n{100 * (1 - hi):.0f}–{100 * (1 - lo):.0f}\nn={p.games}"
        )
    lines = player_lines(players, games)
    fig = Figure(figsize=(12, 4.8), dpi=110, layout="constrained")  # long names keep their room
    FigureCanvasAgg(fig)
    ax, bx = fig.subplots(1, 2, width_ratios=(1, 1.1))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    for (i, j), note in notes.items():
        ax.text(j, i, note, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(n), players, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(n), players, fontsize=8)
    ax.set_title(
        "row player's score against column player\n(wins + ½ draws; 95 % Wilson interval)",
        fontsize=9,
    )
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    names = [line.name for line in lines][::-1]
    elo = [line.rating for line in lines][::-1]
    bars = bx.barh(names, [e - min(elo) + 50 for e in elo], left=min(elo) - 50, color="#4a7ab8")
    for bar, line in zip(bars, lines[::-1], strict=True):
        bx.text(
            bar.get_x() + bar.get_width() + 5,
            bar.get_y() + bar.get_height() / 2,
            f"{line.rating:.0f}  ·  {line.points_per_shot:.2f} pts/shot  ·  {line.think_mean:.2f} s",
            va="center",
            fontsize=7,
        )
    bx.set_xlim(min(elo) - 50, max(elo) + 0.9 * (max(elo) - min(elo) + 100))
    bx.set_xlabel("Elo-style rating (mean 1500)", fontsize=8)
    bx.tick_params(labelsize=8)
    bx.set_title("rating · points per shot · seconds per decision", fontsize=9)
    fig.suptitle(title, fontsize=10)
    write_atomic(path, lambda fh: fig.savefig(fh, format="png"))
