"""Portal views of a handoff panel: the page, its image and status, and the owner's commands.

Thin: each view fetches the panel through its owner (another owner's panel is
the same 404 as a missing one), calls a service, and shapes the answer. The
commands are POSTs under CSRF; a refused one is a 409 with a stable code,
never a 500. Resume and Cancel are idempotent, so a reload or a lost response
never repeats anything: the page reads the status again instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.models import request_user
from apps.core.json_input import JsonRefused
from apps.core.request_body import json_body, json_refused_response, reads_json
from apps.sites.handoff.panels import (
    Command,
    HandoffRefused,
    handoff_command_add,
    handoff_image,
    handoff_panel_cancel,
    handoff_panel_get_for_owner,
    handoff_panel_resume,
    handoff_panel_status,
)
from apps.sites.models import HandoffPanel

_COMMANDS = ("click", "scroll", "refresh")
MAX_COORDINATE = 100_000


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _integer(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    number = int(value)
    return number if -MAX_COORDINATE <= number <= MAX_COORDINATE else None


def _command(data: dict[str, Any]) -> Command | None:
    kind = data.get("kind")
    if kind not in _COMMANDS:
        return None
    if kind == "click":
        x, y = _integer(data.get("x")), _integer(data.get("y"))
        return None if x is None or y is None else Command("click", x=x, y=y)
    if kind == "scroll":
        dy = _integer(data.get("dy"))
        return None if dy is None else Command("scroll", dy=dy)
    return Command("refresh")


@login_required
@require_GET
def handoff_page(request: HttpRequest, panel_id: int) -> HttpResponse:
    panel = handoff_panel_get_for_owner(owner=request_user(request), panel_id=panel_id)
    return render(request, "sites/handoff.html", {"panel": panel, "status": handoff_panel_status(panel)})


@login_required
@require_GET
def handoff_status(request: HttpRequest, panel_id: int) -> JsonResponse:
    panel = handoff_panel_get_for_owner(owner=request_user(request), panel_id=panel_id)
    return JsonResponse(handoff_panel_status(panel))


@login_required
@require_GET
def handoff_image_view(request: HttpRequest, panel_id: int) -> HttpResponse:
    panel = handoff_panel_get_for_owner(owner=request_user(request), panel_id=panel_id)
    image = handoff_image(panel)
    if image is None:
        return _error(404, "no_image", "There is no image of this panel's page now.")
    version, png = image
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "no-store"
    response["X-Image-Version"] = str(version)
    return response


@login_required
@require_POST
@reads_json
def handoff_command(request: HttpRequest, panel_id: int) -> JsonResponse:
    try:
        data = json_body(request, empty={})
    except JsonRefused as refused:  # not JSON, or JSON Metnos does not read: a typed 400 (413 when too large)
        return json_refused_response(refused)
    command = _command(data if isinstance(data, dict) else {})
    if command is None:
        return _error(400, "invalid_command", "Send a click (x, y), a scroll (dy) or a refresh.")
    owner = request_user(request)
    try:
        panel = handoff_command_add(owner=owner, panel_id=panel_id, command=command)
    except HandoffRefused as refused:
        return _error(409, f"handoff_{refused.reason}", str(refused))
    return JsonResponse(handoff_panel_status(panel), status=202)


def _decision(request: HttpRequest, panel_id: int, decide: Callable[..., HandoffPanel], status: int) -> JsonResponse:
    try:
        panel = decide(owner=request_user(request), panel_id=panel_id)
    except HandoffRefused as refused:
        return _error(409, f"handoff_{refused.reason}", str(refused))
    return JsonResponse(handoff_panel_status(panel), status=status)


@login_required
@require_POST
def handoff_resume(request: HttpRequest, panel_id: int) -> JsonResponse:
    """Ask for a fresh look at the page; 202, the page then follows the status."""
    return _decision(request, panel_id, handoff_panel_resume, 202)


@login_required
@require_POST
def handoff_cancel(request: HttpRequest, panel_id: int) -> JsonResponse:
    return _decision(request, panel_id, handoff_panel_cancel, 200)
