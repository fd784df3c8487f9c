"""A test-only executor that blocks inside a step, to kill its process mid-turn."""

from __future__ import annotations

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
