"""Liveness and readiness checks.

Each check answers a state and a short fixed explanation — never a URL,
password, host list or exception message, which could carry secrets.

The platform's own components (database, channel layer, broker, worker) are
checked here. An app that needs something more to do real work registers a
check for it from its ``AppConfig.ready()`` with
:func:`register_readiness_check` (as ``sites`` does for the browser
executable); ``/readyz`` answers every check, and is ready only when all are.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from metnos_site.celery import app as celery_app

State = Literal["ok", "failing"]
CHECK_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class ComponentHealth:
    state: State
    detail: str

    @classmethod
    def ok(cls, detail: str) -> ComponentHealth:
        return cls("ok", detail)

    @classmethod
    def failing(cls, detail: str, error: BaseException | None = None) -> ComponentHealth:
        """A failure; of an exception only its type is named, never its message."""
        suffix = f" ({type(error).__name__})" if error is not None else ""
        return cls("failing", detail + suffix)

    def as_dict(self) -> dict[str, str]:
        return {"state": self.state, "detail": self.detail}


ReadinessCheck = Callable[[], ComponentHealth]


def check_database() -> ComponentHealth:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure means not ready
        return ComponentHealth.failing("database unreachable", error)
    return ComponentHealth.ok(f"{connection.vendor} answering")


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
            return ComponentHealth.ok(f"{backend} round trip")
    except Exception as error:  # noqa: BLE001
        return ComponentHealth.failing(f"{backend} round trip failed", error)
    return ComponentHealth.failing(f"{backend} not configured")


def check_broker() -> ComponentHealth:
    if settings.EMBEDDED_SERVICES:
        return ComponentHealth.ok("in-process memory broker")
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=int(CHECK_TIMEOUT_SECONDS))
    except Exception as error:  # noqa: BLE001
        return ComponentHealth.failing("broker unreachable", error)
    return ComponentHealth.ok("redis broker answering")


def check_worker() -> ComponentHealth:
    try:
        replies = celery_app.control.ping(timeout=CHECK_TIMEOUT_SECONDS, limit=1)
    except Exception as error:  # noqa: BLE001
        return ComponentHealth.failing("worker ping failed", error)
    if not replies:
        return ComponentHealth.failing("no worker answered")
    return ComponentHealth.ok(f"{len(replies)} worker(s) answering")


# The platform's components, in the order /readyz and System > Services show them.
PLATFORM_CHECKS: dict[str, ReadinessCheck] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
    "worker": check_worker,
}
# What the apps above the platform registered, in the order they registered it.
READINESS_CHECKS: dict[str, ReadinessCheck] = {}


def register_readiness_check(name: str, check: ReadinessCheck) -> None:
    """Add ``check`` to ``/readyz`` under ``name``; call it from an ``AppConfig.ready()``."""
    if name in PLATFORM_CHECKS or name in READINESS_CHECKS:
        raise ImproperlyConfigured(f"readiness check {name!r} registered twice")
    READINESS_CHECKS[name] = check


def platform_health() -> dict[str, ComponentHealth]:
    return {name: check() for name, check in PLATFORM_CHECKS.items()}


def _run_registered(check: ReadinessCheck) -> ComponentHealth:
    try:
        return check()
    except Exception as error:  # noqa: BLE001 - a check that breaks reports its component failing
        return ComponentHealth.failing("check failed", error)


def liveness() -> dict[str, str]:
    return {"status": "alive"}


def readiness() -> tuple[bool, dict[str, object]]:
    components = platform_health()
    components.update((name, _run_registered(check)) for name, check in READINESS_CHECKS.items())
    ready = all(component.state == "ok" for component in components.values())
    return ready, {
        "status": "ready" if ready else "not_ready",
        "components": {name: component.as_dict() for name, component in components.items()},
    }
