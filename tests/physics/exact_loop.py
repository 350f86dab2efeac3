"""The exact engine's compiled loop driven directly, for tests of one event at a time."""

from __future__ import annotations

import math

import numpy as np

from sliders.physics.exact import ensure_compiled
from sliders.physics.exact import state as st
from sliders.physics.exact.loop import advance, reached, start
from sliders.physics.exact.motion import states_at
from sliders.physics.exact.prediction import repredict
from sliders.physics.exact.world import ExactWorld


class Loop:
    """Pawns placed at rest or moving, (x, y, vx, vy) each, on ``world``'s arena, solved by
    :func:`sliders.physics.exact.loop.advance`; the state stays readable (``state``)."""

    def __init__(
        self, world: ExactWorld, *pawns: tuple[float, float, float, float], log_rows: int = 64
    ) -> None:
        ensure_compiled()
        self.arena = world.arena
        self.state = st.new_state(len(pawns), log_rows)
        for i, (x, y, vx, vy) in enumerate(pawns):
            st.place(self.state, i, x, y, vx, vy)
        start(self.state, 0.0, self.arena)
        self.code = st.RUNNING

    def on_rim(self, i: int) -> None:
        """Pawn ``i`` rolls along the rim from the start."""
        self.state.flags[i, st.INR] = st.ON_RIM
        repredict(self.state, i, 0.0, self.arena)

    def run(self, until: float = math.inf) -> np.ndarray:
        """Solve to ``until`` (or rest); every pawn's (x, y) at the time reached, every pawn's
        knock-over threshold the parameters' own (no spread)."""
        tough = np.full(self.state.segments.shape[0], self.arena.params[st.P_KO])
        self.code = advance(self.state, self.arena, tough, until, 100_000)
        if until == math.inf:
            assert self.code == st.SETTLED
        return self.now()[:, :2]

    def now(self) -> np.ndarray:
        """Every pawn's (x, y, vx, vy, spin, heading) at the time reached."""
        out = np.zeros((self.state.segments.shape[0], 6))
        states_at(self.state, reached(self.state, self.code), self.arena.params, out)
        return out

    @property
    def solved(self) -> int:
        return int(self.state.counts[st.SOLVED])

    @property
    def contacts(self) -> int:
        return int(self.state.counts[st.CONTACTS])

    def events(self) -> list[tuple[float, int, int, int, float, float, float]]:
        """The recorded events: (t, kind, a, b, impulse, x, y)."""
        rows = self.state.log[: self.state.counts[st.RECORDED]].tolist()
        return [(t, int(k), int(a), int(b), j, x, y) for t, k, a, b, j, x, y in rows]

    def status(self, i: int) -> int:
        return int(self.state.flags[i, st.STAT])
