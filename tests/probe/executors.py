"""Test-only executors that block inside a step or a batch, to kill their process mid-way."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from apps.runtime.executor import ExecutionContext, StepError, StepResult
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape

BLOCK_SECONDS = 120

PROBE_WAIT_MANIFEST = Manifest(
    name="probe_wait",
    purpose="Test only: mark that the step started, then block.",
    args={"marker": ArgSpec(type="string", required=True)},
    result=ResultShape(kind="none"),
)


class ProbeWait:
    manifest = PROBE_WAIT_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        Path(args["marker"]).write_text("started", encoding="utf-8")
        time.sleep(BLOCK_SECONDS)
        return StepResult(outcome="success", summary="probe finished (the test should have killed it)")


GATE_SECONDS = 60

PROBE_GATE_MANIFEST = Manifest(
    name="probe_gate",
    purpose="Test only: mark that the step started, then wait until the test opens the gate.",
    args={"marker": ArgSpec(type="string", required=True), "gate": ArgSpec(type="string", required=True)},
    result=ResultShape(kind="none"),
)


class ProbeGate:
    """Holds a turn mid-step while the test injects a fault, then lets it finish."""

    manifest = PROBE_GATE_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        Path(args["marker"]).write_text("started", encoding="utf-8")
        deadline = time.monotonic() + GATE_SECONDS
        while not Path(args["gate"]).exists():
            if time.monotonic() > deadline:
                return StepResult(
                    outcome="failed", error=StepError("permanent", "gate_closed", "the gate never opened")
                )
            time.sleep(0.05)
        return StepResult(outcome="success", summary="passed the gate")


PROBE_COUNT_MANIFEST = Manifest(
    name="probe_count",
    purpose="Test only: the items 1 to count.",
    args={"count": ArgSpec(type="integer", required=True, minimum=1, maximum=1000)},
    result=ResultShape(kind="collection", fields=("n",)),
)


class ProbeCount:
    manifest = PROBE_COUNT_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="success", items=tuple({"n": n} for n in range(1, int(args["count"]) + 1)))


PROBE_EACH_MANIFEST = Manifest(
    name="probe_each",
    purpose="Test only: note each item in a log, holding at one item until the test opens the gate.",
    args={
        "from_step": ArgSpec(type="collection", required=True),
        "log": ArgSpec(type="string", required=True),
        "hold": ArgSpec(type="integer", required=True),
        "gate": ArgSpec(type="string", required=True),
    },
    result=ResultShape(kind="collection", fields=("n", "pid")),
)


class ProbeEach:
    """Per item and read-only (no capability): a batch of it may run again after its worker died."""

    manifest = PROBE_EACH_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        numbers = [int(item["n"]) for item in args["from_step"]]
        log, gate = Path(args["log"]), Path(args["gate"])
        with log.open("a", encoding="utf-8") as calls:
            calls.writelines(f"{n} {os.getpid()}\n" for n in numbers)
        if int(args["hold"]) in numbers and not gate.exists():
            log.with_name("held").write_text(str(os.getpid()), encoding="utf-8")
            deadline = time.monotonic() + GATE_SECONDS
            while not gate.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
        return StepResult(outcome="success", items=tuple({"n": n, "pid": os.getpid()} for n in numbers))
