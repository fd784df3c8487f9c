from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "apps.runtime"
    label = "runtime"
    verbose_name = "Runtime"

    def ready(self) -> None:
        from apps.runtime import cli  # noqa: F401 - registers `metnos` subcommands
        from apps.runtime.builtin import register_builtin_executors

        register_builtin_executors()
