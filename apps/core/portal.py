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
