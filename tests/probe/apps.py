import os

from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.probe"
    label = "probe"

    def ready(self) -> None:
        # Only in the processes a test starts on purpose, so the catalog of the
        # test process itself stays the product's.
        if os.environ.get("METNOS_TEST_PROBE_EXECUTORS") == "true":
            from apps.runtime.executor import register_executor
            from tests.probe.executors import ProbeGate, ProbeWait

            register_executor(ProbeWait())
            register_executor(ProbeGate())
