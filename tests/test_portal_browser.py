"""The portal in real Chromium against a real daphne server."""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from tests.conftest import PortalServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "portal-password-1"


def _sign_in(page: Any, server: PortalServer, username: str) -> None:
    page.goto(f"{server.url}/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")


def test_signed_in_user_sees_live_updates_over_the_websocket(portal_server: PortalServer, browser_page: Any) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    violations: list[str] = []
    browser_page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
    )

    _sign_in(browser_page, portal_server, "alice")
    status = browser_page.locator("#live-status")
    status.wait_for()
    browser_page.locator("#live-status[data-state=open]").wait_for()

    # Pair a device through the REST API with the page's own session and CSRF token.
    result = browser_page.evaluate(
        """async () => {
            const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
            const response = await fetch("/api/v1/devices/", {
                method: "POST",
                headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                body: JSON.stringify({name: "Garden sensor"}),
            });
            return {status: response.status, body: await response.json()};
        }"""
    )
    assert result["status"] == 201
    browser_page.locator("#live-events li", has_text="Device paired: Garden sensor").wait_for(timeout=10_000)
    assert result["body"]["token"] not in browser_page.content()
    assert violations == []


def test_another_users_browser_receives_nothing(portal_server: PortalServer, browser_page: Any, chromium: Any) -> None:
    User.objects.create_user("bob", password=PASSWORD)
    User.objects.create_user("carol", password=PASSWORD)
    _sign_in(browser_page, portal_server, "bob")
    other_context = chromium.new_context()
    other = other_context.new_page()
    try:
        _sign_in(other, portal_server, "carol")
        for page in (browser_page, other):
            page.locator("#live-status[data-state=open]").wait_for()
        browser_page.evaluate(
            """async () => {
                const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
                await fetch("/api/v1/devices/", {
                    method: "POST",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                    body: JSON.stringify({name: "Bob's phone"}),
                });
            }"""
        )
        browser_page.locator("#live-events li", has_text="Device paired: Bob's phone").wait_for(timeout=10_000)
        # Bob's page got the event; Carol's page, open all along, got nothing.
        assert other.locator("#live-events li").count() == 0
    finally:
        other_context.close()


def test_portal_pages_need_no_inline_script_or_style(portal_server: PortalServer, browser_page: Any) -> None:
    User.objects.create_user("dave", password=PASSWORD)
    _sign_in(browser_page, portal_server, "dave")
    for path in ("/", "/accounts/login/"):
        browser_page.goto(f"{portal_server.url}{path}")
        inline = browser_page.evaluate(
            """() => ({
                scripts: [...document.scripts].filter(s => !s.src && s.type !== "application/json").length,
                styled: document.querySelectorAll("[style]").length,
                styleTags: document.querySelectorAll("style").length,
                handlers: [...document.querySelectorAll("*")].filter(
                    e => [...e.attributes].some(a => a.name.startsWith("on"))).length,
            })"""
        )
        assert inline == {"scripts": 0, "styled": 0, "styleTags": 0, "handlers": 0}, path
