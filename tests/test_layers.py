"""The package's layers, read from its source: imports run one way, without cycles; argparse only in
the command line, pygame only in the window (and the environments' optional viewer); imports inside
functions only for optional heavy libraries."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sliders.cli import COMMANDS

PACKAGE = Path(__file__).resolve().parent.parent / "sliders"

# Lowest first. A module may import its own layer and the layers below it, never one above.
# ``ai`` sits under ``game``: a match seats computer players, and the players read only the rules
# and the physics.
LAYERS: list[set[str]] = [
    {"", "core"},  # the vocabulary and its helpers
    {"boards"},  # pieces and geometry
    {"files"},  # layout and scene files
    {"physics"},
    {"rules"},
    {"ai"},
    {"game"},
    {"net"},  # games over the network: the host drives the one game driver; clients keep a copy
    {"batch", "tournament"},
    {"calibrate"},  # the model fitted to measured slides: tracking videos, fitting, proofs
    {"pictures"},  # every matplotlib picture, of the table, a study, a tournament
    {"lab"},  # the best-shot search: batch studies valued as the computer players value them
    {"scenes"},  # the window: pygame
    {"env"},  # environments: the game for learning programs, shown in the window's viewer
    {"cli"},
]

# Libraries that may be imported inside a function: optional or heavy, loaded only when used.
LAZY_LIBRARIES = {
    "pandas",
    "pygame",
    "matplotlib",
    "dask",
    "distributed",
    "pyarrow",
    "numba",
    "gymnasium",
    "pettingzoo",
    "cv2",  # OpenCV: the calibrate extra, for videos
    "scipy",  # a quarter second (ndimage) to a second (stats) to import: not before a window's first slide
    "readline",  # the standard library's, absent on some systems; loaded for a typing person
}
# The package's own modules that load such a library, imported where they are used.
LAZY_OWN = {
    "sliders.physics.exact",  # the exact engine compiles its numba kernels when first asked for
}
# Imports of the package's own modules that stay inside a function, each with its reason.
LAZY_MODULES: dict[str, set[str]] = {
    # the package's names, loaded when first used: importing the package alone costs next to
    # nothing, so the command sets its signal handlers before the vocabulary loads
    "sliders": {"sliders.core.outcome"},
    # a command's module loads what it runs on (numpy, the physics, scipy...): only when it runs,
    # so that building the parser (``sliders --help``) loads its flags alone
    "sliders.cli": {f"sliders.cli.{name}" for name in COMMANDS},
    # the window's modules load pygame: only when a game is played or replayed
    "sliders.cli.play": {"sliders.scenes.app", "sliders.scenes.screens", "sliders.scenes.sound"},
    "sliders.cli.review": {"sliders.scenes.app", "sliders.scenes.reviewscreen"},
    "sliders.cli.practice": {"sliders.scenes.screens"},
    "sliders.cli.join": {"sliders.scenes.screens"},
    # every screen, loaded by name when one is first asked for: the screens load pygame, and
    # importing the package alone stays light
    "sliders.scenes": {"sliders.scenes.screens"},
}
PYGAME_PACKAGES = {"scenes"}


PACKAGES: set[str] = set()


def modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if parts[-1] == "__init__":
            PACKAGES.add(name)
    return found


MODULES = modules()


def imports(tree: ast.Module, module: str) -> list[tuple[str, bool]]:
    """(module imported, whether at module level) for every import, those under ``if
    TYPE_CHECKING`` too: a name a module's types need runs the same way as one its code needs
    (a type-only import up the layers, or round a circle, is the same tangle for a reader and
    for the type checker)."""
    inner = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner |= {id(n) for n in ast.walk(node) if n is not node}
    top = {id(n) for n in ast.walk(tree)} - inner
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up level - 1 packages
                package = module if module in PACKAGES else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for a in node.names:  # ``from pkg import sub`` imports the module pkg.sub
                sub = f"{base}.{a.name}"
                found.append((sub if sub in MODULES else base, id(node) in top))
    return found


def layer(module: str) -> int:
    part = module.split(".")[1] if "." in module else ""
    for rank, names in enumerate(LAYERS):
        if part in names:
            return rank
    raise AssertionError(f"{module}: in no layer; add its package to LAYERS")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_down_the_layers(module: str) -> None:
    up = [
        target
        for target, _ in imports(MODULES[module], module)
        if target.split(".")[0] == "sliders" and layer(target) > layer(module)
    ]
    assert not up, f"{module} (layer {layer(module)}) imports from a higher layer: {up}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_inside_functions_only_for_optional_libraries(module: str) -> None:
    inner = [target for target, top in imports(MODULES[module], module) if not top]
    allowed = LAZY_MODULES.get(module, set())
    bad = [
        t
        for t in inner
        if t.split(".")[0] not in LAZY_LIBRARIES
        and t not in allowed
        and not any(t == own or t.startswith(own + ".") for own in LAZY_OWN)
    ]
    assert not bad, f"{module} imports inside a function: {bad}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_argparse_only_in_cli_and_pygame_only_in_the_window(module: str) -> None:
    roots = {t.split(".")[0] for t, _ in imports(MODULES[module], module)}
    package = module.split(".")[1] if "." in module else ""
    if "argparse" in roots:
        assert package == "cli", f"{module} imports argparse"
    if "pygame" in roots:
        assert package in PYGAME_PACKAGES, f"{module} imports pygame"


def test_no_import_cycles() -> None:
    """A module never imports (through any chain) a module that imports it; a package's
    ``__init__`` re-exporting its own modules is the one exception (Python runs it first)."""
    graph = {
        m: {t for t, _ in imports(tree, m) if t in MODULES and t != m and not m.startswith(t + ".")}
        for m, tree in MODULES.items()
    }
    cycles = []
    for start in graph:
        seen, stack = set(), [(start, (start,))]
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(" -> ".join((*path, start)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*path, nxt)))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(set(cycles)))


def test_the_layer_test_sees_every_package() -> None:
    packages = {m.split(".")[1] for m in MODULES if "." in m}
    assert packages <= set().union(*LAYERS)
    assert {"boards", "physics", "rules", "game", "scenes", "cli"} <= packages


def test_no_cycles_between_subpackages() -> None:
    """Two packages of one layer never import each other, through any chain of packages."""
    graph: dict[str, set[str]] = {}
    for module, tree in MODULES.items():
        here = module.split(".")[1] if "." in module else ""
        for target, _ in imports(tree, module):
            there = target.split(".")[1] if target.startswith("sliders.") else None
            if there is not None and there != here:
                graph.setdefault(here, set()).add(there)
    cycles = []
    for start in graph:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    cycles.append(" -> ".join((*path, start)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*path, nxt)))
    assert not cycles, "package cycles:\n" + "\n".join(sorted(set(cycles)))
