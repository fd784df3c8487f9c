"""The owner's portal names conversations by their titles; only operators see "Conversation N"."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.runtime.turns import turn_submit

pytestmark = pytest.mark.django_db

REQUEST = "find the invoices in the Energia folder"


def test_the_owner_sees_the_title_on_the_home_page_and_the_conversation_page(owner: User) -> None:
    conversation = turn_submit(owner=owner, text=REQUEST, enqueue=False).conversation
    client = Client()
    client.force_login(owner)
    home = client.get("/").content.decode()
    page = client.get(f"/conversations/{conversation.pk}/").content.decode()
    assert REQUEST in home and REQUEST in page
    assert f"Conversation {conversation.pk}" not in home
