"""Release steps over the prompt's ``Filesystem``: deterministic, and safe to run anywhere."""

from __future__ import annotations

from dataclasses import dataclass, field

from wink_decl import FilesystemError, ToolContext, ToolResult


@dataclass(frozen=True)
class StepParams:
    """Which component a step works on."""

    component: str = field(default="app", metadata={"description": "Component to work on."})


@dataclass(frozen=True)
class BuildParams:
    """What to build."""

    version: str = field(metadata={"description": "Version to build, such as 1.4.0."})
    component: str = field(default="app", metadata={"description": "Component to build."})


@dataclass(frozen=True)
class DeployParams:
    """What to deploy where."""

    version: str = field(metadata={"description": "A version that was built."})
    target: str = field(default="staging", metadata={"description": "staging or production."})
    component: str = field(default="app", metadata={"description": "Component to deploy."})


@dataclass(frozen=True)
class StepReport:
    """What a step did."""

    step: str
    detail: str


NO_FILESYSTEM = (
    "No filesystem is attached to this prompt: the release steps need a Filesystem resource "
    "(such as HostFilesystem) in the prompt's resources."
)
"""The error every step returns when ``context.filesystem`` is None."""


def lint(params: StepParams, *, context: ToolContext) -> ToolResult[StepReport]:
    """Check that the component's sources exist."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    try:
        names = filesystem.list_dir("src")
    except FilesystemError as error:
        return ToolResult.error(f"Lint failed: {error}")
    detail = f"{len(names)} files of {params.component} checked in src/"
    return ToolResult.ok(StepReport("lint", detail), "Lint passed.")


def test(params: StepParams, *, context: ToolContext) -> ToolResult[StepReport]:
    """Record a passing test run."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    filesystem.write_text("reports/tests.txt", f"{params.component}: all tests passed\n")
    return ToolResult.ok(StepReport("test", "reports/tests.txt"), "Tests passed.")


def build(params: BuildParams, *, context: ToolContext) -> ToolResult[StepReport]:
    """Write the artifact."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    artifact = f"dist/{params.component}-{params.version}.tar"
    filesystem.write_text(artifact, f"{params.component} {params.version}\n")
    return ToolResult.ok(StepReport("build", artifact), f"Built {artifact}.")


def deploy(params: DeployParams, *, context: ToolContext) -> ToolResult[StepReport]:
    """Record a deployment of an artifact that exists."""
    filesystem = context.filesystem
    if filesystem is None:
        return ToolResult.error(NO_FILESYSTEM)
    artifact = f"dist/{params.component}-{params.version}.tar"
    if not filesystem.exists(artifact):
        return ToolResult.error(f"Nothing to deploy: {artifact} has not been built.")
    record = f"deployments/{params.target}.txt"
    filesystem.write_text(record, f"{artifact}\n")
    return ToolResult.ok(StepReport("deploy", record), f"Deployed {artifact} to {params.target}.")
