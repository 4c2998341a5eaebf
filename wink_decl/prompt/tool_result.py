"""``ToolResult``: what a tool handler returns to the model and to the session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Never, Protocol, TypeVar, cast, runtime_checkable

from wink_decl.prompt.serde import dumps

__all__ = ["ToolRenderableResult", "ToolResult"]

ResultT_co = TypeVar("ResultT_co", covariant=True)
ValueT = TypeVar("ValueT")


@runtime_checkable
class ToolRenderableResult(Protocol):
    """A result that chooses its own text for the model."""

    def render(self) -> str:
        """The provider-facing text of this result."""
        ...


# Not slotted: ToolResult[T](...) sets __orig_class__, which slotted frozen dataclasses
# refuse (the generated __setattr__ calls super() on the pre-slots class).
@dataclass(frozen=True)
class ToolResult(Generic[ResultT_co]):
    """A handler's answer: a short message for the model and a typed payload."""

    message: str
    value: ResultT_co | None = None
    success: bool = True
    exclude_value_from_context: bool = False

    @staticmethod
    def ok(value: ValueT, message: str = "") -> ToolResult[ValueT]:
        """A successful result carrying ``value``."""
        return ToolResult(message=message, value=value, success=True)

    @staticmethod
    def error(message: str) -> ToolResult[Never]:
        """A failed result: ``success=False`` and no value."""
        return ToolResult(message=message, value=None, success=False)

    def render(self) -> str:
        """The payload as text: its own ``render()``, else compact JSON; ``""`` without a value."""
        value = self.value
        if value is None:
            return ""
        # A duck-typed check: isinstance() against a runtime Protocol is slow on this hot path.
        if callable(getattr(type(value), "render", None)):
            text = cast("ToolRenderableResult", value).render()
            if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # user code
                raise TypeError(
                    f"{type(value).__name__}.render() must return str, got {type(text).__name__}."
                )
            return text
        return dumps(value)
