"""Turns: from a request to an answer, a request for input, or a hand-off.

``turn_submit`` records the request and enqueues it; ``turn_conduct`` (run by
a worker) chooses the path, validates the plan, drives every step through the
invocation boundary and ends the turn truthfully: completed, partial, failed,
awaiting confirmation — never a success it did not observe. A failed step
gets at most one automatic retry, only when nothing can have changed
(:mod:`apps.runtime.recovery`); otherwise the answer states the limitation.

The conductor holds the turn's :class:`~apps.runtime.trace.TurnRecorder` and
passes it on; every change of the turn's state is a transition of
:mod:`apps.runtime.lifecycle`.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.accounts.models import User
from apps.core.enqueue import enqueue_after_commit
from apps.core.processes import holder_died_here
from apps.core.redaction import error_kind, redact_text
from apps.runtime.boundary import result_from_json
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import CONSENT_EXPIRED_ANSWER
from apps.runtime.executor import Catalog, Mandate, NoMandate, StepResult, mandate_for_plan
from apps.runtime.handoff import handoff_before_step
from apps.runtime.lifecycle import (
    conductor_identity,
    turn_await_confirmation,
    turn_decline,
    turn_finish,
    turn_interrupt,
    turn_start,
)
from apps.runtime.models import ConsentRequest, Conversation, InputRequest, StepRecord, Turn
from apps.runtime.paths.choice import PathChoice, choose_path, plan_cache_store
from apps.runtime.paths.replanning import plan_again, plan_checked, requested_tools, what_is_missing
from apps.runtime.paths.resume import CONTINUED_IN_RESUMED_TURN, asks_to_resume, resumption_for
from apps.runtime.plans.api import GuardOutcome, Plan
from apps.runtime.recovery import invoke_with_recovery
from apps.runtime.tiers.client import ModelUsage, counting_into
from apps.runtime.trace import TurnRecorder

logger = logging.getLogger(__name__)

MAX_REQUEST_CHARS = 4000
# The worker's task that claims and conducts a queued turn (declared in apps/runtime/tasks.py).
RUN_TURN_TASK = "apps.runtime.run_turn"


class TurnRejected(ValueError):
    """A request that cannot become a turn (empty, too long, wrong conversation)."""


def request_checked(
    text: str, *, owner: User, conversation: Conversation | None = None, plan_given: bool = False
) -> str:
    """``text`` as a turn takes it (stripped), or :class:`TurnRejected` saying why it cannot be one."""
    request = (text or "").strip()
    if not request and not plan_given:
        raise TurnRejected("The request is empty.")
    if len(request) > MAX_REQUEST_CHARS:
        raise TurnRejected(f"The request is longer than {MAX_REQUEST_CHARS} characters.")
    if conversation is not None and conversation.owner_id != owner.pk:
        raise TurnRejected("That conversation is not yours.")
    return request


def turn_submit(
    *,
    owner: User,
    text: str,
    conversation: Conversation | None = None,
    plan: Mapping[str, Any] | None = None,
    enqueue: bool = True,
    device: Any | None = None,
) -> Turn:
    """Record a request (or an explicit plan) as a queued turn and enqueue it after commit.

    ``enqueue=False`` is for callers that conduct the turn themselves (the
    operator CLI); a turn is never both enqueued and conducted inline. A
    request sent by a paired ``device`` makes it the conversation's device:
    steps that may run on a device run there.
    """
    request = request_checked(text, owner=owner, conversation=conversation, plan_given=plan is not None)
    if device is not None and (device.owner_id != owner.pk or not device.is_active):
        raise TurnRejected("That device is not paired to you.")
    with transaction.atomic():
        if conversation is None:
            conversation = Conversation.objects.create(owner=owner, title=request[:80], device=device)
        elif device is not None and conversation.device_id != device.pk:
            conversation.device = device
            Conversation.objects.filter(pk=conversation.pk).update(device=device)
        turn = Turn.objects.create(
            owner=owner,
            conversation=conversation,
            request_text=request or "(plan)",
            plan=dict(plan) if plan is not None else None,
            path=Turn.Path.PLAN if plan is not None else Turn.Path.NONE,
        )
        conversation.updated_at = turn.created_at
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=conversation.updated_at)
        if enqueue:
            turn_enqueue(turn)
    return turn


def turn_enqueue(turn: Turn) -> None:
    enqueue_after_commit(RUN_TURN_TASK, turn.pk, turn.owner_id)


def _finish(recorder: TurnRecorder, status: str, answer: str) -> Turn:
    # Unless the turn was ended meanwhile (found interrupted): then it keeps that end.
    turn_finish(turn=recorder.turn, status=status, answer=answer, recorder=recorder)
    return recorder.turn


def _inherited_results(turn: Turn) -> dict[int, StepResult]:
    """Results of steps already run by the turn this one resumes (never re-run)."""
    if turn.resumed_from_id is None:
        return {}
    # Only steps that did their work: a failed step is what the resumption runs again.
    records = (
        StepRecord.objects.filter(turn_id=turn.resumed_from_id)
        .exclude(result={})
        .filter(outcome__in=[StepRecord.Outcome.SUCCESS, StepRecord.Outcome.EMPTY, StepRecord.Outcome.PARTIAL])
    )
    results: dict[int, StepResult] = {}
    for record in records:
        results[record.index] = result_from_json(record.result)
        StepRecord.objects.update_or_create(
            turn=turn,
            index=record.index,
            defaults={
                "owner_id": turn.owner_id, "tool": record.tool, "outcome": record.outcome,
                "summary": record.summary, "notices": record.notices, "result_preview": record.result_preview,
                "result": record.result, "files": record.files, "effects": record.effects,
                "started_at": record.started_at, "finished_at": record.finished_at,
            },
        )  # fmt: skip
    return results


def turn_conduct(*, turn: Turn, catalog: Catalog | None = None, mandate: Mandate | None = None) -> Turn:
    """Conduct a queued turn to its end (see the module docstring).

    Every model request sent while the turn runs — planning, extraction, any
    executor's — is counted on the turn, even if the turn then fails.
    """
    usage = ModelUsage()
    try:
        with counting_into(usage):
            return _conduct(turn, catalog, mandate)
    except Exception as error:  # noqa: BLE001 - whatever broke, the turn ends and says so
        # Only the error's kind is logged: a database's message can quote the data it refused.
        logger.error("turn %s stopped after an unexpected %s", turn.pk, error_kind(error))
        if _end_stopped(turn.pk, CRASHED_MESSAGE):
            turn.refresh_from_db()
        return turn
    finally:
        if usage.cloud_requests:
            # A request sent stays counted, whatever happened to it or the turn.
            Turn.objects.filter(pk=turn.pk).update(cloud_requests=F("cloud_requests") + usage.cloud_requests)
            turn.cloud_requests += usage.cloud_requests


def _conduct(turn: Turn, catalog: Catalog | None, mandate: Mandate | None) -> Turn:
    catalog = catalog or current_catalog()
    claimed = turn.status == Turn.Status.RUNNING and turn.conducted_by == conductor_identity()
    # Conducted without a claim (the operator CLI): start it before any work that may take long, so a
    # killed process is found. A turn that is neither claimed nor queued is never conducted (again).
    if not claimed and not turn_start(turn=turn):
        return turn
    # The conductor holds the turn's recorder and passes it on: to the boundary, recovery, the lifecycle.
    recorder = TurnRecorder(turn)
    with recorder.holding():
        return _plan_and_run(recorder, catalog, mandate)


def _plan_and_run(recorder: TurnRecorder, catalog: Catalog, mandate: Mandate | None) -> Turn:
    turn = recorder.turn
    raw_plan: Any = turn.plan
    request = turn.request_text
    # A plan given explicitly is run as given (its request is only a label); one from a form, a plan
    # cache or a resumption is planned anew when the guards ask for it (apps/runtime/paths/replanning.py).
    explicit = turn.path == Turn.Path.PLAN
    replannable = not explicit
    stale_fast_path = None
    if turn.resumed_from_id is not None and turn.catalog_signature != catalog.signature:
        return _finish(recorder, Turn.Status.FAILED, "Metnos's capabilities changed since you confirmed; ask again.")
    if raw_plan is None and asks_to_resume(turn.request_text):
        resumption = resumption_for(turn=turn, catalog=catalog)
        recorder.record("path.chosen", {"path": Turn.Path.RULE, "reason": "deterministic rule: resume",
                                        "resumes": resumption.turn.pk if resumption.turn else None})  # fmt: skip
        turn.path = Turn.Path.RULE
        if resumption.turn is None:
            return _finish(recorder, Turn.Status.FAILED, resumption.refusal)
        # A new turn linked to the suspended one: finished steps are inherited, never re-run.
        turn.resumed_from = resumption.turn
        recorder.changed("resumed_from")
        raw_plan, request = resumption.turn.plan, resumption.turn.request_text
        explicit = resumption.turn.path == Turn.Path.PLAN
        replannable = not explicit
    elif raw_plan is None:
        choice = choose_path(turn=turn, catalog=catalog)
        turn.path = choice.path
        _trace_choice(recorder, choice)
        if choice.plan is None:
            answer = choice.refusal or f"I could not make a plan for this request: {choice.reason}."
            return _finish(recorder, Turn.Status.FAILED, answer)
        raw_plan = choice.plan
        # A model proposal already had its bounded new requests: it is not asked again below.
        replannable = choice.model_requests == 0
        stale_fast_path = choice.cache if choice.path == Turn.Path.FAST_PATH else None
    else:
        recorder.record("path.chosen", {"path": turn.path, "reason": "plan given"})

    requested = () if explicit else requested_tools(request, catalog)
    checked = plan_checked(recorder=recorder, raw_plan=raw_plan, catalog=catalog, requested=requested)
    inherit = True
    if not isinstance(checked, str) and checked.needs_new_proposal:
        if stale_fast_path is not None:
            stale_fast_path.delete()  # it cannot serve this request any more
        if not replannable:
            return _finish(recorder, Turn.Status.FAILED, _misses(checked))
        choice = plan_again(turn=turn, catalog=catalog, request=request, guarded=checked)
        turn.path = choice.path
        _trace_choice(recorder, choice)
        if choice.plan is None:
            return _finish(recorder, Turn.Status.FAILED, choice.refusal or choice.reason)
        checked = plan_checked(recorder=recorder, raw_plan=choice.plan, catalog=catalog, requested=requested)
        inherit = False  # a new plan: a resumed turn's step numbers mean other steps in it
    if isinstance(checked, str):
        return _finish(recorder, Turn.Status.FAILED, checked)
    if checked.needs_new_proposal:
        return _finish(recorder, Turn.Status.FAILED, _misses(checked))
    plan = checked.plan
    turn.plan = plan.as_json()
    turn.plan_digest = plan.digest()
    turn.catalog_signature = catalog.signature
    # Written with the first step's record, just before anything can happen.
    recorder.changed("plan", "plan_digest", "catalog_signature", "path")
    recorder.record("plan.accepted", {"steps": [step.tool for step in plan.steps]})
    if mandate is None:
        # Credentials the plan names, for the origins it names; never a value in the plan.
        mandate = mandate_for_plan(owner=turn.owner, turn_id=turn.pk, plan=plan, catalog=catalog)
    # A plan is remembered under the request it answers: a resumption's request only says "continue".
    return _run_steps(recorder, plan, catalog, mandate, inherit=inherit, cache=request == turn.request_text)


def _misses(guarded: GuardOutcome) -> str:
    return f"The plan misses {what_is_missing(guarded)}; a new proposal is needed."


def _trace_choice(recorder: TurnRecorder, choice: PathChoice) -> None:
    recorder.record(
        "path.chosen",
        {"path": choice.path, "reason": choice.reason, "model_requests": choice.model_requests,
         "error_codes": list(choice.error_codes)},
    )  # fmt: skip


def _run_steps(
    recorder: TurnRecorder, plan: Plan, catalog: Catalog, mandate: Mandate | None, *, inherit: bool, cache: bool
) -> Turn:
    turn = recorder.turn
    results = _inherited_results(turn) if inherit else {}
    met: list[str] = []  # secrets steps met outside the mandate (codes the user typed)

    def answer(**kwargs: Any) -> str:
        # The answer repeats what steps said: keep the mandate's secrets out of it.
        return redact_text(_answer(plan, results, **kwargs), (*(mandate or NoMandate()).secrets(), *met))

    for index in range(1, len(plan.steps) + 1):
        if index in results:
            continue
        handed_off = handoff_before_step(turn=turn, plan=plan, index=index, catalog=catalog, results=results)
        if handed_off is not None:
            recorder.record("turn.handed_off", {"step": index})
            return _finish(recorder, Turn.Status.HANDED_OFF, handed_off)
        # Bounded recovery (apps/runtime/recovery.py): one retry of a read-only step, never a blind repeat.
        attempt = invoke_with_recovery(recorder=recorder, plan=plan, index=index, catalog=catalog,
                                       results=results, mandate=mandate)  # fmt: skip
        outcome = attempt.outcome
        met.extend(attempt.secrets)
        if outcome.kind == "needs_confirmation" and outcome.consent is not None:
            turn_await_confirmation(recorder=recorder, consent=outcome.consent)
            return turn
        if outcome.result is None:  # refused or missing input: nothing ran
            _skip_rest(turn, plan, index, refused_code=outcome.code)
            return _finish(recorder, _stopped_status(results), answer(stop_reason=outcome.reason))
        results[index] = outcome.result
        if outcome.result.outcome == "failed":
            _skip_rest(turn, plan, index + 1)
            error = outcome.result.error
            if error is not None and error.code == CONTINUED_IN_RESUMED_TURN:
                recorder.record("turn.handed_off", {"step": index, "to": "resumed_turn"})
                return _finish(recorder, Turn.Status.HANDED_OFF, answer())
            # The answer states why the failed step was not (or no longer) retried.
            return _finish(recorder, _stopped_status(results), answer(stop_reason=attempt.limitation))
    status = Turn.Status.COMPLETED
    if any(result.outcome == "partial" for result in results.values()):
        status = Turn.Status.PARTIAL
    cached_paths = {Turn.Path.PROPOSAL, Turn.Path.FAST_PATH, Turn.Path.AUTOPATH}
    if cache and status == Turn.Status.COMPLETED and turn.path in cached_paths:
        plan_cache_store(turn=turn, plan=plan.as_json(), catalog=catalog)
    return _finish(recorder, status, answer())


def _skip_rest(turn: Turn, plan: Plan, first: int, refused_code: str = "") -> None:
    # Steps from ``first`` on were never invoked, so none has a record yet. A step the
    # boundary refused keeps the refusal's code, so its record says why it did not run.
    StepRecord.objects.bulk_create(
        StepRecord(owner_id=turn.owner_id, turn=turn, index=index, tool=plan.steps[index - 1].tool,
                   outcome=StepRecord.Outcome.SKIPPED, error_code=refused_code if index == first else "")
        for index in range(first, len(plan.steps) + 1)
    )  # fmt: skip


def _stopped_status(results: Mapping[int, StepResult]) -> str:
    """A plan that stopped early is partial if some step did its work (even finding nothing), else failed."""
    useful = any(result.outcome in ("success", "partial", "empty") for result in results.values())
    return Turn.Status.PARTIAL if useful else Turn.Status.FAILED


def _answer(plan: Plan, results: Mapping[int, StepResult], stop_reason: str = "") -> str:
    lines: list[str] = []
    for index, step in enumerate(plan.steps, start=1):
        result = results.get(index)
        if result is None:
            lines.append(f"{index}. {step.tool}: not run.")
            continue
        text = result.summary or result.outcome
        if result.error is not None:
            text = f"{result.error.message} ({result.error.error_class})"
        lines.append(f"{index}. {step.tool}: {text}")
        lines.extend(f"   {notice}" for notice in result.notices)
    if stop_reason:
        lines.append(f"Stopped: {stop_reason}")
    return "\n".join(lines)


INTERRUPTED_MESSAGE = "The process running this step stopped; whether it took effect is unknown."
CRASHED_MESSAGE = (
    "Metnos stopped this request after an unexpected error on its side. Whether the step that was running "
    "took effect is unknown; nothing more will be done for it. You can ask again."
)


def turns_reconcile_interrupted(*, running_longer_than: dt.timedelta | None = None) -> list[Turn]:
    """End turns whose conducting process died, truthfully: interrupted, never success.

    A turn conducted on this host by a process that no longer exists is
    interrupted; with ``running_longer_than``, so is any turn running longer
    than that (a worker on another host that died). See :func:`_end_stopped`.
    """
    ended: list[Turn] = []
    # A turn waiting for the user's input is still held by its conducting process.
    conducted = (Turn.Status.RUNNING, Turn.Status.AWAITING_INPUT)
    for turn in Turn.objects.filter(status__in=conducted).select_related("conversation"):
        dead = holder_died_here(turn.conducted_by)
        stale = bool(running_longer_than and turn.started_at and timezone.now() - turn.started_at > running_longer_than)
        if not (dead or stale):
            continue
        if _end_stopped(turn.pk, INTERRUPTED_MESSAGE):
            turn.refresh_from_db()
            ended.append(turn)
    return ended


def turn_end_interrupted(*, turn_id: int, message: str = INTERRUPTED_MESSAGE) -> bool:
    """End a conducted turn whose process is gone (a reclaimed batch's, say) as interrupted; whether it ended."""
    return _end_stopped(turn_id, message)


def _end_stopped(turn_id: int, message: str) -> bool:
    """End a conducted turn that stopped mid-way, truthfully: interrupted, never success; whether it ended.

    Steps already finished stay as they were; the step that was running is
    marked failed with an unknown effect (it may have changed state, so it is
    not repeated); later steps are skipped.
    """
    conducted = (Turn.Status.RUNNING, Turn.Status.AWAITING_INPUT)
    with transaction.atomic():
        locked = Turn.objects.select_for_update().get(pk=turn_id)
        if locked.status not in conducted:
            return False
        InputRequest.objects.filter(turn=locked, status=InputRequest.Status.PENDING).update(
            status=InputRequest.Status.CANCELLED
        )
        StepRecord.objects.filter(turn=locked, outcome=StepRecord.Outcome.RUNNING).update(
            outcome=StepRecord.Outcome.FAILED,
            error_class="unknown",
            error_code="interrupted",
            error_message=message,
            finished_at=timezone.now(),
        )
        steps = (locked.plan or {}).get("steps", [])
        recorded = set(StepRecord.objects.filter(turn=locked).values_list("index", flat=True))
        for index, step in enumerate(steps, start=1):
            if index not in recorded:
                StepRecord.objects.create(
                    owner_id=locked.owner_id, turn=locked, index=index, tool=str(step.get("tool", "")),
                    outcome=StepRecord.Outcome.SKIPPED,
                )  # fmt: skip
        done = StepRecord.objects.filter(turn=locked).exclude(outcome=StepRecord.Outcome.SKIPPED).order_by("index")
        lines = [f"{record.index}. {record.tool}: {record.summary or record.outcome}" for record in done]
        recorder = TurnRecorder(locked)
        locked.path = locked.path or Turn.Path.NONE
        recorder.changed("path")
        answer = "\n".join([*lines, f"Stopped: {message}"])
        return turn_interrupt(turn=locked, answer=answer, recorder=recorder)


def turns_recover_on_worker_start() -> None:
    """What a starting worker owes the turns of a previous one.

    Turns whose process died end as interrupted; a turn running longer than any
    task may run belongs to a worker that died elsewhere; confirmations past
    their expiry end their turns; in the embedded mode, whose in-memory queue
    died with the process, turns still queued are enqueued again (a turn is
    claimed atomically, so a second delivery never runs it twice).
    """
    turns_reconcile_interrupted(running_longer_than=dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT * 2))
    consents_expire()
    if settings.EMBEDDED_SERVICES:
        for turn in Turn.objects.filter(status=Turn.Status.QUEUED):
            turn_enqueue(turn)


def consents_expire(*, owner: User | None = None) -> int:
    """End the turns whose confirmation expired unanswered (declined, nothing done)."""
    expired = ConsentRequest.objects.filter(decision=ConsentRequest.Decision.PENDING, expires_at__lte=timezone.now())
    if owner is not None:
        expired = expired.filter(owner_id=owner.pk)
    count = 0
    for consent in expired.select_related("turn", "turn__conversation"):
        with transaction.atomic():
            updated = ConsentRequest.objects.filter(pk=consent.pk, decision=ConsentRequest.Decision.PENDING).update(
                decision=ConsentRequest.Decision.EXPIRED, decided_at=timezone.now()
            )
            # Unless the turn stopped waiting meanwhile (it was decided, or ended otherwise).
            if updated and turn_decline(turn=consent.turn, answer=CONSENT_EXPIRED_ANSWER):
                count += 1
    return count
