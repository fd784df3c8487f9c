"""Error pages: JSON under /api/, templates elsewhere; never a traceback."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from apps.core.api import error_body
from apps.core.limits import request_too_large_message


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


def payload_too_large(request: HttpRequest) -> HttpResponse:
    """413: JSON under /api/ and to a JSON request (the portal's JSON endpoints), a plain page elsewhere."""
    message = request_too_large_message()
    if _wants_json(request) or request.content_type == "application/json":
        return JsonResponse(error_body("request_too_large", message), status=413)
    # No base template: the page may be answered before the session and the user are known.
    return render(request, "413.html", {"message": message}, status=413)
