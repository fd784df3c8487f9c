"""REST: add, list, rename and delete credentials; metadata only; another owner gets 404."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.vault.models import Credential
from tests.conftest import api_client_for
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, OTHER_KEY

pytestmark = pytest.mark.django_db
URL = "/api/v1/credentials/"
METADATA = {"id", "label", "username", "origins", "has_totp", "created_at", "updated_at", "last_used_at"}


def _add(client: Any, **overrides: Any) -> Any:
    body = {"label": "Bank", "origins": [f"{BANK_ORIGIN}/login"], "username": "ada", "secret": BANK_SECRET}
    return client.post(URL, {**body, **overrides}, format="json")


def test_add_list_read_rename_delete(owner: User) -> None:
    client = api_client_for(owner)
    created = _add(client)
    assert created.status_code == 201, created.content
    body = created.json()
    assert set(body) == METADATA and body["origins"] == [BANK_ORIGIN] and body["has_totp"] is False
    listed = client.get(URL).json()["results"]
    assert [item["label"] for item in listed] == ["Bank"]
    assert client.get(f"{URL}{body['id']}/").json()["username"] == "ada"

    renamed = client.patch(f"{URL}{body['id']}/", {"label": "Main bank"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["label"] == "Main bank"
    assert Credential.objects.get().label == "Main bank"

    assert client.delete(f"{URL}{body['id']}/").status_code == 204
    assert not Credential.objects.exists()
    for response in (created, renamed):
        assert BANK_SECRET not in response.content.decode()


def test_rename_changes_only_the_name(owner: User, bank: Credential) -> None:
    client = api_client_for(owner)
    answer = client.put(
        f"{URL}{bank.pk}/",
        {"label": "Renamed", "username": "mallory", "origins": ["https://evil.example"], "secret": "new"},
        format="json",
    )
    assert answer.status_code == 200
    bank.refresh_from_db()
    assert (bank.label, bank.username, bank.origins) == ("Renamed", "ada@example.org", [BANK_ORIGIN])


def test_another_owner_gets_404(owner: User, second_user: User, bank: Credential) -> None:
    intruder = api_client_for(second_user)
    assert intruder.get(URL).json()["results"] == []
    for method in ("get", "patch", "put", "delete"):
        response = getattr(intruder, method)(f"{URL}{bank.pk}/", {"label": "x"}, format="json")
        assert response.status_code == 404, method
    assert Credential.objects.get(pk=bank.pk).label == "Bank"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"secret": ""}, "secret"),
        ({"origins": []}, "origins"),
        ({"origins": ["https://user:pw-in-url@bank.example"]}, "origins"),
        ({"origins": ["javascript:alert(1)"]}, "origins"),
        ({"label": " "}, "label"),
        ({"secret": "line\nbreak"}, "secret"),
        ({"totp_seed": "JBSWY3DPEHPK3PXP"}, "authorise_code_automation"),
        ({"totp_seed": "not base32!", "authorise_code_automation": True}, "totp_seed"),
    ],
)
def test_bad_input_is_a_typed_400_without_values(owner: User, overrides: dict[str, Any], field: str) -> None:
    answer = _add(api_client_for(owner), **overrides)
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "invalid" and field in error["fields"]
    assert "pw-in-url" not in answer.content.decode() and "line\\nbreak" not in answer.content.decode()
    assert not Credential.objects.exists()


def test_duplicate_name_is_refused(owner: User, bank: Credential) -> None:
    answer = _add(api_client_for(owner), label="bank")
    assert answer.status_code == 400 and "label" in answer.json()["error"]["fields"]


def test_changed_vault_key_answers_503_not_an_empty_vault(owner: User, bank: Credential, settings: Any) -> None:
    settings.METNOS_VAULT_KEY = OTHER_KEY
    client = api_client_for(owner)
    for response in (client.get(URL), _add(client, label="Other"), client.delete(f"{URL}{bank.pk}/")):
        assert response.status_code == 503
        assert response.json()["error"]["code"] == "vault_key_mismatch"
    assert Credential.objects.count() == 1
