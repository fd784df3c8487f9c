"""Handing long work off: a turn may end by passing the rest of its plan to long-running work.

Before each step the conductor asks the registered hand-off (LRE registers
itself) whether the step should continue as long-running work instead — for
example a per-item step over more items than a turn should handle. The
hand-off answers with the sentence the user reads, or ``None`` to run the
step in the turn as usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from apps.runtime.executor import Catalog, StepResult
from apps.runtime.models import Turn
from apps.runtime.plans.api import Plan


class Handoff(Protocol):
    def __call__(
        self, *, turn: Turn, plan: Plan, index: int, catalog: Catalog, results: Mapping[int, StepResult]
    ) -> str | None: ...


_handoff: Handoff | None = None


def register_handoff(handoff: Handoff) -> None:
    global _handoff
    _handoff = handoff


def handoff_before_step(
    *, turn: Turn, plan: Plan, index: int, catalog: Catalog, results: Mapping[int, StepResult]
) -> str | None:
    """The answer of a hand-off of steps ``index``… of ``plan``, or ``None`` to run the step here."""
    if _handoff is None:
        return None
    return _handoff(turn=turn, plan=plan, index=index, catalog=catalog, results=results)
