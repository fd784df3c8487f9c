"""A handed-off job runs in a real batch worker (a thread when embedded, a Celery process with services)."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from apps.accounts.models import User
from apps.lre.models import LreJob
from apps.lre.services import job_create_from_turn
from apps.runtime.catalog import current_catalog
from tests.conftest import WorkerHandle
from tests.lre.test_engine import handed_off_turn, write_quotes
from tests.test_background import wait_until


@pytest.mark.django_db(transaction=True)
def test_the_batch_worker_runs_a_handed_off_job_to_the_end(background_worker: WorkerHandle, owner: User) -> None:
    folder_name = f"LRE-{uuid.uuid4().hex[:8]}"
    # The worker may be another process: the files live where both look (the default files root).
    folder = Path(settings.FILES_ROOT) / str(owner.pk) / folder_name
    write_quotes(folder, 5)
    try:
        plan = {
            "steps": [
                {"tool": "find_files", "args": {"base_path": f"~/{folder_name}", "pattern": "*.txt"}},
                {"tool": "read_files", "args": {"from_step": 1}},
                {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "price"]}},
                {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": f"~/{folder_name}/all.xlsx"}},
            ]
        }
        catalog = current_catalog()
        turn, validated = handed_off_turn(owner, plan, catalog, run_first=1)
        job = job_create_from_turn(turn=turn, plan=validated, first_step=2, catalog=catalog, title="All quotes")

        def ended() -> bool:
            return LreJob.objects.get(pk=job.pk).is_finished

        assert wait_until(ended, seconds=60), LreJob.objects.get(pk=job.pk).status
        assert LreJob.objects.get(pk=job.pk).status == LreJob.Status.COMPLETED
        assert (folder / "all.xlsx").is_file()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
