"""The catalog as this installation admits it now.

Executors an operator disabled (``METNOS_DISABLED_EXECUTORS``) are left out,
so the catalog signature changes with them and plans cached against the old
catalog are no longer reused.
"""

from __future__ import annotations

from django.conf import settings

from apps.runtime.executors import Catalog, build_catalog, registered_executors


def current_catalog() -> Catalog:
    disabled = set(settings.METNOS_DISABLED_EXECUTORS)
    return build_catalog({name: executor for name, executor in registered_executors().items() if name not in disabled})
