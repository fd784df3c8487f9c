"""Helpers for the sign-in tests: a credential in the vault, a running turn, its mandate, the executor.

The executor runs its sign-in as a browser job, in the browser worker (this
process's browser lane in the embedded pass): the values are resolved there,
and a code is asked through the turn's own question, which the test answers
as the user would (:func:`answering`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from apps.runtime.executor import ExecutionContext, InputAnswer, InputSpec, StepResult
from apps.runtime.models import InputRequest, TraceEvent, Turn
from apps.runtime.turns import turn_submit
from apps.runtime.user_input import input_answer, input_decline
from apps.sites.signin.audit import AUDIT_KIND
from apps.sites.signin.executor import SignIn
from apps.vault.mandates import CredentialGrant, VaultMandate
from apps.vault.models import Credential
from apps.vault.services import credential_save

# The fixture sites accept this user and password (their credentials.json); the password is a canary.
USERNAME = "ada@example.org"
PASSWORD = "CANARY-signin-pw-5e21"
WRONG_PASSWORD = "CANARY-wrong-pw-77b0"
TOTP_SEED = "JBSWY3DPEHPK3PXP"


@dataclass
class Asked:
    """A ``request_input`` for tests: answers with ``answer()`` and remembers every question."""

    answer: Callable[[], str | None]
    questions: list[InputSpec] = field(default_factory=list)
    given: list[str] = field(default_factory=list)

    def __call__(self, spec: InputSpec) -> InputAnswer:
        self.questions.append(spec)
        value = self.answer()
        if value is None:
            return InputAnswer("declined")
        self.given.append(value)
        return InputAnswer("answered", value)


@dataclass(frozen=True)
class ResolvedInWorker:
    """What the turn's mandate resolved, as the vault records it: the values stay in the browser worker."""

    credential_id: int
    password: str

    def secrets(self) -> tuple[str, ...]:
        used = Credential.objects.filter(pk=self.credential_id, last_used_at__isnull=False).exists()
        return (self.password,) if used else ()


@dataclass
class SignInRun:
    result: StepResult
    mandate: ResolvedInWorker
    turn: Turn

    @property
    def outcome(self) -> str:
        return str(self.result.value.get("outcome"))

    @property
    def reason(self) -> str:
        return str(self.result.value.get("reason"))

    def audit(self) -> dict[str, Any]:
        entry = TraceEvent.objects.get(turn=self.turn, kind=AUDIT_KIND)
        return dict(entry.data)


def running_turn(owner: Any) -> Turn:
    turn = turn_submit(owner=owner, text="sign in", plan={"steps": [{"tool": "sign_in", "args": {}}]}, enqueue=False)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.RUNNING)
    return turn


def sign_in_to(
    owner: Any,
    url: str,
    *,
    origins: Sequence[str],
    password: str = PASSWORD,
    request_input: Callable[[InputSpec], InputAnswer] | None = None,
    totp_seed: str | None = None,
    authorised: Sequence[str] | None = None,
) -> SignInRun:
    """Save a credential for ``origins``, grant it on ``authorised`` (default: the same), run ``sign_in``."""
    credential = credential_save(
        owner=owner,
        label=f"site {Turn.objects.count()}",
        origins=list(origins),
        username=USERNAME,
        secret=password,
        totp_seed=totp_seed,
        authorise_code_automation=totp_seed is not None,
    )
    turn = running_turn(owner)
    granted = frozenset(authorised if authorised is not None else origins)
    mandate = VaultMandate(owner=owner, turn_id=turn.pk, grants=[CredentialGrant(credential.pk, granted)])
    context = ExecutionContext(owner=owner, turn_id=turn.pk, step_index=1, mandate=mandate)
    if request_input is None:
        result = SignIn().run(context, {"url": url})
    else:
        context.request_input = request_input  # the step may ask: the user answers the turn's questions
        with answering(turn, request_input):
            result = SignIn().run(context, {"url": url})
    return SignInRun(result, ResolvedInWorker(credential.pk, password), turn)


@contextmanager
def answering(turn: Turn, reply: Callable[[InputSpec], InputAnswer]) -> Iterator[None]:
    """While the block runs, answer each question the turn asks with ``reply``, through the runtime as a user would."""
    done = threading.Event()

    def answer() -> None:
        try:
            while not done.wait(0.05):
                for request in InputRequest.objects.filter(turn=turn, status=InputRequest.Status.PENDING):
                    spec = InputSpec(kind=request.kind, prompt=request.prompt, sensitive=request.sensitive,  # type: ignore[arg-type]
                                     choices=tuple(request.choices))  # fmt: skip
                    try:
                        given = reply(spec)
                    except BaseException:  # noqa: BLE001 - a reply that fails (pytest.fail) declines; the test sees it
                        given = InputAnswer("declined")
                    if given.status == "answered" and given.value is not None:
                        input_answer(owner=turn.owner, input_id=request.pk, value=given.value, conversation_id=None)
                    else:
                        input_decline(owner=turn.owner, input_id=request.pk, conversation_id=None)
        finally:
            connection.close()

    thread = threading.Thread(target=answer, name="test-user-answers", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(10)


def ask_in_the_portal(page: Any, portal_url: str, user: Any, password: str, request: str) -> None:
    """Sign ``user`` in to the portal in ``page``, open a new conversation and send ``request``."""
    page.goto(f"{portal_url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{portal_url}/")
    page.click("#new-conversation")
    page.locator("#live-status[data-state=open]").wait_for()
    page.fill("#request-text", request)
    page.click("#request-form button[type=submit]")
