"""LRE's states change only through compare-and-set transitions; a batch's turn ends like any turn."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.lre.engine import job_advance
from apps.lre.models import LreBatch, LreJob
from apps.lre.services import DecisionRefused, batch_skip, job_cancel, job_pause
from apps.lre.transitions import TransitionNotAllowed, batch_transition, job_transition
from apps.runtime.models import TraceEvent, Turn
from apps.runtime.trace import observe_turn_events
from tests.lre.test_engine import flaky_job

pytestmark = pytest.mark.django_db


def test_a_batch_turn_starts_and_ends_like_any_turn(owner: User, settings: Any) -> None:
    job, catalog, _ = flaky_job(owner, settings, [{"n": 1}, {"n": 2, "fail": "permanent"}])
    seen: list[dict[str, Any]] = []
    with observe_turn_events(lambda event: seen.append(dict(event))):
        job = job_advance(job_id=job.pk, catalog=catalog)
    assert job.status == LreJob.Status.PARTIAL
    batches = LreBatch.objects.filter(job=job)
    turns = list(Turn.objects.filter(pk__in=batches.values("turn_id")).order_by("pk"))  # in the order they ran
    assert [turn.status for turn in turns] == [Turn.Status.COMPLETED, Turn.Status.FAILED]
    assert all(turn.finished_at is not None and turn.resumed_from_id == job.turn_id for turn in turns)
    for turn in turns:
        kinds = list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("kind", flat=True))
        assert kinds == ["step.started", "step.finished", "turn.finished"]
        events = [event["type"] for event in seen if event["turn_id"] == turn.pk]
        assert events == ["turn.started", "turn.step_started", "turn.step_finished", "turn.finished"]
    finished = [event["status"] for event in seen if event["type"] == "turn.finished"]
    assert finished == ["completed", "failed"]


def test_a_decision_on_a_job_that_moved_meanwhile_is_refused(owner: User, settings: Any) -> None:
    job, _, _ = flaky_job(owner, settings, [{"n": 1}])
    held = LreJob.objects.get(pk=job.pk)  # what the console read before another decision
    job_cancel(job=job)
    with pytest.raises(DecisionRefused, match="cancelled cannot be paused"):
        job_pause(job=held)
    with pytest.raises(DecisionRefused, match="already ended"):
        job_cancel(job=held)
    assert LreJob.objects.get(pk=job.pk).status == LreJob.Status.CANCELLED


def test_a_batch_is_claimed_once_and_a_decided_batch_is_not_decided_again(owner: User, settings: Any) -> None:
    job, _, _ = flaky_job(owner, settings, [{"n": 1}])
    batch = LreBatch.objects.get(job=job)
    assert batch_transition(batch=batch, to=LreBatch.Status.RUNNING, expected=LreBatch.Status.PENDING)
    assert not batch_transition(batch=batch, to=LreBatch.Status.RUNNING, expected=LreBatch.Status.PENDING)
    with pytest.raises(DecisionRefused):
        batch_skip(batch=batch)  # it is running now, whatever the row read before said


def test_a_change_the_tables_do_not_list_is_refused(owner: User, settings: Any) -> None:
    job, _, _ = flaky_job(owner, settings, [{"n": 1}])
    with pytest.raises(TransitionNotAllowed):
        job_transition(job=job, to=LreJob.Status.RUNNING, expected=LreJob.Status.COMPLETED)
    with pytest.raises(TransitionNotAllowed):
        batch_transition(batch=LreBatch.objects.get(job=job), to=LreBatch.Status.COMMITTED, expected="pending")
    assert LreJob.objects.get(pk=job.pk).status == LreJob.Status.QUEUED
