"""The managed browser: sessions, observation, sign-in and collection on websites."""

from typing import Any

from django.apps import AppConfig


class SitesConfig(AppConfig):
    name = "apps.sites"
    label = "metnos_sites"  # "sites" is taken by django.contrib.sites
    verbose_name = "Websites"

    def ready(self) -> None:
        from celery.signals import worker_ready
        from django.conf import settings

        from apps.core.embedded_worker import embedded_lane_register
        from apps.core.health import register_readiness_check
        from apps.runtime.executor import register_executor
        from apps.sites.browser.jobs import BROWSER_LANE
        from apps.sites.collection.executor import CollectSiteDocuments, CollectSiteRecords
        from apps.sites.executors import CloseWebSessions
        from apps.sites.limits import MAX_CONCURRENT_BROWSER_SESSIONS
        from apps.sites.readiness import check_browser
        from apps.sites.signin.executor import SignIn
        from metnos_site.celery import QUEUE_BROWSER

        register_readiness_check("browser", check_browser)
        register_executor(CloseWebSessions())
        register_executor(SignIn())
        register_executor(CollectSiteRecords())
        register_executor(CollectSiteDocuments())
        # The embedded worker serves browser jobs with threads of their own: a turn waits for its
        # step's job in the main pool, so jobs sharing that pool could be starved by the turns.
        # Enough threads that every job reaches the sessions' visible line at once.
        embedded_lane_register(
            name=BROWSER_LANE,
            queues=(QUEUE_BROWSER,),
            threads=lambda: MAX_CONCURRENT_BROWSER_SESSIONS + settings.METNOS_SITES_QUEUE_LENGTH + 1,
        )
        # A worker that starts frees the browser slots of dead processes on this
        # host and ends the browser jobs whose worker died.
        worker_ready.connect(_recover_browser_work, weak=False, dispatch_uid="metnos.recover_browser_work")


def _recover_browser_work(**kwargs: Any) -> None:
    from apps.sites.browser.jobs import browser_jobs_reconcile_interrupted
    from apps.sites.browser.slots import leases_reconcile_dead_holders

    leases_reconcile_dead_holders()
    browser_jobs_reconcile_interrupted()
