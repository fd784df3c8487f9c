"""From a loop's outcome to the executor's public contract: the adapter's mapping.

An executor that runs the agentic loop answers with a
:class:`~apps.runtime.executor.StepResult`, never with a
:class:`~apps.runtime.agentic.core.LoopResult`. :func:`map_outcome_to_step`
makes that answer: the loop's result when it completed, a kept deterministic
result when the adapter accepts one, otherwise a failed step carrying the
typed error of :func:`loop_error` (or a request for the user, code
:data:`NEEDS_USER_CODE`). The error class says whether asking again may help
and whether recovery may repeat what ran. Messages are fixed sentences: no
model text and no exception message reaches the step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from apps.runtime.agentic.core import TRANSIENT_MODEL_REASONS, LoopResult, T
from apps.runtime.executor import ErrorClass, StepError, StepResult

NEEDS_USER_CODE: Final = "needs_user"

# The error class and fixed message of each code of loop_error.
_LOOP_ERRORS: Final[Mapping[str, tuple[ErrorClass, str]]] = {
    "model_unavailable": ("recoverable", "The model was unavailable or did not answer in time."),
    "no_admissible_proposal": ("permanent", "The model proposed no action that could be accepted."),
    "time_budget_spent": ("recoverable", "The time allowed ran out before any action was taken."),
    "postcondition_not_met": ("unknown", "Actions were taken but the expected result was not reached."),
}


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
    if result.outcome == "completed":
        raise ValueError("a completed loop has no error")
    if result.outcome == "inconclusive":
        if result.reasons and all(reason in TRANSIENT_MODEL_REASONS for reason in result.reasons):
            code = "model_unavailable"
        else:
            code = "no_admissible_proposal"
    elif result.executions == 0:
        code = "time_budget_spent"
    else:
        code = "postcondition_not_met"
    error_class, message = _LOOP_ERRORS[code]
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
