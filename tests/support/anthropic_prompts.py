"""Prompts and a runner for the AnthropicAdapter tests: the real SDK against ``ProviderServer``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from provider_server import ProviderServer

from wink_decl import (
    MarkdownSection,
    Prompt,
    PromptTemplate,
    SectionVisibility,
    Session,
    Tool,
    ToolContext,
    ToolResult,
)
from wink_decl.adapters import AnthropicAdapter
from wink_decl.runtime.adapter import PromptResponse
from wink_decl.runtime.deadline import Deadline
from wink_decl.runtime.loop import MainLoop

__all__ = [
    "FORECAST_SCHEMA",
    "FORECAST_TEMPLATE",
    "KEY",
    "LOOKUP_TOOL",
    "MODEL",
    "OPEN_TEMPLATE",
    "PLAIN_TEMPLATE",
    "SUMMARIZED_TEMPLATE",
    "Forecast",
    "evaluate",
]

KEY = "sk-ant-test-0123456789"
MODEL = "claude-test"


@dataclass(frozen=True)
class CityParams:
    city: str = field(metadata={"description": "The city to look up."})


@dataclass(frozen=True)
class Weather:
    city: str
    sky: str


@dataclass(frozen=True)
class Forecast:
    city: str
    sky: str


def lookup(params: CityParams, *, context: ToolContext) -> ToolResult[Weather]:
    if params.city == "Atlantis":
        return ToolResult.error("No weather is known for Atlantis.")
    return ToolResult.ok(Weather(params.city, "clear"), f"The weather in {params.city}:")


def _lookup_tool() -> Tool[CityParams, Weather]:
    return Tool[CityParams, Weather](
        name="lookup_weather", description="Look up the weather in a city.", handler=lookup
    )


LOOKUP_TOOL = {
    "name": "lookup_weather",
    "description": "Look up the weather in a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city to look up."}},
        "required": ["city"],
        "additionalProperties": False,
    },
}

FORECAST_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "sky": {"type": "string"}},
    "required": ["city", "sky"],
    "additionalProperties": False,
}

TASK = MarkdownSection(title="Task", key="task", template="Say what the weather is in Paris.")


def _weather_section(visibility: SectionVisibility) -> MarkdownSection[Any]:
    return MarkdownSection(
        title="Weather",
        key="weather",
        template="Look the weather up before you answer.",
        summary="Weather tools are available.",
        visibility=visibility,
        tools=[_lookup_tool()],
    )


SUMMARIZED_TEMPLATE = PromptTemplate(
    ns="tests", key="weather", sections=[TASK, _weather_section(SectionVisibility.SUMMARY)]
)
"""The weather tool hides in a summarized section: ``read_section`` reveals it."""

OPEN_TEMPLATE = PromptTemplate(
    ns="tests", key="weather", sections=[TASK, _weather_section(SectionVisibility.FULL)]
)
"""The weather tool is offered from the start."""

PLAIN_TEMPLATE = PromptTemplate(ns="tests", key="plain", sections=[TASK])
"""No tools at all."""


FORECAST_TEMPLATE = PromptTemplate(
    ns="tests",
    key="forecast",
    sections=[TASK, _weather_section(SectionVisibility.FULL)],
    output_type=Forecast,
)
"""The weather tool is offered, and the answer must be a ``Forecast``."""


def evaluate(
    server: ProviderServer,
    template: PromptTemplate[Any],
    *,
    deadline: Deadline | None = None,
    **options: Any,
) -> PromptResponse:
    """Evaluate ``template`` with an ``AnthropicAdapter`` talking to ``server``; ``options`` go
    to the adapter (its model is ``MODEL`` and its key ``KEY``).
    """
    with AnthropicAdapter(MODEL, api_key=KEY, base_url=server.url, **options) as adapter:
        return MainLoop(adapter=adapter).execute(
            Prompt(template), session=Session(), deadline=deadline
        )
