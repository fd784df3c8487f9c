"""The body of a portal request: its size limit, and its JSON read strictly.

A body larger than :func:`~apps.core.limits.request_body_limit` is a 413:
:class:`RequestBodyLimitMiddleware` answers it from the declared
``Content-Length`` before anything reads the body; a body without a declared
length is measured as Django reads it (``request.body`` stops one byte past
the limit and raises ``RequestDataTooBig``), which the middleware, the REST
exception handler and :func:`json_body` turn into the same 413.

Portal views that take JSON read it with :func:`json_body` (through
:func:`apps.core.json_input.json_loads_strict`) and say so with
:func:`reads_json`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

from apps.core.api import error_body
from apps.core.errors import payload_too_large
from apps.core.json_input import JsonRefused, json_loads_strict
from apps.core.limits import request_body_limit, request_too_large_message

ViewT = TypeVar("ViewT", bound=Callable[..., HttpResponse])


def reads_json(view: ViewT) -> ViewT:
    """Mark a portal view that reads a JSON body (with :func:`json_body`).

    Put it innermost: the decorators above it copy the mark. The hostile-JSON
    property test finds the marked views through the URL resolver.
    """
    view.reads_json = True  # type: ignore[attr-defined]
    return view


def json_body(request: HttpRequest, *, empty: Any = None) -> Any:
    """The JSON value of a portal request's body (``empty`` for no body), or :class:`JsonRefused` (400 or 413)."""
    try:
        body = request.body
    except RequestDataTooBig:
        raise JsonRefused("request_too_large", request_too_large_message(), status=413) from None
    if not body:
        return empty
    return json_loads_strict(body, encoding=request.encoding or "utf-8")


def json_refused_response(refused: JsonRefused) -> JsonResponse:
    return JsonResponse(error_body(refused.code, refused.message), status=refused.status)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestBodyLimitMiddleware:
    """413 for a body over the limit, before any middleware or view reads it.

    ``multipart/form-data`` is left to Django, which does not count the files
    of an upload against the limit (they go to disk as they arrive).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = request_body_limit()
        if limit is not None and request.content_type != "multipart/form-data" and _declared_length(request) > limit:
            return payload_too_large(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # A body with no declared length is measured as it is read (request.body stops one byte past the limit).
        if isinstance(exception, RequestDataTooBig):
            return payload_too_large(request)
        return None
