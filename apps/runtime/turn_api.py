"""REST endpoints for turns, their steps and trace, and consent decisions."""

from __future__ import annotations

from typing import Any, ClassVar

from django.http import FileResponse, Http404
from django.utils import timezone
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.viewsets import ViewSet

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess, request_device
from apps.accounts.models import User, request_user
from apps.core.api import OwnedModelViewSet, Tenancy
from apps.documents.files import DocumentsError, resolve_owner_path
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import ConsentRefused, consent_decide, consent_is_expired
from apps.runtime.models import ConsentRequest, StepRecord, TraceEvent, Turn
from apps.runtime.proposals import plan_propose
from apps.runtime.selectors import (
    conversation_get_for_device,
    conversation_get_for_owner,
    trace_for_turn,
    turn_details,
    turn_list,
    turn_list_for_device_with_details,
    turn_list_with_details,
)
from apps.runtime.turns import TurnRejected, turn_enqueue, turn_submit


class StepSerializer(serializers.ModelSerializer[StepRecord]):
    class Meta:
        model = StepRecord
        fields = ["index", "tool", "outcome", "error_class", "error_code", "error_message", "summary", "notices",
                  "files", "started_at", "finished_at"]  # fmt: skip


class TurnSerializer(serializers.ModelSerializer[Turn]):
    """A turn read through :func:`turn_list_with_details` (its steps and pending consent come prefetched)."""

    steps = serializers.SerializerMethodField()
    pending_consent = serializers.SerializerMethodField()

    class Meta:
        model = Turn
        fields = ["id", "conversation", "request_text", "status", "path", "plan", "answer", "resumed_from",
                  "created_at", "started_at", "finished_at", "steps", "pending_consent"]  # fmt: skip
        read_only_fields = fields

    def get_steps(self, turn: Turn) -> list[dict[str, Any]]:
        return [dict(StepSerializer(record).data) for record in turn_details(turn).steps]

    def get_pending_consent(self, turn: Turn) -> dict[str, Any] | None:
        consent = turn_details(turn).consent
        if consent is None:
            return None
        # Past its deadline it is shown expired; the schedule marks it and ends the turn.
        return {"id": consent.pk, "step": consent.step_index, "proposal": consent.proposal,
                "expires_at": consent.expires_at.isoformat(),
                "expired": consent_is_expired(consent, now=timezone.now())}  # fmt: skip


class TurnCreateSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(max_length=4000, allow_blank=False, trim_whitespace=True)
    conversation = serializers.IntegerField(required=False, min_value=1)


class TraceSerializer(serializers.ModelSerializer[TraceEvent]):
    class Meta:
        model = TraceEvent
        fields = ["sequence", "kind", "data", "content", "at"]


class TurnViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[Turn]):
    """Submit a request (202: it runs in a worker), follow it, read its trace."""

    # A device submits requests and follows the turns of its own conversations.
    device_access: ClassVar[DeviceAccess] = frozenset({"create", "list", "retrieve"})

    serializer_class = TurnSerializer
    list_selector = staticmethod(turn_list_with_details)

    def get_queryset(self) -> Any:
        device = request_device(self.request)
        if device is not None:
            return turn_list_for_device_with_details(device=device)
        if self.action == "trace":
            return turn_list(owner=self.request.user)  # the trace needs the turn, not its details
        return super().get_queryset()

    def create(self, request: Request) -> Response:
        payload = TurnCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        owner = request_user(request)
        device = request_device(request)
        conversation = None
        if "conversation" in payload.validated_data:
            conversation_id = payload.validated_data["conversation"]
            conversation = (
                conversation_get_for_owner(owner=owner, conversation_id=conversation_id)
                if device is None
                else conversation_get_for_device(device=device, conversation_id=conversation_id)
            )
        try:
            turn = turn_submit(
                owner=owner, text=payload.validated_data["text"], conversation=conversation, device=device
            )
        except TurnRejected as rejected:
            raise serializers.ValidationError({"text": [str(rejected)]}) from None
        return Response(TurnSerializer(self.get_queryset().get(pk=turn.pk)).data, status=status.HTTP_202_ACCEPTED)

    @action(detail=True, methods=["get"])
    def trace(self, request: Request, pk: str | None = None) -> Response:
        turn = self.get_object()
        events = trace_for_turn(owner=request_user(request), turn=turn)
        return Response(TraceSerializer(events, many=True).data)


class ConsentDecisionSerializer(serializers.Serializer[Any]):
    confirm = serializers.BooleanField()
    # The answer names its conversation: a reply from elsewhere resumes nothing.
    conversation = serializers.IntegerField(min_value=1)


class ConsentViewSet(OwnedModelViewSet[ConsentRequest]):
    """Answer a confirmation; only its owner, for its conversation and plan, can."""

    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS  # the person decides in the portal

    @staticmethod
    def list_selector(*, owner: User) -> Any:
        from apps.core.tenancy import owned_rows

        return owned_rows(ConsentRequest, owner=owner)

    @action(detail=True, methods=["post"])
    def decision(self, request: Request, pk: str | None = None) -> Response:
        payload = ConsentDecisionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        consent = self.get_object()
        try:
            decided = consent_decide(
                owner=request_user(request),
                consent_id=consent.pk,
                confirm=payload.validated_data["confirm"],
                conversation_id=payload.validated_data["conversation"],
                current_catalog_signature=current_catalog().signature,
            )
        except ConsentRefused as refused:
            return Response(
                {"error": {"code": f"consent_{refused.reason}", "message": str(refused)}},
                status=status.HTTP_409_CONFLICT,
            )
        if decided.resumed_turn is not None:
            turn_enqueue(decided.resumed_turn)
        return Response(
            {"decision": decided.consent.decision,
             "resumed_turn": decided.resumed_turn.pk if decided.resumed_turn else None}
        )  # fmt: skip


class FileContentView(ViewSet):
    """Download a file from the signed-in user's own files (results of turns)."""

    tenancy: ClassVar[Tenancy] = "self"
    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS

    def list(self, request: Request) -> FileResponse:
        relative = request.query_params.get("path", "")
        try:
            path = resolve_owner_path(owner=request_user(request), relative_path=relative)
        except DocumentsError:
            raise Http404 from None
        if not path.is_file():
            raise Http404
        response = FileResponse(path.open("rb"), as_attachment=True, filename=path.name)
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "private, no-store"
        return response


class PlanViewSet(ViewSet):
    """The plan a request would get, without running it: ``POST /api/v1/plans/propose/``."""

    tenancy: ClassVar[Tenancy] = "self"
    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS  # proposing belongs to the portal's people

    @action(detail=False, methods=["post"])
    def propose(self, request: Request) -> Response:
        payload = TurnCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        owner = request_user(request)
        conversation = None
        if "conversation" in payload.validated_data:
            conversation = conversation_get_for_owner(
                owner=owner, conversation_id=payload.validated_data["conversation"]
            )
        try:
            proposal = plan_propose(owner=owner, text=payload.validated_data["text"], conversation=conversation)
        except TurnRejected as rejected:
            raise serializers.ValidationError({"text": [str(rejected)]}) from None
        return Response(proposal.as_json())
