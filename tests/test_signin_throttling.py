"""Sign-in throttling for the portal and the admin (django-axes)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from apps.accounts.models import User

pytestmark = pytest.mark.django_db

LOGIN_PAGES = {"portal": "/accounts/login/", "admin": f"/{settings.ADMIN_PATH}login/"}


@pytest.mark.parametrize("page", sorted(LOGIN_PAGES))
def test_repeated_wrong_passwords_lock_the_sign_in(page: str, operator: User) -> None:
    client = Client(REMOTE_ADDR="203.0.113.9")
    url = LOGIN_PAGES[page]
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(url, {"username": operator.username, "password": "wrong-password"})
        assert response.status_code == 200  # the form again, with an error
    # The attempt that reaches the limit is itself answered with the lockout.
    response = client.post(url, {"username": operator.username, "password": "wrong-password"})
    assert response.status_code == 429
    # Locked now: even the right password is refused, without revealing it was right.
    locked = client.post(url, {"username": operator.username, "password": "operator-password-1"})
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert "_auth_user_id" not in client.session


def test_lockout_is_per_username_and_address(owner: User, second_user: User) -> None:
    attacker = Client(REMOTE_ADDR="203.0.113.10")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        attacker.post("/accounts/login/", {"username": owner.username, "password": "nope"})
    # Another user from the same address, and the owner from elsewhere, still sign in.
    other_user = Client(REMOTE_ADDR="203.0.113.10")
    assert (
        other_user.post(
            "/accounts/login/", {"username": second_user.username, "password": "second-password-1"}
        ).status_code
        == 302
    )
    owner_elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert (
        owner_elsewhere.post(
            "/accounts/login/", {"username": owner.username, "password": "owner-password-1"}
        ).status_code
        == 302
    )


def test_portal_requires_sign_in(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_responses_carry_security_headers(client: Client) -> None:
    response = client.get("/accounts/login/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_session_cookie_is_http_only(owner: User) -> None:
    client = Client()
    client.post("/accounts/login/", {"username": owner.username, "password": "owner-password-1"})
    assert client.cookies[settings.SESSION_COOKIE_NAME]["httponly"]
    assert client.cookies[settings.CSRF_COOKIE_NAME]["httponly"]
