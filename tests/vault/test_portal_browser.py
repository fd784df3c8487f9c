"""The vault's pages in real Chromium against daphne: add, list, rename, delete; no script, no value shown."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.vault.crypto import unseal
from apps.vault.models import Credential
from tests.conftest import PortalServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "portal-password-1"
SECRET = "browser-typed-Secret-41"


def test_owner_adds_renames_and_deletes_a_credential_in_the_browser(
    portal_server: PortalServer, browser_page: Any
) -> None:
    User.objects.create_user("vera", password=PASSWORD)
    violations: list[str] = []
    browser_page.on(
        "console", lambda message: violations.append(message.text) if "Content Security" in message.text else None
    )
    page = browser_page
    page.goto(f"{portal_server.url}/")
    page.fill("#id_username", "vera")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{portal_server.url}/")

    page.click("nav >> text=Vault")
    page.click("text=Add a credential")
    page.fill("#id_label", "Bank")
    page.fill("#id_origins", "https://bank.example/login")
    page.fill("#id_username", "vera@example.org")
    page.fill("#id_secret", SECRET)
    page.click("button:has-text('Save')")
    page.locator("text=Saved the credential «Bank».").wait_for()
    assert "https://bank.example" in page.content() and SECRET not in page.content()
    assert unseal(Credential.objects.get().secret) == SECRET

    page.fill("input[name=label]", "Main bank")
    page.click("button:has-text('Rename')")
    page.locator("text=Renamed to «Main bank».").wait_for()
    page.click("text=Delete…")
    page.click("button:has-text('Delete')")
    page.locator("text=No credentials saved yet.").wait_for()
    assert not Credential.objects.exists()
    assert violations == []
