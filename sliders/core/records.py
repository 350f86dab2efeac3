"""Records written to files: dataclasses to and from JSON-ready dicts, one way for all of them.

:func:`to_json` writes every field of a dataclass in declaration order under its own name;
:func:`from_json` reads one back by the fields' types. Enums are written as their values, tuples
as lists, nested records through their own ``to_json``/``from_json``; a field missing from the
data takes its default (a field without one is a ``KeyError``, as ``data[name]`` would be). A
record whose file format differs (a renamed key, a field left out) says so with ``rename`` and
``omit``; checks a record needs beyond types stay in its own ``from_json``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

R = TypeVar("R")

_MISSING = dataclasses.MISSING
_PLAIN = frozenset((float, int, str, bool))


def to_json(
    record: Any, *, rename: Mapping[str, str] | None = None, omit: Iterable[str] = ()
) -> dict[str, Any]:
    """The JSON-ready dict of a dataclass ``record``: each field (but those in ``omit``) in
    declaration order, under its name or the name ``rename`` gives it."""
    names = _names(type(record))  # type: ignore[arg-type]  # a class is hashable
    if rename or omit:
        rename = rename or {}
        left_out = set(omit)
        return {
            rename.get(name, name): _encode(getattr(record, name))
            for name in names
            if name not in left_out
        }
    return {name: _encode(getattr(record, name)) for name in names}


def from_json(
    cls: type[R],
    data: Mapping[str, Any],
    *,
    rename: Mapping[str, str] | None = None,
    **given: Any,
) -> R:
    """The ``cls`` record that ``data`` (from :func:`to_json`) describes: each field read under
    its name (or the name ``rename`` gives it) and converted to its declared type; ``given``
    supplies fields the caller has worked out itself."""
    rename = rename or {}
    values: dict[str, Any] = {}
    for name, decode, required in _fields(cls):  # type: ignore[arg-type]  # as above
        if name in given:
            values[name] = given[name]
            continue
        key = rename.get(name, name)
        if key in data:
            values[name] = decode(data[key])
        elif required:
            raise KeyError(key)
    return cls(**values)


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _encode(value: Any) -> Any:
    if value is None or type(value) in _PLAIN:
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        own = getattr(value, "to_json", None)
        return own() if own is not None else to_json(value)
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _encode(v) for k, v in value.items()}
    return value


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
    """``cls``'s fields set by its constructor, each with the decoder of its declared type and
    whether it must be given (it has no default), worked out once a record type."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, _decoder(hints[f.name]), f.default is _MISSING and f.default_factory is _MISSING)
        for f in dataclasses.fields(cls)
        if f.init
    )


@functools.cache
def _decoder(tp: Any) -> Callable[[Any], Any]:
    """What turns a JSON value into a value of type ``tp``, worked out once a type."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        some = _decoder(inner)
        return lambda value: None if value is None else some(value)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _decoder(args[0])
            return lambda value: tuple(map(each, value))
        items = tuple(_decoder(a) for a in args)
        return lambda value: tuple(d(v) for d, v in zip(items, value, strict=True))
    if origin is not None:
        return _same
    if tp in (float, int, str, bool):
        return typing.cast(Callable[[Any], Any], tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        own: Callable[[Any], Any] | None = getattr(tp, "from_json", None)
        return own if own is not None else functools.partial(from_json, tp)
    return _same


def _same(value: Any) -> Any:
    return value
