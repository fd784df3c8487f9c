"""Enqueueing a Celery task by its declared name, once the current transaction commits.

A service that starts background work names its task by a constant in its own
module; the task module declares the task under that constant and calls the
service. So a service never imports its task module and no import runs back:
``tasks -> services`` is the only direction. The task's queue comes from its
name (``task_routes`` in ``metnos_site.celery``), and where the task is
registered in this process its declared options apply, exactly as ``.delay``
would; the in-memory broker of the embedded mode carries it the same way.
"""

from __future__ import annotations

from apps.core.outbox import outbox_enqueue


def enqueue_after_commit(task_name: str, *args: int | str) -> None:
    """Send ``task_name(*args)`` to its queue after commit, so no worker sees a row that was rolled back.

    Through the outbox (:mod:`apps.core.outbox`): written with the caller's
    transaction, delivered even if the broker is away when it commits.
    """
    outbox_enqueue(task_name, *args)
