"""The verification panel in the portal, in real Chromium against a real server and its worker.

The owner asks to sign in from a conversation; the live event adds the link
to the panel; the panel page shows the session's page, takes a click on the
image (scaled to the page's pixels) and Resume, and then shows that the
request continues, with no script refused by the site's policy.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.models import Turn
from apps.sites.models import HandoffPanel
from apps.vault.services import credential_save
from tests.conftest import PortalServer
from tests.sites.fixture_web import FixtureWeb, wait_until
from tests.sites.handoff_support import CHECK_AT
from tests.sites.signin_support import PASSWORD as SITE_PASSWORD
from tests.sites.signin_support import USERNAME, ask_in_the_portal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "portal-password-1"
VIEWPORT = (1280, 720)  # the managed browser's page size, which the image has


def test_the_owner_clears_the_check_in_the_portal_and_the_request_continues(
    portal_server: PortalServer, browser_page: Any, fixture_web: FixtureWeb
) -> None:
    user = User.objects.create_user("handoff-user", password=PASSWORD)
    site = fixture_web.fresh("signin-handoff")
    credential_save(owner=user, label="Shop", origins=[site.origin], username=USERNAME, secret=SITE_PASSWORD)
    page = browser_page
    refused: list[str] = []
    page.on("console", lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None)
    ask_in_the_portal(page, portal_server.url, user, PASSWORD, f"sign in to {site.url('/login.html')}")

    link = page.locator("a.handoff-link")
    link.wait_for(timeout=90_000)
    link.click()
    page.locator("#handoff[data-status=open]").wait_for(timeout=10_000)
    assert "keyboard" in page.inner_text("#handoff") and "audio" in page.inner_text("#handoff")
    image = page.locator("#handoff-image")
    # Polled from here: the portal's CSP forbids the string evaluation wait_for_function uses.
    assert wait_until(lambda: image.evaluate("element => element.naturalWidth") > 0, 10), "no picture of the page"
    box = image.bounding_box()
    assert box is not None
    image.click(
        position={"x": CHECK_AT[0] * box["width"] / VIEWPORT[0], "y": CHECK_AT[1] * box["height"] / VIEWPORT[1]}
    )
    # Generous: the embedded pass runs three test processes and their browsers on two cores.
    assert wait_until(lambda: "human" in site.presses(), 30), "the click on the image did not reach the page"
    page.click("#handoff-resume")
    page.locator("#handoff[data-status=resumed]").wait_for(timeout=60_000)
    resumed = HandoffPanel.objects.get(owner=user).resumed_turn_id
    assert resumed is not None
    assert f"turn {resumed}" in page.inner_text("#handoff-state")

    # After a reload the page reads where things are and sends nothing again.
    page.reload()
    page.locator("#handoff[data-status=resumed]").wait_for(timeout=10_000)
    assert wait_until(lambda: Turn.objects.get(pk=resumed).status == Turn.Status.COMPLETED, 60), Turn.objects.get(
        pk=resumed
    ).answer
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]
    assert refused == []
