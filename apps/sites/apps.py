"""The managed browser: sessions, observation, sign-in and collection on websites."""

from typing import Any

from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "metnos_sites"  # "sites" is taken by django.contrib.sites
    verbose_name = "Websites"

    def ready(self) -> None:
        from celery.signals import worker_ready

        from apps.core.health import register_readiness_check
        from apps.runtime.executors import register_executor
        from apps.sites.collection.executor import CollectSiteDocuments, CollectSiteRecords
        from apps.sites.executors import CloseWebSessions
        from apps.sites.readiness import check_browser
        from apps.sites.signin.executor import SignIn

        register_readiness_check("browser", check_browser)
        register_executor(CloseWebSessions())
        register_executor(SignIn())
        register_executor(CollectSiteRecords())
        register_executor(CollectSiteDocuments())
        # A worker that starts frees the browser slots of dead processes on this
        # host and ends the browser jobs whose worker died.
        worker_ready.connect(_recover_browser_work, weak=False, dispatch_uid="metnos.recover_browser_work")


def _recover_browser_work(**kwargs: Any) -> None:
    from apps.sites.browser.jobs import browser_jobs_reconcile_interrupted
    from apps.sites.browser.slots import leases_reconcile_dead_holders

    leases_reconcile_dead_holders()
    browser_jobs_reconcile_interrupted()
