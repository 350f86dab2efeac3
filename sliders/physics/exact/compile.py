"""Compiling the kernels once: numba caches the machine code beside the sources (``cache=True``),
so only the first use on a machine (or after an upgrade) pays for it; that use says so on stderr
when it takes more than a moment."""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

_ready = False
NOTICE_AFTER = 1.5
"""seconds of compiling after which the first use prints a line"""
NICE = 5
"""how much lower than the window's the priority of the child that compiles is (on a busy
machine the window's frames come first; the lowest, 19, left the child almost no processor
while the machine was busy, and the game waited minutes for it)"""


Progress = Callable[[int, int], None]
"""called with the parts compiled so far and the parts in all, as each part is compiled"""


def ensure_compiled(quiet: bool = False, progress: Progress | None = None) -> float:
    """Compile (or load from numba's cache) every kernel by running a tiny shot; returns the
    seconds it took (0 once done in this process). ``progress`` is told of each part compiled
    (nothing when the cache serves them all)."""
    global _ready
    if _ready:
        return 0.0
    t0 = time.perf_counter()
    _drop_stale_cache()
    with _counting(progress) as compiled:
        _warm_up()
    _ready = True
    took = time.perf_counter() - t0
    if compiled and took > NOTICE_AFTER and not quiet:
        print(
            f"sliders: compiled the exact physics engine in {took:.0f} s (once; cached for next time)",
            file=sys.stderr,
        )
    return took


def parts() -> int:
    """How many kernels compiling the engine compiles (each function of the kernel modules that
    numba compiles: the parts a progress counts)."""
    return sum(1 for _ in _dispatchers())


def _dispatchers() -> Iterator[Any]:
    for name in KERNEL_MODULES:
        module = importlib.import_module(f"sliders.physics.exact.{name}")
        for f in vars(module).values():
            if getattr(getattr(f, "py_func", None), "__module__", None) == module.__name__:
                yield f


@contextmanager
def _counting(progress: Progress | None) -> Iterator[set[int]]:
    """While it is open: the kernels compiled (not loaded from the cache), each told to
    ``progress`` as it is done."""
    from numba.core import event

    done: set[int] = set()
    total = parts()

    class Counter(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            pass

        def on_end(self, ev: event.Event) -> None:
            dispatcher = ev.data["dispatcher"]
            if dispatcher.py_func.__module__.startswith(__package__ + ".") and (
                id(dispatcher) not in done
            ):
                done.add(id(dispatcher))
                if progress is not None:
                    progress(min(len(done), total), total)

    with event.install_listener("numba:compile", Counter()):
        yield done


def compile_in_child(progress: Progress | None = None) -> bool:
    """Compile the kernels into numba's cache on disk in a child interpreter, and wait for it;
    True when the child finished them. ``progress`` is told of each part the child compiles.

    A window that prepares the physics while it draws calls this first when
    :func:`compile_needed`: numba's compiler is Python code, and in a thread of the window's own
    process it would hold the interpreter lock the window draws with (on a busy machine, for
    hundreds of milliseconds at a time). The child holds its own, and runs at a lower priority
    (:data:`NICE`) so that the window's frames come first on a busy machine; the window then only
    loads the cached kernels (:func:`ensure_compiled`). False when the child failed (the first
    use then compiles in this process, as without it)."""
    if _ready:
        return True
    package = str(Path(__file__).resolve().parents[3])  # the child imports these sources
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": package if not path else package + os.pathsep + path}
    code = (  # at a lower priority: the window drawing meanwhile comes first
        f"import os\nif hasattr(os, 'nice'): os.nice({NICE})\n"
        "from sliders.physics.exact.compile import main\nmain(['--parts'])"
    )
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
    except OSError:
        return False
    assert child.stdout is not None
    with child:
        for line in child.stdout:
            words = line.split()
            if progress is not None and len(words) == 2 and all(w.isdigit() for w in words):
                progress(int(words[0]), int(words[1]))
    return child.returncode == 0


def main(argv: list[str] | None = None) -> None:
    """Compile the kernels into numba's cache (the
    package's build does it, so that no first run waits for it), a line for each part: said in
    words, or with ``--parts`` as two numbers (done, in all) for a parent to read."""
    numbers = "--parts" in (argv if argv is not None else sys.argv[1:])
    t0 = time.process_time()

    def say(done: int, total: int) -> None:
        line = f"{done} {total}" if numbers else f"sliders: compiled part {done} of {total}"
        print(line, flush=True)

    ensure_compiled(quiet=True, progress=say)
    if not numbers:
        print(f"sliders: the physics engine is compiled ({time.process_time() - t0:.0f} s)")


WARM_UP_ENTRIES = (
    "lay_out", "solve", "run_batch", "run_each", "classify_at", "classify_many", "placement_clear",
    "new_state",
)  # fmt: skip
"""the kernels :func:`_warm_up` calls from Python: a cache holding them all for this machine is warm"""


def compile_needed() -> bool:
    """True when the exact engine's first use in this process will compile its kernels: they
    are not loaded yet, and either their sources changed since the cache was written or numba's
    cache holds no machine code of them for this machine. Reads numba's cache index without
    compiling; False when the answer cannot be read (the first use then says so itself)."""
    if _ready:
        return False
    here = Path(__file__).parent
    try:
        if (here / "__pycache__" / "kernels.sources").read_text() != _sources_digest():
            return True
    except OSError:
        return True  # no stamp: nothing was compiled here yet
    try:
        from sliders.physics.exact import classification, loop, state

        found = {**vars(state), **vars(classification), **vars(loop)}
        for entry in WARM_UP_ENTRIES:
            dispatcher = found[entry]
            index = dispatcher._cache._cache_file._load_index()  # numba's, not public
            machine = dispatcher.targetctx.codegen().magic_tuple()
            if not any(key[1] == machine for key in index):
                return True
    except Exception:  # numba's cache is not public: if it changes, say nothing rather than fail
        return False
    return False


KERNEL_MODULES = (
    "state", "motion", "roots", "paths", "prediction", "rim", "resolution", "classification", "loop"
)  # fmt: skip
"""the modules whose functions are compiled (the names of their numba cache files begin so)"""


def _drop_stale_cache() -> None:
    """Delete the kernels' cached machine code when any of their sources changed.

    numba checks a cached function against its own source file only, while a kernel's machine
    code holds the kernels it calls from other modules: after an edit to one module, the others'
    cached code would run its old version. A digest of all the sources, kept beside the cache,
    tells."""
    here = Path(__file__).parent
    digest = _sources_digest()
    cache = here / "__pycache__"
    stamp = cache / "kernels.sources"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass  # no stamp yet
    try:
        for path in cache.glob("*.nb[ic]"):
            if path.name.split(".", 1)[0] in KERNEL_MODULES:
                path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        part = cache / f"kernels.sources.{os.getpid()}"
        part.write_text(digest)
        part.replace(stamp)
    except OSError:
        pass  # a read-only install: numba keeps its cache elsewhere


def _sources_digest() -> str:
    here = Path(__file__).parent
    return hashlib.sha256(
        b"".join((here / f"{name}.py").read_bytes() for name in KERNEL_MODULES)
    ).hexdigest()


def _warm_up() -> None:
    """Run every entry compiled code offers from Python once, on a tiny table."""
    from sliders.physics.exact import state as st
    from sliders.physics.exact.classification import classify_at, classify_many, placement_clear
    from sliders.physics.exact.loop import BatchOut, lay_out, run_batch, run_each, solve

    params = np.zeros(st.NPARAM)
    params[st.P_R], params[st.P_M], params[st.P_DEC], params[st.P_ALPHA] = 0.0125, 0.015, 0.49, 1.0
    params[st.P_EP], params[st.P_ER], params[st.P_KO], params[st.P_KOF] = 0.8, 0.6, 1.0, 1.0
    params[st.P_MAXT], params[st.P_HOLE], params[st.P_RC] = 10.0, 0.015, 0.0025
    params[st.P_G], params[st.P_H], params[st.P_TDROP] = 9.81, 0.005, 0.03
    rails = np.array([[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.003]])
    arena = st.Arena(rails, np.array([[2.0, -1.0, 3.0, 1.0]]), params)
    zones = st.Zones(
        np.array([[-1.0, -1.0, 1.0, 1.0]]),
        np.zeros((4, 1), dtype=np.bool_),
        np.zeros(9),
        np.zeros((0, 2)),
        np.zeros((0, 2)),
        np.zeros((0, 3)),
    )
    tough = np.ones(2)
    table = np.array([[0.1, 0.0]])
    state = st.new_state(2, 16)
    lay_out(state, table, np.zeros(2), np.array([1.0, 0.0]), False)
    solve(state, arena, tough, math.inf, 1000, True, np.zeros((2, 6)))
    classify_at(0.0, 0.0, 0, zones)
    classify_many(np.zeros(1), np.zeros(1), np.zeros(1, np.int64), zones,
                  np.zeros(1, np.int8), np.zeros(1, np.int16))  # fmt: skip
    placement_clear(np.zeros((1, 2)), rails, zones.surface, 0.0125, 1e-12)
    out = BatchOut(np.zeros((1, 2), np.int8), np.zeros((1, 2), np.int16), np.zeros((1, 2, 2)),
                   np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.bool_))  # fmt: skip
    run_batch(table, np.zeros(2, dtype=np.int64), np.zeros((1, 2)), np.array([[1.0, 0.0]]),
              np.zeros(1, np.bool_), arena, zones, tough.reshape(1, 2), 1000, out)  # fmt: skip
    run_each(np.array([0, 2]), np.zeros((2, 2)) + table[0], np.zeros((1, 2)), np.array([[1.0, 0.0]]),
             np.zeros(1, np.bool_), tough, arena, 1000, 16, np.zeros((2, 6)),
             np.zeros(2, np.int64), np.zeros((1, 2)), np.zeros((1, 3), np.int64),
             np.zeros(1, np.int64))  # fmt: skip
