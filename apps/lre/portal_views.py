"""Portal pages of long-running work: the console list, one job, and the user's decisions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import request_user
from apps.lre.batching import lre_enabled
from apps.lre.selectors import (
    batch_get_for_owner,
    batches_needing_review,
    job_get_for_owner,
    job_history,
    job_list,
    job_progress,
)
from apps.lre.services import DecisionRefused, batch_retry, batch_skip, job_cancel, job_pause, job_resume

JOB_DECISIONS: dict[str, Callable[..., Any]] = {"pause": job_pause, "resume": job_resume, "cancel": job_cancel}
BATCH_DECISIONS: dict[str, Callable[..., Any]] = {"retry": batch_retry, "skip": batch_skip}


@login_required
@require_http_methods(["GET"])
def job_console(request: HttpRequest) -> HttpResponse:
    jobs = list(job_list(owner=request_user(request))[:50])
    rows = [{"job": job, "progress": job_progress(job=job)} for job in jobs]
    return render(request, "lre/jobs.html", {"rows": rows, "engine_enabled": lre_enabled()})


@login_required
@require_http_methods(["GET"])
def job_detail(request: HttpRequest, job_id: int) -> HttpResponse:
    job = job_get_for_owner(owner=request_user(request), job_id=job_id)
    context = {
        "job": job,
        "progress": job_progress(job=job),
        "review": list(batches_needing_review(job=job)),
        "history": job_history(job=job),
        "engine_enabled": lre_enabled(),
    }
    return render(request, "lre/job.html", context)


def _apply(request: HttpRequest, decide: Callable[..., Any] | None, **target: Any) -> None:
    """Apply the user's decision; a refusal or an unknown decision becomes a message on the job page."""
    if decide is None:
        messages.error(request, "Unknown decision.")
        return
    try:
        decide(**target)
    except DecisionRefused as refused:
        messages.error(request, str(refused))


@login_required
@require_POST
def job_decide(request: HttpRequest, job_id: int, decision: str) -> HttpResponse:
    job = job_get_for_owner(owner=request_user(request), job_id=job_id)
    _apply(request, JOB_DECISIONS.get(decision), job=job)
    return redirect("lre:job", job_id=job.pk)


@login_required
@require_POST
def batch_decide(request: HttpRequest, job_id: int, batch_id: int, decision: str) -> HttpResponse:
    owner = request_user(request)
    job = job_get_for_owner(owner=owner, job_id=job_id)
    batch = batch_get_for_owner(owner=owner, job=job, batch_id=batch_id)
    _apply(request, BATCH_DECISIONS.get(decision), batch=batch)
    return redirect("lre:job", job_id=job.pk)
