"""The managed browser's readiness check, registered with ``/readyz`` by :class:`apps.sites.apps.SitesConfig`."""

from __future__ import annotations

import os

from apps.core.health import ComponentHealth
from apps.sites.browser.executable import find_browser_executable


def check_browser() -> ComponentHealth:
    executable = find_browser_executable()
    if executable is None:
        return ComponentHealth.failing("no Chromium executable found (install Debian's chromium)")
    if not os.access(executable, os.X_OK):
        return ComponentHealth.failing("Chromium executable is not executable")
    return ComponentHealth.ok(f"{executable.name} present")
