"""LRE over REST and in the portal: the owner's jobs only, typed refusals, the console's honest figures."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.lre.engine import job_advance
from apps.lre.models import LreBatch, LreJob
from apps.lre.selectors import ESTIMATE_MIN_RESULTS, job_progress
from tests.conftest import api_client_for
from tests.lre.test_engine import flaky_job

pytestmark = pytest.mark.django_db


def test_jobs_are_listed_for_their_owner_only_and_another_owner_gets_404(
    owner: User, second_user: User, settings: Any
) -> None:
    job, catalog, _ = flaky_job(owner, settings, [{"n": 1}, {"n": 2}])
    job_advance(job_id=job.pk, catalog=catalog)

    mine = api_client_for(owner).get("/api/v1/lre-jobs/")
    assert mine.status_code == 200
    [listed] = mine.json()["results"]
    assert listed["id"] == job.pk and listed["status"] == "completed"
    assert listed["progress"]["committed"] == 2

    other = api_client_for(second_user)
    listing = other.get("/api/v1/lre-jobs/").json()
    assert listing["results"] == []
    assert other.get(f"/api/v1/lre-jobs/{job.pk}/").status_code == 404
    assert other.post(f"/api/v1/lre-jobs/{job.pk}/pause/").status_code == 404
    batch = LreBatch.objects.filter(job=job).first()
    assert batch is not None
    assert other.post(f"/api/v1/lre-jobs/{job.pk}/batches/{batch.pk}/skip/").status_code == 404


def test_a_decision_that_does_not_apply_is_a_typed_conflict(owner: User, settings: Any) -> None:
    job, catalog, _ = flaky_job(owner, settings, [{"n": 1}])
    job_advance(job_id=job.pk, catalog=catalog)
    answer = api_client_for(owner).post(f"/api/v1/lre-jobs/{job.pk}/pause/")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "decision_refused"
    assert "completed" in answer.json()["error"]["message"]


def test_review_retry_and_skip_over_rest(owner: User, settings: Any) -> None:
    job, catalog, _ = flaky_job(owner, settings, [{"n": 1, "fail": "unknown"}, {"n": 2}])
    job_advance(job_id=job.pk, catalog=catalog)
    client = api_client_for(owner)
    [under_review] = client.get(f"/api/v1/lre-jobs/{job.pk}/review/").json()
    assert under_review["status"] == "needs_review" and under_review["error_class"] == "unknown"
    assert client.post(f"/api/v1/lre-jobs/{job.pk}/resume/").status_code == 409
    skipped = client.post(f"/api/v1/lre-jobs/{job.pk}/batches/{under_review['id']}/skip/")
    assert skipped.status_code == 200 and skipped.json()["status"] == "skipped"
    resumed = client.post(f"/api/v1/lre-jobs/{job.pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["status"] == "queued"


def test_the_console_shows_attention_first_and_no_estimate_without_three_results(
    owner: User, second_user: User, settings: Any
) -> None:
    job, catalog, _ = flaky_job(owner, settings, [{"n": 1}, {"n": 2, "fail": "unknown"}, {"n": 3}])
    job_advance(job_id=job.pk, catalog=catalog)
    browser = Client()
    browser.force_login(owner)
    page = browser.get(f"/work/{job.pk}/").content.decode()
    assert "Needs your attention" in page
    assert "n.a. — the job needs your attention" in page
    assert "Retry once" in page
    listing = browser.get("/work/").content.decode()
    assert "probe" in listing

    stranger = Client()
    stranger.force_login(second_user)
    assert stranger.get(f"/work/{job.pk}/").status_code == 404
    assert stranger.post(f"/work/{job.pk}/cancel").status_code == 404
    assert LreJob.objects.get(pk=job.pk).status == LreJob.Status.NEEDS_ATTENTION


def test_the_estimate_needs_three_recent_results_of_the_current_phase(owner: User, settings: Any) -> None:
    items = [{"n": n} for n in range(1, 9)]
    job, catalog, _ = flaky_job(owner, settings, items)
    job_advance(job_id=job.pk, catalog=catalog, max_batches=ESTIMATE_MIN_RESULTS - 1)
    early = job_progress(job=LreJob.objects.get(pk=job.pk))
    assert early.estimate is None and "fewer than 3 recent results" in early.estimate_reason
    assert (early.phase_position, early.phase_count, early.phase_done, early.phase_total) == (1, 1, 2, 8)

    # Three results of 10 seconds each: five batches left, about 50 seconds.
    start = timezone.now() - dt.timedelta(minutes=5)
    for number, batch in enumerate(LreBatch.objects.filter(job=job).order_by("index")[:3]):
        began = start + dt.timedelta(seconds=20 * number)
        LreBatch.objects.filter(pk=batch.pk).update(
            status=LreBatch.Status.COMMITTED, started_at=began, finished_at=began + dt.timedelta(seconds=10)
        )
    now = timezone.now()
    progress = job_progress(job=LreJob.objects.get(pk=job.pk), now=now)
    assert progress.estimate_reason == ""
    assert progress.estimate == now + dt.timedelta(seconds=50)
    assert progress.percent == round(100 * 3 / 8)

    # Old results do not make an estimate.
    later = now + dt.timedelta(hours=2)
    stale = job_progress(job=LreJob.objects.get(pk=job.pk), now=later)
    assert stale.estimate is None
