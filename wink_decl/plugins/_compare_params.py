"""Compare the parameters a prompt file declares with the params dataclass of its handler."""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Mapping

from wink_decl.plugins._annotations import is_dataclass_type, resolve_annotation, type_name

__all__ = ["compare_params"]

_NONE = type(None)


def compare_params(declared: Mapping[str, tuple[object, bool]], actual: type) -> list[str]:
    """Every mismatch between ``declared`` (name -> (type, required)) and ``actual``'s fields.

    Reported, in this order: declared fields the dataclass lacks, fields declared optional
    that it requires, type mismatches (in declaration order); then the dataclass's required
    fields the prompt file leaves out. An empty list means the two agree.
    """
    if actual is _NONE:
        return [
            f"Field '{name}' is declared in the prompt file but the handler takes no params."
            for name in declared
        ]
    owner = actual.__qualname__
    if not is_dataclass_type(actual):
        return [f"{owner} is not a dataclass, so its fields cannot be compared."]
    module = sys.modules.get(actual.__module__)
    namespace = vars(module) if module is not None else {}
    fields = {field.name: field for field in dataclasses.fields(actual) if field.init}
    problems: list[str] = []
    for name, (declared_type, required) in declared.items():
        field = fields.get(name)
        if field is None:
            problems.append(
                f"Field '{name}' is declared in the prompt file but {owner} has no such field."
            )
            continue
        if not required and _required(field):
            problems.append(
                f"Field '{name}' is optional in the prompt file but {owner} requires it."
            )
        hint = resolve_annotation(field.type, namespace)
        if hint is None:
            problems.append(
                f"Field '{name}' cannot be checked: the type of {owner}.{name} "
                f"({type_name(field.type)}) cannot be resolved."
            )
        elif not _accepts(hint, declared_type):
            problems.append(
                f"Field '{name}' is declared as {type_name(declared_type)} in the prompt file "
                f"but {owner}.{name} is {type_name(hint)}."
            )
    problems.extend(
        f"Field '{name}' is required by {owner} but the prompt file does not declare it."
        for name, field in fields.items()
        if name not in declared and _required(field)
    )
    return problems


def _required(field: dataclasses.Field[object]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _accepts(hint: object, declared: object) -> bool:
    """Whether a field annotated ``hint`` takes the values of ``declared``.

    ``None`` in a union is ignored on both sides (the prompt file's ``required`` says whether
    a value may be missing), and ``Literal["a", "b"]`` reads as ``str`` on both sides: an
    enum in the file and a ``Literal`` in the handler narrow the same values.
    """
    accepted = {_shape(member) for member in _members(hint)}
    return all(_shape(member) in accepted for member in _members(declared))


def _members(hint: object) -> list[object]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return [member for member in typing.get_args(hint) if member is not _NONE]
    return [hint]


def _shape(hint: object) -> object:
    """A comparable form: ``tuple[str, ...]`` and ``typing.Tuple[str, ...]`` read the same."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        values: tuple[object, ...] = typing.get_args(hint)
        kinds = {type(value) for value in values}
        return kinds.pop() if len(kinds) == 1 else hint
    if origin is None:
        return hint
    return (origin, tuple(_shape(arg) for arg in typing.get_args(hint)))
