"""After submitting: what the website answered, observed for a bounded interval.

- Sign-in evidence (the login form gone and a sign-out control present) that
  appears within the interval completes its own stability check: at most
  ``STABILITY_OBSERVATIONS`` observations on the same address, the next one
  once the page has loaded and drawn two frames and any data it asked for
  since has answered (its own session check may send it back to the login
  page). Evidence that comes later, is interrupted, or cannot be observed
  stays unverified.
- When the form submitted by script and its own request has not answered,
  the interval is extended once, by one more interval.
- A page already loading the next document (single sign-on redirects) is not
  an outcome yet: the wait is for that document, and it does not use up the
  interval.
- A real error message is a rejection: a rejection phrase the page did not
  show before the submission.
- A humanity request or challenge widget needs a person; a one-time code
  field, or the password step of a two-step form, is the next form to fill.
- A page with no login form and no evidence that offers exactly one way on
  toward the account — an interstitial's "Continue to your account" / "Vai
  alla tua area", or a closed account menu that may hold the sign-out — is
  the next step: it is taken once (a sign-in action) and the outcome is
  observed again.
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass
from typing import Literal

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.entries import continues_to_account
from apps.sites.observation.humanity import humanity_request
from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.page_calls import Started
from apps.sites.observation.reader import remaining_ms
from apps.sites.observation.scripts import script_beside
from apps.sites.observation.snapshot import Control, ControlIdentity, Snapshot
from apps.sites.observation.waits import EVENT_POLL, pause, read_page, wait_until_readable
from apps.sites.observation.waits_watch import PageWatch, WatchMark
from apps.sites.signin.forms import CodeTarget, LoginForm, asks_for_password, find_code_target, find_login_form
from apps.sites.signin.page import challenge_visible, form_prose
from apps.sites.signin.search import observe_settled, signed_in_evidence
from apps.sites.signin.types import (
    OBSERVE_EVERY_SECONDS,
    OUTCOME_INTERVAL_SECONDS,
    STABILITY_OBSERVATIONS,
    STABILITY_PATIENCE_SECONDS,
)

# Verdicts a first look at a page that has only loaded may give: the next form is found again
# and checked (frame, document, fields) before anything is typed into it.
_AT_FIRST_LOOK = frozenset({"next_form", "code"})
VerdictKind = Literal[
    "signed_in", "unverified", "rejected", "needs_person", "code", "next_form", "next_step", "ambiguous"
]
READ_SECONDS = 10.0
# Ends once the document's load event has fired and two frames were drawn since; it only listens.
_LOADED_AND_DRAWN_SCRIPT = script_beside(__file__, "verify.js")


@dataclass(frozen=True)
class Verdict:
    kind: VerdictKind
    reason: str
    snapshot: Snapshot | None = None
    form: LoginForm | None = None
    code: CodeTarget | None = None
    anchor: str = ""
    # ``next_step``: the one control toward the account (an interstitial's "Continue", a closed account menu).
    control: Control | None = None


def rejection_count(snapshot: Snapshot) -> int:
    return len(phrase_pattern(lexicon("signin")["rejection_phrases"]).findall(fold(snapshot.text)))


def needs_person(page: Page, snapshot: Snapshot, form_index: int | None) -> bool:
    """An explicit humanity request in the form's own prose, or a visible challenge widget."""
    if form_index is not None and humanity_request(form_prose(page, snapshot.forms[form_index])):
        return True
    return challenge_visible(page, snapshot)


def _classify(page: Page, snapshot: Snapshot, before: Snapshot, submitted: LoginForm | None) -> Verdict | None:
    prose = [" ".join(block.text for block in form_prose(page, form)) for form in snapshot.forms]
    code = find_code_target(snapshot, form_text=prose)
    if code.reason == "ambiguous":
        return Verdict("ambiguous", "ambiguous_code_field", snapshot)
    login = find_login_form(snapshot)
    form_index = code.target.form if code.target else (login.found.form if login.found else None)
    if needs_person(page, snapshot, form_index):
        return Verdict("needs_person", "humanity_check", snapshot)
    if code.target is not None:
        return Verdict("code", "code_requested", snapshot, code=code.target)
    if rejection_count(snapshot) > rejection_count(before):
        return Verdict("rejected", "rejected_by_site", snapshot)
    if login.reason == "ambiguous":
        return Verdict("ambiguous", "ambiguous_form", snapshot)
    if (
        submitted is not None
        and submitted.kind == "identifier_step"
        and login.found is not None
        and login.found.password is not None
    ):
        return Verdict("next_form", "password_step", snapshot, form=login.found)
    return None


def await_outcome(
    page: Page,
    *,
    watch: PageWatch,
    mark: WatchMark,
    before: Snapshot,
    submitted: LoginForm | None,
    deadline: float,
    settled: bool = False,
    submitted_at: float | None = None,
    loaded_only: bool = False,
    taken: frozenset[ControlIdentity] = frozenset(),
) -> Verdict:
    """Observe the page after a submission until it shows an outcome (see the module docstring).

    The interval counts from ``submitted_at`` (the moment of the submission, when known):
    the time the click spent waiting for its own effect is already part of it. With
    ``loaded_only`` the submission's wait ended once the document loaded, without waiting
    for a quiet page: that first look counts only as sign-in evidence (its stability check
    follows) or as the next form to fill (checked again before typing); anything else is
    read again after the usual wait before it is judged.
    """
    start = time.monotonic() if submitted_at is None else submitted_at
    interval_end = min(deadline, start + OUTCOME_INTERVAL_SECONDS)
    extended = False
    streak, evidence_url = 0, ""
    while True:
        if time.monotonic() >= deadline:
            return Verdict("unverified", "evidence_unstable" if streak else "time_budget")
        if watch.navigation_pending(page.main_frame):
            if streak:
                return Verdict("unverified", "evidence_interrupted")
            started = time.monotonic()
            wait_until_readable(page, deadline)
            interval_end = min(deadline, interval_end + time.monotonic() - started)
            continue
        # The submission's own wait may just have found the page readable: observe it at once.
        # Should that first look show evidence, the stability check's wait for the page's load
        # and two frames follows: it starts with the look (the page runs both).
        drawn = _start_loaded_and_drawn(page, deadline) if settled and streak == 0 else None
        snapshot = observe_settled(page, deadline) if settled else None
        first_look_unquiet = snapshot is not None and loaded_only and streak == 0
        if snapshot is None:
            snapshot = read_page(page, deadline=min(deadline, time.monotonic() + READ_SECONDS)).snapshot
        settled = loaded_only = False
        if first_look_unquiet and snapshot is not None and snapshot.veiled:
            continue  # loading behind a veil: read it once the usual wait is over
        if snapshot is None:
            if streak:
                return Verdict("unverified", "evidence_unobservable")
        elif signed_in_evidence(snapshot) or greets_the_person(snapshot, before):
            if streak == 0:
                if time.monotonic() > interval_end:
                    return Verdict("unverified", "late_evidence", snapshot)
                evidence_url = snapshot.url
            elif snapshot.url != evidence_url:
                return Verdict("unverified", "evidence_interrupted", snapshot)
            streak += 1
            if streak >= STABILITY_OBSERVATIONS:
                return Verdict("signed_in", "evidence_stable", snapshot, anchor=snapshot.url)
            _until_loaded_and_drawn(page, deadline, drawn)
            if watch.pending_data():
                # The page asked for data once loaded (its own session check, say): the answer may
                # still send it elsewhere, so the next look waits for it and for the page to settle.
                wait_until_readable(page, min(deadline, time.monotonic() + STABILITY_PATIENCE_SECONDS))
            settled = True  # nothing is loading: observe again as it is
            continue
        elif streak:
            return Verdict("unverified", "evidence_interrupted", snapshot)
        else:
            verdict = _classify(page, snapshot, before, submitted)
            if first_look_unquiet and (verdict is None or verdict.kind not in _AT_FIRST_LOOK):
                continue  # the page may still be drawing: read it properly before judging
            if verdict is not None:
                return verdict
            step = toward_the_account(snapshot, taken)
            if step is not None:
                return Verdict("next_step", step[0], snapshot, control=step[1])
        if time.monotonic() >= interval_end:
            own_open = any(watch.is_open(request) for request in watch.data_requests_since(mark))
            if own_open and not extended:
                extended = True
                interval_end = min(deadline, interval_end + OUTCOME_INTERVAL_SECONDS)
                continue
            return Verdict("unverified", "no_evidence", snapshot)
        _until_next_look(page, watch, time.monotonic() + OBSERVE_EVERY_SECONDS)


def greets_the_person(snapshot: Snapshot, before: Snapshot) -> bool:
    """No login form, and a greeting to someone by name the page did not show before the submission
    ("Hello Margaret", "Ciao Giulia", "Welcome back, Anna"): a signed-in page without a visible sign-out."""
    if asks_for_password(snapshot):
        return False
    shown_before = set(before.text.splitlines())
    return any(_greeting(line) and line not in shown_before for line in snapshot.text.splitlines())


def _greeting(line: str) -> bool:
    words = lexicon("signin").get("signed_in_greetings", ())
    pattern = _greeting_pattern(words)
    return pattern.fullmatch(line.strip()) is not None


# A name starts with a capital, accented ones included.
_CAPITAL = "[A-ZÀ-ÖØ-Þ]"


@functools.cache
def _greeting_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    # The greeting, then one or two names: "Hello Margaret", "Welcome back, Anna", "Ciao Anna Maria!".
    name = rf"{_CAPITAL}[\w'-]+"
    return re.compile(rf"(?i:{alternatives})(?:\s+(?i:back))?,?\s+{name}(?:\s+{name})?\s*[!.]?")


def toward_the_account(snapshot: Snapshot, taken: frozenset[ControlIdentity]) -> tuple[str, Control] | None:
    """The one way on toward the account a page without evidence offers, and what it is; else None.

    No login form asks for a password, the page is not covered by a panel's controls, and exactly one
    control (not taken before) is an interstitial's way on or else a closed account menu.
    """
    if asks_for_password(snapshot):
        return None
    usable = [
        control for control in snapshot.controls
        if control.enabled and control.panel is None and not control.ambiguous and control.identity not in taken
    ]  # fmt: skip
    continues = [control for control in usable if continues_to_account(fold(control.label))]
    if len({(control.label, control.href) for control in continues}) == 1:
        return "interstitial", continues[0]
    menus = phrase_pattern(lexicon("signin").get("account_menu_phrases", ()))
    closed = [
        control for control in usable
        if control.role == "button" and control.expanded is False and menus.search(fold(control.label))
    ]  # fmt: skip
    if len(closed) == 1:
        return "account_menu", closed[0]
    return None


def _start_loaded_and_drawn(page: Page, deadline: float) -> Started:
    until = min(deadline, time.monotonic() + STABILITY_PATIENCE_SECONDS)
    return Started(page.main_frame, _LOADED_AND_DRAWN_SCRIPT, None, timeout_ms=remaining_ms(until))


def _until_loaded_and_drawn(page: Page, deadline: float, started: Started | None = None) -> None:
    """Before the stability check's next look: the page loaded and drew two frames since the last
    one began (``started`` with it, else from now).

    Bounded by ``STABILITY_PATIENCE_SECONDS``; a document that went away meanwhile ends the wait
    (the next look sees where the page went).
    """
    try:
        (started or _start_loaded_and_drawn(page, deadline)).answer()
    except PlaywrightError:
        return


def _until_next_look(page: Page, watch: PageWatch, until: float) -> None:
    """Wait before observing again; a document starting to load ends the wait (it is awaited next)."""
    main = page.main_frame
    while time.monotonic() < until and not watch.navigation_pending(main):
        if not pause(page, until, EVENT_POLL):
            return
