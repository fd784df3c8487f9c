"""Benchmark managed-browser sessions: eight at once against one, on fixture-web pages.

Run: ``cd /work/main && .venv/bin/python bench/bench_browser_sessions.py``

Target (issue 5, "Performance"): with eight concurrent sessions — the most
the service runs — report the peak memory and the per-page latency against
one session, as ratios measured in the same run.

What runs: real sessions (``apps.sites.browser.sessions.browser_session``): each
takes a slot lease in a temporary SQLite database (``bench/_setup.py``),
launches its own Chromium behind its guard proxy, and opens pages of the
fixture web (``tests/sites/fixture_web.py``, real HTTP on loopback, one
origin per site), every request passing the session's checks. A *page* is
``goto`` until the ``load`` event, cycling through three small pages of two
sites; each session opens the same number of pages.

* **baseline**: one session alone, the same pages;
* **measured**: eight sessions in eight threads at the same moment (as eight
  worker threads would run them), each with its own browser.

Per-page latency: median and p95 over every page of every session; the ratio
is eight's median over one's. Session start (slot, proxy, Chromium launch,
context) is timed apart and not counted in page latency. Peak memory: the
largest sum, sampled every 100 ms, of the proportional set size (PSS, so
memory Chromium's processes share is counted once) of this process and every
process it started (Playwright drivers, Chromiums and their renderers).

Verdict: PASS when every session opened every page and the median page
latency with eight sessions stays under 8x one session's — eight sessions
share this machine's cores, so above 8x running them at once would be
slower than running them one after another.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from _setup import django_for_benchmark, percentile, verdict

SESSIONS = 8
PAGES_PER_SESSION = 24
MAX_MEDIAN_RATIO = 8.0
SAMPLE_SECONDS = 0.1


def _pss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


class MemoryPeak:
    """Samples the PSS of this process tree in a thread; ``peak`` is the largest sum seen."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> MemoryPeak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        from apps.sites.browser.processes import process_descendants

        while not self._stop.is_set():
            self.peak = max(self.peak, sum(_pss_bytes(pid) for pid in process_descendants(os.getpid())))
            self._stop.wait(SAMPLE_SECONDS)


def _run_session(owner: Any, urls: list[str], origins: list[str], latencies: list[float], starts: list[float]) -> None:
    from django.db import connection

    from apps.sites.browser.sessions import browser_session
    from apps.sites.browser.websites import AuthorizedWebsites

    try:
        began = time.perf_counter()
        with browser_session(owner=owner, websites=AuthorizedWebsites.of(origins)) as session:
            starts.append(time.perf_counter() - began)
            for url in urls:
                opened = time.perf_counter()
                session.goto(url, wait_until="load")
                latencies.append(time.perf_counter() - opened)
    finally:
        connection.close()


def _round(owner: Any, sessions: int, urls: list[str], origins: list[str]) -> tuple[list[float], list[float], int]:
    latencies: list[float] = []
    starts: list[float] = []
    with MemoryPeak() as memory:
        threads = [
            threading.Thread(target=_run_session, args=(owner, urls, origins, latencies, starts))
            for _ in range(sessions)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return latencies, starts, memory.peak


def _describe(name: str, latencies: list[float], starts: list[float], peak: int) -> None:
    print(
        f"{name}: {len(latencies)} pages, median {statistics.median(latencies) * 1000:.1f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.1f} ms; session start median "
        f"{statistics.median(starts) * 1000:.0f} ms; peak memory {peak / 2**20:.0f} MiB"
    )


def main() -> int:
    with django_for_benchmark():
        from apps.accounts.models import User
        from tests.sites.fixture_web import FixtureWeb

        owner = User.objects.create_user("bench-owner", password="bench-password-1")  # noqa: S106
        web = FixtureWeb()
        try:
            shop, storage = web.site("net-shop"), web.site("session-storage")
            pages = [shop.url("/"), shop.url("/probe.html"), storage.url("/")]
            urls = [pages[index % len(pages)] for index in range(PAGES_PER_SESSION)]
            origins = [shop.origin, storage.origin]
            _round(owner, 1, urls[:3], origins)  # warm the disk cache and Python imports
            one = _round(owner, 1, urls, origins)
            eight = _round(owner, SESSIONS, urls, origins)
        finally:
            web.close()

    _describe("baseline, 1 session", *one)
    _describe(f"measured, {SESSIONS} sessions at once", *eight)
    median_ratio = statistics.median(eight[0]) / statistics.median(one[0])
    p95_ratio = percentile(eight[0], 0.95) / percentile(one[0], 0.95)
    memory_ratio = eight[2] / one[2]
    print(
        f"ratios ({SESSIONS} sessions / 1): median page latency {median_ratio:.2f}x, p95 {p95_ratio:.2f}x, "
        f"peak memory {memory_ratio:.2f}x ({eight[2] / SESSIONS / 2**20:.0f} MiB per session)"
    )
    complete = len(eight[0]) == SESSIONS * PAGES_PER_SESSION and len(one[0]) == PAGES_PER_SESSION
    passed = complete and median_ratio < MAX_MEDIAN_RATIO
    print(
        f"target: every page opened and median latency ratio < {MAX_MEDIAN_RATIO:.0f}x "
        f"({'all pages opened' if complete else 'pages missing'}): {verdict(passed)}"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
