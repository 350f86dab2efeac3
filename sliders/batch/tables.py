"""Writing and reading batch tables: Parquet (default), CSV or NPZ, always written whole.

Status columns (``status`` and each ``<pawn>.status``) are small integer codes in memory; Parquet
stores them as dictionary-encoded strings, CSV as strings, NPZ as codes beside a ``statuses`` array.
The study record (scene, seat, noise, seed, physics parameters, whether the run completed) goes into
the Parquet schema metadata under ``sliders``, into NPZ as ``sliders_json``, and beside a CSV table
into a sidecar ``TABLE.json`` (see :func:`sidecar_path`), which also holds the CSV's column types,
row count and SHA-256, so that a sidecar left from another run is recognised rather than believed.
Every table's record also holds :data:`CHECKSUM`, the SHA-256 of its columns (names, types and
values) and of the rest of its record, checked on every read, so that a flipped byte or an edited
value is refused rather than believed (a table written before the checksum is read without it).
:func:`read_table` reads all three alike, up to :data:`TABLE_LIMIT` bytes (uncompressed, for NPZ)
and :data:`MAX_ROWS` rows, giving the columns with the types they were written with and the record,
whose ``complete`` says whether the study ran to its end.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import IO, Any

import numpy as np

from sliders.batch.work import STATUSES
from sliders.core.errors import UserError
from sliders.core.fileio import (
    is_special,
    parse_json,
    read_bytes,
    read_json,
    write_atomic,
    write_json_atomic,
)

FORMATS: tuple[str, ...] = ("parquet", "csv", "npz")
SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npz": "npz"}

Columns = dict[str, np.ndarray]
CHECKSUM = "content_sha256"
"""the record's key holding the checksum of the table's content (see :func:`content_checksum`)"""
TABLE_LIMIT = 2 * 2**30
"""bytes: the largest table read (10 million shots, the most a study holds, take about 1.5 GB)"""
MAX_ROWS = 10_000_000
"""the most rows a table read may have (as :data:`sliders.batch.study.MAX_SHOTS`)"""


def content_checksum(cols: Columns, meta: dict[str, Any]) -> str:
    """The SHA-256 of ``cols`` (each column's name, type and bytes, in name order) and of
    ``meta`` without its own checksum (as canonical JSON)."""
    h = hashlib.sha256()
    for name in sorted(cols):
        values = np.ascontiguousarray(cols[name])
        h.update(f"{name}\0{values.dtype.str}\0{values.shape}\0".encode())
        h.update(values.tobytes())
    rest = {k: v for k, v in meta.items() if k != CHECKSUM}
    h.update(json.dumps(rest, sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()


def format_for(path: str, fmt: str | None) -> str:
    """The format asked for, or the one the file name implies (Parquet by default)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise UserError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
        return fmt
    return SUFFIXES.get(Path(path).suffix.lower(), "parquet")


def is_status(name: str) -> bool:
    return name == "status" or name.endswith(".status")


def sidecar_path(path: str) -> str:
    """Where a CSV table's record goes: beside it, its name with ``.json`` added."""
    return path + ".json"


def write_table(path: str, cols: Columns, meta: dict[str, Any], fmt: str | None = None) -> None:
    """Write ``cols`` whole (or not at all) with the study record ``meta``; a CSV table gets its
    sidecar, written after it (not beside a stream such as ``/dev/stdout``: see
    :func:`~sliders.core.fileio.is_special`)."""
    fmt = format_for(path, fmt)
    meta = {**meta, CHECKSUM: content_checksum(cols, meta)}
    if fmt == "npz":
        write_atomic(path, lambda fh: _write_npz(fh, cols, meta))
        return
    table = to_arrow(cols, meta)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        write_atomic(path, lambda fh: pq.write_table(table, fh, compression="zstd"))
        return
    import pyarrow as pa
    import pyarrow.csv as pcsv

    sink = pa.BufferOutputStream()  # Arrow's own memory: see _arrow_bytes
    pcsv.write_csv(table, sink)
    data = sink.getvalue().to_pybytes()

    record = {
        "rows": len(next(iter(cols.values()))) if cols else 0,
        "sha256": hashlib.sha256(data).hexdigest(),
        "columns": {name: np.asarray(v).dtype.str for name, v in cols.items()},
        "sliders": meta,
    }

    side = sidecar_path(path)
    special = is_special(path)
    old = None if special or not os.path.isfile(side) else read_bytes(side, "table record")
    written = False

    def put(fh: IO[bytes]) -> None:
        nonlocal written
        fh.write(data)
        fh.flush()
        # the record is put in place before the table it describes: if it cannot be written (a
        # full disk) the table is not renamed into place either, and neither is left without
        # the other
        if not special:
            write_json_atomic(side, record)
            written = True

    try:
        write_atomic(path, put)
    except BaseException:
        if written:  # the table was not replaced: the record it had goes back beside it
            with contextlib.suppress(OSError, UserError):
                if old is None:
                    os.unlink(side)
                else:
                    write_atomic(side, lambda fh: _put(fh, old))
        raise


def _put(fh: IO[bytes], data: bytes) -> None:
    fh.write(data)


def to_arrow(cols: Columns, meta: dict[str, Any]) -> Any:
    import pyarrow as pa

    names = pa.array([str(s) for s in STATUSES])
    arrays = {}
    for name, values in cols.items():
        if is_status(name):
            arrays[name] = pa.DictionaryArray.from_arrays(pa.array(values, pa.int8()), names)
        else:
            arrays[name] = pa.array(values)
    return pa.table(arrays, metadata={"sliders": json.dumps(meta)})


def read_table(path: str, fmt: str | None = None) -> tuple[Columns, dict[str, Any]]:
    """A table written by :func:`write_table` as numpy columns, and its study record (``{}`` if
    it has none). ``record.get("complete")`` says whether the study ran to its end.

    A file that is not such a table, or a CSV whose sidecar does not match it, is a UserError.
    """
    fmt = format_for(path, fmt)
    # the readers (pyarrow, zlib, numpy's header parser) raise many kinds of error on a damaged
    # file: each is the file's fault, reported in one line
    if not Path(path).is_file():
        raise UserError(
            f"table {path} not found"
            if not os.path.lexists(path)
            else f"table {path} is not a regular file"
        )
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise UserError(f"table {path} cannot be read: {exc.strerror}") from None
    if size > TABLE_LIMIT:
        raise UserError(f"table {path} is larger than {TABLE_LIMIT // 2**30} GB, more than a study")
    try:
        if fmt == "npz":
            cols, meta = _read_npz(path)
        elif fmt == "csv":
            cols, meta = _read_csv(path)
        else:
            cols, meta = _read_parquet(path)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - the readers' every error on a damaged file
        raise UserError(f"cannot read table {path} as {fmt}: {_first_line(exc)}") from None
    if not isinstance(meta, dict):
        raise UserError(f"table {path}: its record is not an object")
    rows = {len(v) if np.ndim(v) == 1 else -1 for v in cols.values()}
    if len(rows) > 1 or -1 in rows:
        raise UserError(f"table {path}: its columns are not all one row each of the same length")
    if CHECKSUM in meta:
        want = meta.pop(CHECKSUM)
        if want != content_checksum(cols, meta):
            raise UserError(
                f"table {path} does not match its checksum: changed since it was written "
                "(a damaged or edited file)"
            )
    return cols, meta


def _read_parquet(path: str) -> tuple[Columns, dict[str, Any]]:
    import pyarrow.parquet as pq

    rows = pq.ParquetFile(path).metadata.num_rows
    if rows > MAX_ROWS:
        raise UserError(f"table {path} has {rows:,} rows, more than a study ({MAX_ROWS:,})")
    return _from_arrow(pq.read_table(path), path)


def _read_npz(path: str) -> tuple[Columns, dict[str, Any]]:
    with zipfile.ZipFile(path) as z:  # a zip bomb is refused before it is inflated
        inflated = sum(info.file_size for info in z.infolist())
    if inflated > TABLE_LIMIT:
        raise UserError(f"table {path} inflates to more than {TABLE_LIMIT // 2**30} GB")
    with np.load(path, allow_pickle=False) as z:
        meta = (
            parse_json(str(z["sliders_json"]), f"table {path}: its record")
            if "sliders_json" in z.files
            else {}
        )
        return {k: z[k] for k in z.files if k not in ("sliders_json", "statuses")}, meta


def _read_csv(path: str) -> tuple[Columns, dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    data = read_bytes(path, "table", TABLE_LIMIT)
    side = sidecar_path(path)
    record: dict[str, Any] = {}
    types: dict[str, str] = {}
    if Path(side).exists():
        car = read_json(side, "table record")
        if not isinstance(car, dict) or not isinstance(car.get("sliders"), dict):
            raise UserError(f"table record {side} is not a batch table's record")
        if car.get("sha256") != hashlib.sha256(data).hexdigest():
            raise UserError(
                f"table record {side} does not describe {path} (written by another run?)"
            )
        record, types = car["sliders"], dict(car.get("columns") or {})
    names = _csv_header(data)
    options = pcsv.ConvertOptions(
        column_types={n: pa.string() for n in names if is_status(n)}, strings_can_be_null=False
    )
    table = pcsv.read_csv(
        pa.BufferReader(_arrow_bytes(data)),
        # read in this thread: nothing of the read is left on Arrow's thread pools at exit
        read_options=pcsv.ReadOptions(use_threads=False),
        convert_options=options,
    )
    if table.num_rows > MAX_ROWS:
        raise UserError(f"table {path} has {table.num_rows:,} rows, more than a study")
    cols, _ = _from_arrow(table, path)
    for name, dtype in types.items():
        if name in cols:
            if not isinstance(dtype, str) or dtype.lstrip("<>|=")[:1] not in ("b", "i", "u", "f"):
                raise UserError(f"table record {side}: column {name}: not a number type")
            cols[name] = cols[name].astype(np.dtype(dtype))
    return cols, record


def _arrow_bytes(data: bytes) -> Any:
    """``data`` copied into memory Arrow owns, for Arrow's CSV reader to read.

    The reader's threads hold its input, and whichever of them lets go of it last frees it: a
    Python object (``io.BytesIO``, or an Arrow buffer over ``bytes``) is freed under Python's
    lock, and a thread of Arrow's that asks for that lock while the interpreter is exiting is
    ended by Python mid-way, which aborts the process ("terminate called without an active
    exception", exit status 134) after the command has finished. Memory of Arrow's own is freed
    without Python."""
    import pyarrow as pa

    buf = pa.allocate_buffer(len(data))
    memoryview(buf).cast("B")[:] = data
    return buf


def _csv_header(data: bytes) -> list[str]:

    first = data.split(b"\n", 1)[0].decode("utf-8", errors="replace")
    return next(csv.reader([first]), [])


def _from_arrow(table: Any, path: str) -> tuple[Columns, dict[str, Any]]:

    text = (table.schema.metadata or {}).get(b"sliders", b"{}")
    try:
        meta = parse_json(text.decode("utf-8"), f"table {path}: its record")
    except UnicodeDecodeError:
        raise UserError(f"table {path}: its record is not UTF-8 text") from None
    codes = {str(s): i for i, s in enumerate(STATUSES)}
    out: Columns = {}
    for name in table.column_names:
        col = table.column(name)
        if is_status(name):
            words = col.to_pylist()
            try:
                out[name] = np.array([codes[w] for w in words], dtype=np.int8)
            except (KeyError, TypeError):
                bad = next(w for w in words if w not in codes)
                raise UserError(f"column {name} holds {bad!r}, not a rest status") from None
        else:
            out[name] = col.to_numpy()
    return out, meta


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


def _write_npz(fh: IO[bytes], cols: Columns, meta: dict[str, Any]) -> None:

    buf = io.BytesIO()
    arrays: dict[str, Any] = {
        "sliders_json": np.array(json.dumps(meta)),
        "statuses": np.array([str(s) for s in STATUSES]),
        **cols,
    }
    np.savez_compressed(buf, **arrays)
    fh.write(buf.getvalue())
