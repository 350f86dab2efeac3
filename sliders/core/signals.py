"""The stop signals (Ctrl-C's SIGINT, SIGTERM, SIGHUP): handlers set for a block and put back
after it, and the signals held through a block where an exception must not land.

Light on purpose: the ``sliders`` command loads this before anything else (:mod:`sliders.cli`).
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

TYPE_CHECKING = False  # as typing's, without loading typing: the command loads this module first
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
"""the signals that stop a command, by name (SIGHUP is missing on some systems)"""


@contextmanager
def stop_signals(handler: Any) -> Iterator[dict[int, Any]]:
    """SIGINT, SIGTERM and SIGHUP go to ``handler`` (a function, or ``signal.SIG_IGN``) until the
    block ends, then back to their handlers before it; the block is given those, by signal.

    In the main thread: elsewhere no handler can be set, and signals are left as they are. A
    signal the process was started with ignored (``nohup``, Ctrl-C of a background job) stays
    ignored."""
    previous: dict[int, Any] = {}
    try:
        for name in STOP_SIGNALS:
            sig = getattr(signal, name, None)
            if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield previous
    finally:
        for sig, old in previous.items():
            if old is not None:  # None: a handler not set from Python, which cannot be put back
                signal.signal(sig, old)


@contextmanager
def held_stops() -> Iterator[list[int]]:
    """The stop signals received during the block, only noted (the block is given the list, to
    stop at a moment of its choosing), and the first of them sent again as the block ends, to
    the handler it would have met (the ``sliders`` command's raises :class:`KeyboardInterrupt`).

    For code an exception must not land in the middle of: Python called back from a native
    library, which would print and drop it, or code that holds several locks at once (the
    standard library's ``concurrent.futures.wait``), which would leave some held. A signal
    ignored, or outside the main thread, is left as it is."""
    caught: list[int] = []

    def note(signum: int, frame: object) -> None:
        caught.append(signum)

    try:
        with stop_signals(note):
            yield caught
    finally:  # the block ended, however it did
        if caught:
            signal.raise_signal(caught[0])
