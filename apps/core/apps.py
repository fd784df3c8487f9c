import os
from typing import Any

from django.apps import AppConfig
from django.conf import settings


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from celery.signals import task_prerun, worker_ready, worker_shutdown
        from django.db.backends.signals import connection_created

        from apps.core.data_files import data_folders_prepare, on_connection_created
        from apps.core.redaction import install_record_factory
        from apps.core.socket_access import connect_access_signals

        install_record_factory()
        # Open WebSockets hear when their session ends or their account changes.
        connect_access_signals()
        # The outbox (apps/core/outbox.py): a started task's message is delivered; workers relay the rest.
        task_prerun.connect(_outbox_started, weak=False, dispatch_uid="metnos.outbox_started")
        worker_ready.connect(_outbox_relay_start, weak=False, dispatch_uid="metnos.outbox_relay")
        worker_shutdown.connect(_outbox_relay_stop, weak=False, dispatch_uid="metnos.outbox_relay_stop")
        # The data directory holds the embedded database, users' files,
        # downloads and browser data: created private on first start, and the
        # SQLite files kept private on every connection.
        data_folders_prepare()
        connection_created.connect(on_connection_created, dispatch_uid="metnos.data_files.private")


def _outbox_started(task: Any = None, **_: Any) -> None:
    from apps.core.outbox import HEADER, outbox_started

    request = getattr(task, "request", None)
    message_id = getattr(request, HEADER, None)
    if message_id is not None:
        outbox_started(message_id)


_recovered_in: set[int] = set()


def _outbox_relay_start(**_: Any) -> None:
    from apps.core.outbox import outbox_due_now, relay_start

    # The embedded worker's lanes start later, and send the signal too: once per process.
    if settings.EMBEDDED_SERVICES and os.getpid() not in _recovered_in:
        _recovered_in.add(os.getpid())
        outbox_due_now()  # the in-memory queue died with the previous process: send everything unstarted again
    relay_start()


def _outbox_relay_stop(**_: Any) -> None:
    from apps.core.outbox import relay_stop

    relay_stop()
