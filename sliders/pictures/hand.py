"""Your hand's picture: its speed and angle spreads (with their intervals) against the computer
hands'."""

from __future__ import annotations

from sliders.core.fileio import write_atomic
from sliders.game.hand import HandFit
from sliders.physics import NOISE_LEVELS


def write_hand_png(path: str, fit: HandFit) -> None:
    """The fitted hand as a point with its two intervals (speed spread across, angle spread up),
    beside the computer hands (``low``, ``medium``, ``high``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.5, 4.2), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    for name, noise in NOISE_LEVELS.items():
        if noise.is_zero:
            continue
        ax.plot([100 * noise.speed_rel], [noise.angle_deg], "s", color="grey", ms=8)
        ax.annotate(
            name,
            (100 * noise.speed_rel, noise.angle_deg),
            xytext=(6, 4),
            textcoords="offset points",
            fontsize=9,
            color="dimgrey",
        )
    s, a = fit.speed_spread, fit.angle_spread
    ax.errorbar(
        [100 * s.value],
        [a.value],
        xerr=[[100 * (s.value - s.lo)], [100 * (s.hi - s.value)]],
        yerr=[[a.value - a.lo], [a.hi - a.value]],
        fmt="o",
        color="tab:red",
        capsize=4,
        label=f"you ({fit.n} attempts, 95 % intervals)",
    )
    ax.set_xlabel("speed spread (% of the speed)")
    ax.set_ylabel("angle spread (degrees)")
    top_speed = max([100 * n.speed_rel for n in NOISE_LEVELS.values()] + [100 * s.hi])
    top_angle = max([n.angle_deg for n in NOISE_LEVELS.values()] + [a.hi])
    ax.set_xlim(0, 1.2 * top_speed)
    ax.set_ylim(0, 1.15 * top_angle)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(
        f"your hand: bias {fit.speed_bias.value:+.1%} speed, {fit.angle_bias.value:+.2f}° angle",
        fontsize=10,
    )
    write_atomic(path, lambda fh: fig.savefig(fh, format="png"))
