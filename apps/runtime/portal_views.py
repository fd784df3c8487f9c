"""Portal pages of the runtime: conversations with live turns, and the System pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import request_user
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import consent_pending_for_turn
from apps.runtime.selectors import conversation_get_for_owner, step_records_for_turn, turn_list
from apps.runtime.services import conversation_create
from apps.runtime.turns import consents_expire
from apps.runtime.user_input import input_pending_for_turn


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
    consents_expire(owner=owner)
    turns = list(turn_list(owner=owner, conversation=conversation).order_by("created_at", "id"))
    rows = []
    for turn in turns:
        pending = consent_pending_for_turn(turn=turn)
        question = input_pending_for_turn(turn=turn)
        steps = list(step_records_for_turn(owner=owner, turn=turn))
        rows.append({"turn": turn, "steps": steps, "consent": pending, "question": question})
    return render(request, "runtime/conversation.html", {"conversation": conversation, "rows": rows})


@login_required
def system_capabilities(request: HttpRequest) -> HttpResponse:
    catalog = current_catalog()
    return render(request, "runtime/capabilities.html", {"catalog": catalog.as_json()})


@login_required
def system_models(request: HttpRequest) -> HttpResponse:
    from django.conf import settings

    from apps.runtime.model_tiers import effective_configuration

    return render(
        request,
        "runtime/models.html",
        {"tiers": effective_configuration(), "frontier_routes": settings.METNOS_SITES_FRONTIER_ROUTES},
    )
