"""The session store: typed state slices, reducers, snapshots and metrics."""

from __future__ import annotations

from wink_decl.runtime.session.metrics import (
    DISCLOSURE_DYNAMIC,
    DISCLOSURE_RESTARTS,
    TOOLS_INJECTED,
    Metrics,
)
from wink_decl.runtime.session.model_events import ModelRequested, ModelResponded
from wink_decl.runtime.session.protocols import SessionProtocol
from wink_decl.runtime.session.session import Reducer, Session, SlicePolicy, Snapshot
from wink_decl.runtime.session.tool_events import (
    PolicyState,
    RecordPolicyInvocation,
    ToolInvoked,
    ToolsInjected,
)
from wink_decl.runtime.session.visibility_slice import (
    ClearAllVisibilityOverrides,
    ClearVisibilityOverride,
    SetVisibilityOverride,
    VisibilityOverrides,
)

__all__ = [
    "DISCLOSURE_DYNAMIC",
    "DISCLOSURE_RESTARTS",
    "TOOLS_INJECTED",
    "ClearAllVisibilityOverrides",
    "ClearVisibilityOverride",
    "Metrics",
    "ModelRequested",
    "ModelResponded",
    "PolicyState",
    "RecordPolicyInvocation",
    "Reducer",
    "Session",
    "SessionProtocol",
    "SetVisibilityOverride",
    "SlicePolicy",
    "Snapshot",
    "ToolInvoked",
    "ToolsInjected",
    "VisibilityOverrides",
]
