"""Shared fixtures: the test cast, API clients and the background worker.

The same suite runs in two passes (see the Makefile): embedded (SQLite,
in-memory channel layer, in-process worker with its browser lane) and
services (PostgreSQL, Redis, channels-redis and real ``celery worker``
processes started here and stopped by their own PIDs: one for the
``default`` and ``batch`` queues, one for ``browser``, as in production).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.accounts.models import User

pytest_plugins = ["tests.model_server", "tests.failed_tests"]

REPO_ROOT = Path(__file__).resolve().parent.parent
SERVICES_PASS = not settings.EMBEDDED_SERVICES
WORKER_READY_TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class Cast:
    """The fixed cast every tenancy test uses."""

    owner: User
    second_user: User
    operator: User
    superuser: User


@pytest.fixture
def cast(db: None) -> Cast:
    return Cast(
        owner=User.objects.create_user("owner", password="owner-password-1"),
        second_user=User.objects.create_user("second", password="second-password-1"),
        operator=User.objects.create_user("operator", password="operator-password-1", is_staff=True),
        superuser=User.objects.create_superuser("root", password="root-password-1"),
    )


@pytest.fixture
def owner(cast: Cast) -> User:
    return cast.owner


@pytest.fixture
def second_user(cast: Cast) -> User:
    return cast.second_user


@pytest.fixture
def operator(cast: Cast) -> User:
    return cast.operator


@pytest.fixture
def outsider() -> APIClient:
    """An unauthenticated client: someone with no account at all."""
    return APIClient()


def api_client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


# --- The background worker -------------------------------------------------


@dataclass
class WorkerHandle:
    kind: str
    hostname: str
    pid: int | None = None
    # The services pass's browser worker (the embedded pass has its lane in this process).
    browser_hostname: str | None = None
    browser_pid: int | None = None


TURN_QUEUES = "default,batch"
BROWSER_QUEUES = "browser"


def worker_process_start(
    database_name: str, *, queues: str, name: str = "pytest", concurrency: int = 2, new_session: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    """A ``celery worker`` process for ``queues`` on this pass's database and Redis; its hostname."""
    from django.db import connection

    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database_name}"
    )
    env["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    env["METNOS_EMBEDDED_WORKER"] = "false"
    hostname = f"{name}-{uuid.uuid4().hex[:8]}@%h"
    command = [
        sys.executable, "-m", "celery", "-A", "metnos_site", "worker",
        "-Q", queues, "-c", str(concurrency), "-n", hostname,
        "--without-mingle", "--without-gossip", "-l", "WARNING",
    ]  # fmt: skip
    log = open(Path(settings.DATA_DIR) / f"celery-{name}.log", "wb")  # noqa: SIM115 - lives with the process
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=new_session
    )
    return process, hostname


def process_stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process this session started (by its own PID), by force if it lingers."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def worker_process_wait(hostname: str, process: subprocess.Popen[bytes] | None) -> None:
    from metnos_site.celery import app

    expanded = hostname.replace("%h", os.uname().nodename)
    deadline = time.monotonic() + WORKER_READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"celery worker exited early with code {process.returncode}")
        if app.control.ping(destination=[expanded], timeout=0.5):
            return
    raise RuntimeError("celery worker did not answer in time")


@pytest.fixture(scope="session")
def background_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[WorkerHandle]:
    """A real worker: in-process in the embedded pass, a process in the services pass."""
    if not SERVICES_PASS:
        from apps.core.embedded_worker import start_embedded_worker
        from metnos_site.celery import app

        # Earlier tests in this process enqueued work no worker took; their rows are gone.
        app.control.purge()
        # The schedule's entries are applied by the tests that test them, never mid-way through another test.
        worker = start_embedded_worker(concurrency=2, schedule=False)
        yield WorkerHandle(kind="embedded", hostname=worker.hostname)
        return
    from django.db import connection

    name = connection.settings_dict["NAME"]
    process, hostname = worker_process_start(name, queues=TURN_QUEUES)
    browser, browser_hostname = worker_process_start(name, queues=BROWSER_QUEUES, name="pytest-browser")
    try:
        worker_process_wait(hostname, process)
        worker_process_wait(browser_hostname, browser)
        yield WorkerHandle(
            kind="process", hostname=hostname, pid=process.pid, browser_hostname=browser_hostname,
            browser_pid=browser.pid,
        )  # fmt: skip
    finally:
        process_stop(process)
        process_stop(browser)


@pytest.fixture(scope="session", autouse=True)
def _clean_redis_test_database() -> None:
    """Start the services pass from an empty Redis test database (never db 0)."""
    if not SERVICES_PASS or os.environ.get("METNOS_TEST_FLUSH_REDIS") != "true":
        return
    import redis

    assert settings.REDIS_URL is not None
    client = redis.Redis.from_url(settings.REDIS_URL)
    if int(client.connection_pool.connection_kwargs.get("db", 0)) == 0:
        raise RuntimeError("refusing to flush Redis database 0 for tests")
    client.flushdb()


# --- A real portal server (daphne) and a real browser ------------------------


@dataclass(frozen=True)
class PortalServer:
    url: str
    pid: int


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _database_url_for_children() -> str:
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    return f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def portal_server(django_db_setup: None, background_worker: WorkerHandle) -> Iterator[PortalServer]:
    """daphne serving the project over HTTP and WebSocket, as in production."""
    import urllib.request

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server must keep Django's async-safety checks
    env.update(
        DJANGO_SETTINGS_MODULE="tests.settings",
        DATABASE_URL=_database_url_for_children(),
        METNOS_PUBLIC_URL=url,
        # Embedded pass: the server runs its own in-process worker, as `make run` does.
        METNOS_EMBEDDED_WORKER="false" if SERVICES_PASS else "true",
    )
    log = open(Path(settings.DATA_DIR) / "daphne.log", "wb")  # noqa: SIM115 - lives with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "metnos_site.asgi:application"],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited with {process.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield PortalServer(url=url, pid=process.pid)
    finally:
        process_stop(process)


CHROMIUM_EXECUTABLE = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _is_loopback(url: str) -> bool:
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname or ""
    return host in {"127.0.0.1", "localhost", "::1"} or host.startswith("127.")


# Module scope: sync Playwright runs an event loop in this thread while open,
# which would break the asyncio tests of other modules.
@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from apps.sites.browser.executable import find_browser_executable

    executable = find_browser_executable()
    if executable is None:
        pytest.fail("Chromium is not installed (scripts/ensure-system-packages installs it)")
    # Sync Playwright keeps an event loop running in this thread, which makes
    # Django refuse ORM calls from the (synchronous) tests; the test thread is
    # not actually async, so allow them here only.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def browser_page(chromium: Any) -> Iterator[Any]:
    """A fresh browser context whose requests may reach only this machine."""
    context = chromium.new_context()
    context.route("**/*", lambda route: route.continue_() if _is_loopback(route.request.url) else route.abort())
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session", autouse=True)
def _release_database_sessions(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Before the test database is dropped, end sessions left open.

    Async tests run ORM calls in executor threads whose connections outlive
    them (and the worker and server processes may leave sessions behind).
    PostgreSQL refuses to drop a database that still has sessions.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    # A run whose tests use no database (a rerun of a few) never created the test database.
    creation: Any = connection.creation  # its test-name rule (Django's own, not public)
    if connection.settings_dict["NAME"] != creation._get_test_db_name():
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


# --- The table of injected faults (tests/faults/, and browser faults in tests/sites) -------------


@dataclass
class FaultOutcome:
    fault: str
    outcome: str
    seconds: float


_fault_rows: list[FaultOutcome] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _fault_rows:
        return
    terminalreporter.section("faults injected and outcomes observed")
    width = max(len(row.fault) for row in _fault_rows)
    for row in _fault_rows:
        terminalreporter.write_line(f"{row.fault:<{width}}  {row.seconds:6.1f} s  {row.outcome}")


@pytest.fixture
def fault_table() -> Callable[[str, str, float], None]:
    """Record one injected fault and what was observed, for the table printed at the end of the run."""

    def record(fault: str, outcome: str, seconds: float) -> None:
        _fault_rows.append(FaultOutcome(fault, outcome, seconds))

    return record
