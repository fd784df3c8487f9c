"""Operators see structure, never users' content — on any admin page.

A user's request, its conversation's title, the answer, step summaries and
results, trace content, proposals and prompts all carry a canary; a real turn
puts it where the runtime itself writes. Then the operator and the superuser
open every changelist, change, history and delete-confirmation page of every
registered model, and the canary must appear on none of them (``__str__`` is
shown in breadcrumbs, titles, foreign-key fields and related-object lists).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib import admin
from django.db import models
from django.test import Client

from apps.accounts.models import User
from apps.core.tenancy import owned_models
from apps.runtime.models import Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.conftest import Cast
from tests.factories import build_owned_row

pytestmark = pytest.mark.django_db

CANARY = "canary7q4user"

# Where users' content lives in each owned model; each gets the canary.
CONTENT_FIELDS: dict[str, tuple[str, ...]] = {
    "runtime.Conversation": ("title",),
    "runtime.Turn": ("request_text", "answer", "plan"),
    "runtime.StepRecord": ("summary", "error_message", "notices", "result_preview", "result", "files", "effects"),
    "runtime.TraceEvent": ("content",),
    "runtime.ConsentRequest": ("proposal",),
    "runtime.PlanCache": ("request_key", "plan"),
    "runtime.InputRequest": ("prompt",),
    "runtime.DeviceStep": ("arguments", "result"),
    "lre.LreJob": ("title", "plan"),
    "lre.LreBatch": ("items", "result_items", "result"),
    "metnos_sites.BrowserJob": ("params", "websites", "result"),
    "metnos_sites.HandoffPanel": ("result",),
    "documents.StoredDownload": ("original_name",),
    "vault.Credential": ("label", "username"),
}


def _with_canary(field: Any) -> Any:
    if isinstance(field, models.JSONField):
        return {"text": f"the user's {CANARY}"}
    return f"{CANARY} of the user"


def _fill_content(row: models.Model) -> None:
    names = CONTENT_FIELDS.get(row._meta.label, ())
    for name in names:
        setattr(row, name, _with_canary(row._meta.get_field(name)))
    if names:
        row.save(update_fields=list(names))


def _real_turn(owner: User, files_root: Path) -> Turn:
    """A turn the runtime conducts itself, so its own trace and caches are covered too."""
    folder = files_root / str(owner.pk) / CANARY
    folder.mkdir(parents=True)
    (folder / f"{CANARY}.txt").write_text(f"Notes about {CANARY}.\n", encoding="utf-8")
    turn = turn_submit(owner=owner, text=f"read the txt files in the {CANARY} folder", enqueue=False)
    return turn_conduct(turn=turn)


@pytest.fixture
def content(cast: Cast, settings: Any, tmp_path: Path) -> None:
    settings.FILES_ROOT = tmp_path / "files"
    turn = _real_turn(cast.owner, Path(settings.FILES_ROOT))
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert CANARY in turn.request_text and CANARY in turn.conversation.title
    for model in owned_models():
        _fill_content(build_owned_row(model, cast.owner))


def _admin_pages(client: Client) -> list[str]:
    pages: list[str] = []
    for model in admin.site._registry:
        opts = model._meta
        base = f"/{settings.ADMIN_PATH}{opts.app_label}/{opts.model_name}/"
        pages.append(base)
        for pk in model._default_manager.values_list("pk", flat=True):
            pages.extend(f"{base}{pk}/{view}/" for view in ("change", "history", "delete"))
    return pages


def _leaks(client: Client) -> list[str]:
    leaks: list[str] = []
    for page in _admin_pages(client):
        response = client.get(page, follow=True)
        assert response.status_code in (200, 403), f"{page} answered {response.status_code}"
        if CANARY in response.content.decode():
            leaks.append(page)
    return leaks


@pytest.mark.usefixtures("content")
@pytest.mark.parametrize("who", ["operator", "superuser"])
def test_no_admin_page_shows_users_content(cast: Cast, client: Client, who: str) -> None:
    client.force_login(getattr(cast, who))
    assert client.get(f"/{settings.ADMIN_PATH}runtime/turn/").status_code == 200
    assert not (leaks := _leaks(client)), f"users' content shown to the {who} on: {leaks}"


def test_a_browser_job_shows_its_worker_and_heartbeat_to_operators(cast: Cast, client: Client) -> None:
    """A stuck browser job is found in the admin: which worker holds it and when it last said so."""
    from django.utils import timezone

    from apps.sites.models import BrowserJob

    job = build_owned_row(BrowserJob, cast.owner)
    assert isinstance(job, BrowserJob)
    beat = timezone.now().replace(microsecond=0)
    BrowserJob.objects.filter(pk=job.pk).update(
        status=BrowserJob.Status.RUNNING, holder="browser-host-7:4242", heartbeat_at=beat
    )
    client.force_login(cast.operator)
    page = client.get(f"/{settings.ADMIN_PATH}metnos_sites/browserjob/{job.pk}/change/").content.decode()
    assert "browser-host-7:4242" in page
    assert "Heartbeat at" in page
