"""``PlanningToolsSection``: the planning guidance and the four planning tools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wink_decl.prompt.section import MarkdownSection
from wink_decl.runtime.planning.plan_model import TITLE_LIMIT
from wink_decl.runtime.planning.reducers import ensure_planning_reducers
from wink_decl.runtime.planning.strategies import PlanningStrategy
from wink_decl.runtime.planning.tools import PLANNING_TOOLS

if TYPE_CHECKING:
    from wink_decl.runtime.session import SessionProtocol

__all__ = ["PlanningToolsSection", "planning_guidance"]

_GUIDANCE = f"""\
Keep a plan for work that takes more than a few steps; skip it for one-step tasks.

- `planning_setup_plan` starts the plan with an objective and optional initial steps; \
calling it again replaces the whole plan.
- `planning_add_step` appends steps as new work turns up.
- `planning_update_step` changes one step's title or status (`pending`, `in_progress`, \
`done`), by the id shown in the plan.
- `planning_read_plan` shows the objective, the status and every step with its id.

Write the objective and step titles as short imperative phrases (at most {TITLE_LIMIT} \
characters). Work on one step at a time: mark it `in_progress` when you start it and `done` \
when it is finished. The plan is completed when every step is done; adding a step or \
reopening one makes it active again.

"""


def planning_guidance(strategy: PlanningStrategy) -> str:
    """The section body: the fixed tool guidance, then ``strategy``'s mindset paragraph."""
    return _GUIDANCE + strategy.mindset


class PlanningToolsSection(MarkdownSection[None]):
    """A section offering the planning tools, with guidance framed by a strategy.

    Every strategy renders the same structure; only the closing mindset paragraph varies.
    The tools register their reducers on first use; pass ``session=`` to register now.
    """

    def __init__(
        self,
        *,
        strategy: PlanningStrategy = PlanningStrategy.REACT,
        title: str = "Planning",
        key: str = "planning",
        session: SessionProtocol | None = None,
        accepts_overrides: bool = True,
    ) -> None:
        """Build the section; with ``session=``, register the planning reducers on it."""
        super().__init__(
            title=title,
            key=key,
            template=planning_guidance(strategy),
            tools=PLANNING_TOOLS,
            accepts_overrides=accepts_overrides,
        )
        self._strategy = strategy
        if session is not None:
            ensure_planning_reducers(session)

    @property
    def strategy(self) -> PlanningStrategy:
        """The strategy whose mindset paragraph the section renders."""
        return self._strategy
