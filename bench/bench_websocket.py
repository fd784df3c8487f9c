"""Benchmark live progress: 200 open browsers of one user receiving each step event (Redis layer).

Run: ``cd /work/main && .venv/bin/python bench/bench_websocket.py``
(needs Redis on 127.0.0.1:6379; database 14 is used, under a key prefix of
this run only, and those keys are deleted at the end).

Target (issue 4, "Performance"): with the Redis channel layer, 200 connected
WebSocket clients of one user receive each step event with a p95 latency
under 100 ms.

Three processes, as in production:

* **the publisher** (this script with ``--publisher``, like a Celery worker):
  sets up Django on a temporary data folder and SQLite database
  (``bench/_setup.py``) with ``REDIS_URL`` and a channel prefix of this run,
  creates the user and a signed-in session, then publishes
  ``turn.step_finished`` events with ``apps.core.events.publish_to_user`` —
  the publisher workers and views use — when told to;
* **daphne** serving ``metnos_site.asgi:application`` on a free loopback
  port, with the same database, Redis and prefix (channels-redis);
* **the browsers** (this process): lean asyncio WebSocket clients
  (``bench/_websocket_client.py``: the RFC 6455 handshake with its accept
  key checked, unmasked server frames, pings, a masked close), each
  sending the session cookie and the site's Origin to ``/ws/events/``, so
  every connection passes the real stack (Origin check, session
  authentication, the user's group). Real browsers sit on other machines;
  here the clients share the two cores with the server, so their own cost
  per message counts in every latency and is kept small. A protocol error
  from the server counts as an unexpected message.

Each event carries the moment (``CLOCK_MONOTONIC``, shared by the processes)
it was handed to ``publish_to_user``; a client's latency is the time from
then until the event arrives and is decoded. Events go one at a time: the
next is published once every client has the previous one (or after a
timeout), so latencies do not queue behind each other — step events of a
turn are spread by the steps' own work. Every client must receive every
event: the count printed must be clients x events.

Baseline, measured in the same run against the same server: a single
connected client receiving the same number of events. The ratio says what
fanning out to 200 browsers adds. The CPU time daphne and the clients spend
per event (from ``/proc``) is printed too: unlike wall-clock latency it
hardly moves with other people's load on the machine. Everything started here — the processes,
the connections, the Redis keys, the temporary folder — is stopped and
removed at the end, daphne and the publisher by their own PIDs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from _setup import REPO_ROOT, benchmark_environment, percentile, verdict
from _websocket_client import LeanClient

TARGET_SECONDS = 0.100
CLIENTS, EVENTS, BASELINE_EVENTS = 200, 40, 40
EVENT_TIMEOUT_SECONDS = 5.0
PAUSE_SECONDS = 0.02
CONNECT_CONCURRENCY = 20
REDIS_URL = "redis://127.0.0.1:6379/14"


def _environment(prefix: str) -> Any:
    def variables(data_dir: Path) -> dict[str, str]:
        return {
            "DATABASE_URL": f"sqlite:///{data_dir / 'bench.sqlite3'}",
            "REDIS_URL": REDIS_URL,
            "METNOS_CHANNEL_PREFIX": prefix,
            "METNOS_CACHE_PREFIX": prefix,
        }

    return variables


# --- the publisher process (Django) --------------------------------------------


def publisher(prefix: str) -> int:
    """Set up Django, sign a user in, then publish one event per ``publish N`` line on stdin."""
    from _setup import django_for_benchmark

    with django_for_benchmark(_environment(prefix)) as data_dir:
        from django.conf import settings
        from django.test import Client

        from apps.accounts.models import User
        from apps.core.events import TurnEvent, publish_to_user

        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
        owner = User.objects.create_user(username="bench-owner", password="bench-password-1234")  # noqa: S106
        browser = Client()
        browser.force_login(owner)
        cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
        _reply({"data_dir": str(data_dir), "cookie": cookie})
        for line in sys.stdin:
            command, _, argument = line.strip().partition(" ")
            if command != "publish":
                break
            began = time.monotonic()
            event: Mapping[str, Any] = {
                "type": "turn.step_finished", "turn_id": 1, "conversation_id": 1, "step": int(argument),
                "tool": "find_files", "outcome": "success", "summary": repr(began), "files": [],
            }  # fmt: skip
            publish_to_user(owner.pk, cast(TurnEvent, event))
            _reply({"published": int(argument), "seconds": time.monotonic() - began})
    return 0


def _reply(message: Mapping[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# --- the browsers (this process, no Django) --------------------------------------


@dataclass
class Arrivals:
    """What every client received: latencies, and how many clients have event N."""

    expected: int = 0
    latencies: list[float] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    complete: dict[int, asyncio.Event] = field(default_factory=dict)
    wrong: int = 0

    def arrived(self, payload: bytes, now: float) -> None:
        event = json.loads(payload)
        number = event.get("step")
        if event.get("type") != "turn.step_finished" or number not in self.complete:
            self.wrong += 1
            return
        self.latencies.append(now - float(event["summary"]))
        self.counts[number] += 1
        if self.counts[number] == self.expected:
            self.complete[number].set()


@dataclass
class Round:
    clients: int
    events: int
    latencies: list[float]
    received: int
    wrong: int
    publish_seconds: list[float]
    server_cpu_seconds: float  # daphne's CPU time over the round (user + system)
    client_cpu_seconds: float  # this process's


def _process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far, from ``/proc`` (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Bench:
    def __init__(self, port: int, cookie: str, publisher: asyncio.subprocess.Process, server_pid: int) -> None:
        self.port, self.cookie, self.publisher, self.arrivals = port, cookie, publisher, Arrivals()
        self.server_pid = server_pid
        self.clients: list[LeanClient] = []

    def _client(self) -> LeanClient:
        return LeanClient(
            host=f"127.0.0.1:{self.port}", path="/ws/events/", origin=f"http://127.0.0.1:{self.port}",
            cookie=self.cookie, on_text=self.arrivals.arrived,
        )  # fmt: skip

    async def connect(self, count: int) -> None:
        loop = asyncio.get_running_loop()
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one() -> LeanClient:
            async with gate:
                _, client = await loop.create_connection(self._client, "127.0.0.1", self.port)
                await asyncio.wait_for(client.opened, timeout=10)
                return client

        self.clients += await asyncio.gather(*(one() for _ in range(count)))

    async def publish(self, number: int) -> float:
        assert self.publisher.stdin is not None and self.publisher.stdout is not None
        self.publisher.stdin.write(f"publish {number}\n".encode())
        await self.publisher.stdin.drain()
        answer = json.loads(await self.publisher.stdout.readline())
        return float(answer["seconds"])

    async def round(self, events: int) -> Round:
        arrivals = self.arrivals
        arrivals.expected, arrivals.latencies, arrivals.counts, arrivals.complete = len(self.clients), [], {}, {}
        arrivals.wrong = 0
        publish_seconds = []
        server_cpu, client_cpu = _process_cpu_seconds(self.server_pid), time.process_time()
        for number in range(1, events + 1):
            arrivals.counts[number] = 0
            arrivals.complete[number] = asyncio.Event()
            publish_seconds.append(await self.publish(number))
            with contextlib.suppress(TimeoutError):  # a missing event is counted, not waited for
                await asyncio.wait_for(arrivals.complete[number].wait(), EVENT_TIMEOUT_SECONDS)
            await asyncio.sleep(PAUSE_SECONDS)
        await asyncio.sleep(0.2)  # late arrivals still count
        server_cpu = _process_cpu_seconds(self.server_pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        received = sum(arrivals.counts.values())
        wrong = arrivals.wrong + sum(client.violations for client in self.clients)
        latencies = list(arrivals.latencies)
        return Round(len(self.clients), events, latencies, received, wrong, publish_seconds, server_cpu, client_cpu)

    async def close(self) -> None:
        for client in self.clients:
            client.close()
        if self.clients:
            await asyncio.wait([client.closed for client in self.clients], timeout=20)
        for client in self.clients:
            client.abort()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _wait_for_http(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    request = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited with {server.returncode}:\n{log.read_text()}")
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            status = await reader.readline()
            writer.close()
            if b" 200 " in status:
                return
        except OSError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError("daphne did not answer /healthz within 30 s")


def _stop(process: subprocess.Popen[bytes] | asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        try:
            os.kill(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        waited = time.monotonic() + 10
        while time.monotonic() < waited:
            try:
                if os.waitpid(process.pid, os.WNOHANG) != (0, 0):
                    return
            except ChildProcessError:
                return
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)


def _delete_keys(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


async def measure(prefix: str) -> tuple[Round, Round, int]:
    publisher_process = await asyncio.create_subprocess_exec(
        sys.executable, os.path.abspath(__file__), "--publisher", prefix,
        cwd=REPO_ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    server: subprocess.Popen[bytes] | None = None
    bench: Bench | None = None
    try:
        assert publisher_process.stdout is not None
        first_line = await asyncio.wait_for(publisher_process.stdout.readline(), 60)
        if not first_line:
            raise RuntimeError("the publisher process stopped before signing in (its error is printed above)")
        started = json.loads(first_line)
        data_dir = Path(started["data_dir"])
        port = _free_port()
        log = data_dir / "daphne.log"
        with log.open("wb") as output:
            server = subprocess.Popen(  # noqa: S603
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "metnos_site.asgi:application"],
                cwd=REPO_ROOT, stdout=output, stderr=subprocess.STDOUT,
                # The socket accepts pages of the portal's own origin only: this server's.
                env=benchmark_environment(
                    data_dir, {**_environment(prefix)(data_dir), "METNOS_PUBLIC_URL": f"http://127.0.0.1:{port}"}
                ),
            )  # fmt: skip
        await _wait_for_http(port, server, log)

        bench = Bench(port, started["cookie"], publisher_process, server.pid)
        await bench.connect(1)
        await bench.round(5)  # warm-up
        single = await bench.round(BASELINE_EVENTS)
        await bench.connect(CLIENTS - 1)
        await bench.round(3)  # warm-up
        many = await bench.round(EVENTS)
        return single, many, port
    finally:
        if bench is not None:
            await bench.close()
        if server is not None:
            _stop(server)
            server.wait()
        if publisher_process.stdin is not None:
            publisher_process.stdin.write(b"quit\n")
            publisher_process.stdin.close()
        try:
            await asyncio.wait_for(publisher_process.wait(), 20)  # it removes the temporary folder
        except TimeoutError:
            _stop(publisher_process)
            await publisher_process.wait()
        _delete_keys(prefix)


def _print_round(label: str, result: Round) -> None:
    latencies = result.latencies
    line = f"{label}: received {result.received}/{result.clients * result.events}"
    if result.wrong:
        line += f" ({result.wrong} unexpected)"
    if latencies:
        line += (
            f"; latency p50 {statistics.median(latencies) * 1e3:6.2f} ms, "
            f"p95 {percentile(latencies, 0.95) * 1e3:6.2f} ms, max {max(latencies) * 1e3:6.2f} ms"
        )
    print(line)


def main() -> int:
    prefix = f"metnos-bench-ws-{os.getpid()}"
    single, many, port = asyncio.run(measure(prefix))
    print(
        f"daphne on 127.0.0.1:{port} (stopped), channels-redis on {REDIS_URL} (prefix {prefix}, keys deleted); "
        f"one user; events one at a time through publish_to_user in a separate process"
    )
    _print_round(f"baseline: 1 client, {single.events} events ", single)
    _print_round(f"{many.clients} clients, {many.events} events    ", many)
    publish = single.publish_seconds + many.publish_seconds
    print(
        f"publish_to_user call (publisher side)  : median {statistics.median(publish) * 1e3:.2f} ms, "
        f"p95 {percentile(publish, 0.95) * 1e3:.2f} ms (included in the latencies)"
    )
    complete = many.received == many.clients * many.events and not many.wrong
    p95 = percentile(many.latencies, 0.95) if many.latencies else float("inf")
    server_single, server_many = (round_.server_cpu_seconds / round_.events for round_ in (single, many))
    print(
        f"CPU per event, daphne                  : {server_single * 1e3:.1f} ms with 1 client, "
        f"{server_many * 1e3:.1f} ms with {many.clients} ({server_many / max(server_single, 1e-6):.0f}x); "
        f"these clients {many.client_cpu_seconds / many.events * 1e3:.1f} ms with {many.clients}"
    )
    if many.latencies and single.latencies:
        ratio_p95 = p95 / percentile(single.latencies, 0.95)
        ratio_p50 = statistics.median(many.latencies) / statistics.median(single.latencies)
        print(f"ratio 200 clients / 1 client             : p95 {ratio_p95:.1f}x, p50 {ratio_p50:.1f}x")
    passed = complete and p95 < TARGET_SECONDS
    print(
        f"target: every client receives every event, p95 < {TARGET_SECONDS * 1e3:.0f} ms; "
        f"{'all received' if complete else 'EVENTS MISSING'}, p95 {p95 * 1e3:.2f} ms {verdict(passed)}"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--publisher"]:
        sys.exit(publisher(sys.argv[2]))
    sys.exit(main())
