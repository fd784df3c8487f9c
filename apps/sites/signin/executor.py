"""The ``sign_in`` executor: sign in to a website with a credential from the vault.

The step names the website (``url``) and optionally the credential (its label
or id); both must be literal in the plan (``sensitive="authorisation"``),
because they decide which secret is used where. The boundary refuses the step
without a mandate (``credentials.use``). The session may visit only the
origins the mandate grants. The values are resolved from the vault for the
exact origin of the form, typed by the browser and never given to a model,
logged, returned or recorded; a one-time code is asked from the user unless
the owner authorised code automation for that credential, and is treated as a
secret too.

The browser runs in a browser job (:mod:`apps.sites.browser.steps`): the
step's worker submits it and waits; the browser worker rebuilds the turn's
mandate from the job's grants (credential ids and origins, never a value),
resolves the values there, registers them with its own redaction and model
withholding, and asks the user for a code through the turn's own question.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from django.utils import timezone

from apps.runtime.executor import ExecutionContext, InputSpec, Mandate, NoMandate, StepError, StepResult
from apps.runtime.manifests import ArgSpec, Manifest, RequestForm, RequestFrame, ResultShape
from apps.sites.browser.landing import signed_in_page_keep
from apps.sites.browser.sessions import BrowserSessionError, NavigationRefused, SessionEnded, outside_browser_loop
from apps.sites.browser.slots import SessionRefused
from apps.sites.browser.steps import INTERRUPTED, BrowserStep, browser_step_run, register_browser_step
from apps.sites.browser.websites import AuthorizedWebsites, InvalidOrigin, origin_of
from apps.sites.handoff.panels import handoff_result_take
from apps.sites.observation.snapshot import Control
from apps.sites.signin.audit import sign_in_audit_record
from apps.sites.signin.captcha import cloudflare_prepare
from apps.sites.signin.handoff import (
    Handoff,
    continued_in,
    continued_result,
    handoff_abandon,
    handoff_abandon_for_step,
    handoff_settle,
    person_help,
)
from apps.sites.signin.procedure import CredentialRefused, Login, SignInProcedure
from apps.sites.signin.route_model import route_chooser_from_tiers
from apps.sites.signin.types import SIGN_IN_TIME_BUDGET_SECONDS, SignInReport

T = TypeVar("T")

SIGN_IN_JOB = "sign_in"
_SIGN_IN_PLAN = ({"tool": "sign_in", "args": {"url": "{url}"}},)
CODE_WAIT_SECONDS = InputSpec(kind="otp", prompt="").timeout_seconds
CODE_PROMPT = "The website asks for a one-time code to finish signing in. Enter the code you received."
CHOICE_PROMPT = (
    "This website shows several ways to sign in and nothing on the page says which one is for your account. "
    "Which one should I use?"
)
CHOICE_WAIT_SECONDS = 300.0


def _choice_label(control: Control) -> str:
    """A control as the person saw it: its visible name, and the part of the page it is in."""
    label = " ".join(control.label.split())[:120] or "(no name)"
    section = " ".join(control.section.split())[:80]
    return f"{label} — {section}" if section and section.casefold() != label.casefold() else label


SIGN_IN_MANIFEST = Manifest(
    name="sign_in",
    purpose="Sign in to a website with a credential from your vault; the browser types the values, "
    "which are never shown, logged or given to a model.",
    args={
        "url": ArgSpec(type="string", required=True, sensitive="authorisation", max_length=2000),
        "credential": ArgSpec(type="string", sensitive="authorisation", max_length=200),
    },
    result=ResultShape(kind="value", fields=("outcome", "reason", "landing_origin")),
    capabilities=frozenset({"web.browse", "credentials.use"}),
    intelligence="agentic",
    request_forms=(
        RequestForm(language="en", template="(sign|log) in to {url}", slots={"url": "url"}, plan=_SIGN_IN_PLAN),
        RequestForm(language="it", template="accedi (a|al sito) {url}", slots={"url": "url"}, plan=_SIGN_IN_PLAN),
    ),
    request_frames=(
        RequestFrame(
            actions=frozenset({"sign_in"}),
            subject=None,
            needs=("url",),
            optional=("credential",),
            before=("collect_site_records", "collect_site_documents"),
            plan=({"tool": "sign_in", "args": {"url": "{url}", "credential": "{credential}"}},),
        ),
    ),
)

# outcome -> (error class, code, sentence); signed_in is the only success.
_FAILURES: Mapping[str, tuple[str, str, str]] = {
    "unverified": ("unknown", "sign_in_unverified", "The credentials were submitted, but signing in could not be "
                   "verified; Metnos will not submit them again by itself."),
    "rejected": ("permanent", "credentials_rejected", "The website refused the credentials."),
    "needs_person": ("recoverable", "needs_person", "The website asks a person to prove they are human; "
                     "nothing was clicked for you."),
    "needs_code": ("recoverable", "code_not_given", "The website asked for a one-time code and none was given."),
    "consent_pending": ("recoverable", "consent_pending", "A consent notice on the website needs your answer; "
                        "nothing was accepted for you."),
    "not_found": ("permanent", "no_way_in", "No way to sign in was found on the website."),
    "ambiguous": ("permanent", "ambiguous", "The page was ambiguous, so nothing was chosen or submitted."),
    "refused": ("permanent", "not_authorized", "A website or value check refused to go on."),
    "failed": ("recoverable", "browser_failed", "The browser could not complete the sign-in."),
}  # fmt: skip

_REASON_SENTENCES: Mapping[str, str] = {
    "no_signal_no_model": "The page gives no sign of a way in, and no route-choice model is configured to choose one.",
    "action_limit": "The search used all of its actions.",
    "ambiguous_control": "Several controls could be the way in.",
    "navigation_refused": "The way in leads to a website this turn is not authorised to use.",
    "handoff_cancelled": "You cancelled the verification panel, and its web session was closed.",
    "handoff_expired": "The verification panel expired unanswered, and its web session was closed.",
    "turn_cancelled": "The request was cancelled while the verification panel was open.",
}


def off_browser_loop(function: Callable[[], T]) -> T:
    """Database work from inside a browser session, in a helper thread that keeps this context's variables."""
    context = contextvars.copy_context()
    return outside_browser_loop(lambda: context.run(function))


def _granted_credential(mandate: Mandate, origin: str) -> int | str | None:
    grants = [grant for grant in getattr(mandate, "grants", ()) if origin in grant.origins]
    return grants[0].credential_id if len(grants) == 1 else None


def _grants(mandate: Mandate) -> list[list[Any]]:
    """The mandate's grants as the job stores them: credential ids and origins, never a value."""
    return [[grant.credential_id, sorted(grant.origins)] for grant in getattr(mandate, "grants", ())]


def _mandate(step: BrowserStep) -> Mandate:
    """The turn's mandate in the browser worker: the step's grants, resolving only while the turn runs."""
    from apps.vault.mandates import CredentialGrant, VaultMandate

    if step.turn_id is None:
        return NoMandate()
    grants = [CredentialGrant(int(credential), frozenset(origins)) for credential, origins in step.params["grants"]]
    return VaultMandate(owner=step.owner, turn_id=step.turn_id, grants=grants)


class _VaultAccess:
    """The providers the procedure calls: values from the vault, codes from the user or the vault."""

    def __init__(self, step: BrowserStep, mandate: Mandate, reference: int | str | None) -> None:
        self.step = step
        self.mandate = mandate
        self.reference = reference
        self.resolved: Any = None

    def login(self, origin: str) -> Login:
        from apps.vault.errors import VaultError
        from apps.vault.mandates import mandate_resolve

        reference = self.reference if self.reference is not None else _granted_credential(self.mandate, origin)
        if reference is None:
            raise CredentialRefused
        try:
            self.resolved = off_browser_loop(lambda: mandate_resolve(self.mandate, credential=reference, origin=origin))
        except VaultError:
            raise CredentialRefused from None
        # Resolved in the helper thread: registered again with this job's redaction and model withholding.
        self.step.withhold(*self.mandate.secrets())
        return Login(self.resolved.username, self.resolved.secret)

    def choose(self, offered: Sequence[Control]) -> int | None:
        """Several ways in, equally designated: ask the person which one is their account's, by its names."""
        choices = tuple(_choice_label(control) for control in offered)
        question = InputSpec(kind="choice", prompt=CHOICE_PROMPT, choices=choices, sensitive=False,
                             timeout_seconds=CHOICE_WAIT_SECONDS)  # fmt: skip
        answer = off_browser_loop(lambda: self.step.request_input(question))
        if answer.status != "answered" or not (answer.value or "").isdigit():
            return None
        chosen = int(answer.value or "0") - 1
        return chosen if 0 <= chosen < len(offered) else None

    def code(self, origin: str) -> str | None:
        if self.resolved is not None and self.resolved.has_totp:
            code = str(self.resolved.one_time_code())
            self.step.withhold(code)
            return code
        question = InputSpec(kind="otp", prompt=CODE_PROMPT, timeout_seconds=CODE_WAIT_SECONDS)
        answer = off_browser_loop(lambda: self.step.request_input(question))
        if answer.status != "answered" or not answer.value:
            return None
        self.step.withhold(answer.value)
        return answer.value


def _early(outcome: Any, reason: str) -> SignInReport:
    return SignInReport(outcome, reason, "inconclusive", "open", 0)


class SignIn:
    """Signs in to a website (see the module docstring); the outcome is typed and audited.

    ``run`` (in the turn's worker) checks the address against the mandate and
    hands the sign-in to a browser job (:func:`sign_in_job`), whose stored
    parameters are the address, the credential's reference and the mandate's
    grants (ids and origins); it waits for the job's outcome.
    """

    manifest = SIGN_IN_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        # A turn resumed from a verification panel continues from the sign-in verified there, once.
        verified = handoff_result_take(owner=context.owner, turn_id=context.turn_id, step_index=context.step_index)
        if verified is not None:
            return continued_result(verified)
        url = str(args.get("url", "")).strip()
        websites = AuthorizedWebsites.from_mandate(context.mandate)
        refused = _refusal(url, websites)
        if refused is not None:
            sign_in_audit_record(
                owner=context.owner, turn_id=context.turn_id, step_index=context.step_index, report=refused
            )
            return step_result(refused)
        credential = args.get("credential")
        params = {"url": url, "credential": str(credential) if credential else None, "grants": _grants(context.mandate)}
        result = browser_step_run(
            context, kind=SIGN_IN_JOB, params=params, websites=websites, deadline=context.deadline
        )
        if result.error is not None and result.error.code == INTERRUPTED:
            handoff_abandon_for_step(owner=context.owner, turn_id=context.turn_id, step_index=context.step_index)
        return result


def _refusal(url: str, websites: AuthorizedWebsites) -> SignInReport | None:
    try:
        origin_of(url)
    except InvalidOrigin:
        return _early("refused", "invalid_address")
    if not websites.allows(url):
        return _early("refused", "site_not_authorised")
    return None


def sign_in_job(step: BrowserStep) -> StepResult:
    """The sign-in in the browser worker: the procedure, the panel if a person is needed, the audit."""
    mandate = _mandate(step)
    handoff = Handoff()
    try:
        report = _sign_in(step, mandate, handoff)
    except BaseException:
        handoff_abandon(handoff)
        raise
    finally:
        step.withhold(*mandate.secrets())
    sign_in_audit_record(owner=step.owner, turn_id=step.turn_id, step_index=step.step_index, report=report)
    if report.outcome == "signed_in" and report.anchor and step.turn_id is not None:
        # A collection of this turn asked for the website itself starts where the sign-in landed.
        signed_in_page_keep(owner_id=step.owner.pk, turn_id=step.turn_id, address=report.anchor)
    # After the session closed (its cookies saved): end the panel, or continue in a resumed turn.
    resumed = handoff_settle(handoff, report)
    result = step_result(report)
    return continued_in(report, resumed, dict(result.value)) if resumed is not None else result


def _sign_in(step: BrowserStep, mandate: Mandate, handoff: Handoff) -> SignInReport:
    url = str(step.params["url"])
    budget = time.monotonic() + SIGN_IN_TIME_BUDGET_SECONDS
    # The session also stays open while the user is asked for a code (that wait is not the procedure's).
    session_deadline = timezone.now() + dt.timedelta(seconds=SIGN_IN_TIME_BUDGET_SECONDS + CODE_WAIT_SECONDS)
    if step.deadline is not None:
        budget = min(budget, time.monotonic() + (step.deadline - timezone.now()).total_seconds())
        session_deadline = min(session_deadline, step.deadline)
    credential = step.params.get("credential")
    access = _VaultAccess(step, mandate, str(credential) if credential else None)
    chooser = route_chooser_from_tiers()
    try:
        with step.job.session(deadline=session_deadline) as session:
            # Before the first document: a real Turnstile hides its checkbox in a closed shadow root.
            cloudflare_prepare(session.page)
            procedure = SignInProcedure(
                session, credentials=access.login, codes=access.code, deadline=budget, route_chooser=chooser,
                person_chooser=access.choose,
            )  # fmt: skip
            report = procedure.run(url)
            if report.outcome == "needs_person":
                report = person_help(step, session, procedure, report, handoff, off_browser_loop)
            return report
    except NavigationRefused as refused:
        return _early("refused", f"navigation_{refused.reason}")
    except SessionEnded as ended:
        return _early("failed", f"session_{ended.outcome}")
    except SessionRefused as refused:
        return _early("failed", refused.reason)
    except BrowserSessionError:
        return _early("failed", "browser_unavailable")


def _what_was_seen(report: SignInReport) -> str:
    """For a way in not chosen: what was seen, by its visible names, and what would help."""
    if not report.seen or report.outcome not in ("ambiguous", "not_found"):
        return ""
    names = ", ".join(f"“{name}”" for name in report.seen)
    if report.outcome == "ambiguous":
        return (f"The candidates were {names}. Ask again and choose one when I ask, or an operator can configure "
                "the route-choice model (System > Models) to choose among them.")  # fmt: skip
    return (f"On the page I saw {names}. If one of them leads to your account's sign-in, open it and ask again "
            "with that page's address; an operator can also configure the route-choice model "
            "(System > Models).")  # fmt: skip


def step_result(report: SignInReport) -> StepResult:
    """The public result: outcome, reason and landing origin (never an address with tokens); the summary
    repeats the audit's structure."""
    value = {"outcome": report.outcome, "reason": report.reason, "landing_origin": report.landing_origin or None}
    audit_line = (
        f"Audit: {report.outcome} ({report.reason}), class {report.internal_class}, "
        f"last phase {report.last_phase}, {report.search_actions} search action(s)."
    )
    if report.outcome == "signed_in":
        return StepResult(outcome="success", value=value, summary=f"Signed in to {report.landing_origin}. {audit_line}")
    error_class, code, sentence = _FAILURES[report.outcome]
    detail = _REASON_SENTENCES.get(report.reason, "")
    message = f"{sentence} {detail} {_what_was_seen(report)}".strip()
    return StepResult(
        outcome="failed",
        value=value,
        error=StepError(error_class, code, message),  # type: ignore[arg-type]
        summary=f"{message} {audit_line}",
    )


register_browser_step(SIGN_IN_JOB, sign_in_job)
