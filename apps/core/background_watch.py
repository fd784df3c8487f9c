"""A daemon thread beside long work, doing its database bookkeeping while the work's own thread is busy.

Browser sessions and jobs renew their leases and notice cancellation with it
(``apps.sites.browser``), long-running batches renew theirs (``apps.lre``).
The owner starts it before the work and stops it after; the thread closes
its own database connection when it ends.
"""

from __future__ import annotations

import threading
from typing import Self


class BackgroundWatch:
    """A daemon thread beside a session, a job or a batch; started and stopped by its owner."""

    thread_name = "metnos-watch"

    def __init__(self) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        raise NotImplementedError
