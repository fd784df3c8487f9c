"""The bounds of one collection: levels, actions and active time, in one ledger.

Forward navigation, in-place clicks, scrolling and returns share one count
of actions (``COLLECTION_MAX_ACTIONS``) and ten minutes of active work
(``COLLECTION_MAX_ACTIVE_TIME``). Time spent waiting for the user is not
active work: :meth:`CollectionLedger.waiting_for_user` pauses the clock
without resetting anything. A local model decision gets at most
``COLLECTION_MODEL_DECISION_TIMEOUT`` and counts as active time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from apps.sites.limits import (
    COLLECTION_MAX_ACTIONS,
    COLLECTION_MAX_ACTIVE_TIME,
    COLLECTION_MAX_LEVELS,
    COLLECTION_MODEL_DECISION_TIMEOUT,
)

ActionKind = Literal["forward", "in_place", "return", "scroll", "download"]
LimitName = Literal["actions", "active_time", "levels"]


@dataclass(frozen=True)
class CollectionBudget:
    """The spec's bounds; tests of what happens at a bound may pass smaller ones."""

    max_levels: int = COLLECTION_MAX_LEVELS
    max_actions: int = COLLECTION_MAX_ACTIONS
    max_active_seconds: float = COLLECTION_MAX_ACTIVE_TIME.total_seconds()
    model_decision_seconds: float = COLLECTION_MODEL_DECISION_TIMEOUT.total_seconds()

    def describe(self, limit: LimitName) -> str:
        if limit == "actions":
            return f"the action budget of {self.max_actions}"
        if limit == "levels":
            return f"the depth limit of {self.max_levels} levels"
        minutes = self.max_active_seconds / 60
        shown = f"{minutes:g} minutes" if minutes >= 1 else f"{self.max_active_seconds:g} seconds"
        return f"the active-time limit of {shown}"


class CollectionLedger:
    """Counts actions and active time against a :class:`CollectionBudget`."""

    def __init__(self, budget: CollectionBudget, *, outer_deadline: float | None = None) -> None:
        self.budget = budget
        self.started = time.monotonic()
        self.paused_seconds = 0.0
        self.actions: Counter[str] = Counter()
        self.outer_deadline = outer_deadline
        self.deepest_level = 0

    @property
    def spent_actions(self) -> int:
        return sum(self.actions.values())

    def active_seconds(self) -> float:
        return time.monotonic() - self.started - self.paused_seconds

    def deadline(self) -> float:
        """The monotonic instant active work must end, within the caller's own deadline."""
        end = time.monotonic() + max(0.0, self.budget.max_active_seconds - self.active_seconds())
        return min(end, self.outer_deadline) if self.outer_deadline is not None else end

    def decision_deadline(self) -> float:
        return min(self.deadline(), time.monotonic() + self.budget.model_decision_seconds)

    def exhausted(self) -> LimitName | None:
        """The bound reached, if any: no further action may be taken."""
        if self.spent_actions >= self.budget.max_actions:
            return "actions"
        if self.deadline() <= time.monotonic():
            return "active_time"
        return None

    def spend(self, kind: ActionKind) -> bool:
        """Take one action; False (nothing counted) when the budget is spent."""
        if self.exhausted() is not None:
            return False
        self.actions[kind] += 1
        return True

    def allows_level(self, level: int) -> bool:
        return level <= self.budget.max_levels

    @contextmanager
    def waiting_for_user(self) -> Iterator[None]:
        """Waiting for the user consumes neither active time nor actions, and resets nothing."""
        paused_at = time.monotonic()
        try:
            yield
        finally:
            self.paused_seconds += time.monotonic() - paused_at
