from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    verbose_name = "Platform"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from apps.core.data_files import data_folders_prepare, on_connection_created
        from apps.core.redaction import install_record_factory
        from apps.core.socket_access import connect_access_signals

        install_record_factory()
        # Open WebSockets hear when their session ends or their account changes.
        connect_access_signals()
        # The data directory holds the embedded database, users' files,
        # downloads and browser data: created private on first start, and the
        # SQLite files kept private on every connection.
        data_folders_prepare()
        connection_created.connect(on_connection_created, dispatch_uid="metnos.data_files.private")
