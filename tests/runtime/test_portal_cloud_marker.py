"""A step that asked a cloud model shows a red $ in the conversation page; a step that did not, none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.runtime.models import StepRecord
from apps.runtime.turns import turn_submit

pytestmark = pytest.mark.django_db

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "metnos.css"
REQUEST = "collect all invoices from 2026 from https://energia.example/ into a spreadsheet"


def _page(user: User, conversation_id: int) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/conversations/{conversation_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_step_with_cloud_requests_is_marked_with_a_red_dollar(owner: User) -> None:
    turn = turn_submit(owner=owner, text=REQUEST, enqueue=False)
    StepRecord.objects.create(owner=owner, turn=turn, index=1, tool="collect_site_records", cloud_requests=3)
    StepRecord.objects.create(owner=owner, turn=turn, index=2, tool="create_files_spreadsheet")
    html = _page(owner, turn.conversation_id)
    marked = re.findall(
        r'<li data-step="(\d)"[^>]*>.*?(<span class="cloud"[^>]*>\$</span>)?\s*<span class="outcome">', html
    )
    assert marked == [("1", '<span class="cloud" title="3 request(s) to a cloud model">$</span>'), ("2", "")]
    # Red: the marker takes the colour the page gives to what needs attention.
    assert re.search(r"\.steps \.cloud \{[^}]*color: var\(--bad\)", CSS.read_text(encoding="utf-8"))
