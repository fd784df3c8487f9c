"""The agentic loop's vocabulary and its semantics, without I/O.

What the loop records (:class:`AttemptRecord`, one closed-set
:data:`AttemptReason` per attempt) and ends with (:class:`LoopResult`, one
:data:`LoopOutcome`), what an adapter raises when an operation failed as
expected (:class:`ExecutionFailed`), and :class:`LoopCore`: the whole loop —
observe → propose → validate → execute → check the postcondition, attempt
after attempt, within the limits — as a generator of task calls.

:class:`LoopCore` calls nothing itself: a driver in :mod:`apps.runtime.agentic.loop`
makes each :class:`StageCall` (synchronously, or in an event loop) and sends
the answer back or throws the exception in. The core catches only what the
contract names (a ``ModelError`` from propose, :class:`ExecutionFailed` from
execute, a :class:`BudgetCut`) and lets anything else escape, so the two
drivers cannot drift apart. The outcomes and limits are described in
:mod:`apps.runtime.agentic.loop`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar

from apps.runtime.tiers.client import (
    ModelError,
    ModelInvalidOutput,
    ModelRefused,
    ModelTimeout,
    ModelTruncated,
)

# Less than this left is not enough to start an attempt or an execution, and a
# model timeout leaving less than this means the budget (not the tier) ran out.
MIN_ATTEMPT_SECONDS: Final = 0.05

LoopOutcome = Literal["completed", "inconclusive", "exhausted"]

AttemptReason = Literal[
    "postcondition_met",  # the attempt completed the loop
    "no_proposal",  # propose returned None
    "proposal_invalid",  # the validator refused the proposal (its code is in the history's detail)
    "postcondition_failed",  # executed; the end state is not the one wanted
    "execution_failed",  # the operation raised ExecutionFailed (its code is in the detail)
    "model_unavailable",
    "model_timeout",
    "model_rate_limited",
    "model_refused",
    "model_truncated",
    "model_invalid_output",
    "budget_spent",  # the time budget ran out within the attempt, outside a model call
]

StopCause = Literal["postcondition_met", "deterministic_good_enough", "attempts_spent", "budget_spent"]

# Model failures that say nothing about the task: asking later may work.
TRANSIENT_MODEL_REASONS: Final[frozenset[AttemptReason]] = frozenset(
    {"model_unavailable", "model_timeout", "model_rate_limited"}
)

# What a closed-set code from an adapter (a validator's refusal, an execution
# failure) must look like, so no free text travels as a reason.
_CODE: Final = re.compile(r"[a-z][a-z0-9_]{0,63}")

Obs = TypeVar("Obs")
Prop = TypeVar("Prop")
T = TypeVar("T")


@dataclass(frozen=True)
class AttemptRecord(Generic[Prop]):
    """One finished attempt, as ``propose`` sees it in ``history``.

    ``proposal`` is the adapter's parsed proposal (``None`` if there was
    none); ``detail`` refines ``reason`` with a closed-set code: the
    validator's refusal, an :class:`ExecutionFailed` code or a
    :class:`ModelError` cause.
    """

    number: int
    reason: AttemptReason
    proposal: Prop | None = None
    detail: str | None = None


@dataclass(frozen=True)
class LoopResult(Generic[T]):
    """What the loop ended with. See :mod:`apps.runtime.agentic.loop` for the outcomes.

    ``attempts`` counts attempts started (``len(reasons) == attempts``);
    ``executions`` counts admitted proposals that were executed — when it is
    not zero, state may have changed. ``kept_deterministic`` is set only by
    :func:`~apps.runtime.agentic.loop.run_deterministic_first` when the model
    fallback failed and ``value`` is the deterministic result.
    """

    outcome: LoopOutcome
    value: T | None
    attempts: int
    elapsed_seconds: float
    reasons: tuple[AttemptReason, ...]
    stopped_by: StopCause
    executions: int = 0
    kept_deterministic: bool = False

    def __post_init__(self) -> None:
        if self.kept_deterministic and self.outcome == "completed":
            raise ValueError("a completed loop has its own result; nothing deterministic was kept")
        if self.outcome != "completed" and not self.kept_deterministic and self.value is not None:
            raise ValueError("an unfinished loop has no result: the loop never invents one")


class ExecutionFailed(Exception):
    """Raised by ``execute`` when the concrete operation failed in an expected way.

    ``code`` is closed-set (``stale_control``, ``not_clickable``…). The attempt
    counts as executed — the operation may have changed state — and the loop
    goes on. Any other exception from a task method (a ``ModelError`` outside
    ``propose`` included) propagates: the loop does not swallow bugs.
    """

    def __init__(self, code: str) -> None:
        _check_code(code, "ExecutionFailed code")
        self.code = code
        super().__init__(code)


Stage = Literal["observe", "propose", "validate", "execute", "postcondition"]


@dataclass(frozen=True)
class StageCall:
    """A task method the core wants called; ``bound`` is the remaining budget, if the stage may be cut."""

    stage: Stage
    args: tuple[Any, ...]
    deadline: float | None = None
    bound: float | None = None

    @property
    def kwargs(self) -> dict[str, Any]:
        return {"deadline": self.deadline} if self.stage == "propose" else {}


class BudgetCut(Exception):
    """Thrown into the core when the async driver stopped a stage at the end of the budget."""


def _check_code(code: object, what: str) -> str:
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise ValueError(f"{what} must be a closed-set code such as 'control_not_observed'")
    return code


def _model_reason(error: ModelError) -> AttemptReason:
    if isinstance(error, ModelTimeout):
        return "model_timeout"
    if isinstance(error, ModelRefused):
        return "model_rate_limited" if error.cause == "rate_limited" else "model_refused"
    if isinstance(error, ModelTruncated):
        return "model_truncated"
    if isinstance(error, ModelInvalidOutput):
        return "model_invalid_output"
    return "model_unavailable"  # ModelUnavailable, or a ModelError of no finer kind


def check_limits(max_attempts: int, time_budget_seconds: float) -> None:
    """Refuse (``ValueError``) a loop with no attempt or no time: every driver checks before it starts."""
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise ValueError("max_attempts must be a positive integer")
    if not math.isfinite(time_budget_seconds) or time_budget_seconds <= 0:
        raise ValueError("time_budget_seconds must be a positive number of seconds")


class LoopCore:
    """The loop's semantics as a generator of task calls, shared by both drivers.

    The driver sends each call's result back, or throws its exception in; the
    core catches only what the contract names (``ModelError`` from propose,
    ``ExecutionFailed`` from execute, a budget cut) and lets the rest escape.
    """

    def __init__(self, *, max_attempts: int, time_budget_seconds: float, clock: Callable[[], float], started: float):
        self.max_attempts = max_attempts
        self.clock = clock
        self.started = started
        self.deadline = started + time_budget_seconds
        self.history: list[AttemptRecord[Any]] = []
        self.executions = 0
        self.value: Any = None

    @property
    def attempts(self) -> int:
        return len(self.history)

    def remaining(self) -> float:
        return self.deadline - self.clock()

    def _record(self, reason: AttemptReason, proposal: Any = None, detail: str | None = None) -> None:
        self.history.append(AttemptRecord(len(self.history) + 1, reason, proposal, detail))

    def run(self) -> Generator[StageCall, Any, LoopResult[Any]]:
        stopped_by: StopCause = "attempts_spent"
        while self.attempts < self.max_attempts:
            if self.remaining() < MIN_ATTEMPT_SECONDS:
                stopped_by = "budget_spent"
                break
            step = yield from self._attempt()
            if step != "next":
                stopped_by = step
                break
        if stopped_by == "postcondition_met":
            outcome: LoopOutcome = "completed"
        elif stopped_by == "budget_spent" or self.executions:
            outcome = "exhausted"
        else:
            outcome = "inconclusive"
        return LoopResult(
            outcome=outcome,
            value=self.value,
            attempts=self.attempts,
            elapsed_seconds=max(0.0, self.clock() - self.started),
            reasons=tuple(record.reason for record in self.history),
            stopped_by=stopped_by,
            executions=self.executions,
        )

    def _attempt(self) -> Generator[StageCall, Any, Literal["postcondition_met", "budget_spent", "next"]]:
        try:
            observation = yield StageCall("observe", (), bound=self.remaining())
        except BudgetCut:
            self._record("budget_spent")
            return "budget_spent"

        left = self.remaining()
        if left < MIN_ATTEMPT_SECONDS:
            self._record("budget_spent")
            return "budget_spent"
        try:
            proposal = yield StageCall(
                "propose", (observation, tuple(self.history)), deadline=time.monotonic() + left, bound=left
            )
        except ModelError as error:
            self._record(_model_reason(error), detail=error.cause)
            if isinstance(error, ModelTimeout) and self.remaining() < MIN_ATTEMPT_SECONDS:
                return "budget_spent"
            return "next"
        except BudgetCut:
            self._record("model_timeout", detail="deadline_passed")
            return "budget_spent"
        if self.remaining() < MIN_ATTEMPT_SECONDS:
            # Too late to act on: it is neither validated nor executed.
            self._record("budget_spent", proposal)
            return "budget_spent"
        if proposal is None:
            self._record("no_proposal")
            return "next"

        try:
            refusal = yield StageCall("validate", (proposal, observation), bound=self.remaining())
        except BudgetCut:
            self._record("budget_spent", proposal)
            return "budget_spent"
        if refusal is not None:
            self._record("proposal_invalid", proposal, _check_code(refusal, "a validator's refusal"))
            return "next"
        if self.remaining() < MIN_ATTEMPT_SECONDS:
            self._record("budget_spent", proposal)
            return "budget_spent"

        self.executions += 1
        try:
            result = yield StageCall("execute", (proposal,))
        except ExecutionFailed as failure:
            self._record("execution_failed", proposal, failure.code)
            return "next"
        met = yield StageCall("postcondition", (result, observation))
        if not isinstance(met, bool):
            raise TypeError("a postcondition must return a bool")
        if met:
            self._record("postcondition_met", proposal)
            self.value = result
            return "postcondition_met"
        self._record("postcondition_failed", proposal)
        return "next"
