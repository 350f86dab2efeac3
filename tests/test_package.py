"""The package as it would be published: ``python -m build`` makes an sdist and, from it, a wheel
(in an isolated build environment, from ``[build-system] requires`` alone); the sdist holds every
tracked file a person or the suite needs (the package, its assets and layouts, the documents and
their examples, the tests), the wheel every file of the package, its assets and the compiled
kernels. The wheel installs into a fresh virtual environment, where ``sliders`` runs, the
window's game starts and plays a few frames, and the README's examples and some of the suite's
checks pass against the installed package, run from the sdist's own copy of the suite.

The fresh environment installs the wheel alone (``--no-deps --no-index``) and sees the
dependencies through a ``.pth`` line naming this environment's site-packages: the wheel's
metadata is checked to name every dependency, and what is tested is the installed package, not
a second download of numpy. One test: 5 min 49 s of wall clock (75 s of processor time) on two cores
busy with other work (load 11); the build alone (which compiles the kernels) took 80 s of wall
clock on a quieter machine."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from .helpers import make_docs

ROOT = Path(__file__).resolve().parent.parent

SMOKE = [
    "tests/test_doc_blocks.py",  # the README's fast examples, run with the wheel's sliders
    "tests/boards/test_layouts_builtin.py",
    "tests/cli/test_help.py",
    "tests/scenes/test_text_fit.py",
]
"""the suite's checks run from the sdist against the installed wheel"""
SELECT = "not wheel and not tournaments and (README or not test_documented_block_runs)"
"""of them: the README's examples (the documents' others are the suite's own), no wheel built"""


def _tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if (ROOT / line).is_file()]


@pytest.mark.slow
def test_the_sdist_and_wheel_install_and_run_in_a_fresh_environment(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("the sdist's files are checked against a git checkout")
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
        capture_output=True, text=True, timeout=1500,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = dist.glob("sorry_sliders-*.tar.gz")
    (wheel,) = dist.glob("sorry_sliders-*.whl")

    # the sdist: every tracked file (but the CI's own), so the wheel built from it is whole
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        tar.extractall(tmp_path, filter="data")
    source = tmp_path / top
    missing = [f for f in _tracked() if f not in in_sdist and not f.startswith(".")]
    assert not missing, missing

    # the wheel: every file of the package, the assets, the compiled kernels, the metadata
    with zipfile.ZipFile(wheel) as z:
        in_wheel = set(z.namelist())
        meta_name = next(n for n in in_wheel if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(z.read(meta_name).decode())
    package = [f for f in _tracked() if f.startswith("sliders/")]
    assert not [f for f in package if f not in in_wheel]
    assets = [f for f in _tracked() if f.startswith("assets/")]
    assert assets and not [f for f in assets if f"sliders/{f}" not in in_wheel]
    assert "sliders/physics/exact/__pycache__/kernels.sources" in in_wheel
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needs = {str(Requirement(r)) for r in project["dependencies"]}
    assert needs <= {str(Requirement(r)) for r in meta.get_all("Requires-Dist") or []}
    assert meta["Name"] == "sorry-sliders" and meta["Version"] == project["version"]

    # a fresh environment with the wheel installed; the dependencies seen through a .pth line
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    fresh_site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    (fresh_site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    # this tree's paths, numba's cache and the slow checks (SLIDERS_SLOW) stay out
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NUMBA_", "SLIDERS_"))
    }
    env = dict(clean, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", MPLBACKEND="Agg",
               PYGAME_HIDE_SUPPORT_PROMPT="1")  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()

    def run(*argv: str, timeout: float = 600) -> str:
        done = subprocess.run(
            argv, cwd=work, env=env, capture_output=True, text=True, timeout=timeout
        )
        assert done.returncode == 0, (argv, done.stdout[-8000:], done.stderr[-3000:])
        return done.stdout

    where = run(str(python), "-c", "import sliders, sys; print(sliders.__file__)")
    assert Path(where.strip()).is_relative_to(fresh_site), where  # the wheel, not this tree
    assert run(str(env_dir / "bin" / "sliders"), "--version").startswith("sliders ")
    assert "square" in run(str(env_dir / "bin" / "sliders"), "layouts")
    # the window's game starts and plays a few frames, as the documents' examples run it
    run(str(python), "-c", make_docs._PLAY, "play", "--seats", "south=cpu:easy,north=cpu:easy")
    # the suite's checks, from the sdist, against the installed package
    run(
        str(python), "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
        "-k", SELECT, *(str(source / t) for t in SMOKE), timeout=1200,
    )  # fmt: skip
