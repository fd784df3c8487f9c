"""REST endpoints a paired device uses to run the steps sent to it.

With its device token, a device lists the steps sent to it
(``GET /api/v1/device-steps/?status=pending``), takes one
(``POST …/{id}/claim/``) and answers with its result
(``POST …/{id}/result/``, a step result: outcome, items, value, error,
notices, summary). Signed in with a browser, the owner reads the steps sent
to their devices. Another owner's or another device's step is a 404; a call
that does not apply in the step's state is a typed 409.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import QuerySet
from rest_framework import exceptions, mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import DeviceAccess, request_device
from apps.accounts.models import Device, User
from apps.core.api import OwnedModelViewSet, error_body
from apps.core.tenancy import owned_rows
from apps.runtime.device_steps import DeviceStepRefused, device_step_claim, device_step_finish, device_steps_for
from apps.runtime.models import DeviceStep


class DeviceStepSerializer(serializers.ModelSerializer[DeviceStep]):
    class Meta:
        model = DeviceStep
        fields = ["id", "device", "turn", "step_index", "tool", "executor_signature", "arguments", "status",
                  "created_at", "claimed_at", "finished_at", "expires_at"]  # fmt: skip
        read_only_fields = fields


def device_step_list(*, owner: User) -> QuerySet[DeviceStep]:
    return owned_rows(DeviceStep, owner=owner)


class DeviceStepViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[DeviceStep]):
    device_access: ClassVar[DeviceAccess] = frozenset({"list", "retrieve", "claim", "result"})

    serializer_class = DeviceStepSerializer
    list_selector = staticmethod(device_step_list)

    def get_queryset(self) -> QuerySet[DeviceStep]:
        device = request_device(self.request)
        rows = device_steps_for(device=device) if device is not None else super().get_queryset()
        wanted = self.request.query_params.get("status")
        return rows.filter(status=wanted) if wanted else rows

    def _device(self) -> Device:
        device = request_device(self.request)
        if device is None:
            raise exceptions.PermissionDenied("Only the paired device the step was sent to can do this.")
        return device

    def _answer(self, call: Any) -> Response:
        try:
            step = call()
        except DeviceStepRefused as refused:
            return Response(error_body(f"device_step_{refused.reason}", str(refused)), status=status.HTTP_409_CONFLICT)
        return Response(DeviceStepSerializer(step).data)

    @action(detail=True, methods=["post"])
    def claim(self, request: Request, pk: str | None = None) -> Response:
        device = self._device()
        return self._answer(lambda: device_step_claim(device=device, step_id=pk))

    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        device = self._device()
        return self._answer(lambda: device_step_finish(device=device, step_id=pk, result=request.data))
