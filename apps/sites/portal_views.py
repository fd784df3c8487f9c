"""Portal page of the managed browser: the owner's web sessions, and closing them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import request_user
from apps.sites.browser.slots import queue_place
from apps.sites.limits import MAX_CONCURRENT_BROWSER_SESSIONS
from apps.sites.selectors import web_session_list
from apps.sites.services import web_sessions_close


@login_required
@require_http_methods(["GET"])
def web_sessions(request: HttpRequest) -> HttpResponse:
    sessions = [(lease, queue_place(lease)) for lease in web_session_list(owner=request_user(request))]
    return render(request, "sites/sessions.html", {"sessions": sessions, "browsers": MAX_CONCURRENT_BROWSER_SESSIONS})


@login_required
@require_POST
def web_sessions_close_view(request: HttpRequest) -> HttpResponse:
    closed = web_sessions_close(owner=request_user(request))
    if closed.ended or closed.withdrawn:
        messages.success(
            request,
            f"Closed {closed.ended} web session(s) and withdrew {closed.withdrawn} waiting. "
            "Your preferences and website data are kept.",
        )
    else:
        messages.info(request, "You had no open web sessions.")
    return redirect("sites:sessions")
