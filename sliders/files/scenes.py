"""Scene files: a layout, a face and the pawns already on the table, as JSON.

```json
{
  "schema": 1,
  "layout": "square",
  "seats": ["south", "north"],
  "face": "race-for-home",
  "pawns": [{"id": "north-1", "x": 0.0, "y": 0.03}]
}
```

``layout`` is a built-in layout name or a layout file path; ``seats`` lists the seats in play;
``pawns`` are roller pawns standing on the table (ids ``SEAT-N``, N = 1..4, positions in metres in
the world frame: origin at the board centre, +y north, within ±10 m). Their statuses follow from
where they stand. Any other key is refused, as in layout files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sliders.boards.faces import FACES, Face, face
from sliders.boards.layout import Layout
from sliders.core import checks, records
from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_json_atomic
from sliders.core.outcome import PAWNS_PER_PLAYER, SEATS, parse_seats
from sliders.files.layouts import load_layout

SCENE_SCHEMA = 1
SCENE_KEYS = ("schema", "layout", "seats", "face", "pawns")
MAX_SCENE_PAWNS = len(SEATS) * PAWNS_PER_PLAYER


@dataclass(frozen=True, slots=True)
class ScenePawn:
    id: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Scene:
    layout: str
    seats: tuple[str, ...]
    face: str
    pawns: tuple[ScenePawn, ...] = ()

    def build(self) -> tuple[Layout, Face]:
        """The layout and face this scene names."""
        return load_layout(self.layout, self.seats), face(self.face)

    def to_json(self) -> dict[str, Any]:
        """The scene file's object: its schema, then every field (read back strictly by
        :meth:`from_json`)."""
        return {"schema": SCENE_SCHEMA, **records.to_json(self)}

    @classmethod
    def from_json(cls, data: Any, source: str = "scene") -> Scene:
        """Check a scene's JSON strictly (unknown keys, types, ranges) and build it."""
        checks.obj(data, source, SCENE_KEYS, ("layout", "face", "seats"))
        schema = data.get("schema", SCENE_SCHEMA)
        checks.whole(schema, f"{source}: schema", 1, 2**31)
        if schema > SCENE_SCHEMA:
            raise UserError(f"{source}: schema {schema!r} is newer than this version reads")
        layout = checks.text(data["layout"], f"{source}: layout", limit=4096)
        face_name = checks.text(data["face"], f"{source}: face", FACES)
        seats = data["seats"]
        if isinstance(seats, str):
            seats = seats.split(",")
        checks.array(seats, f"{source}: seats", 1, len(SEATS))
        for i, s in enumerate(seats):
            checks.text(s, f"{source}: seats[{i}]", limit=16)
        try:
            seated = parse_seats(seats)
        except UserError as exc:
            raise UserError(f"{source}: seats: {exc}") from None
        pawns = checks.array(data.get("pawns", []), f"{source}: pawns", 0, MAX_SCENE_PAWNS)
        return cls(
            layout,
            seated,
            face_name,
            tuple(_pawn(p, f"{source}: pawns[{i}]") for i, p in enumerate(pawns)),
        )

    @classmethod
    def load(cls, path: str) -> Scene:
        return cls.from_json(read_json(path, "scene file"), f"scene file {path}")

    def save(self, path: str) -> None:
        write_json_atomic(path, self.to_json())


def _pawn(data: Any, where: str) -> ScenePawn:
    """One entry of a scene's ``pawns``: ``{"id": "north-1", "x": 0.0, "y": 0.03}``."""
    checks.obj(data, where, ("id", "x", "y"), ("id", "x", "y"))
    pid = checks.pawn_id(data["id"], f"{where}.id")
    x, y = checks.position(data, where)
    return ScenePawn(pid, x, y)
