"""Signing in to a website: the procedure the ``sign_in`` executor runs in a browser session.

1. Find the way in (:mod:`apps.sites.signin.search`), before any credential is used.
2. Before typing: a humanity request in the form or a visible challenge widget
   stops with ``needs_person`` (even when the credential fields are disabled);
   the form's frame and its submission target must be on an authorized website.
3. The browser types the values the credential provider resolved from the vault
   for that exact origin, reads them back and compares them; an ambiguous form
   or an unexpected value prevents the submission. Two-step forms get the
   identifier first, then the password.
4. After each submission the outcome is observed (:mod:`apps.sites.signin.verify`).
   A one-time code goes into the single code field or the split boxes, when
   there is exactly one place for it; the code comes from the provider (the
   user, or the vault when code automation was authorised) and is a secret like
   the password.

Nothing here logs, returns or raises with a value, an address or page text;
the report holds closed codes and counters, plus the verified destination
(``anchor``), kept in memory.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from playwright.sync_api import ElementHandle, Page
from playwright.sync_api import Error as PlaywrightError

from apps.sites.acting.click import ClickApproval, click
from apps.sites.acting.cookies import consent_clear_before_submission, consent_pending
from apps.sites.browser.sessions import BrowserSession
from apps.sites.browser.websites import InvalidOrigin, origin_of
from apps.sites.limits import SIGN_IN_MAX_ACTIONS
from apps.sites.observation.lexicon import fold, lexicon, phrase_pattern
from apps.sites.observation.snapshot import Control, ControlIdentity, Snapshot
from apps.sites.observation.waits import LOADED_ONLY, read_page
from apps.sites.observation.waits_watch import watch_page
from apps.sites.signin.entry import ENTRY_ROLES, choose_entry
from apps.sites.signin.forms import CodeTarget, LoginForm, find_login_form
from apps.sites.signin.page import locate_fields, press_enter, type_and_check
from apps.sites.signin.search import (
    EntrySearch,
    PersonChooser,
    RouteChooser,
    SearchCounters,
    SearchResult,
    signed_in_evidence,
)
from apps.sites.signin.types import MAX_FORMS, MAX_ONWARD_STEPS, InternalClass, Phase, SignInOutcome, SignInReport
from apps.sites.signin.verify import Verdict, await_outcome
from apps.sites.signin.verify import needs_person as verify_needs_person


class CredentialRefused(Exception):
    """The provider would not hand out a credential for that origin (no value in the message)."""


@dataclass(frozen=True)
class Login:
    """What the browser types: never logged, never returned."""

    username: str
    secret: str

    def __repr__(self) -> str:
        return "<Login>"


@dataclass(frozen=True)
class PersonWanted:
    """Where the procedure stopped for a person: the page, what it showed then, and whether
    credentials had already been submitted (that attempt is then checked, never submitted again)."""

    page: Page
    snapshot: Snapshot
    submitted: bool


# After a person acted: the sign-in's own end, or why the check is not cleared yet.
Recheck = SignInReport | Literal["still_open", "unobservable"]
RECHECK_READ_SECONDS = 10.0


class _UnexpectedValue(Exception):
    """A value does not fit the fields it is meant for; nothing is submitted."""


# origin -> the values for it (raises CredentialRefused); then the one-time code, or None.
CredentialProvider = Callable[[str], Login]
CodeProvider = Callable[[str], "str | None"]

_SEARCH_OUTCOMES: dict[str, tuple[SignInOutcome, InternalClass]] = {
    "needs_person": ("needs_person", "inconclusive"),
    "consent_pending": ("consent_pending", "inconclusive"),
    "ambiguous": ("ambiguous", "inconclusive"),
    "not_found": ("not_found", "inconclusive"),
    "exhausted": ("not_found", "exhausted"),
    "refused": ("refused", "inconclusive"),
    "failed": ("failed", "inconclusive"),
}
_VERDICT_OUTCOMES: dict[str, tuple[SignInOutcome, InternalClass]] = {
    "signed_in": ("signed_in", "completed"),
    "unverified": ("unverified", "inconclusive"),
    "rejected": ("rejected", "inconclusive"),
    "needs_person": ("needs_person", "inconclusive"),
    "ambiguous": ("ambiguous", "inconclusive"),
}


MAX_SEEN = 8


def _seen(snapshot: Snapshot, *, ambiguous: bool) -> tuple[str, ...]:
    """The names a person would see: the tied candidates when ambiguous, else the first visible links and buttons."""
    controls = [control for control in snapshot.controls if control.role in ENTRY_ROLES and control.enabled]
    if ambiguous:
        choice = choose_entry(controls)
        controls = [controls[index] for index in choice.candidates] or controls
    names: list[str] = []
    for control in controls:
        name = " ".join(control.label.split())[:80]
        if name and name not in names and (ambiguous or control.in_viewport):
            names.append(name)
    return tuple(names[:MAX_SEEN])


class SignInProcedure:
    """One sign-in over one session; :meth:`run` returns a :class:`SignInReport`, never raises for page trouble."""

    def __init__(
        self,
        session: BrowserSession,
        *,
        credentials: CredentialProvider,
        codes: CodeProvider,
        deadline: float,
        route_chooser: RouteChooser | None = None,
        person_chooser: PersonChooser | None = None,
    ) -> None:
        self.session = session
        self.credentials = credentials
        self.codes = codes
        self.deadline = deadline
        self.counters = SearchCounters()
        asked = self._asking(person_chooser) if person_chooser is not None else None
        self.search = EntrySearch(session, deadline=deadline, route_chooser=route_chooser, counters=self.counters,
                                  person_chooser=asked)  # fmt: skip
        self.phase: Phase = "open"
        self.credentials_used = False
        self._login: tuple[str, Login] | None = None
        self._typed: tuple[ElementHandle, ...] = ()
        self.person: PersonWanted | None = None
        self.submitted = False

    def report(self, outcome: SignInOutcome, reason: str, internal: InternalClass, anchor: str = "") -> SignInReport:
        landing = ""
        if anchor:
            try:
                landing = str(origin_of(anchor))
            except InvalidOrigin:
                anchor = ""
        refusals = tuple(sorted(self.session.refusals().items()))
        return SignInReport(
            outcome, reason, internal, self.phase, self.counters.actions, self.counters.model_decisions,
            self.credentials_used, landing, anchor, refusals,
        )  # fmt: skip

    def run(self, url: str) -> SignInReport:
        self.phase = "search"
        found = self.search.run(url)
        if found.kind == "signed_in" and found.snapshot is not None:
            return self.report("signed_in", "already_signed_in", "completed", found.snapshot.url)
        if found.kind != "form" or found.page is None or found.snapshot is None or found.form is None:
            if found.kind == "needs_person" and found.page is not None and found.snapshot is not None:
                self.person = PersonWanted(found.page, found.snapshot, submitted=False)
            outcome, internal = _SEARCH_OUTCOMES.get(found.kind, ("failed", "inconclusive"))
            report = self.report(outcome, found.reason, internal)
            if outcome in ("ambiguous", "not_found") and found.snapshot is not None:
                report = dataclasses.replace(report, seen=_seen(found.snapshot, ambiguous=outcome == "ambiguous"))
            return report
        return self._forms(found)

    # --- forms -------------------------------------------------------------

    def _forms(self, found: SearchResult) -> SignInReport:
        page, snapshot, form = found.page, found.snapshot, found.form
        if page is None or snapshot is None or form is None:
            return self.report("failed", "form_lost", "inconclusive")
        return self._fill(page, snapshot, form)

    def _fill(self, page: Page, snapshot: Snapshot, step: LoginForm | CodeTarget) -> SignInReport:
        """Fill and submit ``step``, then the forms that follow it (a password step, a one-time code)."""
        for _ in range(MAX_FORMS):
            if time.monotonic() >= self.deadline:
                return self.report("unverified" if self.credentials_used else "not_found", "time_budget", "exhausted")
            stop = self._before_typing(page, snapshot, step.form)
            if stop is not None:
                return stop
            typed = self._type(page, snapshot, step)
            if isinstance(typed, SignInReport):
                return typed
            verdict = self._submit(page, snapshot, step, typed)
            if isinstance(verdict, SignInReport):
                return verdict
            verdict = self._onward(page, verdict)
            following = self._following(verdict)
            if following is None:
                return self._verdict_report(page, verdict)
            snapshot, step = following
        return self.report("unverified", "too_many_forms", "exhausted")

    def _onward(self, page: Page, verdict: Verdict) -> Verdict:
        """Take the way on toward the account a page offers after the submission (see
        :func:`~apps.sites.signin.verify.toward_the_account`), at most ``MAX_ONWARD_STEPS`` times."""
        taken: set[ControlIdentity] = set()
        while verdict.kind == "next_step" and verdict.control is not None and verdict.snapshot is not None:
            if len(taken) >= MAX_ONWARD_STEPS or self.counters.actions >= SIGN_IN_MAX_ACTIONS:
                return Verdict("unverified", "no_evidence", verdict.snapshot)
            control, before = verdict.control, verdict.snapshot
            taken.add(control.identity)
            watch = watch_page(page)
            mark = watch.mark(page.main_frame)
            self.counters.actions += 1
            outcome = click(
                page, control, approval=ClickApproval(control), deadline=self.deadline, quiet=LOADED_ONLY,
                expect_in_place=not control.href,
            )  # fmt: skip
            if not outcome.invoked:
                return Verdict("unverified", "no_evidence", before)
            settled = outcome.readiness is not None and outcome.readiness.ready
            try:
                verdict = await_outcome(
                    page, watch=watch, mark=mark, before=before, submitted=None, deadline=self.deadline,
                    settled=settled, submitted_at=time.monotonic() - outcome.settle_seconds, loaded_only=settled,
                    taken=frozenset(taken),
                )  # fmt: skip
            except PlaywrightError:
                return Verdict("unverified", "evidence_unobservable")
        return verdict

    def _following(self, verdict: Verdict) -> tuple[Snapshot, LoginForm | CodeTarget] | None:
        """The next form to fill after ``verdict`` (a password step, a code), if it asks for one."""
        if verdict.kind == "next_form" and verdict.form is not None and verdict.snapshot is not None:
            return verdict.snapshot, verdict.form
        if verdict.kind == "code" and verdict.code is not None and verdict.snapshot is not None:
            self.phase = "code"
            return verdict.snapshot, verdict.code
        return None

    def _verdict_report(self, page: Page, verdict: Verdict) -> SignInReport:
        outcome, internal = _VERDICT_OUTCOMES.get(verdict.kind, ("unverified", "inconclusive"))
        if verdict.reason == "time_budget":
            internal = "exhausted"
        if verdict.kind == "needs_person" and verdict.snapshot is not None:
            self.person = PersonWanted(page, verdict.snapshot, submitted=self.submitted)
        return self.report(outcome, verdict.reason, internal, verdict.anchor)

    # --- after a person acted ------------------------------------------------

    def _asking(self, person_chooser: PersonChooser) -> PersonChooser:
        def asked(offered: Sequence[Control]) -> int | None:
            began = time.monotonic()
            try:
                return person_chooser(offered)
            finally:
                self.deadline += time.monotonic() - began  # the person's time is not the procedure's

        return asked

    def extend(self, seconds: float) -> None:
        """Time spent waiting for a person consumes none of the procedure's own time."""
        self.deadline += seconds
        self.search.deadline += seconds

    def challenge_open(self, page: Page, snapshot: Snapshot) -> bool:
        """The humanity check the procedure stopped for, by the same detection (form prose or widget)."""
        login = find_login_form(snapshot)
        form_index = login.found.form if login.found is not None else None
        return self.search.needs_person(page, snapshot) or verify_needs_person(page, snapshot, form_index)

    def recheck(self) -> Recheck:
        """A fresh observation decides whether the sign-in may go on; a click establishes nothing.

        ``unobservable`` (no observation) and ``still_open`` (the check is still
        there) leave the stop in place. Once the check is gone, the procedure
        goes on from the page: before any submission it fills and submits the
        form (once); after one, it checks that attempt's outcome and never
        submits the credentials again.
        """
        held = self.person
        if held is None:
            return self.report("failed", "nothing_to_resume", "inconclusive")
        page = held.page
        if page.is_closed():
            return self.report("failed", "page_closed", "inconclusive")
        try:
            read = read_page(page, deadline=min(self.deadline, time.monotonic() + RECHECK_READ_SECONDS))
            snapshot = read.snapshot
            if snapshot is None:
                return "unobservable"
            if self.challenge_open(page, snapshot):
                return "still_open"
        except PlaywrightError:
            return "unobservable"
        self.person = None
        if held.submitted:
            return self._check_attempt(page, held.snapshot)
        login = find_login_form(snapshot)
        if login.found is not None:
            return self._fill(page, snapshot, login.found)
        if signed_in_evidence(snapshot):
            return self.report("signed_in", "already_signed_in", "completed", snapshot.url)
        return self.report("not_found", "form_gone_after_check", "inconclusive")

    def _check_attempt(self, page: Page, before: Snapshot) -> Recheck:
        """The outcome of the submission made before the check appeared, observed without submitting."""
        self.phase = "verify"
        watch = watch_page(page)
        try:
            verdict = await_outcome(
                page, watch=watch, mark=watch.mark(page.main_frame), before=before, submitted=None,
                deadline=self.deadline, settled=True,
            )  # fmt: skip
        except PlaywrightError:
            return self.report("unverified", "evidence_unobservable", "inconclusive")
        if verdict.kind == "needs_person":
            self.person = PersonWanted(page, verdict.snapshot or before, submitted=True)
            return "still_open"
        following = self._following(verdict)
        if following is None:
            return self._verdict_report(page, verdict)
        return self._fill(page, *following)

    def _before_typing(self, page: Page, snapshot: Snapshot, form_index: int) -> SignInReport | None:
        form = snapshot.forms[form_index]
        if self.search.needs_person(page, snapshot):
            self.person = PersonWanted(page, snapshot, submitted=self.submitted)
            return self.report("needs_person", "humanity_check", "inconclusive")
        frame_url = next((info.url for info in snapshot.frames if info.path == form.frame_path), "")
        if not self.session.websites.allows(frame_url):
            return self.report("refused", "form_not_authorized", "inconclusive")
        if form.action.startswith(("http:", "https:")) and not self.session.websites.allows(form.action):
            return self.report("refused", "submission_not_authorized", "inconclusive")
        return None

    def _login_for(self, page: Page, snapshot: Snapshot, form_index: int) -> Login:
        form = snapshot.forms[form_index]
        frame_url = next((info.url for info in snapshot.frames if info.path == form.frame_path), page.url)
        origin = str(origin_of(frame_url))
        if self._login is None or self._login[0] != origin:
            self._login = (origin, self.credentials(origin))
        return self._login[1]

    def _type(self, page: Page, snapshot: Snapshot, step: LoginForm | CodeTarget) -> tuple[int, ...] | SignInReport:
        """Type the values into the step's fields and read them back; the fields typed into."""
        self.phase = "code" if isinstance(step, CodeTarget) else "credentials"
        try:
            if isinstance(step, CodeTarget):
                targets, values = self._code_values(page, step)
            else:
                targets, values = self._login_values(page, snapshot, step)
        except CredentialRefused:
            return self.report("refused", "credential_not_authorised", "inconclusive")
        except _UnexpectedValue:
            return self.report("refused", "unexpected_value", "inconclusive")
        if targets is None:
            return self.report("needs_code", "code_not_given", "inconclusive")
        located = locate_fields(page, snapshot.forms[step.form], targets, deadline=self.deadline)
        if located.reason != "found":
            reason = "ambiguous_form" if located.reason == "ambiguous" else "form_changed"
            return self.report("ambiguous" if located.reason == "ambiguous" else "failed", reason, "inconclusive")
        self.credentials_used = True
        if not type_and_check(page, located.elements, values, deadline=self.deadline):
            return self.report("refused", "unexpected_value", "inconclusive")
        self._typed = located.elements
        return targets

    def _login_values(self, page: Page, snapshot: Snapshot, step: LoginForm) -> tuple[tuple[int, ...], tuple[str, ...]]:
        login = self._login_for(page, snapshot, step.form)
        pairs = [(step.identifier, login.username), (step.password, login.secret)]
        chosen = [(index, value) for index, value in pairs if index is not None]
        return tuple(index for index, _ in chosen), tuple(value for _, value in chosen)

    def _code_values(self, page: Page, step: CodeTarget) -> tuple[tuple[int, ...] | None, tuple[str, ...]]:
        origin = str(origin_of(page.url))
        asked_at = time.monotonic()
        code = self.codes(origin)
        # Waiting for the user consumes none of the procedure's time.
        waited = time.monotonic() - asked_at
        self.deadline += waited
        self.search.deadline += waited
        if not code:
            return None, ()
        code = "".join(code.split())
        if step.split:
            if len(code) != len(step.fields):
                raise _UnexpectedValue
            return step.fields, tuple(code)
        return step.fields, (code,)

    def _submit_control(self, snapshot: Snapshot, form_index: int) -> Control | str | None:
        form = snapshot.forms[form_index]
        controls = [snapshot.controls[index] for index in form.controls if 0 <= index < len(snapshot.controls)]
        # A disclosure (a summary, a menu button) shows something; it does not submit.
        usable = [
            control
            for control in controls
            if control.enabled and control.role in ("button", "clickable") and control.expanded is None
        ]
        if len(usable) == 1:
            return usable[0]
        if not usable:
            return None
        words = lexicon("signin")
        pattern = phrase_pattern((*words["entry_phrases"], *words["continue_phrases"], *words["submit_phrases"]))
        for matches in (pattern.fullmatch, pattern.search):
            named = [control for control in usable if matches(fold(control.label))]
            if named:
                return named[0] if len(named) == 1 else "ambiguous"
        return "ambiguous"

    def _submit(
        self, page: Page, snapshot: Snapshot, step: LoginForm | CodeTarget, typed: tuple[int, ...]
    ) -> Verdict | SignInReport:
        self.phase = "submit"
        if consent_pending(snapshot):
            # Notices that appeared since the search are answered (rejected) before anything is submitted.
            cookies = consent_clear_before_submission(page, memory=self.search.consent_memory, deadline=self.deadline)
            if not cookies.clear:
                return self.report("consent_pending", f"consent_{cookies.kind}", "inconclusive")
        control = self._submit_control(snapshot, step.form)
        if control == "ambiguous":
            return self.report("ambiguous", "ambiguous_submit", "inconclusive")
        watch = watch_page(page)
        mark = watch.mark(page.main_frame)
        settled = False
        submitted_at = time.monotonic()
        if isinstance(control, Control):
            # The outcome's own observations check what they read: the click's wait ends at the load.
            outcome = click(page, control, approval=ClickApproval(control), deadline=self.deadline, quiet=LOADED_ONLY)
            if not outcome.invoked:
                return self.report("failed", f"submit_{outcome.kind}", "inconclusive")
            settled = outcome.readiness is not None and outcome.readiness.ready
            submitted_at = time.monotonic() - outcome.settle_seconds  # the click, not its checks before
        elif not press_enter(self._typed[-1], deadline=self.deadline):
            return self.report("failed", "submit_failed", "inconclusive")
        self.submitted = True
        self.phase = "verify"
        try:
            return await_outcome(
                page,
                watch=watch,
                mark=mark,
                before=snapshot,
                submitted=step if isinstance(step, LoginForm) else None,
                deadline=self.deadline,
                settled=settled,
                submitted_at=submitted_at,
                loaded_only=settled,
            )
        except PlaywrightError:
            return Verdict("unverified", "evidence_unobservable")
