"""Browser sessions: eight at most, a bounded visible queue, typed endings, per-owner data.

Real Chromium against the fixture web; sessions run in threads here as they
would in worker threads or processes (the cap lives in the database).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from apps.sites.browser.data import STATE_FILE, owner_data_dir
from apps.sites.browser.processes import browser_kill, live_session_tokens
from apps.sites.browser.sessions import BrowserSession, SessionEnded, browser_session
from apps.sites.browser.slots import SessionRefused, lease_request, lease_try_claim
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import MAX_CONCURRENT_BROWSER_SESSIONS
from apps.sites.models import BrowserSessionLease
from tests.sites.fixture_web import FixtureSite, FixtureWeb

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]

SESSION_REQUESTS = 20


@pytest.fixture
def basic(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("basic")


@pytest.fixture
def storage(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("session-storage")


def our_browsers() -> set[str]:
    """Sessions whose Chromium runs under this test process (other test runs may share the machine)."""
    return live_session_tokens(descendants_of=os.getpid())


def in_thread(work: Callable[[], Any]) -> Callable[[], Any]:
    """``work`` for a thread of its own, closing that thread's database connection after."""

    def run() -> Any:
        try:
            return work()
        finally:
            connection.close()

    return run


def hold_slots(owner: Any, count: int) -> list[BrowserSessionLease]:
    """Occupy ``count`` slots the way running sessions of other workers would."""
    held = []
    for _ in range(count):
        lease = lease_request(owner=owner)
        assert lease_try_claim(token=lease.token).slot is not None
        held.append(lease)
    return held


def test_twenty_concurrent_requests_never_run_more_than_eight_browsers(
    owner: Any, second_user: Any, basic: FixtureSite
) -> None:
    outcomes: list[str] = []
    positions: list[int] = []
    peak = 0
    lock = threading.Lock()
    sampling, filled = threading.Event(), threading.Event()

    def sample() -> None:
        nonlocal peak
        while not sampling.is_set():
            alive = len(our_browsers())
            with lock:
                peak = max(peak, alive)
            if alive >= MAX_CONCURRENT_BROWSER_SESSIONS:
                filled.set()
            time.sleep(0.05)

    def request(user: Any) -> None:
        def queued(position: int) -> None:
            with lock:
                positions.append(position)

        try:
            websites = AuthorizedWebsites.of([basic.origin])
            with browser_session(owner=user, websites=websites, on_queue=queued) as session:
                session.goto(basic.url("/"))
                session.page.wait_for_selector("#bills li:nth-child(2)")
                # The first eight stay until all eight browsers run at once (on a
                # loaded machine they would otherwise barely overlap).
                give_up = time.monotonic() + 60
                while not filled.is_set() and time.monotonic() < give_up:
                    session.page.wait_for_timeout(100)
            answer: str = session.outcome or "none"
        except (SessionRefused, SessionEnded) as refused:
            answer = f"refused:{refused}"
        with lock:
            outcomes.append(answer)

    sampler = threading.Thread(target=sample)
    sampler.start()
    # The same user's requests count too: both users share the eight browsers.
    users = [owner if index % 2 else second_user for index in range(SESSION_REQUESTS)]
    threads = [threading.Thread(target=in_thread(functools.partial(request, user))) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    sampling.set()
    sampler.join()

    assert outcomes == ["completed"] * SESSION_REQUESTS  # none lost, each answered
    assert peak <= MAX_CONCURRENT_BROWSER_SESSIONS, peak
    assert peak == MAX_CONCURRENT_BROWSER_SESSIONS, "the test never filled the eight browsers"
    assert max(positions) >= SESSION_REQUESTS - MAX_CONCURRENT_BROWSER_SESSIONS - 1  # the queue was visible
    assert ("GET", "/basic.js") in basic.requests()
    assert not BrowserSessionLease.objects.exists()
    assert our_browsers() == set()  # every browser exited before its slot was freed


def test_a_full_queue_is_refused_at_once(owner: Any, second_user: Any, settings: Any) -> None:
    settings.METNOS_SITES_QUEUE_LENGTH = 0
    hold_slots(second_user, MAX_CONCURRENT_BROWSER_SESSIONS)
    started = time.monotonic()
    with pytest.raises(SessionRefused) as refused, browser_session(owner=owner, websites=AuthorizedWebsites.of([])):
        pass
    assert refused.value.reason == "queue_full"
    assert time.monotonic() - started < 2
    assert BrowserSessionLease.objects.filter(owner=owner).count() == 0


def test_waiting_past_the_deadline_is_a_typed_refusal(owner: Any, second_user: Any) -> None:
    hold_slots(second_user, MAX_CONCURRENT_BROWSER_SESSIONS)
    deadline = timezone.now() + dt.timedelta(seconds=1)
    with (
        pytest.raises(SessionRefused) as refused,
        browser_session(owner=owner, websites=AuthorizedWebsites.of([]), deadline=deadline),
    ):
        pass
    assert refused.value.reason == "queue_timeout"
    assert BrowserSessionLease.objects.filter(owner=owner).count() == 0


def test_the_queue_position_is_visible_over_rest(owner: Any, second_user: Any, basic: FixtureSite) -> None:
    from tests.conftest import api_client_for

    held = hold_slots(second_user, MAX_CONCURRENT_BROWSER_SESSIONS)
    outcome: list[str] = []

    def request() -> None:
        with browser_session(owner=owner, websites=AuthorizedWebsites.of([basic.origin])) as session:
            session.goto(basic.url("/"))
        outcome.append(str(session.outcome))

    waiting = threading.Thread(target=in_thread(request))
    waiting.start()
    client = api_client_for(owner)
    listed = wait_for(lambda: client.get("/api/v1/web-sessions/").json()["results"])
    assert [(item["state"], item["position"]) for item in listed] == [("waiting", 1)]
    assert client.get("/api/v1/web-sessions/").json()["results"] == listed
    assert api_client_for(second_user).get(f"/api/v1/web-sessions/{listed[0]['id']}/").status_code == 404

    held[0].delete()  # a slot frees up
    waiting.join(timeout=60)
    assert outcome == ["completed"]


def test_an_expired_lease_of_a_dead_worker_frees_its_slot(owner: Any, second_user: Any, basic: FixtureSite) -> None:
    held = hold_slots(second_user, MAX_CONCURRENT_BROWSER_SESSIONS)
    BrowserSessionLease.objects.filter(pk=held[0].pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    deadline = timezone.now() + dt.timedelta(seconds=20)
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([basic.origin]), deadline=deadline) as session:
        session.goto(basic.url("/"))
    assert session.outcome == "completed"


def wait_for(read: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = read()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("nothing appeared in time")


def open_storage_page(owner: Any, storage: FixtureSite, query: str = "") -> tuple[str, str]:
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([storage.origin])) as session:
        session.goto(storage.url("/" + query))
        return session.page.text_content("#cookie") or "", session.page.text_content("#stored") or ""


def test_browser_data_persists_per_owner_and_stays_private(owner: Any, second_user: Any, storage: FixtureSite) -> None:
    assert open_storage_page(owner, storage, "?set=alpha") == ("alpha", "alpha")
    assert open_storage_page(owner, storage) == ("alpha", "alpha")
    assert open_storage_page(second_user, storage) == ("none", "none")

    folder = owner_data_dir(owner.pk)
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / STATE_FILE).stat().st_mode & 0o777 == 0o600
    assert b"alpha" not in (folder / STATE_FILE).read_bytes()  # encrypted at rest


@pytest.fixture
def running_session(owner: Any, storage: FixtureSite) -> Iterator[dict[str, Any]]:
    """The owner's session in a thread, idling in the browser until it is told or made to end."""
    report: dict[str, Any] = {"started": threading.Event()}

    def run() -> None:
        try:
            with browser_session(owner=owner, websites=AuthorizedWebsites.of([storage.origin])) as session:
                report["session"] = session
                session.goto(storage.url("/?set=kept"))
                report["started"].set()
                idle_until_ended(session)
        except SessionEnded as ended:
            report["raised"] = ended.outcome
        report["outcome"] = report["session"].outcome

    thread = threading.Thread(target=in_thread(run))
    thread.start()
    assert report["started"].wait(60)
    yield report
    thread.join(timeout=60)
    assert not thread.is_alive()


def idle_until_ended(session: BrowserSession, seconds: float = 45) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        session.ensure_running()
        session.page.wait_for_timeout(100)


def test_closing_the_web_sessions_ends_only_that_owners_sessions_and_keeps_their_data(
    owner: Any, second_user: Any, storage: FixtureSite, running_session: dict[str, Any], basic: FixtureSite
) -> None:
    from tests.conftest import api_client_for

    other: list[str] = []

    def other_owner() -> None:
        with browser_session(owner=second_user, websites=AuthorizedWebsites.of([basic.origin])) as session:
            session.goto(basic.url("/"))
            session.page.wait_for_timeout(3000)
        other.append(str(session.outcome))

    other_thread = threading.Thread(target=in_thread(other_owner))
    other_thread.start()
    answer = api_client_for(owner).post("/api/v1/web-sessions/close/")
    assert answer.status_code == 200 and answer.json() == {"ended": 1, "withdrawn": 0}
    wait_for(lambda: "outcome" in running_session)
    assert running_session["raised"] == running_session["outcome"] == "closed_by_user"
    other_thread.join(timeout=60)
    assert other == ["completed"]
    # Website data is kept: the cookie set before closing is there next time.
    assert open_storage_page(owner, storage) == ("kept", "kept")


def test_a_crashed_browser_ends_its_session_with_a_typed_outcome(running_session: dict[str, Any]) -> None:
    session: BrowserSession = running_session["session"]
    assert browser_kill(session.token) >= 1
    wait_for(lambda: "outcome" in running_session)
    assert running_session["raised"] == running_session["outcome"] == "browser_crashed"
    wait_for(lambda: not BrowserSessionLease.objects.exists())


def test_a_session_ends_at_its_deadline(owner: Any, basic: FixtureSite) -> None:
    deadline = timezone.now() + dt.timedelta(seconds=3)
    with (
        pytest.raises(SessionEnded) as ended,
        browser_session(owner=owner, websites=AuthorizedWebsites.of([basic.origin]), deadline=deadline) as session,
    ):
        session.goto(basic.url("/"))
        idle_until_ended(session, seconds=20)
    assert ended.value.outcome == session.outcome == "deadline_exceeded"


def test_a_session_that_lost_its_slot_has_its_browser_ended(running_session: dict[str, Any]) -> None:
    session: BrowserSession = running_session["session"]
    BrowserSessionLease.objects.filter(token=session.token).delete()  # e.g. expired while the worker stalled
    wait_for(lambda: "outcome" in running_session, timeout=20)
    assert running_session["outcome"] == "lease_lost"
    assert session.token not in our_browsers()
