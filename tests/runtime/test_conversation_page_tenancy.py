"""The portal's conversation page belongs to its owner: anyone else gets the 404 of a missing page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.runtime.turns import turn_submit

pytestmark = pytest.mark.django_db

REQUEST = "find the pdf files in the Secret folder"
# Each page masks its CSRF token afresh; the rest of a 404 page must be identical.
_CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def _page_of(user: User, path: str) -> tuple[int, str]:
    client = Client()
    client.force_login(user)
    response = client.get(path)
    return response.status_code, _CSRF_TOKEN.sub("", response.content.decode())


def test_other_owner_gets_404_on_a_conversation_page(owner: User, second_user: User) -> None:
    conversation = turn_submit(owner=owner, text=REQUEST, enqueue=False).conversation
    page = f"/conversations/{conversation.pk}/"

    assert _page_of(owner, page)[0] == 200
    foreign_status, foreign_body = _page_of(second_user, page)
    missing_status, missing_body = _page_of(second_user, f"/conversations/{conversation.pk + 1000}/")

    assert foreign_status == missing_status == 404
    assert foreign_body == missing_body
    assert "Secret" not in foreign_body
