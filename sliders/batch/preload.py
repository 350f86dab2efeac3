"""What the fork server of a local run imports once, before it forks any worker: the chunk code
and the exact engine's compiled kernels (loaded from numba's cache, or compiled the first time,
with the one-line notice). Every worker forks from that server with them in memory, so none pays
the second or so of loading them, and a short study keeps its workers busy from the start.

Importing this module does the loading (a fork server only imports what it preloads)."""

from __future__ import annotations

from sliders.batch import work  # noqa: F401  (the code every chunk runs)
from sliders.core.errors import UserError
from sliders.physics import require_engine
from sliders.physics.exact import ensure_compiled

try:
    require_engine("exact")
    ensure_compiled()
except UserError:  # pragma: no cover - a worker says it in one line when a chunk needs it
    pass
