"""Running a study: split it into fixed chunks, simulate them on local worker processes or a Dask
cluster, and put the chunks back together in order.

Chunks depend only on the study and ``chunk_size``, and every random draw is keyed by intended shot
(see :mod:`sliders.batch.study`), so the table is identical whatever the backend and the number of
workers. A run can also complete an earlier, interrupted one: given the shots already done, it
simulates only the others.

Signals stop a run without losing what it finished (see :class:`Stop`): a first Ctrl-C (SIGINT)
lets the chunks already running finish and cancels the rest; a second Ctrl-C, SIGTERM or SIGHUP
stops at once, dropping the chunks still running. Either way the result holds every finished chunk
with ``complete=False``. A KeyboardInterrupt raised by ``on_chunk`` counts as a Ctrl-C. Worker
processes ignore these signals (their parent decides) and exit by themselves when their parent
dies, however it dies, so none is left behind holding memory or the parent's output open.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import forkserver
from types import ModuleType
from typing import Any

import numpy as np

from sliders.batch import work
from sliders.batch.study import Study
from sliders.batch.summary import summarise
from sliders.batch.tables import write_table
from sliders.batch.work import FAULTS, STATUSES
from sliders.core.errors import UserError
from sliders.core.signals import STOP_SIGNALS, stop_signals

BACKENDS: tuple[str, ...] = ("local", "dask", "dask-local")
DEFAULT_CHUNK = 64
EXACT_CHUNK = 4096
"""the default chunk of a study in the exact engine"""

Columns = dict[str, np.ndarray]
ChunkCallback = Callable[[int, int], None]
"""Called in the calling process after each finished chunk with (shots done, shots in total)."""
SaveCallback = Callable[["BatchResult"], None]
"""Called in the calling process now and then with the run's finished shots (incomplete)."""
SAVE_EVERY = 60.0
"""s: the least time between two saves of a run's finished shots (see :func:`run_study`)"""


@dataclass
class BatchResult:
    """The simulated shots of a study, one row per shot, as numpy columns in shot order."""

    study: Study
    table: Columns
    complete: bool
    chunks_done: int
    chunks_total: int
    elapsed: float
    workers: int
    backend: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n_shots(self) -> int:
        return len(self.table["shot"])

    def summary(self, confidence: float = 0.95) -> Columns:

        return summarise(self.table, self.study, confidence)

    def write(self, path: str, fmt: str | None = None) -> None:

        write_table(path, self.table, self.metadata(), fmt)

    def write_summary(self, path: str, fmt: str | None = None, confidence: float = 0.95) -> None:

        record = {**self.metadata(), "confidence": confidence}
        write_table(path, self.summary(confidence), record, fmt)

    @property
    def faults(self) -> dict[str, int]:
        """How many samples the physics refused, by kind (see :data:`~sliders.batch.work.FAULTS`)."""

        counts = np.bincount(self.table["fault"], minlength=len(FAULTS))
        return {FAULTS[k]: int(c) for k, c in enumerate(counts) if k and c}

    def metadata(self) -> dict[str, Any]:

        return {
            **self.study.describe(),
            "complete": self.complete,
            "shots": self.n_shots,
            "shots_planned": self.study.n_shots,
            "statuses": [str(s) for s in STATUSES],
        }


def run_study(
    study: Study,
    *,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    on_chunk: ChunkCallback | None = None,
    done: Columns | None = None,
    stop: Stop | None = None,
    save: SaveCallback | None = None,
) -> BatchResult:
    """Simulate every shot of ``study``.

    ``backend`` is ``local`` (worker processes on this machine, ``workers`` of them, default all
    cores; one worker runs in this process), ``dask`` (the cluster at ``scheduler``) or
    ``dask-local`` (a Dask LocalCluster of ``workers`` processes started for this run).

    ``done`` holds shots already simulated for this study (an interrupted run's table): only the
    others are simulated, and the result is the table a whole run gives. ``stop`` is a
    :class:`Stop` whose signal handlers the caller has installed (so that they also cover what it
    does with the result); without one, handlers are installed for the run alone.

    ``save``, if given, is handed the shots finished so far (with ``done``), as an incomplete
    result, after a chunk finishes at least :data:`SAVE_EVERY` seconds (and ten times the last
    save's own time) after the run began or was last saved: a run that cannot write its table at
    the end (a full disk) has kept what it had finished by then. An error of ``save`` is the
    caller's to note; the run goes on.
    """
    check_options(workers=workers, backend=backend, scheduler=scheduler, chunk_size=chunk_size)
    n = workers or cpu_count()
    if chunk_size == DEFAULT_CHUNK and study.context.engine == "exact":
        chunk_size = EXACT_CHUNK  # its shots take microseconds: keep the per-chunk cost small
    missing = _missing(study.n_shots, done)
    chunks = [c for a, b in missing for c in chunk_bounds(b - a, chunk_size, a)]
    t0 = time.perf_counter()
    saver = _Saver(study, done, backend, t0, save) if save is not None else None
    with contextlib.nullcontext(stop) if stop is not None else Stop().catch() as stop:
        if backend == "local":
            finished, complete, used = _run_local(study, chunks, n, on_chunk, stop, saver)
        else:
            finished, complete, used = _run_dask(study, chunks, n, scheduler, on_chunk, stop, saver)
    parts = [finished[c] for c in sorted(finished)]
    if done is not None and len(done["shot"]):
        parts.append(done)
    table = _concat(study, parts)
    return BatchResult(
        study=study,
        table=table,
        complete=complete and len(table["shot"]) == study.n_shots,
        chunks_done=len(finished),
        chunks_total=len(chunks),
        elapsed=time.perf_counter() - t0,
        workers=used,
        backend=backend,
    )


class Stop:
    """The signals a run has received, and what they ask of it.

    Nothing yet; after a first Ctrl-C (SIGINT), to stop once the chunks running have finished
    (:attr:`requested`); after a second Ctrl-C, a SIGTERM or a SIGHUP, to stop at once
    (:attr:`now`). Handlers only note the signal (the runners poll); while chunks run in this very
    process, a stop-at-once also raises KeyboardInterrupt so the chunk running is abandoned, as
    the handler :meth:`catch` replaced raises it if that one is a function (the command's, which
    notes the stop as it raises).
    """

    def __init__(self) -> None:
        self.received: list[int] = []
        self.raise_now = False
        self._replaced: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return bool(self.received)

    @property
    def now(self) -> bool:
        r = self.received
        return len(r) >= 2 or any(s != signal.SIGINT for s in r)

    @property
    def exit_status(self) -> int:
        """128 + the first signal received, as a shell reports a process that signal stopped."""
        return 128 + int(self.received[0]) if self.received else 0

    @property
    def name(self) -> str:
        return signal.Signals(self.received[0]).name if self.received else ""

    def note(self, signum: int) -> None:
        self.received.append(signum)
        if self.raise_now and self.now:
            self.raise_now = False
            replaced = self._replaced.get(signum)
            if callable(replaced):
                replaced(signum, None)
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def catch(self) -> Iterator[Stop]:
        """Note SIGINT, SIGTERM and SIGHUP instead of dying of them, until the block ends
        (:func:`~sliders.core.signals.stop_signals`: not outside the main thread, nor a signal
        the process was started with ignored)."""
        with stop_signals(lambda signum, frame: self.note(signum)) as previous:
            self._replaced = previous
            try:
                yield self
            finally:
                self._replaced = {}


def check_options(
    *,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> None:
    """Raise UserError for running options :func:`run_study` cannot use (before any work)."""
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if chunk_size < 1:
        raise UserError(f"--chunk-size {chunk_size}: need at least 1")
    if workers is not None and workers < 1:
        raise UserError(f"--workers {workers}: need at least 1")
    if backend == "dask" and not scheduler:
        raise UserError("--backend dask needs --scheduler ADDRESS")
    if scheduler and backend != "dask":
        raise UserError("--scheduler is only for --backend dask")


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunk_bounds(total: int, size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    for start in range(first, first + total, size):
        yield start, min(start + size, first + total)


def _missing(total: int, done: Columns | None) -> list[tuple[int, int]]:
    """The runs ``(start, stop)`` of shots of ``0..total-1`` not in ``done``."""
    if done is None or not len(done["shot"]):
        return [(0, total)] if total else []
    have = np.zeros(total, dtype=bool)
    have[done["shot"]] = True
    edges = np.flatnonzero(np.diff(np.concatenate(([True], have, [True])).astype(np.int8)))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


class _Saver:
    """Hands a run's finished shots to its ``save`` now and then (see :func:`run_study`)."""

    def __init__(
        self, study: Study, done: Columns | None, backend: str, t0: float, save: SaveCallback
    ) -> None:
        self.study, self.done, self.backend, self.save = study, done, backend, save
        self.t0 = self.last = t0
        self.cost = 0.0

    def __call__(self, finished: dict[int, Columns], workers: int) -> None:
        now = time.perf_counter()
        if now - self.last < max(SAVE_EVERY, 10 * self.cost):
            return
        parts = [finished[c] for c in sorted(finished)]
        if self.done is not None and len(self.done["shot"]):
            parts.append(self.done)
        table = _concat(self.study, parts)
        self.save(
            BatchResult(
                self.study, table, False, len(finished), 0, now - self.t0, workers, self.backend
            )  # fmt: skip
        )
        self.last = time.perf_counter()
        self.cost = self.last - now


class _Tracker:
    """Collects finished chunks, reports progress and saves what is finished now and then."""

    def __init__(
        self,
        chunks: list[tuple[int, int]],
        on_chunk: ChunkCallback | None,
        saver: _Saver | None = None,
        workers: int = 1,
    ) -> None:
        self.chunks, self.on_chunk, self.saver, self.workers = chunks, on_chunk, saver, workers
        self.total = sum(stop - start for start, stop in chunks)
        self.shots = 0
        self.done: dict[int, Columns] = {}

    def add(self, index: int, cols: Columns) -> None:
        self.done[index] = cols
        start, stop = self.chunks[index]
        self.shots += stop - start
        if self.saver is not None and len(self.done) < len(self.chunks):
            self.saver(self.done, self.workers)
        if self.on_chunk:
            self.on_chunk(self.shots, self.total)


POLL = 0.1
"""Seconds between looks at the signals received while waiting for worker processes."""


def _run_local(
    study: Study,
    chunks: list[tuple[int, int]],
    workers: int,
    on_chunk: ChunkCallback | None,
    stop: Stop,
    saver: _Saver | None = None,
) -> tuple[dict[int, Columns], bool, int]:

    workers = max(1, min(workers, len(chunks)))
    track = _Tracker(chunks, on_chunk, saver, workers)
    if workers == 1:
        return _run_here(study, chunks, track, stop)
    pool = _local_pool(study.context.engine, workers)
    pending: dict[Future[Columns], int] = {}
    todo = iter(enumerate(chunks))
    broken = False

    def collect(finished: set[Future[Columns]]) -> None:
        nonlocal broken
        for fut in finished:
            c = pending.pop(fut)
            if fut.cancelled():
                continue
            if isinstance(fut.exception(), BrokenProcessPool):
                broken = True  # a worker died (killed from outside): keep what is done
                continue
            track.add(c, fut.result())
            if not (stop.requested or broken):
                _submit_local(pool, todo, pending, study)

    try:
        for _ in range(3 * workers):
            _submit_local(pool, todo, pending, study)
        try:
            while pending and not (stop.requested or broken):
                collect(wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)[0])
        except KeyboardInterrupt:
            stop.received.append(signal.SIGINT)
        for fut in pending:
            fut.cancel()
        # chunks already running finish (workers ignore SIGINT) unless told to stop at once
        while pending and not stop.now:
            try:
                collect(wait(pending, timeout=POLL)[0])
            except KeyboardInterrupt:
                stop.received.append(signal.SIGINT)
    finally:
        if pending:  # stopping at once, or an error: the running chunks are dropped
            drop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
    complete = not broken and len(track.done) == len(chunks)
    return track.done, complete, workers


def _run_here(
    study: Study, chunks: list[tuple[int, int]], track: _Tracker, stop: Stop
) -> tuple[dict[int, Columns], bool, int]:
    """The local backend with one worker: the chunks one after the other in this process."""
    stop.raise_now = True
    try:
        for c, (start, stop_at) in enumerate(chunks):
            if stop.requested:
                return track.done, False, 1
            track.add(c, work.run_chunk(study.context, start, stop_at, study.slice(start, stop_at)))
    except KeyboardInterrupt:  # a second signal, or raised by on_chunk
        if not stop.requested:
            stop.received.append(signal.SIGINT)
        return track.done, False, 1
    finally:
        stop.raise_now = False
    return track.done, len(track.done) == len(chunks), 1


def _local_pool(engine: str, workers: int) -> ProcessPoolExecutor:
    """``workers`` worker processes, forked from a server that has the chunk code loaded."""
    # the fork server imports the chunk code once (and, for the exact engine, loads its compiled
    # kernels once): workers fork from it ready to work
    preload = "sliders.batch.preload" if engine == "exact" else "sliders.batch.work"
    mp = forkserver_context([preload])
    return ProcessPoolExecutor(
        workers, mp_context=mp, initializer=worker_init, initargs=(os.getpid(),)
    )


TRACKER_QUIET = "ignore:resource_tracker:UserWarning"
"""The warning option handed to the resource tracker, which multiprocessing starts with this
process's ``-W`` options: after a SIGKILL of the command the tracker cleans up the pool's
semaphores itself, and its warning that it did says nothing to the user."""


def forkserver_context(preload: list[str]) -> Any:
    """The forkserver context, its server started (if it is not yet) with ``preload`` imported
    (after :mod:`sliders.batch.forked`, which keeps a worker started too late quiet) and Ctrl-C
    ignored: the server imports those modules before it ignores Ctrl-C itself, and a
    Ctrl-C at the terminal reaches every process of the group, so a server started plainly would
    print a traceback of the imports it was in."""
    mp = multiprocessing.get_context("forkserver")
    mp.set_forkserver_preload(["sliders.batch.forked", *preload])
    quiet_resource_tracker()
    with _sigint_ignored():  # inherited through exec: the new interpreter leaves it ignored
        forkserver.ensure_running()
    return mp


def quiet_resource_tracker() -> None:
    """Start any resource tracker (the pools' helper process) without its leak warning."""
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)


def drop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill ``pool``'s workers mid-chunk so that its shutdown cannot hang on them.

    Two of the pool's threads could otherwise wait for ever: the queue's feeder thread, blocked
    on a full pipe to the dead workers (the chunks still queued for them are dropped), and the
    manager thread, when a worker died half-way through sending its chunk's result: it waits for
    the rest of the message as long as a writer of the result pipe is open. This process holds
    one; closing it ends that read (the dead workers' ends are closed by their deaths).
    """
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError):
            proc.kill()
    queue = getattr(pool, "_call_queue", None)
    if queue is not None:
        queue.cancel_join_thread()
    results = getattr(pool, "_result_queue", None)
    if results is not None:
        results._writer.close()


def _submit_local(pool: Any, todo: Iterator, pending: dict, study: Study) -> None:

    item = next(todo, None)
    if item is not None:
        c, (start, stop) = item
        pending[
            pool.submit(work.run_chunk, study.context, start, stop, study.slice(start, stop))
        ] = c


def worker_init(parent: int) -> None:
    """Workers leave signals to the parent, which decides what to keep, and die with it."""
    for name in STOP_SIGNALS:
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, signal.SIG_IGN)
    watch_parent(parent)


def watch_parent(pid: int) -> None:
    """End this process as soon as process ``pid`` has ended, however it ended.

    A worker's parent may be a fork server rather than the process that started the run, so the
    process is watched by its id: through a pidfd where the system has them (Linux 5.3+), which
    becomes readable when the process ends, else by polling. Without this, workers of a parent
    killed with SIGKILL live on, and with them the fork server and the resource tracker, holding
    memory and the parent's stdout (a caller reading it would wait for them).
    """
    fd: int | None = None
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):
        fd = None

    def watch() -> None:
        if fd is not None:
            select.select([fd], [], [])
        else:
            while _alive(pid):
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="sliders-watch-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run_dask(
    study: Study,
    chunks: list[tuple[int, int]],
    workers: int,
    scheduler: str | None,
    on_chunk: ChunkCallback | None,
    stop: Stop,
    saver: _Saver | None = None,
) -> tuple[dict[int, Columns], bool, int]:
    try:
        import distributed  # optional: only the Dask backends need it
    except ImportError:
        raise UserError("the Dask backends need dask[distributed] installed") from None

    client, cluster = _dask_client(distributed, scheduler, workers)
    pending: dict[Any, int] = {}
    failed = False
    try:
        used = max(
            1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        )
        track = _Tracker(chunks, on_chunk, saver, used)
        ctx = study.context
        todo = iter(enumerate(chunks))

        def submit() -> None:
            item = next(todo, None)
            if item is not None:
                c, (start, stop_at) = item
                fut = client.submit(
                    work.run_chunk, ctx, start, stop_at, study.slice(start, stop_at), pure=False
                )
                pending[fut] = c

        def collect() -> None:
            nonlocal failed
            for fut in [f for f in pending if f.done()]:
                c = pending.pop(fut)
                if fut.status == "error":
                    raise fut.exception()  # a fault in the code, not in the cluster
                if fut.status != "finished":
                    failed = True  # a worker lost or killed: keep what is done
                    continue
                track.add(c, fut.result())
                if not (stop.requested or failed):
                    submit()

        for _ in range(3 * used):
            submit()
        # after a first Ctrl-C the chunks submitted finish; a second one stops at once
        while pending and not stop.now and not failed:
            try:
                distributed.wait(list(pending), timeout=POLL, return_when="FIRST_COMPLETED")
            except TimeoutError:
                pass
            except KeyboardInterrupt:
                stop.received.append(signal.SIGINT)
            collect()
        collect()
        for fut in pending:
            fut.cancel()
    finally:
        with _sigint_ignored(), contextlib.suppress(Exception):
            client.close()
            if cluster is not None:
                cluster.close()
    complete = not failed and len(track.done) == len(chunks)
    return track.done, complete, used


def _dask_client(distributed: ModuleType, scheduler: str | None, workers: int) -> tuple[Any, Any]:
    """A client of the Dask scheduler at ``scheduler`` (and no cluster), or of a local cluster of
    ``workers`` processes started for the run (and that cluster, to close after it)."""
    if scheduler:
        try:
            return distributed.Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
    # the cluster's worker processes start with Ctrl-C ignored: a Ctrl-C at the terminal
    # reaches every process of the group, and only this one should act on it
    # (the cluster's own log lines are silenced: a worker still talking to the scheduler as
    # the cluster closes logs tracebacks that say nothing about the study)
    with _sigint_ignored():
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        )
    return distributed.Client(cluster), cluster


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def empty_table(study: Study) -> Columns:
    """The study's columns with no rows: their names and types."""
    return _concat(study, [])


def _concat(study: Study, parts: list[Columns]) -> Columns:
    """The parts as one table in shot order."""
    if parts:
        table = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
        shots = table["shot"]
        if len(shots) and np.any(np.diff(shots) < 0):
            order = np.argsort(shots, kind="stable")
            table = {name: values[order] for name, values in table.items()}
        return table

    return work.run_chunk(study.context, 0, 0, study.design.shots[:0])
