from typing import Any

from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "apps.runtime"
    label = "runtime"
    verbose_name = "Runtime"

    def ready(self) -> None:
        from celery.signals import worker_ready

        from apps.runtime import cli, panels  # noqa: F401 - register `metnos` subcommands, the home panel
        from apps.runtime.executors.builtin import register_builtin_executors

        register_builtin_executors()
        # A worker that starts ends the turns that died with a previous worker.
        worker_ready.connect(_reconcile_interrupted_turns, weak=False, dispatch_uid="metnos.reconcile_turns")


def _reconcile_interrupted_turns(**kwargs: Any) -> None:
    from apps.runtime.turns import turns_recover_on_worker_start

    turns_recover_on_worker_start()
