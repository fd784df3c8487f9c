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
resumption: it keeps nothing after it returns.

This module holds the drivers (:func:`run_loop`, :func:`run_loop_async` and
their deterministic-first forms) and what adapters implement
(:class:`AgenticTask`, :class:`AsyncAgenticTask`). The loop's semantics and
vocabulary are in :mod:`apps.runtime.agentic.core`;
:func:`map_outcome_to_step` (in :mod:`apps.runtime.agentic.outcomes`, and
importable from here) turns a :class:`LoopResult` into the executor's public
:class:`~apps.runtime.executor.StepResult`.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol, cast

from apps.runtime.agentic.core import (
    MIN_ATTEMPT_SECONDS,
    TRANSIENT_MODEL_REASONS,
    AttemptReason,
    AttemptRecord,
    BudgetCut,
    ExecutionFailed,
    LoopCore,
    LoopOutcome,
    LoopResult,
    Obs,
    Prop,
    Stage,
    StageCall,
    StopCause,
    T,
    check_limits,
)
from apps.runtime.agentic.outcomes import NEEDS_USER_CODE, loop_error, map_outcome_to_step

logger = logging.getLogger(__name__)


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


def _log(result: LoopResult[Any], mode: str) -> None:
    logger.info(
        "agentic loop mode=%s outcome=%s stopped_by=%s attempts=%d executions=%d elapsed_ms=%d reasons=%s",
        mode, result.outcome, result.stopped_by, result.attempts, result.executions,
        result.elapsed_seconds * 1000, ",".join(result.reasons),
    )  # fmt: skip


# --- Synchronous -----------------------------------------------------------------


def _drive(core: LoopCore, task: Any, cancelled: threading.Event | None) -> LoopResult[Any]:
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
    check_limits(max_attempts, time_budget_seconds)
    core = LoopCore(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=clock())
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
    check_limits(max_attempts, time_budget_seconds)
    started = clock()
    baseline = deterministic()
    if is_good_enough(baseline):
        return _good_enough(baseline, clock() - started)
    core = LoopCore(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=started)
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


async def _call_bounded(method: Callable[..., Any], call: StageCall) -> Any:
    if call.bound is None:
        return await _call_async(method, call.args, call.kwargs)
    try:
        # A stage cut here is cancelled; a worker thread already running
        # finishes on its own (a model call by its deadline).
        async with asyncio.timeout(max(call.bound, 0.0)) as scope:
            return await _call_async(method, call.args, call.kwargs)
    except TimeoutError:
        if scope.expired():
            raise BudgetCut from None
        raise


async def _drive_async(core: LoopCore, task: Any) -> LoopResult[Any]:
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
    check_limits(max_attempts, time_budget_seconds)
    core = LoopCore(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=clock())
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
    check_limits(max_attempts, time_budget_seconds)
    started = clock()
    baseline = cast(T, await _call_async(deterministic, (), {}))
    if is_good_enough(baseline):
        return _good_enough(baseline, clock() - started)
    core = LoopCore(max_attempts=max_attempts, time_budget_seconds=time_budget_seconds, clock=clock, started=started)
    result = _kept(await _drive_async(core, task), baseline)
    _log(result, "async_deterministic_first")
    return cast(LoopResult[T], result)


__all__ = [
    "MIN_ATTEMPT_SECONDS",
    "NEEDS_USER_CODE",
    "TRANSIENT_MODEL_REASONS",
    "AgenticTask",
    "AsyncAgenticTask",
    "AttemptReason",
    "AttemptRecord",
    "ExecutionFailed",
    "LoopCancelled",
    "LoopOutcome",
    "LoopResult",
    "Obs",
    "Prop",
    "Stage",
    "StopCause",
    "T",
    "loop_error",
    "map_outcome_to_step",
    "run_deterministic_first",
    "run_deterministic_first_async",
    "run_loop",
    "run_loop_async",
]
