import os

from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.probe"
    label = "probe"

    def ready(self) -> None:
        # Only in the processes a test starts on purpose, so the catalog of the
        # test process itself stays the product's.
        if os.environ.get("METNOS_TEST_PROBE_EXECUTORS") == "true":
            from apps.lre.batching import register_per_item
            from apps.runtime.executor import register_executor
            from tests.probe.executors import ProbeCount, ProbeEach, ProbeGate, ProbeWait

            for executor in (ProbeWait(), ProbeGate(), ProbeCount(), ProbeEach()):
                register_executor(executor)
            register_per_item("probe_each")
