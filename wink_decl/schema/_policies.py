"""Policies: one-key mappings naming a built-in policy or a plugin."""

# Annotations are evaluated as the classes are made, not left as strings: pydantic would
# compile each string again to read it, which costs start-up time (names defined further
# down are quoted).
from typing import Annotated

from pydantic import Tag, model_validator

from wink_decl.schema import _unions as u
from wink_decl.schema._base import DocModel, EntryPoint, ParamRef, ToolRef, config_for
from wink_decl.schema._types import Problem, doc, semantic_error

__all__ = [
    "PluginPolicyDoc",
    "PluginSpec",
    "PolicyDoc",
    "ReadBeforeWritePolicyDoc",
    "ReadBeforeWriteSpec",
    "SequentialPolicyDoc",
    "policies_field",
]


class SequentialPolicyDoc(DocModel):
    """A tool may run only after the tools it depends on have succeeded."""

    model_config = config_for(
        "Sequential policy",
        "`{sequential: {TOOL: [TOOL, ...]}}`: each tool runs only after the listed tools "
        "have succeeded in the session.",
    )
    noun = "policy"
    union_tag = "sequential"
    one_key_of = u.POLICY
    sequential: dict[ToolRef, tuple[ToolRef, ...]] = doc(
        description="Each tool name maps to the tools that must have succeeded before it runs.",
        examples=[{"deploy": ["test", "build"]}],
    )

    @model_validator(mode="after")
    def _no_self_dependency(self) -> "SequentialPolicyDoc":
        problems = [
            Problem(
                f"Tool '{tool}' cannot depend on itself.",
                at=("sequential", tool, list(needs).index(tool)),
            )
            for tool, needs in self.sequential.items()
            if tool in needs
        ]
        if problems:
            raise semantic_error(*problems)
        return self


class ReadBeforeWriteSpec(DocModel):
    """Which tools read and write files, and which param holds the path."""

    model_config = config_for(
        "Read before write",
        "Which tools read and write files and the param that holds the path.",
    )
    noun = "'read_before_write' policy"
    read_tools: tuple[ToolRef, ...] = doc(
        ("read_file",),
        description="Tools that read a file, besides those that declare reads:.",
        markdown="Tools that read a file, besides those that declare `reads:`.",
        examples=[["read_file"]],
    )
    write_tools: tuple[ToolRef, ...] = doc(
        ("write_file", "edit_file"),
        description="Tools that write a file, besides those that declare writes:; each may "
        "change an existing file only after it was read.",
        markdown="Tools that write a file, besides those that declare `writes:`; each may "
        "change an existing file only after it was read.",
        examples=[["write_file", "edit_file"]],
    )
    path_field: ParamRef = doc(
        "path",
        description="The param that holds the file path in the tools named here.",
        markdown="The param that holds the file path in the tools named by `read_tools` and "
        "`write_tools` (a tool that declares `reads:` or `writes:` names its own).",
        examples=["path"],
    )


class ReadBeforeWritePolicyDoc(DocModel):
    """An existing file may be changed only after it was read in the session."""

    model_config = config_for(
        "Read-before-write policy",
        "`{read_before_write: {}}`: an existing file may be changed only after it was read "
        "in the session.",
    )
    noun = "policy"
    union_tag = "read_before_write"
    one_key_of = u.POLICY
    read_before_write: ReadBeforeWriteSpec = doc(
        description="Options; {} watches read_file, write_file, edit_file (the param 'path') "
        "and every tool that declares reads: or writes:.",
        markdown="Options; `{}` watches `read_file`, `write_file` and `edit_file` (the path in "
        "their param `path`) and every tool that declares `reads:` or `writes:`.",
        examples=[{}, {"write_tools": ["write_file", "edit_file"]}],
    )


class PluginSpec(DocModel):
    """A policy registered under the entry-point group wink_decl.policies, and its settings."""

    model_config = config_for(
        "Plugin", "A policy from the entry-point group `wink_decl.policies` and its settings."
    )
    noun = "'plugin' policy"
    name: EntryPoint = doc(
        description="An entry-point name in the group wink_decl.policies.",
        markdown="An entry-point name in the group `wink_decl.policies`; add `@distribution` "
        "when two installed distributions register the same name.",
        examples=["audit.log_calls"],
    )
    config: dict[str, object] = doc(
        {},
        description="Settings passed to the policy as they are written.",
        examples=[{"level": "info"}],
    )


class PluginPolicyDoc(DocModel):
    """A policy provided by an installed plugin."""

    model_config = config_for(
        "Plugin policy", "`{plugin: {name: NAME, config: {...}}}`: a policy from a plugin."
    )
    noun = "policy"
    union_tag = "plugin"
    one_key_of = u.POLICY
    plugin: PluginSpec = doc(
        description="The plugin's entry-point name and its settings.",
        examples=[{"name": "audit.log_calls", "config": {"level": "info"}}],
    )


PolicyDoc = Annotated[
    Annotated[SequentialPolicyDoc, Tag("sequential")]
    | Annotated[ReadBeforeWritePolicyDoc, Tag("read_before_write")]
    | Annotated[PluginPolicyDoc, Tag("plugin")],
    u.POLICY.discriminator(u.policy_tag),
]
"""A one-key mapping: sequential, read_before_write or plugin."""


def policies_field() -> tuple[PolicyDoc, ...]:
    """The documented ``policies:`` field (used by the document and by sections)."""
    return doc(
        (),
        description="Policies that govern tools; each item is a mapping with exactly one key: "
        "sequential, read_before_write or plugin.",
        markdown="Policies that govern tools; each item has exactly one key:\n\n"
        "- `sequential: {deploy: [test, build]}`\n- `read_before_write: {}`\n"
        "- `plugin: {name: audit.log_calls, config: {...}}`",
        examples=[[{"sequential": {"deploy": ["test", "build"]}}, {"read_before_write": {}}]],
    )
