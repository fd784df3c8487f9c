"""The one invocation boundary every step crosses.

New, reused, resumed and device-bound plans alike reach executors only
through :func:`invoke_step`, which applies the shared controls in order:

1. identity and owner (the turn's owner is active; the executor is admitted);
2. placement from the manifest — never from another step's output;
3. reference resolution and a second schema check of the final arguments
   (a producer with no data never hands its consumer an older result), then
   provenance (:func:`apps.runtime.provenance.step_provenance_verify`): a
   value from another step that this step declares it takes as a path — an
   argument, or a field of the items of a ``from_step`` collection — must lie
   inside the owner's files root, and one taken as a recipient or an
   authorisation is refused (no verifier exists); a failure refuses the step
   with its ``provenance_*`` code before consent and before any effect;
4. consent: a step that needs confirmation stops *before* its effect, and an
   approval is consumed when the step is invoked;
5. the credential mandate: secrets are resolved at execution time only;
6. the actual outcome is recorded (step record, trace, live event).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.redaction import error_kind, redact_text, redact_value, secrets_redacted
from apps.core.storable import REPLACED_NOTICE, needs_storable, storable_value
from apps.runtime.consent import consent_approval_for_step, consent_consume, consent_request_create
from apps.runtime.device_steps import device_step_run, step_destination
from apps.runtime.executor import (
    Catalog,
    ExecutionContext,
    Mandate,
    NoMandate,
    StepError,
    StepResult,
    combination_rules,
)
from apps.runtime.models import ConsentRequest, StepRecord
from apps.runtime.plans.api import ArgumentsInvalid, MissingInput, Plan, resolve_step_args
from apps.runtime.provenance import ProvenanceRefused, step_provenance_verify
from apps.runtime.tiers.client import cloud_requests_so_far
from apps.runtime.trace import TurnRecorder, preview
from apps.runtime.user_input import input_requester

logger = logging.getLogger(__name__)

# A step whose result could not be stored (after apps/core/storable.py): it failed, its effect unknown.
RECORD_UNWRITABLE = "record_unwritable"

BoundaryKind = Literal["ran", "needs_confirmation", "refused", "missing_input"]


@dataclass(frozen=True)
class BoundaryOutcome:
    kind: BoundaryKind
    result: StepResult | None = None
    consent: ConsentRequest | None = None
    reason: str = ""
    # Why a refused step was refused, as the trace records it (not_admitted, provenance_path_traversal, …).
    code: str = ""
    # Values the step met that must not be repeated (codes the user typed).
    secrets: tuple[str, ...] = ()


def executor_admitted(owner: User, name: str) -> bool:
    """Whether ``owner`` may use executor ``name``.

    Operators disable executors for everyone (``METNOS_DISABLED_EXECUTORS``) or
    for one user (``User.disabled_executors``); an inactive owner has none.
    """
    disabled = set(settings.METNOS_DISABLED_EXECUTORS)
    listed = getattr(owner, "disabled_executors", None)
    withdrawn = {item for item in listed if isinstance(item, str)} if isinstance(listed, list) else set()
    return bool(owner.is_active) and name not in disabled and name not in withdrawn


def _proposal(manifest_purpose: str, tool: str, args: Mapping[str, Any], shows: tuple[str, ...]) -> dict[str, str]:
    destination = next(
        (str(value) for key, value in args.items() if key in {"path", "destination", "recipient", "url"}), ""
    )
    proposal = {
        "action": tool.replace("_", " "),
        "purpose": manifest_purpose,
        "destination": destination or "—",
        "consequences": "This changes something outside Metnos and may not be reversible.",
    }
    return {key: value for key, value in proposal.items() if key in shows or key == "action"}


def _refuse(
    recorder: TurnRecorder, index: int, tool: str, reason: str, message: str, detail: Mapping[str, Any] | None = None
) -> BoundaryOutcome:
    recorder.record("control.refused", {"step": index, "tool": tool, "reason": reason, **(detail or {})})
    return BoundaryOutcome(kind="refused", reason=message, code=reason)


def invoke_step(
    *,
    recorder: TurnRecorder,
    plan: Plan,
    index: int,
    catalog: Catalog,
    results: Mapping[int, StepResult],
    mandate: Mandate | None = None,
    secrets: tuple[str, ...] = (),
) -> BoundaryOutcome:
    """Run step ``index`` (1-based) of ``plan`` for ``recorder``'s turn through every control.

    What the step does is recorded through ``recorder``: the conductor's, which
    holds the turn's entries for the writes before and after the executor runs.
    """
    turn = recorder.turn
    step = plan.steps[index - 1]
    secrets = (*secrets, *(mandate or NoMandate()).secrets())
    executor = catalog.executors.get(step.tool)
    if executor is None or not executor_admitted(turn.owner, step.tool):
        return _refuse(recorder, index, step.tool, "not_admitted", f"{step.tool} is not available to you.")
    manifest = executor.manifest
    # Where the step runs comes from its manifest and the conversation's device, never from a result.
    destination, device_or_reason = step_destination(turn=turn, manifest=manifest)
    if destination == "refused":
        return _refuse(recorder, index, step.tool, "placement", device_or_reason)
    try:
        resolved = resolve_step_args(plan, index, results, catalog, combination_rules=combination_rules())
    except MissingInput as missing:
        recorder.record("control.missing_input", {"step": index, "tool": step.tool, "producer": missing.step})
        return BoundaryOutcome(kind="missing_input", reason=str(missing))
    except ArgumentsInvalid as invalid:
        return _refuse(recorder, index, step.tool, "arguments_invalid", str(invalid))
    try:
        verified = step_provenance_verify(
            owner=turn.owner, plan=plan, index=index, catalog=catalog, resolved=resolved,
            destination="device" if destination == "device" else "server",
        )  # fmt: skip
    except ProvenanceRefused as refused:
        return _refuse(recorder, index, step.tool, refused.code, str(refused), refused.as_trace())
    if verified:
        recorder.record("control.provenance_verified", {"step": index, "tool": step.tool, "verified": verified})

    approval = None
    if manifest.consent.mode == "confirm":
        approval = consent_approval_for_step(
            turn=turn, step_index=index, plan_digest=turn.plan_digest, catalog_signature=catalog.signature
        )
        if approval is None:
            # The executor knows best how to show its effect (the exact files,
            # the recipient); otherwise a generic proposal from the arguments.
            describe = getattr(executor, "consent_proposal", None)
            if callable(describe):
                proposal = redact_value(dict(describe(resolved.values)), secrets)
            else:
                proposal = _proposal(
                    manifest.purpose, step.tool, redact_value(dict(step.args), secrets), manifest.consent.shows
                )
            consent = consent_request_create(
                turn=turn,
                step_index=index,
                tool=step.tool,
                proposal=proposal,
                plan_digest=turn.plan_digest,
                catalog_signature=catalog.signature,
            )
            recorder.record("control.consent_requested", {"step": index, "tool": step.tool})
            return BoundaryOutcome(kind="needs_confirmation", consent=consent)

    if "credentials.use" in manifest.capabilities and not (mandate or NoMandate()).allows("credentials.use"):
        return _refuse(recorder, index, step.tool, "no_mandate", "This step needs credentials this turn may not use.")

    cancelled = threading.Event()
    # Codes the user gives the step mid-way are secrets like the mandate's.
    request_input, answered = input_requester(recorder=recorder, step_index=index, cancelled=cancelled)
    context = ExecutionContext(
        owner=turn.owner,
        turn_id=turn.pk,
        step_index=index,
        mandate=mandate or NoMandate(),
        today=timezone.localdate(),
        cancelled=cancelled,
        request_input=request_input,
    )
    # One commit before the effect: the running step (a killed process leaves
    # it to be found), the turn's plan and trace so far, and the consumed
    # approval — an error or timeout afterwards does not establish the
    # absence of effects and authorises nothing more.
    record = StepRecord(
        owner_id=turn.owner_id,
        turn=turn,
        index=index,
        tool=step.tool,
        outcome=StepRecord.Outcome.RUNNING,
        started_at=timezone.now(),
    )
    with transaction.atomic():
        # A step is invoked at most once per turn: a second record for it fails here, before any effect.
        record.save(force_insert=True)
        recorder.record("step.started", {"step": index, "tool": step.tool})
        recorder.write()
        if approval is not None:
            consent_consume(consent=approval)
        recorder.publish({"type": "turn.step_started", "step": index, "tool": step.tool})
    started = time.monotonic()
    cloud_before = cloud_requests_so_far()
    try:
        # Secrets the turn resolved never reach a model, a log line or a record.
        with secrets_redacted(secrets), recorder.at_once():
            if destination == "device":
                recorder.record("step.sent_to_device", {"step": index, "tool": step.tool})
                result = device_step_run(
                    turn=turn, index=index, manifest=manifest, arguments=resolved.values,
                    device=device_or_reason, cancelled=cancelled,
                )  # fmt: skip
            else:
                result = executor.run(context, resolved.values)
    except Exception as error:  # noqa: BLE001 - an executor failure is an outcome, not a crash
        logger.warning("executor %s raised %s", step.tool, type(error).__name__)
        result = StepResult(
            outcome="failed",
            error=StepError("unknown", "executor_error", f"{step.tool} stopped unexpectedly ({type(error).__name__})."),
        )
    elapsed_ms = int((time.monotonic() - started) * 1000)
    # Counted when sent: a request whose answer came too late still counts.
    record.cloud_requests = cloud_requests_so_far() - cloud_before
    # Values the mandate resolved during the step are kept out of records too.
    secrets = (*secrets, *(mandate or NoMandate()).secrets(), *answered)
    result = _storable(result)
    with transaction.atomic():
        result = _record_result_or_failure(record, result, secrets, step.tool)
        recorder.record(
            "step.finished",
            {"step": index, "tool": step.tool, "outcome": result.outcome, "elapsed_ms": elapsed_ms,
             "error_class": result.error.error_class if result.error else "",
             "cloud_requests": record.cloud_requests,
             "provenance": {name: sorted(steps) for name, steps in resolved.provenance.items()}},
        )  # fmt: skip
        recorder.write()
        recorder.publish(
            {"type": "turn.step_finished", "step": index, "tool": step.tool, "outcome": result.outcome,
             "summary": redact_text(result.summary, secrets), "cloud_requests": record.cloud_requests,
             "files": [{"path": file.path, "size": file.size} for file in result.files]},
        )  # fmt: skip
    return BoundaryOutcome(kind="ran", result=result, secrets=tuple(answered))


_RESULT_FIELDS = [
    "outcome", "error_class", "error_code", "error_message", "summary", "notices",
    "result_preview", "result", "files", "effects", "cloud_requests", "finished_at",
]  # fmt: skip


def _storable(result: StepResult) -> StepResult:
    """``result`` with what no store takes replaced, and a notice saying so (see apps/core/storable.py)."""
    as_json = result_as_json(result)
    if not needs_storable(as_json):
        return result
    cleaned, count = storable_value(as_json)
    if not count:
        return result
    rebuilt = result_from_json(cleaned)
    return dataclasses.replace(rebuilt, notices=(*rebuilt.notices, REPLACED_NOTICE.format(count=count)))


def _record_result_or_failure(
    record: StepRecord, result: StepResult, secrets: tuple[str, ...], tool: str
) -> StepResult:
    """Record ``result``; if its record cannot be written, record the step failed instead and return that.

    The step's effect may have happened, so the failure says the result is
    not known (``unknown``): recovery does not repeat it. The database's
    message is never logged — it can quote the data that was refused.
    """
    try:
        with transaction.atomic():  # a savepoint: PostgreSQL refuses the rest of a failed transaction
            _record_result(record, result, secrets)
        return result
    except (DatabaseError, ValueError, TypeError, UnicodeError) as error:
        logger.warning("the result of step %s (%s) could not be recorded: %s", record.index, tool, error_kind(error))
    failed = StepResult(
        outcome="failed",
        error=StepError(
            "unknown", RECORD_UNWRITABLE, "What this step produced could not be stored, so it is not kept."
        ),
    )
    _record_result(record, failed, secrets)
    return failed


def _record_result(record: StepRecord, result: StepResult, secrets: tuple[str, ...]) -> None:
    full = redact_value(result_as_json(result), secrets)
    record.outcome = result.outcome
    record.error_class = result.error.error_class if result.error else ""
    record.error_code = result.error.code if result.error else ""
    record.error_message = redact_text(result.error.message, secrets)[:500] if result.error else ""
    record.summary = redact_text(result.summary, secrets)[:500]
    record.notices = redact_value(list(result.notices), secrets)
    record.result_preview = preview(full)
    record.result = full
    record.files = [{"path": f.path, "content_type": f.content_type, "size": f.size} for f in result.files]
    record.effects = redact_value([dict(effect) for effect in result.effects], secrets)
    record.finished_at = timezone.now()
    record.save(update_fields=_RESULT_FIELDS)


def result_as_json(result: StepResult) -> dict[str, Any]:
    return {
        "outcome": result.outcome,
        "items": [dict(item) for item in result.items],
        "value": dict(result.value),
        "error": (
            {"error_class": result.error.error_class, "code": result.error.code, "message": result.error.message}
            if result.error
            else None
        ),
        "files": [{"path": f.path, "content_type": f.content_type, "size": f.size} for f in result.files],
        "effects": [dict(effect) for effect in result.effects],
        "notices": list(result.notices),
        "summary": result.summary,
    }


def result_from_json(data: Mapping[str, Any]) -> StepResult:
    """Rebuild a recorded result (used when a resumed turn continues a plan)."""
    from apps.runtime.executor import ProducedFile

    error = data.get("error")
    return StepResult(
        outcome=data["outcome"],
        items=tuple(data.get("items", ())),
        value=data.get("value", {}),
        error=StepError(error["error_class"], error["code"], error["message"]) if error else None,
        files=tuple(ProducedFile(**file) for file in data.get("files", ())),
        effects=tuple(data.get("effects", ())),
        notices=tuple(data.get("notices", ())),
        summary=data.get("summary", ""),
    )
