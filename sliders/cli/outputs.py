"""Checks of the files a command is asked to write, made before it runs: a picture's name ends in
``.png`` (or has no extension), a table's in the extension of a table format. A stream such as
``/dev/null`` or ``/dev/stdout`` passes whatever its name."""

from __future__ import annotations

from pathlib import Path

from sliders.core.errors import UserError
from sliders.core.fileio import is_special


def check_pictures(pictures: dict[str, str | None]) -> None:
    """Each picture (by flag; ``None``: not asked for) is written as a PNG: refuse another
    extension (``--png shot.jpg``, ``--heatmap map.pgn``) rather than write a PNG under it."""
    for flag, path in pictures.items():
        if not path or is_special(path):
            continue
        suffix = Path(path).suffix
        if suffix and suffix.lower() != ".png":
            raise UserError(f"{flag} {path}: pictures are PNG files; name it .png, not {suffix}")


def check_suffix(
    flag: str,
    path: str,
    suffixes: dict[str, str],
    what: str,
    hint: str = "; --format names the format for another",
) -> None:
    """``path``'s extension, if it has one, is among ``suffixes`` (``what``: the kind of file,
    as the error names it; ``hint``: how else to say the format)."""
    if is_special(path):
        return
    suffix = Path(path).suffix
    if suffix and suffix.lower() not in suffixes:
        known = ", ".join(suffixes)
        raise UserError(f"{flag} {path}: unknown extension {suffix} (a {what} is {known}{hint})")
