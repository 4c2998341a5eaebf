"""Declared params become dataclasses, so the runtime binds, defaults and checks them."""

from __future__ import annotations

import dataclasses
import threading
from keyword import iskeyword
from typing import TYPE_CHECKING, Any, Literal, cast

from wink_decl.compiler._declared_params import PROTOTYPE_PARAMS, DeclaredParams, mark_as_field

if TYPE_CHECKING:
    from collections.abc import Mapping

    from wink_decl.schema.model import ParamSpec

__all__ = [
    "FieldSpec",
    "class_for_params",
    "exact_key",
    "make_dataclass_for",
    "python_type",
    "spec_from_model",
]

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}

_MADE_LIMIT = 4096
"""Generated classes kept for sharing; past this, the oldest is forgotten (its prompts keep it)."""
_made: dict[tuple[object, ...], type] = {}
"""Generated classes by the exact key of their declarations; read without a lock."""
_made_lock = threading.Lock()
"""Taken only to add a class, so two threads never evict at once (see ``_keep``)."""


@dataclasses.dataclass(slots=True, frozen=True)
class FieldSpec:
    """One declared field, as the file wrote it.

    ``==`` is Python's: ``default=1`` equals ``default=1.0``. Classes are shared by
    ``exact_key``, which tells them apart.
    """

    name: str
    type: str
    description: str = ""
    has_default: bool = False
    default: object = None
    enum: tuple[object, ...] = ()
    items: str = ""

    @property
    def required(self) -> bool:
        """Required unless a default is given."""
        return not self.has_default


def spec_from_model(name: str, spec: ParamSpec) -> FieldSpec:
    """A ``FieldSpec`` from a param of the typed document.

    A default or an enum the file left out is None in the model (it refuses ``null``).
    """
    return FieldSpec(
        name=name,
        type=spec.type,
        description=spec.description or "",
        has_default=spec.default is not None,
        default=spec.default,
        enum=spec.enum or (),
        items="" if spec.items is None else spec.items.type,
    )


def python_type(spec: FieldSpec) -> object:
    """The annotation for a field: scalars, ``Literal`` for enums, ``tuple[X, ...]`` for arrays."""
    return _annotation(spec.type, spec.enum, spec.items)


def _annotation(kind: str, enum: tuple[object, ...], items: str) -> object:
    if enum:
        return Literal[enum]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    if kind == "array":
        item = _SCALARS[items or "string"]
        return tuple[item, ...]  # pyright: ignore[reportInvalidTypeForm]  # built at run time
    return _SCALARS[kind]


def make_dataclass_for(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    """A frozen dataclass for ``specs``; identical declarations share one (classes are costly).

    Identical means equal values of equal types (``exact_key``): a prompt declaring
    ``default: 1.0`` never gets the class made for ``default: 1``, which would render ``1``.
    Safe from many threads: two that make the same class at once both get the one kept.
    """
    key = (class_name, *(exact_key(spec) for spec in specs))
    made = _made.get(key)
    if made is None:
        made = _keep(key, _make(class_name, specs))
    return made


def class_for_params(class_name: str, params: Mapping[str, ParamSpec]) -> type | None:
    """``make_dataclass_for`` of each param's ``spec_from_model``, in one step; None for none.

    The same class (one key, one cache), made straight from the schema's specs: no
    ``FieldSpec`` is built per param, and fields only for a class not made before.
    """
    if not params:
        return None
    key = (class_name, *[_model_key(name, spec) for name, spec in params.items()])
    made = _made.get(key)
    if made is None:
        made = _keep(key, _make_lazily(class_name, params))
    return made


_NONE_KEY = (type(None), None)
"""``_exact(None)``: the key of a default the file left out."""
_NO_ENUM_KEY = (tuple,)
"""``_exact(())``: the key of an enum the file left out."""


_PLAIN_KINDS = frozenset({str, int, bool})
"""Types whose ``_exact`` key is ``(type, value)``: asked first, without the call."""


def _model_key(name: str, spec: ParamSpec) -> tuple[object, ...]:
    """``exact_key(spec_from_model(name, spec))``, without the ``FieldSpec``."""
    default, enum = spec.default, spec.enum
    kind = type(default)
    return (
        name,
        spec.type,
        spec.description or "",
        default is not None,
        _NONE_KEY
        if default is None
        else (kind, default)
        if kind in _PLAIN_KINDS
        else _exact(default),
        _NO_ENUM_KEY if enum is None else _exact(enum),
        "" if spec.items is None else spec.items.type,
    )


_FieldParts = tuple[str, object, object, str | None]
"""What ``_new_field`` makes a field of: name, annotation, default, description."""


def _make_lazily(class_name: str, params: Mapping[str, ParamSpec]) -> type:
    """``_make_from_fields`` of each param's field, the ``Field`` objects made on first read.

    A prompt rendered once never reads its params class's fields (binding checks the class,
    not its fields: see ``PromptTemplate``'s ``_check_bindable``), and making them cost a
    fifth of making the class. The annotations and defaults, which ``__init__`` and
    ``get_type_hints`` read, are made now.
    """
    annotations: dict[str, object] = {}
    defaults: dict[str, object] = {}
    parts: list[_FieldParts] = []
    for name, spec in params.items():
        annotation = _annotation(
            spec.type, spec.enum or (), "" if spec.items is None else spec.items.type
        )
        default = dataclasses.MISSING if spec.default is None else spec.default
        if iskeyword(name):  # the schema refuses keywords; ``_field_name`` says why not
            _field_name(name)
        annotations[name] = annotation
        defaults[name] = default
        parts.append((name, annotation, default, spec.description))
    lazy = _LazyFields(tuple(parts))
    namespace: dict[str, object] = {
        "__slots__": tuple(defaults),
        "__qualname__": class_name,
        "__module__": __name__,
        "__annotations__": annotations,
        "__dataclass_fields__": lazy,
        "__dataclass_params__": PROTOTYPE_PARAMS,
        "_wink_defaults": defaults,
    }
    made = type(class_name, (DeclaredParams,), namespace)
    lazy.owner = made  # before anyone can read it: the class is not returned yet
    return made


_lazy_fields_lock = threading.Lock()
"""Taken to make a class's fields on first read, so every reader gets the same ``Field``s."""


class _LazyFields:
    """A made class's ``__dataclass_fields__`` until first read; the dict of fields after.

    The first read (``dataclasses.fields``, ``is_dataclass``, ``replace``, ``asdict``,
    pydantic ...) makes the fields ``_make_from_fields`` would have made and puts the dict
    in the class in this descriptor's place, so every later read is a plain attribute.
    """

    __slots__ = ("_parts", "owner")

    def __init__(self, parts: tuple[_FieldParts, ...]) -> None:
        self._parts = parts
        self.owner: type = DeclaredParams
        """The made class (set once it is made): a subclass reads its base's fields here."""

    def __get__(self, instance: object, owner: type | None = None) -> dict[str, Any]:
        made = self.owner
        with _lazy_fields_lock:
            kept = vars(made)["__dataclass_fields__"]
            if kept is not self:  # another thread made them while this one waited
                return cast("dict[str, Any]", kept)
            fields = {part[0]: _new_field(*part) for part in self._parts}
            type.__setattr__(made, "__dataclass_fields__", fields)
            return fields


def exact_key(spec: FieldSpec) -> tuple[object, ...]:
    """What makes two declarations identical: every field, values with their types."""
    return (
        spec.name,
        spec.type,
        spec.description,
        spec.has_default,
        _exact(spec.default),
        _exact(spec.enum),
        spec.items,
    )


def _exact(value: object) -> object:
    """``value`` as a key that only an identical value matches.

    ``1``, ``1.0`` and ``True`` are equal in Python and must not be here; floats go by their
    exact bits, so ``-0.0`` is not ``0.0`` (and every NaN is the same key, though not equal).
    """
    if isinstance(value, tuple):
        return (tuple, *(_exact(item) for item in cast("tuple[object, ...]", value)))
    if isinstance(value, float):
        return (float, value.hex())
    return (type(value), value)


def _keep(key: tuple[object, ...], made: type) -> type:
    """Keep ``made`` under ``key`` unless a class is there already; return the one kept.

    Making a class needs no lock; keeping it does, so two threads never evict the same entry
    or iterate the dict while another changes it. ``setdefault`` makes whoever stores first
    win: every compile of identical declarations gets one class.
    """
    with _made_lock:
        if len(_made) >= _MADE_LIMIT and key not in _made:
            del _made[next(iter(_made))]
        return _made.setdefault(key, made)


def _make(class_name: str, specs: tuple[FieldSpec, ...]) -> type:
    """A ``DeclaredParams`` subclass, made with ``type()`` (``make_dataclass`` costs ~0.3 ms)."""
    return _make_from_fields(class_name, {spec.name: _field(spec) for spec in specs})


def _make_from_fields(class_name: str, fields: dict[str, dataclasses.Field[Any]]) -> type:
    """The ``DeclaredParams`` subclass whose fields are ``fields``, in their order."""
    namespace: dict[str, object] = {
        "__slots__": tuple(fields),
        "__qualname__": class_name,
        "__module__": __name__,
        "__annotations__": {name: field.type for name, field in fields.items()},
        "__dataclass_fields__": fields,
        "__dataclass_params__": PROTOTYPE_PARAMS,
        "_wink_defaults": {name: field.default for name, field in fields.items()},
    }
    return type(class_name, (DeclaredParams,), namespace)


def _field(spec: FieldSpec) -> dataclasses.Field[Any]:
    """The field ``dataclass()`` would make for ``spec``: kw-only, its default and description."""
    default = spec.default if spec.has_default else dataclasses.MISSING
    return _new_field(spec.name, python_type(spec), default, spec.description)


def _new_field(
    name: str, annotation: object, default: object, description: str | None
) -> dataclasses.Field[Any]:
    """What ``dataclasses.field(default=..., metadata=..., kw_only=True)`` makes, named and typed.

    ``Field`` itself, called with what ``field()`` passes it: one call less per param (its
    order is pinned by a test).
    ``default`` is ``dataclasses.MISSING`` for a required field.
    """
    # Positional, in the order of ``Field.__init__`` (default, default_factory, init, repr,
    # hash, compare, metadata, kw_only): keywords would cost a dict per field.
    made: dataclasses.Field[Any] = dataclasses.Field(
        default,
        dataclasses.MISSING,  # pyright: ignore[reportArgumentType]  # as field() passes it
        True,  # noqa: FBT003 - init
        True,  # noqa: FBT003 - repr
        None,  # hash
        True,  # noqa: FBT003 - compare
        {"description": description} if description else None,  # pyright: ignore[reportArgumentType]  # None: no metadata, as field() passes it
        True,  # noqa: FBT003 - kw_only
    )
    made.name = _field_name(name)
    made.type = annotation
    mark_as_field(made)
    return made


def _field_name(name: str) -> str:
    if iskeyword(name):  # the schema refuses keywords; this keeps the generator total
        raise ValueError(f"'{name}' cannot be a field name: it is a Python keyword.")
    return name
