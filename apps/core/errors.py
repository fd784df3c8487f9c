"""Error pages: JSON under /api/, templates elsewhere; never a traceback."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from apps.core.api import error_body


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse(error_body("internal_error", "Metnos could not complete this request."), status=500)
    return render(request, "500.html", status=500)
