"""LRE's panel on System > Services: the indicator of long-running work (details for operators)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from apps.core.portal import register_panel
from apps.lre.presence import lre_presence


@register_panel("services", "lre", template="lre/_services_presence.html", order=10)
def lre_panel(request: HttpRequest) -> Mapping[str, object]:
    return {"lre": lre_presence()}
