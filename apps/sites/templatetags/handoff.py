"""``{% handoff_link turn %}``: the conversation page's link to the panel a waiting turn is served by.

The live event ``turn.handoff_opened`` adds the same link while the page is
open; this tag puts it back after a reload.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from apps.sites.handoff.panels import handoff_panel_open_for_turn, handoff_panel_url

register = template.Library()

LINK_TEXT = "A website asks you to prove you are human: open the verification panel"


@register.simple_tag
def handoff_link(turn: Any) -> str:
    panel = handoff_panel_open_for_turn(owner=turn.owner, turn_id=turn.pk)
    if panel is None:
        return ""
    return format_html('<a class="handoff-link" href="{}">{}</a>', handoff_panel_url(panel.pk), LINK_TEXT)
