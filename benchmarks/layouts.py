"""Loading a layout: read and check its file once, build its table once.

    python benchmarks/layouts.py [--repeat N]

For each built-in layout, times (process time, the best of five rounds of N loads):

- ``load_layout(path)`` of a copy of its file: read, check, build the default seating once;
- the same work done the way a load used to do it, in this run: read and check the file, build
  the default seating to check it, then build it again to return (the baseline);
- ``load_layout(name)`` of the built-in: its file read and its table built once per process.

Prints the times per load and the ratios against the baseline.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sliders.boards.placing import build_layout
from sliders.files.layouts import BUILTIN_LAYOUTS, LAYOUTS_DIR, load_layout, parse_layout


def best_of(rounds: int, repeat: int, work: Callable[[], object]) -> float:
    """Seconds of process time per call: the best of ``rounds`` rounds of ``repeat`` calls."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(repeat):
            work()
        times.append((time.process_time() - start) / repeat)
    return min(times)


def twice(path: Path) -> object:
    """A load as it was: parse and check, build to check, build again to return."""
    spec = parse_layout(
        path.read_text(encoding="utf-8"), f"layout file {path}", path.stem, str(path)
    )
    build_layout(spec, spec.default_seats)  # the check the file's reading made
    return build_layout(spec, spec.default_seats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="loads a round (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(
            f"{'layout':<16} {'before µs':>10} {'file µs':>9} {'ratio':>6} {'built-in µs':>12} {'ratio':>7}"
        )
        for name in BUILTIN_LAYOUTS:
            path = Path(tmp) / f"{name}.toml"
            shutil.copy(LAYOUTS_DIR / f"{name}.toml", path)
            before = best_of(5, args.repeat, lambda p=path: twice(p))
            now = best_of(5, args.repeat, lambda p=path: load_layout(str(p)))
            builtin = best_of(5, args.repeat * 10, lambda n=name: load_layout(n))
            print(
                f"{name:<16} {before * 1e6:10.0f} {now * 1e6:9.0f} {now / before:6.2f} "
                f"{builtin * 1e6:12.2f} {builtin / before:7.4f}"
            )


if __name__ == "__main__":
    main()
