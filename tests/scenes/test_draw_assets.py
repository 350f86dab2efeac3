"""The shipped font: it is found from the source tree and from an installed wheel, and it has a
real glyph for every character the package's text uses (the built-in pygame font draws "→" as the
empty box it draws for a missing glyph)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pygame
import pytest

from sliders.scenes.assets import asset, assets_dir
from sliders.scenes.draw import FONT_FILES, font, forget_fonts

ROOT = Path(__file__).resolve().parents[2]
MISSING = "\u0378"  # an unassigned code point: every font draws its missing-glyph box for it


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()
    yield
    forget_fonts()


def _pixels(f: pygame.font.Font, words: str) -> bytes:
    return pygame.image.tobytes(f.render(words, True, (255, 255, 255)), "RGBA")


def _used_characters() -> set[str]:
    chars: set[str] = set()
    for path in (ROOT / "sliders").rglob("*.py"):
        chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 127}
    return chars


def test_the_font_is_the_shipped_file():
    assert assets_dir().name == "assets"
    for name in FONT_FILES.values():
        assert asset("fonts", name).stat().st_size > 100_000
    licence = asset("fonts", "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_the_package_uses_has_a_glyph(bold):
    f = font(24, bold)
    box = _pixels(f, MISSING)
    chars = _used_characters() | set("→…×·")
    assert "→" in chars
    for c in sorted(chars):
        assert _pixels(f, c) != box, f"{c!r} (U+{ord(c):04X}) draws as a missing glyph"


def test_the_arrow_is_a_missing_glyph_in_pygames_own_font():
    """The check above can fail: the default font lacks the arrow."""
    f = pygame.font.Font(None, 24)
    assert _pixels(f, "→") == _pixels(f, MISSING)


def test_the_wheel_ships_the_assets(tmp_path):
    out = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = out.glob("sorry_sliders-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (*FONT_FILES.values(), "LICENSE-DejaVu.txt"):
        assert f"sliders/assets/fonts/{name}" in names
    assert "sliders/scenes/assets.py" in names
    # installed from the wheel, the loader finds the fonts inside the package
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = "from sliders.scenes.assets import assets_dir; print(assets_dir())"
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(site), "PATH": ""}, cwd=tmp_path,
    ).stdout.strip()  # fmt: skip
    assert Path(found) == site / "sliders" / "assets"
