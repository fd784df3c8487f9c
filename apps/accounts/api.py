"""REST endpoints for devices and the current user."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import Device, request_user
from apps.accounts.selectors import device_list
from apps.accounts.services import device_pair, device_rename, device_revoke
from apps.core.api import OwnedCrudViewSet, Tenancy


class DeviceSerializer(serializers.ModelSerializer[Device]):
    class Meta:
        model = Device
        fields = ["id", "name", "token_prefix", "created_at", "last_seen_at"]
        read_only_fields = ["id", "token_prefix", "created_at", "last_seen_at"]


class DeviceViewSet(OwnedCrudViewSet[Device]):
    """Pair (create, token shown once), list, rename and revoke devices."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS  # a device never pairs, renames or revokes devices

    serializer_class = DeviceSerializer
    list_selector = staticmethod(device_list)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        paired = device_pair(owner=request_user(request), name=serializer.validated_data["name"])
        body = dict(DeviceSerializer(paired.device).data)
        body["token"] = paired.token
        return Response(body, status=status.HTTP_201_CREATED)

    def perform_update(self, serializer: serializers.BaseSerializer[Device]) -> None:
        # The answer is rendered from serializer.instance: give it the renamed row.
        device = cast(Device, serializer.instance)
        # A PATCH without a name keeps the old one.
        serializer.instance = device_rename(device=device, name=serializer.validated_data.get("name", device.name))

    def perform_destroy(self, instance: Device) -> None:
        device_revoke(device=instance)


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.CharField()


class MeView(viewsets.ViewSet):
    """Who the request is authenticated as."""

    tenancy: ClassVar[Tenancy] = "self"
    device_access: ClassVar[DeviceAccess] = frozenset({"list"})  # a device may ask whose it is

    def list(self, request: Request) -> Response:
        user = request_user(request)
        return Response(MeSerializer({"id": user.pk, "username": user.get_username(), "role": user.role}).data)
