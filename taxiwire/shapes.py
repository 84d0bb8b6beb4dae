"""The kinds a frame's field may have (a nested object, a list, a choice, a nullable value) and the check of a
value against them: pure Python, so that the driver app (python-for-android) builds and checks frames with the
same declarations as the server (docs/dispatch-protocol.md, "The wire module")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ContractError(AssertionError):
    """A frame that does not match its declaration (a server bug, never a client's)."""


# --- shapes: a field's value is one of these -----------------------------------------------------


@dataclass(frozen=True)
class Nullable:
    inner: Any

    def __str__(self):
        return f"{type_name(self.inner)} | null"


@dataclass(frozen=True)
class ListOf:
    inner: Any

    def __str__(self):
        return f"[{type_name(self.inner)}]"


@dataclass(frozen=True)
class OneOf:
    values: tuple

    def __str__(self):
        return " | ".join(f"`{v}`" for v in self.values)


@dataclass(frozen=True)
class Shape:
    """A nested object: ``fields`` always present, ``optional`` present or not."""

    name: str
    fields: dict
    optional: dict = field(default_factory=dict)

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name


def type_name(spec) -> str:
    return {str: "string", int: "int", float: "number", bool: "bool", dict: "object"}.get(spec, None) or str(spec)


DECIMAL = "decimal string"  # money, "12.30"
DATETIME = "ISO datetime"


# Complexity kept: one branch per field kind of the wire declaration; a table of checkers would hide the pt-BR messages.
def check(value, spec, path: str) -> None:  # noqa: C901
    if isinstance(spec, Nullable):
        if value is not None:
            check(value, spec.inner, path)
    elif isinstance(spec, ListOf):
        if not isinstance(value, list):
            raise ContractError(f"{path}: a list expected, got {value!r}")
        for i, item in enumerate(value):
            check(item, spec.inner, f"{path}[{i}]")
    elif isinstance(spec, OneOf):
        if value not in spec.values:
            raise ContractError(f"{path}: one of {spec.values} expected, got {value!r}")
    elif isinstance(spec, Shape):
        if not isinstance(value, dict):
            raise ContractError(f"{path}: an object ({spec.name}) expected, got {value!r}")
        check_fields(value, spec.fields, spec.optional, path)
    elif spec is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ContractError(f"{path}: a number expected, got {value!r}")
    elif spec in (DECIMAL, DATETIME):
        if not isinstance(value, str):
            raise ContractError(f"{path}: a {spec} expected, got {value!r}")
    elif spec is dict:
        if not isinstance(value, dict):
            raise ContractError(f"{path}: an object expected, got {value!r}")
    elif (spec is int and isinstance(value, bool)) or not isinstance(value, spec):
        raise ContractError(f"{path}: {type_name(spec)} expected, got {value!r}")


def check_fields(value: dict, fields: dict, optional: dict, path: str) -> None:
    missing = set(fields) - set(value)
    extra = set(value) - set(fields) - set(optional)
    if missing or extra:
        raise ContractError(f"{path}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    for name, spec in {**fields, **optional}.items():
        if name in value:
            check(value[name], spec, f"{path}.{name}")


