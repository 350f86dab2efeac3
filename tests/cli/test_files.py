"""Files a user names on the command line: one line and exit status 2 for any path the operating
system refuses, never a traceback, never a stray temporary file."""

from __future__ import annotations

import os

import pytest

from sliders.cli import main
from sliders.core.errors import UserError
from sliders.core.fileio import read_json, write_text_atomic


def _one_error_line(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


def test_render_onto_a_directory_is_refused(tmp_path, capsys) -> None:
    (tmp_path / "pictures").mkdir()
    assert main(["render", "--out", str(tmp_path / "pictures")]) == 2
    _one_error_line(capsys, "pictures", "is a directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pictures"]
    assert not any((tmp_path / "pictures").iterdir())


def test_render_where_the_system_refuses_to_write(tmp_path, capsys) -> None:
    # a file name longer than any file system allows: the system refuses, whoever runs the test
    name = "t" * 300 + ".png"
    assert main(["render", "--out", str(tmp_path / name)]) == 2
    _one_error_line(capsys, "cannot write", "too long")
    assert not any(tmp_path.iterdir())


def test_write_atomic_turns_a_refused_rename_into_a_user_error(tmp_path, monkeypatch) -> None:
    target = tmp_path / "scene.json"
    target.write_text("old")

    def refuse(src: str, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(UserError, match="cannot write .*scene.json: Permission denied"):
        write_text_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["scene.json"]


def test_read_json_turns_an_unreadable_file_into_a_user_error(tmp_path, monkeypatch) -> None:
    path = tmp_path / "scene.json"
    path.write_text("{}")
    real_open = os.open

    def unreadable(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", unreadable)
    with pytest.raises(
        UserError, match="scene file .*scene.json cannot be read: Permission denied"
    ):
        read_json(path, "scene file")


def test_shot_scene_that_cannot_be_read(capsys) -> None:
    # /proc/1/mem exists but no process may read another's memory this way
    if not os.path.exists("/proc/1/mem"):
        pytest.skip("needs Linux /proc")
    assert main(["shot", "--speed", "0.6", "--scene", "/proc/1/mem"]) == 2
    _one_error_line(capsys, "/proc/1/mem")


def test_an_output_through_a_symbolic_link_replaces_the_file_it_points_to(tmp_path) -> None:
    real = tmp_path / "games" / "game.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "game.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["game.json"]


def test_a_replaced_file_keeps_its_permissions(tmp_path) -> None:
    path = tmp_path / "private.json"
    path.write_text("old")
    path.chmod(0o600)
    write_text_atomic(path, "new")
    assert path.read_text() == "new" and (path.stat().st_mode & 0o777) == 0o600


def test_an_existing_picture_is_replaced_whole(tmp_path, capsys) -> None:
    out = tmp_path / "table.png"
    out.write_bytes(b"not a picture, and longer than nothing" * 10_000)
    assert main(["render", "--out", str(out), "--dpi", "30"]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data.endswith(b"IEND\xaeB`\x82")
    assert [p.name for p in tmp_path.iterdir()] == ["table.png"]
