"""Turns: from a request to an answer, a request for input, or a hand-off.

``turn_submit`` records the request and enqueues it; ``turn_conduct`` (run by
a worker) chooses the path, validates the plan, drives every step through the
invocation boundary and ends the turn truthfully: completed, partial, failed,
awaiting confirmation — never a success it did not observe.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from apps.runtime.boundary import invoke_step, result_from_json
from apps.runtime.catalog import current_catalog
from apps.runtime.executors import Catalog, Mandate, NoMandate, StepResult, combination_rules
from apps.runtime.model_client import ModelUsage, counting_into
from apps.runtime.models import Conversation, StepRecord, Turn
from apps.runtime.paths import choose_path, plan_cache_store
from apps.runtime.plans import Plan, PlanInvalid, apply_guards, validate_plan
from apps.runtime.trace import redact, trace_record, turn_publish

logger = logging.getLogger(__name__)

MAX_REQUEST_CHARS = 4000


class TurnRejected(ValueError):
    """A request that cannot become a turn (empty, too long, wrong conversation)."""


def turn_submit(
    *,
    owner: Any,
    text: str,
    conversation: Conversation | None = None,
    plan: Mapping[str, Any] | None = None,
    enqueue: bool = True,
) -> Turn:
    """Record a request (or an explicit plan) as a queued turn and enqueue it after commit.

    ``enqueue=False`` is for callers that conduct the turn themselves (the
    operator CLI); a turn is never both enqueued and conducted inline.
    """
    request = (text or "").strip()
    if not request and plan is None:
        raise TurnRejected("The request is empty.")
    if len(request) > MAX_REQUEST_CHARS:
        raise TurnRejected(f"The request is longer than {MAX_REQUEST_CHARS} characters.")
    if conversation is not None and conversation.owner_id != owner.pk:
        raise TurnRejected("That conversation is not yours.")
    with transaction.atomic():
        if conversation is None:
            conversation = Conversation.objects.create(owner=owner, title=request[:80])
        turn = Turn.objects.create(
            owner=owner,
            conversation=conversation,
            request_text=request or "(plan)",
            plan=dict(plan) if plan is not None else None,
            path=Turn.Path.PLAN if plan is not None else Turn.Path.NONE,
        )
        conversation.save(update_fields=["updated_at"])
        if enqueue:
            turn_enqueue(turn)
    return turn


def turn_enqueue(turn: Turn) -> None:
    from apps.runtime.tasks import run_turn

    turn_id, owner_id = turn.pk, turn.owner_id
    transaction.on_commit(lambda: run_turn.delay(turn_id, owner_id))


def _finish(turn: Turn, status: str, answer: str) -> Turn:
    turn.status = status
    turn.answer = answer
    turn.finished_at = timezone.now()
    turn.save(update_fields=["status", "answer", "finished_at", "path", "plan", "plan_digest", "catalog_signature"])
    trace_record(turn, "turn.finished", {"status": status})
    turn_publish(turn, {"type": "turn.finished", "status": status, "answer": answer})
    return turn


def _inherited_results(turn: Turn) -> dict[int, StepResult]:
    """Results of steps already run by the turn this one resumes (never re-run)."""
    if turn.resumed_from_id is None:
        return {}
    records = StepRecord.objects.filter(turn_id=turn.resumed_from_id).exclude(result={})
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
    finally:
        if usage.cloud_requests:
            # A request sent stays counted, whatever happened to it or the turn.
            Turn.objects.filter(pk=turn.pk).update(cloud_requests=F("cloud_requests") + usage.cloud_requests)
            turn.cloud_requests += usage.cloud_requests


def _conduct(turn: Turn, catalog: Catalog | None, mandate: Mandate | None) -> Turn:
    catalog = catalog or current_catalog()
    turn.status = Turn.Status.RUNNING
    turn.started_at = timezone.now()
    turn.conducted_by = conductor_identity()
    turn.save(update_fields=["status", "started_at", "conducted_by"])
    turn_publish(turn, {"type": "turn.started", "path": turn.path, "request": turn.request_text})

    raw_plan: Any = turn.plan
    if turn.resumed_from_id is not None and turn.catalog_signature != catalog.signature:
        return _finish(turn, Turn.Status.FAILED, "Metnos's capabilities changed since you confirmed; ask again.")
    if raw_plan is None:
        choice = choose_path(turn=turn, catalog=catalog)
        turn.path = choice.path
        trace_record(
            turn,
            "path.chosen",
            {"path": choice.path, "reason": choice.reason, "model_requests": choice.model_requests,
             "error_codes": list(choice.error_codes)},
        )  # fmt: skip
        if choice.plan is None:
            answer = choice.refusal or f"I could not make a plan for this request: {choice.reason}."
            return _finish(turn, Turn.Status.FAILED, answer)
        raw_plan = choice.plan
    else:
        trace_record(turn, "path.chosen", {"path": turn.path, "reason": "plan given"})

    rules = combination_rules()
    try:
        plan = validate_plan(raw_plan, catalog, combination_rules=rules)
    except PlanInvalid as invalid:
        trace_record(turn, "plan.invalid", {"errors": [error.code for error in invalid.errors]})
        return _finish(turn, Turn.Status.FAILED, f"The plan is not valid: {invalid}")
    guarded = apply_guards(plan, catalog, combination_rules=rules)
    if guarded.changes:
        trace_record(turn, "plan.guarded", {"changes": [change.as_json() for change in guarded.changes]})
    if guarded.outcome == "needs_new_proposal":
        missing = ", ".join(guarded.missing_tools) or "a required step"
        return _finish(turn, Turn.Status.FAILED, f"The plan misses {missing}; a new proposal is needed.")
    plan = guarded.plan
    turn.plan = plan.as_json()
    turn.plan_digest = plan.digest()
    turn.catalog_signature = catalog.signature
    turn.save(update_fields=["plan", "plan_digest", "catalog_signature", "path"])
    trace_record(turn, "plan.accepted", {"steps": [step.tool for step in plan.steps]})
    return _run_steps(turn, plan, catalog, mandate)


def _run_steps(turn: Turn, plan: Plan, catalog: Catalog, mandate: Mandate | None) -> Turn:
    results = _inherited_results(turn)

    def answer(**kwargs: Any) -> str:
        # The answer repeats what steps said: keep the mandate's secrets out of it.
        return redact(_answer(plan, results, **kwargs), (mandate or NoMandate()).secrets())

    for index in range(1, len(plan.steps) + 1):
        if index in results:
            continue
        outcome = invoke_step(turn=turn, plan=plan, index=index, catalog=catalog, results=results, mandate=mandate)
        if outcome.kind == "needs_confirmation" and outcome.consent is not None:
            turn.status = Turn.Status.AWAITING_CONFIRMATION
            turn.answer = "Waiting for your confirmation before: " + outcome.consent.proposal.get("action", "")
            turn.save(update_fields=["status", "answer"])
            turn_publish(
                turn,
                {"type": "turn.confirmation_requested", "step": index, "consent_id": outcome.consent.pk,
                 "proposal": dict(outcome.consent.proposal)},
            )  # fmt: skip
            return turn
        if outcome.result is None:  # refused or missing input: nothing ran
            _skip_rest(turn, plan, index)
            return _finish(turn, _stopped_status(results), answer(stop_reason=outcome.reason))
        results[index] = outcome.result
        if outcome.result.outcome == "failed":
            # Recovery never blindly repeats a step that may have changed state.
            _skip_rest(turn, plan, index + 1)
            return _finish(turn, _stopped_status(results), answer())
    status = Turn.Status.COMPLETED
    if any(result.outcome == "partial" for result in results.values()):
        status = Turn.Status.PARTIAL
    if status == Turn.Status.COMPLETED and turn.path in {Turn.Path.PROPOSAL, Turn.Path.FAST_PATH, Turn.Path.AUTOPATH}:
        plan_cache_store(turn=turn, plan=plan.as_json(), catalog=catalog)
    return _finish(turn, status, answer())


def _skip_rest(turn: Turn, plan: Plan, first: int) -> None:
    for index in range(first, len(plan.steps) + 1):
        StepRecord.objects.update_or_create(
            turn=turn,
            index=index,
            defaults={"owner_id": turn.owner_id, "tool": plan.steps[index - 1].tool,
                      "outcome": StepRecord.Outcome.SKIPPED},
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


def conductor_identity() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    return True


INTERRUPTED_MESSAGE = "The process running this step stopped; whether it took effect is unknown."


def turns_reconcile_interrupted(*, running_longer_than: dt.timedelta | None = None) -> list[Turn]:
    """End turns whose conducting process died, truthfully: interrupted, never success.

    A turn conducted on this host by a process that no longer exists is
    interrupted; with ``running_longer_than``, so is any turn running longer
    than that (a worker on another host that died). Steps already finished stay
    as they were; the step that was running is marked failed with an unknown
    effect (it may have changed state, so it is not repeated); later steps are
    skipped.
    """
    host = socket.gethostname()
    ended: list[Turn] = []
    for turn in Turn.objects.filter(status=Turn.Status.RUNNING).select_related("conversation"):
        conductor_host, _, pid_text = turn.conducted_by.rpartition(":")
        dead = conductor_host == host and pid_text.isdigit() and not _process_alive(int(pid_text))
        stale = bool(running_longer_than and turn.started_at and timezone.now() - turn.started_at > running_longer_than)
        if not (dead or stale):
            continue
        with transaction.atomic():
            locked = Turn.objects.select_for_update().get(pk=turn.pk)
            if locked.status != Turn.Status.RUNNING:
                continue
            StepRecord.objects.filter(turn=locked, outcome=StepRecord.Outcome.RUNNING).update(
                outcome=StepRecord.Outcome.FAILED,
                error_class="unknown",
                error_code="interrupted",
                error_message=INTERRUPTED_MESSAGE,
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
            locked.path = locked.path or Turn.Path.NONE
            _finish(locked, Turn.Status.INTERRUPTED, "\n".join([*lines, f"Stopped: {INTERRUPTED_MESSAGE}"]))
            ended.append(locked)
    return ended


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


def turn_claim(*, turn_id: int, owner_id: int) -> bool:
    """Take a queued turn for conducting; False if another delivery already took it."""
    return (
        Turn.objects.filter(pk=turn_id, owner_id=owner_id, status=Turn.Status.QUEUED).update(status=Turn.Status.RUNNING)
        == 1
    )


def consents_expire(*, owner: Any | None = None) -> int:
    """End the turns whose confirmation expired unanswered (declined, nothing done)."""
    from apps.runtime.models import ConsentRequest

    expired = ConsentRequest.objects.filter(decision=ConsentRequest.Decision.PENDING, expires_at__lte=timezone.now())
    if owner is not None:
        expired = expired.filter(owner_id=owner.pk)
    count = 0
    for consent in expired.select_related("turn", "turn__conversation"):
        with transaction.atomic():
            updated = ConsentRequest.objects.filter(pk=consent.pk, decision=ConsentRequest.Decision.PENDING).update(
                decision=ConsentRequest.Decision.EXPIRED, decided_at=timezone.now()
            )
            turn = consent.turn
            if updated and turn.status == Turn.Status.AWAITING_CONFIRMATION:
                _finish(
                    turn, Turn.Status.DECLINED, "The confirmation expired unanswered; nothing was done for that step."
                )
                count += 1
    return count
