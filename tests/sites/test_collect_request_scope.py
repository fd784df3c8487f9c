"""A collection step reads its shortened ``what`` against the user's own request in the turn."""

from __future__ import annotations

from typing import Any

import pytest
from openpyxl import load_workbook

from apps.documents.files import owner_files_root
from apps.runtime.models import StepRecord
from apps.runtime.turns import turn_conduct, turn_submit
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_shortened_step_keeps_the_completeness_and_period_of_the_users_request(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("collect-telco")
    text = f"collect all invoices from 2026 from {site.url('/')} into a spreadsheet"
    plan = {
        "steps": [
            # The plan shortened "all invoices from 2026" to "invoices".
            {"tool": "collect_site_records", "args": {"url": site.url("/"), "what": "invoices"}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 1, "path": "~/invoices.xlsx"}},
        ]
    }
    turn = turn_conduct(turn=turn_submit(owner=owner, text=text, plan=plan, enqueue=False))
    assert turn.status == "completed", turn.answer
    sheet = load_workbook(owner_files_root(owner=owner) / "invoices.xlsx").active
    header, *rows = list(sheet.iter_rows(values_only=True))
    numbers = [dict(zip(header, row, strict=True))["identifier_number"] for row in rows]
    assert "INV-2026-005" in numbers and "INV-2025-012" not in numbers  # the request's 2026 still filters
    collection = StepRecord.objects.get(turn=turn, index=1)
    notices = "\n".join(collection.notices)
    assert "the request asked for all the invoices, so the collection stays complete" in notices
    assert "The step states no period; the request's '2026' applies." in notices
