"""Moving through a website during a collection: the steps the exploration is made of.

A :class:`PageWalker` holds what one collection has done so far (the pages
visited, the items whose detail or document was taken) and the steps every
route is made of: spending an action from the ledger, navigating through
the session's website checks, reading the page now shown (prepared and
checked for challenges), recording its records as a new source (asking the
run's recogniser, :mod:`apps.sites.collection.recognition`, when the reader
finds none), going back, and finding a control again before clicking it. A step that cannot go on
raises :class:`Stopped` with a closed-set reason; the exploration
(:mod:`apps.sites.collection.explore`) turns it into the findings' stop.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.records.rows import Source
from apps.sites.acting.choose import choose_option
from apps.sites.acting.click import ClickApproval, ClickOutcome, click
from apps.sites.acting.obstruction import CaptureContext, click_or_capture
from apps.sites.acting.route_choice import (
    MAX_LABEL_CHARS,
    NoRouteChooser,
    RouteChooser,
    RouteDecision,
    RouteQuestion,
)
from apps.sites.browser.sessions import NavigationFailed, NavigationRefused
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.collection.audit import InputWindow, note_decision, note_recovery
from apps.sites.collection.budget import ActionKind, CollectionLedger
from apps.sites.collection.documents import DocumentSaver
from apps.sites.collection.findings import CollectionStop, Findings, StopReason
from apps.sites.collection.frontier import (
    Candidate,
    CandidateFinder,
    OptionChoice,
    PageState,
    RowLink,
    chooser_on,
    row_key,
)
from apps.sites.collection.pages import (
    Arrival,
    PreparePage,
    challenge_shown,
    no_preparation,
    read_arrival,
    stated_total,
)
from apps.sites.collection.reading import PageRecords, ReadRow, RecordsUnreadable, read_records, row_matches
from apps.sites.collection.recognition import (
    RECOGNITION_MAX_REQUESTS,
    RecognitionQuestion,
    RecordRecogniser,
    looks_like_records,
    recogniser_from_settings,
    recognition_fields,
    text_digest,
    validate_records,
)
from apps.sites.collection.revisit import find_again, identity_key, page_address, same_address
from apps.sites.collection.scope import CollectionPlan
from apps.sites.collection.signals import avoided, classify_control, still_loading
from apps.sites.observation.limits import OBSERVATION_TIMEOUT
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Control, Snapshot
from apps.sites.observation.waits import Observer, Readiness, pause

Navigate = Callable[[str], object]
# Candidates that lead to items already known to exist: one that cannot be reached leaves the
# collection incomplete (a section or a menu is only a possible route).
MUST_REACH = frozenset({"detail", "download", "expansion", "full_list", "archive"})
# A page that says its list is still loading ("Loading…") is read again, this long at most, this often.
LOADING_TEXT_PATIENCE = timedelta(seconds=5)
LOADING_TEXT_LOOK_EVERY = timedelta(milliseconds=250)
# How a read fails when the document changed during the check (the recovery read's reason).
CHANGED_FAILURES = frozenset({"changed", "navigating"})


class Stopped(Exception):
    """The collection cannot go on; ``stop`` says why, from a closed set."""

    def __init__(self, reason: StopReason, detail: str = "") -> None:
        super().__init__(reason)
        self.stop = CollectionStop(reason, detail)


@dataclass
class CollectionRun:
    """What one exploration works with; ``navigate`` applies the session's website checks."""

    page: Page
    plan: CollectionPlan
    websites: AuthorizedWebsites
    navigate: Navigate
    ledger: CollectionLedger
    chooser: RouteChooser = field(default_factory=NoRouteChooser)
    prepare_page: PreparePage = no_preparation
    saver: DocumentSaver | None = None
    observer: Observer = observe
    recogniser: RecordRecogniser = field(default_factory=recogniser_from_settings)
    # Whose obstruction copies a refused click saves (the managed browser's); None keeps none.
    capture: CaptureContext | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.chooser, TimedChooser):
            self.chooser = TimedChooser(self.chooser)


class TimedChooser:
    """The run's route chooser, each decision's time and input window counted for the audit.

    It decides nothing itself; ``usage`` is the chooser's own (cloud requests are counted there).
    """

    def __init__(self, chooser: RouteChooser) -> None:
        self.chooser = chooser
        self.counters: Counter[str] = Counter()

    @property
    def usage(self) -> object:
        return getattr(self.chooser, "usage", None)

    def choose(self, question: RouteQuestion, *, deadline: float) -> RouteDecision:
        started = time.monotonic()
        try:
            return self.chooser.choose(question, deadline=deadline)
        finally:
            cut = any(
                len(option.label) > MAX_LABEL_CHARS or len(option.section) > MAX_LABEL_CHARS
                for option in question.options
            )
            seconds = time.monotonic() - started
            note_decision(self.counters, "route_choice", seconds=seconds, window="truncated" if cut else "complete")


class RowFinder(CandidateFinder):
    """The frontier's candidates (each row control linked to the one row whose cells its row shows whole).

    A control whose row text shows several rows' cells cannot be told which item it acts on: it is
    never clicked, and a detail or document left that way is reported, not silently dropped.
    """

    def __init__(self, run: CollectionRun, findings: Findings) -> None:
        super().__init__(run.plan, run.websites)
        self.findings = findings

    def _candidate(self, state: PageState, control: Control) -> Candidate | None:
        candidate = super()._candidate(state, control)
        if candidate is not None or control.ambiguous or not control.row:
            return candidate
        signal = classify_control(
            control,
            object_words=self.plan.object_words,
            container_words=self.plan.container_words,
            qualifier=self.plan.qualifier,
        )
        wanted = signal is not None and (
            signal.kind == "detail" or (signal.kind == "download" and self.plan.save_documents)
        )
        if signal is not None and wanted and len(_rows_shown(state, control)) > 1:
            self.findings.diagnostics["control_row_ambiguous"] += 1
            what = "detail" if signal.kind == "detail" else "document"
            self.findings.left_unread.append(
                f"The {what} control in the row {control.row[:80]!r} could not be tied to one item "
                "(that row shows several); it was not clicked."
            )
        return None


def _already_open(toggle: Control, revealed: Control, snapshot: Snapshot) -> bool:
    """Whether ``toggle`` is open now: it says so, or (saying nothing) the next control of its route is shown."""
    if toggle.expanded is not None:
        return toggle.expanded
    return find_again(snapshot, revealed).kind != "missing"


def _rows_shown(state: PageState, control: Control) -> list[tuple[str, int, ReadRow]]:
    """The record rows of ``state`` whose every cell the control's row text shows whole."""
    return [(source, index, row) for source, index, row in state.rows if row_matches(row, control.row)]


class PageWalker:
    """The steps of one collection and what it has visited and taken so far."""

    def __init__(self, run: CollectionRun, findings: Findings) -> None:
        self.run = run
        self.page = run.page
        self.ledger = run.ledger
        self.findings = findings
        self.finder = RowFinder(run, findings)
        self.visited: set[str] = set()
        # The items whose detail was read (:meth:`detail_key`).
        self.detailed: set[str] = set()
        # The detail read for each page a row's control led to (by address): rows read again link to it.
        self.detail_read_at: dict[str, str] = {}
        self.downloaded: set[str] = set()
        self.recognition_asked: set[str] = set()
        if isinstance(run.chooser, TimedChooser):
            run.chooser.counters = findings.diagnostics  # the route decisions' times go to this collection's audit

    # --- moving ---------------------------------------------------------------

    def spend(self, kind: ActionKind) -> None:
        if not self.ledger.spend(kind):
            limit = self.ledger.exhausted() or "actions"
            self.findings.limits_met.add(limit)
            raise Stopped("active_time" if limit == "active_time" else "actions")

    def navigate(self, url: str) -> None:
        try:
            self.run.navigate(url)
        except NavigationRefused as refused:
            raise Stopped("navigation_refused", refused.reason) from None
        except NavigationFailed:
            raise Stopped("navigation_failed") from None

    def read(self, settled: Readiness | None = None, *, look_now: bool = False) -> Snapshot:
        """Read the page now shown, prepared and checked; stops the collection when it cannot go on.

        ``look_now``: as it is, without waiting (the caller checks what it read, see ``read_arrival``).
        """
        arrival = self._arrival(settled, look_now=look_now)
        if arrival.snapshot is None:
            if self.ledger.exhausted() == "active_time":
                self.findings.limits_met.add("active_time")
                raise Stopped("active_time")
            raise Stopped("unreadable", arrival.failure)
        snapshot = self._loaded(arrival.snapshot)
        prepared = self.run.prepare_page(self.page, snapshot, self.ledger.deadline())
        if prepared.blocked:
            raise Stopped("page_blocked", prepared.blocked)
        if prepared.changed:
            again = self._arrival(None)
            if again.snapshot is None:
                raise Stopped("unreadable", again.failure)
            snapshot = again.snapshot
        if challenge_shown(snapshot):
            raise Stopped("challenge")
        self.findings.pages_read += 1
        self.findings.note_expected_total(stated_total(snapshot.text), page=self.page.url)
        self.visited.add(page_address(self.page.url))
        return snapshot

    def _loaded(self, snapshot: Snapshot) -> Snapshot:
        """``snapshot``, or, while the page says its content is still loading, a later read (bounded)."""
        until = min(self.ledger.deadline(), time.monotonic() + LOADING_TEXT_PATIENCE.total_seconds())
        while still_loading(snapshot.text) and time.monotonic() < until:
            self.findings.diagnostics["read_again.loading_text"] += 1
            pause(self.page, until, LOADING_TEXT_LOOK_EVERY)
            again = self._arrival(None)
            if again.snapshot is None:
                break
            snapshot = again.snapshot
        return snapshot

    def _arrival(self, settled: Readiness | None, *, look_now: bool = False) -> Arrival:
        """Read the page arrived on, its one recovery read (if the document changed meanwhile) counted."""
        arrival = read_arrival(
            self.page, deadline=self.ledger.deadline(), observer=self.run.observer, settled=settled, look_now=look_now
        )
        counters = self.findings.diagnostics
        if arrival.recovered:
            counters["recovery_read.recovered"] += 1
            note_recovery(counters, "document_changed", "recovered")
        elif arrival.failure == "left_page":
            note_recovery(counters, "document_changed", "left_page")
        elif arrival.failure in CHANGED_FAILURES:
            note_recovery(counters, "document_changed", "still_changing")
        return arrival

    def arrive(self, *, level: int, parent: PageState | None, settled: Readiness | None = None) -> PageState:
        snapshot = self.read(settled)
        state = PageState(url=page_address(self.page.url), level=level, parent=parent, snapshot=snapshot)
        self.ledger.deepest_level = max(self.ledger.deepest_level, level)
        self.record_rows(state, snapshot.title)
        self.finder.add(state, snapshot)
        return state

    def read_records_now(self) -> PageRecords | None:
        """The records the page shows now, or None (counted) when it does not answer."""
        deadline = min(self.ledger.deadline(), time.monotonic() + OBSERVATION_TIMEOUT.total_seconds())
        try:
            return read_records(self.page, deadline=deadline)
        except RecordsUnreadable as unreadable:
            self.findings.diagnostics[f"records_unreadable.{unreadable.reason}"] += 1
            return None

    def record_rows(self, state: PageState, title: str) -> None:
        """Read the page's records as one new source; after an in-place change only the rows it added."""
        records = self.read_records_now()
        if records is None:
            return
        fresh = self.fresh_rows(state, records)
        rows = fresh or ([records.detail] if records.detail and not state.rows else [])
        if not records.rows and records.detail is None:
            self._recognise(state, title)
        self.add_rows(state, rows, title, truncated=records.truncated)

    @staticmethod
    def fresh_rows(state: PageState, records: PageRecords) -> list[ReadRow]:
        """The rows of ``records`` not read before in ``state`` (counted as read from now on)."""
        seen = state.row_counts.copy()
        fresh = []
        for row in records.rows:
            key = row_key(row)
            if seen[key]:
                seen[key] -= 1
                continue
            fresh.append(row)
            state.row_counts[key] += 1
        return fresh

    @staticmethod
    def detail_key(row: RowLink) -> str:
        """What a read detail is kept under: the item's number; for a row without one, that read row itself
        (rows alike in another list are not shown to be the same item by their cells alone)."""
        return row.identifier if row.numbered else f"{row.source_id}#{row.row_index}"

    def row_values(self, row: RowLink) -> Mapping[str, Any]:
        """The values read for the row a control belongs to (empty when that read is unknown)."""
        source = next((source for source in self.findings.sources if source.id == row.source_id), None)
        if source is None or not 0 <= row.row_index < len(source.rows):
            return {}
        return source.rows[row.row_index]

    def add_rows(self, state: PageState, rows: list[ReadRow], title: str, *, truncated: bool) -> Source | None:
        """``rows`` as one new source of the findings, linked to ``state`` for their controls."""
        if not rows:
            return None
        source = Source(self.findings.source_id(title), tuple(row.values for row in rows), state.url, truncated)
        self.findings.add_list(source)
        state.rows.extend((source.id, index, row) for index, row in enumerate(rows))
        return source

    def _recognise(self, state: PageState, title: str) -> None:
        """No records for the reader: the recogniser may find those the visible text shows (once per text)."""
        snapshot = state.snapshot
        if not looks_like_records(snapshot.text):
            return
        digest = text_digest(snapshot.text)
        if digest in self.recognition_asked:
            return
        if len(self.recognition_asked) >= RECOGNITION_MAX_REQUESTS:
            self.findings.diagnostics["recognition.over_limit"] += 1
            return
        self.recognition_asked.add(digest)
        plan = self.run.plan
        fields = recognition_fields(plan.item_fields)
        question = RecognitionQuestion(snapshot.text, snapshot.text_truncated, plan.object_words, fields)
        started = time.monotonic()
        answer = self.run.recogniser.recognise(question, deadline=self.ledger.decision_deadline())
        seconds = time.monotonic() - started
        window: InputWindow = "truncated" if question.truncated else "complete"
        note_decision(self.findings.diagnostics, "recognition", seconds=seconds, window=window)
        self.findings.diagnostics[f"recognition.{answer.kind}"] += 1
        if answer.kind == "failed":
            # No other model is asked instead: the collection ends incomplete.
            raise Stopped("recognition_failed", answer.reason)
        if answer.kind != "records":
            return
        checked = validate_records(answer.records, text=snapshot.text, fields=fields)
        self.findings.recognition_dropped += checked.dropped_values
        self.findings.diagnostics["recognition.records_dropped"] += checked.dropped_records
        # After an in-place change ("load more") the text is asked again: only the rows it added are new.
        rows = self.fresh_rows(state, PageRecords(checked.rows, None, snapshot.text_truncated))
        source = self.add_rows(state, rows, title, truncated=snapshot.text_truncated)
        if source is not None:
            self.findings.recognised.add(source.id)

    def return_to(self, target: PageState) -> PageState:
        self.spend("return")
        self.navigate(target.url)
        target.snapshot = self.read()
        return target

    def back(self, state: PageState) -> None:
        """Go back to ``state`` after a detail or a document opened another page."""
        self.spend("return")
        with suppress(PlaywrightError):
            self.page.go_back(wait_until="commit", timeout=max(1.0, self.remaining_ms()))
        if page_address(self.page.url) != state.url:
            self.navigate(state.url)
        state.snapshot = self.read()

    def remaining_ms(self) -> float:
        return (self.ledger.deadline() - time.monotonic()) * 1000

    # --- finding and clicking -------------------------------------------------

    def find(self, state: PageState, candidate: Candidate) -> Control | None:
        found = find_again(state.snapshot, candidate.control)
        if found.kind == "missing" and state.preparation and not candidate.prepared_again:
            # The route to this control may be prepared again once, never the click itself.
            candidate.prepared_again = True
            self._prepare_again(state, candidate)
            found = find_again(state.snapshot, candidate.control)
            note_recovery(self.findings.diagnostics, "control_missing", found.kind)
        if found.kind == "found":
            return found.control
        self.findings.diagnostics[f"control_{found.kind}"] += 1
        if candidate.signal.kind in MUST_REACH:
            ambiguous = found.kind == "ambiguous"
            why = "could not be told apart from identical controls" if ambiguous else "could not be found again"
            self.left_unread(candidate, why)
        return None

    def _prepare_again(self, state: PageState, candidate: Candidate) -> None:
        """Click the page's in-place preparation again, once, for ``candidate``: only what is not open already.

        A toggle already open (``aria-expanded="true"``, or what it revealed already shown) is not clicked:
        a second press would close a menu the site kept open across the return.
        """
        self.findings.diagnostics["route_prepared_again"] += 1
        route = [*state.preparation, candidate.control]
        for position, control in enumerate(state.preparation):
            if position in state.choices:  # a period chosen in place is chosen again
                if not isinstance(self.choose_and_show(state, state.choices[position]), ClickOutcome):
                    return
                state.snapshot = self.read()
                continue
            found = find_again(state.snapshot, control)
            if found.kind != "found" or found.control is None:
                return
            if _already_open(found.control, route[position + 1], state.snapshot):
                self.findings.diagnostics["route_toggle_already_open"] += 1
                continue
            outcome = self.click(found.control, "in_place")
            if not outcome.invoked:
                return
            state.snapshot = self.read()

    def left_unread(self, candidate: Candidate, why: str, *, clicked: bool = False) -> None:
        """Say that ``candidate`` was left unread and why; ``clicked``: it was opened, and showed nothing usable."""
        kind = candidate.signal.kind
        if kind in ("detail", "download"):
            what = "detail" if kind == "detail" else "document"
            item = candidate.row.identifier if candidate.row else candidate.control.row or candidate.control.label
            after = "the item is kept as its list shows it" if clicked else "it was not clicked"
            self.findings.left_unread.append(f"The {what} of {item[:80]!r} {why}; {after}.")
        else:
            label = candidate.control.label[:80]
            self.findings.left_unread.append(f"The control {label!r}, which leads to more items, {why}; not clicked.")

    def click(self, control: Control, kind: ActionKind, *, look_when_drawn: bool = False) -> ClickOutcome:
        """Click ``control``; ``look_when_drawn``: the caller looks at once at what the click drew
        and waits itself when what it needs is not there yet (see :mod:`apps.sites.acting.settle`)."""
        self.spend(kind)
        approval, deadline = ClickApproval(control), self.ledger.deadline()
        # A control without an address (a tab, a menu, "details") is expected to change the page in place.
        in_place = kind == "in_place"
        if self.run.capture is None:
            return click(
                self.page, control, approval=approval, deadline=deadline, expect_in_place=in_place,
                look_when_drawn=look_when_drawn,
            )  # fmt: skip
        # Something covering the control: a static copy and its measurements are kept for the operator.
        outcome, copy = click_or_capture(
            self.page, control, approval=approval, deadline=deadline, capture=self.run.capture,
            expect_in_place=in_place, look_when_drawn=look_when_drawn,
        )  # fmt: skip
        if copy is not None:
            self.findings.diagnostics[f"obstruction_copy.{copy.kind}"] += 1
        return outcome

    def choose_and_show(self, state: PageState, choice: OptionChoice) -> ClickOutcome | str:
        """Choose ``choice``'s option in the chooser ``state`` shows (one in-place action) and, when the
        page does not follow by itself, press the chooser's button (another); why not, as a phrase."""
        found = chooser_on(state.snapshot, choice)
        if found is None:
            return "was no longer on the page"
        form, field = found
        self.spend("in_place")
        outcome = choose_option(self.page, form, field, choice.option, deadline=self.ledger.deadline())
        if not outcome.invoked or page_address(self.page.url) != state.url or outcome.effect != "no_change":
            return outcome
        # Nothing followed the choice: the chooser's form has a button that shows the chosen period.
        controls = state.snapshot.controls
        button = next(
            (controls[i] for i in form.controls if controls[i].role == "button" and not avoided(controls[i])), None
        )
        if button is None:
            return "has no button to show it"
        again = find_again(state.snapshot, button)
        if again.kind != "found" or again.control is None:
            return "has a button that could not be found again"
        return self.click(again.control, "in_place")

    @staticmethod
    def twin_links(state: PageState, control: Control) -> bool:
        twins = [other for other in state.snapshot.controls if identity_key(other) == identity_key(control)]
        return same_address(twins or [control])

    def plain_link(self, control: Control, state: PageState) -> bool:
        return (
            control.role == "link"
            and bool(control.href)
            and page_address(control.href) != state.url
            and self.run.websites.allows(control.href)
        )
