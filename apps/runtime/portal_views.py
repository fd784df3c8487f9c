"""Portal pages of the runtime: conversations with live turns, and the System pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import request_user
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import consent_is_expired
from apps.runtime.selectors import conversation_get_for_owner, conversation_turns_with_details, turn_details
from apps.runtime.services import conversation_create


@login_required
@require_POST
def conversation_new(request: HttpRequest) -> HttpResponse:
    conversation = conversation_create(owner=request_user(request), title="")
    return redirect("runtime:conversation", conversation_id=conversation.pk)


@login_required
@require_http_methods(["GET"])
def conversation_detail(request: HttpRequest, conversation_id: int) -> HttpResponse:
    owner = request_user(request)
    conversation = conversation_get_for_owner(owner=owner, conversation_id=conversation_id)
    now = timezone.now()
    rows = []
    for turn in conversation_turns_with_details(owner=owner, conversation=conversation):
        shown = turn_details(turn)
        # A confirmation past its deadline is shown expired; the schedule marks it and ends the turn.
        expired = shown.consent is not None and consent_is_expired(shown.consent, now=now)
        rows.append(
            {"turn": turn, "steps": shown.steps, "consent": shown.consent, "consent_expired": expired,
             "question": shown.question}
        )  # fmt: skip
    return render(request, "runtime/conversation.html", {"conversation": conversation, "rows": rows})


@login_required
def system_capabilities(request: HttpRequest) -> HttpResponse:
    catalog = current_catalog()
    return render(request, "runtime/capabilities.html", {"catalog": catalog.as_json()})


@login_required
def system_models(request: HttpRequest) -> HttpResponse:
    from django.conf import settings

    from apps.runtime.tiers.config import effective_configuration

    return render(
        request,
        "runtime/models.html",
        {"tiers": effective_configuration(), "frontier_routes": settings.METNOS_SITES_FRONTIER_ROUTES},
    )
