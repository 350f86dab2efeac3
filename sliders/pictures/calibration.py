"""Pictures of a calibration (matplotlib Agg, no window): the residuals of the fit, the fitted
against the measured stopping distances, and the tracked paths drawn over a video's frame."""

from __future__ import annotations

import numpy as np

from sliders.boards.faces import BOARD_SIDE
from sliders.calibrate.fit import Fit
from sliders.calibrate.tables import Track
from sliders.calibrate.video import SCALE, VIEW_MARGIN
from sliders.pictures.balance import figure, save_png


def plot_residuals(fit: Fit, path: str) -> None:
    """Each sample's distance from its fitted path along the pawn's heading (or each slide's
    stopping distance less the fitted one), against the pawn's speed: a trend is a model the data
    disagree with, a band the tracking's noise."""
    fig = figure(6, 3.6)
    ax = fig.add_subplot()
    if fit.residuals:
        v, r = np.array(fit.residuals).T
        ax.scatter(v, r * 1000, s=4, alpha=0.5, color="#2471a3")
    ax.axhline(0, color="#555555", lw=0.8)
    ax.set_xlabel("pawn speed (m/s)")
    ax.set_ylabel("measured − fitted (mm)")
    mu = fit.estimates.get("mu_roll")
    ax.set_title("residuals of the fit" + (f": mu_roll {mu.text()}" if mu else ""), fontsize=10)
    fig.tight_layout()
    save_png(fig, path)


def plot_stops(fit: Fit, path: str) -> None:
    """Fitted against measured stopping distance, one point a slide that came to rest."""
    fig = figure(4.2, 4.2)
    ax = fig.add_subplot()
    if fit.stops:
        m, f = np.array(fit.stops).T * 100
        ax.scatter(m, f, s=14, color="#c0392b")
        top = max(float(m.max()), float(f.max())) * 1.05
        ax.plot([0, top], [0, top], color="#555555", lw=0.8)
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
    ax.set_xlabel("measured stopping distance (cm)")
    ax.set_ylabel("fitted stopping distance (cm)")
    ax.set_title(f"{len(fit.stops)} slides that came to rest", fontsize=10)
    fig.tight_layout()
    save_png(fig, path)


def plot_tracks(frame: np.ndarray, to_board: np.ndarray, tracks: list[Track], path: str) -> None:
    """The tracked paths drawn over the video's last frame (RGB, the pawns at rest), through the
    inverse of the rectifying homography ``to_board`` (frame pixels to the rectified view's).
    Each path is coloured by time (a slide into a rail and back runs over its own way out, and
    the colour tells the two apart), a circle where the pawn was first seen and a square where
    it was last seen, named there."""
    from matplotlib.collections import LineCollection

    view = BOARD_SIDE / 2 + VIEW_MARGIN
    back = np.linalg.inv(to_board)
    h, w = frame.shape[:2]
    fig = figure(5.6, 5 * h / w)
    ax = fig.add_axes((0, 0, 5 / 5.6, 1))
    ax.imshow(frame)
    t_max = max((float(tr.t[-1]) for tr in tracks), default=1.0)
    lines = None
    for tr in tracks:
        px = np.stack([(tr.x + view) * SCALE, (view - tr.y) * SCALE, np.ones(len(tr.t))])
        img = back @ px
        u, v = img[0] / img[2], img[1] / img[2]
        pts = np.stack([u, v], axis=1)
        lines = LineCollection(
            list(np.stack([pts[:-1], pts[1:]], axis=1)), cmap="plasma", lw=1.4, zorder=3
        )
        lines.set_array((tr.t[:-1] + tr.t[1:]) / 2)
        lines.set_clim(0, t_max)
        ax.add_collection(lines)
        ax.plot(u[0], v[0], "o", mfc="none", mec="white", ms=6, zorder=4)
        ax.plot(u[-1], v[-1], "s", mfc="none", mec="white", ms=6, zorder=4)
        ax.annotate(
            tr.pawn,
            (u[-1], v[-1]),
            xytext=(6, -6),
            textcoords="offset points",
            color="white",
            fontsize=7,
        )
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")
    if lines is not None:
        bar = fig.colorbar(lines, cax=fig.add_axes((5.05 / 5.6, 0.1, 0.12 / 5.6, 0.8)))
        bar.set_label("time (s): ○ first seen, □ last seen", fontsize=8)
        bar.ax.tick_params(labelsize=7)
    save_png(fig, path)


def plot_contacts(fit: Fit, path: str) -> None:
    """What each contact told, against the fitted model: the speed of separation against that of
    approach (the restitutions' lines), the tangential over the normal impulse against the ratio
    that would stick (the rim frictions' ``min(μ, stick)``), and the speed past the track–board
    joint against the speed before it (no loss: the diagonal)."""
    fig = figure(10.5, 3.6)
    axes = fig.subplots(1, 3)
    colours = {"pawn": "#c0392b", "rail": "#2471a3"}
    ax = axes[0]
    for kind, name in (("pawn", "restitution_pawn"), ("rail", "restitution_rail")):
        rows = np.array([(c.approach, c.separation) for c in fit.contacts if c.kind == kind])
        if len(rows):
            ax.scatter(*rows.T, s=14, color=colours[kind], label=f"{kind} contacts")
        e = fit.estimates.get(name)
        if e is not None:
            v = np.array([0.0, max(0.8, float(rows[:, 0].max()) if len(rows) else 0.8)])
            ax.plot(v, e.value * v, color=colours[kind], lw=0.8, label=f"{name} {e.text(3)}")
    ax.set_xlabel("normal speed of approach (m/s)")
    ax.set_ylabel("normal speed of separation (m/s)")
    ax.set_title("restitutions", fontsize=10)
    ax.legend(fontsize=7)
    ax = axes[1]
    for kind, name in (("pawn", "friction_pawn"), ("rail", "friction_rail")):
        rows = np.array(
            [(c.stick, c.ratio) for c in fit.contacts if c.kind == kind and np.isfinite(c.ratio)]
        )
        if len(rows):
            ax.scatter(*rows.T, s=14, color=colours[kind], label=f"{kind} contacts")
            s = np.linspace(0, float(rows[:, 0].max()) * 1.1, 100)
            e = fit.estimates.get(name)
            if e is not None:
                ax.plot(s, np.minimum(e.value, s), color=colours[kind], lw=0.8,
                        label=f"{name} {e.text(3)}")  # fmt: skip
    ax.axline((0, 0), slope=1, color="#999999", lw=0.6, ls=":")
    ax.set_xlabel("tangential/normal impulse that would stick")
    ax.set_ylabel("tangential/normal impulse seen")
    ax.set_title("rim frictions: min(μ, stick)", fontsize=10)
    ax.legend(fontsize=7)
    ax = axes[2]
    rows = np.array([(c.approach, c.separation) for c in fit.contacts if c.kind == "joint"])
    if len(rows):
        ax.scatter(*rows.T, s=14, color="#229954", label="crossings")
        top = float(rows.max()) * 1.05
        ax.plot([0, top], [0, top], color="#555555", lw=0.8, label="no loss")
        loss = fit.measured.get("joint_loss")
        if loss is not None:
            ax.plot([0, top], [0, top * (1 - loss.value)], color="#229954", lw=0.8,
                    label=f"loss {loss.value:.1%} [{loss.low:.1%}, {loss.high:.1%}]")  # fmt: skip
        ax.legend(fontsize=7)
    ax.set_xlabel("speed before the joint (m/s)")
    ax.set_ylabel("speed after it (m/s)")
    ax.set_title("the track–board joint", fontsize=10)
    fig.tight_layout()
    save_png(fig, path)
