"""Safe readers and writers: regular files only, size caps, strict JSON and TOML; special files
written in place and never replaced; stale temporaries cleaned up; locks that name their holder."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading

import pytest

from sliders.cli import main
from sliders.core import checks
from sliders.core.errors import MachineFault, UserError
from sliders.core.fileio import (
    lock,
    parse_json,
    parse_toml,
    read_json,
    read_text,
    remove_stale_temporaries,
    write_atomic,
    write_json_atomic,
    write_text_atomic,
)

# -- readers --------------------------------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    with pytest.raises(UserError, match="scene file .* is a FIFO, not a regular file"):
        read_json(fifo, "scene file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_not_read_forever(device):
    with pytest.raises(UserError, match=f"layout file {device} is a character device"):
        read_text(device, "layout file")


def test_the_size_cap(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("[" + "0," * 600 + "0]")
    assert len(read_json(path, "scene file", limit=2000)) == 601
    with pytest.raises(UserError, match="scene file .*big.json is larger than 0 MB"):
        read_json(path, "scene file", limit=1000)


def test_a_directory_and_a_missing_file(tmp_path):
    with pytest.raises(UserError, match="is a directory"):
        read_json(tmp_path, "game log")
    with pytest.raises(UserError, match="not found"):
        read_json(tmp_path / "nope.json", "game log")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "f: nested more than 32 deep"),
        ('{"a": [' + "[" * 40 + "]" * 40 + "]}", "f: a[0]" + "[0]" * 30 + ": nested more than"),
        ('{"a": ' + "9" * 5000 + "}", "f: a: expected a whole number of at most 40 digits"),
        ('{"a": -' + "9" * 41 + "}", "f: a: expected a whole number of at most 40 digits"),
        ('{"a": [1e400]}', "f: a[0]: expected a finite number, got inf"),
        ('{"a": {"b": NaN}}', "f: a.b: expected a finite number, got nan"),
        ('{"a": -Infinity}', "f: a: expected a finite number, got -inf"),
        ("{", "f is not valid JSON (line 1, column 2"),
    ],
)
def test_strict_json(text, message):
    with pytest.raises(UserError) as info:
        parse_json(text, "f")
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_json_within_the_limits_reads():
    text = '{"a": [' + "[" * 30 + "1" + "]" * 30 + '], "b": ' + "9" * 40 + ', "c": 1e300}'
    data = parse_json(text, "f")
    assert data["b"] == 10**40 - 1 and data["c"] == 1e300


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a = " + "[" * 100_000 + "]" * 100_000, "f: nested more than 32 deep"),
        ("a = " + "9" * 5000, "f: a whole number has more than 40 digits"),
        ("a = " + "9" * 100, "f: a: expected a whole number of at most 40 digits"),
        ("a = 1e400", "f: a: expected a finite number, got inf"),
        ("[t]\na = nan", "f: t.a: expected a finite number, got nan"),
        ("a = -inf", "f: a: expected a finite number, got -inf"),
        ("a = ", "f: bad TOML: "),
    ],
)
def test_strict_toml(text, message):
    with pytest.raises(UserError) as info:
        parse_toml(text, "f")
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


# -- writers --------------------------------------------------------------------------------------


def test_a_fifo_is_written_in_place_not_replaced(tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_json_atomic(fifo, {"a": 1})
    reader.join(timeout=10)
    assert got == [b'{\n  "a": 1\n}\n']
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_failing_writer_writes_nothing_into_a_fifo(tmp_path):
    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)

    def broken(fh):
        fh.write(b"half")
        raise UserError("the picture failed")

    with pytest.raises(UserError, match="the picture failed"):
        write_atomic(fifo, broken)  # would block forever had it opened the FIFO
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dev_null_is_written_not_replaced(tmp_path):
    before = os.stat("/dev/null")
    write_text_atomic("/dev/null", "x" * 1000)
    link = tmp_path / "sink"
    link.symlink_to("/dev/null")
    write_text_atomic(link, "y")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert link.is_symlink()


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(UserError, match="it is a socket, not a regular file"):
            write_text_atomic(path, "x")
    finally:
        sock.close()


def test_render_and_shot_write_to_special_files(tmp_path, capsys):
    assert main(["render", "--out", "/dev/null"]) == 0
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["shot", "--speed", "0.6", "--save-scene", str(fifo)]) == 0
    reader.join(timeout=10)
    assert b'"layout": "square"' in got[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_stale_temporaries_are_removed_on_the_next_write(tmp_path):
    target = tmp_path / "out.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    stale = tmp_path / f".out.json.{dead.stdout.strip()}.abcd1234.tmp"
    live = tmp_path / f".out.json.{os.getppid()}.abcd1234.tmp"  # a writer still at work
    old = tmp_path / ".out.json.zq9x_k2m.tmp"  # an older version's, untouched for two hours
    fresh = tmp_path / ".out.json.aaaaaaaa.tmp"  # an older version's, maybe still writing
    other = tmp_path / ".other.json.1.abcd1234.tmp"  # another file's
    for p in (stale, live, old, fresh, other):
        p.write_text("half")
    os.utime(old, (0, os.stat(old).st_mtime - 7200))
    write_json_atomic(target, [1])
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in (target, live, fresh, other))
    assert remove_stale_temporaries(target) == []


# -- locks ----------------------------------------------------------------------------------------


def test_a_lock_names_its_holder_and_is_released(tmp_path):
    log = tmp_path / "g.json"
    with lock(log, "game log") as held:
        assert held.path.read_text() == f"{os.getpid()}\n"
        with pytest.raises(UserError) as info:
            lock(log, "game log")
        message = str(info.value)
        assert message == (
            f"game log {log} is open for writing in another session (pid {os.getpid()}); "
            "finish that one first"
        )
    assert not held.path.exists()
    lock(log, "game log").release()


def test_a_dead_holders_lock_file_does_not_hold(tmp_path):
    log = tmp_path / "g.json"
    stale = tmp_path / ".g.json.lock"
    stale.write_text("999999\n")  # left by a killed session
    with lock(log, "game log") as held:
        assert held.path == stale
        assert stale.read_text() == f"{os.getpid()}\n"
    assert not stale.exists()


def test_a_lock_on_a_full_disk_names_its_file_and_leaves_none(full_disk):
    log = full_disk.path / "g.json"
    full_disk.fill()
    with pytest.raises(MachineFault) as info:  # exit status 1: the machine's fault
        lock(log, "game log")
    lock_file = full_disk.path.resolve() / ".g.json.lock"
    assert str(info.value) == (
        f"cannot lock game log {log}: cannot write its lock file {lock_file}: "
        "No space left on device"
    )
    assert not lock_file.exists()


def test_locking_in_a_missing_directory(tmp_path):
    with pytest.raises(UserError, match="cannot write .*: directory .* does not exist"):
        lock(tmp_path / "no" / "g.json", "game log")


# -- checks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "ok"),
    [(1, True), (0.5, True), (True, False), ("1", False), (None, False), (float("nan"), False),
     (1e308, False), (10**400, False), (-2, False)],
)  # fmt: skip
def test_number(value, ok):
    if ok:
        assert checks.number(value, "f: v", -1, 1) == float(value)
    else:
        with pytest.raises(UserError, match="f: v: expected a number within -1..1, got "):
            checks.number(value, "f: v", -1, 1)


@pytest.mark.parametrize(
    "pid", ["north-01", "north- 1", "north-+1", "North-1", "north-0", "north-5", "north", "-1",
            "north-1 ", "north-١", 7, None],
)  # fmt: skip
def test_pawn_ids_are_exactly_seat_n(pid):
    with pytest.raises(UserError, match="expected a pawn id SEAT-N with N from 1 to 4"):
        checks.pawn_id(pid, "f")


def test_good_pawn_ids():
    assert [checks.pawn_id(f"{s}-{n}", "f") for s in ("south", "east") for n in (1, 4)] == [
        "south-1", "south-4", "east-1", "east-4"
    ]  # fmt: skip
    with pytest.raises(UserError, match="of south"):
        checks.pawn_id("north-1", "f", ("south",))


@pytest.mark.parametrize(
    ("word", "value"),
    [("0", 0), ("12", 12), ("²", None), ("٣", None), ("+1", None), ("1_0", None), (" 1", None),
     ("", None), ("1" * 10, None)],
)  # fmt: skip
def test_ascii_whole(word, value):
    assert checks.ascii_whole(word) == value


def test_unknown_and_missing_keys():
    with pytest.raises(UserError, match=r"^f: unknown key 'Pawns' \(known: a, b\)$"):
        checks.obj({"Pawns": 1}, "f", ("a", "b"))
    with pytest.raises(UserError, match="^f: missing field 'b'$"):
        checks.obj({"a": 1}, "f", ("a", "b"), ("b",))


def test_a_full_disk_is_the_machines_fault_and_a_missing_folder_the_users(tmp_path, monkeypatch):
    """A command exits 1 for a fault that is not the input's (a full disk), 2 for the input's."""
    import errno

    from sliders.cli import main

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    assert main(["render", "--out", str(tmp_path / "t.png")]) == 1
    monkeypatch.undo()
    assert main(["render", "--out", str(tmp_path / "no" / "t.png")]) == 2


def test_counts_are_said_with_the_noun_they_count() -> None:
    assert checks.counted(1, "track") == "1 track"
    assert checks.counted(6, "slide") == "6 slides"
    assert checks.counted(0, "slide") == "0 slides"
    assert checks.counted(2, "free stretch", "free stretches") == "2 free stretches"
    assert checks.counted(12_000, "shot") == "12,000 shots"
