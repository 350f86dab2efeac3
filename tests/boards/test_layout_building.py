"""Reading a layout file and building its table are two jobs: the file is read and checked once,
and each seating's table is built once per load (a built-in file once per process)."""

from __future__ import annotations

import pytest

import sliders.boards.placing as placing
import sliders.files.layouts as layoutfile
from sliders.boards import Layout
from sliders.boards.placing import build_layout
from sliders.files.layouts import BUILTIN_LAYOUTS, load_layout, read_layout


@pytest.fixture
def builds(monkeypatch) -> list[tuple[str, ...]]:
    """The seatings built while the test runs, in order."""
    seen: list[tuple[str, ...]] = []

    def counting(spec, seated):  # type: ignore[no-untyped-def]
        seen.append(seated)
        return build_layout(spec, seated)

    monkeypatch.setattr(placing, "build_layout", counting)
    return seen


def _file(tmp_path, name: str = "head-to-head") -> str:
    path = tmp_path / "mine.toml"
    path.write_text((layoutfile.LAYOUTS_DIR / f"{name}.toml").read_text())
    return str(path)


def test_a_layout_file_is_built_once_per_load(tmp_path, builds) -> None:
    path = _file(tmp_path)
    layout = load_layout(path)
    assert isinstance(layout, Layout) and builds == [("south", "north")]
    assert load_layout(path) == layout and len(builds) == 2  # a file is read afresh each time


def test_each_seating_is_built_once_per_spec(tmp_path, builds) -> None:
    spec = read_layout(_file(tmp_path, "square"))
    assert builds == [spec.default_seats]  # the check that the default table is sound
    assert spec.build() is spec.build(spec.default_seats) and len(builds) == 1
    four = spec.build(4)
    assert spec.build(("south", "west", "north", "east")) is four
    assert builds == [spec.default_seats, ("south", "west", "north", "east")]


def test_a_builtin_layout_is_read_and_built_once(builds) -> None:
    for name in BUILTIN_LAYOUTS:
        load_layout(name)
    before = len(builds)
    for name in BUILTIN_LAYOUTS:
        assert load_layout(name) is load_layout(name) is read_layout(name).build()
    assert len(builds) == before


def test_the_file_modules_names_stay_importable() -> None:
    for name in layoutfile.__all__:
        assert getattr(layoutfile, name) is not None, name
