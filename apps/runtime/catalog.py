"""The catalog as this installation admits it now.

Executors an operator disabled (``METNOS_DISABLED_EXECUTORS``) are left out,
so the catalog signature changes with them and plans cached against the old
catalog are no longer reused.
"""

from __future__ import annotations

from django.conf import settings

from apps.runtime.executor import Catalog, build_catalog, registered_executors

# The last catalog built, under the identity of what it was built from: every
# turn asks for the catalog, and hashing every manifest again each time is
# work for nothing while no executor was registered, replaced or disabled.
_last: tuple[tuple[tuple[str, int, int], ...], Catalog] | None = None


def current_catalog() -> Catalog:
    global _last
    disabled = set(settings.METNOS_DISABLED_EXECUTORS)
    admitted = {name: executor for name, executor in registered_executors().items() if name not in disabled}
    # The cached catalog holds these objects, so their ids cannot be reused meanwhile.
    key = tuple((name, id(executor), id(executor.manifest)) for name, executor in sorted(admitted.items()))
    last = _last
    if last is not None and last[0] == key:
        return last[1]
    catalog = build_catalog(admitted)
    _last = (key, catalog)
    return catalog
