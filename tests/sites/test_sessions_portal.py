"""The portal's Web sessions page: the owner's place in the queue, and closing their sessions."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.sites.browser.slots import lease_request, lease_try_claim
from apps.sites.limits import MAX_CONCURRENT_BROWSER_SESSIONS
from apps.sites.models import BrowserSessionLease

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_shows_the_owners_sessions_and_place_in_line(owner: Any, second_user: Any) -> None:
    for _ in range(MAX_CONCURRENT_BROWSER_SESSIONS):
        lease_try_claim(token=lease_request(owner=second_user).token)
    running_elsewhere = BrowserSessionLease.objects.filter(owner=second_user).first()
    assert running_elsewhere is not None
    waiting = lease_request(owner=owner)
    lease_try_claim(token=waiting.token)

    page = signed_in(owner).get("/web/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-web-session="{waiting.pk}"' in html
    assert f'data-web-session="{running_elsewhere.pk}"' not in html  # another owner's session
    row = html.split(f'data-web-session="{waiting.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "<td>waiting</td>" in row and "<td>1</td>" in row
    assert "Close the web sessions" in html


def test_closing_ends_only_the_owners_sessions(owner: Any, second_user: Any) -> None:
    mine, theirs = lease_request(owner=owner), lease_request(owner=second_user)
    lease_try_claim(token=mine.token)
    lease_try_claim(token=theirs.token)

    answer = signed_in(owner).post("/web/close/", follow=True)
    assert answer.status_code == 200
    assert "Closed 1 web session(s)" in answer.content.decode()
    assert BrowserSessionLease.objects.get(pk=mine.pk).close_requested
    assert not BrowserSessionLease.objects.get(pk=theirs.pk).close_requested


def test_the_page_needs_a_signed_in_user_and_closing_needs_post(owner: Any) -> None:
    assert Client().get("/web/").status_code == 302
    assert Client().post("/web/close/").status_code == 302
    assert signed_in(owner).get("/web/close/").status_code == 405
