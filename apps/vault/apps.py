"""The vault: encrypted credentials used only under a turn's mandate."""

from django.apps import AppConfig


class VaultConfig(AppConfig):
    name = "apps.vault"
    label = "vault"
    verbose_name = "Vault"

    def ready(self) -> None:
        from apps.runtime.executor import register_executor, register_mandate_provider
        from apps.vault import cli  # noqa: F401 - registers `metnos vault`
        from apps.vault.executors import vault_executors
        from apps.vault.mandates import vault_mandate_for_plan

        for executor in vault_executors():
            register_executor(executor)
        register_mandate_provider(vault_mandate_for_plan)
