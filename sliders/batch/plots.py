"""Pictures of a batch study (matplotlib Agg, no window): heat maps of expected points and penalty
risk over two swept parameters, and the board with where the shot pawns came to rest."""

from __future__ import annotations

import numpy as np

from sliders.batch.study import PARAMETERS, UNITS, Study
from sliders.boards.faces import HoleRule
from sliders.boards.faces import face as face_named
from sliders.fileio import write_atomic

Columns = dict[str, np.ndarray]
_LABELS = {
    "speed": "speed (m/s)",
    "angle": "angle (° right of straight)",
    "offset": "offset (m right of axis)",
    "release": "release (m from near end)",
}
_BG = "#ffffff"


def heatmap_axes(study: Study, axes: tuple[str, str] | None = None) -> tuple[str, str]:
    """The two parameters a heat map spreads over: ``axes`` or the first two that vary."""
    swept = study.design.swept
    if axes is not None:
        return axes
    if len(swept) >= 2:
        return swept[0], swept[1]
    if len(swept) == 1:
        other = "angle" if swept[0] != "angle" else "speed"
        return swept[0], other
    return "speed", "angle"


def plot_heatmap(
    path: str,
    summary: Columns,
    study: Study,
    axes: tuple[str, str] | None = None,
    title: str | None = None,
    dpi: int = 120,
) -> None:
    """Expected points and penalty probability over two parameters, side by side.

    On a grid, each cell is one pair of values (averaged over any other swept parameter); with a
    random design, intended shots are binned. The best cell for expected points is ringed."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ax_x, ax_y = heatmap_axes(study, axes)
    xs, ys, pts = _grid(summary, study, ax_x, ax_y, "mean_points")
    _, _, risk = _grid(summary, study, ax_x, ax_y, "p_penalty")
    fig = Figure(figsize=(11, 4.6))
    FigureCanvasAgg(fig)
    panels = (
        (
            pts,
            "expected points",
            "viridis",
            0.0,
            max(1.0, float(np.nanmax(pts)) if pts.size else 1),
        ),
        (risk, "probability of a penalty", "magma_r", 0.0, 1.0),
    )
    for k, (values, label, cmap, vmin, vmax) in enumerate(panels):
        ax = fig.add_subplot(1, 2, k + 1)
        mesh = ax.pcolormesh(
            _edges(xs), _edges(ys), values.T, cmap=cmap, vmin=vmin, vmax=vmax, shading="flat"
        )
        cb = fig.colorbar(mesh, ax=ax)
        cb.set_label(label)
        ax.set_xlabel(_LABELS[ax_x])
        ax.set_ylabel(_LABELS[ax_y])
        if values.size and np.isfinite(pts).any():
            i, j = np.unravel_index(np.nanargmax(pts), pts.shape)
            ax.plot(xs[i], ys[j], marker="o", mfc="none", mec="#ff2d55", ms=12, mew=2)
        if k == 0 and values.size and np.isfinite(pts).any():
            i, j = np.unravel_index(np.nanargmax(pts), pts.shape)
            averaged = [n for n in study.design.swept if n not in (ax_x, ax_y)]
            ax.set_title(
                f"best: {pts[i, j]:.2f} points at {ax_x} {_value(ax_x, xs[i])}, "
                f"{ax_y} {_value(ax_y, ys[j])}"
                + (f" (mean over {', '.join(averaged)})" if averaged else ""),
                fontsize=9,
            )
        elif k == 1:
            penal = face_named(study.context.scene.face).hole is HoleRule.PENALTY
            hole = ", into the hole" if penal else ""
            ax.set_title(f"penalty: own pawn off the board, on a SORRY! corner{hole}", fontsize=9)
    fig.suptitle(title or default_title(study), fontsize=11)
    fig.tight_layout()
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor=_BG))


def default_title(study: Study) -> str:
    ctx = study.context
    n = ctx.noise
    noise = (
        "no noise"
        if n.is_zero
        else f"noise σ: speed {n.speed_rel:.0%}, angle {n.angle_deg:g}°, offset {n.offset * 1000:g} mm"
    )
    others = len(ctx.scene.pawns)
    table = (
        "empty table" if not others else f"{others} pawn{'s' if others > 1 else ''} on the table"
    )
    return f"{ctx.seat} · {ctx.scene.face} · {table} · {noise} · {ctx.samples} samples per shot"


def plot_board(
    path: str,
    table: Columns,
    study: Study,
    title: str | None = None,
    max_points: int = 20000,
    dpi: int = 130,
) -> None:
    """The table as it stood before the shots, with where each shot pawn came to rest: pawns in
    play coloured by their points, removed pawns as grey crosses where they left play."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.figure import Figure

    from sliders.batch.work import STATUSES
    from sliders.boards.render import draw_table
    from sliders.physics import at_rest
    from sliders.rules import best_single_score

    ctx = study.context
    layout, face = ctx.build()
    before = at_rest(layout, face, ctx.scene.pawns, ctx.params) if ctx.scene.pawns else ()
    xs = [v for rc in layout.surface for v in (rc.xmin, rc.xmax)]
    ys = [v for rc in layout.surface for v in (rc.ymin, rc.ymax)]
    w, h = max(xs) - min(xs) + 0.04, max(ys) - min(ys) + 0.04
    scale = 7.0 / max(w, h)
    fig = Figure(figsize=(w * scale + 1.6, h * scale + 0.7))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.02, 0.74, 0.88))
    draw_table(ax, layout, face, before, pawn_radius=ctx.params.pawn_radius)

    n = len(table["shot"])
    step = max(1, -(-n // max_points))
    sel = slice(None, None, step)
    x, y = table["x"][sel], table["y"][sel]
    status, points = table["status"][sel], table["points"][sel].astype(int)
    removed = np.isin(status, [i for i, s in enumerate(STATUSES) if s.removed])
    top = max(best_single_score(face.name), int(points.max()) if points.size else 0)
    colours = ["#9e9e9e", "#2c7bb6", "#00a6ca", "#00ccbc", "#90eb9d", "#f9d057", "#d7191c"][
        : top + 1
    ]
    cmap = ListedColormap(colours)
    norm = BoundaryNorm(np.arange(-0.5, top + 1.5), cmap.N)
    size = 9 if len(x) < 3000 else 4
    ax.scatter(
        x[removed], y[removed], s=size, marker="x", c="#1a1a1a", lw=0.6, zorder=8.5, alpha=0.5
    )
    sc = ax.scatter(
        x[~removed],
        y[~removed],
        s=size,
        c=points[~removed],
        cmap=cmap,
        norm=norm,
        edgecolors="none",
        alpha=0.8,
        zorder=8.5,
    )
    cax = fig.add_axes((0.80, 0.15, 0.04, 0.65))
    cb = fig.colorbar(sc, cax=cax, ticks=range(top + 1))
    cb.set_label("points of the shot pawn", color="#eeeeee")
    cb.ax.tick_params(colors="#eeeeee")
    shown = f" (every {step}th shown)" if step > 1 else ""
    caption = title or (
        f"where {ctx.seat}'s pawn came to rest\n{n:,} shots{shown}; × removed from play"
    )
    fig.suptitle(caption, color="#eeeeee", fontsize=9)
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor="#3b3b3b"))


def _grid(
    summary: Columns, study: Study, ax_x: str, ax_y: str, column: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x values, y values, mean of ``column`` per cell) with NaN where nothing was simulated."""
    design = study.design
    vals = summary[column].astype(float)
    if design.axes is not None:
        xs, ys = np.asarray(design.axes[ax_x]), np.asarray(design.axes[ax_y])
        shape = design.shape
        assert shape is not None
        idx = np.unravel_index(summary["intended"], shape)
        ix, iy = idx[PARAMETERS.index(ax_x)], idx[PARAMETERS.index(ax_y)]
        bins_x, bins_y = len(xs), len(ys)
    else:
        bins = max(4, min(24, int(np.sqrt(len(vals) / 3))))
        (lx, hx), (ly, hy) = design.ranges[ax_x], design.ranges[ax_y]
        bins_x = bins if hx > lx else 1
        bins_y = bins if hy > ly else 1
        xs = lx + (np.arange(bins_x) + 0.5) * (hx - lx) / bins_x
        ys = ly + (np.arange(bins_y) + 0.5) * (hy - ly) / bins_y
        ix = _bin(summary[ax_x], lx, hx, bins_x)
        iy = _bin(summary[ax_y], ly, hy, bins_y)
    flat = ix * bins_y + iy
    total = np.bincount(flat, weights=vals, minlength=bins_x * bins_y)
    count = np.bincount(flat, minlength=bins_x * bins_y)
    with np.errstate(invalid="ignore"):
        grid = (total / count).reshape(bins_x, bins_y)
    return xs, ys, grid


def _bin(v: np.ndarray, lo: float, hi: float, n: int) -> np.ndarray:
    if hi <= lo:
        return np.zeros(len(v), dtype=np.int64)
    return np.clip(((v - lo) / (hi - lo) * n).astype(np.int64), 0, n - 1)


def _edges(centres: np.ndarray) -> np.ndarray:
    c = np.asarray(centres, dtype=float)
    if len(c) == 1:
        d = abs(c[0]) * 0.05 or 0.5
        return np.array([c[0] - d, c[0] + d])
    mid = (c[1:] + c[:-1]) / 2
    return np.concatenate([[2 * c[0] - mid[0]], mid, [2 * c[-1] - mid[-1]]])


def _value(name: str, v: float) -> str:
    unit = UNITS[name]
    return f"{v:.3g}{unit}" if unit == "°" else f"{v:.3g} {unit}"
