"""The agentic loop: how an executor uses a model without handing it control.

The executor's manifest and code define its purpose, arguments, capabilities,
consent, limits and result shape. When part of its route needs a model, the
executor's *adapter* provides an :class:`AgenticTask`: it prepares a bounded
observation, asks for a proposal (usually a :class:`ModelClient` call with a
response schema), validates the proposal against the observation, chooses and
runs the concrete operation, and verifies the end state. The model never
invokes an executor and cannot alter its contract: it only proposes, and a
proposal is acted on only after the adapter's validator admits it.

Each attempt of the loop: observe → propose → validate → execute → check the
postcondition. The loop ends with one :data:`LoopOutcome`:

``completed``
    A postcondition held. ``value`` is the result of that execution.
``inconclusive``
    Every one of ``max_attempts`` attempts reached a verdict and none was
    admitted: each proposal was missing or invalid, or the model failed. The
    loop has no result and no evidence that the task cannot be done.
``exhausted``
    A limit ran out before a postcondition held: either the time budget
    (it cut an attempt short, or attempts remained) — whether or not any
    proposal was admitted, since the model was not given all its chances —
    or all attempts were spent and at least one admitted proposal was
    executed without meeting its postcondition.

So when both spec rules could apply ("if no proposal is admitted, the loop is
inconclusive; if its attempts or elapsed-time budget runs out, it is
exhausted"): time running out always means ``exhausted``; attempts running
out means ``inconclusive`` when nothing was admitted and ``exhausted``
otherwise. :attr:`LoopResult.stopped_by` says which limit ended the loop.

Limits:

* ``max_attempts`` bounds proposals; there are no retries beyond it, no
  pauses between attempts, and no switch to another model tier. Every model
  failure consumes one attempt.
* ``time_budget_seconds`` covers everything, model time included. ``propose``
  gets ``deadline`` (a ``time.monotonic()`` instant, as ``ModelClient.chat``
  expects) equal to now plus the remaining budget, so a model call gets at
  most the remaining time. A :class:`ModelTimeout` that leaves less than
  :data:`MIN_ATTEMPT_SECONDS` ends the loop as exhausted; a proposal that
  arrives after the budget is neither validated nor executed; no attempt and
  no execution starts with less than :data:`MIN_ATTEMPT_SECONDS` left.
* ``execute`` and ``postcondition`` are never interrupted by the loop: cutting
  short an operation that may have changed state would leave its effect
  unknown. They are bounded by the adapter's own limits.

The loop never invents a result: ``value`` is ``None`` unless a postcondition
held or (:func:`run_deterministic_first`) a deterministic result was kept.
``reasons`` holds one closed-set :data:`AttemptReason` per attempt — never an
exception message or model text. The loop does not promise persistent
resumption: it keeps nothing after it returns. :func:`map_outcome_to_step`
turns a :class:`LoopResult` into the executor's public :class:`StepResult`.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import re
import threading
import time
from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, Literal, Protocol, TypeVar, cast

from apps.runtime.executors import ErrorClass, StepError, StepResult
from apps.runtime.model_client import (
    ModelError,
    ModelInvalidOutput,
    ModelRefused,
    ModelTimeout,
    ModelTruncated,
)

logger = logging.getLogger(__name__)

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
    """What the loop ended with. See the module docstring for the outcomes.

    ``attempts`` counts attempts started (``len(reasons) == attempts``);
    ``executions`` counts admitted proposals that were executed — when it is
    not zero, state may have changed. ``kept_deterministic`` is set only by
    :func:`run_deterministic_first` when the model fallback failed and
    ``value`` is the deterministic result.
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


class LoopCancelled(Exception):
    """The synchronous loop saw its ``cancelled`` event; ``executions`` may have changed state."""

    def __init__(self, *, attempts: int, executions: int) -> None:
        self.attempts = attempts
        self.executions = executions
        super().__init__(f"agentic loop cancelled after {attempts} attempts, {executions} executions")


class AgenticTask(Protocol[Obs, Prop, T]):
    """What an adapter provides to :func:`run_loop`.

    ``observe`` returns a fresh, bounded observation (called at the start of
    every attempt). ``propose`` returns a proposal or ``None``; it may raise a
    :class:`ModelError` and must not outlive ``deadline``. ``validate`` returns
    ``None`` to admit the proposal, else a closed-set refusal code such as
    ``"control_not_observed"``. ``execute`` runs the operation the adapter
    chose for an admitted proposal and may raise :class:`ExecutionFailed`.
    ``postcondition`` verifies the end state (a fresh check, not the model's
    word) and returns a bool.
    """

    def observe(self) -> Obs: ...

    def propose(self, observation: Obs, history: Sequence[AttemptRecord[Prop]], *, deadline: float) -> Prop | None: ...

    def validate(self, proposal: Prop, observation: Obs) -> str | None: ...

    def execute(self, proposal: Prop) -> T: ...

    def postcondition(self, result: T, observation: Obs) -> bool: ...


class AsyncAgenticTask(Protocol[Obs, Prop, T]):
    """What an adapter provides to :func:`run_loop_async`: the same methods, each
    either a coroutine function or a plain callable (run in a worker thread)."""

    def observe(self) -> Obs | Awaitable[Obs]: ...

    def propose(
        self, observation: Obs, history: Sequence[AttemptRecord[Prop]], *, deadline: float
    ) -> Prop | Awaitable[Prop | None] | None: ...

    def validate(self, proposal: Prop, observation: Obs) -> str | Awaitable[str | None] | None: ...

    def execute(self, proposal: Prop) -> T | Awaitable[T]: ...

    def postcondition(self, result: T, observation: Obs) -> bool | Awaitable[bool]: ...


# --- The loop, once, without I/O -----------------------------------------------------

Stage = Literal["observe", "propose", "validate", "execute", "postcondition"]


@dataclass(frozen=True)
class _Call:
    """A task method the core wants called; ``bound`` is the remaining budget, if the stage may be cut."""

    stage: Stage
    args: tuple[Any, ...]
    deadline: float | None = None
    bound: float | None = None

    @property
    def kwargs(self) -> dict[str, Any]:
        return {"deadline": self.deadline} if self.stage == "propose" else {}


class _BudgetCut(Exception):
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


def _check_limits(max_attempts: int, time_budget_seconds: float) -> None:
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise ValueError("max_attempts must be a positive integer")
    if not math.isfinite(time_budget_seconds) or time_budget_seconds <= 0:
        raise ValueError("time_budget_seconds must be a positive number of seconds")


class _Core:
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

    def run(self) -> Generator[_Call, Any, LoopResult[Any]]:
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

    def _attempt(self) -> Generator[_Call, Any, Literal["postcondition_met", "budget_spent", "next"]]:
        try:
            observation = yield _Call("observe", (), bound=self.remaining())
        except _BudgetCut:
            self._record("budget_spent")
            return "budget_spent"

        left = self.remaining()
        if left < MIN_ATTEMPT_SECONDS:
            self._record("budget_spent")
            return "budget_spent"
        try:
            proposal = yield _Call(
                "propose", (observation, tuple(self.history)), deadline=time.monotonic() + left, bound=left
            )
        except ModelError as error:
            self._record(_model_reason(error), detail=error.cause)
            if isinstance(error, ModelTimeout) and self.remaining() < MIN_ATTEMPT_SECONDS:
                return "budget_spent"
            return "next"
        except _BudgetCut:
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
            refusal = yield _Call("validate", (proposal, observation), bound=self.remaining())
        except _BudgetCut:
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
            result = yield _Call("execute", (proposal,))
        except ExecutionFailed as failure:
            self._record("execution_failed", proposal, failure.code)
            return "next"
        met = yield _Call("postcondition", (result, observation))
        if not isinstance(met, bool):
            raise TypeError("a postcondition must return a bool")
        if met:
            self._record("postcondition_met", proposal)
            self.value = result
            return "postcondition_met"
        self._record("postcondition_failed", proposal)
        return "next"


def _log(result: LoopResult[Any], mode: str) -> None:
    logger.info(
        "agentic loop mode=%s outcome=%s stopped_by=%s attempts=%d executions=%d elapsed_ms=%d reasons=%s",
        mode, result.outcome, result.stopped_by, result.attempts, result.executions,
        result.elapsed_seconds * 1000, ",".join(result.reasons),
    )  # fmt: skip


# --- Synchronous -----------------------------------------------------------------


def _drive(core: _Core, task: Any, cancelled: threading.Event | None) -> LoopResult[Any]:
    calls = core.run()
    try:
        call = next(calls)
        while True:
            if cancelled is not None and cancelled.is_set():
                raise LoopCancelled(attempts=core.attempts, executions=core.executions)
            method = getattr(task, call.stage)
            try:
                answer = method(*call.args, **call.kwargs)
                if inspect.isawaitable(answer):
                    if inspect.iscoroutine(answer):
                        answer.close()
                    raise TypeError(f"{call.stage} returned an awaitable; use run_loop_async for async tasks")
            except Exception as error:  # noqa: BLE001 - handed to the core, which re-raises what it does not handle
                call = calls.throw(error)
            else:
                call = calls.send(answer)
    except StopIteration as stop:
        return cast(LoopResult[Any], stop.value)
    finally:
        calls.close()


def run_loop(
    task: AgenticTask[Obs, Prop, T],
    *,
    max_attempts: int,
    time_budget_seconds: float,
    clock: Callable[[], float] = time.monotonic,
    cancelled: threading.Event | None = None,
) -> LoopResult[T]:
    """Run the agentic loop synchronously. See the module docstring for the contract.

    ``clock`` measures the budget (a fake clock in tests). Nothing can be
    interrupted in a synchronous call: the model call is bounded by the
    ``deadline`` it is given. ``cancelled`` (e.g. the execution context's
    event) is checked before every task call and raises :class:`LoopCancelled`.
    """
    _check_limits(max_attempts, time_budget_seconds)
    core = _Core(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=clock())
    result = _drive(core, task, cancelled)
    _log(result, "sync")
    return cast(LoopResult[T], result)


def run_deterministic_first(
    deterministic: Callable[[], T],
    is_good_enough: Callable[[T], bool],
    task: AgenticTask[Obs, Prop, T],
    *,
    max_attempts: int,
    time_budget_seconds: float,
    clock: Callable[[], float] = time.monotonic,
    cancelled: threading.Event | None = None,
) -> LoopResult[T]:
    """Run the deterministic path first; fall back to the loop only if it is not good enough.

    A good-enough deterministic result is ``completed`` with no attempt (the
    model is not called). Otherwise the loop runs; if it completes, its
    result replaces the deterministic one. If it ends ``inconclusive`` or
    ``exhausted``, the deterministic result is retained: ``value`` is it,
    ``kept_deterministic`` is true, and the outcome is the loop's. The time
    budget covers the deterministic path too.
    """
    _check_limits(max_attempts, time_budget_seconds)
    started = clock()
    baseline = deterministic()
    if is_good_enough(baseline):
        return _good_enough(baseline, clock() - started)
    core = _Core(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=started)
    result = _kept(_drive(core, task, cancelled), baseline)
    _log(result, "sync_deterministic_first")
    return cast(LoopResult[T], result)


def _good_enough(baseline: T, elapsed: float) -> LoopResult[T]:
    result = LoopResult(
        outcome="completed", value=baseline, attempts=0, elapsed_seconds=max(0.0, elapsed), reasons=(),
        stopped_by="deterministic_good_enough",
    )  # fmt: skip
    _log(result, "deterministic")
    return result


def _kept(result: LoopResult[Any], baseline: Any) -> LoopResult[Any]:
    if result.outcome == "completed":
        return result
    return replace(result, value=baseline, kept_deterministic=True)


# --- Asynchronous ----------------------------------------------------------------


async def _call_async(method: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if inspect.iscoroutinefunction(method):
        return await method(*args, **kwargs)
    # A plain callable may block (a ModelClient call, a browser): keep it off
    # the event loop. to_thread copies context variables, so values withheld
    # from models stay withheld in the thread.
    answer = await asyncio.to_thread(method, *args, **kwargs)
    if inspect.isawaitable(answer):
        answer = await answer
    return answer


async def _call_bounded(method: Callable[..., Any], call: _Call) -> Any:
    if call.bound is None:
        return await _call_async(method, call.args, call.kwargs)
    try:
        # A stage cut here is cancelled; a worker thread already running
        # finishes on its own (a model call by its deadline).
        async with asyncio.timeout(max(call.bound, 0.0)) as scope:
            return await _call_async(method, call.args, call.kwargs)
    except TimeoutError:
        if scope.expired():
            raise _BudgetCut from None
        raise


async def _drive_async(core: _Core, task: Any) -> LoopResult[Any]:
    calls = core.run()
    try:
        call = next(calls)
        while True:
            try:
                answer = await _call_bounded(getattr(task, call.stage), call)
            except Exception as error:  # noqa: BLE001 - handed to the core, which re-raises what it does not handle
                call = calls.throw(error)
            else:
                call = calls.send(answer)
    except StopIteration as stop:
        return cast(LoopResult[Any], stop.value)
    finally:
        calls.close()


async def run_loop_async(
    task: AsyncAgenticTask[Obs, Prop, T],
    *,
    max_attempts: int,
    time_budget_seconds: float,
    clock: Callable[[], float] = time.monotonic,
) -> LoopResult[T]:
    """Run the agentic loop in an event loop, with the same semantics as :func:`run_loop`.

    Task methods may be coroutine functions or plain callables; plain ones run
    in a worker thread. ``observe``, ``propose`` and ``validate`` are also cut
    (cancelled) when the remaining budget, as measured by ``clock``, elapses;
    ``execute`` and ``postcondition`` are never cut. Cancelling the calling
    task cancels the loop at once (``CancelledError`` propagates; a worker
    thread already running finishes on its own).
    """
    _check_limits(max_attempts, time_budget_seconds)
    core = _Core(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=clock())
    result = await _drive_async(core, task)
    _log(result, "async")
    return cast(LoopResult[T], result)


async def run_deterministic_first_async(
    deterministic: Callable[[], T | Awaitable[T]],
    is_good_enough: Callable[[T], bool],
    task: AsyncAgenticTask[Obs, Prop, T],
    *,
    max_attempts: int,
    time_budget_seconds: float,
    clock: Callable[[], float] = time.monotonic,
) -> LoopResult[T]:
    """:func:`run_deterministic_first` in an event loop (``deterministic`` may be a coroutine function)."""
    _check_limits(max_attempts, time_budget_seconds)
    started = clock()
    baseline = cast(T, await _call_async(deterministic, (), {}))
    if is_good_enough(baseline):
        return _good_enough(baseline, clock() - started)
    core = _Core(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=started)
    result = _kept(await _drive_async(core, task), baseline)
    _log(result, "async_deterministic_first")
    return cast(LoopResult[T], result)


# --- The executor's public contract ------------------------------------------------

NEEDS_USER_CODE: Final = "needs_user"


def loop_error(result: LoopResult[Any]) -> StepError:
    """The typed error for a loop that did not complete.

    * ``inconclusive`` and every attempt a transient model failure
      (unavailable, timeout, rate limited): ``recoverable``,
      ``model_unavailable`` — asking later may work.
    * ``inconclusive`` otherwise (missing or invalid proposals, refused,
      truncated or malformed replies): ``permanent``,
      ``no_admissible_proposal`` — asking again the same way will not help.
    * ``exhausted`` with no execution (the time ran out first):
      ``recoverable``, ``time_budget_spent`` — nothing changed state.
    * ``exhausted`` after executions: ``unknown``, ``postcondition_not_met``
      — an operation ran and its end state is not the one wanted, so recovery
      must not repeat it blindly.

    Messages are fixed sentences: no model text, no exception message.
    """
    error_class: ErrorClass
    if result.outcome == "completed":
        raise ValueError("a completed loop has no error")
    if result.outcome == "inconclusive":
        if result.reasons and all(reason in TRANSIENT_MODEL_REASONS for reason in result.reasons):
            error_class, code, message = (
                "recoverable", "model_unavailable", "The model was unavailable or did not answer in time.",
            )  # fmt: skip
        else:
            error_class, code, message = (
                "permanent", "no_admissible_proposal", "The model proposed no action that could be accepted.",
            )  # fmt: skip
    elif result.executions == 0:
        error_class, code, message = (
            "recoverable", "time_budget_spent", "The time allowed ran out before any action was taken.",
        )  # fmt: skip
    else:
        error_class, code, message = (
            "unknown", "postcondition_not_met", "Actions were taken but the expected result was not reached.",
        )  # fmt: skip
    return StepError(error_class=error_class, code=code, message=message)


def map_outcome_to_step(
    result: LoopResult[T],
    *,
    on_completed: Callable[[T], StepResult],
    on_kept_deterministic: Callable[[T], StepResult] | None,
    user_help: str | None,
) -> StepResult:
    """The adapter's mapping of a loop outcome to the executor's public contract.

    * ``completed``: ``on_completed(value)``.
    * A kept deterministic result: ``on_kept_deterministic(value)`` (which
      should say the model could not improve on it); with ``None`` the
      deterministic result is dropped and the rules below apply.
    * Otherwise a failed step with no items and no value: with ``user_help``
      a request for the user (code ``needs_user``, the help text as message
      and notice), else the typed error of :func:`loop_error`. Both keep the
      error class of :func:`loop_error`, so a request for the user after
      executions still says recovery must not repeat them blindly.

    It never invents a result: ``on_completed`` is called only for a
    completed loop and ``on_kept_deterministic`` only with a kept result.
    """
    if result.outcome == "completed":
        return on_completed(cast(T, result.value))
    if result.kept_deterministic and on_kept_deterministic is not None:
        return on_kept_deterministic(cast(T, result.value))
    error = loop_error(result)
    if user_help is not None:
        help_text = user_help.strip()
        if not help_text:
            raise ValueError("user_help must say what the user should do")
        return StepResult(
            outcome="failed",
            error=StepError(error_class=error.error_class, code=NEEDS_USER_CODE, message=help_text),
            notices=(help_text,),
            summary=help_text,
        )
    return StepResult(outcome="failed", error=error, summary=error.message)
