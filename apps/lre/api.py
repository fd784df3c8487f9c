"""REST endpoints of long-running work: the owner's jobs, their progress, and decisions.

``/api/v1/lre-jobs/`` lists and reads jobs with the console's progress;
``history`` lists its decisions; ``pause``, ``resume`` and ``cancel`` act on a job, ``batches/{id}/retry``
and ``batches/{id}/skip`` on one batch under review. A decision that does
not apply in the job's state is a typed 409, never a 500.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.device_scope import NO_DEVICE_ACCESS, DeviceAccess
from apps.accounts.models import request_user
from apps.core.api import OwnedModelViewSet, error_body
from apps.lre.models import LreBatch, LreEvent, LreJob
from apps.lre.selectors import batch_get_for_owner, batches_needing_review, job_history, job_list, job_progress
from apps.lre.services import DecisionRefused, batch_retry, batch_skip, job_cancel, job_pause, job_resume


class BatchSerializer(serializers.ModelSerializer[LreBatch]):
    step = serializers.IntegerField(source="phase.step", read_only=True)
    tool = serializers.CharField(source="phase.tool", read_only=True)

    class Meta:
        model = LreBatch
        fields = ["id", "step", "tool", "index", "status", "attempts", "error_class", "error_code", "finished_at"]
        read_only_fields = fields


class EventSerializer(serializers.ModelSerializer[LreEvent]):
    class Meta:
        model = LreEvent
        fields = ["id", "kind", "batch", "attempt", "cause", "created_at"]
        read_only_fields = fields


class JobSerializer(serializers.ModelSerializer[LreJob]):
    progress = serializers.SerializerMethodField()

    class Meta:
        model = LreJob
        fields = ["id", "title", "turn", "status", "attention_reason", "created_at", "finished_at", "progress"]
        read_only_fields = fields

    def get_progress(self, job: LreJob) -> dict[str, Any]:
        return dataclasses.asdict(job_progress(job=job))


def _refused(refused: DecisionRefused) -> Response:
    return Response(error_body("decision_refused", str(refused)), status=status.HTTP_409_CONFLICT)


class LreJobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, OwnedModelViewSet[LreJob]):
    device_access: ClassVar[DeviceAccess] = NO_DEVICE_ACCESS
    serializer_class = JobSerializer
    list_selector = staticmethod(job_list)

    def _decide(self, decide: Any) -> Response:
        job = self.get_object()  # another owner's job: the same 404 as a missing one
        try:
            job = decide(job=job)
        except DecisionRefused as refused:
            return _refused(refused)
        return Response(JobSerializer(job).data)

    @action(detail=True, methods=["post"])
    def pause(self, request: Request, pk: str | None = None) -> Response:
        return self._decide(job_pause)

    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str | None = None) -> Response:
        return self._decide(job_resume)

    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        return self._decide(job_cancel)

    @action(detail=True, methods=["get"])
    def review(self, request: Request, pk: str | None = None) -> Response:
        """The batches that need a decision (under review or failed)."""
        job = self.get_object()
        return Response(BatchSerializer(batches_needing_review(job=job), many=True).data)

    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: str | None = None) -> Response:
        """Every decision on the job and its batches (the last 100), oldest first."""
        job = self.get_object()
        return Response(EventSerializer(job_history(job=job), many=True).data)

    def _decide_batch(self, request: Request, batch_id: str, decide: Any) -> Response:
        job = self.get_object()
        batch = batch_get_for_owner(owner=request_user(request), job=job, batch_id=batch_id)
        try:
            batch = decide(batch=batch)
        except DecisionRefused as refused:
            return _refused(refused)
        return Response(BatchSerializer(batch).data)

    @action(detail=True, methods=["post"], url_path=r"batches/(?P<batch_id>\d+)/retry")
    def retry_batch(self, request: Request, pk: str | None = None, batch_id: str = "") -> Response:
        return self._decide_batch(request, batch_id, batch_retry)

    @action(detail=True, methods=["post"], url_path=r"batches/(?P<batch_id>\d+)/skip")
    def skip_batch(self, request: Request, pk: str | None = None, batch_id: str = "") -> Response:
        return self._decide_batch(request, batch_id, batch_skip)
