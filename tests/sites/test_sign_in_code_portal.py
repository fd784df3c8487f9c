"""A one-time code asked in the portal, in real Chromium against a real server and its worker.

The owner asks to sign in from a conversation; the live ``turn.input_requested``
event draws the question form (a password-type field, never prefilled); the
code typed there reaches the waiting step, the sign-in completes, and the code
appears nowhere in the page afterwards.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.models import InputRequest, Turn
from apps.vault.services import credential_save
from tests.conftest import PortalServer
from tests.sites.fixture_web import FixtureWeb, wait_until
from tests.sites.signin_support import PASSWORD as SITE_PASSWORD
from tests.sites.signin_support import USERNAME, ask_in_the_portal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "portal-password-1"


def test_the_code_typed_in_the_portal_question_completes_the_sign_in(
    portal_server: PortalServer, browser_page: Any, fixture_web: FixtureWeb
) -> None:
    user = User.objects.create_user("code-user", password=PASSWORD)
    site = fixture_web.fresh("signin-otp")
    credential_save(owner=user, label="Bank", origins=[site.origin], username=USERNAME, secret=SITE_PASSWORD)
    page = browser_page
    ask_in_the_portal(page, portal_server.url, user, PASSWORD, f"sign in to {site.url('/login.html')}")

    field = page.locator("form.question input[name=value]")
    field.wait_for(timeout=90_000)
    assert field.get_attribute("type") == "password" and field.input_value() == ""
    assert wait_until(lambda: InputRequest.objects.filter(owner=user, status="pending").exists(), 10)
    code = site.current_code()
    field.fill(code)
    page.locator("form.question button[type=submit]").click()

    turn_box = page.locator(".turn[data-status=completed]")
    turn_box.wait_for(timeout=60_000)
    turn = Turn.objects.get(owner=user)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert page.locator("form.question").count() == 0  # the question went away with the answer
    assert code not in page.content() and code not in turn.answer
    assert turn.steps.get(index=1).result["value"]["outcome"] == "signed_in"
