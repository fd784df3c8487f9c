"""Browser jobs run by a real worker on the browser queue, and "Close the web sessions" as an executor."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from apps.runtime.executor import ExecutionContext, build_catalog
from apps.sites.browser.jobs import (
    browser_job_run,
    browser_job_submit,
    browser_job_wait,
    browser_jobs_reconcile_interrupted,
    register_browser_job,
)
from apps.sites.browser.sessions import BrowserSession
from apps.sites.browser.slots import lease_request, lease_try_claim
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.executors import CloseWebSessions
from apps.sites.limits import BROWSER_TASK_SOFT_TIME_LIMIT, BROWSER_TASK_TIME_LIMIT
from apps.sites.models import BrowserJob, BrowserSessionLease
from apps.sites.tasks import run_browser_job
from metnos_site.celery import QUEUE_BROWSER, app
from tests.conftest import WorkerHandle, api_client_for
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def submit_and_wait(owner: Any, url: str, websites: AuthorizedWebsites) -> BrowserJob:
    job = browser_job_submit(owner=owner, kind="open_page", params={"url": url}, websites=websites)
    return browser_job_wait(owner=owner, job_id=job.pk, deadline=timezone.now() + dt.timedelta(seconds=90))


def test_browser_jobs_go_to_the_browser_queue_with_hard_time_limits() -> None:
    route = app.amqp.router.route({}, run_browser_job.name)
    assert route["queue"].name == QUEUE_BROWSER
    assert run_browser_job.time_limit == BROWSER_TASK_TIME_LIMIT.total_seconds()
    assert run_browser_job.soft_time_limit == BROWSER_TASK_SOFT_TIME_LIMIT.total_seconds()
    assert not run_browser_job.acks_late


def test_a_worker_opens_the_page_and_records_the_outcome(
    owner: Any, second_user: Any, background_worker: WorkerHandle, fixture_web: FixtureWeb
) -> None:
    basic = fixture_web.fresh("basic")
    job = submit_and_wait(owner, basic.url("/"), AuthorizedWebsites.of([basic.origin]))
    assert (job.status, job.outcome, job.reason) == ("finished", "completed", "")
    assert job.result == {"title": "Basic fixture site", "status": 200}
    assert not BrowserSessionLease.objects.exists()

    listed = api_client_for(owner).get("/api/v1/browser-jobs/").json()["results"]
    assert [(item["id"], item["outcome"]) for item in listed] == [(job.pk, "completed")]
    assert api_client_for(second_user).get(f"/api/v1/browser-jobs/{job.pk}/").status_code == 404


def test_a_refused_navigation_is_a_typed_job_outcome(
    owner: Any, background_worker: WorkerHandle, fixture_web: FixtureWeb
) -> None:
    basic, elsewhere = fixture_web.fresh("basic"), fixture_web.fresh("net-private")
    job = submit_and_wait(owner, elsewhere.url("/secret.html"), AuthorizedWebsites.of([basic.origin]))
    assert (job.status, job.outcome, job.reason) == ("finished", "refused", "not_authorized")
    assert job.refusals == {"navigation.not_authorized.same_host_other_port": 1}
    assert elsewhere.requests() == []


def queued_job(owner: Any, kind: str, origin: str) -> BrowserJob:
    return BrowserJob.objects.create(owner=owner, kind=kind, websites=[origin], requested_at=timezone.now())


def raise_in_handler(error: BaseException) -> Any:
    def handler(session: BrowserSession, params: Mapping[str, Any]) -> Mapping[str, Any]:
        raise error

    return handler


@pytest.mark.parametrize(
    ("error", "outcome", "reason"),
    [(SoftTimeLimitExceeded(), "time_limit", ""), (KeyError("a bug"), "failed", "handler_error")],
)
def test_a_job_that_breaks_ends_with_a_typed_outcome(
    owner: Any, fixture_web: FixtureWeb, error: BaseException, outcome: str, reason: str
) -> None:
    register_browser_job("test_breaks", raise_in_handler(error))
    job = queued_job(owner, "test_breaks", fixture_web.site("basic").origin)
    browser_job_run(job_id=job.pk, owner_id=owner.pk)
    job.refresh_from_db()
    assert (job.status, job.outcome, job.reason) == ("finished", outcome, reason)
    assert not BrowserSessionLease.objects.exists()


def test_a_job_runs_once_and_only_for_its_owner(owner: Any, second_user: Any, fixture_web: FixtureWeb) -> None:
    register_browser_job("test_counts", lambda session, params: {"ran": True})
    job = queued_job(owner, "test_counts", fixture_web.site("basic").origin)
    browser_job_run(job_id=job.pk, owner_id=second_user.pk)  # a forged message: not their job
    assert BrowserJob.objects.get(pk=job.pk).status == "queued"
    browser_job_run(job_id=job.pk, owner_id=owner.pk)
    finished_at = BrowserJob.objects.get(pk=job.pk).finished_at
    browser_job_run(job_id=job.pk, owner_id=owner.pk)  # delivered twice
    job.refresh_from_db()
    assert (job.outcome, job.result, job.finished_at) == ("completed", {"ran": True}, finished_at)


def test_a_job_whose_worker_died_is_ended_as_interrupted(owner: Any) -> None:
    long_ago = timezone.now() - BROWSER_TASK_TIME_LIMIT - dt.timedelta(minutes=1)
    job = BrowserJob.objects.create(
        owner=owner, kind="open_page", status="running", requested_at=long_ago, started_at=long_ago
    )
    assert browser_jobs_reconcile_interrupted() == 1
    job.refresh_from_db()
    assert (job.status, job.outcome) == ("finished", "interrupted")


def test_the_close_executor_withdraws_and_ends_only_the_owners_sessions(owner: Any, second_user: Any) -> None:
    assert "close_web_sessions" in build_catalog().executors
    running, waiting = lease_request(owner=owner), lease_request(owner=owner)
    assert lease_try_claim(token=running.token).slot is not None
    others = lease_request(owner=second_user)

    result = CloseWebSessions().run(ExecutionContext(owner=owner, turn_id=None, step_index=1), {})
    assert result.outcome == "success"
    assert result.value == {"ended": 1, "withdrawn": 1}
    assert BrowserSessionLease.objects.get(pk=running.pk).close_requested
    assert not BrowserSessionLease.objects.filter(pk=waiting.pk).exists()
    assert not BrowserSessionLease.objects.get(pk=others.pk).close_requested

    BrowserSessionLease.objects.filter(owner=owner).delete()
    again = CloseWebSessions().run(ExecutionContext(owner=owner, turn_id=None, step_index=1), {})
    assert again.outcome == "empty"


@pytest.mark.parametrize(
    "request_text", ["Close the web sessions", "close all my browser sessions", "Chiudi le sessioni web"]
)
def test_the_request_to_close_the_web_sessions_needs_no_model(request_text: str) -> None:
    from apps.runtime.paths.forms import propose_from_forms

    proposal = propose_from_forms(request_text, build_catalog())
    assert proposal is not None
    assert proposal.plan == {"steps": [{"tool": "close_web_sessions", "args": {}}]}


def test_asking_in_words_closes_the_web_sessions(owner: Any, second_user: Any, background_worker: WorkerHandle) -> None:
    from apps.runtime.models import Turn

    mine, theirs = lease_request(owner=owner), lease_request(owner=second_user)
    lease_try_claim(token=mine.token)
    lease_try_claim(token=theirs.token)

    answer = api_client_for(owner).post("/api/v1/turns/", {"text": "Close the web sessions"}, format="json")
    assert answer.status_code == 202
    turn_id = answer.json()["id"]
    deadline = timezone.now() + dt.timedelta(seconds=60)
    while not Turn.objects.get(pk=turn_id).is_finished and timezone.now() < deadline:
        time.sleep(0.05)
    body = api_client_for(owner).get(f"/api/v1/turns/{turn_id}/").json()
    assert body["status"] == "completed", body["answer"]
    assert [step["tool"] for step in body["steps"]] == ["close_web_sessions"]
    assert BrowserSessionLease.objects.get(pk=mine.pk).close_requested
    assert not BrowserSessionLease.objects.get(pk=theirs.pk).close_requested
