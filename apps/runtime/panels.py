"""The runtime's panel on the home page: the owner's latest conversations."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from apps.core.portal import register_panel
from apps.runtime.selectors import conversation_list

HOME_CONVERSATIONS_SHOWN = 20


@register_panel("home", "conversations", template="runtime/_home_conversations.html", order=10)
def conversations_panel(request: HttpRequest) -> Mapping[str, object]:
    return {"conversations": conversation_list(owner=request.user)[:HOME_CONVERSATIONS_SHOWN]}
