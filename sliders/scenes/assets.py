"""Where the game's shipped files live: the top-level ``assets/`` folder of the source tree (an
editable install or a checkout), or ``sliders/assets`` inside an installed wheel, which the build
maps it to."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_PLACES = (_HERE.parent / "assets", _HERE.parent.parent / "assets")


def assets_dir() -> Path:
    """The folder holding the game's fonts (and any sounds or images)."""
    for place in _PLACES:
        if (place / "fonts").is_dir():
            return place
    raise FileNotFoundError(
        "the game's assets are missing (looked in " + ", ".join(str(p) for p in _PLACES) + ")"
    )


def asset(*parts: str) -> Path:
    """The path of one shipped file, e.g. ``asset("fonts", "DejaVuSans.ttf")``."""
    path = assets_dir().joinpath(*parts)
    if not path.is_file():
        raise FileNotFoundError(f"the game's asset {path} is missing")
    return path
