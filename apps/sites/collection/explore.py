"""The bounded exploration of a website for records.

:func:`explore` starts from a page already open (or opens ``start_url``),
reads its records, and takes the candidates the signals recognise, within
the ledger's bounds: eight levels, 256 actions shared by forward
navigation, in-place clicks and returns, ten minutes of active work. An
item's detail opened on another page completes that item: it is read,
kept, and the collection goes back, without exploring from there
(:mod:`apps.sites.collection.visits`). Returns are lazy: the collection goes
back to a page only when that page still has something to take, and finds
its controls again by identity (:mod:`apps.sites.collection.revisit`). If a
control is not found again, the page's in-place preparation may be done
again once for it; a click already dispatched is never repeated. The steps
themselves (moving, reading, clicking) are :mod:`apps.sites.collection.walk`'s.

Details come last: a row's detail is put aside when it comes up, and once
the lists, their next pages, archives and periods are read, it is opened
only if the item still lacks a requested field after everything read so far
(an archive often shows what the list did not); a detail opened in place (an
accordion item) is opened at once, while its list is shown. A plain link of a page
higher up (an archive, the next section) is followed by its observed
address, without going back to that page first.

Signals come first. When they are insufficient, the route chooser picks
among observed controls (:mod:`apps.sites.collection.routes`): when nothing at
all has been found, and when a complete collection has found rows yet
nothing (a next page, the full list, an archive, scrolling, an earlier
choice that brought rows) has led toward the rest of their list, as on a
hub showing only the latest bills.

Whatever stops the exploration (a bound, a refused navigation, the session
ending, a challenge), everything observed so far stays in the
:class:`~apps.sites.collection.findings.Findings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any, cast

from playwright.sync_api import Error as PlaywrightError

from apps.records.identity.rows import merge_rows
from apps.records.rows import Source
from apps.runtime.tiers.client import ModelUsage
from apps.sites.acting.click import ClickOutcome
from apps.sites.browser.sessions import SessionEnded
from apps.sites.collection.completeness import IDENTIFIER_FIELDS
from apps.sites.collection.findings import CollectionStop, Findings, StopReason, identifier_codes
from apps.sites.collection.frontier import Candidate, OptionChoice, PageState, RowLink, lists_items
from apps.sites.collection.revisit import find_again, identity_key, page_address
from apps.sites.collection.routes import RouteNotChosen, ask_chooser
from apps.sites.collection.visits import ItemVisits
from apps.sites.collection.walk import MUST_REACH, CollectionRun, PageWalker, Stopped
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import Control

__all__ = ["CollectionRun", "explore"]

# One scroll goes this far down; the page then loads (or not) what comes next.
SCROLL_PIXELS = 20_000
# More of the same list (the next page, "show more", the full list) stays at that list's level.
SAME_LEVEL = frozenset({"expansion", "full_list"})
# Signals toward the rest of a list: once one is taken, the signals pursue completeness themselves.
LIST_ROUTES = frozenset({"expansion", "full_list", "archive"})
_MORE_BELOW = script_beside(__file__, "explore.js")


def explore(run: CollectionRun, start_url: str | None = None) -> Findings:
    """Explore from ``start_url`` (or the page as it is) and return everything observed."""
    findings = Findings()
    _Explorer(run, findings).run(start_url)
    return findings


def _opens_in_place(control: Control) -> bool:
    """A detail that says it expands in place (``aria-expanded``) is opened while its list is shown: it
    costs one action and no return, and a list paged in place may not show that row again."""
    return control.expanded is not None and not control.href


def _cloud_requests(*deciders: object) -> int:
    """Cloud requests the model-backed deciders have sent so far (those without a ``usage`` send none)."""
    usages = (getattr(decider, "usage", None) for decider in deciders)
    return sum(usage.cloud_requests for usage in usages if isinstance(usage, ModelUsage))


class _Explorer:
    def __init__(self, run: CollectionRun, findings: Findings) -> None:
        self.plan = run.plan
        self.chooser = run.chooser
        self.recogniser = run.recogniser
        self.findings = findings
        self.walker = PageWalker(run, findings)
        self.visits = ItemVisits(self.walker)
        self.page = run.page
        self.ledger = run.ledger
        # Whether anything has led toward the rest of the list: a signal (next page, full list,
        # archive, scrolling) or a route the chooser chose that brought rows.
        self.toward_the_rest = False
        self.rows_before_choice: int | None = None
        # Menus (by identity) whose opening revealed nothing to take: the same menu on another
        # page (a site-wide header) is not opened again, nor a page returned to for it.
        self.fruitless_menus: set[tuple[object, ...]] = set()
        # Details put aside until the lists are read, with the page each belongs to.
        self.deferred: list[tuple[PageState, Candidate]] = []
        # (rows read, whether they list the items asked for) when last looked at.
        self._listed_seen: tuple[int, bool] = (0, False)

    def run(self, start_url: str | None) -> None:
        cloud_before = _cloud_requests(self.chooser, self.recogniser)
        try:
            if start_url is not None:
                self.walker.spend("forward")
                self.walker.navigate(start_url)
            state = self.walker.arrive(level=1, parent=None)
            self._loop(state)
        except Stopped as stopped:
            self.findings.stop = stopped.stop
        except SessionEnded as ended:
            self.findings.stop = CollectionStop("session_ended", ended.outcome)
        except PlaywrightError:
            self.findings.stop = CollectionStop("session_ended", "browser_error")
        finally:
            # A request sent stays counted, whatever happened to it.
            self.findings.cloud_requests = _cloud_requests(self.chooser, self.recogniser) - cloud_before

    def _loop(self, state: PageState) -> None:
        while True:
            candidate = self._next(state)
            if candidate is None and self._scroll_for_more(state):
                continue
            if candidate is None:
                target = self._ancestor_with_work(state.parent)
                if target is not None and (link := self._plain_link_first(target)) is not None:
                    state = self._take(target, link)  # its address is known: no need to go back first
                    continue
                if target is None:
                    target, candidate = self._deferred_detail(state)
                if target is None:
                    target, candidate = self._chosen_route(state)
                    if target is None or candidate is None:
                        return
                if target is not state:
                    state = self.walker.return_to(target)
                if candidate is None:
                    continue
            state = self._take(state, candidate)

    def _scroll_for_more(self, state: PageState) -> bool:
        """A list that loads more rows as it is scrolled: scroll once more while that adds rows.

        Only a list with no next page or "load more" of its own, taller than the window, is scrolled.
        """
        if not state.rows or state.scrolled_out or state.has_expansions:
            return False
        try:
            more_below = bool(self.page.evaluate(_MORE_BELOW))
        except PlaywrightError:
            more_below = False
        if not more_below:
            state.scrolled_out = True
            return False
        self.walker.spend("scroll")
        self.toward_the_rest = True
        before = len(state.rows)
        with suppress(PlaywrightError):
            self.page.mouse.wheel(0, SCROLL_PIXELS)
        state.snapshot = self.walker.read()
        self.walker.record_rows(state, state.snapshot.title)
        self.walker.finder.add(state, state.snapshot)
        if len(state.rows) == before:
            state.scrolled_out = True  # the scroll revealed no rows: nothing loads on scrolling here
        return True

    def _chosen_route(self, state: PageState) -> tuple[PageState | None, Candidate | None]:
        """A route chosen among the controls of the pages on the way back, when signals are insufficient.

        Signals are insufficient when nothing at all has been found, or when a complete collection has
        found rows but nothing has led toward the rest of the list (a hub showing the latest bills):
        then only pages that link somewhere no signal named are asked about.
        """
        looking_for_the_rest = self._looking_for_the_rest()
        if self.findings.row_count() and not looking_for_the_rest:
            return None, None
        walk: PageState | None = state
        while walk is not None:
            if not walk.chooser_asked and (not looking_for_the_rest or self._links_elsewhere(walk)):
                walk.chooser_asked = True
                try:
                    candidate = ask_chooser(walk, self.plan, self.chooser, self.ledger, self.findings)
                except RouteNotChosen as not_chosen:
                    raise Stopped(cast(StopReason, not_chosen.reason), not_chosen.detail) from None
                if candidate is not None:
                    self.rows_before_choice = self.findings.row_count()
                    return walk, candidate
            walk = walk.parent
        return None, None

    def _looking_for_the_rest(self) -> bool:
        """Whether a complete collection found rows yet nothing has led toward the rest of their list."""
        if not self.plan.complete or not self.findings.row_count() or self.toward_the_rest:
            return False
        chosen_brought_rows = (
            self.rows_before_choice is not None and self.findings.row_count() > self.rows_before_choice
        )
        return not chosen_brought_rows

    def _links_elsewhere(self, state: PageState) -> bool:
        """Whether ``state`` links to a page of the website not visited that no signal named."""
        return any(
            control.role == "link"
            and control.href
            and page_address(control.href) not in self.walker.visited
            and self.walker.run.websites.allows(control.href)
            for control in state.unclassified
        )

    def _useful(self, candidate: Candidate) -> bool:
        control = candidate.control
        if candidate.signal.kind == "menu" and _menu_key(control) in self.fruitless_menus:
            return False
        if candidate.signal.kind in ("account", "container") and self._items_found():
            return False  # ways toward the items, while their list was not seen: it was found
        if candidate.signal.kind == "detail" and candidate.row is not None:
            if self._detail_read_at_its_page(candidate):
                return False  # linked to that read instead (see _dropped)
            read = self.walker.detail_key(candidate.row) in self.walker.detailed
            return not read and self._detail_needed(candidate.row)
        if candidate.signal.kind == "download" and candidate.row is not None:
            return candidate.row.identifier not in self.walker.downloaded
        return not (control.href and page_address(control.href) in self.walker.visited)

    def _detail_read_at_its_page(self, candidate: Candidate) -> bool:
        """Whether the page a row's detail control leads to was read already as an item's detail."""
        href = candidate.control.href
        return bool(href) and page_address(href) in self.walker.detail_read_at

    def _dropped(self, candidate: Candidate) -> None:
        """A candidate not taken. A row's detail control leading to a page already read as an item's detail
        (the same item in another list: "Last 12 months", then "2026") links the row to that read: the
        navigation it shows is the same."""
        href, row = candidate.control.href, candidate.row
        if candidate.signal.kind != "detail" or row is None or not href:
            return
        detail = self.walker.detail_read_at.get(page_address(href))
        if detail is None or self.findings.linked(row.source_id, row.row_index):
            return
        self.findings.link_detail(row.source_id, row.row_index, detail)
        self.findings.diagnostics["detail_linked_again"] += 1

    def _items_found(self) -> bool:
        """Whether the rows read so far list the items asked for (:func:`~.frontier.lists_items`)."""
        count = self.findings.row_count()
        if count != self._listed_seen[0]:
            rows = (row for source in self.findings.sources for row in source.rows)
            self._listed_seen = (count, lists_items(rows, self.plan))
        return self._listed_seen[1]

    def _detail_needed(self, row: RowLink) -> bool:
        """Whether the item lacks a requested field that no other row read for it shows.

        Another row counts when it shows the same identifier and every requested field, and the
        records layer merges the two (it then keeps that row, the one with the fields asked for).
        """
        values = dict(self.walker.row_values(row))
        if not self.plan.missing_fields(values):
            return False
        codes = identifier_codes(values.get("identifier_number"))
        return not any(
            not self.plan.missing_fields(dict(other)) and _merge_into_one(values, other)
            for other in self.findings.rows_of(codes)
        )

    def _next(self, state: PageState) -> Candidate | None:
        while state.pending:
            candidate = state.pending.pop(0)
            if not self._useful(candidate):
                self._dropped(candidate)
                continue
            if candidate.signal.kind == "detail" and not _opens_in_place(candidate.control):
                self.deferred.append((state, candidate))  # opened once the lists are read, if still needed
                continue
            return candidate
        return None

    def _plain_link_first(self, target: PageState) -> Candidate | None:
        """The next candidate of ``target`` when it is a plain link: followed by its observed address."""
        candidate = target.pending[0] if target.pending else None
        if candidate is None or candidate.signal.kind in ("detail", "download") or target.preparation:
            return None  # a page prepared in place (a menu opened) is gone back to: its route is checked there
        control = candidate.control
        if not (control.role == "link" and control.href and self.walker.run.websites.allows(control.href)):
            return None
        if find_again(target.snapshot, control).kind != "found":
            return None  # to be found again on the page itself (perhaps after its preparation)
        return target.pending.pop(0)

    def _deferred_detail(self, state: PageState) -> tuple[PageState | None, Candidate | None]:
        """The next detail put aside that is still needed: this page's first, then in the order met."""
        self.deferred.sort(key=lambda pair: pair[0] is not state)  # stable: the order met is kept
        while self.deferred:
            target, candidate = self.deferred.pop(0)
            if self._useful(candidate):
                return target, candidate
            self._dropped(candidate)
        return None, None

    def _ancestor_with_work(self, state: PageState | None) -> PageState | None:
        while state is not None:
            state.pending = [candidate for candidate in state.pending if self._useful(candidate)]
            if state.pending:
                return state
            state = state.parent
        return None

    def _take(self, state: PageState, candidate: Candidate) -> PageState:
        walker = self.walker
        # A signal toward the rest of the list was offered, whether or not it can be taken.
        self.toward_the_rest = self.toward_the_rest or candidate.signal.kind in LIST_ROUTES
        if candidate.choice is not None:
            return self._choose(state, candidate, candidate.choice)
        if candidate.control.ambiguous and not walker.twin_links(state, candidate.control):
            if candidate.signal.kind in MUST_REACH:
                walker.left_unread(candidate, "could not be told apart from identical controls")
            return state
        control = walker.find(state, candidate)
        if control is None:
            return state
        kind = candidate.signal.kind
        if kind == "detail":
            return self.visits.detail(state, candidate, control)
        if kind == "download":
            return self.visits.download(state, candidate, control)
        deeper = kind not in SAME_LEVEL
        level = state.level + 1 if deeper else state.level
        if deeper and control.href and not self.ledger.allows_level(level):
            self.findings.limits_met.add("levels")
            return state
        if walker.plain_link(control, state):
            # A link's observed address (next page, "All bills", a section): the same GET the click
            # would send, through the session's website checks. Rows' controls are clicked instead.
            walker.spend("forward")
            walker.navigate(control.href)
            return walker.arrive(level=level, parent=state)
        outcome = walker.click(control, "forward" if control.href else "in_place")
        return self._after_click(state, candidate, outcome, level)

    def _choose(self, state: PageState, candidate: Candidate, choice: OptionChoice) -> PageState:
        """Choose another period in the page's chooser (and press its button if the page does not follow).

        A period shown in place, at the same address, is a page state of its own (the same level): its
        preparation chooses that period again when the collection comes back for its items.
        """
        walker = self.walker
        outcome = walker.choose_and_show(state, choice)
        if isinstance(outcome, str):
            walker.left_unread(candidate, outcome)
            return state
        shown_here = (
            outcome.effect in ("updated_in_place", "navigated") or outcome.kind == "dispatch_error_effect_unknown"
        )
        if outcome.invoked and shown_here and page_address(self.page.url) == state.url:
            for popup in outcome.new_pages:
                self.visits.read_popup(popup, state, candidate)
            period = walker.arrive(level=state.level, parent=state, settled=outcome.readiness)
            period.preparation = [*state.preparation, candidate.control]
            period.choices = {**state.choices, len(state.preparation): choice}
            return period
        return self._after_click(state, candidate, outcome, state.level)

    def _after_click(self, state: PageState, candidate: Candidate, outcome: ClickOutcome, level: int) -> PageState:
        walker = self.walker
        if not outcome.invoked:
            self.findings.diagnostics[f"click_{outcome.kind}.{outcome.reason}"] += 1
            # A "Next" turned disabled since it was seen (the last page was reached by its number) says
            # the list has no more: nothing is left unread.
            disabled_more = candidate.signal.kind == "expansion" and outcome.reason == "disabled"
            if candidate.signal.kind in MUST_REACH and not disabled_more:
                walker.left_unread(candidate, f"could not be clicked ({outcome.kind})")
            return state
        for popup in outcome.new_pages:
            self.visits.read_popup(popup, state, candidate)
        if outcome.kind == "dispatch_error_effect_unknown":
            # The click may have acted: look again, never click again.
            self.findings.diagnostics["click_effect_unknown"] += 1
        if page_address(self.page.url) != state.url:
            if not self.ledger.allows_level(level):
                self.findings.limits_met.add("levels")
                walker.back(state)
                return state
            walker.visited.add(page_address(self.page.url))
            return walker.arrive(level=level, parent=state, settled=outcome.readiness)
        if outcome.effect in ("updated_in_place", "navigated") or outcome.kind == "dispatch_error_effect_unknown":
            state.preparation.append(candidate.control)
            state.snapshot = walker.read(outcome.readiness)
            rows_before, useful_before = len(state.rows), self._useful_pending(state)
            walker.record_rows(state, state.snapshot.title)
            if candidate.signal.kind == "expansion" and candidate.choice is None and len(state.rows) > rows_before:
                # "Load more", an in-place "Next": while it brings rows, it is there to be pressed again.
                state.considered.discard(identity_key(candidate.control))
            walker.finder.add(state, state.snapshot)
            fruitless = len(state.rows) == rows_before and self._useful_pending(state) == useful_before
            if candidate.signal.kind == "menu" and fruitless:
                self.fruitless_menus.add(_menu_key(candidate.control))
        return state

    def _useful_pending(self, state: PageState) -> int:
        return sum(1 for pending in state.pending if self._useful(pending))


def _merge_into_one(row: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether the records layer merges the two rows (same identifier, more fields agreeing than not)."""
    sources = [Source("row", [dict(row)]), Source("other", [dict(other)])]
    return len(merge_rows(sources, identifier_fields=IDENTIFIER_FIELDS).rows) == 1


def _menu_key(control: Control) -> tuple[object, ...]:
    """A menu's identity across the pages of a website: the same button in the same place."""
    return (control.frame_path, control.role, control.name, control.text, control.section, control.fingerprint)
