"""The fault suite's own services: a Redis per test, real worker and server processes, and the table of faults.

Each test starts what it breaks — its own ``redis-server`` on a free port,
a ``celery worker`` and a ``daphne`` server that use it — and never touches
the machine's shared services. The database is the services pass's test
database (the tests are transactional, so the processes see their rows).
Each test records the fault it injected and the outcome it observed with
the ``fault_table`` fixture (``tests/conftest.py``), printed at the end of
the run.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import REPO_ROOT, SERVICES_PASS, _database_url_for_children, _free_port, process_stop

pytestmark = pytest.mark.services

READY_SECONDS = 60


def wait_for(condition: Callable[[], bool], timeout: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


@dataclass
class RedisServer:
    """A ``redis-server`` of this test alone, on a free port, without persistence (as the shared one)."""

    folder: Path
    port: int = field(default_factory=_free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            "redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(self.folder),
        ]  # fmt: skip
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - lives with the process
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        if not wait_for(self.answers, READY_SECONDS):
            raise RuntimeError("the test's redis-server did not start")

    def answers(self) -> bool:
        result = subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True, timeout=5, check=False
        )
        return result.stdout.strip() == "PONG"

    def stop(self) -> None:
        """Stop it at once, losing every queued message (no persistence)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if not SERVICES_PASS:
        pytest.skip("the fault suite runs in the services pass")
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (scripts/ensure-system-packages installs it)")
    server = RedisServer(folder=tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def fault_environment(redis: RedisServer, prefix: str, **extra: str) -> dict[str, str]:
    """The environment of a process of the faulty stack: the pass's database, the test's own Redis."""
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DJANGO_SETTINGS_MODULE="tests.settings",
        DATABASE_URL=_database_url_for_children(),
        REDIS_URL=redis.url,
        METNOS_CHANNEL_PREFIX=prefix,  # the same for the stack's server and worker: events cross between them
        METNOS_EMBEDDED_WORKER="false",
        # Fast enough for a test: relay every second, send again what is not started after three.
        METNOS_OUTBOX_RELAY_SECONDS="1",
        METNOS_OUTBOX_RESEND_SECONDS="3",
    )
    env.update(extra)  # a test's own database, say
    return env


@dataclass
class Stack:
    """A worker and a server on the test's Redis."""

    redis: RedisServer
    folder: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    url: str = ""
    prefix: str = field(default_factory=lambda: f"metnos-fault-{uuid.uuid4().hex[:8]}")

    def start_worker(
        self,
        queues: str = "default,browser,batch",
        *,
        probe_executors: bool = False,
        database_url: str = "",
        name: str = "worker",
        beat: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        """Start a worker process named ``name`` (with ``beat``, it also runs the periodic schedule)."""
        command = [
            sys.executable, "-m", "celery", "-A", "metnos_site", "worker", "-Q", queues, "-c", "2",
            "-n", f"fault-{uuid.uuid4().hex[:8]}@%h", "--without-mingle", "--without-gossip", "-l", "WARNING",
        ]  # fmt: skip
        if beat:
            command += ["--beat", "--schedule", str(self.folder / f"{name}-beat-schedule")]
        extra = {"METNOS_TEST_PROBE_EXECUTORS": "true"} if probe_executors else {}
        if database_url:
            extra["DATABASE_URL"] = database_url
        self.processes[name] = self._spawn(name, command, **extra, **(env or {}))

    def start_server(self) -> None:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "metnos_site.asgi:application"]
        self.processes["server"] = self._spawn("server", command, METNOS_PUBLIC_URL=self.url)
        if not wait_for(self._healthy, READY_SECONDS, step=0.2):
            raise RuntimeError(f"daphne did not start; see {self.folder / 'server.log'}")

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def kill_worker(self, name: str = "worker") -> None:
        """``kill -9`` the worker and its pool's children, as a machine losing it would."""
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def _spawn(self, name: str, command: list[str], **extra: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 - lives with the process
        return subprocess.Popen(
            command, cwd=REPO_ROOT, env=fault_environment(self.redis, self.prefix, **extra), stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        for process in self.processes.values():
            process_stop(process)


@pytest.fixture
def stack(redis_server: RedisServer, tmp_path: Path) -> Iterator[Stack]:
    running = Stack(redis=redis_server, folder=tmp_path)
    try:
        yield running
    finally:
        running.stop()


def data_dir() -> Path:
    return Path(settings.DATA_DIR)


@dataclass
class PostgresCluster:
    """A PostgreSQL cluster of this test alone (initdb'd, on a free port), to restart at will."""

    folder: Path
    port: int = field(default_factory=_free_port)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/metnos"

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        command = [str(_pg_bin("pg_ctl")), "-D", str(self.folder / "data"), "-l", str(self.folder / "postgres.log"),
                   "-o", options, "-w", *args]  # fmt: skip
        _as_postgres(command)

    def create(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        _as_postgres([str(_pg_bin("initdb")), "-D", str(self.folder / "data"), "-A", "trust", "-U", "postgres"])
        self._ctl("start")
        _as_postgres([str(_pg_bin("createdb")), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "metnos"])

    def restart(self) -> None:
        """A fast restart: every open connection is cut, as a crash or a failover would."""
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self._ctl("-m", "immediate", "stop")


def _pg_bin(name: str) -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not found:
        pytest.skip(f"PostgreSQL's {name} is not installed here")
    return found[-1]


def _as_postgres(command: list[str]) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)


@pytest.fixture
def postgres_cluster() -> Iterator[PostgresCluster]:
    if not SERVICES_PASS:
        pytest.skip("the fault suite runs in the services pass")
    # Not under pytest's tmp_path: the postgres user must reach the folder.
    folder = Path(tempfile.mkdtemp(prefix="metnos-fault-pg-"))
    cluster = PostgresCluster(folder=folder)
    try:
        cluster.create()
        yield cluster
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
