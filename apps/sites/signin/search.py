"""Finding the way in: a sign-in form on the page, else the account links and menus that lead to one.

The search follows page signals (:func:`apps.sites.signin.entry.choose_entry`)
depth first. Each route has at most ``SIGN_IN_MAX_STEPS_PER_ROUTE`` steps and
the whole search at most ``SIGN_IN_MAX_ACTIONS`` actions (clicks and returns).

- An ambiguous control stops the search; nothing is chosen by position.
- An entry already tried, or one leading to a page already visited, is not a
  new alternative.
- At a dead end the search returns to the last verified branch and tries its
  next alternative. If that page changed meanwhile, the branch is discarded and
  the search goes back to the original entry for a fresh observation, keeping
  the attempted controls and the counters (it never repeats the discarded branch).
- After a click it waits, within the search's time, for a delayed form or a
  new tab; a new tab passes the same authorized-website check as any page.
- When the signals are exhausted, the route-choice model may choose among the
  controls actually observed on the entry page; without a model the search
  stops as inconclusive and says so.
- A consent notice that cannot be rejected pauses the search
  (``consent_pending``). Pausing does not reset attempts: running the same
  search again for the same entry resumes on the page where it paused, with
  its route, its counters and the controls already attempted.

The search runs before any credential is used and never submits a form.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urldefrag

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.click import ClickApproval, click
from apps.sites.acting.cookie_memory import ConsentMemory
from apps.sites.acting.cookies import consent_pending, reject_cookies
from apps.sites.acting.overlays import close_overlay, covering_panels
from apps.sites.browser.sessions import BrowserSession, NavigationFailed, NavigationRefused
from apps.sites.limits import SIGN_IN_MAX_ACTIONS, SIGN_IN_MAX_STEPS_PER_ROUTE
from apps.sites.observation.humanity import humanity_request
from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Control, ObservationFailed, Snapshot
from apps.sites.observation.waits import read_page
from apps.sites.signin.entry import choose_entry
from apps.sites.signin.forms import LoginForm, asks_for_password, classify_form, find_login_form
from apps.sites.signin.page import challenge_visible, form_prose
from apps.sites.signin.types import FORM_PATIENCE_SECONDS, MAX_MODEL_DECISIONS, OBSERVE_EVERY_SECONDS

# The route-choice model's hook: the index of one offered control, or None to decline.
RouteChooser = Callable[[Sequence[Control], float], "int | None"]
# The person's hook, when the evidence designates several ways in and no model is configured: the index of
# the control they chose among those offered, or None (declined, expired, nobody to ask).
PersonChooser = Callable[[Sequence[Control]], "int | None"]
MAX_PERSON_CHOICES = 1
SearchKind = Literal[
    "form", "signed_in", "needs_person", "consent_pending", "ambiguous", "not_found", "exhausted", "refused", "failed"
]
READ_SECONDS = 15.0


@dataclass(frozen=True)
class SearchResult:
    kind: SearchKind
    reason: str
    page: Page | None = None
    snapshot: Snapshot | None = None
    form: LoginForm | None = None


@dataclass
class _Node:
    """A verified page of the current route, and what it looked like."""

    page: Page
    url: str
    signature: tuple[object, ...]
    depth: int


@dataclass
class _Pause:
    """Where the search paused for consent: the entry, the verified route up to it, and the page."""

    entry_url: str
    stack: list[_Node]
    page: Page


@dataclass
class SearchCounters:
    actions: int = 0
    model_decisions: int = 0
    navigation_refusals: int = 0
    routes_cut: int = 0  # routes that reached the step limit with a way still ahead
    attempted: set[tuple[object, ...]] = field(default_factory=set)
    visited: set[str] = field(default_factory=set)


def _key(control: Control) -> tuple[object, ...]:
    return (control.frame_path, control.role, fold(control.label), _plain(control.href))


def _plain(url: str) -> str:
    return urldefrag(url)[0] if url else ""


def _signature(snapshot: Snapshot) -> tuple[object, ...]:
    controls = tuple(sorted((control.role, control.label, control.href) for control in snapshot.controls))
    forms = tuple(sorted(form.key for form in snapshot.forms if form.visible))
    return (_plain(snapshot.url), controls, forms)


def _link_address(page: Page, control: Control) -> str | None:
    """A top-frame link's own address, when going there is the same as clicking it (another document)."""
    if control.role != "link" or control.frame_path or not control.href.startswith(("http://", "https://")):
        return None
    return None if _plain(control.href) == _plain(page.url) else control.href


def observe_settled(page: Page, deadline: float) -> Snapshot | None:
    """Observe a page a wait has just found readable; None when it changed meanwhile (read it properly then)."""
    try:
        return observe(page, deadline=min(deadline, time.monotonic() + READ_SECONDS))
    except ObservationFailed:
        return None


def signed_in_evidence(snapshot: Snapshot) -> bool:
    """The page shows a signed-in state: a sign-out control, and no login form to fill."""
    if asks_for_password(snapshot):
        return False
    sign_out = phrase_pattern(lexicon("signin")["sign_out_phrases"])
    return any(control.enabled and _signs_out(sign_out, fold(control.label)) for control in snapshot.controls)


# "Sign out", "Sign out of My FibreLink", "Log off (Anna)": a sign-out phrase opening a short label.
_SIGN_OUT_MAX_WORDS = 6


def _signs_out(sign_out: re.Pattern[str], label: str) -> bool:
    return sign_out.match(label) is not None and len(label.split()) <= _SIGN_OUT_MAX_WORDS


class EntrySearch:
    """One search for the way in, over one browser session (see the module docstring)."""

    def __init__(
        self,
        session: BrowserSession,
        *,
        deadline: float,
        route_chooser: RouteChooser | None = None,
        counters: SearchCounters | None = None,
        person_chooser: PersonChooser | None = None,
    ) -> None:
        self.session = session
        self.deadline = deadline
        self.route_chooser = route_chooser
        self.person_chooser = person_chooser
        self.person_choices = 0
        self.counters = counters or SearchCounters()
        self.entry_url = ""
        self._humanity: dict[int, tuple[Snapshot, bool]] = {}
        self._refused_last = False
        self.consent_memory = ConsentMemory(session.owner_id)
        self._paused: _Pause | None = None

    # --- reading -------------------------------------------------------------

    def read(self, page: Page, *, settled: bool = False) -> Snapshot | None:
        """The page now; ``settled`` when a click's own wait just found it readable (no second wait)."""
        if settled:
            snapshot = observe_settled(page, self.deadline)
            if snapshot is not None:
                return snapshot
        read = read_page(page, deadline=min(self.deadline, time.monotonic() + READ_SECONDS))
        return read.snapshot

    def needs_person(self, page: Page, snapshot: Snapshot) -> bool:
        """:meth:`_humanity_check`, once per snapshot."""
        key = id(snapshot)
        if key not in self._humanity:
            self._humanity[key] = (snapshot, self._humanity_check(page, snapshot))
        return self._humanity[key][1]

    def _verdict(self, page: Page, snapshot: Snapshot) -> SearchResult | None:
        if self.needs_person(page, snapshot):
            return SearchResult("needs_person", "humanity_check", page, snapshot)
        found = find_login_form(snapshot)
        if found.reason == "ambiguous":
            return SearchResult("ambiguous", "ambiguous_form", page, snapshot)
        if found.found is not None:
            return SearchResult("form", "found", page, snapshot, found.found)
        if signed_in_evidence(snapshot):
            return SearchResult("signed_in", "already_signed_in", page, snapshot)
        return None

    @staticmethod
    def _humanity_check(page: Page, snapshot: Snapshot) -> bool:
        """A sign-in form (its credential fields may be disabled) that asks for a person, or a challenge widget."""
        forms = [
            form
            for index, form in enumerate(snapshot.forms)
            if form.visible
            and (any(field.type == "password" for field in form.fields) or classify_form(snapshot, index))
        ]
        if not forms:
            return False
        return any(humanity_request(form_prose(page, form)) for form in forms) or challenge_visible(page, snapshot)

    def _await_delayed_form(self, page: Page, snapshot: Snapshot) -> Snapshot:
        """A page with no form and no way in may still be drawing its form: watch it a little."""
        until = min(self.deadline, time.monotonic() + FORM_PATIENCE_SECONDS)
        while time.monotonic() < until:
            if self._verdict(page, snapshot) is not None or self._next_choice(snapshot)[0] != "none":
                return snapshot
            time.sleep(OBSERVE_EVERY_SECONDS)
            again = self.read(page)
            if again is None:
                return snapshot
            snapshot = again
        return snapshot

    # --- choosing --------------------------------------------------------------

    def _open_controls(self, snapshot: Snapshot) -> list[Control]:
        return [
            control
            for control in snapshot.controls
            if not (control.form is not None and control.role != "link")  # the search never submits a form
            and _key(control) not in self.counters.attempted
            and not (control.href and _plain(control.href) in self.counters.visited)
        ]

    def _ask_person(self, snapshot: Snapshot) -> Control | None:
        """Several ways in, equally designated: the person chooses among them (once per search), when no model
        is configured. The time they take is not the search's: its deadline moves by as much."""
        if self.person_chooser is None or self.route_chooser is not None or self.person_choices >= MAX_PERSON_CHOICES:
            return None
        controls = self._open_controls(snapshot)
        choice = choose_entry(controls)
        offered = [controls[index] for index in choice.candidates]
        if len(offered) < 2:
            return None
        self.person_choices += 1
        began = time.monotonic()
        chosen = self.person_chooser(offered)
        self.deadline += time.monotonic() - began
        if chosen is None or not 0 <= chosen < len(offered):
            return None
        return offered[chosen]

    def _next_choice(self, snapshot: Snapshot) -> tuple[str, Control | None]:
        controls = self._open_controls(snapshot)
        choice = choose_entry(controls)
        if choice.kind == "chosen" and choice.control is not None:
            return "chosen", controls[choice.control]
        return choice.kind, None

    # --- acting ----------------------------------------------------------------

    def _follow(self, page: Page, control: Control) -> tuple[Page, Snapshot] | SearchResult | None:
        """Follow ``control`` once; the page to go on with, or a stop, or None when nothing came of it."""
        self.counters.attempted.add(_key(control))
        self.counters.actions += 1
        address = _link_address(page, control)
        if address is not None:
            # A plain link to another document: going to its observed address is what a click does,
            # checked against the authorized websites before any request leaves.
            if not self._navigate(page, address):
                self.counters.navigation_refusals += int(self._refused_last)
                return None
            return self._arrived(page, settled=True)
        refusals_before = self._navigation_refusals()
        outcome = click(page, control, approval=ClickApproval(control), deadline=self.deadline)
        if outcome.kind == "ambiguous":
            return SearchResult("ambiguous", "ambiguous_control", page)
        refused = self._navigation_refusals() > refusals_before
        if refused:
            self.counters.navigation_refusals += 1
        working = self._authorized_tab(outcome.new_pages) or page
        if page.is_closed() or working.url.startswith("chrome-error:") or (refused and working is page):
            return None
        # A new tab has just loaded (see _authorized_tab): like a page reached by its address, it is
        # observed at once, and waited for only when that read fails or shows no way on.
        settled = working is not page or (outcome.readiness is not None and outcome.readiness.ready)
        # A menu the click opened ("Accedi ▾", "☰ Menu") is where the way in is now: it is not closed.
        opened = working is page and (control.expanded is False or outcome.effect == "updated_in_place")
        return self._arrived(working, settled=settled, opened=opened)

    def _arrived(
        self, page: Page, *, settled: bool, opened: bool = False
    ) -> tuple[Page, Snapshot] | SearchResult | None:
        snapshot = self.read(page, settled=settled)
        if snapshot is None:
            return None
        self.counters.visited.add(_plain(snapshot.url))
        cleared = self._clear_the_way(page, snapshot, keep_open=opened)
        if isinstance(cleared, SearchResult):
            return cleared
        return page, self._await_delayed_form(page, cleared)

    def _clear_the_way(self, page: Page, snapshot: Snapshot, *, keep_open: bool = False) -> Snapshot | SearchResult:
        """Reject consent notices, and close a covering panel through a safe exit, before using the page
        (``keep_open``: not a panel the search itself just opened, such as a menu).

        Their clicks count as actions; a notice that cannot be rejected stops the search (pending consent).
        """
        if consent_pending(snapshot):
            cookies = reject_cookies(page, memory=self.consent_memory, deadline=self.deadline)
            self.counters.actions += cookies.clicks
            if not cookies.clear:
                return SearchResult("consent_pending", f"consent_{cookies.kind}", page, snapshot)
            snapshot = self.read(page) or snapshot
        if covering_panels(snapshot) and not keep_open:
            overlay = close_overlay(page, deadline=self.deadline)
            self.counters.actions += overlay.clicks
            if overlay.kind == "closed":
                snapshot = self.read(page) or snapshot
        return snapshot

    def _navigation_refusals(self) -> int:
        return sum(number for name, number in self.session.refusals().items() if not name.startswith("subresource."))

    def _authorized_tab(self, pages: Sequence[Page]) -> Page | None:
        chosen = None
        for tab in pages:
            with suppress(PlaywrightError):
                tab.wait_for_load_state("load", timeout=max(1.0, (self.deadline - time.monotonic()) * 1000))
            if self.session.websites.allows(tab.url):
                chosen = tab
            else:
                self.counters.navigation_refusals += 1
                tab.close()
        return chosen

    def _return_to(self, node: _Node, current: Page) -> Snapshot | None:
        """Back to a verified branch: its tab, or its address again. The page as it is now."""
        moved = False
        if current is not node.page and not current.is_closed():
            current.close()  # a tab the route opened
            moved = True
        if _plain(node.page.url) != node.url:
            moved = True
            if not self._navigate(node.page, node.url):
                self.counters.actions += 1
                return None
        self.counters.actions += int(moved)
        return self.read(node.page, settled=True)

    def _navigate(self, page: Page, url: str) -> bool:
        self._refused_last = False
        try:
            if page is self.session.page:
                self.session.goto(url)
            elif self.session.websites.allows(url):
                page.goto(url, timeout=max(1.0, (self.deadline - time.monotonic()) * 1000))
            else:
                self._refused_last = True
                return False
        except NavigationRefused:
            self._refused_last = True
            return False
        except (NavigationFailed, PlaywrightError):
            return False
        return True

    # --- the search ------------------------------------------------------------

    def run(self, url: str) -> SearchResult:
        """Search from ``url``; after a pause for consent on the same entry, go on where it paused."""
        paused, self._paused = self._paused, None
        if paused is not None and paused.entry_url == _plain(url) and not paused.page.is_closed():
            return self._resume(paused)
        self.entry_url = _plain(url)
        page = self.session.page
        try:
            self.session.goto(url)
        except NavigationRefused as refused:
            self.counters.navigation_refusals += 1
            return SearchResult("refused", refused.reason)
        except NavigationFailed:
            return SearchResult("failed", "entry_unreachable")
        arrived = self._arrived(page, settled=True)
        if arrived is None:
            return SearchResult("failed", "entry_unreadable")
        if isinstance(arrived, SearchResult):
            return self._pausing(arrived, [])
        return self._explore(*arrived)

    def _pausing(self, result: SearchResult, stack: list[_Node]) -> SearchResult:
        """Remember where a pause for consent happened, so the next run goes on from there."""
        if result.kind == "consent_pending" and result.page is not None:
            self._paused = _Pause(self.entry_url, list(stack), result.page)
        return result

    def _resume(self, paused: _Pause) -> SearchResult:
        """The page the search paused on, read afresh (the notice may have been answered); nothing is reset."""
        arrived = self._arrived(paused.page, settled=False)
        if arrived is None:
            return SearchResult("failed", "entry_unreadable")
        if isinstance(arrived, SearchResult):
            return self._pausing(arrived, paused.stack)
        page, snapshot = arrived
        depth = paused.stack[-1].depth + 1 if paused.stack else 0
        return self._explore(
            page, snapshot, [*paused.stack, _Node(page, _plain(snapshot.url), _signature(snapshot), depth)]
        )

    def _explore(self, page: Page, snapshot: Snapshot, stack: list[_Node] | None = None) -> SearchResult:
        stack = stack or [_Node(page, _plain(snapshot.url), _signature(snapshot), 0)]
        while True:
            verdict = self._verdict(page, snapshot)
            if verdict is not None:
                return verdict
            if time.monotonic() >= self.deadline:
                return SearchResult("exhausted", "time_budget")
            if self.counters.actions >= SIGN_IN_MAX_ACTIONS:
                return SearchResult("exhausted", "action_limit")
            node = stack[-1]
            kind, control = self._next_choice(snapshot)
            if kind == "ambiguous":
                control = self._ask_person(snapshot)
                if control is None:
                    return SearchResult("ambiguous", "ambiguous_control", page, snapshot)
            if control is not None and node.depth >= SIGN_IN_MAX_STEPS_PER_ROUTE:
                self.counters.routes_cut += 1
                control = None
            if control is not None:
                followed = self._follow(page, control)
                if isinstance(followed, SearchResult):
                    return self._pausing(followed, stack)
                if followed is not None:
                    page, snapshot = followed
                    stack.append(_Node(page, _plain(snapshot.url), _signature(snapshot), node.depth + 1))
                    continue
                # Nothing came of the click: look at the branch again before the next alternative.
            elif len(stack) > 1:
                stack.pop()  # a dead end: back to the verified branch
            else:
                return self._without_signals(page, snapshot, stack)
            returned = self._return(stack, page)
            if isinstance(returned, SearchResult):
                return returned
            page, snapshot, stack = returned

    def _return(self, stack: list[_Node], current: Page) -> tuple[Page, Snapshot, list[_Node]] | SearchResult:
        if self.counters.actions >= SIGN_IN_MAX_ACTIONS:
            return SearchResult("exhausted", "action_limit")
        node = stack[-1]
        snapshot = self._return_to(node, current)
        if snapshot is not None and _signature(snapshot) == node.signature:
            return node.page, snapshot, stack
        # The branch changed while we were away: discard it, start again from the original
        # entry with a fresh observation, keeping what was attempted and the counters.
        self.counters.visited.add(node.url)
        if node.depth == 0 and snapshot is not None:
            return node.page, snapshot, [_Node(node.page, _plain(snapshot.url), _signature(snapshot), 0)]
        entry = stack[0]
        self.counters.actions += 1
        if current is not entry.page and not current.is_closed() and current is not node.page:
            current.close()
        if not self._navigate(entry.page, self.entry_url):
            return SearchResult("failed", "entry_unreachable")
        fresh = self.read(entry.page, settled=True)
        if fresh is None:
            return SearchResult("failed", "entry_unreadable")
        return entry.page, fresh, [_Node(entry.page, _plain(fresh.url), _signature(fresh), 0)]

    def _without_signals(self, page: Page, snapshot: Snapshot, stack: list[_Node]) -> SearchResult:
        """The signals are exhausted on the entry page: the route-choice model, if there is one."""
        if self.counters.navigation_refusals:
            return SearchResult("refused", "navigation_refused", page, snapshot)
        if self.route_chooser is None:
            reason = "route_step_limit" if self.counters.routes_cut else "no_signal_no_model"
            return SearchResult("not_found", reason, page, snapshot)
        if self.counters.model_decisions >= MAX_MODEL_DECISIONS:
            return SearchResult("not_found", "model_decisions_spent", page, snapshot)
        offered = [control for control in self._open_controls(snapshot) if control.enabled and not control.ambiguous]
        if not offered:
            return SearchResult("not_found", "signals_exhausted", page, snapshot)
        self.counters.model_decisions += 1
        chosen = self.route_chooser(offered, self.deadline)
        if chosen is None or not 0 <= chosen < len(offered):
            return SearchResult("not_found", "model_declined", page, snapshot)
        followed = self._follow(page, offered[chosen])
        if isinstance(followed, SearchResult):
            return self._pausing(followed, stack)
        if followed is None:
            return SearchResult("not_found", "model_choice_led_nowhere", page, snapshot)
        page, snapshot = followed
        # Go on from the model's choice with the signals, as a route of its own.
        verdict = self._verdict(page, snapshot)
        return verdict or self._explore(page, snapshot)
