"""Imported first by the fork server that local runs start their workers from, and only there.

A worker forked after its run has ended (the run stopped while its pool was still starting) finds
the run's semaphores and pipes gone as it reads its setup. It ends quietly instead of printing
that as a traceback: the run has already said its one line, and a run still going notices a
worker it lost and says so itself."""

from __future__ import annotations

import sys
from types import TracebackType

_RUN_GONE = (FileNotFoundError, EOFError, ConnectionError)
"""what reading a worker's setup raises once the run that asked for the worker has ended"""


def _quiet_when_the_run_is_gone(
    kind: type[BaseException], value: BaseException, tb: TracebackType | None
) -> None:
    if not issubclass(kind, _RUN_GONE):
        sys.__excepthook__(kind, value, tb)


sys.excepthook = _quiet_when_the_run_is_gone
