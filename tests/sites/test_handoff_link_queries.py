"""The conversation page's links to verification panels: one read for the page, whatever its turns.

Each turn waiting for a person links to the panel that serves it
(``{% handoff_link %}``). The tag reads the served panels of the conversation
once for the page, so the page's number of queries does not grow with the
number of waiting turns.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.runtime.models import Conversation, Turn
from apps.runtime.turns import turn_submit
from apps.sites.handoff.panels import handoff_panel_open
from apps.sites.models import HandoffPanel
from tests.sites.handoff_support import portal

pytestmark = pytest.mark.django_db

FEW_TURNS, MANY_TURNS = 1, 10
PLAN = {"steps": [{"tool": "sign_in", "args": {"url": "https://shop.example/"}}]}


def _conversation_waiting(owner: Any, turns: int) -> tuple[Conversation, list[HandoffPanel]]:
    """A conversation whose every turn waits for a person at a panel of its own."""
    conversation = Conversation.objects.create(owner=owner, title="Shop")
    panels = []
    for _ in range(turns):
        turn = turn_submit(owner=owner, text="sign in to the shop", conversation=conversation, plan=PLAN, enqueue=False)
        Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.RUNNING)
        panels.append(handoff_panel_open(turn_id=turn.pk, step_index=1, credentials_submitted=False))
    return conversation, panels


def _page(owner: Any, conversation: Conversation) -> tuple[str, int]:
    client = portal(owner)
    path = f"/conversations/{conversation.pk}/"
    client.get(path)  # warm caches (the session, the catalog) so the count is the page's own work
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode(), len(captured.captured_queries)


def test_the_panel_links_of_a_page_take_the_same_queries_for_one_turn_or_ten(owner: Any) -> None:
    _, few = _page(owner, _conversation_waiting(owner, FEW_TURNS)[0])
    _, many = _page(owner, _conversation_waiting(owner, MANY_TURNS)[0])
    assert many == few, f"{FEW_TURNS} waiting turn(s): {few} queries; {MANY_TURNS} waiting turns: {many}"


def test_each_waiting_turn_links_to_its_own_panel(owner: Any) -> None:
    conversation, panels = _conversation_waiting(owner, 3)
    closed = panels[1]
    HandoffPanel.objects.filter(pk=closed.pk).update(status=HandoffPanel.Status.CANCELLED)
    page, _ = _page(owner, conversation)
    assert page.count('class="handoff-link"') == 2
    for panel in panels:
        assert (f'href="/web/handoff/{panel.pk}/"' in page) is (panel.pk != closed.pk)
