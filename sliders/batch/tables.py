"""Writing and reading batch tables: Parquet (default), CSV or NPZ, always written whole.

Status columns (``status`` and each ``<pawn>.status``) are small integer codes in memory; Parquet
stores them as dictionary-encoded strings, CSV as strings, NPZ as codes beside a ``statuses`` array.
The study record (scene, seat, noise, seed, physics parameters, whether the run completed) goes into
the Parquet schema metadata under ``sliders``, into NPZ as ``sliders_json``, and beside a CSV table
into a sidecar ``TABLE.json`` (see :func:`sidecar_path`), which also holds the CSV's column types,
row count and SHA-256, so that a sidecar left from another run is recognised rather than believed.
:func:`read_table` reads all three alike, giving the columns with the types they were written with
and the record, whose ``complete`` says whether the study ran to its end.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from pathlib import Path
from typing import IO, Any

import numpy as np

from sliders.batch.work import STATUSES
from sliders.core.errors import UserError
from sliders.core.fileio import is_special, read_json, write_atomic, write_json_atomic

FORMATS: tuple[str, ...] = ("parquet", "csv", "npz")
SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npz": "npz"}

Columns = dict[str, np.ndarray]


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
    if fmt == "npz":
        write_atomic(path, lambda fh: _write_npz(fh, cols, meta))
        return
    table = to_arrow(cols, meta)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        write_atomic(path, lambda fh: pq.write_table(table, fh, compression="zstd"))
        return
    import pyarrow.csv as pcsv

    buf = io.BytesIO()
    pcsv.write_csv(table, buf)
    data = buf.getvalue()

    def put(fh: IO[bytes]) -> None:
        fh.write(data)

    write_atomic(path, put)
    if is_special(path):
        return
    write_json_atomic(
        sidecar_path(path),
        {
            "rows": len(next(iter(cols.values()))) if cols else 0,
            "sha256": hashlib.sha256(data).hexdigest(),
            "columns": {name: np.asarray(v).dtype.str for name, v in cols.items()},
            "sliders": meta,
        },
    )


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
    if not Path(path).is_file():
        raise UserError(
            f"table {path} not found"
            if not Path(path).exists()
            else f"table {path} is not a regular file"
        )
    try:
        if fmt == "npz":
            return _read_npz(path)
        if fmt == "csv":
            return _read_csv(path)
        import pyarrow.parquet as pq

        return _from_arrow(pq.read_table(path))
    except UserError:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
        raise UserError(f"cannot read table {path} as {fmt}: {_first_line(exc)}") from None


def _read_npz(path: str) -> tuple[Columns, dict[str, Any]]:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["sliders_json"])) if "sliders_json" in z.files else {}
        return {k: z[k] for k in z.files if k not in ("sliders_json", "statuses")}, meta


def _read_csv(path: str) -> tuple[Columns, dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    data = Path(path).read_bytes()
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
    table = pcsv.read_csv(io.BytesIO(data), convert_options=options)
    cols, _ = _from_arrow(table)
    for name, dtype in types.items():
        if name in cols:
            cols[name] = cols[name].astype(np.dtype(dtype))
    return cols, record


def _csv_header(data: bytes) -> list[str]:

    first = data.split(b"\n", 1)[0].decode("utf-8", errors="replace")
    return next(csv.reader([first]), [])


def _from_arrow(table: Any) -> tuple[Columns, dict[str, Any]]:

    meta = json.loads((table.schema.metadata or {}).get(b"sliders", b"{}"))
    codes = {str(s): i for i, s in enumerate(STATUSES)}
    out: Columns = {}
    for name in table.column_names:
        col = table.column(name)
        if is_status(name):
            words = col.to_pylist()
            try:
                out[name] = np.array([codes[w] for w in words], dtype=np.int8)
            except KeyError as exc:
                raise UserError(f"column {name} holds {exc.args[0]!r}, not a rest status") from None
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
