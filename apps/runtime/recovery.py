"""Bounded automatic recovery of a failed step (runtime spec, "Outcomes").

Recovery never blindly repeats an action that may already have changed
state: it first classifies the error, then looks at what the executor may
do and at the effects the failed attempt recorded. The rule, decided
without a model by :func:`recovery_decision`:

A failed step is **retried exactly once**, through the same invocation
boundary (:func:`apps.runtime.boundary.invoke_step`), when all of these hold:

1. its error class is ``recoverable`` — ``permanent`` would fail the same
   way again, and ``unknown`` does not establish that nothing happened;
2. its executor is **read-only**: the manifest declares at least one
   capability and every one of them is in
   :data:`apps.runtime.paths.resume.READ_ONLY_CAPABILITIES` (reading files and
   documents, extracting records). An executor that declares nothing has
   proved nothing, and any other capability (writing files or sheets,
   browsing, using credentials, undoing, submitting work) may change state;
3. its manifest asks for no consent (``consent.mode == "none"``): a step
   that needs confirmation has an effect by definition, and an approval
   authorises one invocation, not two;
4. the failed attempt recorded no effect and produced no file;
5. it ran on the server. A step sent to the owner's device already waited
   its whole bound for that device (``METNOS_DEVICE_STEP_TIMEOUT``); an
   immediate repeat would wait as long again for a device that did not
   answer, so the answer says to continue (the resume rule) once it is back.

Otherwise the turn stops as before and its answer states the limitation
(:attr:`RecoveryDecision.limitation`): the error is permanent, the cause is
unknown, or the step may have changed something. A retry that fails again is
not retried again.

A retry is published live (``turn.step_retried``, with the error's code) and
recorded in the trace as ``step.retried``, and a declined one as
``step.not_retried``, with structural data only (step, tool, error class and
code, the reason as a code); the retried step's record and result carry a
notice saying it was retried. The boundary lets a step be recorded once per
turn, so the failed attempt's record is removed just before the retry — only
when it is exactly the failed, effect-free record this rule allowed — and its
outcome stays in the trace (``step.finished`` of the first attempt).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from django.db import transaction

from apps.runtime.boundary import BoundaryOutcome, invoke_step
from apps.runtime.device_steps import step_destination
from apps.runtime.executor import Catalog, Mandate, StepResult
from apps.runtime.manifests import Manifest
from apps.runtime.models import StepRecord
from apps.runtime.paths.resume import CONTINUED_IN_RESUMED_TURN, READ_ONLY_CAPABILITIES
from apps.runtime.plans.api import Plan
from apps.runtime.trace import TurnRecorder

# Automatic retries one step may get in a turn.
MAX_STEP_RETRIES: Final = 1

DeclineReason = Literal["permanent", "unknown", "may_have_changed_state", "on_device", "retried_already"]

LIMITATIONS: Final[Mapping[DeclineReason, str]] = {
    "permanent": "not retried: the error is permanent.",
    "unknown": "not retried: the cause is unknown, so it may have changed something.",
    "may_have_changed_state": "not retried: it may have changed something.",
    "on_device": "not retried automatically: it was sent to your device; ask me to continue once it is available.",
    "retried_already": "it failed again after one automatic retry; it is not retried again.",
}
RETRIED_NOTICE: Final = "Retried once automatically after a recoverable error ({code})."


@dataclass(frozen=True)
class RecoveryDecision:
    """Whether a failed step is retried; when not, why (a code) and the sentence for the answer."""

    retry: bool
    reason: DeclineReason | None = None

    @property
    def limitation(self) -> str:
        return LIMITATIONS[self.reason] if self.reason is not None else ""


def reads_only(manifest: Manifest | None) -> bool:
    """Whether ``manifest`` declares that its executor changes nothing (see the module docstring)."""
    if manifest is None or manifest.consent.mode != "none":
        return False
    return bool(manifest.capabilities) and manifest.capabilities <= READ_ONLY_CAPABILITIES


def recovery_decision(
    *, manifest: Manifest | None, result: StepResult, retries: int, on_device: bool = False
) -> RecoveryDecision:
    """The recovery rule for a failed ``result`` of a step that was already retried ``retries`` times."""
    error = result.error
    if error is None or error.error_class == "unknown":
        return RecoveryDecision(False, "unknown")
    if error.error_class == "permanent":
        return RecoveryDecision(False, "permanent")
    if not reads_only(manifest) or result.effects or result.files:
        return RecoveryDecision(False, "may_have_changed_state")
    if on_device:
        return RecoveryDecision(False, "on_device")
    if retries >= MAX_STEP_RETRIES:
        return RecoveryDecision(False, "retried_already")
    return RecoveryDecision(True)


@dataclass(frozen=True)
class RecoveredStep:
    """A step's final boundary outcome after recovery, the secrets every attempt met, and any limitation."""

    outcome: BoundaryOutcome
    secrets: tuple[str, ...] = ()
    limitation: str = ""  # for the answer, when a failed step was not (or no longer) retried


def invoke_with_recovery(
    *,
    recorder: TurnRecorder,
    plan: Plan,
    index: int,
    catalog: Catalog,
    results: Mapping[int, StepResult],
    mandate: Mandate | None,
) -> RecoveredStep:
    """Invoke step ``index`` through the boundary, then apply the recovery rule to a failure.

    Both attempts and the decision are recorded through ``recorder``, the conductor's.
    """
    tool = plan.steps[index - 1].tool
    outcome = invoke_step(recorder=recorder, plan=plan, index=index, catalog=catalog, results=results, mandate=mandate)
    secrets = outcome.secrets
    retries = 0
    while outcome.result is not None and outcome.result.outcome == "failed":
        error = outcome.result.error
        if error is not None and error.code == CONTINUED_IN_RESUMED_TURN:
            break  # not a failure to recover from: the work goes on in a resumed turn
        manifest = catalog.manifest(tool)
        on_device = manifest is not None and step_destination(turn=recorder.turn, manifest=manifest)[0] == "device"
        decision = recovery_decision(manifest=manifest, result=outcome.result, retries=retries, on_device=on_device)
        if not decision.retry:
            recorder.record("step.not_retried", {"step": index, "tool": tool, "reason": decision.reason})
            return RecoveredStep(outcome, secrets, f"step {index} ({tool}) {decision.limitation}")
        retried = _step_retry(
            recorder=recorder, plan=plan, index=index, catalog=catalog, results=results, mandate=mandate,
            failed=outcome.result,
        )  # fmt: skip
        if retried is None:  # its record is no longer the one the rule allowed: nothing ran again
            return RecoveredStep(outcome, secrets, f"step {index} ({tool}) {LIMITATIONS['may_have_changed_state']}")
        retries += 1
        outcome = retried
        secrets = (*secrets, *outcome.secrets)
    return RecoveredStep(outcome, secrets)


def _retriable(record: StepRecord) -> bool:
    failed = record.outcome == StepRecord.Outcome.FAILED and record.error_class == "recoverable"
    return failed and not record.effects and not record.files


def _step_retry(
    *,
    recorder: TurnRecorder,
    plan: Plan,
    index: int,
    catalog: Catalog,
    results: Mapping[int, StepResult],
    mandate: Mandate | None,
    failed: StepResult,
) -> BoundaryOutcome | None:
    """Run step ``index`` again, once, after ``failed`` (which :func:`recovery_decision` allowed).

    ``None``, without running anything, if the step's record is no longer the
    failed, effect-free one the rule allowed (changed meanwhile).
    """
    turn = recorder.turn
    step = plan.steps[index - 1]
    error = failed.error
    code = error.code if error is not None else ""
    with transaction.atomic():
        record = StepRecord.objects.select_for_update().filter(turn=turn, index=index).first()
        if record is None or not _retriable(record):
            recorder.record("step.not_retried", {"step": index, "tool": step.tool, "reason": "record_changed"})
            recorder.write()
            return None
        record.delete()
        recorder.record(
            "step.retried",
            {"step": index, "tool": step.tool, "attempt": 2, "error_class": "recoverable", "error_code": code},
        )
        recorder.write()
        # The live page shows the failed step running again rather than a failure that then changes.
        recorder.publish({"type": "turn.step_retried", "step": index, "tool": step.tool, "error_code": code})
    outcome = invoke_step(recorder=recorder, plan=plan, index=index, catalog=catalog, results=results, mandate=mandate)
    if outcome.result is None:
        return outcome
    notice = RETRIED_NOTICE.format(code=code)
    result = dataclasses.replace(outcome.result, notices=(*outcome.result.notices, notice))
    retried = StepRecord.objects.filter(turn=turn, index=index).first()
    if retried is not None:
        # The boundary recorded the retry's result; the record also says it was a retry.
        retried.notices = [*retried.notices, notice]
        retried.result = {**retried.result, "notices": [*retried.result.get("notices", []), notice]}
        retried.save(update_fields=["notices", "result"])
    return dataclasses.replace(outcome, result=result)
