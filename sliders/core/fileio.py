"""Reading and writing files safely, every failure a :class:`UserError` of one line.

Readers take regular files only, up to a size cap, and parse JSON and TOML strictly: no
``NaN``/``Infinity``, no number that overflows, no whole number of more than
:data:`~sliders.core.checks.MAX_INT_DIGITS` digits, no nesting deeper than
:data:`~sliders.core.checks.MAX_DEPTH`.

Writers write a regular file whole or not at all (a temporary file beside it, then a rename); a
path that is a FIFO or a character device (``/dev/null``, ``/dev/stdout``) is written to in place,
never replaced, and other special files are refused. Temporary files a killed run of ours left
behind (``.NAME.PID.XXXXXXXX.tmp`` whose process is gone) are removed by the next write of NAME.
:func:`lock` keeps a second session from writing a file another one has open.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import json
import os
import stat
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from sliders.core import checks
from sliders.core.errors import UserError, os_error

READ_LIMIT = 16 * 2**20
"""bytes: the largest scene or layout file read (a real one is a few kilobytes)."""
LOG_READ_LIMIT = 64 * 2**20
"""bytes: the largest game log read (a long game with every event logged is a few megabytes)."""
STALE_AGE = 3600.0
"""s: a temporary file of ours that names no process is left alone for this long after its last
change (another version of sliders may still be writing it)."""


# -- writing --------------------------------------------------------------------------------------


def write_atomic(
    path: str | os.PathLike[str], writer: Callable[[IO[bytes]], None], mode: int | None = None
) -> None:
    """Write ``path`` through ``writer`` into a temporary file beside it, then rename it into place.

    A reader never sees a half-written file: on any error the temporary file is removed and the
    old file, if any, is left untouched. A symbolic link is followed, so the file it points to is
    the one replaced, and a file replaced keeps its permissions (``mode``: these permissions,
    set on the temporary file before anything is written to it, so a secret is never readable
    by others, not even for a moment). A FIFO or a character device is written to in place once
    ``writer`` has finished (so a failing writer writes nothing).
    """
    shown = Path(path)  # as the user named it
    if is_special(shown):  # /dev/stdout: a link to a pipe, say, which realpath cannot name
        _write_in_place(shown, shown, writer)
        return
    target = Path(os.path.realpath(shown)) if os.path.islink(shown) else shown
    directory = target.parent if str(target.parent) else Path(".")
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise os_error(f"cannot write {shown}: {_reason(exc)}", exc) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise UserError(f"cannot write {shown}: it is a directory")
        if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
            _write_in_place(shown, target, writer)
            return
        raise UserError(f"cannot write {shown}: it is a {_kind(st.st_mode)}, not a regular file")
    if not os.path.isdir(directory):
        raise UserError(f"cannot write {shown}: directory {directory} does not exist")
    if mode is not None:
        pass
    elif st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:  # a new file: the permissions a plain open() would give
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    remove_stale_temporaries(target)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory
        )
    except OSError as exc:
        raise os_error(f"cannot write {shown}: {_reason(exc)}", exc) from None
    try:
        os.fchmod(fd, mode)
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
            raise os_error(f"cannot write {shown}: {_reason(exc)}", exc) from None
        raise


def is_special(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a FIFO or a character device (``/dev/null``, ``/dev/stdout``): a
    stream written in place, beside which no other file (a summary, a record) belongs."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def write_text_atomic(path: str | os.PathLike[str], text: str, mode: int | None = None) -> None:
    def write(fh: IO[bytes]) -> None:
        fh.write(text.encode("utf-8"))

    write_atomic(path, write, mode)


def json_text(data: Any, path: str | os.PathLike[str] = "JSON") -> str:
    """``data`` as the JSON text :func:`write_json_atomic` writes; a value JSON cannot hold (NaN,
    infinity) is refused."""
    try:
        return json.dumps(data, indent=2, allow_nan=False) + "\n"
    except ValueError:
        raise UserError(f"cannot write {path}: a value in it is not a finite number") from None


def write_json_atomic(path: str | os.PathLike[str], data: Any, mode: int | None = None) -> None:
    """Write ``data`` as JSON; a value JSON cannot hold (NaN, infinity) is refused, not written
    (``mode``: the file's permissions, as :func:`write_atomic` takes them)."""
    write_text_atomic(path, json_text(data, path), mode)


def remove_stale_temporaries(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files beside ``target`` that a killed write of it left behind: ours
    are ``.NAME.PID.XXXXXXXX.tmp``; one whose process is gone is stale, as is one naming no
    process that has not changed for :data:`STALE_AGE` seconds. Returns the files removed."""
    target = Path(target)
    directory = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    removed = []
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return []
    for name in names:
        path = directory / name
        middle = name[len(prefix) : -len(".tmp")]
        pid_text, dot, _rand = middle.partition(".")
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                continue
            if dot and pid_text.isascii() and pid_text.isdigit():
                if _alive(int(pid_text)):
                    continue
            elif time.time() - st.st_mtime < STALE_AGE:
                continue
            os.unlink(path)
            removed.append(path)
        except OSError:
            continue
    return removed


def _write_in_place(shown: Path, target: Path, writer: Callable[[IO[bytes]], None]) -> None:
    buffer = io.BytesIO()
    writer(buffer)
    data = buffer.getvalue()
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
        finally:
            os.close(fd)
    except OSError as exc:
        raise os_error(f"cannot write {shown}: {_reason(exc)}", exc) from None


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid != 0
    return True


# -- locking --------------------------------------------------------------------------------------


class Lock:
    """An exclusive lock on a file, held through ``.NAME.lock`` beside it, which names the
    holder's process id; the operating system lets go of it if the holder dies. A stream such as
    ``/dev/null`` is not locked (``fd`` None): no lock file is put beside it."""

    def __init__(self, fd: int | None, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)  # while still held, so no one is left locking a removed file
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock(path: str | os.PathLike[str], what: str = "file") -> Lock:
    """Lock ``path`` for writing, or raise a :class:`UserError` naming the process that has it."""
    shown = Path(path)
    if is_special(shown):
        return Lock(None, shown)
    target = Path(os.path.realpath(shown))
    lock_path = target.parent / f".{target.name}.lock"
    if not os.path.isdir(target.parent):
        raise UserError(f"cannot write {shown}: directory {target.parent} does not exist")
    for _ in range(100):
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise os_error(f"cannot lock {what} {shown}: {_reason(exc)}", exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _holder(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise UserError(
                    f"{what} {shown} is open for writing in another session ({holder}); "
                    "finish that one first"
                ) from None
            raise os_error(f"cannot lock {what} {shown}: {_reason(exc)}", exc) from None
        try:
            same = os.stat(lock_path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if not same:  # the holder removed it as we opened it: take the new one
            os.close(fd)
            continue
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError as exc:  # a full disk, say: the lock file is not left behind
            with contextlib.suppress(OSError):
                os.unlink(lock_path)
            os.close(fd)
            raise os_error(
                f"cannot lock {what} {shown}: cannot write its lock file {lock_path}: "
                f"{_reason(exc)}",
                exc,
            ) from None
        return Lock(fd, lock_path)
    raise UserError(f"cannot lock {what} {shown}: it keeps changing hands")


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "another process"


# -- reading --------------------------------------------------------------------------------------


def read_bytes(path: str | os.PathLike[str], what: str = "file", limit: int = READ_LIMIT) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UserError(f"{what} {path} not found") from None
    except OSError as exc:
        raise os_error(f"{what} {path} cannot be read: {_reason(exc)}", exc) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UserError(f"{what} {path} is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{what} {path} is a {_kind(st.st_mode)}, not a regular file")
        too_big = UserError(
            f"{what} {path} is larger than {limit // 2**20} MB, more than any {what} should be"
        )
        if st.st_size > limit:
            raise too_big
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(2**20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise too_big
        return b"".join(chunks)
    except OSError as exc:
        raise os_error(f"{what} {path} cannot be read: {_reason(exc)}", exc) from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], what: str = "file", limit: int = READ_LIMIT) -> str:
    """The UTF-8 text of the regular file ``path``."""
    try:
        return read_bytes(path, what, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{what} {path} is not UTF-8 text") from None


def read_json(path: str | os.PathLike[str], what: str = "file", limit: int = READ_LIMIT) -> Any:
    """Load JSON from the regular file ``path``, strictly (see :func:`parse_json`)."""
    return parse_json(read_text(path, what, limit), f"{what} {path}")


def parse_json(text: str, where: str) -> Any:
    """JSON without NaN or Infinity, numbers that fit, nesting within bounds."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{where} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise UserError(f"{where}: nested more than {checks.MAX_DEPTH} deep") from None
    checks.tree(data, where)
    return data


def read_toml(path: str | os.PathLike[str], what: str = "file", limit: int = READ_LIMIT) -> Any:
    return parse_toml(read_text(path, what, limit), f"{what} {path}")


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML without nan or inf, numbers that fit, nesting within bounds."""
    try:
        data = tomllib.loads(text, parse_float=_float)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{where}: bad TOML: {' '.join(str(exc).split())}") from None
    except ValueError:  # a whole number too long for int()
        raise UserError(
            f"{where}: a whole number has more than {checks.MAX_INT_DIGITS} digits"
        ) from None
    except RecursionError:
        raise UserError(f"{where}: nested more than {checks.MAX_DEPTH} deep") from None
    checks.tree(data, where)
    return data


def _no_constant(name: str) -> float:
    return float(name.lower().replace("infinity", "inf"))  # refused by checks.tree, by field


def _int(text: str) -> int | checks.TooLong:
    if len(text.lstrip("-")) > checks.MAX_INT_DIGITS:
        return checks.TooLong()  # refused by checks.tree, by field
    return int(text)


def _float(text: str) -> float:
    return float(text)  # 1e400 is inf, refused by checks.tree, by field


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _reason(exc: OSError) -> str:
    """The operating system's words for ``exc``, e.g. "Permission denied"."""
    return exc.strerror or str(exc)
