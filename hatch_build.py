"""The package's build step: the exact engine's kernels are compiled when the wheel is built
(``pip install`` builds one, editable or not), so that no first run of a game or a command waits
for numba's compiler.

The build runs ``sliders.physics.exact.compile.main`` on these sources with the build's own
numba (``[build-system] requires`` names the same numba as the package's dependencies): numba's
cache is written beside the sources (``sliders/physics/exact/__pycache__``), for the processor
family's baseline (:mod:`sliders.physics.exact.state`), and found again at run time by the
sources' content. An editable install runs from these sources, cache and all (their Python
bytecode compiled too, as a wheel's install does it); a wheel carries the cache files. When the
kernels cannot be compiled here, the build says so and goes on: the first use then compiles
them, as it always could.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

KERNELS = Path("sliders", "physics", "exact")
CACHE_SUFFIXES = (".nbi", ".nbc")


class CompileKernels(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        env = {
            k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CPU_NAME")
        }
        path = os.environ.get("PYTHONPATH")  # the build's isolated packages may come through it
        env["PYTHONPATH"] = str(root) if not path else str(root) + os.pathsep + path
        code = "from sliders.physics.exact.compile import main\nmain()"
        print("sliders: compiling the physics engine (about a minute)…", flush=True)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=False)
        if done.returncode != 0:
            print(
                "sliders: the physics engine could not be compiled now; its first use will",
                flush=True,
            )
            return
        print(f"sliders: compiled in {time.perf_counter() - t0:.0f} s", flush=True)
        if version == "editable":  # run from these sources: the cache is beside them
            # and so is Python's: a wheel's install compiles its modules, an editable one not
            compileall.compile_dir(root / "sliders", quiet=1)
            return
        cache = root / KERNELS / "__pycache__"
        for path in sorted(cache.iterdir()):
            if path.suffix in CACHE_SUFFIXES or path.name == "kernels.sources":
                build_data["force_include"][str(path)] = str(KERNELS / "__pycache__" / path.name)
