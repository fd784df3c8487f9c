"""The LRE indicator of System > Services: the feature's state, not only its process.

- gray: confirmed disabled (``METNOS_LRE_ENABLED=false``); jobs keep their
  state and start nothing;
- green: enabled, and a worker consuming the batch queue answered;
- amber: enabled, but readiness is unverified (no worker answered yet, e.g.
  while one starts);
- red: a service failure (the broker does not answer) or an invalid
  configuration (workers answer, but none consumes the batch queue).

Technical details keep the process state separately. This indicator changes
no health check, supervisor decision or persisted setting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from apps.lre.batching import lre_enabled
from metnos_site.celery import QUEUE_BATCH
from metnos_site.celery import app as celery_app

Indicator = Literal["gray", "green", "amber", "red"]
INSPECT_TIMEOUT_SECONDS = 1.0


@dataclass(frozen=True)
class LrePresence:
    indicator: Indicator
    label: str
    details: dict[str, str] = field(default_factory=dict)


def _batch_workers() -> tuple[int, int]:
    """(workers answering, workers consuming the batch queue); raises when the broker fails."""
    replies = celery_app.control.inspect(timeout=INSPECT_TIMEOUT_SECONDS).active_queues() or {}
    consuming = sum(1 for queues in replies.values() if any(queue.get("name") == QUEUE_BATCH for queue in queues))
    return len(replies), consuming


def lre_presence() -> LrePresence:
    try:
        answering, consuming = _batch_workers()
    except Exception as error:  # noqa: BLE001 - any broker failure is a service failure
        process = f"broker unreachable ({type(error).__name__})"
        answering = consuming = -1
    else:
        process = f"{answering} worker(s) answering, {consuming} on the batch queue"
    details = {"feature setting": "enabled" if lre_enabled() else "disabled", "process": process}
    if not lre_enabled():
        return LrePresence("gray", "Disabled", details)
    if answering < 0:
        return LrePresence("red", "Service failure", details)
    if consuming:
        return LrePresence("green", "Ready", details)
    if answering:
        return LrePresence("red", "No worker serves long-running work", details)
    return LrePresence("amber", "Not verified yet", details)
