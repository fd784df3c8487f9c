"""Shared fixtures: the test cast, API clients and the background worker.

The same suite runs in two passes (see the Makefile): embedded (SQLite,
in-memory channel layer, in-process worker) and services (PostgreSQL, Redis,
channels-redis and a real ``celery worker`` process started here and stopped
by its own PID).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.accounts.models import User

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


def _start_worker_process(database_name: str) -> tuple[subprocess.Popen[bytes], str]:
    from django.db import connection

    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database_name}"
    )
    env["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    env["METNOS_EMBEDDED_WORKER"] = "false"
    hostname = f"pytest-{uuid.uuid4().hex[:8]}@%h"
    command = [
        sys.executable, "-m", "celery", "-A", "metnos_site", "worker",
        "-Q", "default,browser,batch", "-c", "2", "-n", hostname,
        "--without-mingle", "--without-gossip", "-l", "WARNING",
    ]  # fmt: skip
    log = open(Path(settings.DATA_DIR) / "celery-worker.log", "wb")  # noqa: SIM115 - lives with the process
    process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return process, hostname


def _wait_for_worker(hostname: str, process: subprocess.Popen[bytes] | None) -> None:
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

        worker = start_embedded_worker(concurrency=2)
        yield WorkerHandle(kind="embedded", hostname=worker.hostname)
        return
    from django.db import connection

    process, hostname = _start_worker_process(connection.settings_dict["NAME"])
    try:
        _wait_for_worker(hostname, process)
        yield WorkerHandle(kind="process", hostname=hostname, pid=process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


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
