"""REST endpoints for conversations."""

from __future__ import annotations

from typing import ClassVar, cast

from rest_framework import serializers

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import request_user
from apps.core.api import OwnedCrudViewSet
from apps.runtime.models import Conversation
from apps.runtime.selectors import conversation_list
from apps.runtime.services import conversation_create, conversation_delete, conversation_rename


class ConversationSerializer(serializers.ModelSerializer[Conversation]):
    class Meta:
        model = Conversation
        fields = ["id", "title", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]


class ConversationViewSet(OwnedCrudViewSet[Conversation]):
    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS
    serializer_class = ConversationSerializer
    list_selector = staticmethod(conversation_list)

    def perform_create(self, serializer: serializers.BaseSerializer[Conversation]) -> None:
        serializer.instance = conversation_create(
            owner=request_user(self.request), title=serializer.validated_data.get("title", "")
        )

    def perform_update(self, serializer: serializers.BaseSerializer[Conversation]) -> None:
        serializer.instance = conversation_rename(
            conversation=cast(Conversation, serializer.instance), title=serializer.validated_data.get("title", "")
        )

    def perform_destroy(self, instance: Conversation) -> None:
        conversation_delete(conversation=instance)
