"""Browser steps run on browser workers: a sign-in is a browser job, and its step waits for it.

Turns run on the workers of the ``default`` queue; every browser step is a
job of the ``browser`` queue, run by a browser worker (the embedded pass: this
process's browser lane, with threads of its own). In the services pass a
``celery worker -Q browser`` process started here takes the sign-in, and is
killed in the middle of one: the step ends ``interrupted`` and the website
sees the credentials once at most.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from apps.runtime.executor import ExecutionContext, StepResult
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import turn_submit
from apps.sites.browser.jobs import browser_job_run, browser_job_submit, browser_job_wait, register_browser_work
from apps.sites.browser.processes import browser_kill, process_descendants
from apps.sites.browser.steps import INTERRUPTED_MESSAGE, browser_step_result
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import BROWSER_JOB_HEARTBEAT_TIMEOUT
from apps.sites.models import BrowserJob, BrowserSessionLease, HandoffPanel
from apps.vault.services import credential_save
from metnos_site.celery import QUEUE_BROWSER, app
from tests.conftest import (
    BROWSER_QUEUES,
    SERVICES_PASS,
    WorkerHandle,
    process_stop,
    worker_process_start,
    worker_process_wait,
)
from tests.sites.fixture_web import FixtureSite, FixtureWeb, wait_until
from tests.sites.signin_support import PASSWORD, USERNAME

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.services]

UNFINISHED = (Turn.Status.QUEUED, Turn.Status.RUNNING, Turn.Status.AWAITING_INPUT)


def _acme(owner: Any, fixture_web: FixtureWeb, name: str) -> FixtureSite:
    """A fresh fixture site, and the owner's credential for it (label ``Acme``) in the vault."""
    site = fixture_web.fresh(name)
    credential_save(owner=owner, label="Acme", origins=[site.origin], username=USERNAME, secret=PASSWORD)
    return site


def _sign_in_turn(owner: Any, site: FixtureSite, path: str = "/") -> Turn:
    """A sign-in turn enqueued for the turn workers, as the portal would."""
    plan = {"steps": [{"tool": "sign_in", "args": {"url": site.url(path), "credential": "Acme"}}]}
    return turn_submit(owner=owner, text="sign in to Acme", plan=plan)


def _finished(turn: Turn, timeout: float = 120) -> Turn:
    assert wait_until(lambda: Turn.objects.get(pk=turn.pk).status not in UNFINISHED, timeout), "the turn did not end"
    return Turn.objects.get(pk=turn.pk)


def _pid(holder: str) -> int:
    return int(holder.rsplit(":", 1)[1])


def test_more_sign_in_turns_than_turn_worker_threads_all_complete(
    owner: Any, background_worker: WorkerHandle, fixture_web: FixtureWeb
) -> None:
    """Turns wait for their browser jobs in the turn pool (2 threads or processes); the jobs never wait for them."""
    site = _acme(owner, fixture_web, "signin-plain")
    turns = [_sign_in_turn(owner, site) for _ in range(5)]
    ended = [_finished(turn, timeout=240) for turn in turns]
    assert [turn.status for turn in ended] == [Turn.Status.COMPLETED] * 5, [turn.answer for turn in ended]
    assert len(site.logins()) == 5 and all(login["ok"] for login in site.logins())
    jobs = BrowserJob.objects.filter(owner=owner, kind="sign_in")
    assert sorted(job.params["step"]["turn"] for job in jobs) == sorted(turn.pk for turn in turns)
    for job in jobs:
        # What the job stored: ids, the address and the step's identity; never the password.
        assert PASSWORD not in str(job.params) and PASSWORD not in str(job.result)
        assert set(job.params) == {"url", "credential", "grants", "step"}
    if not SERVICES_PASS:
        from apps.core.embedded_worker import embedded_worker

        worker = embedded_worker()
        assert worker is not None and QUEUE_BROWSER not in worker.main.queues
        assert QUEUE_BROWSER in worker.lanes["browser"].queues


def _job(owner: Any, kind: str, **fields: Any) -> BrowserJob:
    """A job row no worker was told about."""
    fields.setdefault("requested_at", timezone.now())
    return BrowserJob.objects.create(owner=owner, kind=kind, websites=["http://127.0.0.1:9"], **fields)


def test_a_job_whose_heartbeat_stopped_is_ended_interrupted(owner: Any) -> None:
    long_ago = timezone.now() - BROWSER_JOB_HEARTBEAT_TIMEOUT - dt.timedelta(seconds=1)
    job = _job(owner, "open_page", status="running", started_at=long_ago, heartbeat_at=long_ago)
    finished = browser_job_wait(owner=owner, job_id=job.pk, deadline=timezone.now() + dt.timedelta(seconds=10))
    assert (finished.status, finished.outcome) == ("finished", "interrupted")
    result = browser_step_result(finished)
    assert result.outcome == "failed" and result.error is not None
    assert (result.error.error_class, result.error.code, result.error.message) == (
        "unknown", "interrupted", INTERRUPTED_MESSAGE,
    )  # fmt: skip


def test_a_live_heartbeat_keeps_the_job_and_a_late_ending_never_overwrites_interrupted(owner: Any) -> None:
    beats: list[Any] = []

    def outlived(job: Any) -> dict[str, Any]:
        beats.append(BrowserJob.objects.get(pk=job.job_id).heartbeat_at)
        # Meanwhile the waiting step took this worker for dead.
        BrowserJob.objects.filter(pk=job.job_id).update(status="finished", outcome="interrupted")
        return {"done": True}

    register_browser_work("test_outlived", outlived)
    job = _job(owner, "test_outlived")
    browser_job_run(job_id=job.pk, owner_id=owner.pk)
    job.refresh_from_db()
    assert beats[0] is not None and job.holder  # claimed with a heartbeat, by a named worker
    assert (job.outcome, job.result) == ("interrupted", {})


def test_a_job_no_worker_starts_is_ended_not_started(owner: Any) -> None:
    job = _job(owner, "open_page", requested_at=timezone.now() - dt.timedelta(minutes=10))
    finished = browser_job_wait(owner=owner, job_id=job.pk)
    assert finished.outcome == "not_started"
    result: StepResult = browser_step_result(finished)
    assert result.error is not None and (result.error.error_class, result.error.code) == ("recoverable", "not_started")


def test_closing_the_web_sessions_withdraws_the_jobs_no_worker_started(owner: Any, second_user: Any) -> None:
    from apps.sites.services import web_sessions_close

    mine, theirs = _job(owner, "open_page"), _job(second_user, "open_page")
    assert web_sessions_close(owner=owner).withdrawn == 1
    assert BrowserJob.objects.get(pk=mine.pk).outcome == "closed_by_user"
    assert BrowserJob.objects.get(pk=theirs.pk).status == "queued"


def test_a_step_asked_to_stop_tells_its_job(owner: Any, fixture_web: FixtureWeb) -> None:
    """The step's cancellation reaches the browser worker (which stops waiting for the user)."""
    if SERVICES_PASS:
        pytest.skip("the handler is registered in this process only")
    seen: list[bool] = []

    def waits_for_cancel(job: Any) -> dict[str, Any]:
        seen.append(job.cancelled.wait(30))
        return {"step": {"outcome": "empty", "summary": "stopped"}}

    register_browser_work("test_cancel", waits_for_cancel)
    context = ExecutionContext(owner=owner, turn_id=None, step_index=1)
    job = browser_job_submit(
        owner=owner, kind="test_cancel", params={}, websites=AuthorizedWebsites.of([fixture_web.site("basic").origin])
    )
    context.cancelled.set()
    finished = browser_job_wait(owner=owner, job_id=job.pk, cancelled=context.cancelled)
    assert finished.outcome == "completed" and seen == [True]


# --- services: a browser worker process of its own ------------------------------


@dataclass
class BrowserWorker:
    process: subprocess.Popen[bytes]
    hostname: str

    @property
    def family(self) -> set[int]:
        return process_descendants(self.process.pid)

    def kill(self) -> None:
        """``kill -9`` the worker and every process of its group (its pool, Playwright's driver)."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def browser_worker(background_worker: WorkerHandle) -> Iterator[BrowserWorker]:
    """A ``celery -A metnos_site worker -Q browser`` of this test's own; the harness's browser worker pauses."""
    if not SERVICES_PASS:
        pytest.skip("a browser worker process of its own belongs to the services pass")
    assert background_worker.browser_hostname is not None
    paused = background_worker.browser_hostname.replace("%h", os.uname().nodename)
    app.control.cancel_consumer(QUEUE_BROWSER, destination=[paused], reply=True, timeout=10)
    process, hostname = worker_process_start(
        connection.settings_dict["NAME"], queues=BROWSER_QUEUES, name="test-browser", concurrency=1, new_session=True
    )
    worker = BrowserWorker(process, hostname)
    try:
        worker_process_wait(hostname, process)
        yield worker
    finally:
        if process.poll() is None:
            process_stop(process)
        # The browsers a killed worker left behind, and their leases.
        for lease in BrowserSessionLease.objects.all():
            browser_kill(str(lease.token))
        BrowserSessionLease.objects.all().delete()
        app.control.add_consumer(QUEUE_BROWSER, destination=[paused], reply=True, timeout=10)


def test_a_sign_in_step_runs_on_the_browser_worker_not_the_turn_worker(
    owner: Any, background_worker: WorkerHandle, browser_worker: BrowserWorker, fixture_web: FixtureWeb
) -> None:
    site = _acme(owner, fixture_web, "signin-plain")
    turn = _finished(_sign_in_turn(owner, site))
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    job = BrowserJob.objects.get(owner=owner, kind="sign_in")
    assert job.outcome == "completed" and job.params["step"]["turn"] == turn.pk
    assert background_worker.pid is not None
    turn_workers = process_descendants(background_worker.pid)
    assert _pid(turn.conducted_by) in turn_workers  # the turn ran on the turn worker
    assert _pid(job.holder) in browser_worker.family  # its sign-in on the browser worker
    assert _pid(job.holder) != _pid(turn.conducted_by) and _pid(job.holder) not in turn_workers
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_a_browser_worker_killed_mid_sign_in_ends_the_step_interrupted_with_one_submission_at_most(
    owner: Any, background_worker: WorkerHandle, browser_worker: BrowserWorker, fixture_web: FixtureWeb
) -> None:
    # The site's server takes the credentials, then answers only 25 s later: the kill comes in between.
    site = _acme(owner, fixture_web, "signin-script")
    turn = _sign_in_turn(owner, site, "/login.html?slow=25000")
    assert wait_until(lambda: len(site.logins()) == 1, 120), "the credentials were never submitted"
    job = BrowserJob.objects.get(owner=owner, kind="sign_in")
    assert job.status == "running" and _pid(job.holder) in browser_worker.family
    browser_worker.kill()
    killed_at = time.monotonic()

    turn = _finished(turn, timeout=BROWSER_JOB_HEARTBEAT_TIMEOUT.total_seconds() + 60)
    noticed_after = time.monotonic() - killed_at
    step = StepRecord.objects.get(turn=turn, index=1)
    assert (step.outcome, step.error_class, step.error_code) == ("failed", "unknown", "interrupted")
    assert "unknown" in step.error_message
    assert turn.status == Turn.Status.FAILED  # truthfully: not a success, and said why
    assert BrowserJob.objects.get(pk=job.pk).outcome == "interrupted"
    assert noticed_after <= BROWSER_JOB_HEARTBEAT_TIMEOUT.total_seconds() + 15
    # Nobody submits again: not the dead worker's browser, not a retry, not the paused harness worker.
    time.sleep(3)
    assert len(site.logins()) == 1
    assert BrowserJob.objects.filter(owner=owner).count() == 1


def test_a_browser_worker_killed_while_its_verification_panel_is_open_closes_the_panel(
    owner: Any, background_worker: WorkerHandle, browser_worker: BrowserWorker, fixture_web: FixtureWeb
) -> None:
    site = _acme(owner, fixture_web, "signin-handoff")
    turn = _sign_in_turn(owner, site, "/login.html")
    assert wait_until(lambda: HandoffPanel.objects.filter(turn=turn, status="open").exists(), 120), "no panel"
    browser_worker.kill()

    turn = _finished(turn, timeout=BROWSER_JOB_HEARTBEAT_TIMEOUT.total_seconds() + 60)
    step = StepRecord.objects.get(turn=turn, index=1)
    assert (step.error_class, step.error_code) == ("unknown", "interrupted")
    panel = HandoffPanel.objects.get(turn=turn)
    assert (panel.status, panel.reason) == ("failed", "step_interrupted")  # nobody serves it any more
    assert site.logins() == []


def _chromium_processes(root: int) -> list[int]:
    found = []
    for pid in process_descendants(root) - {root}:
        try:
            name = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
        except OSError:
            continue
        if "chrom" in name.lower():
            found.append(pid)
    return found


def test_chromium_killed_mid_sign_in_ends_the_step_truthfully_and_the_worker_goes_on(
    owner: Any, background_worker: WorkerHandle, browser_worker: BrowserWorker, fixture_web: FixtureWeb,
    fault_table: Any,
) -> None:  # fmt: skip
    """The browser dies after the credentials were sent: the step fails saying so, nothing is sent again."""
    site = _acme(owner, fixture_web, "signin-script")
    turn = _sign_in_turn(owner, site, "/login.html?slow=25000")
    assert wait_until(lambda: len(site.logins()) == 1, 120), "the credentials were never submitted"
    browsers = _chromium_processes(browser_worker.process.pid)
    assert browsers, "no Chromium under the browser worker"
    killed_at = time.monotonic()
    for pid in browsers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    turn = _finished(turn, timeout=120)
    step = StepRecord.objects.get(turn=turn, index=1)
    assert step.outcome == StepRecord.Outcome.FAILED and turn.status != Turn.Status.COMPLETED
    assert step.error_message  # says why, in words
    time.sleep(3)
    assert len(site.logins()) == 1  # nobody submitted again
    assert BrowserJob.objects.filter(owner=owner).count() == 1
    assert browser_worker.process.poll() is None  # the worker survives its browser
    assert wait_until(lambda: not BrowserSessionLease.objects.filter(owner=owner).exists(), 30)  # its slot is free
    fault_table("Chromium killed mid-sign-in (after the credentials were sent)",
                f"step failed ({step.error_class}/{step.error_code}), one submission, worker alive",
                time.monotonic() - killed_at)  # fmt: skip


def test_chromium_killed_mid_collection_ends_the_step_honestly_and_the_worker_goes_on(
    owner: Any, background_worker: WorkerHandle, browser_worker: BrowserWorker, fixture_web: FixtureWeb,
    fault_table: Any,
) -> None:  # fmt: skip
    """The browser dies while a 50-page archive is being read: the step is not a success, the worker goes on."""
    site = fixture_web.fresh("collect-archive")
    plan = {
        "steps": [{"tool": "collect_site_records", "args": {"url": site.url("/?page=1&of=50"), "what": "all bills"}}]
    }
    turn = turn_submit(owner=owner, text="collect all bills", plan=plan)
    # Each page of the archive is a load of "/" (its number is in the query the log leaves out).
    assert wait_until(lambda: site.requests().count(("GET", "/")) >= 3, 120), "the walk never began"
    browsers = _chromium_processes(browser_worker.process.pid)
    assert browsers, "no Chromium under the browser worker"
    killed_at = time.monotonic()
    for pid in browsers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    turn = _finished(turn, timeout=120)
    step = StepRecord.objects.get(turn=turn, index=1)
    assert step.outcome in (StepRecord.Outcome.FAILED, StepRecord.Outcome.PARTIAL), (step.outcome, step.summary)
    assert turn.status != Turn.Status.COMPLETED
    assert browser_worker.process.poll() is None
    assert wait_until(lambda: not BrowserSessionLease.objects.filter(owner=owner).exists(), 30)
    fault_table("Chromium killed mid-collection (50-page archive)",
                f"step {step.outcome} ({step.error_code or 'partial'}), worker alive, slot free",
                time.monotonic() - killed_at)  # fmt: skip
