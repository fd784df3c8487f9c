"""/healthz and /readyz."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from apps.core import health
from apps.core.health import ComponentHealth
from apps.sites.readiness import check_browser
from tests.conftest import SERVICES_PASS, WorkerHandle

COMPONENTS = {"database", "channel_layer", "broker", "worker", "browser"}


def test_healthz_answers_without_touching_services(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "alive"}


@pytest.mark.django_db(transaction=True)
def test_readyz_reports_every_component_ready_with_a_worker(background_worker: WorkerHandle, client: Client) -> None:
    response = client.get("/readyz")
    body = response.json()
    assert set(body["components"]) == COMPONENTS
    assert response.status_code == 200, body
    assert body["status"] == "ready"
    assert all(component["state"] == "ok" for component in body["components"].values())
    expected_layer = "RedisChannelLayer" if SERVICES_PASS else "InMemoryChannelLayer"
    assert expected_layer in body["components"]["channel_layer"]["detail"]


@pytest.mark.django_db(transaction=True)
def test_readyz_names_the_missing_browser(
    background_worker: WorkerHandle, client: Client, settings: object, tmp_path: Path
) -> None:
    settings.METNOS_BROWSER_EXECUTABLE = str(tmp_path / "no-chromium-here")  # type: ignore[attr-defined]
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not_ready"
    assert body["components"]["browser"]["state"] == "failing"
    assert body["components"]["database"]["state"] == "ok"


@pytest.mark.django_db
def test_readyz_contains_no_secrets_or_addresses(client: Client) -> None:
    text = json.dumps(client.get("/readyz").json())
    for secret in (settings.SECRET_KEY, settings.METNOS_VAULT_KEY):
        assert secret not in text
    assert "redis://" not in text
    assert "postgresql://" not in text
    assert str(settings.DATABASES["default"]["NAME"]) not in text


@pytest.mark.skipif(SERVICES_PASS, reason="the services pass always has a worker process")
@pytest.mark.django_db
def test_readyz_without_any_worker_is_not_ready(client: Client) -> None:
    from apps.core.embedded_worker import embedded_worker

    if embedded_worker() is not None:
        pytest.skip("an embedded worker already runs in this process")
    body = client.get("/readyz").json()
    assert body["components"]["worker"] == {"state": "failing", "detail": "no worker answered"}


def _failing_check() -> ComponentHealth:
    return ComponentHealth.failing("the probe is down")


def _raising_check() -> ComponentHealth:
    raise RuntimeError("secret-token-in-a-message")


@pytest.mark.django_db(transaction=True)
def test_a_registered_check_is_answered_and_its_failure_makes_readyz_503(
    background_worker: WorkerHandle, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(health.READINESS_CHECKS, "probe", lambda: ComponentHealth.ok("probe answering"))
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.json()["components"]["probe"] == {"state": "ok", "detail": "probe answering"}

    monkeypatch.setitem(health.READINESS_CHECKS, "probe", _failing_check)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not_ready"
    assert body["components"]["probe"] == {"state": "failing", "detail": "the probe is down"}
    assert set(body["components"]) == COMPONENTS | {"probe"}


@pytest.mark.django_db
def test_a_registered_check_that_raises_is_failing_without_its_message(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(health.READINESS_CHECKS, "probe", _raising_check)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["components"]["probe"] == {"state": "failing", "detail": "check failed (RuntimeError)"}
    assert "secret-token" not in response.content.decode()


def test_a_component_name_is_registered_once() -> None:
    assert health.READINESS_CHECKS["browser"] is check_browser  # the browser is the sites app's check
    for name in ("browser", "database"):
        with pytest.raises(ImproperlyConfigured):
            health.register_readiness_check(name, _failing_check)
