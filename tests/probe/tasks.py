import time

from celery import shared_task

from tests.probe import gates

GATE_WAIT_SECONDS = 60


@shared_task(name="tests.probe.wait_for_gate")
def wait_for_gate(gate_id: str) -> None:
    """Record that it started, wait until the test opens the gate, record the end."""
    gates.mark(gate_id, "started")
    deadline = time.monotonic() + GATE_WAIT_SECONDS
    while not gates.is_marked(gate_id, "open"):
        if time.monotonic() > deadline:
            gates.mark(gate_id, "timed_out")
            return
        time.sleep(0.02)
    gates.mark(gate_id, "finished")
