"""`sliders play` flags a user can get wrong: one line and exit status 2 before a window opens;
and a machine without a sound card starts the game silently, without the audio library's noise."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from sliders.cli import main
from sliders.scenes.sound import Sounds


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], "--seed: '-1' is not a whole number from 0 up"),
        (["--size", "100000x100000"], "from 640x420 to 16384x16384"),
        (["--size", "1280x0"], "from 640x420 to 16384x16384"),
        (["--save", "."], "cannot write .: it is a directory"),
        (["--save", "no/such/dir/g.json"], "directory no/such/dir does not exist"),
        (["--resume", "no-such-game.json"], "no-such-game.json"),
        (["--resume", "g.json", "--face", "danger-dots"], "leave out --replay, --face"),
    ],
)
def test_bad_flags_are_one_line_and_status_2(argv, message, capsys) -> None:
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sliders play: error: ") and err.count("\n") == 1, err
    assert message in err, err


def test_help_says_a_layout_file_works() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sliders.cli", "play", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "layout name or layout file" in " ".join(out.split())


def test_audio_library_diagnostics_do_not_reach_the_terminal(monkeypatch, capfd) -> None:
    """What a C library prints to descriptor 2 while the mixer starts is dropped."""

    def noisy_init(*args, **kwargs) -> None:
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", noisy_init)
    sounds = Sounds(enabled=True)
    assert not sounds.enabled
    os.write(2, b"after\n")  # descriptor 2 works again afterwards
    assert capfd.readouterr().err == "after\n"


def test_a_real_mixer_start_prints_nothing() -> None:
    """With whatever audio this machine has (none, on a server): silent stderr either way."""
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    env["SDL_VIDEODRIVER"] = "dummy"
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    code = "from sliders.scenes.sound import Sounds; Sounds(enabled=True).close()"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def _play_without(env_changes: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    env["SDL_AUDIODRIVER"] = "dummy"
    return subprocess.run(
        [sys.executable, "-m", "sliders.cli", "play"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # before the fix the game ran on, unseen, in an off-screen window
    )


@pytest.mark.skipif(
    bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")),
    reason="this machine has a display",
)
def test_no_display_is_one_line_not_an_invisible_game() -> None:
    proc = _play_without({"SDL_VIDEODRIVER": None, "XDG_RUNTIME_DIR": None})
    assert proc.returncode == 2
    assert proc.stderr == (
        "sliders play: error: no display to open the window on "
        "(is DISPLAY set? SDL_VIDEODRIVER=dummy runs without one)\n"
    )


def test_a_video_driver_that_will_not_start_is_one_line() -> None:
    proc = _play_without({"SDL_VIDEODRIVER": "no-such-driver"})
    assert proc.returncode == 2
    assert proc.stderr.startswith("sliders play: error: cannot open the window: ")
    assert proc.stderr.count("\n") == 1, proc.stderr
