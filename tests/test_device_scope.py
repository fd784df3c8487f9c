"""What a paired device's token may do over REST, route by route.

A device token runs the steps sent to its device, submits requests and
follows the turns of its own conversations, and says whose it is. It never
manages devices, credentials, conversations or anything else of its owner's.
The walk below takes every API route from the URL resolver, so a route added
later is covered without editing this file: it fails naming a route whose view
declares nothing, and any answer that differs from the table.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apps.accounts.models import Device, User
from apps.accounts.services import device_pair, device_revoke
from apps.core.api import OwnedModelViewSet
from apps.runtime.models import Conversation, Turn
from apps.vault.models import Credential
from tests.conftest import Cast, api_client_for
from tests.factories import build_owned_row
from tests.test_tenancy_sweep import ApiRoute, _concrete_path, _owned_model_of, api_routes

pytestmark = pytest.mark.django_db

# What a device may call: view → its actions. Everything else answers 403 to a device token.
DEVICE_MAY: dict[str, frozenset[str]] = {
    "MeView": frozenset({"list"}),  # whose device this is
    "DeviceStepViewSet": frozenset({"list", "retrieve", "claim", "result"}),  # steps sent to the device
    "TurnViewSet": frozenset({"create", "list", "retrieve"}),  # requests, in the device's own conversations
}

METHODS = ("get", "post", "put", "patch", "delete")


def _device_client(owner: User, name: str = "Phone") -> tuple[Device, APIClient, str]:
    paired = device_pair(owner=owner, name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {paired.token}")
    return paired.device, client, paired.token


def _pk_for(route: ApiRoute, owner: User) -> Any:
    if issubclass(route.view_class, OwnedModelViewSet):
        return build_owned_row(_owned_model_of(route, owner), owner).pk
    return 1


def test_every_api_view_declares_what_a_device_may_do() -> None:
    undeclared = sorted(
        {route.name for route in api_routes() if getattr(route.view_class, "device_access", None) is None}
    )
    assert not undeclared, f"API views without a device_access declaration: {undeclared}"


def test_the_declarations_match_the_table() -> None:
    declared = {
        route.view_class.__name__: frozenset(route.view_class.device_access)  # type: ignore[attr-defined]
        for route in api_routes()
        if getattr(route.view_class, "device_access", None)
    }
    assert declared == DEVICE_MAY


def test_every_api_view_checks_the_device_scope() -> None:
    from apps.accounts.device_scope import DeviceTokenScope

    unchecked = sorted(
        {
            route.name
            for route in api_routes()
            if not any(
                isinstance(permission, type) and issubclass(permission, DeviceTokenScope)
                for permission in route.view_class.permission_classes
            )
        }
    )
    assert not unchecked, f"API views that do not check what a device token may do: {unchecked}"


def test_a_device_token_gets_exactly_what_the_table_allows_on_every_route(cast: Cast) -> None:
    _, device, _ = _device_client(cast.owner)
    wrong: list[str] = []
    walked = 0
    for route in api_routes():
        allowed = DEVICE_MAY.get(route.view_class.__name__, frozenset())
        for method in METHODS:
            action = route.actions.get(method)
            if action is None:
                continue
            walked += 1
            path = _concrete_path(route, _pk_for(route, cast.owner))
            response = getattr(device, method)(path, {}, format="json")
            if action in allowed:
                if response.status_code in (401, 403):
                    wrong.append(f"{method.upper()} {route.name} ({action}) refused a device: {response.status_code}")
            elif response.status_code != 403:
                wrong.append(f"{method.upper()} {route.name} ({action}) answered {response.status_code} to a device")
            elif response.json()["error"]["code"] != "permission_denied":
                wrong.append(f"{method.upper()} {route.name} ({action}) refused a device untyped")
    assert walked > 30  # the walk itself must not be vacuous
    assert not wrong, wrong


def test_a_device_cannot_pair_another_device(owner: User) -> None:
    _, device, _ = _device_client(owner)
    response = device.post("/api/v1/devices/", {"name": "Minted by a device"}, format="json")
    assert response.status_code == 403
    assert "token" not in response.json()
    assert not Device.objects.filter(name="Minted by a device").exists()


def test_a_device_cannot_list_credentials(owner: User) -> None:
    build_owned_row(Credential, owner)
    _, device, _ = _device_client(owner)
    response = device.get("/api/v1/credentials/")
    assert response.status_code == 403
    assert "results" not in response.json()


def test_a_device_cannot_delete_a_conversation(owner: User) -> None:
    phone, device, _ = _device_client(owner)
    conversation = Conversation.objects.create(owner=owner, title="Taxes", device=phone)
    assert device.delete(f"/api/v1/conversations/{conversation.pk}/").status_code == 403
    assert Conversation.objects.filter(pk=conversation.pk).exists()


def test_a_device_follows_only_the_turns_of_its_own_conversations(owner: User) -> None:
    _, device, _ = _device_client(owner)
    submitted = device.post("/api/v1/turns/", {"text": "list my holiday photos"}, format="json")
    assert submitted.status_code == 202
    mine = submitted.json()
    assert device.get(f"/api/v1/turns/{mine['id']}/").status_code == 200
    follow_up = device.post(
        "/api/v1/turns/", {"text": "and the hill ones", "conversation": mine["conversation"]}, format="json"
    )
    assert follow_up.status_code == 202

    portal = api_client_for(owner).post("/api/v1/turns/", {"text": "Canary: my tax folder"}, format="json").json()
    assert device.get(f"/api/v1/turns/{portal['id']}/").status_code == 404
    listed = device.get("/api/v1/turns/").json()["results"]
    assert {turn["id"] for turn in listed} == {mine["id"], follow_up.json()["id"]}
    assert "Canary" not in str(listed)
    # Nor can it take the portal's conversation over by writing into it.
    hijack = device.post("/api/v1/turns/", {"text": "hello", "conversation": portal["conversation"]}, format="json")
    assert hijack.status_code == 404
    assert Conversation.objects.get(pk=portal["conversation"]).device_id is None
    assert Turn.objects.filter(conversation_id=portal["conversation"]).count() == 1


def test_revoking_a_device_makes_its_token_fail_everywhere(cast: Cast) -> None:
    phone, device, _ = _device_client(cast.owner)
    device_revoke(device=phone)
    answered: list[str] = []
    for route in api_routes():
        for method in METHODS:
            if method not in route.actions:
                continue
            response = getattr(device, method)(_concrete_path(route, _pk_for(route, cast.owner)), {}, format="json")
            if response.status_code != 401:
                answered.append(f"{method.upper()} {route.name} answered {response.status_code} to a revoked token")
    assert not answered, answered


def test_a_device_marked_revoked_is_refused(owner: User) -> None:
    phone, device, _ = _device_client(owner)
    Device.objects.filter(pk=phone.pk).update(revoked_at=phone.created_at)
    assert device.get("/api/v1/me/").status_code == 401


def test_the_owner_in_the_browser_keeps_managing_devices(owner: User) -> None:
    browser = api_client_for(owner)
    paired = browser.post("/api/v1/devices/", {"name": "Tablet"}, format="json")
    assert paired.status_code == 201
    assert browser.get("/api/v1/credentials/").status_code == 200
    assert browser.delete(f"/api/v1/devices/{paired.json()['id']}/").status_code == 204
