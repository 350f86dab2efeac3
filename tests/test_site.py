"""The documents build as a site (``mkdocs.yml``: the README as the home page, its first game as
the tutorial page, every page of docs/, the API reference from the docstrings) with every
warning an error, as it would be published."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_documents_build_as_a_site_with_no_warning(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr
    pages = {p.parent.name for p in site.glob("*/index.html")}
    documents = {p.stem for p in (ROOT / "docs").glob("*.md")}
    assert documents | {"tutorial", "api"} <= pages, documents - pages
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Your first game" in home and 'href="docs/' not in home  # links made the site's
    tutorial = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert "flick" in tutorial and "SORRY! corners" in tutorial
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("sliders.rules", "sliders.physics", "sliders.boards"):
        assert f'id="{name}"' in api, name
