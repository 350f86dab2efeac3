"""Checks of the files a command is asked to write, made before it runs: a picture's name ends in
``.png`` (or has no extension), a table's in the extension of a table format; every output can be
written, is not an input and is not another output (:func:`check_outputs`). A stream such as
``/dev/null`` or ``/dev/stdout`` passes whatever its name.

:func:`check_files` makes these checks for every flag a command's parser marks as naming a file
it reads or writes (:func:`sliders.cli.args.reads`, :func:`sliders.cli.args.writes`); the
``sliders`` command runs it before any command, so no command's work is lost to a bad output
name and none overwrites its own input. A command checks there too what it writes under a name
it makes up (a summary beside its table, a picture beside its results)."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

from sliders.cli.args import FILE_ROLE
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


def check_outputs(
    outputs: dict[str, str | None], inputs: dict[str, str | None] | None = None
) -> None:
    """Before any work, so that a long run is not lost for a bad output name: each output (by
    flag; ``None``: not asked for) can be written where it is named (its directory exists and is
    writable; it is not a directory, a socket, a block device or a symlink loop), is none of
    ``inputs`` (the files the command reads: a scene, a layout, a table), and is not the same file
    as another output (a picture's name equal to the results', a table's record). A stream such as
    ``/dev/null`` is written in place and checked for none of this."""
    _check_outputs(outputs, list((inputs or {}).items()))


def _check_outputs(outputs: dict[str, str | None], inputs: list[tuple[str, str | None]]) -> None:
    seen: dict[object, str] = {}
    read: set[object] = set()
    for flag, path in inputs:
        if path and not is_special(path):
            key = _identity(path)
            seen.setdefault(key, f"the input {flag} {path}")
            read.add(key)
    for flag, path in outputs.items():
        if not path or is_special(path):
            continue
        _check_writable(path)
        key = _identity(path)
        if key in seen:
            why = "an output never replaces an input" if key in read else "give each its own"
            raise UserError(f"{flag} {path} is the same file as {seen[key]}; {why}")
        seen[key] = f"{flag} {path}"


def check_files(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Check every file flag of ``parser`` (a command's) as ``args`` gives it, before the command
    runs: each output (a file written, a file updated, a folder written into) can be written
    where it is named and is none of the files read (an ``update`` is read and written by
    design: it is only kept apart from the other files); a folder exists and is one."""
    inputs: list[tuple[str, str | None]] = []
    outputs: dict[str, str | None] = {}
    folders: dict[str, str] = {}
    for action in parser._actions:
        role = getattr(action, FILE_ROLE, None)
        value = getattr(args, action.dest, None)
        if role is None or not value:
            continue
        flag = action.option_strings[0] if action.option_strings else str(action.metavar or "")
        flag = flag or action.dest
        names = value if isinstance(value, list) else [value]
        if role == "input":
            for name in names:  # only a file that exists: --layout may be a built-in's name
                if isinstance(name, str) and os.path.isfile(name):
                    inputs.append((flag, name))
        elif role == "folder":
            folders[flag] = str(value)
        else:
            outputs[flag] = str(value)
    for flag, folder in folders.items():
        _check_folder(flag, folder)
    _check_outputs(outputs, inputs)


def _check_folder(flag: str, folder: str) -> None:
    if not os.path.isdir(folder):
        missing = "" if os.path.exists(folder) else " (it does not exist)"
        raise UserError(f"{flag} {folder}: not a folder{missing}")
    if not os.access(folder, os.W_OK | os.X_OK):
        why = "read-only" if _read_only(Path(folder)) else "not writable"
        raise UserError(f"{flag} {folder}: the folder is {why}")


def _identity(path: str) -> object:
    """What makes two names the same file: its device and inode if it exists (a hard link, a
    symbolic link), else its resolved name."""
    try:
        st = os.stat(path)
    except OSError:
        return ("name", os.path.realpath(os.path.abspath(path)))
    return ("file", st.st_dev, st.st_ino)


def _check_writable(path: str) -> None:
    target = Path(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:  # a symlink loop, a name too long, a file in a non-directory
        raise UserError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise UserError(f"cannot write {path}: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise UserError(f"cannot write {path}: it is not a regular file")
    if os.path.islink(target):  # the file replaced is the link's target, beside it
        target = Path(os.path.realpath(target))
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise UserError(f"cannot write {path}: directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        why = "read-only" if _read_only(directory) else "not writable"
        raise UserError(f"cannot write {path}: directory {directory} is {why}")


def _read_only(directory: Path) -> bool:
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def table_inputs(args: object) -> dict[str, str | None]:
    """The files a command reads for its table: ``--scene`` and a ``--layout`` that names a file
    (not a built-in layout), which no output may overwrite."""
    layout = getattr(args, "layout", None)
    return {
        "--scene": getattr(args, "scene", None),
        "--layout": layout if layout and os.path.isfile(layout) else None,
    }
