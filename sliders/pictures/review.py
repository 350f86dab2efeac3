"""A game review's picture: each seat's chance of winning over the game, the shots marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sliders.core.fileio import write_atomic
from sliders.core.outcome import SEAT_COLOURS
from sliders.pictures.table import INK

MARK_STYLE = {
    "imprecise": ("#e0b000", "?!"),
    "mistake": ("#e07000", "?"),
    "blunder": ("#c00000", "??"),
}


def write_review_png(
    path: str,
    seats: Sequence[str],
    curve: Sequence[Mapping[str, float]],
    shots: Sequence[Mapping[str, Any]],
    title: str,
) -> None:
    """Each seat's chance of winning before every step of the game and at its end (one line a
    seat, in its colour), each marked shot flagged on its shooter's line at the step after it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    steps = range(len(curve))
    for seat in seats:
        colour = INK.get(SEAT_COLOURS.get(seat, ""), "grey")
        ax.plot(
            steps,
            [100 * c[seat] for c in curve],
            color=colour,
            lw=1.8,
            label=f"{seat} ({SEAT_COLOURS.get(seat, seat)})",
        )
    for s in shots:
        style = MARK_STYLE.get(s["mark"])
        if style is None:
            continue
        k = s["index"] + 1
        y = 100 * curve[k][s["seat"]]
        ax.plot([k], [y], "o", ms=7, mfc=style[0], mec="black", mew=0.6)
        ax.annotate(
            style[1],
            (k, y),
            textcoords="offset points",
            xytext=(0, 7),
            ha="center",
            fontsize=8,
            color=style[0],
        )
    ax.set_ylim(0, 100)
    ax.set_xlim(0, max(1, len(curve) - 1))
    ax.axhline(50, color="grey", lw=0.6, ls=":")
    ax.set_xlabel("step of the game (shots and round ends)")
    ax.set_ylabel("chance of winning (%)")
    ax.legend(
        loc="upper left", fontsize=8, title="?! imprecise  ? mistake  ?? blunder", title_fontsize=7
    )
    ax.set_title(title, fontsize=10)
    write_atomic(path, lambda fh: fig.savefig(fh, format="png"))
