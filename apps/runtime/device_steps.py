"""Steps that run on a paired device, through the same invocation boundary.

Where a step runs follows its manifest's placement and the conversation's
device — never a step's output:

- ``server``: on the server;
- ``device``: on the conversation's paired device; without one, refused;
- ``both``: on the conversation's device when it has one, else on the server.

A step that uses credentials never goes to a device: secrets stay on the
server. The boundary sends the step with its final, checked arguments as a
:class:`DeviceStep`; the device takes it (``claim``) and answers with its
result over REST. The result is checked against the step-result contract
before it counts; a malformed answer is a contract violation. The waiting
step ends when the device answers, when nobody took it in time (nothing
ran: recoverable), or when the device took it and fell silent (an effect may
have happened: unknown).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Mapping
from typing import Any, Literal

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from apps.core.polling import Backoff
from apps.core.tenancy import get_owned_or_404
from apps.runtime.executor import StepError, StepResult
from apps.runtime.manifests import Manifest
from apps.runtime.models import DeviceStep, Turn

MAX_RESULT_ITEMS = 5_000
MAX_RESULT_BYTES = 2_000_000
_OUTCOMES = ("success", "empty", "partial", "failed")
_ERROR_CLASSES = ("recoverable", "permanent", "unknown")


class DeviceStepRefused(Exception):
    """A device's call that does not apply; ``reason`` is a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def step_destination(*, turn: Turn, manifest: Manifest) -> tuple[Literal["server", "device", "refused"], Any]:
    """Where a step of ``manifest`` runs for ``turn``: the server, the conversation's device, or refused (why)."""
    if manifest.placement == "server":
        return "server", None
    device = turn.conversation.device
    usable = device is not None and device.is_active and device.owner_id == turn.owner_id
    if "credentials.use" in manifest.capabilities:
        if manifest.placement == "device":
            return "refused", f"{manifest.name} would need credentials on a device; they never leave the server."
        return "server", None
    if usable:
        return "device", device
    if manifest.placement == "device":
        return "refused", f"{manifest.name} runs only on a paired device, and this conversation has none."
    return "server", None


def _json_safe(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(dict(arguments), default=str)))


def device_step_run(
    *, turn: Turn, index: int, manifest: Manifest, arguments: Mapping[str, Any], device: Any, cancelled: threading.Event
) -> StepResult:
    """Send the step to ``device`` and wait for its checked result."""
    seconds = float(settings.METNOS_DEVICE_STEP_TIMEOUT)
    step = DeviceStep.objects.create(
        owner_id=turn.owner_id,
        device=device,
        turn=turn,
        step_index=index,
        tool=manifest.name,
        executor_signature=manifest.signature,
        arguments=_json_safe(arguments),
        expires_at=timezone.now() + dt.timedelta(seconds=seconds),
    )
    backoff = Backoff(cancelled)
    while True:
        try:
            step.refresh_from_db(fields=["status", "result", "expires_at"])
        except DeviceStep.DoesNotExist:  # the device was unpaired: its steps went with it
            return _device_revoked()
        if step.status == DeviceStep.Status.FINISHED:
            return result_from_device(step.result)
        if step.status == DeviceStep.Status.EXPIRED or cancelled.is_set() or timezone.now() >= step.expires_at:
            return _expire(step)
        backoff.pause()


def _expire(step: DeviceStep) -> StepResult:
    taken = DeviceStep.objects.filter(pk=step.pk, status=DeviceStep.Status.CLAIMED).update(
        status=DeviceStep.Status.EXPIRED
    )
    untaken = DeviceStep.objects.filter(pk=step.pk, status=DeviceStep.Status.PENDING).update(
        status=DeviceStep.Status.EXPIRED
    )
    if untaken:
        return StepResult(
            outcome="failed",
            error=StepError("recoverable", "device_unavailable", "The device did not take the step in time; "
                            "nothing ran there."),
        )  # fmt: skip
    if taken:
        return StepResult(
            outcome="failed",
            error=StepError("unknown", "device_no_answer", "The device took the step but did not answer in time; "
                            "whether it took effect is unknown."),
        )  # fmt: skip
    try:
        step.refresh_from_db(fields=["status", "result"])  # the answer won the race
    except DeviceStep.DoesNotExist:
        return _device_revoked()
    if step.status == DeviceStep.Status.FINISHED:
        return result_from_device(step.result)
    return StepResult(outcome="failed", error=StepError("unknown", "device_no_answer", "The device did not answer."))


def _device_revoked() -> StepResult:
    return StepResult(
        outcome="failed",
        error=StepError("unknown", "device_revoked", "The device was unpaired while the step was sent to it; "
                        "whether it ran there is unknown."),
    )  # fmt: skip


def _invalid(reason: str) -> StepResult:
    return StepResult(
        outcome="failed",
        error=StepError(
            "permanent", "device_result_invalid", f"The device's answer broke the step contract: {reason}."
        ),
    )


def result_from_device(data: Any) -> StepResult:
    """The device's answer as a step result, or a contract violation when it is malformed."""
    if not isinstance(data, Mapping):
        return _invalid("not an object")
    outcome = data.get("outcome")
    if outcome not in _OUTCOMES:
        return _invalid("unknown outcome")
    items = data.get("items", [])
    value = data.get("value", {})
    summary = data.get("summary", "")
    notices = data.get("notices", [])
    if not isinstance(items, list) or len(items) > MAX_RESULT_ITEMS or not all(isinstance(i, dict) for i in items):
        return _invalid("items must be a list of objects")
    if not isinstance(value, dict) or not isinstance(summary, str) or not isinstance(notices, list):
        return _invalid("value, summary or notices of the wrong type")
    if not all(isinstance(notice, str) for notice in notices):
        return _invalid("notices must be sentences")
    error = data.get("error")
    step_error = None
    if outcome == "failed":
        if not isinstance(error, Mapping) or error.get("error_class") not in _ERROR_CLASSES:
            return _invalid("a failed step must say why, with a known error class")
        step_error = StepError(
            error["error_class"], str(error.get("code", ""))[:64], str(error.get("message", ""))[:500]
        )
    elif error:
        return _invalid("only a failed step carries an error")
    return StepResult(
        outcome=outcome,
        items=tuple(items),
        value=value,
        error=step_error,
        notices=tuple(notice[:500] for notice in notices[:20]),
        summary=summary[:500],
    )


# --- the device's side (REST) ----------------------------------------------------


def device_steps_for(*, device: Any) -> QuerySet[DeviceStep]:
    """The steps sent to ``device`` (its owner's only)."""
    return DeviceStep.objects.filter(device=device, owner_id=device.owner_id)


def device_step_claim(*, device: Any, step_id: Any) -> DeviceStep:
    step = get_owned_or_404(device_steps_for(device=device), pk=step_id)
    if timezone.now() >= step.expires_at:
        raise DeviceStepRefused("expired", "This step has expired.")
    claimed = DeviceStep.objects.filter(pk=step.pk, status=DeviceStep.Status.PENDING).update(
        status=DeviceStep.Status.CLAIMED, claimed_at=timezone.now()
    )
    if not claimed:
        raise DeviceStepRefused("not_pending", f"This step is already {step.status}.")
    step.refresh_from_db()
    return step


def device_step_finish(*, device: Any, step_id: Any, result: Any) -> DeviceStep:
    """Record the device's answer to a step it claimed; the waiting step checks it against the contract."""
    step = get_owned_or_404(device_steps_for(device=device), pk=step_id)
    if len(json.dumps(result, default=str)) > MAX_RESULT_BYTES:
        raise DeviceStepRefused("too_large", "The result is larger than a step may return.")
    finished = DeviceStep.objects.filter(pk=step.pk, status=DeviceStep.Status.CLAIMED).update(
        status=DeviceStep.Status.FINISHED, result=result, finished_at=timezone.now()
    )
    if not finished:
        raise DeviceStepRefused(
            "not_claimed", f"Only a step the device took can be answered; this one is {step.status}."
        )
    step.refresh_from_db()
    return step
