"""Running a study: split it into fixed chunks, simulate them on local worker processes or a Dask
cluster, and put the chunks back together in order.

Chunks depend only on the study and ``chunk_size``, and every random draw is keyed by intended shot
(see :mod:`sliders.batch.study`), so the table is identical whatever the backend and the number of
workers. A KeyboardInterrupt (Ctrl-C, or raised by ``on_chunk``) stops the run: chunks already
running are allowed to finish, the rest are cancelled, and the result holds every finished chunk
with ``complete=False``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sliders.batch.study import Study
from sliders.errors import UserError

BACKENDS: tuple[str, ...] = ("local", "dask", "dask-local")
DEFAULT_CHUNK = 64
EXACT_CHUNK = 4096
"""the default chunk of a study in the exact engine"""

Columns = dict[str, np.ndarray]
ChunkCallback = Callable[[int, int], None]
"""Called in the calling process after each finished chunk with (shots done, shots in total)."""


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
        from sliders.batch.summary import summarise

        return summarise(self.table, self.study, confidence)

    def write(self, path: str, fmt: str | None = None) -> None:
        from sliders.batch.tables import write_table

        write_table(path, self.table, self.metadata(), fmt)

    def write_summary(self, path: str, fmt: str | None = None, confidence: float = 0.95) -> None:
        from sliders.batch.tables import write_table

        write_table(path, self.summary(confidence), self.metadata(), fmt)

    def metadata(self) -> dict[str, Any]:
        from sliders.batch.work import STATUSES

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
) -> BatchResult:
    """Simulate every shot of ``study``.

    ``backend`` is ``local`` (worker processes on this machine, ``workers`` of them, default all
    cores; one worker runs in this process), ``dask`` (the cluster at ``scheduler``) or
    ``dask-local`` (a Dask LocalCluster of ``workers`` processes started for this run).
    """
    check_options(workers=workers, backend=backend, scheduler=scheduler, chunk_size=chunk_size)
    n = workers or cpu_count()
    if chunk_size == DEFAULT_CHUNK and study.context.engine == "exact":
        chunk_size = EXACT_CHUNK  # its shots take microseconds: keep the per-chunk cost small
    chunks = list(chunk_bounds(study.n_shots, chunk_size))
    t0 = time.perf_counter()
    if backend == "local":
        done, complete, used = _run_local(study, chunks, n, on_chunk)
    else:
        done, complete, used = _run_dask(study, chunks, n, scheduler, on_chunk)
    table = _concat(study, [done[c] for c in sorted(done)])
    return BatchResult(
        study=study,
        table=table,
        complete=complete,
        chunks_done=len(done),
        chunks_total=len(chunks),
        elapsed=time.perf_counter() - t0,
        workers=used,
        backend=backend,
    )


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


def chunk_bounds(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(start + size, total)


class _Tracker:
    """Collects finished chunks and reports progress."""

    def __init__(self, chunks: list[tuple[int, int]], on_chunk: ChunkCallback | None) -> None:
        self.chunks, self.on_chunk = chunks, on_chunk
        self.total = chunks[-1][1] if chunks else 0
        self.shots = 0
        self.done: dict[int, Columns] = {}

    def add(self, index: int, cols: Columns) -> None:
        self.done[index] = cols
        start, stop = self.chunks[index]
        self.shots += stop - start
        if self.on_chunk:
            self.on_chunk(self.shots, self.total)


def _run_local(
    study: Study, chunks: list[tuple[int, int]], workers: int, on_chunk: ChunkCallback | None
) -> tuple[dict[int, Columns], bool, int]:
    from sliders.batch.work import run_chunk

    ctx = study.context
    track = _Tracker(chunks, on_chunk)
    workers = max(1, min(workers, len(chunks)))
    if workers == 1:
        with _interrupt_between_chunks() as interrupted:
            try:
                for c, (start, stop) in enumerate(chunks):
                    track.add(c, run_chunk(ctx, start, stop, study.slice(start, stop)))
                    if interrupted():
                        return track.done, False, 1
            except KeyboardInterrupt:
                return track.done, False, 1
        return track.done, True, 1

    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    mp = multiprocessing.get_context("forkserver")
    mp.set_forkserver_preload(["sliders.batch.work"])
    pool = ProcessPoolExecutor(workers, mp_context=mp, initializer=_worker_init)
    pending: dict[Future[Columns], int] = {}
    todo = iter(enumerate(chunks))
    complete = True
    try:
        for _ in range(3 * workers):
            _submit_local(pool, todo, pending, study)
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                track.add(pending.pop(fut), fut.result())
                _submit_local(pool, todo, pending, study)
    except KeyboardInterrupt:
        complete = False
        for fut in pending:
            fut.cancel()
        # chunks already running finish (workers ignore SIGINT); keep them
        wait(pending)
        for fut, c in pending.items():
            if not fut.cancelled() and fut.exception() is None:
                track.done[c] = fut.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return track.done, complete, workers


@contextlib.contextmanager
def _interrupt_between_chunks() -> Iterator[Callable[[], bool]]:
    """While chunks run in this process, Ctrl-C sets a flag that is checked after each chunk.

    Raised where it lands, the KeyboardInterrupt could fall inside pymunk's clean-up of a finished
    shot's space, where Python prints it and carries on: the run would not stop. Outside the main
    thread no handler can be set, and Ctrl-C is left as it is.
    """
    hits: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: hits.append(signum))
    except ValueError:  # not the main thread
        yield lambda: False
        return
    try:
        yield lambda: bool(hits)
    finally:
        signal.signal(signal.SIGINT, previous)


def _submit_local(pool: Any, todo: Iterator, pending: dict, study: Study) -> None:
    from sliders.batch.work import run_chunk

    item = next(todo, None)
    if item is not None:
        c, (start, stop) = item
        pending[pool.submit(run_chunk, study.context, start, stop, study.slice(start, stop))] = c


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which decides what to keep."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_dask(
    study: Study,
    chunks: list[tuple[int, int]],
    workers: int,
    scheduler: str | None,
    on_chunk: ChunkCallback | None,
) -> tuple[dict[int, Columns], bool, int]:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UserError("the Dask backends need dask[distributed] installed") from None
    from sliders.batch.work import run_chunk

    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
    else:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    track = _Tracker(chunks, on_chunk)
    complete = True
    pending: dict[Any, int] = {}
    try:
        used = max(
            1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        )
        ctx = study.context
        todo = iter(enumerate(chunks))

        def submit() -> Any:
            item = next(todo, None)
            if item is None:
                return None
            c, (start, stop) = item
            fut = client.submit(run_chunk, ctx, start, stop, study.slice(start, stop), pure=False)
            pending[fut] = c
            return fut

        first = [f for f in (submit() for _ in range(3 * used)) if f is not None]
        stream = as_completed(first)
        try:
            for fut in stream:
                track.add(pending.pop(fut), fut.result())
                nxt = submit()
                if nxt is not None:
                    stream.add(nxt)
        except KeyboardInterrupt:
            complete = False
            for fut, c in list(pending.items()):
                if fut.done() and fut.status == "finished":
                    track.done[c] = fut.result()
                else:
                    fut.cancel()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return track.done, complete, used


def _concat(study: Study, parts: list[Columns]) -> Columns:
    if parts:
        return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
    from sliders.batch.work import run_chunk

    return run_chunk(study.context, 0, 0, study.design.shots[:0])
