"""Writing and reading batch tables: Parquet (default), CSV or NPZ, always written whole.

Status columns (``status`` and each ``<pawn>.status``) are small integer codes in memory; Parquet
stores them as dictionary-encoded strings, CSV as strings, NPZ as codes beside a ``statuses`` array.
The study record (scene, seat, noise, seed, physics parameters, whether the run completed) goes into
the Parquet schema metadata under ``sliders`` and into NPZ as ``sliders_json``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import IO, Any

import numpy as np

from sliders.errors import UserError
from sliders.fileio import write_atomic

FORMATS: tuple[str, ...] = ("parquet", "csv", "npz")
_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npz": "npz"}

Columns = dict[str, np.ndarray]


def format_for(path: str, fmt: str | None) -> str:
    """The format asked for, or the one the file name implies (Parquet by default)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise UserError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
        return fmt
    return _SUFFIXES.get(Path(path).suffix.lower(), "parquet")


def is_status(name: str) -> bool:
    return name == "status" or name.endswith(".status")


def write_table(path: str, cols: Columns, meta: dict[str, Any], fmt: str | None = None) -> None:
    fmt = format_for(path, fmt)
    if fmt == "npz":
        write_atomic(path, lambda fh: _write_npz(fh, cols, meta))
        return
    table = to_arrow(cols, meta)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        write_atomic(path, lambda fh: pq.write_table(table, fh, compression="zstd"))
    else:
        import pyarrow.csv as pcsv

        write_atomic(path, lambda fh: pcsv.write_csv(table, fh))


def to_arrow(cols: Columns, meta: dict[str, Any]) -> Any:
    import pyarrow as pa

    from sliders.batch.work import STATUSES

    names = pa.array([str(s) for s in STATUSES])
    arrays = {}
    for name, values in cols.items():
        if is_status(name):
            arrays[name] = pa.DictionaryArray.from_arrays(pa.array(values, pa.int8()), names)
        else:
            arrays[name] = pa.array(values)
    return pa.table(arrays, metadata={"sliders": json.dumps(meta)})


def read_table(path: str) -> tuple[Columns, dict[str, Any]]:
    """A table written by :func:`write_table` (Parquet or NPZ) as numpy columns and its record."""
    from sliders.batch.work import STATUSES

    if format_for(path, None) == "npz":
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["sliders_json"]))
            return {k: z[k] for k in z.files if k not in ("sliders_json", "statuses")}, meta
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    meta = json.loads((table.schema.metadata or {}).get(b"sliders", b"{}"))
    codes = {str(s): i for i, s in enumerate(STATUSES)}
    out: Columns = {}
    for name in table.column_names:
        col = table.column(name)
        if is_status(name):
            words = col.to_pylist()
            out[name] = np.array([codes[w] for w in words], dtype=np.int8)
        else:
            out[name] = col.to_numpy()
    return out, meta


def _write_npz(fh: IO[bytes], cols: Columns, meta: dict[str, Any]) -> None:
    from sliders.batch.work import STATUSES

    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        sliders_json=np.array(json.dumps(meta)),
        statuses=np.array([str(s) for s in STATUSES]),
        **cols,
    )
    fh.write(buf.getvalue())
