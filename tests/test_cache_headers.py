"""No cache keeps a signed-in user's answers; static files keep their caching (issue 15, finding 8).

The walk takes every portal page and API list from the URL resolver, so a
page or route added later is covered without editing this file.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.core.api import OwnedModelViewSet
from apps.documents.downloads import download_store
from apps.lre.models import LreJob
from apps.runtime.models import Conversation
from apps.sites.models import HandoffPanel
from apps.vault.models import Credential
from tests.factories import build_owned_row
from tests.test_tenancy_sweep import _concrete_path, _owned_model_of, _walk, api_routes

pytestmark = pytest.mark.django_db

# The rows a portal page's id names, so the walk reads real pages (and not only their 404s).
PAGE_ROWS: dict[str, Any] = {
    "conversation_id": Conversation,
    "job_id": LreJob,
    "panel_id": HandoffPanel,
    "credential_id": Credential,
}


def _portal_paths(owner: User) -> list[str]:
    paths = []
    for pattern, callback in _walk(get_resolver().url_patterns):
        view_class = getattr(callback, "cls", None)
        if pattern.startswith(("api/", settings.ADMIN_PATH, "test-probe/", "healthz", "readyz")):
            continue  # the API is walked below; the admin and the health checks are never cached anyway
        if view_class is not None:
            continue
        if pattern.startswith("accounts/logout"):
            continue  # signs the user out: the walk would go on as an anonymous visitor

        def row_id(match: re.Match[str]) -> str:
            model = PAGE_ROWS.get(match.group(1))
            return str(build_owned_row(model, owner).pk) if model is not None else "1"

        paths.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", row_id, pattern))
    return paths


def _no_store(response: Any) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


def test_every_portal_page_answers_a_signed_in_user_with_no_store(owner: User, monkeypatch: Any) -> None:
    from apps.core import health, portal

    # No worker runs here: System > Services would wait seconds for its ping. Its header is what counts.
    monkeypatch.setattr(portal, "check_worker", lambda: health.ComponentHealth.failing("not in this test"))
    client = Client()
    client.force_login(owner)
    paths = _portal_paths(owner)
    assert "/" in paths and any(path.startswith("/conversations/") for path in paths)
    stored = [f"{path} ({response.status_code})" for path in paths if not _no_store(response := client.get(path))]
    assert not stored, f"portal answers a cache may keep: {stored}"
    assert client.get("/").headers["Pragma"] == "no-cache"


@pytest.mark.parametrize("credentials", ["session", "device token"])
def test_every_api_list_and_read_answers_with_no_store(owner: User, credentials: str) -> None:
    client = Client()
    if credentials == "session":
        client.force_login(owner)
    else:
        client = Client(HTTP_AUTHORIZATION=f"Bearer {device_pair(owner=owner, name='Phone').token}")
    stored = []
    for route in api_routes():
        if "get" not in route.actions:
            continue
        pk = 1
        if issubclass(route.view_class, OwnedModelViewSet):
            pk = build_owned_row(_owned_model_of(route, owner), owner).pk
        response = client.get(_concrete_path(route, pk))
        if not _no_store(response):
            stored.append(f"GET {route.name} ({response.status_code})")
    assert not stored, f"API answers a cache may keep: {stored}"


def test_a_download_of_the_owners_file_is_no_store(owner: User, settings: Any, tmp_path: Any) -> None:
    settings.DOWNLOADS_ROOT = tmp_path / "downloads"
    download = download_store(owner=owner, name="invoice.pdf", content=b"%PDF-1.4", content_type="application/pdf")
    client = Client()
    client.force_login(owner)
    response = client.get(f"/api/v1/downloads/{download.pk}/content/")
    assert response.status_code == 200
    assert _no_store(response)


@pytest.mark.parametrize("visitor", ["signed in", "anonymous"])
def test_static_files_keep_their_caching(owner: User, visitor: str) -> None:
    client = Client()
    if visitor == "signed in":
        client.force_login(owner)
    static = client.get("/" + settings.STATIC_URL.strip("/") + "/js/conversation.js")
    assert static.status_code == 200
    assert not _no_store(static) and "max-age" in static.headers.get("Cache-Control", "")
    assert "Pragma" not in static.headers
