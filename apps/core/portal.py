"""The portal's pages (server-rendered; scripts only from static files)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.accounts.selectors import device_list
from apps.runtime.selectors import conversation_list


@login_required
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "conversations": conversation_list(owner=request.user)[:20],
        "devices": device_list(owner=request.user)[:20],
    }
    return render(request, "portal/home.html", context)


@login_required
def system_services(request: HttpRequest) -> HttpResponse:
    """System > Services: each component's state; technical details for operators only."""
    from apps.core.health import check_broker, check_channel_layer, check_database, check_worker
    from apps.lre.presence import lre_presence

    components = {
        "Database": check_database(),
        "Live updates": check_channel_layer(),
        "Task broker": check_broker(),
        "Workers": check_worker(),
    }
    context = {
        "components": components,
        "lre": lre_presence(),
        "show_details": bool(getattr(request.user, "is_staff", False)),
    }
    return render(request, "core/services.html", context)
