from django.apps import AppConfig
from django.conf import settings


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from apps.core.redaction import install_record_factory
        from apps.core.socket_access import connect_access_signals

        install_record_factory()
        # Open WebSockets hear when their session ends or their account changes.
        connect_access_signals()
        # The data directory holds the embedded database, users' files,
        # downloads and browser data; create its folders on first start.
        for folder in (
            settings.DATA_DIR,
            settings.FILES_ROOT,
            settings.DOWNLOADS_ROOT,
            settings.BROWSER_DATA_ROOT,
            settings.STATIC_ROOT,
        ):
            folder.mkdir(parents=True, exist_ok=True)
