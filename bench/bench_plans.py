"""Benchmark ``validate_plan`` on a 20-step plan against a 10-executor catalog.

Run: ``cd /work/main && .venv/bin/python bench/bench_plans.py``

Target (issue 4, "Performance"): validating a 20-step plan takes under 1 ms
(median). The plan uses every kind of argument the validator checks — paths,
bounded text, enums, integers and numbers with ranges, arrays of bounded
items, objects — and both references: ``from_step: N`` (as an integer and as
``{"from_step": N}``) and ``{{stepN.field}}`` (whole and embedded), so every
rule runs. It is validated as a mapping (a proposal already parsed) and as
JSON text (a model's proposal as received).

For scale, the same run times a baseline over the same plan: ``json.loads``
of its text plus a walk that visits every value once — the least any
validator reading the text must do. The ratio says how much the validator's
checks cost on top of reading. Each figure is the median of several passes
after a warm-up pass. No Django: plans, manifests and executors are Django-free.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.plans.api import resolve_step_args, validate_plan

TARGET_SECONDS = 1e-3
PASSES, LOOPS = 9, 500  # each pass validates the plan LOOPS times


@dataclass
class BenchExecutor:
    manifest: Manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="empty")


def _executor(name: str, args: dict[str, ArgSpec], kind: str, fields: tuple[str, ...] = ()) -> BenchExecutor:
    result = ResultShape(kind, fields)  # type: ignore[arg-type]
    return BenchExecutor(Manifest(name=name, purpose=f"benchmark executor {name}", args=args, result=result))


def catalog() -> Catalog:
    executors = [
        _executor(
            "find_files",
            {
                "base_path": ArgSpec("path", True, max_length=200),
                "pattern": ArgSpec("string", max_length=100),
                "limit": ArgSpec("integer", minimum=1, maximum=1000),
            },
            "collection",
            ("path", "name", "size"),
        ),
        _executor(
            "read_files", {"from_step": ArgSpec("collection", True, max_items=100)}, "collection", ("path", "text")
        ),
        _executor(
            "extract_entries",
            {
                "from_step": ArgSpec("collection", True),
                "fields": ArgSpec("array", True, items="string", max_items=10, max_length=40),
            },
            "collection",
            ("supplier", "price", "path"),
        ),
        _executor(
            "create_files_spreadsheet",
            {
                "from_step": ArgSpec("collection", True),
                "path": ArgSpec("path", True, sensitive="path"),
                "title": ArgSpec("string", max_length=80),
            },
            "value",
            ("path", "rows"),
        ),
        _executor(
            "summarise",
            {
                "documents": ArgSpec("collection", True, max_items=50),
                "style": ArgSpec("string", enum=("short", "long")),
                "words": ArgSpec("integer", minimum=10, maximum=500),
            },
            "value",
            ("summary", "words"),
        ),
        _executor(
            "send_message",
            {
                "recipient": ArgSpec("string", True, sensitive="recipient"),
                "subject": ArgSpec("string", max_length=120),
                "body": ArgSpec("string", max_length=5000),
            },
            "value",
            ("message_id",),
        ),
        _executor(
            "copy_file",
            {"source": ArgSpec("path", True, accepts_step_values=True), "destination": ArgSpec("path", True)},
            "value",
            ("path",),
        ),
        _executor(
            "set_options",
            {
                "enabled": ArgSpec("boolean"),
                "ratio": ArgSpec("number", minimum=0, maximum=1),
                "tags": ArgSpec("array", items="string", max_items=3, enum=("red", "green", "blue")),
                "options": ArgSpec("object"),
            },
            "none",
        ),
        _executor(
            "filter_entries",
            {
                "from_step": ArgSpec("collection", True),
                "field": ArgSpec("string", True, max_length=40),
                "minimum": ArgSpec("number"),
                "maximum": ArgSpec("number"),
            },
            "collection",
            ("supplier", "price", "path"),
        ),
        _executor(
            "web_search",
            {
                "query": ArgSpec("string", True, max_length=300),
                "results": ArgSpec("integer", minimum=1, maximum=50),
                "site": ArgSpec("string", max_length=100),
            },
            "collection",
            ("url", "title", "snippet"),
        ),
    ]
    return build_catalog({e.manifest.name: e for e in executors})


def twenty_steps() -> dict[str, Any]:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("find_files", {"base_path": "~/Purchasing", "pattern": "*.pdf", "limit": 50}),
        ("read_files", {"from_step": 1}),
        ("extract_entries", {"from_step": 2, "fields": ["supplier", "price", "date", "vat"]}),
        ("filter_entries", {"from_step": 3, "field": "price", "minimum": 0, "maximum": 100000.0}),
        (
            "create_files_spreadsheet",
            {"from_step": 4, "path": "~/Purchasing/summary.xlsx", "title": "{{step1.count}} quotes compared"},
        ),
        ("summarise", {"documents": {"from_step": 2}, "style": "short", "words": 120}),
        (
            "send_message",
            {
                "recipient": "buyer@example.org",
                "subject": "Quotes: {{step6.words}} words",
                "body": "{{step6.summary}}\n\nTable: {{step5.path}} ({{step5.rows}} rows)",
            },
        ),
        ("copy_file", {"source": "{{step5.path}}", "destination": "~/Archive/summary.xlsx"}),
        ("web_search", {"query": "supplier {{step4.first.supplier}} reviews", "results": 10, "site": "example.org"}),
        ("summarise", {"documents": {"from_step": 9}, "style": "long", "words": 300}),
        (
            "set_options",
            {
                "enabled": True,
                "ratio": 0.25,
                "tags": ["red", "blue"],
                "options": {"notify": True, "channels": ["mail", "portal"]},
            },
        ),
        ("find_files", {"base_path": "~/Purchasing/2025", "pattern": "*.pdf", "limit": 100}),
        ("read_files", {"from_step": 12}),
        ("extract_entries", {"from_step": 13, "fields": ["supplier", "price"]}),
        ("filter_entries", {"from_step": 14, "field": "supplier", "minimum": 1}),
        ("create_files_spreadsheet", {"from_step": 15, "path": "~/Purchasing/summary-2025.xlsx", "title": "Last year"}),
        ("summarise", {"documents": {"from_step": 14}, "style": "short", "words": 80}),
        (
            "send_message",
            {"recipient": "buyer@example.org", "subject": "Last year's quotes", "body": "{{step17.summary}}"},
        ),
        ("copy_file", {"source": "{{step16.path}}", "destination": "~/Archive/summary-2025.xlsx"}),
        ("set_options", {"enabled": False, "tags": ["green"]}),
    ]
    return {"steps": [{"tool": tool, "args": args} for tool, args in steps]}


def _walk(value: Any) -> int:
    """Visit every value once: the least a reader of the plan must do."""
    if isinstance(value, dict):
        return 1 + sum(_walk(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_walk(item) for item in value)
    return 1


def median_seconds(work: Callable[[], object]) -> float:
    for _ in range(LOOPS):  # warm-up pass
        work()
    timings = []
    for _ in range(PASSES):
        began = time.perf_counter()
        for _ in range(LOOPS):
            work()
        timings.append((time.perf_counter() - began) / LOOPS)
    return statistics.median(timings)


def main() -> int:
    plan_catalog = catalog()
    raw = twenty_steps()
    text = json.dumps(raw)
    plan = validate_plan(raw, plan_catalog)  # the plan is valid: the benchmark times the success path
    assert len(plan.steps) == 20 and len(plan_catalog.executors) == 10

    from_mapping = median_seconds(lambda: validate_plan(raw, plan_catalog))
    from_text = median_seconds(lambda: validate_plan(text, plan_catalog))
    baseline = median_seconds(lambda: _walk(json.loads(text)))
    digest = median_seconds(plan.digest)
    every_field = {field: "x" for m in plan_catalog.manifests.values() for field in m.result.fields}
    produced = StepResult(outcome="success", value=every_field, items=(every_field,))
    results = dict.fromkeys(range(1, 21), produced)
    resolution = median_seconds(lambda: [resolve_step_args(plan, n, results, plan_catalog) for n in range(1, 21)])

    print(f"plan: 20 steps, {len(text)} bytes of JSON, {_walk(raw)} values; catalog: 10 executors")
    print(f"validate_plan (mapping)    : {from_mapping * 1e6:8.1f} µs/plan  (median of {PASSES} passes x {LOOPS})")
    print(f"validate_plan (JSON text)  : {from_text * 1e6:8.1f} µs/plan")
    print(f"baseline json.loads + walk : {baseline * 1e6:8.1f} µs/plan")
    print(f"ratio validate(text)/baseline: {from_text / baseline:.1f}x")
    print(f"Plan.digest                : {digest * 1e6:8.1f} µs/plan")
    print(f"resolve_step_args, 20 steps: {resolution * 1e6:8.1f} µs/plan")
    worst = max(from_mapping, from_text)
    verdict = "OK" if worst < TARGET_SECONDS else "MISSED"
    print(
        f"target: < {TARGET_SECONDS * 1e3:.0f} ms per 20-step validation; worst median {worst * 1e3:.3f} ms {verdict}"
    )
    return 0 if worst < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
