"""Writing files whole or not at all, and reading JSON with errors a user can act on."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from sliders.errors import UserError


def write_atomic(path: str | os.PathLike[str], writer: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` through ``writer`` into a temporary file beside it, then rename it into place.

    A reader never sees a half-written file: on any error the temporary file is removed and the
    old file, if any, is left untouched. A symbolic link is followed, so the file it points to is
    the one replaced, and a file replaced keeps its permissions.
    """
    shown = Path(path)  # as the user named it
    target = Path(os.path.realpath(shown)) if os.path.islink(shown) else shown
    directory = target.parent if str(target.parent) else Path(".")
    if not os.path.isdir(directory):
        raise UserError(f"cannot write {shown}: directory {directory} does not exist")
    if os.path.isdir(target):
        raise UserError(f"cannot write {shown}: it is a directory")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:  # a new file: the permissions a plain open() would give
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UserError(f"cannot write {shown}: {_reason(exc)}") from None
    os.fchmod(fd, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            writer(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise UserError(f"cannot write {shown}: {_reason(exc)}") from None
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    write_atomic(path, lambda fh: fh.write(text.encode("utf-8")))


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")


def read_json(path: str | os.PathLike[str], what: str = "file") -> Any:
    """Load JSON from ``path``; a missing or malformed file is a :class:`UserError`."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise UserError(f"{what} {path} not found") from None
    except IsADirectoryError:
        raise UserError(f"{what} {path} is a directory") from None
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{what} {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except UnicodeDecodeError:
        raise UserError(f"{what} {path} is not UTF-8 text") from None
    except OSError as exc:
        raise UserError(f"{what} {path} cannot be read: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    """The operating system's words for ``exc``, e.g. "Permission denied"."""
    return exc.strerror or str(exc)
