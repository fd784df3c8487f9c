"""REST endpoints for the owner's browser sessions: the visible queue, and closing them."""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import mixins, serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import request_user
from apps.core.api import OwnedModelViewSet
from apps.sites.browser.slots import queue_place
from apps.sites.models import BrowserJob, BrowserSessionLease
from apps.sites.selectors import browser_job_list, web_session_list
from apps.sites.services import web_sessions_close


class WebSessionSerializer(serializers.ModelSerializer[BrowserSessionLease]):
    state = serializers.CharField(read_only=True)
    position = serializers.SerializerMethodField(help_text="1 = next in line; 0 while running.")

    class Meta:
        model = BrowserSessionLease
        fields = ["id", "state", "position", "requested_at", "started_at", "close_requested"]
        read_only_fields = fields

    def get_position(self, lease: BrowserSessionLease) -> int:
        return queue_place(lease).position


class WebSessionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[BrowserSessionLease]):
    """The owner's browser sessions with their place in the queue; ``close/`` ends them all."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS

    serializer_class = WebSessionSerializer
    list_selector = staticmethod(web_session_list)

    @action(detail=False, methods=["post"])
    def close(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        closed = web_sessions_close(owner=request_user(request))
        return Response({"ended": closed.ended, "withdrawn": closed.withdrawn})


class BrowserJobSerializer(serializers.ModelSerializer[BrowserJob]):
    class Meta:
        model = BrowserJob
        fields = ["id", "kind", "status", "outcome", "reason", "requested_at", "started_at", "finished_at"]
        read_only_fields = fields


class BrowserJobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[BrowserJob]):
    """The owner's browser jobs: waiting, running or finished, with their typed outcome."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS

    serializer_class = BrowserJobSerializer
    list_selector = staticmethod(browser_job_list)
