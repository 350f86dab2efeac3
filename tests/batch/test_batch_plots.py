"""The heat map says when its cells average over a parameter that varies but is not on its axes."""

from __future__ import annotations

import pytest

import sliders.pictures.studies as plots
from sliders.batch import Design, Study, empty_scene, run_study
from sliders.physics import Noise


def _titles(monkeypatch, tmp_path, design: Design, axes: tuple[str, str] | None) -> list[str]:
    from matplotlib.figure import Figure

    figures = []
    savefig = Figure.savefig

    def keep(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        figures.append(self)
        return savefig(self, *args, **kwargs)

    study = Study.create(empty_scene(), "south", design, samples=2, noise=Noise.level("low"))
    result = run_study(study, workers=1)
    monkeypatch.setattr(Figure, "savefig", keep)
    plots.plot_heatmap(str(tmp_path / "h.png"), result.summary(), study, axes)
    (fig,) = figures
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"
    return [ax.get_title() for ax in fig.axes if ax.get_title()]


@pytest.mark.parametrize(
    ("design", "axes", "note"),
    [
        (Design.grid(speed="0.5,0.6"), ("angle", "offset"), " (mean over speed)"),
        (Design.grid(speed="0.5,0.6", angle="-1,1"), None, ""),
        (
            Design.grid(speed="0.5,0.6", angle="-1,1", offset="-0.01,0.01"),
            None,
            " (mean over offset)",
        ),
    ],
)
def test_the_best_cell_says_what_it_averages_over(
    design, axes, note, monkeypatch, tmp_path
) -> None:
    best = _titles(monkeypatch, tmp_path, design, axes)[0]
    assert best.startswith("best: ")
    assert best.endswith(" m" + note) or best.endswith("°" + note), best


def test_the_line_plot_keeps_every_interval_and_its_title_in_view(monkeypatch, tmp_path) -> None:
    """Seven lines along speed: each value's intervals are bars side by side, none on top of
    another; a long title is wrapped inside the picture, not clipped at its edges."""
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    figures = []
    savefig = Figure.savefig

    def keep(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        figures.append(self)
        return savefig(self, *args, **kwargs)

    design = Design.grid(speed="0.5,0.6", angle="-3:3:7")
    study = Study.create(empty_scene(), "south", design, samples=2, noise=Noise.level("low"))
    summary = run_study(study, workers=1).summary()
    monkeypatch.setattr(Figure, "savefig", keep)
    title = "a long title of many words " * 8
    plots.plot_line(str(tmp_path / "l.png"), summary, study, "speed", title=title)
    (fig,) = figures
    (ax,) = fig.axes
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(bars) == 7
    xs = [round(float(seg[0][0]), 9) for c in bars for seg in c.get_segments()]
    assert len(xs) == 14 and len(set(xs)) == 14  # no two bars at the same place
    assert len(ax.get_legend().get_texts()) == 7
    box = fig._suptitle.get_window_extent(fig.canvas.get_renderer())
    assert (
        0 <= box.x0 and box.x1 <= fig.bbox.width and len(fig._suptitle.get_text().split("\n")) > 1
    )
