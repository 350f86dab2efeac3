"""MkDocs hooks for the documents' site (``mkdocs.yml``): the README as the home page and its
first game as the tutorial page, both made from README.md at build time (one text); links out
of ``docs/`` made to work in the site (``../README.md`` is the home page; a source file linked
from a page is copied beside the pages); and the API reference page, read from the docstrings
by mkdocstrings."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
API = [
    "sliders.core.outcome",
    "sliders.boards",
    "sliders.physics",
    "sliders.rules",
    "sliders.game",
    "sliders.ai",
    "sliders.batch",
    "sliders.lab",
    "sliders.tournament",
]
"""the packages the API reference shows, the layers from the bottom up"""
SOURCE = "source"
"""the folder of the site that holds the source files the pages link to"""
LINK = re.compile(r"\]\((?!https?:|#|mailto:)([^)\s]+)\)")


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def home() -> str:
    """The README as a page of the site: its links into ``docs/`` made relative to the site."""
    return LINK.sub(lambda m: f"]({_from_readme(m.group(1))})", readme())


def _from_readme(target: str) -> str:
    if target.startswith("docs/"):
        return target[len("docs/") :]
    if target.startswith("#"):
        return target
    return f"{SOURCE}/{target}"


def tutorial() -> str:
    """The README's first game, as a page of its own."""
    text = home()
    start = text.index("## Your first game")
    end = text.index("\n## ", start + 3)
    body = text[start + len("## Your first game") : end].strip()
    return (
        "# Your first game\n\n"
        "Install `sliders` as the [home page](index.md) says, then read on.\n\n"
        f"{body}\n\nNext: every screen and key of the window, [play.md](play.md); the rules "
        "where the rulebook is silent, [rules.md](rules.md).\n"
    )


def api() -> str:
    parts = [
        "# API reference\n",
        "The package's layers, from the bottom up, as their "
        "docstrings describe them ([architecture.md](architecture.md)).\n",
    ]
    parts += [f"::: {name}\n" for name in API]
    return "\n".join(parts)


def _linked_sources(config: Any) -> set[str]:
    """Files outside ``docs/`` that the pages (and the README) link to."""
    found: set[str] = set()
    for page in Path(config["docs_dir"]).glob("*.md"):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            path = target.split("#")[0]
            if path.startswith("../") and path != "../README.md":
                found.add(path[3:])
    for target in LINK.findall(readme()):
        path = target.split("#")[0]
        if path and not path.startswith(("docs/", "#")):
            found.add(path)
    return {f for f in found if (ROOT / f).is_file()}


def on_files(files: Files, config: Any) -> Files:
    for name, content in (("index.md", home()), ("tutorial.md", tutorial()), ("api.md", api())):
        files.append(File.generated(config, name, content=content))
    for source in sorted(_linked_sources(config)):
        text = (ROOT / source).read_text(encoding="utf-8")
        files.append(File.generated(config, f"{SOURCE}/{source}", content=text))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """A page's links out of ``docs/``: the README is the home page, a source file its copy."""

    def link(m: re.Match[str]) -> str:
        target = m.group(1)
        path, _, anchor = target.partition("#")
        if path == "../README.md":
            return f"](index.md{'#' + anchor if anchor else ''})"
        if path.startswith("../"):
            return f"]({SOURCE}/{path[3:]}{'#' + anchor if anchor else ''})"
        return m.group(0)

    return LINK.sub(link, markdown)
