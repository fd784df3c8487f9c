"""The deterministic rule for resuming a known dialogue: checked again, never repeating an effect."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from apps.accounts.models import User
from apps.runtime.boundary import invoke_step
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import StepResult
from apps.runtime.models import Conversation, StepRecord, Turn
from apps.runtime.paths.resume import asks_to_resume
from apps.runtime.plans.api import validate_plan
from apps.runtime.trace import TurnRecorder
from apps.runtime.turns import turn_conduct, turn_submit
from tests.lre.test_engine import QUOTES_PLAN, write_quotes

pytestmark = pytest.mark.django_db


def interrupted_at(owner: User, step: int) -> Turn:
    """A turn whose process died during ``step``: earlier steps ran for real, as reconciliation leaves it."""
    catalog = current_catalog()
    plan = validate_plan(QUOTES_PLAN, catalog)
    turn = Turn.objects.create(
        owner=owner,
        conversation=Conversation.objects.create(owner=owner),
        request_text="read every quote and make a table",
        status=Turn.Status.RUNNING,
        path=Turn.Path.PLAN,
        plan=plan.as_json(),
        plan_digest=plan.digest(),
        catalog_signature=catalog.signature,
    )
    results: dict[int, StepResult] = {}
    recorder = TurnRecorder(turn)
    for index in range(1, step):
        outcome = invoke_step(recorder=recorder, plan=plan, index=index, catalog=catalog, results=results)
        assert outcome.result is not None
        results[index] = outcome.result
    StepRecord.objects.create(
        owner=owner, turn=turn, index=step, tool=plan.steps[step - 1].tool, outcome="failed",
        error_class="unknown", error_code="interrupted",
    )  # fmt: skip
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.INTERRUPTED)
    return Turn.objects.get(pk=turn.pk)


def say(owner: User, text: str, conversation: Conversation) -> Turn:
    return turn_conduct(turn=turn_submit(owner=owner, text=text, conversation=conversation, enqueue=False))


@pytest.mark.parametrize("text", ["continue", "Resume.", "please go on", "riprendi", "Continua!", "vai avanti"])
def test_short_requests_to_go_on_are_recognised(text: str) -> None:
    assert asks_to_resume(text)


@pytest.mark.parametrize("text", ["continue reading the quotes in Offers", "resume my CV", "don't continue"])
def test_longer_requests_are_planned_normally(text: str) -> None:
    assert not asks_to_resume(text)


def test_an_interrupted_read_resumes_in_a_linked_turn_without_rerunning_finished_steps(owner: User, root: Path) -> None:
    write_quotes(root / "Quotes", 3)
    suspended = interrupted_at(owner, step=2)
    first_step = StepRecord.objects.get(turn=suspended, index=1)

    resumed = say(owner, "continue", suspended.conversation)

    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    stored = Turn.objects.get(pk=resumed.pk)
    assert stored.path == Turn.Path.RULE and stored.resumed_from_id == suspended.pk
    inherited = StepRecord.objects.get(turn=resumed, index=1)
    assert inherited.started_at == first_step.started_at  # copied, not run again
    sheet = openpyxl.load_workbook(root / "Quotes" / "summary.xlsx").active
    assert sheet is not None and sheet.max_row == 1 + 3

    again = say(owner, "riprendi", suspended.conversation)
    assert again.status == Turn.Status.FAILED and "nothing to resume" in again.answer


def test_a_step_that_may_have_written_is_not_repeated(owner: User, root: Path) -> None:
    write_quotes(root / "Quotes", 2)
    suspended = interrupted_at(owner, step=4)
    resumed = say(owner, "riprendi", suspended.conversation)
    assert resumed.status == Turn.Status.FAILED
    assert "may already have taken effect" in resumed.answer
    assert not (root / "Quotes" / "summary.xlsx").exists()


def test_nothing_to_resume_is_said_plainly(owner: User) -> None:
    conversation = Conversation.objects.create(owner=owner)
    turn = say(owner, "continue", conversation)
    assert turn.status == Turn.Status.FAILED and "nothing to resume" in turn.answer


def test_another_users_turn_is_never_resumed(owner: User, second_user: User, root: Path) -> None:
    write_quotes(root / "Quotes", 2)
    suspended = interrupted_at(owner, step=2)
    theirs = Conversation.objects.create(owner=second_user)
    turn = say(second_user, "continue", theirs)
    assert turn.status == Turn.Status.FAILED and turn.resumed_from_id is None
    assert not Turn.objects.filter(resumed_from=suspended).exists()
