"""Visiting one item: its detail view, its document, a new tab its control opened.

An item's detail opened on another page completes that item: it is read,
kept (linked to the list row it was opened from through the navigation
actually observed) and the collection goes back, without exploring from
there. A detail opened in a new tab is read there once, if the tab is on an
authorized website, and the tab is closed. A document's control is clicked
once: no file, an error or a lost response is reported for that item and
never clicked again.

A detail revealed in place (an accordion) is looked at as soon as the click
drew something: when the row's own record then shows every field the item
lacked, each readable as its kind (a date as a date, an amount as an
amount), nothing more is waited for — the way a person reads what appeared.
Otherwise (a spinner, a placeholder, a field still missing) the page is
read again after the usual wait for its data and a quiet DOM.
"""

from __future__ import annotations

import time
from contextlib import suppress

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.records.rows import Source
from apps.sites.acting.click import ClickOutcome
from apps.sites.collection.delivery import outside_request
from apps.sites.collection.documents import DocumentProblem
from apps.sites.collection.frontier import Candidate, PageState
from apps.sites.collection.reading import PageRecords, ReadRow, RecordsUnreadable, read_records, row_matches
from apps.sites.collection.recognition import reads_as_its_kind
from apps.sites.collection.revisit import page_address
from apps.sites.collection.walk import PageWalker
from apps.sites.observation.limits import OBSERVATION_TIMEOUT
from apps.sites.observation.snapshot import Control
from apps.sites.observation.waits import wait_until_readable

# How long a download click may take to start a file, within the ledger's deadline.
DOWNLOAD_START_SECONDS = 5.0
# A new tab gets this long to show its records, within the ledger's deadline.
POPUP_READ_SECONDS = 10.0


class ItemVisits:
    """Details and documents of the rows already read, for one collection."""

    def __init__(self, walker: PageWalker) -> None:
        self.walker = walker
        self.findings = walker.findings
        self.ledger = walker.ledger
        self.page = walker.page

    def read_popup(self, popup: Page, state: PageState, candidate: Candidate) -> None:
        """A new tab the click opened: read once when it is on an authorized website, then closed."""
        try:
            with suppress(PlaywrightError):
                popup.wait_for_load_state("domcontentloaded", timeout=max(1.0, self.walker.remaining_ms()))
            if self.walker.run.websites.allows(popup.url):
                wait_until_readable(popup, self.ledger.deadline())
                deadline = min(self.ledger.deadline(), time.monotonic() + POPUP_READ_SECONDS)
                records = read_records(popup, deadline=deadline)
                row = records.detail or (records.rows[0] if len(records.rows) == 1 else None)
                if row is not None and candidate.row is not None:
                    self.keep_detail(candidate, dict(row.values), popup.url, popup.title())
                self.findings.pages_read += 1
            else:
                self.findings.diagnostics["popup_not_authorized"] += 1
        except (PlaywrightError, RecordsUnreadable):
            self.findings.diagnostics["popup_unreadable"] += 1
        finally:
            with suppress(PlaywrightError):
                popup.close()

    def keep_detail(self, candidate: Candidate, values: dict[str, str | None], url: str, title: str) -> None:
        link = candidate.row
        source = Source(self.findings.source_id(title), (values,), page_address(url))
        self.findings.add_detail(
            source, list_source=link.source_id if link else None, row_index=link.row_index if link else None
        )
        if link is not None:
            self.walker.detailed.add(self.walker.detail_key(link))
            if candidate.control.href:
                self.walker.detail_read_at[page_address(candidate.control.href)] = source.id

    def detail(self, state: PageState, candidate: Candidate, control: Control) -> PageState:
        # A control that says it expands something (aria-expanded) opens the detail in place, at this level.
        expands = control.expanded is not None
        if control.expanded is True:
            self.findings.diagnostics["detail_already_open"] += 1  # a click would close it
            return state
        if not expands and not self.ledger.allows_level(state.level + 1):
            self.findings.limits_met.add("levels")
            return state
        outcome = self.walker.click(control, "in_place" if expands else "forward", look_when_drawn=expands)
        if not outcome.invoked:
            self.findings.diagnostics[f"click_{outcome.kind}.{outcome.reason}"] += 1
            self.walker.left_unread(candidate, "could not be clicked")
            return state
        for popup in outcome.new_pages:
            self.read_popup(popup, state, candidate)
        if page_address(self.page.url) == state.url:
            if not outcome.new_pages:
                return self._revealed_in_place(state, candidate, outcome)
            if outcome.effect == "updated_in_place":
                state.snapshot = self.walker.read()
            return state
        snapshot = self.walker.read(outcome.readiness)
        deadline = min(self.ledger.deadline(), time.monotonic() + OBSERVATION_TIMEOUT.total_seconds())
        try:
            records = read_records(self.page, deadline=deadline)
        except RecordsUnreadable:
            records = None
        row = None
        if records is not None:
            row = records.detail or (records.rows[0] if len(records.rows) == 1 else None)
        if row is not None:
            self.keep_detail(candidate, dict(row.values), self.page.url, snapshot.title)
        elif records is not None and len(records.rows) > 1:
            # An order's page listing its invoice and its credit note: records of their own, found through
            # the row (which stays as its list shows it), never merged into it.
            values = tuple(dict(found.values) for found in records.rows)
            source_id = self.findings.source_id(snapshot.title)
            source = Source(source_id, values, page_address(self.page.url), records.truncated)
            self.findings.add_list(source)
            self.findings.diagnostics["detail_page_records"] += 1
            if candidate.row is not None:
                self.walker.detailed.add(self.walker.detail_key(candidate.row))
        else:
            self.walker.left_unread(candidate, "showed no readable detail", clicked=True)
        self.walker.back(state)
        return state

    def _revealed_in_place(self, state: PageState, candidate: Candidate, outcome: ClickOutcome) -> PageState:
        """A row's control changed the page in place (an accordion, a ``<details>``).

        Only the fields revealed inside that row's own record enrich its item: the one fresh row that
        shows every cell of the linked row plus fields it lacked. Fields revealed elsewhere, or in
        several rows at once, are bound to no item. Other rows the change added are read as usual.
        """
        walker = self.walker
        link = candidate.row
        if link is not None:
            walker.detailed.add(walker.detail_key(link))  # its control now reads differently: never clicked again
        original = next(
            (row for source, index, row in state.rows if link and (source, index) == (link.source_id, link.row_index)),
            None,
        )
        early = outcome.evidence == "drawn_early"
        state.snapshot = walker.read(outcome.readiness, look_now=early)
        records = walker.read_records_now()
        if early and not self._shows_what_was_missing(original, records):
            self.findings.diagnostics["detail_in_place_waited"] += 1
            state.snapshot = walker.read()
            records = walker.read_records_now()
        if records is None or original is None:
            walker.left_unread(candidate, "showed no readable detail", clicked=True)
            return state
        fresh = walker.fresh_rows(state, records)
        grown = [row for row in fresh if row_matches(original, " ".join(row.cells)) and _revealed(original, row)]
        if len(grown) == 1:
            self.findings.diagnostics["detail_in_place"] += 1
            self.keep_detail(candidate, _revealed(original, grown[0]), self.page.url, state.snapshot.title)
        elif grown:
            walker.left_unread(candidate, "revealed fields that could not be bound to its row alone", clicked=True)
        else:
            walker.left_unread(candidate, "revealed no field in its own row", clicked=True)
        others = [row for row in fresh if all(row is not kept for kept in grown)]
        walker.add_rows(state, others, state.snapshot.title, truncated=records.truncated)
        walker.finder.add(state, state.snapshot)
        return state

    def _shows_what_was_missing(self, original: ReadRow | None, records: PageRecords | None) -> bool:
        """One row grew from ``original`` and, with what it revealed, the item lacks no requested field,
        each revealed value readable as its kind."""
        if original is None or records is None:
            return False
        grown = [row for row in records.rows if row_matches(original, " ".join(row.cells))]
        revealed = [_revealed(original, row) for row in grown]
        revealed = [fields for fields in revealed if fields]
        if len(revealed) != 1:
            return False
        values: dict[str, object] = {**original.values, **revealed[0]}
        return not self.walker.run.plan.missing_fields(values) and all(
            _shown_value(code, value) for code, value in revealed[0].items()
        )

    def download(self, state: PageState, candidate: Candidate, control: Control) -> PageState:
        saver = self.walker.run.saver
        identifier = candidate.row.identifier if candidate.row else ""
        if saver is None:
            return state
        outside = outside_request(self.walker.row_values(candidate.row), self.walker.run.plan) if candidate.row else ""
        if outside:
            # The item's own fields put it outside the request: its document is not asked for.
            self.walker.downloaded.add(identifier)
            self.findings.diagnostics[f"download.outside_{outside}"] += 1
            return state
        arrived: list[object] = []

        def on_download(download: object) -> None:
            arrived.append(download)

        self.page.on("download", on_download)
        try:
            outcome = self.walker.click(control, "download")
            give_up = min(self.ledger.deadline(), time.monotonic() + DOWNLOAD_START_SECONDS)
            while outcome.invoked and not arrived and time.monotonic() < give_up:
                self.page.wait_for_timeout(50)
        finally:
            self.page.remove_listener("download", on_download)
        self.walker.downloaded.add(identifier)
        if not outcome.invoked:
            self.walker.left_unread(candidate, "could not be clicked")
        elif not arrived:
            # No file after one click: a second submission is not authorised.
            self.findings.document_problems.append(DocumentProblem(identifier, "no_file_arrived"))
        else:
            saved = saver.save(arrived[0], identifier=identifier, origin=self.page.url)  # type: ignore[arg-type]
            if isinstance(saved, DocumentProblem):
                self.findings.document_problems.append(saved)
            else:
                self.findings.documents.append(saved)
        if page_address(self.page.url) != state.url:
            self.walker.back(state)
        return state


def _revealed(original: ReadRow, grown: ReadRow) -> dict[str, str | None]:
    """The fields ``grown`` shows that ``original`` lacked: only what the change revealed."""
    return {key: value for key, value in grown.values.items() if value and not original.values.get(key)}


def _shown_value(code: str, value: str | None) -> bool:
    """A revealed value that is a real value of its field, not a placeholder ("…", "--", "Loading")."""
    if not value or not any(character.isalnum() for character in value):
        return False
    return reads_as_its_kind(code, value)
