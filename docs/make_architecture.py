"""Draw docs/architecture/layers.png: the package's subpackages as they import each other.

    python docs/make_architecture.py

Read from the source itself (every ``import`` outside ``if TYPE_CHECKING``), so the picture cannot
drift from the code: each box is a subpackage with its modules and lines, placed one row above
the highest package it imports; an arrow points from a package to one it imports, drawn only
where no longer path through other packages implies it (the transitive reduction).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sliders"
OUT = ROOT / "docs" / "architecture" / "layers.png"

JOBS = {
    "core": "vocabulary: statuses, events,\nshots, results; checks, files",
    "boards": "pieces and geometry",
    "files": "layout and scene files",
    "physics": "one interface,\nexact and pymunk engines",
    "rules": "the four games' rules,\nthe game log",
    "ai": "computer players: one search,\none value",
    "game": "the turn machine, players,\nsaved games",
    "net": "games over the network:\nhost, protocol, client",
    "batch": "shot studies",
    "tournament": "games between players",
    "pictures": "every matplotlib picture",
    "lab": "the best shot",
    "scenes": "the window (pygame)",
    "env": "Gymnasium / PettingZoo",
    "cli": "the command line",
}


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "sliders" else None


def graph() -> tuple[dict[str, set[str]], dict[str, tuple[int, int]]]:
    """Each subpackage's direct imports of the others, and its modules and lines."""
    edges: dict[str, set[str]] = {}
    size: dict[str, tuple[int, int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        if len(rel) < 2:
            continue
        here = rel[0]
        text = path.read_text(encoding="utf-8")
        modules, lines = size.get(here, (0, 0))
        size[here] = (modules + 1, lines + len(text.splitlines()))
        tree = ast.parse(text)
        skip = {
            id(n)
            for node in tree.body
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                there = package_of(name)
                if there and there != here and (PACKAGE / there).is_dir():
                    edges.setdefault(here, set()).add(there)
    for name in size:
        edges.setdefault(name, set())
    return edges, size


def rows(edges: dict[str, set[str]]) -> dict[str, int]:
    """Each package's row: one above the highest package it imports (the bottom row is 0)."""
    row: dict[str, int] = {}

    def place(name: str, seen: tuple[str, ...] = ()) -> int:
        if name in seen:
            raise SystemExit(f"import cycle: {' -> '.join((*seen, name))}")
        if name not in row:
            row[name] = 1 + max((place(t, (*seen, name)) for t in edges[name]), default=-1)
        return row[name]

    for name in edges:
        place(name)
    return row


def reduction(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports no chain through other packages implies."""

    def reach(name: str) -> set[str]:
        seen: set[str] = set()
        stack = list(edges[name])
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(edges[n])
        return seen

    return {
        a: {b for b in bs if not any(b in reach(c) for c in bs - {b})} for a, bs in edges.items()
    }


def draw(edges: dict[str, set[str]], size: dict[str, tuple[int, int]], out: Path) -> None:
    row = rows(edges)
    levels: dict[int, list[str]] = {}
    for name, r in sorted(row.items(), key=lambda kv: (kv[1], kv[0])):
        levels.setdefault(r, []).append(name)
    top = max(levels)
    fig = Figure(figsize=(9.5, 1.05 * (top + 1) + 0.6), dpi=110)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.7, top + 0.9)
    ax.axis("off")
    where: dict[str, tuple[float, float]] = {}
    for r in sorted(levels):  # bottom up, each row ordered by where its imports stand
        names = levels[r]
        names.sort(key=lambda n: (sum(where[t][0] for t in edges[n]) / max(len(edges[n]), 1), n))
        for i, name in enumerate(names):
            x = 10 * (i + 1) / (len(names) + 1)
            where[name] = (x, r)
    for here, targets in reduction(edges).items():
        for there in targets:
            (x0, y0), (x1, y1) = where[here], where[there]
            ax.add_patch(
                FancyArrowPatch(
                    (x0, y0 - 0.33), (x1, y1 + 0.33), arrowstyle="-|>", mutation_scale=8,
                    color="#9aa7b8", lw=0.6, shrinkA=0, shrinkB=0, zorder=1,
                )
            )  # fmt: skip
    for name, (x, y) in where.items():
        modules, lines = size[name]
        ax.add_patch(
            FancyBboxPatch(
                (x - 1.05, y - 0.33), 2.1, 0.66, boxstyle="round,pad=0.02,rounding_size=0.08",
                fc="#f4efe2", ec="#5a4a2a", lw=0.9, zorder=2,
            )
        )  # fmt: skip
        ax.text(x, y + 0.17, name, ha="center", va="center", fontsize=9.5, weight="bold", zorder=3)
        ax.text(x, y - 0.04, JOBS.get(name, ""), ha="center", va="center", fontsize=6.2, zorder=3)
        ax.text(
            x + 1.0, y - 0.31, f"{modules} modules · {lines:,} lines", ha="right", va="bottom",
            fontsize=5.2, color="#6b6b6b", zorder=3,
        )  # fmt: skip
    ax.text(
        5, -0.6, "an arrow: a package imports another (and all it imports); nothing imports upward",
        ha="center", fontsize=7, color="#444444",
    )  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="png")


def main() -> int:
    edges, size = graph()
    draw(edges, size, OUT)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
