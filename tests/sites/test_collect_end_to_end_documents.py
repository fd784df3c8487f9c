"""Issue 7 end to end with the PDFs: "... into a spreadsheet and save the PDFs to ~/Bills".

The plan signs in, then ``collect_site_documents`` asks for confirmation
showing the folder: the turn pauses after signing in, before anything is
downloaded or written. Confirming resumes it in a new turn that inherits the
sign-in (never repeated): the collection starts from the owner's browser
data the sign-in saved, downloads each bill's PDF once into ~/Bills and the
spreadsheet follows. Declining ends the turn with nothing collected.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.documents.files import owner_files_root
from apps.runtime.catalog import current_catalog
from apps.runtime.consent import consent_decide
from apps.runtime.models import ConsentRequest, StepRecord, Turn
from apps.runtime.turns import turn_conduct
from tests.sites.collect_e2e_support import BILLS_2026, SHEET, SITE, metnos_ask, request_en, save_credential
from tests.sites.collect_e2e_support import spreadsheet_rows as rows_of
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _paused_after_signing_in(owner: Any, site: Any) -> tuple[Turn, ConsentRequest]:
    (owner_files_root(owner=owner) / "Bills").mkdir(parents=True)
    save_credential(owner, site)
    asked = metnos_ask(owner, f"{request_en(site.url('/'))} and save the PDFs to ~/Bills")
    assert (asked.code, asked.final["status"]) == (4, "awaiting_confirmation"), asked.printed
    assert [event["type"] for event in asked.events][-1] == "turn.confirmation_requested"
    turn = Turn.objects.get(pk=asked.final["turn"])
    return turn, ConsentRequest.objects.get(turn=turn)


def _decide(owner: Any, consent: ConsentRequest, *, confirm: bool) -> Turn | None:
    decision = consent_decide(
        owner=owner,
        consent_id=consent.pk,
        confirm=confirm,
        conversation_id=consent.conversation_id,
        current_catalog_signature=current_catalog().signature,
    )
    return decision.resumed_turn


def test_the_pdfs_are_saved_into_the_folder_after_confirm_and_the_spreadsheet_follows(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    turn, consent = _paused_after_signing_in(owner, site)
    assert consent.proposal["destination"] == "~/Bills"
    steps = list(StepRecord.objects.filter(turn=turn).order_by("index").values_list("tool", "outcome"))
    assert steps == [("sign_in", "success")]  # paused before the effect: nothing collected, downloaded or written
    assert not any(path.startswith("/private/bills") or path == "/_/pdf" for _, path in site.requests())
    bills = owner_files_root(owner=owner) / "Bills"
    assert list(bills.iterdir()) == []

    resumed = _decide(owner, consent, confirm=True)
    assert resumed is not None
    resumed = turn_conduct(turn=resumed)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert [attempt["ok"] for attempt in site.logins()] == [True]  # the sign-in was inherited, not repeated
    saved = sorted(path.name for path in bills.iterdir())
    # Every 2026 bill's PDF and nothing else: a row whose own date is outside 2026 gets no download.
    assert saved == sorted(f"{number}.pdf" for number in BILLS_2026)
    # Each download control was pressed once: one request per saved file.
    assert sorted(press for press in site.presses() if press.startswith("pdf:")) == [f"pdf:{name}" for name in saved]
    rows = rows_of(owner, SHEET)
    assert [row["identifier_number"] for row in rows] == BILLS_2026
    assert all(row["path"] == f"Bills/{row['identifier_number']}.pdf" for row in rows)
    assert f"{len(saved)} document(s) saved." in resumed.answer


def test_declining_the_documents_ends_the_turn_with_nothing_collected(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh(SITE)
    turn, consent = _paused_after_signing_in(owner, site)
    assert _decide(owner, consent, confirm=False) is None
    turn.refresh_from_db()
    assert turn.status == Turn.Status.DECLINED
    assert list((owner_files_root(owner=owner) / "Bills").iterdir()) == []
    assert not (owner_files_root(owner=owner) / SHEET).exists()
    assert not any(path.startswith("/private/bills") for _, path in site.requests())
