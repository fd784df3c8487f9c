"""A turn's browser step run as a browser job, and waited for by the step.

Two halves, in two workers:

* **In the turn's worker** (the executor's ``run``, inside the invocation
  boundary), :func:`browser_step_run` submits the job — its parameters hold
  ids, the address and the step's identity (turn, step index, owner), never
  a value — waits for its outcome while staying responsive to the step's
  cancellation, and turns it into the :class:`StepResult`. A job whose
  worker died is ``interrupted``: the step fails with class ``unknown``,
  code ``interrupted``, and says that whether the website was changed is
  unknown; the runtime never repeats such a step by itself.
* **In the browser worker**, a handler registered with
  :func:`register_browser_step` gets a :class:`BrowserStep`: the step
  rebuilt from the database (the owner, the turn, the user to ask for a code
  through the turn's own questions, the job's cancellation), never an
  ``ExecutionContext``, which only the invocation boundary builds. It
  returns the step's :class:`StepResult`, stored with the job once the job
  has redacted it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from apps.accounts.models import User
from apps.runtime.boundary import result_as_json, result_from_json
from apps.runtime.executor import ExecutionContext, InputAnswer, InputSpec, StepError, StepResult
from apps.runtime.models import Turn
from apps.runtime.tiers.client import turn_usage_add
from apps.runtime.trace import TurnRecorder
from apps.sites.browser.jobs import (
    MODEL_REQUESTS,
    BrowserJobContext,
    browser_job_submit,
    browser_job_wait,
    register_browser_work,
)
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.models import BrowserJob

# Job outcomes that say nothing happened on the website, and the sentence for each.
_NOTHING_DONE: Mapping[str, str] = {
    "not_started": "No browser worker took this step in time, so nothing was done on the website.",
    "queue_full": "Too many browser sessions are waiting; nothing was done on the website.",
    "queue_timeout": "No browser session became free in time; nothing was done on the website.",
    "closed_by_user": "You closed the web sessions before this step's browser started.",
    "browser_unavailable": "The managed browser is not available.",
}
INTERRUPTED = "interrupted"
INTERRUPTED_MESSAGE = (
    "The browser worker stopped while this step was running, so whether it changed anything on the website "
    "is unknown; Metnos will not repeat it by itself."
)


@dataclass
class BrowserStep:
    """The step a browser job works for, rebuilt in the browser worker from the database.

    ``request_input`` asks the turn's user (the turn waits, as for any
    question) when the step could ask, and answers ``unavailable``
    otherwise; sensitive answers are registered with the job's redaction.
    """

    job: BrowserJobContext
    owner: User
    turn: Turn | None
    step_index: int
    can_ask: bool
    deadline: dt.datetime | None
    today: dt.date | None
    request_input: Callable[[InputSpec], InputAnswer]
    answered: list[str] = field(default_factory=list)

    @property
    def turn_id(self) -> int | None:
        return self.turn.pk if self.turn is not None else None

    @property
    def params(self) -> Mapping[str, Any]:
        return self.job.params

    @property
    def cancelled(self) -> threading.Event:
        return self.job.cancelled

    def withhold(self, *values: str) -> None:
        self.job.withhold(*values)


def _nobody_to_ask(spec: InputSpec) -> InputAnswer:
    return InputAnswer("unavailable")


def somebody_to_ask(context: ExecutionContext) -> bool:
    """Whether the step runs in a conducted turn whose user can be asked (not the context's default)."""
    default = next(field.default for field in dataclasses.fields(ExecutionContext) if field.name == "request_input")
    return context.request_input is not default


def _when(value: Any) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if isinstance(value, str) else None


def browser_step_of(job: BrowserJobContext) -> BrowserStep:
    """The step of ``job``, from its stored identity; the turn is read through its owner."""
    from apps.runtime.user_input import input_requester

    identity = job.params.get("step") or {}
    turn = None
    if identity.get("turn") is not None:
        turn = Turn.objects.filter(pk=identity["turn"], owner_id=job.owner.pk).first()
    index = int(identity.get("index") or 0)
    request_input: Callable[[InputSpec], InputAnswer] = _nobody_to_ask
    answered: list[str] = []
    if turn is not None and identity.get("can_ask"):
        request_input, answered = input_requester(
            recorder=TurnRecorder(turn), step_index=index, cancelled=job.cancelled
        )
    today = identity.get("today")
    return BrowserStep(
        job=job,
        owner=job.owner,
        turn=turn,
        step_index=index,
        can_ask=bool(identity.get("can_ask")) and turn is not None,
        deadline=_when(identity.get("deadline")),
        today=dt.date.fromisoformat(today) if isinstance(today, str) else None,
        request_input=request_input,
        answered=answered,
    )


def register_browser_step(kind: str, handler: Callable[[BrowserStep], StepResult]) -> None:
    """Run ``handler`` for the browser jobs of ``kind``; its result travels back to the waiting step."""

    def run(job: BrowserJobContext) -> Mapping[str, Any]:
        step = browser_step_of(job)
        try:
            result = handler(step)
        finally:
            job.withhold(*step.answered)
        return {"step": result_as_json(result)}

    register_browser_work(kind, run)


def browser_step_run(
    context: ExecutionContext,
    *,
    kind: str,
    params: Mapping[str, Any],
    websites: AuthorizedWebsites,
    deadline: dt.datetime | None = None,
) -> StepResult:
    """Submit the step's browser job and wait for what came of it (see the module docstring).

    ``params`` are stored with the job: ids, the address and choices, never a value.
    """
    identity = {
        "turn": context.turn_id,
        "index": context.step_index,
        "can_ask": somebody_to_ask(context),
        "deadline": context.deadline.isoformat() if context.deadline is not None else None,
        "today": context.today.isoformat() if context.today is not None else None,
    }
    job = browser_job_submit(
        owner=context.owner, kind=kind, params={**params, "step": identity}, websites=websites, deadline=deadline
    )
    finished = browser_job_wait(owner=context.owner, job_id=job.pk, cancelled=context.cancelled)
    # The job's model requests count on this turn as if the step had sent them itself.
    for tier_name, cloud, requests in finished.result.get(MODEL_REQUESTS, ()):
        turn_usage_add(tier_name=str(tier_name), cloud=bool(cloud), requests=int(requests))
    return browser_step_result(finished)


def browser_step_result(job: BrowserJob) -> StepResult:
    """The step's result from its finished job: the handler's own, or a typed failure saying what is known."""
    if job.outcome == "completed" and isinstance(job.result.get("step"), Mapping):
        return result_from_json(job.result["step"])
    if job.outcome in _NOTHING_DONE:
        return _failed("recoverable", job.outcome, _NOTHING_DONE[job.outcome])
    if job.outcome == INTERRUPTED:
        return _failed("unknown", INTERRUPTED, INTERRUPTED_MESSAGE)
    if job.outcome == "time_limit":
        return _failed(
            "unknown", "time_limit", "The browser step reached its time limit; whether it changed anything on the "
            "website is unknown.",
        )  # fmt: skip
    ending = job.outcome or job.status
    return _failed(
        "unknown", f"browser_{ending}", f"The browser step ended unexpectedly ({ending}); whether it changed "
        "anything on the website is unknown.",
    )  # fmt: skip


def _failed(error_class: Any, code: str, message: str) -> StepResult:
    return StepResult(outcome="failed", error=StepError(error_class, code, message), summary=message)
