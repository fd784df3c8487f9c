"""REST foundations: the owner-scoped base viewset and typed error answers.

Every DRF view declares its ``tenancy``:

* ``"owned"`` — derived from :class:`OwnedModelViewSet`; the queryset comes
  from a scoped selector and the owner is set by a service from the request.
* ``"self"`` — answers only about the requesting user (e.g. ``/api/v1/me/``).

The tenancy sweep test fails on any API view without a declaration.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import models
from django.http import Http404
from rest_framework import exceptions, mixins, status
from rest_framework.response import Response
from rest_framework.viewsets import GenericViewSet

from apps.core.limits import request_too_large_message

logger = logging.getLogger(__name__)

ModelT = TypeVar("ModelT", bound=models.Model)
Tenancy = Literal["owned", "self"]


class OwnedModelViewSet(GenericViewSet[ModelT]):
    """Base for viewsets over owned rows.

    Subclasses set ``list_selector`` to a selector ``(owner=...) -> QuerySet``.
    Objects of other owners are simply not in the queryset, so DRF's own
    ``get_object`` answers 404 for them exactly as for missing rows.
    """

    tenancy: ClassVar[Tenancy] = "owned"
    list_selector: ClassVar[Callable[..., models.QuerySet[Any]]]

    def get_queryset(self) -> models.QuerySet[ModelT]:
        selector = type(self).list_selector
        return selector(owner=self.request.user)


class OwnedCrudViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    OwnedModelViewSet[ModelT],
):
    """List, read, create, change and delete owned rows (writes go through services)."""


def error_body(code: str, message: str, fields: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if fields is not None:
        error["fields"] = fields
    return {"error": error}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """Answer every failure with ``{"error": {"code", "message"[, "fields"]}}``.

    Unexpected exceptions become a typed 500 without their message, which may
    contain user data; the log keeps only the exception type.
    """
    if isinstance(exc, RequestDataTooBig):
        # Django read one byte past DATA_UPLOAD_MAX_MEMORY_SIZE: the client's mistake, never a 500.
        return Response(
            error_body("request_too_large", request_too_large_message()),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        return Response(
            error_body("invalid", "The request is not valid.", exc.detail), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, exceptions.APIException):
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
        detail = exc.detail if isinstance(exc.detail, str) else exc.default_detail
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        return Response(error_body(str(code), str(detail)), status=exc.status_code, headers=headers)
    view = context.get("view")
    logger.error("unexpected API error in %s: %s", type(view).__name__, type(exc).__name__)
    return Response(
        error_body("internal_error", "Metnos could not complete this request."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
