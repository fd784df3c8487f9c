"""Bounded automatic recovery: one retry of a read-only step after a recoverable error, nothing blind.

Turns are conducted for real (``turn_submit`` + ``turn_conduct``) over a
catalog of test executors whose manifests say what they may do; every step
crosses the real invocation boundary. See ``apps/runtime/recovery.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.runtime.consent import consent_decide
from apps.runtime.executor import (
    Catalog,
    ErrorClass,
    ExecutionContext,
    Executor,
    StepError,
    StepResult,
    build_catalog,
)
from apps.runtime.executors.file_changes import DELETE_FILES_MANIFEST
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, ResultShape
from apps.runtime.models import ConsentRequest, Conversation, DeviceStep, StepRecord, TraceEvent, Turn
from apps.runtime.recovery import LIMITATIONS, MAX_STEP_RETRIES, reads_only, recovery_decision
from apps.runtime.trace import observe_turn_events
from apps.runtime.turns import turn_conduct, turn_submit

pytestmark = pytest.mark.django_db

FAILED = StepResult(outcome="failed", error=StepError("recoverable", "busy", "The source was busy."))


@dataclass
class ScriptedExecutor:
    """Fails with ``failures`` (in order), then succeeds; counts every run."""

    manifest: Manifest
    failures: list[StepResult] = field(default_factory=list)
    runs: int = 0

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.runs += 1
        if self.failures:
            return self.failures.pop(0)
        return StepResult(outcome="success", items=({"name": "a.txt"},), summary="1 entry")


def _manifest(name: str, capabilities: set[str], *, consent: bool = False) -> Manifest:
    return Manifest(
        name=name,
        purpose="Test only.",
        args={"note": ArgSpec(type="string")},
        result=ResultShape(kind="collection", fields=("name",)),
        capabilities=frozenset(capabilities),
        consent=ConsentSpec("confirm", ("action",)) if consent else ConsentSpec(),
    )


def _failure(error_class: ErrorClass, *, effects: tuple[Mapping[str, Any], ...] = ()) -> StepResult:
    return StepResult(outcome="failed", error=StepError(error_class, "busy", "The source was busy."), effects=effects)


def _run(owner: User, executors: Mapping[str, Executor], tools: list[str]) -> Turn:
    catalog = build_catalog(executors)
    plan = {"steps": [{"tool": tool, "args": {}} for tool in tools]}
    return turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False), catalog=catalog)


def _trace(turn: Turn, kind: str) -> list[dict[str, Any]]:
    return [event.data for event in TraceEvent.objects.filter(turn=turn, kind=kind).order_by("sequence")]


def test_a_recoverable_failure_of_a_read_only_executor_succeeds_on_the_one_retry(owner: User) -> None:
    reader = ScriptedExecutor(_manifest("list_notes", {"files.read"}), [_failure("recoverable")])
    after = ScriptedExecutor(_manifest("count_notes", {"files.read"}))

    turn = _run(owner, {"list_notes": reader, "count_notes": after}, ["list_notes", "count_notes"])

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert (reader.runs, after.runs) == (2, 1)
    record = StepRecord.objects.get(turn=turn, index=1)
    assert record.outcome == "success"
    assert any("Retried once" in notice for notice in record.notices)  # the step says it was retried
    assert any("Retried once" in notice for notice in record.result["notices"])
    assert "Retried once automatically" in turn.answer
    [retried] = _trace(turn, "step.retried")
    # Structural data only: no message, no result.
    assert retried == {"step": 1, "tool": "list_notes", "attempt": 2, "error_class": "recoverable",
                       "error_code": "busy"}  # fmt: skip
    finished = _trace(turn, "step.finished")
    assert [(entry["step"], entry["outcome"]) for entry in finished] == [(1, "failed"), (1, "success"), (2, "success")]


def test_the_retry_is_published_live_between_the_two_attempts(owner: User) -> None:
    reader = ScriptedExecutor(_manifest("list_notes", {"files.read"}), [_failure("recoverable")])
    seen: list[dict[str, Any]] = []
    with observe_turn_events(lambda event: seen.append(dict(event))):
        _run(owner, {"list_notes": reader}, ["list_notes"])
    steps = [(event["type"], event.get("outcome")) for event in seen if event["type"].startswith("turn.step")]
    assert steps == [
        ("turn.step_started", None), ("turn.step_finished", "failed"),
        ("turn.step_retried", None),
        ("turn.step_started", None), ("turn.step_finished", "success"),
    ]  # fmt: skip
    [retried] = [event for event in seen if event["type"] == "turn.step_retried"]
    # The code of the error, never its message.
    assert {key: retried[key] for key in ("step", "tool", "error_code")} == {
        "step": 1, "tool": "list_notes", "error_code": "busy"
    }  # fmt: skip
    assert "The source was busy." not in str(retried)


def test_a_second_failure_is_not_retried_again(owner: User) -> None:
    reader = ScriptedExecutor(_manifest("list_notes", {"files.read"}), [_failure("recoverable")] * 3)
    after = ScriptedExecutor(_manifest("count_notes", {"files.read"}))

    turn = _run(owner, {"list_notes": reader, "count_notes": after}, ["list_notes", "count_notes"])

    assert reader.runs == 1 + MAX_STEP_RETRIES == 2
    assert after.runs == 0
    assert turn.status == Turn.Status.FAILED
    assert LIMITATIONS["retried_already"] in turn.answer
    assert len(_trace(turn, "step.retried")) == 1
    assert _trace(turn, "step.not_retried") == [{"step": 1, "tool": "list_notes", "reason": "retried_already"}]
    failed = StepRecord.objects.get(turn=turn, index=1)
    assert failed.outcome == "failed" and any("Retried once" in notice for notice in failed.notices)
    assert StepRecord.objects.get(turn=turn, index=2).outcome == "skipped"


def test_the_work_before_a_retried_step_stays_and_is_not_repeated(owner: User) -> None:
    first = ScriptedExecutor(_manifest("list_notes", {"files.read"}))
    flaky = ScriptedExecutor(_manifest("read_notes", {"documents.read"}), [_failure("recoverable")])

    turn = _run(owner, {"list_notes": first, "read_notes": flaky}, ["list_notes", "read_notes"])

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert (first.runs, flaky.runs) == (1, 2)


@pytest.mark.parametrize(
    ("capabilities", "effects"),
    [
        ({"files.write"}, ()),  # may change state by its manifest
        ({"files.read", "web.browse"}, ()),  # one capability that is not read-only is enough
        (set(), ()),  # declares nothing: proves nothing
        ({"files.read"}, ({"kind": "file_created", "path": "~/a.txt"},)),  # recorded an effect
    ],
)
def test_a_failure_that_may_have_changed_state_is_never_retried(
    owner: User, capabilities: set[str], effects: tuple[Mapping[str, Any], ...]
) -> None:
    writer = ScriptedExecutor(_manifest("write_note", capabilities), [_failure("recoverable", effects=effects)])

    turn = _run(owner, {"write_note": writer}, ["write_note"])

    assert writer.runs == 1
    assert turn.status == Turn.Status.FAILED
    assert "not retried: it may have changed something" in turn.answer
    assert _trace(turn, "step.retried") == []
    assert _trace(turn, "step.not_retried") == [{"step": 1, "tool": "write_note", "reason": "may_have_changed_state"}]


def test_a_step_needing_consent_is_never_retried(owner: User, files_root: Path) -> None:
    confirmed = ScriptedExecutor(_manifest("read_private", {"files.read"}, consent=True), [_failure("recoverable")])
    catalog: Catalog = build_catalog({"read_private": confirmed})
    plan = {"steps": [{"tool": "read_private", "args": {}}]}
    waiting = turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False), catalog=catalog)
    assert waiting.status == Turn.Status.AWAITING_CONFIRMATION
    consent = ConsentRequest.objects.get(turn=waiting)
    decision = consent_decide(
        owner=owner, consent_id=consent.pk, confirm=True, conversation_id=consent.conversation_id,
        current_catalog_signature=catalog.signature,
    )  # fmt: skip
    assert decision.resumed_turn is not None

    resumed = turn_conduct(turn=decision.resumed_turn, catalog=catalog)

    assert confirmed.runs == 1  # an approval authorises one invocation, not two
    assert resumed.status == Turn.Status.FAILED
    assert "not retried: it may have changed something" in resumed.answer
    assert _trace(resumed, "step.retried") == []


@pytest.mark.parametrize(
    ("error_class", "limitation"),
    [("permanent", "not retried: the error is permanent"), ("unknown", "not retried: the cause is unknown")],
)
def test_permanent_and_unknown_errors_are_never_retried(owner: User, error_class: ErrorClass, limitation: str) -> None:
    reader = ScriptedExecutor(_manifest("list_notes", {"files.read"}), [_failure(error_class)])

    turn = _run(owner, {"list_notes": reader}, ["list_notes"])

    assert reader.runs == 1
    assert turn.status == Turn.Status.FAILED
    assert limitation in turn.answer
    assert _trace(turn, "step.not_retried") == [{"step": 1, "tool": "list_notes", "reason": error_class}]


class RaisingReader:
    """A read-only executor that crashes: the boundary classifies that as ``unknown``."""

    manifest = _manifest("crashing_reader", {"files.read"})

    def __init__(self) -> None:
        self.runs = 0

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.runs += 1
        raise RuntimeError("disk on fire")


def test_an_executor_that_crashed_is_not_retried(owner: User) -> None:
    crashing = RaisingReader()
    turn = _run(owner, {"crashing_reader": crashing}, ["crashing_reader"])
    assert crashing.runs == 1
    assert "not retried: the cause is unknown" in turn.answer


def test_a_step_its_device_did_not_take_is_not_retried_automatically(owner: User, settings: Any) -> None:
    settings.METNOS_DEVICE_STEP_TIMEOUT = 1
    device = device_pair(owner=owner, name="Phone").device
    conversation = Conversation.objects.create(owner=owner, device=device)
    reader = ScriptedExecutor(dataclasses.replace(_manifest("list_photos", {"files.read"}), placement="both"))
    plan = {"steps": [{"tool": "list_photos", "args": {}}]}
    turn = turn_submit(owner=owner, text="", plan=plan, conversation=conversation, enqueue=False)

    finished = turn_conduct(turn=turn, catalog=build_catalog({"list_photos": reader}))

    assert DeviceStep.objects.filter(turn=turn).count() == 1  # the device's wait was the bound
    assert StepRecord.objects.get(turn=turn).error_code == "device_unavailable"
    assert finished.status == Turn.Status.FAILED
    assert LIMITATIONS["on_device"] in finished.answer
    assert _trace(finished, "step.not_retried") == [{"step": 1, "tool": "list_photos", "reason": "on_device"}]


def test_a_step_whose_record_gained_an_effect_meanwhile_is_not_retried(owner: User) -> None:
    reader = ScriptedExecutor(_manifest("list_notes", {"files.read"}), [_failure("recoverable")])
    after = ScriptedExecutor(_manifest("count_notes", {"files.read"}))

    def effect_arrives_late(event: Any) -> None:
        # Something else records an effect of the failed attempt before the retry is decided.
        if event["type"] == "turn.step_finished" and event["step"] == 1:
            StepRecord.objects.filter(turn_id=event["turn_id"], index=1).update(effects=[{"kind": "late"}])

    with observe_turn_events(effect_arrives_late):
        turn = _run(owner, {"list_notes": reader, "count_notes": after}, ["list_notes", "count_notes"])

    assert (reader.runs, after.runs) == (1, 0)
    assert turn.status == Turn.Status.FAILED
    assert "not retried: it may have changed something" in turn.answer
    assert _trace(turn, "step.not_retried") == [{"step": 1, "tool": "list_notes", "reason": "record_changed"}]
    assert StepRecord.objects.get(turn=turn, index=1).effects == [{"kind": "late"}]  # kept, not replaced
    assert StepRecord.objects.get(turn=turn, index=2).outcome == "skipped"


def test_the_rule_reads_the_real_manifests() -> None:
    catalog = build_catalog()
    assert reads_only(catalog.manifest("find_files"))
    assert reads_only(catalog.manifest("read_files"))
    assert not reads_only(catalog.manifest("create_files_spreadsheet"))
    assert not reads_only(DELETE_FILES_MANIFEST)  # writes, and asks for consent
    assert not reads_only(None)
    assert recovery_decision(manifest=catalog.manifest("find_files"), result=FAILED, retries=0).retry
    declined = recovery_decision(manifest=catalog.manifest("create_files_spreadsheet"), result=FAILED, retries=0)
    assert (declined.retry, declined.reason) == (False, "may_have_changed_state")
