"""The executors that collect records from a website: ``collect_site_records`` and ``collect_site_documents``.

Both open a managed-browser session limited to the website of ``url`` (and
the origins the turn's mandate grants), start from that page, and explore
it for the records the request asks for (:mod:`apps.sites.collection.explore`).
``collect_site_documents`` also saves each item's document into the folder
the user approved; its consent shows that folder before anything runs.
The items keep the values actually observed; what could not be collected
is stated in notices, never filled in.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.utils import timezone

from apps.records.scope import scope_for_step
from apps.runtime.executors import ExecutionContext, StepError, StepResult
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, ResultShape
from apps.runtime.selectors import turn_list
from apps.sites.acting.obstruction import CaptureContext
from apps.sites.acting.route_choice import RouteChooser, route_chooser_from_settings
from apps.sites.browser.sessions import BrowserUnavailable, NavigationFailed, NavigationRefused, browser_session
from apps.sites.browser.slots import SessionRefused
from apps.sites.browser.websites import AuthorizedWebsites, InvalidOrigin, origin_of
from apps.sites.collection.audit import collection_audit_record
from apps.sites.collection.budget import CollectionBudget, CollectionLedger
from apps.sites.collection.delivery import deliver
from apps.sites.collection.documents import DocumentFolderUnusable, DocumentSaver
from apps.sites.collection.explore import CollectionRun, explore
from apps.sites.collection.forms import DOCUMENTS_FORMS, RECORDS_FORMS
from apps.sites.collection.pages import PreparePage
from apps.sites.collection.preparation import SitePreparation
from apps.sites.collection.reading import field_key
from apps.sites.collection.scope import collection_plan

MAX_URL_CHARS = 2_000
MAX_WHAT_CHARS = 400
MAX_FIELDS = 20
# The session outlives the active work by this much, for closing and saving state.
SESSION_MARGIN = dt.timedelta(minutes=1)
RESULT_FIELDS = (
    "identifier_number", "issue_date", "due_date", "date", "period", "amount", "status", "supplier",
    "supply_identifier", "note", "path",
)  # fmt: skip

_ARGS = {
    "url": ArgSpec(
        type="string",
        required=True,
        description="The page to start from (the customer area or its bills page); its website is the one "
        "the browser may visit.",
        max_length=MAX_URL_CHARS,
        sensitive="authorisation",
        accepts_step_values=False,
    ),
    "what": ArgSpec(
        type="string",
        required=True,
        description="What to collect, in the user's words: 'all invoices from 2026', "
        "'tutte le bollette del 2025 con scadenza e importo'.",
        max_length=MAX_WHAT_CHARS,
    ),
    "fields": ArgSpec(
        type="array",
        items="string",
        description="Fields each item needs beyond those the request names (due date, amount).",
        max_items=MAX_FIELDS,
        max_length=80,
    ),
}


COLLECT_RECORDS_MANIFEST = Manifest(
    name="collect_site_records",
    purpose="Collect records such as bills or invoices from a website's pages (lists, next pages, archives, "
    "detail views) into items, stating what could not be verified.",
    args=_ARGS,
    result=ResultShape(kind="collection", fields=RESULT_FIELDS, description="One item per record observed."),
    capabilities=frozenset({"web.browse", "records.extract"}),
    limits={"max_levels": 8, "max_actions": 256, "max_active_minutes": 10},
    intelligence="agentic",
    placement="server",
    request_forms=RECORDS_FORMS,
)

COLLECT_DOCUMENTS_MANIFEST = Manifest(
    name="collect_site_documents",
    purpose="Collect records such as bills from a website and save each one's document (PDF) into a folder "
    "of your files, within the download limits.",
    args={
        **_ARGS,
        "save_documents_to": ArgSpec(
            type="path",
            required=True,
            description="The existing folder of your files the documents go into (~/Bills).",
            max_length=1_000,
            sensitive="path",
            accepts_step_values=False,
        ),
    },
    result=ResultShape(kind="collection", fields=RESULT_FIELDS, description="One item per record observed."),
    capabilities=frozenset({"web.browse", "records.extract", "files.write"}),
    consent=ConsentSpec(mode="confirm", shows=("action", "purpose", "destination", "consequences")),
    limits={"max_levels": 8, "max_actions": 256, "max_active_minutes": 10},
    intelligence="agentic",
    placement="server",
    request_forms=DOCUMENTS_FORMS,
)


class CollectSiteRecords:
    """``collect_site_records``: explore a website for the records asked for and return them as items.

    Contract: ``success`` when every route the signals found was explored;
    ``partial`` with the items observed when a bound or an obstacle
    interrupted the search, or some items' details could not be read (the
    notices say which and that completeness is unverified); ``empty`` when
    nothing matching was found; ``failed`` when nothing was collected
    because the website, the browser or a bound stopped the collection.
    """

    manifest: Manifest = COLLECT_RECORDS_MANIFEST

    def __init__(
        self,
        *,
        budget: CollectionBudget | None = None,
        chooser: RouteChooser | None = None,
        prepare_page: PreparePage | None = None,
    ) -> None:
        self.budget = budget or CollectionBudget()
        self.chooser = chooser
        self.prepare_page = prepare_page

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return self._collect(context, args, folder=None)

    def _collect(self, context: ExecutionContext, args: Mapping[str, Any], *, folder: str | None) -> StepResult:
        url = str(args.get("url") or "").strip()
        try:
            start = origin_of(url)
        except InvalidOrigin:
            return _failed("permanent", "invalid_url", "The address to collect from is not a website address.")
        fields = tuple(field_key(str(name)) for name in args.get("fields") or ())
        plan = collection_plan(
            str(args.get("what") or ""), today=context.today, fields=fields, save_documents=folder is not None
        )
        # A plan may shorten the request: the user's own words keep "all" and the period.
        plan = replace(plan, scope=scope_for_step(_turn_request(context), plan.request, today=context.today))
        if plan.scope.object is None:
            return _failed("permanent", "no_object", "The request names nothing to collect (bills, invoices, …).")
        saver = None
        if folder is not None:
            try:
                saver = DocumentSaver(owner=context.owner, folder=folder)
            except DocumentFolderUnusable as unusable:
                return _failed("permanent", f"folder_{unusable.reason}", "The folder for the documents is not usable.")
        websites = AuthorizedWebsites(frozenset({start, *AuthorizedWebsites.from_mandate(context.mandate).origins}))
        active = dt.timedelta(seconds=self.budget.max_active_seconds)
        session_deadline = timezone.now() + active + SESSION_MARGIN
        if context.deadline is not None:
            session_deadline = min(session_deadline, context.deadline)
        outer = time.monotonic() + (session_deadline - timezone.now()).total_seconds()
        ledger = CollectionLedger(self.budget, outer_deadline=outer - SESSION_MARGIN.total_seconds() / 2)
        chooser = self.chooser or route_chooser_from_settings()
        try:
            with browser_session(owner=context.owner, websites=websites, deadline=session_deadline) as session:
                run = CollectionRun(
                    page=session.page,
                    plan=plan,
                    websites=websites,
                    navigate=session.goto,
                    ledger=ledger,
                    chooser=chooser,
                    prepare_page=self.prepare_page or SitePreparation(owner_id=context.owner.pk),
                    saver=saver,
                    capture=CaptureContext(owner_id=context.owner.pk),
                )
                findings = explore(run, url)
        except BrowserUnavailable:
            return _failed("recoverable", "browser_unavailable", "The managed browser is not available.")
        except SessionRefused:
            return _failed("recoverable", "session_refused", "No browser session could be opened now.")
        except (NavigationRefused, NavigationFailed):
            return _failed("recoverable", "navigation_failed", "The website could not be opened.")
        collection_audit_record(
            owner=context.owner,
            turn_id=context.turn_id,
            step_index=context.step_index,
            findings=findings,
            ledger=ledger,
        )
        return deliver(findings, plan, ledger=ledger, origin=str(start))


class CollectSiteDocuments(CollectSiteRecords):
    """``collect_site_documents``: as ``collect_site_records``, saving each item's document in the approved folder.

    A download click is sent once: an error, a lost response or no file
    arriving is reported for that item and never retried.
    """

    manifest: Manifest = COLLECT_DOCUMENTS_MANIFEST

    def consent_proposal(self, args: Mapping[str, Any]) -> dict[str, str]:
        folder = str(args.get("save_documents_to") or "")
        return {
            "action": f"Collect {args.get('what', 'records')} from {args.get('url', 'the website')} and save "
            "their documents",
            "purpose": "You asked for these records and their documents.",
            "destination": folder or "—",
            "consequences": "Documents are downloaded from the website and saved in this folder, within your "
            "download limits; nothing is submitted to the website.",
        }

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return self._collect(context, args, folder=str(args.get("save_documents_to") or ""))


def _turn_request(context: ExecutionContext) -> str:
    """The user's request for this turn ("" outside a turn), read through the owner-scoped selector."""
    if context.turn_id is None:
        return ""
    turns = turn_list(owner=context.owner).filter(pk=context.turn_id)
    return turns.values_list("request_text", flat=True).first() or ""


def _failed(error_class: Any, code: str, message: str) -> StepResult:
    return StepResult(outcome="failed", error=StepError(error_class, code, message), summary=message)
