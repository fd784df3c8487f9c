"""REST endpoints to answer a question a running step asked (a one-time code).

``GET /api/v1/input-requests/`` lists the user's questions (never an answer);
``POST …/{id}/answer/`` with ``{"value", "conversation"}`` delivers one,
``POST …/{id}/decline/`` declines. A question of another user is a 404; one
that is closed, expired or of another conversation is a typed 409.
"""

from __future__ import annotations

from typing import ClassVar

from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import request_user
from apps.core.api import OwnedModelViewSet, error_body
from apps.runtime.models import InputRequest
from apps.runtime.user_input import MAX_ANSWER_CHARS, InputRefused, input_answer, input_decline, input_request_list


class InputRequestSerializer(serializers.ModelSerializer[InputRequest]):
    class Meta:
        model = InputRequest
        fields = ["id", "turn", "conversation", "step_index", "kind", "prompt", "choices", "sensitive", "status",
                  "created_at", "expires_at"]  # fmt: skip
        read_only_fields = fields


class AnswerSerializer(serializers.Serializer[None]):
    value = serializers.CharField(max_length=MAX_ANSWER_CHARS, trim_whitespace=True)
    conversation = serializers.IntegerField()


class DeclineSerializer(serializers.Serializer[None]):
    conversation = serializers.IntegerField()


def _refused(refused: InputRefused) -> Response:
    # An answer that is not one of the options is bad input; a question closed meanwhile is a conflict.
    code = status.HTTP_400_BAD_REQUEST if refused.reason == "not_a_choice" else status.HTTP_409_CONFLICT
    return Response(error_body(f"input_{refused.reason}", str(refused)), status=code)


class InputRequestViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[InputRequest]):
    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS  # the person answers in the portal
    serializer_class = InputRequestSerializer
    list_selector = staticmethod(input_request_list)

    @action(detail=True, methods=["post"])
    def answer(self, request: Request, pk: str | None = None) -> Response:
        payload = AnswerSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        question = self.get_object()
        try:
            answered = input_answer(
                owner=request_user(request),
                input_id=question.pk,
                value=payload.validated_data["value"],
                conversation_id=payload.validated_data["conversation"],
            )
        except InputRefused as refused:
            return _refused(refused)
        return Response(InputRequestSerializer(answered).data)

    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: str | None = None) -> Response:
        payload = DeclineSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        question = self.get_object()
        try:
            declined = input_decline(
                owner=request_user(request),
                input_id=question.pk,
                conversation_id=payload.validated_data["conversation"],
            )
        except InputRefused as refused:
            return _refused(refused)
        return Response(InputRequestSerializer(declined).data)
