"""Pictures of a batch study (matplotlib Agg, no window): heat maps of expected points and penalty
risk over two swept parameters, and the board with where the shot pawns came to rest."""

from __future__ import annotations

import textwrap

import numpy as np

from sliders.batch.study import PARAMETERS, UNITS, Study
from sliders.batch.summary import metric_column, metric_label
from sliders.batch.work import STATUSES
from sliders.boards.faces import HoleRule
from sliders.boards.faces import face as face_named
from sliders.core.fileio import write_atomic
from sliders.physics import at_rest
from sliders.pictures.table import draw_table
from sliders.rules import best_single_score

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


UNCERTAIN = 0.10
"""A cell is hatched when its interval is wider than this share of the colour scale (or when it
holds fewer samples than the fullest cell): a picture never hides how little a cell knows."""


def plot_heatmap(
    path: str,
    summary: Columns,
    study: Study,
    axes: tuple[str, str] | None = None,
    title: str | None = None,
    dpi: int = 120,
    metric: str = "value",
    vmin: float | None = None,
    vmax: float | None = None,
) -> None:
    """``metric`` and the probability of a penalty to the seat over two parameters, side by side.

    On a grid, each cell is one pair of values (averaged over any other swept parameter); with a
    random design, intended shots are binned. Cells print their sample size when there is room
    and are hatched where their interval is wide (see :data:`UNCERTAIN`); the best cell by the
    metric (among fully sampled ones) is ringed. ``vmin``/``vmax`` fix the metric's colour scale
    so that maps of different studies compare."""
    from matplotlib import patheffects
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ax_x, ax_y = heatmap_axes(study, axes)
    column = metric_column(metric, summary)
    xs, ys, vals = _grid(summary, study, ax_x, ax_y, column)
    _, _, counts = _grid(summary, study, ax_x, ax_y, "n", total=True)
    width = _half_width(summary, column)
    _, _, half = _grid({**summary, "_half": width}, study, ax_x, ax_y, "_half")
    _, _, risk = _grid(summary, study, ax_x, ax_y, "p_penalty")
    risk_half = _half_width(summary, "p_penalty")
    _, _, rhalf = _grid({**summary, "_half": risk_half}, study, ax_x, ax_y, "_half")
    prob = column.startswith("p_")
    finite = vals[np.isfinite(vals)]
    lo = vmin if vmin is not None else (0.0 if prob else float(min(0.0, finite.min(initial=0))))
    hi = vmax if vmax is not None else (1.0 if prob else float(max(1.0, finite.max(initial=1))))
    if column == "mean_value" and finite.size:  # a chance: the scale spans the chances found
        lo = vmin if vmin is not None else float(finite.min())
        hi = vmax if vmax is not None else float(finite.max())
    if hi <= lo:
        hi = lo + (0.01 if column == "mean_value" else 1.0)
    cmap = "viridis" if not prob else "magma_r"
    if column == "mean_value":
        cmap = "RdYlGn"
    if not prob and lo < 0 < hi:
        cmap = "RdYlGn"
        if vmin is None and vmax is None:
            hi = max(hi, -lo)
            lo = -hi
    fig = Figure(figsize=(11.5, 4.8))
    FigureCanvasAgg(fig)
    best = _best_cell(vals, counts)
    panels = (
        (vals, half, metric_label(metric), cmap, lo, hi),
        (risk, rhalf, "probability of a penalty to the seat", "magma_r", 0.0, 1.0),
    )
    for k, (values, halfw, label, cm, v0, v1) in enumerate(panels):
        ax = fig.add_subplot(1, 2, k + 1)
        ex, ey = _edges(xs), _edges(ys)
        mesh = ax.pcolormesh(ex, ey, values.T, cmap=cm, vmin=v0, vmax=v1, shading="flat")
        cb = fig.colorbar(mesh, ax=ax)
        cb.set_label(label)
        ax.set_xlabel(_LABELS[ax_x])
        ax.set_ylabel(_LABELS[ax_y])
        unsure = (halfw > UNCERTAIN * (v1 - v0)) | (counts < np.nanmax(counts))
        unsure &= np.isfinite(values)
        for i, j in zip(*np.nonzero(unsure), strict=True):
            ax.fill_between(
                [ex[i], ex[i + 1]],
                ey[j],
                ey[j + 1],
                hatch="///",
                facecolor="none",
                edgecolor="#ffffff80",
                linewidth=0,
            )
        if len(xs) * len(ys) <= 120:
            for i in range(len(xs)):
                for j in range(len(ys)):
                    if counts[i, j] > 0:
                        ax.text(
                            xs[i],
                            ys[j],
                            f"{int(counts[i, j])}",
                            ha="center",
                            va="center",
                            fontsize=6,
                            color="#ffffff",
                            path_effects=[patheffects.withStroke(linewidth=1.5, foreground="#000")],
                        )
        if best is not None:
            ax.plot(xs[best[0]], ys[best[1]], marker="o", mfc="none", mec="#ff2d55", ms=12, mew=2)
    if best is not None:
        i, j = best
        averaged = [n for n in study.design.swept if n not in (ax_x, ax_y)]
        fig.axes[0].set_title(
            f"best: {metric} {vals[i, j]:.3g} ± {half[i, j]:.2g} at {ax_x} {_value(ax_x, xs[i])}, "
            f"{ax_y} {_value(ax_y, ys[j])}"
            + (f" (mean over {', '.join(averaged)})" if averaged else ""),
            fontsize=9,
        )
    penal = face_named(study.context.scene.face).hole is HoleRule.PENALTY
    hole = ", into the hole" if penal else ""
    fig.axes[2].set_title(
        f"penalty: any own pawn off the board, on a SORRY! corner{hole}", fontsize=9
    )
    fig.text(
        0.01,
        0.01,
        "numbers: samples per cell; hatched: interval wider than "
        f"{UNCERTAIN:.0%} of the scale, or fewer samples than the fullest cell",
        fontsize=7,
        color="#555555",
    )
    fig.suptitle(title or default_title(study), fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor=_BG))


def plot_line(
    path: str,
    summary: Columns,
    study: Study,
    axis: str | None = None,
    metric: str = "value",
    title: str | None = None,
    dpi: int = 120,
) -> None:
    """``metric`` along one swept parameter with its interval as a band (one line per value of a
    second swept parameter, up to eight, each interval then a bar, the bars of a point set side
    by side so that none hides another; any others averaged)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    swept = study.design.swept
    axis = axis or (swept[0] if swept else "speed")
    column = metric_column(metric, summary)
    others = [n for n in swept if n != axis]
    fig = Figure(figsize=(7.5, 4.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    lo_col = summary.get(f"{column}_lo", summary[column])
    hi_col = summary.get(f"{column}_hi", summary[column])
    groups: list[tuple[str, np.ndarray]] = [("", np.ones(len(summary["n"]), dtype=bool))]
    if others:
        g = others[0]
        values = np.unique(summary[g])
        if len(values) <= 8:
            groups = [(f"{g} {_value(g, v)}", summary[g] == v) for v in values]
    step = np.diff(np.unique(summary[axis])).min() if len(np.unique(summary[axis])) > 1 else 1.0
    for k, (label, rows) in enumerate(groups):
        x = summary[axis][rows]
        order = np.argsort(x, kind="stable")
        xs = np.unique(x)
        pick = np.searchsorted(xs, x[order])

        def mean(
            col: np.ndarray,
            rows: np.ndarray = rows,
            order: np.ndarray = order,
            pick: np.ndarray = pick,
            m: int = len(xs),
        ) -> np.ndarray:
            v = col[rows][order].astype(float)
            return np.bincount(pick, v, m) / np.bincount(pick, minlength=m)

        y, lo, hi = mean(summary[column]), mean(lo_col), mean(hi_col)
        if len(groups) == 1:
            line = ax.plot(xs, y, marker="o", ms=3)
            ax.fill_between(xs, lo, hi, color=line[0].get_color(), alpha=0.2)
            continue
        shift = step * 0.5 * ((k + 0.5) / len(groups) - 0.5)  # within half a step, in order
        line = ax.plot(xs + shift, y, lw=1, alpha=0.6, label=label)
        ax.errorbar(
            xs + shift,
            y,
            yerr=np.vstack([y - lo, hi - y]).clip(0),
            fmt="o",
            ms=3,
            capsize=2,
            lw=1,
            color=line[0].get_color(),
        )
    ax.set_xlabel(_LABELS[axis])
    ax.set_ylabel(metric_label(metric))
    ax.grid(alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=8)
    averaged = others[1:] if len(groups) > 1 else others
    note = f" (mean over {', '.join(averaged)})" if averaged else ""
    shown = "bars" if len(groups) > 1 else "band"
    ax.set_title(f"{shown}: the {metric} interval per intended shot{note}", fontsize=9)
    fig.suptitle(_wrapped(title or default_title(study), 105), fontsize=10)
    fig.tight_layout()
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor=_BG))


def _wrapped(title: str, width: int) -> str:
    """``title`` with each of its lines broken at ``width`` characters, so none is clipped."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in title.split("\n")
    )


def _half_width(summary: Columns, column: str) -> np.ndarray:
    lo, hi = summary.get(f"{column}_lo"), summary.get(f"{column}_hi")
    if lo is None or hi is None:
        return np.zeros(len(summary["n"]))
    return np.nan_to_num((hi - lo) / 2, nan=np.inf)


def _best_cell(vals: np.ndarray, counts: np.ndarray) -> tuple[int, int] | None:
    full = np.isfinite(vals) & (counts == np.nanmax(counts)) if vals.size else vals
    if not vals.size or not full.any():
        return None
    masked = np.where(full, vals, -np.inf)
    i, j = np.unravel_index(int(np.argmax(masked)), vals.shape)
    return int(i), int(j)


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
    by: str = "points",
) -> None:
    """The table as it stood before the shots, with where each shot pawn came to rest: pawns in
    play coloured by their points, removed pawns as grey crosses where they left play; with
    ``by="value"`` every pawn (crosses too) is coloured by the shot's value."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.figure import Figure

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
    if by == "value":
        from matplotlib.colors import Normalize

        value = table["value"][sel].astype(float)
        low = float(value.min()) if value.size else 0.0
        vnorm = Normalize(low, max(float(value.max()) if value.size else 1.0, low + 0.01))
        size = 22 if len(x) < 500 else size
        ax.scatter(
            x[removed],
            y[removed],
            s=size * 1.5,
            marker="x",
            c=value[removed],
            cmap="RdYlGn",
            norm=vnorm,
            lw=1.2,
            zorder=8.5,
        )
        sc = ax.scatter(
            x[~removed],
            y[~removed],
            s=size,
            c=value[~removed],
            cmap="RdYlGn",
            norm=vnorm,
            edgecolors="#1a1a1a",
            linewidths=0.3,
            alpha=0.9,
            zorder=8.5,
        )
        label, ticks = "value of the shot (chance of winning after it)", None
    else:
        ax.scatter(
            x[removed],
            y[removed],
            s=size,
            marker="x",
            c="#1a1a1a",
            lw=0.6,
            zorder=8.5,
            alpha=0.5,
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
        label, ticks = "points of the shot pawn", range(top + 1)
    cax = fig.add_axes((0.80, 0.15, 0.04, 0.65))
    cb = fig.colorbar(sc, cax=cax, ticks=ticks)
    cb.set_label(label, color="#eeeeee")
    cb.ax.tick_params(colors="#eeeeee")
    shown = f" (every {step}th shown)" if step > 1 else ""
    caption = title or (
        f"where {ctx.seat}'s pawn came to rest\n{n:,} shots{shown}; × removed from play"
    )
    fig.suptitle(caption, color="#eeeeee", fontsize=9)
    write_atomic(path, lambda fh: fig.savefig(fh, format="png", dpi=dpi, facecolor="#3b3b3b"))


def _grid(
    summary: Columns, study: Study, ax_x: str, ax_y: str, column: str, total: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x values, y values, mean of ``column`` per cell) with NaN where nothing was simulated
    (``total``: the sum, 0 where nothing was)."""
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
    sums = np.bincount(flat, weights=vals, minlength=bins_x * bins_y)
    count = np.bincount(flat, minlength=bins_x * bins_y)
    if total:
        return xs, ys, sums.reshape(bins_x, bins_y)
    with np.errstate(invalid="ignore"):
        grid = (sums / count).reshape(bins_x, bins_y)
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
