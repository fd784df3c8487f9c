from typing import Any

from django.apps import AppConfig


class LreConfig(AppConfig):
    name = "apps.lre"
    label = "lre"
    verbose_name = "Long-running work"

    def ready(self) -> None:
        from celery.signals import worker_ready

        from apps.lre import panels  # noqa: F401 - registers its System > Services panel
        from apps.lre.batching import register_per_item
        from apps.lre.handoff import lre_handoff
        from apps.runtime.handoff import register_handoff

        register_handoff(lre_handoff)

        # The built-in readers and extractors work item by item: a batch of
        # files yields the union of what each file yields.
        register_per_item("read_files", "extract_entries")
        # A worker that starts takes back the batches of dead workers and, embedded, goes on with running jobs.
        worker_ready.connect(_recover_long_work, weak=False, dispatch_uid="metnos.lre_recover")


def _recover_long_work(**kwargs: Any) -> None:
    from apps.lre.reaper import lre_recover_on_worker_start

    lre_recover_on_worker_start()
