"""Benchmark the fast-path turn overhead: request in → first executor invoked.

Run: ``cd /work/main && .venv/bin/python bench/bench_turns.py``

Target (issue 4, "Performance"): on SQLite (the embedded default), the
overhead of a fast-path turn — from ``turn_submit`` receiving the request to
the moment the first executor's ``run()`` is entered, excluding the
executor's own work — has a median under 5 ms.

Setup: a temporary data folder and a freshly migrated SQLite database
(``bench/_setup.py``), one user, one conversation, and a catalog holding only
a benchmark executor that returns at once; it declares one request form so
the first turn gets a proposal, and completing that turn stores the plan in
the owner's fast-path cache. Every measured turn then repeats the same
request in the same conversation: ``turn_submit(enqueue=False)`` followed by
``turn_conduct(catalog=...)`` on the fast path, timed up to the first line of
the executor's ``run()``. That interval holds everything the runtime does
before an effect: the turn row, path choice, validation, guards, the trace,
the step record, live events (in-memory channel layer) and the boundary's
controls. The rest of the turn (recording the result, finishing, refreshing
the cache) runs but is not timed.

Baseline, measured in the same run and interleaved with the turns so both
see the same database: the least any turn must write — a bare
``Turn.objects.create`` plus one ``StepRecord`` insert. The ratio says how
much the runtime's controls cost on top of that.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from _setup import django_for_benchmark, percentile, verdict

TARGET_SECONDS = 5e-3
WARM_UP, TURNS = 20, 400
REQUEST = "check the status of the backup service"


def main() -> int:
    with django_for_benchmark():
        return _run()


def _run() -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.accounts.models import User
    from apps.runtime.executors import ExecutionContext, StepResult, build_catalog
    from apps.runtime.manifests import ArgSpec, Manifest, RequestForm, ResultShape
    from apps.runtime.models import Conversation, StepRecord, Turn
    from apps.runtime.turns import turn_conduct, turn_submit

    @dataclass
    class InstantExecutor:
        """Returns at once; notes when ``run`` was entered (test-only, never registered)."""

        manifest: Manifest
        entered_at: float = 0.0
        on_enter: Callable[[], None] = field(default=lambda: None)

        def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
            self.entered_at = time.perf_counter()
            self.on_enter()
            return StepResult(outcome="success", value={"status": "ok"}, summary="ok")

    executor = InstantExecutor(
        Manifest(
            name="check_service",
            purpose="benchmark executor: reports a service status at once",
            args={"service": ArgSpec("string", True, max_length=100)},
            result=ResultShape("value", ("status",)),
            request_forms=(
                RequestForm(
                    language="en",
                    template="check the status of the {service} service",
                    slots={"service": "text"},
                    plan=({"tool": "check_service", "args": {"service": "{service}"}},),
                ),
            ),
        )
    )
    catalog = build_catalog({"check_service": executor})
    owner = User.objects.create_user(username="bench-owner", password="bench-password-1234")  # noqa: S106
    conversation = Conversation.objects.create(owner=owner, title="benchmark")

    def fast_path_turn() -> float:
        began = time.perf_counter()
        turn = turn_submit(owner=owner, text=REQUEST, conversation=conversation, enqueue=False)
        turn_conduct(turn=turn, catalog=catalog)
        if turn.path != Turn.Path.FAST_PATH or turn.status != Turn.Status.COMPLETED:
            raise SystemExit(f"expected a completed fast-path turn, got {turn.path} / {turn.status}: {turn.answer}")
        return executor.entered_at - began

    def bare_rows() -> float:
        began = time.perf_counter()
        turn = Turn.objects.create(owner=owner, conversation=conversation, request_text=REQUEST)
        StepRecord.objects.create(owner=owner, turn=turn, index=1, tool="check_service")
        return time.perf_counter() - began

    seed = turn_submit(owner=owner, text=REQUEST, conversation=conversation, enqueue=False)
    turn_conduct(turn=seed, catalog=catalog)
    if seed.path != Turn.Path.PROPOSAL or seed.status != Turn.Status.COMPLETED:
        raise SystemExit(f"the seeding turn did not complete from a proposal: {seed.path} / {seed.status}")

    for _ in range(WARM_UP):
        fast_path_turn()
        bare_rows()
    overhead: list[float] = []
    baseline: list[float] = []
    for _ in range(TURNS):
        overhead.append(fast_path_turn())
        baseline.append(bare_rows())

    # One more turn, counting the SQL statements issued before the executor is entered.
    with CaptureQueriesContext(connection) as captured:
        counted: list[int] = []
        executor.on_enter = lambda: counted.append(len(captured.captured_queries))
        fast_path_turn()
        executor.on_enter = lambda: None
    queries_before, queries_total = counted[0], len(captured.captured_queries)

    median, p95 = statistics.median(overhead), percentile(overhead, 0.95)
    base_median, base_p95 = statistics.median(baseline), percentile(baseline, 0.95)
    print(
        f"fast-path turns: {TURNS} (after {WARM_UP} warm-up), SQLite (WAL) "
        f"in a temporary folder, catalog: 1 instant executor, in-memory channel layer"
    )
    print(
        f"turn_submit → executor.run entered : median {median * 1e3:6.3f} ms, "
        f"p95 {p95 * 1e3:6.3f} ms, min {min(overhead) * 1e3:6.3f} ms"
    )
    print(
        f"baseline Turn + StepRecord insert  : median {base_median * 1e3:6.3f} ms, "
        f"p95 {base_p95 * 1e3:6.3f} ms, min {min(baseline) * 1e3:6.3f} ms"
    )
    print(f"ratio overhead/baseline (median)   : {median / base_median:.1f}x  (p95: {p95 / base_p95:.1f}x)")
    print(f"SQL statements before the executor : {queries_before} (whole turn: {queries_total})")
    passed = median < TARGET_SECONDS
    print(f"target: median < {TARGET_SECONDS * 1e3:.0f} ms; median {median * 1e3:.3f} ms {verdict(passed)}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
