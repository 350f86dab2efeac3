"""Work the window does in a thread of its own while it keeps drawing: making the physics ready
(its first run on a machine compiles it, seconds to minutes) and preparing the computer players
for their first turn. One job runs at a time, in the order they were asked for; the screens read
what is being done (:attr:`Background.note`) and for how long, and wait for it where they must
(a shot needs the physics, a computer's turn its preparation).

The job's thread shares the interpreter lock with the window's, so it gives way while the window
makes a frame (:meth:`Background.frame`): each Python call it makes waits until the frame is done.
Without that a frame would wait for the lock, again and again, and on a busy machine for as long
as the job's thread waits for a core while it holds it (hundreds of milliseconds). The compiled
physics releases the lock while it runs, and compiling it is done by a child process
(:meth:`sliders.physics.Engine.prepare`).

Without a thread (``threaded=False``: headless runs and tests that step the window frame by
frame) a job runs at once, when it is asked for.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from sliders.physics import REGISTRY
from sliders.physics.interface import progress_note

SWITCH = 0.0005
"""seconds the job's thread holds the interpreter before it must let the window's thread run
while a job runs (Python's default, 5 ms, would let a frame wait that long many times over)"""
GIVE_WAY = 0.2
"""seconds at most the job's thread waits for a frame to end before it goes on (a frame that
waits for the job itself must not wait for ever)"""
SHOW_AFTER = 0.25
"""seconds a wait lasts before the screens say what it waits for (a shorter one just passes)"""


@dataclass
class _Job:
    key: str
    note: str
    work: Callable[[], object]


class Background:
    """A queue of jobs run one after another in one daemon thread."""

    def __init__(self, threaded: bool = True) -> None:
        self.threaded = threaded
        self._jobs: list[_Job] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._note = ""
        self._since = 0.0
        self.done: set[str] = set()
        """the keys of the jobs finished"""
        self._asked: set[str] = set()
        self.error: BaseException | None = None
        """what the last failed job raised (the screens say it; the window goes on)"""
        self._drawing = False
        self._drawn = threading.Event()
        self._drawn.set()

    @contextmanager
    def frame(self) -> Iterator[None]:
        """While the window makes a frame: the job's thread waits at its next Python call."""
        self._drawn.clear()
        self._drawing = True
        try:
            yield
        finally:
            self._drawing = False
            self._drawn.set()

    def _give_way(self, frame: FrameType, event: str, arg: object) -> None:
        """The job thread's profile hook: at a call, wait while the window makes a frame."""
        if self._drawing and event == "call":
            self._drawn.wait(GIVE_WAY)

    def add(self, key: str, note: str, work: Callable[[], object]) -> None:
        """Run ``work`` after the jobs asked for before it, once for each ``key`` (a job asked
        for again is not run again); ``note`` says what it does."""
        with self._lock:
            if key in self._asked:
                return
            self._asked.add(key)
        if not self.threaded:
            self._run(_Job(key, note, work))
            return
        with self._lock:
            self._jobs.append(_Job(key, note, work))
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="sliders-prepare")
                self._thread.daemon = True
                self._thread.start()

    def say(self, note: str) -> None:
        """A running job's new word for what it does (e.g. once it knows it must compile)."""
        with self._lock:
            self._note = note

    @property
    def busy(self) -> bool:
        """True while a job runs or waits."""
        with self._lock:
            return bool(self._jobs) or bool(self._note)

    def ready(self, key: str) -> bool:
        """True when the job asked for under ``key`` is done."""
        with self._lock:
            return key in self.done

    @property
    def note(self) -> str:
        """What is being done now ("" when nothing is)."""
        with self._lock:
            return self._note or (self._jobs[0].note if self._jobs else "")

    def waited(self) -> float:
        """Seconds the job running now has run."""
        with self._lock:
            return time.perf_counter() - self._since if self._note else 0.0

    def shown(self) -> str:
        """The line a screen shows for the work going on: its note and the seconds it has run,
        once it has run ``SHOW_AFTER`` s; "" otherwise."""
        note, waited = self.note, self.waited()
        if not note or waited < SHOW_AFTER:
            return ""
        return f"{note}… {waited:.0f} s"

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every job is done (headless callers and tests); True when they are."""
        end = None if timeout is None else time.perf_counter() + timeout
        while self.busy:
            if end is not None and time.perf_counter() > end:
                return False
            time.sleep(0.005)
        return True

    def _loop(self) -> None:
        interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH)
        sys.setprofile(self._give_way)  # this thread's only
        while True:
            with self._lock:
                if not self._jobs:
                    self._thread = None
                    sys.setswitchinterval(interval)
                    sys.setprofile(None)
                    return
                job = self._jobs.pop(0)
                self._note, self._since = job.note, time.perf_counter()
            self._run(job)

    def _run(self, job: _Job) -> None:
        with self._lock:
            self._note, self._since = job.note, time.perf_counter()
        try:
            job.work()
        except Exception as exc:  # said on screen: a window does not die of a failed job
            self.error = exc
        finally:
            with self._lock:
                self._note = ""
                self.done.add(job.key)


def prepare_physics(background: Background, engine: str) -> str:
    """Ask ``background`` to make ``engine`` ready (compiled on its first run on a machine, said
    so); the job's key."""
    found = REGISTRY[engine]

    def work() -> None:
        if found.cold():
            background.say(FIRST_RUN)
        found.prepare(
            lambda done, total: background.say(
                progress_note(FIRST_RUN, done, total, background.waited())
            )
        )

    key = f"physics:{engine}"
    background.add(key, "loading the physics", work)
    return key


FIRST_RUN = "preparing the physics (its install did not)"
