from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from tests.probe.tasks import wait_for_gate


@require_POST
def enqueue(request: HttpRequest, gate_id: str) -> JsonResponse:
    transaction.on_commit(lambda: wait_for_gate.delay(gate_id))
    return JsonResponse({"enqueued": gate_id}, status=202)
