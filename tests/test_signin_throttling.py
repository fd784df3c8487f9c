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


# One wrong password for each of this many usernames, from one address: a password spray.
SPRAYED_USERNAMES = 20


def test_one_failure_on_each_of_many_usernames_locks_the_address(owner: User) -> None:
    sprayer = Client(REMOTE_ADDR="203.0.113.20")
    answers = [
        sprayer.post("/accounts/login/", {"username": f"guess-{number}", "password": "Summer2026!"}).status_code
        for number in range(SPRAYED_USERNAMES)
    ]
    assert 429 in answers, "twenty usernames, one failure each, from one address were never throttled"
    limit = settings.METNOS_SIGNIN_ADDRESS_FAILURE_LIMIT
    assert limit <= SPRAYED_USERNAMES
    # The failure that reaches the address's limit is itself answered with the lockout.
    assert answers == [200] * (limit - 1) + [429] * (SPRAYED_USERNAMES - limit + 1)
    # Locked now for every username from that address, the right password included, with a plain message.
    locked = Client(REMOTE_ADDR="203.0.113.20").post(
        "/accounts/login/", {"username": owner.username, "password": "owner-password-1"}
    )
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert b"Sign-in from your address is paused" in locked.content
    assert "_auth_user_id" not in locked.wsgi_request.session
    # Another address is not locked.
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    assert (
        elsewhere.post("/accounts/login/", {"username": owner.username, "password": "owner-password-1"}).status_code
        == 302
    )
