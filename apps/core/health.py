"""Liveness and readiness checks.

Each check answers a state and a short fixed explanation — never a URL,
password, host list or exception message, which could carry secrets.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from dataclasses import dataclass
from typing import Literal

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from apps.sites.browser.executable import find_browser_executable
from metnos_site.celery import app as celery_app

State = Literal["ok", "failing"]
CHECK_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class ComponentHealth:
    state: State
    detail: str

    def as_dict(self) -> dict[str, str]:
        return {"state": self.state, "detail": self.detail}


def _ok(detail: str) -> ComponentHealth:
    return ComponentHealth("ok", detail)


def _failing(detail: str, error: BaseException | None = None) -> ComponentHealth:
    suffix = f" ({type(error).__name__})" if error is not None else ""
    return ComponentHealth("failing", detail + suffix)


def check_database() -> ComponentHealth:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure means not ready
        return _failing("database unreachable", error)
    return _ok(f"{connection.vendor} answering")


async def _channel_roundtrip() -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    channel = await layer.new_channel("readyz.")
    marker = uuid.uuid4().hex
    await layer.send(channel, {"type": "readyz.ping", "marker": marker})
    message = await asyncio.wait_for(layer.receive(channel), timeout=CHECK_TIMEOUT_SECONDS)
    return bool(message.get("marker") == marker)


def check_channel_layer() -> ComponentHealth:
    backend = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    try:
        if async_to_sync(_channel_roundtrip)():
            return _ok(f"{backend} round trip")
    except Exception as error:  # noqa: BLE001
        return _failing(f"{backend} round trip failed", error)
    return _failing(f"{backend} not configured")


def check_broker() -> ComponentHealth:
    if settings.EMBEDDED_SERVICES:
        return _ok("in-process memory broker")
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=int(CHECK_TIMEOUT_SECONDS))
    except Exception as error:  # noqa: BLE001
        return _failing("broker unreachable", error)
    return _ok("redis broker answering")


def check_worker() -> ComponentHealth:
    try:
        replies = celery_app.control.ping(timeout=CHECK_TIMEOUT_SECONDS, limit=1)
    except Exception as error:  # noqa: BLE001
        return _failing("worker ping failed", error)
    if not replies:
        return _failing("no worker answered")
    return _ok(f"{len(replies)} worker(s) answering")


def check_browser() -> ComponentHealth:
    executable = find_browser_executable()
    if executable is None:
        return _failing("no Chromium executable found (install Debian's chromium)")
    if not os.access(executable, os.X_OK):
        return _failing("Chromium executable is not executable")
    return _ok(f"{executable.name} present")


def liveness() -> dict[str, str]:
    return {"status": "alive"}


def readiness() -> tuple[bool, dict[str, object]]:
    components = {
        "database": check_database(),
        "channel_layer": check_channel_layer(),
        "broker": check_broker(),
        "worker": check_worker(),
        "browser": check_browser(),
    }
    ready = all(component.state == "ok" for component in components.values())
    return ready, {
        "status": "ready" if ready else "not_ready",
        "components": {name: component.as_dict() for name, component in components.items()},
    }
