"""Errors a command reports in one line on stderr: the user's (exit status 2) and the machine's
(exit status 1)."""

from __future__ import annotations

import errno


class UserError(Exception):
    """A bad flag value, a broken file, an impossible shot: something the user can fix."""


class MachineFault(UserError):
    """Not the input's fault: the machine refused the work (a full disk, a quota, an I/O error,
    no file descriptor or memory left). Told in one line like a user's error, with exit status 1."""


MACHINE_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EMFILE, errno.ENFILE, errno.ENOMEM}
)
"""the operating system's refusals that are the machine's, not the input's"""


def os_error(message: str, exc: OSError) -> UserError:
    """The one-line error for ``exc``, met doing what ``message`` says: a :class:`MachineFault`
    when the machine is at fault, else a :class:`UserError` (a name, a folder, a permission)."""
    return (MachineFault if exc.errno in MACHINE_ERRNOS else UserError)(message)
