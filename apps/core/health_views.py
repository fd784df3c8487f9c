"""``/healthz`` (the process answers) and ``/readyz`` (it can do real work)."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from apps.core import health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse(health.liveness())


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    ready, body = health.readiness()
    return JsonResponse(body, status=200 if ready else 503)
