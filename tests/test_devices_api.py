"""Paired devices: the token is shown once, stored hashed, and works for REST."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from apps.accounts.models import Device, User
from apps.accounts.tokens import hash_token
from tests.conftest import api_client_for

pytestmark = pytest.mark.django_db


def _pair(user: User, name: str = "Kitchen tablet") -> dict[str, object]:
    response = api_client_for(user).post("/api/v1/devices/", {"name": name}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_pairing_shows_the_token_once_and_stores_only_its_hash(owner: User) -> None:
    body = _pair(owner)
    token = str(body["token"])
    device = Device.objects.get(pk=int(str(body["id"])))
    assert device.owner == owner
    assert device.token_hash == hash_token(token)
    assert token not in {device.token_hash, device.token_prefix, device.name}
    listed = api_client_for(owner).get(f"/api/v1/devices/{device.pk}/").json()
    assert "token" not in listed
    assert "token_hash" not in listed


def test_device_token_authenticates_as_its_owner(owner: User) -> None:
    token = _pair(owner)["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.get("/api/v1/me/")
    assert response.status_code == 200
    assert response.json()["username"] == owner.username


@pytest.mark.parametrize(
    "header",
    ["Bearer mtd_00000000_nope", "Bearer not-a-token", "Bearer", "Bearer a b", "Bearer mtd_short_x"],
)
def test_bad_device_tokens_get_a_typed_401(owner: User, header: str) -> None:
    _pair(owner)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_a_tampered_token_with_a_real_prefix_is_refused(owner: User) -> None:
    token = str(_pair(owner)["token"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token[:-2]}xx")
    assert client.get("/api/v1/me/").status_code == 401


def test_revoked_device_token_stops_working(owner: User) -> None:
    body = _pair(owner)
    assert api_client_for(owner).delete(f"/api/v1/devices/{body['id']}/").status_code == 204
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert client.get("/api/v1/me/").status_code == 401


def test_rename_validates_the_name(owner: User) -> None:
    body = _pair(owner)
    client = api_client_for(owner)
    response = client.patch(f"/api/v1/devices/{body['id']}/", {"name": "x" * 500}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert "name" in response.json()["error"]["fields"]
    assert client.patch(f"/api/v1/devices/{body['id']}/", {"name": "Hall"}, format="json").json()["name"] == "Hall"


def test_token_appears_in_no_log_or_admin_page(owner: User, operator: User, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    body = _pair(owner, name="Canary device")
    token = str(body["token"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.get("/api/v1/me/")
    admin = Client()
    admin.force_login(operator)
    pages = [
        admin.get(f"/{settings.ADMIN_PATH}accounts/device/"),
        admin.get(f"/{settings.ADMIN_PATH}accounts/device/{body['id']}/change/"),
        admin.get(f"/{settings.ADMIN_PATH}accounts/device/?q={token[:12]}"),
    ]
    device = Device.objects.get(pk=int(str(body["id"])))
    for page in pages:
        assert page.status_code == 200
        assert token.encode() not in page.content
        assert device.token_hash.encode() not in page.content
    assert token not in caplog.text


def test_malformed_json_gets_a_typed_400(owner: User) -> None:
    client = api_client_for(owner)
    response = client.generic("POST", "/api/v1/devices/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_unknown_api_route_answers_json_404(owner: User) -> None:
    response = api_client_for(owner).get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_non_numeric_id_is_a_404_not_a_500(owner: User) -> None:
    response = api_client_for(owner).get("/api/v1/devices/abc/")
    assert response.status_code == 404


def test_a_rename_without_a_name_keeps_the_name(owner: User) -> None:
    body = _pair(owner, name="Kitchen tablet")
    response = api_client_for(owner).patch(f"/api/v1/devices/{body['id']}/", {}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Kitchen tablet"
