"""The LRE engine: phases over batches, committed results kept, errors classified, decisions bounded."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from apps.accounts.models import User
from apps.lre.engine import job_advance
from apps.lre.models import LreBatch, LreJob, LrePhase
from apps.lre.selectors import job_progress
from apps.lre.services import (
    DecisionRefused,
    HandoffRefused,
    batch_retry,
    batch_skip,
    job_create_from_turn,
    job_pause,
    job_resume,
)
from apps.runtime.boundary import invoke_step
from apps.runtime.executor import (
    Catalog,
    ExecutionContext,
    StepError,
    StepResult,
    build_catalog,
    registered_executors,
)
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import Conversation, StepRecord, Turn
from apps.runtime.plans.api import Plan, validate_plan
from apps.runtime.trace import TurnRecorder

pytestmark = pytest.mark.django_db


def write_quotes(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, count + 1):
        (folder / f"quote-{n:03d}.txt").write_text(
            f"Quote {n}\nSupplier: Supplier {n}\nPrice: {n},50 €\n", encoding="utf-8"
        )


def handed_off_turn(owner: User, raw_plan: Mapping[str, Any], catalog: Catalog, run_first: int) -> tuple[Turn, Plan]:
    """A turn whose first ``run_first`` steps ran through the real boundary, ready to hand off."""
    plan = validate_plan(raw_plan, catalog)
    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(
        owner=owner,
        conversation=conversation,
        request_text="read every quote",
        status=Turn.Status.RUNNING,
        path=Turn.Path.PLAN,
        plan=plan.as_json(),
        plan_digest=plan.digest(),
        catalog_signature=catalog.signature,
    )
    results: dict[int, StepResult] = {}
    recorder = TurnRecorder(turn)
    for index in range(1, run_first + 1):
        outcome = invoke_step(recorder=recorder, plan=plan, index=index, catalog=catalog, results=results)
        assert outcome.result is not None and outcome.result.outcome == "success"
        results[index] = outcome.result
    return turn, plan


QUOTES_PLAN = {
    "steps": [
        {"tool": "find_files", "args": {"base_path": "~/Quotes", "pattern": "*.txt"}},
        {"tool": "read_files", "args": {"from_step": 1}},
        {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "price"]}},
        {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": "~/Quotes/summary.xlsx"}},
    ]
}


def test_a_handed_off_plan_runs_phase_by_phase_and_writes_every_item(owner: User, root: Path, settings: Any) -> None:
    settings.METNOS_LRE_BATCH_SIZE = 3
    write_quotes(root / "Quotes", 7)
    catalog = build_catalog(dict(registered_executors()))
    turn, plan = handed_off_turn(owner, QUOTES_PLAN, catalog, run_first=1)

    job = job_create_from_turn(turn=turn, plan=plan, first_step=2, catalog=catalog, title="Read every quote")
    phases = list(LrePhase.objects.filter(job=job).values_list("tool", "per_item", "total_batches"))
    # Only the first phase's size is known before it runs.
    assert phases == [
        ("read_files", True, 3),
        ("extract_entries", True, None),
        ("create_files_spreadsheet", False, None),
    ]

    job = job_advance(job_id=job.pk, catalog=catalog)

    assert job.status == LreJob.Status.COMPLETED
    assert list(LrePhase.objects.filter(job=job).values_list("total_batches", flat=True)) == [3, 3, 1]
    # Each batch saw its own items only: three, three and one file.
    read_batches = LreBatch.objects.filter(phase__step=2, job=job).order_by("index")
    assert [len(batch.items) for batch in read_batches] == [3, 3, 1]
    sheet = openpyxl.load_workbook(root / "Quotes" / "summary.xlsx").active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    assert len(rows) == 1 + 7
    header = list(rows[0])
    suppliers = sorted(str(row[header.index("supplier")]) for row in rows[1:])
    assert suppliers == sorted(f"Supplier {n}" for n in range(1, 8))
    # Every batch ran through the boundary on its own turn, linked to the handing-off turn.
    batch_turns = Turn.objects.filter(resumed_from=turn)
    assert batch_turns.count() == 7
    assert set(StepRecord.objects.filter(turn__in=batch_turns).values_list("outcome", flat=True)) == {"success"}
    progress = job_progress(job=job)
    assert (progress.committed, progress.errors, progress.skipped, progress.pending) == (7, 0, 0, 0)
    assert progress.estimate is None and progress.estimate_reason == "the job has ended"


class FlakyItems:
    """Test executor: maps items, failing for items that ask it to (per item, per attempt)."""

    manifest = Manifest(
        name="lre_probe_items",
        purpose="Test only: copy items, failing where an item says so.",
        args={"from_step": ArgSpec(type="collection", required=True)},
        result=ResultShape(kind="collection", fields=("n",)),
    )

    def __init__(self) -> None:
        self.calls: list[tuple[int, ...]] = []

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        items = list(args["from_step"])
        self.calls.append(tuple(item["n"] for item in items))
        for item in items:
            failure = item.get("fail")
            if failure and self.calls.count(tuple(i["n"] for i in items)) <= item.get("times", 99):
                return StepResult(outcome="failed", error=StepError(failure, "probe_failure", "it failed"))
        return StepResult(outcome="success", items=tuple({"n": item["n"]} for item in items))


class ListItems:
    manifest = Manifest(
        name="lre_probe_list",
        purpose="Test only: list the items given.",
        args={"items": ArgSpec(type="array", items="object", required=True)},
        result=ResultShape(kind="collection", fields=("n", "fail", "times")),
    )

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="success", items=tuple(args["items"]))


def flaky_job(owner: User, settings: Any, items: list[dict[str, Any]]) -> tuple[LreJob, Catalog, FlakyItems]:
    from apps.lre.batching import register_per_item

    settings.METNOS_LRE_BATCH_SIZE = 1
    flaky = FlakyItems()
    register_per_item(flaky.manifest.name)
    catalog = build_catalog({"lre_probe_list": ListItems(), "lre_probe_items": flaky})
    raw = {
        "steps": [
            {"tool": "lre_probe_list", "args": {"items": items}},
            {"tool": "lre_probe_items", "args": {"from_step": 1}},
        ]
    }
    turn, plan = handed_off_turn(owner, raw, catalog, run_first=1)
    return job_create_from_turn(turn=turn, plan=plan, first_step=2, catalog=catalog, title="probe"), catalog, flaky


def _statuses(job: LreJob) -> list[str]:
    return list(LreBatch.objects.filter(job=job).order_by("index").values_list("status", flat=True))


def test_a_recoverable_error_gets_one_more_attempt_then_commits(owner: User, settings: Any) -> None:
    job, catalog, flaky = flaky_job(owner, settings, [{"n": 1}, {"n": 2, "fail": "recoverable", "times": 1}, {"n": 3}])
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.COMPLETED
    assert flaky.calls == [(1,), (2,), (2,), (3,)]
    assert _statuses(job) == ["committed"] * 3


def test_exhausted_attempts_need_attention_and_keep_committed_and_pending_work(owner: User, settings: Any) -> None:
    items: list[dict[str, Any]] = [{"n": 1}, {"n": 2, "fail": "recoverable"}, {"n": 3}]
    job, catalog, flaky = flaky_job(owner, settings, items)
    job = job_advance(job_id=job.pk, catalog=catalog)

    assert job.status == LreJob.Status.NEEDS_ATTENTION
    assert "needs review" in job.attention_reason
    assert flaky.calls == [(1,), (2,), (2,)]  # two attempts in all, then a person decides
    assert _statuses(job) == ["committed", "needs_review", "pending"]
    progress = job_progress(job=job)
    assert progress.attention and progress.estimate is None
    # Attention stops new batches: advancing again runs nothing.
    job_advance(job_id=job.pk, catalog=catalog)
    assert flaky.calls == [(1,), (2,), (2,)]
    with pytest.raises(DecisionRefused):
        job_resume(job=job)  # the batch under review must be decided first

    batch = LreBatch.objects.get(job=job, index=2)
    batch_retry(batch=batch)  # one attempt, not a loop
    job = job_resume(job=job)
    job = job_advance(job_id=job.pk, catalog=catalog)
    # The granted attempt failed again: back to review, and still nothing new starts.
    assert flaky.calls == [(1,), (2,), (2,), (2,)]
    assert _statuses(job) == ["committed", "needs_review", "pending"]
    assert job.status == LreJob.Status.NEEDS_ATTENTION

    batch_skip(batch=LreBatch.objects.get(job=job, index=2))
    job = job_advance(job_id=job_resume(job=job).pk, catalog=catalog)
    assert flaky.calls[-1] == (3,)
    assert _statuses(job) == ["committed", "skipped", "committed"]
    assert job.status == LreJob.Status.PARTIAL
    assert job_progress(job=job).skipped == 1


def test_an_unknown_cause_is_reviewed_without_an_automatic_retry(owner: User, settings: Any) -> None:
    job, catalog, flaky = flaky_job(owner, settings, [{"n": 1, "fail": "unknown"}, {"n": 2}])
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert flaky.calls == [(1,)]
    assert job.status == LreJob.Status.NEEDS_ATTENTION
    assert _statuses(job) == ["needs_review", "pending"]


def test_a_permanent_error_fails_its_batch_and_the_job_ends_partial(owner: User, settings: Any) -> None:
    job, catalog, flaky = flaky_job(owner, settings, [{"n": 1}, {"n": 2, "fail": "permanent"}, {"n": 3}])
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert flaky.calls == [(1,), (2,), (3,)]
    assert _statuses(job) == ["committed", "failed", "committed"]
    assert job.status == LreJob.Status.PARTIAL


def test_a_paused_job_starts_no_batch_and_resumes_from_where_it_was(owner: User, settings: Any) -> None:
    job, catalog, flaky = flaky_job(owner, settings, [{"n": 1}, {"n": 2}, {"n": 3}])
    job_advance(job_id=job.pk, catalog=catalog, max_batches=1)
    job_pause(job=LreJob.objects.get(pk=job.pk))
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.PAUSED and flaky.calls == [(1,)]
    assert job_progress(job=job).estimate_reason == "the job is paused"
    resumed = job_resume(job=job)
    assert resumed.revision == 2
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.COMPLETED and flaky.calls == [(1,), (2,), (3,)]


def test_a_changed_executor_stops_the_job_for_review(owner: User, settings: Any) -> None:
    import dataclasses

    job, catalog, _ = flaky_job(owner, settings, [{"n": 1}, {"n": 2}])
    job_advance(job_id=job.pk, catalog=catalog, max_batches=1)

    class Changed(FlakyItems):
        manifest = dataclasses.replace(FlakyItems.manifest, version="2")

    changed = build_catalog({"lre_probe_list": ListItems(), "lre_probe_items": Changed()})
    job = job_advance(job_id=job.pk, catalog=changed)
    assert job.status == LreJob.Status.NEEDS_ATTENTION
    assert "changed since the job was created" in job.attention_reason
    assert _statuses(job) == ["committed", "pending"]


def test_an_inactive_owner_runs_nothing(owner: User, settings: Any) -> None:
    job, catalog, flaky = flaky_job(owner, settings, [{"n": 1}])
    User.objects.filter(pk=owner.pk).update(is_active=False)
    job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.NEEDS_ATTENTION and flaky.calls == []


def test_steps_that_need_confirmation_are_not_handed_off(owner: User, root: Path) -> None:
    catalog = build_catalog(dict(registered_executors()))
    raw = {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/", "pattern": "*.txt"}},
            {"tool": "delete_files", "args": {"from_step": 1}},
        ]
    }
    (root / "a.txt").write_text("a", encoding="utf-8")
    turn, plan = handed_off_turn(owner, raw, catalog, run_first=1)
    with pytest.raises(HandoffRefused, match="confirmation"):
        job_create_from_turn(turn=turn, plan=plan, first_step=2, catalog=catalog, title="delete")
    assert not LreJob.objects.exists()


class _Obstructed:
    """Test executor with a property that keeps long work from taking it over."""

    def __init__(self, name: str, **properties: Any) -> None:
        self.manifest = Manifest(
            name=name,
            purpose="Test only: a step long work cannot run unattended.",
            args={"from_step": ArgSpec(type="collection", required=True)},
            result=ResultShape(kind="collection", fields=("n",)),
            **properties,
        )

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="success", items=tuple(args["from_step"]))


@pytest.mark.parametrize(
    ("properties", "reason"),
    [
        ({"capabilities": frozenset({"credentials.use"})}, "uses credentials"),
        ({"placement": "device"}, "runs on a device"),
    ],
)
def test_steps_that_use_credentials_or_run_on_a_device_are_not_handed_off(
    owner: User, properties: dict[str, Any], reason: str
) -> None:
    catalog = build_catalog(
        {"lre_probe_list": ListItems(), "lre_probe_obstructed": _Obstructed("lre_probe_obstructed", **properties)}
    )
    raw = {"steps": [{"tool": "lre_probe_list", "args": {"items": [{"n": 1}, {"n": 2}]}},
                     {"tool": "lre_probe_obstructed", "args": {"from_step": 1}}]}  # fmt: skip
    turn, plan = handed_off_turn(owner, raw, catalog, run_first=1)
    with pytest.raises(HandoffRefused, match=reason):
        job_create_from_turn(turn=turn, plan=plan, first_step=2, catalog=catalog, title="obstructed")
    assert not LreJob.objects.exists()
