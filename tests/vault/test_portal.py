"""The vault's portal pages: the one form a password is typed in; list, rename, delete; 404 for others."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.views.debug import ExceptionReporter

from apps.accounts.models import User
from apps.vault.models import Credential
from apps.vault.portal_views import vault_new
from tests.vault.conftest import BANK_ORIGIN, BANK_SECRET, OTHER_KEY

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(**overrides: str) -> dict[str, str]:
    return {"label": "Bank", "origins": f"{BANK_ORIGIN}\nhttps://m.bank.example", "username": "ada",
            "secret": BANK_SECRET, **overrides}  # fmt: skip


def test_navigation_links_to_the_vault(owner: User) -> None:
    assert b'href="/vault/"' in _client(owner).get("/").content


def test_add_from_the_form_then_list(owner: User) -> None:
    client = _client(owner)
    saved = client.post("/vault/new/", _form(), follow=True)
    assert saved.status_code == 200
    page = saved.content.decode()
    assert "Saved the credential «Bank»." in page and "https://m.bank.example" in page and "ada" in page
    assert BANK_SECRET not in page
    credential = Credential.objects.get()
    assert credential.origins == [BANK_ORIGIN, "https://m.bank.example"] and credential.owner == owner


def test_a_refused_form_never_renders_the_password_back(owner: User) -> None:
    answer = _client(owner).post("/vault/new/", _form(origins="ftp://bank.example"))
    page = answer.content.decode()
    assert answer.status_code == 200 and "https://" in page and "error" in page
    assert BANK_SECRET not in page
    assert not Credential.objects.exists()


def test_the_form_is_prefilled_from_a_credentials_save_link(owner: User) -> None:
    page = _client(owner).get("/vault/new/", {"origin": BANK_ORIGIN, "label": "Bank", "username": "ada"})
    content = page.content.decode()
    assert BANK_ORIGIN in content and 'value="ada"' in content and 'value="Bank"' in content
    assert 'type="password"' in content and "<script" not in content


def test_rename_and_delete(owner: User, bank: Credential) -> None:
    client = _client(owner)
    client.post(f"/vault/{bank.pk}/rename/", {"label": "Main bank"})
    assert Credential.objects.get().label == "Main bank"
    confirm = client.get(f"/vault/{bank.pk}/delete/")
    assert confirm.status_code == 200 and "cannot be undone" in confirm.content.decode()
    assert Credential.objects.exists()
    client.post(f"/vault/{bank.pk}/delete/")
    assert not Credential.objects.exists()


def test_another_owner_gets_404(second_user: User, bank: Credential) -> None:
    client = _client(second_user)
    assert "Bank" not in client.get("/vault/").content.decode()
    assert client.get(f"/vault/{bank.pk}/delete/").status_code == 404
    assert client.post(f"/vault/{bank.pk}/delete/").status_code == 404
    assert client.post(f"/vault/{bank.pk}/rename/", {"label": "Mine"}).status_code == 404
    assert Credential.objects.get(pk=bank.pk).label == "Bank"


def test_signed_out_visitors_are_sent_to_sign_in(bank: Credential) -> None:
    for path in ("/vault/", "/vault/new/", f"/vault/{bank.pk}/delete/"):
        assert Client().get(path).status_code == 302


def test_changed_vault_key_shows_why_instead_of_an_empty_vault(owner: User, bank: Credential, settings: Any) -> None:
    settings.METNOS_VAULT_KEY = OTHER_KEY
    client = _client(owner)
    page = client.get("/vault/")
    assert page.status_code == 503 and "not the key this vault was encrypted with" in page.content.decode()
    assert client.post("/vault/new/", _form(label="Other")).status_code == 503
    assert Credential.objects.count() == 1


def test_an_error_report_of_a_failing_save_shows_no_value(
    owner: User, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.DEBUG = False  # production error reports (e-mails, logs) filter sensitive data

    def database_gone(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(Credential, "save", database_gone)
    request = RequestFactory().post("/vault/new/", _form())
    request.user = owner
    with pytest.raises(RuntimeError):
        try:
            vault_new(request)
        except RuntimeError:
            report = ExceptionReporter(request, *sys.exc_info()).get_traceback_text()
            raise
    assert "database went away" in report and "credential_save" in report
    assert BANK_SECRET not in report
