"""``{% handoff_link turn %}``: the conversation page's link to the panel a waiting turn is served by.

The live event ``turn.handoff_opened`` adds the same link while the page is
open; this tag puts it back after a reload.

A page shows many turns, so the tag reads the panels served for all of them
at once: its first use in a page reads every served panel of that turn's
conversation (one query) and keeps the answer in the template's render
context, which lives for that one page; the other turns of the page read it
there. Runtime's selector cannot prefetch the panels: sites stands above
runtime, and a panel's turn has no reverse relation to prefetch through.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.utils.html import format_html

from apps.sites.handoff.panels import SERVED, handoff_panel_list, handoff_panel_url

register = template.Library()

LINK_TEXT = "A website asks you to prove you are human: open the verification panel"
_PAGE_KEY = "sites.handoff_link.served"


def _served_panels(context: Context, turn: Any) -> dict[int, int]:
    """Turn id to the id of the panel serving it, for every turn of ``turn``'s conversation.

    Read once per page and conversation; the newest panel answers for a turn, as
    :func:`~apps.sites.handoff.panels.handoff_panel_open_for_turn` has it.
    """
    render_context: Any = context.render_context  # the stubs type its values as Django's own
    pages: dict[tuple[int, int], dict[int, int]] = render_context.setdefault(_PAGE_KEY, {})
    key = (turn.owner_id, turn.conversation_id)
    if key not in pages:
        served: dict[int, int] = {}
        panels = handoff_panel_list(owner=turn.owner).filter(conversation_id=turn.conversation_id, status__in=SERVED)
        for turn_id, panel_id in panels.order_by("-created_at", "-id").values_list("turn_id", "pk"):
            served.setdefault(turn_id, panel_id)
        pages[key] = served
    return pages[key]


@register.simple_tag(takes_context=True)
def handoff_link(context: Context, turn: Any) -> str:
    panel_id = _served_panels(context, turn).get(turn.pk)
    if panel_id is None:
        return ""
    return format_html('<a class="handoff-link" href="{}">{}</a>', handoff_panel_url(panel_id), LINK_TEXT)
