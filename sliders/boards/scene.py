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
the world frame: origin at the board centre, +y north). Their statuses follow from where they stand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sliders.boards.faces import Face, face
from sliders.boards.layout import Layout
from sliders.errors import UserError
from sliders.fileio import read_json, write_json_atomic
from sliders.outcome import FACES

SCENE_SCHEMA = 1


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
        from sliders.boards import load_layout

        return load_layout(self.layout, self.seats), face(self.face)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCENE_SCHEMA,
            "layout": self.layout,
            "seats": list(self.seats),
            "face": self.face,
            "pawns": [{"id": p.id, "x": p.x, "y": p.y} for p in self.pawns],
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "scene") -> Scene:
        if not isinstance(data, dict):
            raise UserError(f"{source}: expected a JSON object")
        schema = data.get("schema", SCENE_SCHEMA)
        if not isinstance(schema, int) or schema > SCENE_SCHEMA:
            raise UserError(f"{source}: schema {schema!r} is newer than this version reads")
        try:
            layout = str(data["layout"])
            face_name = str(data["face"])
            seats = data["seats"]
            if isinstance(seats, str):
                seats = seats.split(",")
            seats = tuple(str(s) for s in seats)
            pawns = tuple(
                ScenePawn(str(p["id"]), float(p["x"]), float(p["y"])) for p in data.get("pawns", [])
            )
        except KeyError as exc:
            raise UserError(f"{source}: missing field {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise UserError(f"{source}: bad value ({exc})") from None
        if face_name not in FACES:
            raise UserError(f"{source}: unknown face {face_name!r}")
        for p in pawns:
            if not (math.isfinite(p.x) and math.isfinite(p.y)):
                raise UserError(f"{source}: pawn {p.id} has no finite position")
        return cls(layout, seats, face_name, pawns)

    @classmethod
    def load(cls, path: str) -> Scene:
        return cls.from_json(read_json(path, "scene file"), f"scene file {path}")

    def save(self, path: str) -> None:
        write_json_atomic(path, self.to_json())
