"""The executors that collect records from a website: ``collect_site_records`` and ``collect_site_documents``.

Both run as a browser job (:mod:`apps.sites.browser.steps`) that opens a
managed-browser session limited to the website of ``url`` (and the origins
the turn's mandate grants), starts from that page, and explores it for the
records the request asks for (:mod:`apps.sites.collection.explore`).
``collect_site_documents`` also saves each item's document into the folder
the user approved; its consent shows that folder before anything runs.
The items keep the values actually observed; what could not be collected
is stated in notices, never filled in.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.utils import timezone

from apps.accounts.models import User
from apps.records.scope import scope_for_step
from apps.runtime.executor import ExecutionContext, StepError, StepResult
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, ResultShape
from apps.runtime.selectors import turn_list
from apps.sites.acting.obstruction import CaptureContext
from apps.sites.acting.route_choice import route_chooser_from_settings
from apps.sites.browser.landing import signed_in_page
from apps.sites.browser.sessions import BrowserUnavailable, NavigationFailed, NavigationRefused
from apps.sites.browser.slots import SessionRefused
from apps.sites.browser.steps import BrowserStep, browser_step_run, register_browser_step
from apps.sites.browser.websites import AuthorizedWebsites, InvalidOrigin, Origin, origin_of
from apps.sites.collection.audit import collection_audit_record
from apps.sites.collection.budget import CollectionBudget, CollectionLedger
from apps.sites.collection.delivery import deliver
from apps.sites.collection.documents import DocumentFolderUnusable, DocumentSaver
from apps.sites.collection.explore import CollectionRun, explore
from apps.sites.collection.forms import DOCUMENTS_FORMS, DOCUMENTS_FRAMES, RECORDS_FORMS, RECORDS_FRAMES
from apps.sites.collection.preparation import SitePreparation
from apps.sites.collection.reading import field_key
from apps.sites.collection.scope import CollectionPlan, collection_plan

COLLECT_RECORDS_JOB = "collect_site_records"
COLLECT_DOCUMENTS_JOB = "collect_site_documents"
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
    request_frames=RECORDS_FRAMES,
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
    request_frames=DOCUMENTS_FRAMES,
)


@dataclass(frozen=True)
class _Prepared:
    """What a collection starts from: its website, its plan and, for documents, the approved folder."""

    url: str
    start: Origin
    plan: CollectionPlan
    saver: DocumentSaver | None


def _prepare(
    *, owner: User, turn_id: int | None, args: Mapping[str, Any], today: dt.date | None, folder: str | None
) -> _Prepared | StepResult:
    """Check the step's arguments (a failed result when they cannot be used) and plan the collection."""
    url = str(args.get("url") or "").strip()
    try:
        start = origin_of(url)
    except InvalidOrigin:
        return _failed("permanent", "invalid_url", "The address to collect from is not a website address.")
    fields = tuple(field_key(str(name)) for name in args.get("fields") or ())
    plan = collection_plan(str(args.get("what") or ""), today=today, fields=fields, save_documents=folder is not None)
    # A plan may shorten the request: the user's own words keep "all" and the period.
    plan = replace(plan, scope=scope_for_step(_turn_request(owner, turn_id), plan.request, today=today))
    if plan.scope.object is None:
        return _failed("permanent", "no_object", "The request names nothing to collect (bills, invoices, …).")
    saver = None
    if folder is not None:
        try:
            saver = DocumentSaver(owner=owner, folder=folder)
        except DocumentFolderUnusable as unusable:
            return _failed("permanent", f"folder_{unusable.reason}", "The folder for the documents is not usable.")
    return _Prepared(url, start, plan, saver)


class CollectSiteRecords:
    """``collect_site_records``: explore a website for the records asked for and return them as items.

    Contract: ``success`` when every route the signals found was explored;
    ``partial`` with the items observed when a bound or an obstacle
    interrupted the search, or some items' details could not be read (the
    notices say which and that completeness is unverified); ``empty`` when
    nothing matching was found; ``failed`` when nothing was collected
    because the website, the browser or a bound stopped the collection.

    ``run`` (in the turn's worker) checks the arguments and hands the
    collection to a browser job (:func:`collection_job`), whose parameters
    are the step's arguments and bounds; it waits for the job's outcome.
    """

    manifest: Manifest = COLLECT_RECORDS_MANIFEST
    job_kind = COLLECT_RECORDS_JOB

    def __init__(self, *, budget: CollectionBudget | None = None) -> None:
        self.budget = budget or CollectionBudget()

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return self._collect(context, args, folder=None)

    def _collect(self, context: ExecutionContext, args: Mapping[str, Any], *, folder: str | None) -> StepResult:
        prepared = _prepare(owner=context.owner, turn_id=context.turn_id, args=args, today=context.today, folder=folder)
        if isinstance(prepared, StepResult):
            return prepared
        granted = AuthorizedWebsites.from_mandate(context.mandate).origins
        websites = AuthorizedWebsites(frozenset({prepared.start, *granted}))
        params = {
            "url": prepared.url, "what": str(args.get("what") or ""), "fields": list(args.get("fields") or ()),
            "folder": folder, "budget": asdict(self.budget),
        }  # fmt: skip
        return browser_step_run(
            context, kind=self.job_kind, params=params, websites=websites, deadline=context.deadline
        )


def collection_job(step: BrowserStep) -> StepResult:
    """The collection in the browser worker: the exploration, its audit and the step's result."""
    params = step.params
    prepared = _prepare(
        owner=step.owner, turn_id=step.turn_id, args=params, today=step.today, folder=params.get("folder")
    )
    if isinstance(prepared, StepResult):
        return prepared
    budget = CollectionBudget(**params.get("budget", {}))
    active = dt.timedelta(seconds=budget.max_active_seconds)
    session_deadline = timezone.now() + active + SESSION_MARGIN
    if step.deadline is not None:
        session_deadline = min(session_deadline, step.deadline)
    session_deadline = min(session_deadline, step.job.deadline)
    outer = time.monotonic() + (session_deadline - timezone.now()).total_seconds()
    ledger = CollectionLedger(budget, outer_deadline=outer - SESSION_MARGIN.total_seconds() / 2)
    # Asked for the website itself, after this turn signed in there: from the account area it showed
    # (read before the session opens: the browser's own loop runs inside it).
    landing = None
    if step.turn_id is not None:
        landing = signed_in_page(owner_id=step.owner.pk, turn_id=step.turn_id, address=prepared.url)
    try:
        with step.job.session(deadline=session_deadline) as session:
            run = CollectionRun(
                page=session.page,
                plan=prepared.plan,
                websites=step.job.websites,
                navigate=session.goto,
                ledger=ledger,
                chooser=route_chooser_from_settings(),
                prepare_page=SitePreparation(owner_id=step.owner.pk),
                saver=prepared.saver,
                capture=CaptureContext(owner_id=step.owner.pk),
            )
            findings = explore(run, landing or prepared.url)
    except BrowserUnavailable:
        return _failed("recoverable", "browser_unavailable", "The managed browser is not available.")
    except SessionRefused:
        return _failed("recoverable", "session_refused", "No browser session could be opened now.")
    except (NavigationRefused, NavigationFailed):
        return _failed("recoverable", "navigation_failed", "The website could not be opened.")
    collection_audit_record(
        owner=step.owner, turn_id=step.turn_id, step_index=step.step_index, findings=findings, ledger=ledger
    )
    return deliver(findings, prepared.plan, ledger=ledger, origin=str(prepared.start))


class CollectSiteDocuments(CollectSiteRecords):
    """``collect_site_documents``: as ``collect_site_records``, saving each item's document in the approved folder.

    A download click is sent once: an error, a lost response or no file
    arriving is reported for that item and never retried.
    """

    manifest: Manifest = COLLECT_DOCUMENTS_MANIFEST
    job_kind = COLLECT_DOCUMENTS_JOB

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


def _turn_request(owner: User, turn_id: int | None) -> str:
    """The user's request for this turn ("" outside a turn), read through the owner-scoped selector."""
    if turn_id is None:
        return ""
    turns = turn_list(owner=owner).filter(pk=turn_id)
    return turns.values_list("request_text", flat=True).first() or ""


def _failed(error_class: Any, code: str, message: str) -> StepResult:
    return StepResult(outcome="failed", error=StepError(error_class, code, message), summary=message)


register_browser_step(COLLECT_RECORDS_JOB, collection_job)
register_browser_step(COLLECT_DOCUMENTS_JOB, collection_job)
