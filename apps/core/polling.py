"""Waiting for a row another process will change: short pauses first, longer ones later.

A conductor waiting for the user (an answer, a device's result) reads the
row again after each pause. Early pauses are short, so a prompt answer is
seen at once; later ones are longer, so a long wait costs few queries. A
cancelled turn ends the pause at once.
"""

from __future__ import annotations

import threading

POLL_SECONDS = (0.1, 0.25, 0.5, 1.0)


class Backoff:
    """Pauses of :data:`POLL_SECONDS`, the last one repeated; ``cancelled`` cuts a pause short."""

    def __init__(self, cancelled: threading.Event | None = None) -> None:
        self.cancelled = cancelled or threading.Event()
        self.pauses = 0

    def pause(self) -> None:
        self.cancelled.wait(POLL_SECONDS[min(self.pauses, len(POLL_SECONDS) - 1)])
        self.pauses += 1
