"""The agentic loop: the model proposes, the adapter validates, executes and verifies.

Simple in-memory tasks pin down the semantics (a fake clock, so no timing
assertion); a realistic route-choice task runs against the scripted model
server through the real ModelClient: the model picks one of the controls
actually observed, and a control it invents is refused.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from apps.runtime.agentic.loop import (
    AttemptRecord,
    ExecutionFailed,
    LoopCancelled,
    LoopResult,
    loop_error,
    map_outcome_to_step,
    run_deterministic_first,
    run_deterministic_first_async,
    run_loop,
    run_loop_async,
)
from apps.runtime.executor import StepResult
from apps.runtime.tiers.client import (
    ModelClient,
    ModelError,
    ModelInvalidOutput,
    ModelRefused,
    ModelTimeout,
    ModelUnavailable,
    ModelUsage,
)
from tests.model_server import ScriptedModelServer

Observation = tuple[str, ...]


class FakeClock:
    """The loop's clock in tests: time passes only when a task says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class ListTask:
    """An in-memory task: proposals come from a list; some of them reach the goal."""

    proposals: list[str | ModelError | None]
    options: Observation = ("alpha", "beta", "gamma")
    reaching: frozenset[str] = frozenset()
    clock: FakeClock | None = None
    propose_seconds: float = 0.0
    execute_failure: str | None = None
    calls: list[str] = field(default_factory=list)
    deadlines: list[float] = field(default_factory=list)
    histories: list[tuple[AttemptRecord[str], ...]] = field(default_factory=list)

    def observe(self) -> Observation:
        self.calls.append("observe")
        return self.options

    def propose(
        self, observation: Observation, history: Sequence[AttemptRecord[str]], *, deadline: float
    ) -> str | None:
        self.calls.append("propose")
        self.deadlines.append(deadline)
        self.histories.append(tuple(history))
        if self.clock is not None:
            self.clock.advance(self.propose_seconds)
        item = self.proposals.pop(0)
        if isinstance(item, ModelError):
            raise item
        return item

    def validate(self, proposal: str, observation: Observation) -> str | None:
        return None if proposal in observation else "option_not_observed"

    def execute(self, proposal: str) -> str:
        self.calls.append(f"execute:{proposal}")
        if self.execute_failure:
            raise ExecutionFailed(self.execute_failure)
        return f"done:{proposal}"

    def postcondition(self, result: str, observation: Observation) -> bool:
        return result.removeprefix("done:") in self.reaching

    @property
    def executed(self) -> list[str]:
        return [call.removeprefix("execute:") for call in self.calls if call.startswith("execute:")]


class AsyncListTask:
    """The same task with coroutine methods (execute stays a plain callable: mixing is allowed)."""

    def __init__(self, inner: ListTask) -> None:
        self.inner = inner

    async def observe(self) -> Observation:
        await asyncio.sleep(0)
        return self.inner.observe()

    async def propose(
        self, observation: Observation, history: Sequence[AttemptRecord[str]], *, deadline: float
    ) -> str | None:
        await asyncio.sleep(0)
        return self.inner.propose(observation, history, deadline=deadline)

    async def validate(self, proposal: str, observation: Observation) -> str | None:
        return self.inner.validate(proposal, observation)

    def execute(self, proposal: str) -> str:
        return self.inner.execute(proposal)

    async def postcondition(self, result: str, observation: Observation) -> bool:
        return self.inner.postcondition(result, observation)


def unavailable() -> ModelUnavailable:
    return ModelUnavailable(tier="route_choice", cause="connect_failed")


def loop(task: ListTask, *, max_attempts: int = 3, budget: float = 60.0) -> LoopResult[str]:
    return run_loop(task, max_attempts=max_attempts, time_budget_seconds=budget, clock=task.clock or FakeClock())


async def loop_async(task: ListTask, *, max_attempts: int = 3, budget: float = 60.0) -> LoopResult[str]:
    return await run_loop_async(
        AsyncListTask(task), max_attempts=max_attempts, time_budget_seconds=budget, clock=task.clock or FakeClock()
    )


def completed_step(value: str) -> StepResult:
    return StepResult(outcome="success", value={"chosen": value})


def kept_step(value: str) -> StepResult:
    return StepResult(outcome="partial", value={"chosen": value}, notices=("The model could not improve on this.",))


# --- The loop's outcomes ------------------------------------------------------------


def test_completed_on_first_try() -> None:
    task = ListTask(["beta"], reaching=frozenset({"beta"}))
    result = loop(task)
    assert (result.outcome, result.value, result.attempts, result.executions) == ("completed", "done:beta", 1, 1)
    assert result.reasons == ("postcondition_met",)
    assert result.stopped_by == "postcondition_met"
    assert task.calls == ["observe", "propose", "execute:beta"]


def test_each_attempt_refreshes_the_observation_and_sees_the_history() -> None:
    task = ListTask(["delta", "alpha", "beta"], reaching=frozenset({"beta"}))
    result = loop(task)
    assert result.outcome == "completed"
    assert result.reasons == ("proposal_invalid", "postcondition_failed", "postcondition_met")
    assert task.calls.count("observe") == 3
    assert task.histories[2] == (
        AttemptRecord(1, "proposal_invalid", "delta", "option_not_observed"),
        AttemptRecord(2, "postcondition_failed", "alpha", None),
    )


def test_invalid_proposals_leave_the_loop_inconclusive_without_executing() -> None:
    task = ListTask(["delta", "omega", "zeta"])
    result = loop(task)
    assert (result.outcome, result.value, result.attempts, result.executions) == ("inconclusive", None, 3, 0)
    assert result.reasons == ("proposal_invalid",) * 3
    assert result.stopped_by == "attempts_spent"
    assert task.executed == []


def test_missing_proposals_and_model_failures_leave_the_loop_inconclusive() -> None:
    not_json = ModelInvalidOutput(tier="route_choice", cause="not_json")
    task = ListTask([None, unavailable(), not_json, ModelRefused(tier="route_choice", cause="rate_limited")])
    result = loop(task, max_attempts=4)
    assert result.outcome == "inconclusive"
    assert result.reasons == ("no_proposal", "model_unavailable", "model_invalid_output", "model_rate_limited")
    assert [record.detail for record in task.histories[-1]] == [None, "connect_failed", "not_json"]


def test_postcondition_never_met_exhausts_after_max_attempts() -> None:
    task = ListTask(["alpha", "beta", "gamma", "alpha"])
    result = loop(task, max_attempts=3)
    assert (result.outcome, result.value, result.attempts, result.executions) == ("exhausted", None, 3, 3)
    assert result.reasons == ("postcondition_failed",) * 3
    assert result.stopped_by == "attempts_spent"
    assert task.executed == ["alpha", "beta", "gamma"]
    assert task.proposals == ["alpha"]  # no retry beyond max_attempts


def test_one_admitted_execution_among_invalid_proposals_makes_running_out_exhausted() -> None:
    result = loop(ListTask(["delta", "alpha", None]))
    assert result.outcome == "exhausted"
    assert result.reasons == ("proposal_invalid", "postcondition_failed", "no_proposal")


def test_an_execution_failure_counts_as_executed() -> None:
    task = ListTask(["alpha", "beta"], execute_failure="stale_control")
    result = loop(task, max_attempts=2)
    assert (result.outcome, result.executions) == ("exhausted", 2)
    assert result.reasons == ("execution_failed", "execution_failed")
    assert task.histories[1][0].detail == "stale_control"


def test_time_budget_spent_before_any_admission_is_exhausted_not_inconclusive() -> None:
    clock = FakeClock()
    task = ListTask(["delta", "omega", "zeta"], clock=clock, propose_seconds=4.0)
    result = run_loop(task, max_attempts=3, time_budget_seconds=10.0, clock=clock)
    # Two invalid proposals, then the third arrives after the budget: attempts remained.
    assert (result.outcome, result.attempts, result.executions) == ("exhausted", 3, 0)
    assert result.reasons == ("proposal_invalid", "proposal_invalid", "budget_spent")
    assert result.stopped_by == "budget_spent"
    assert result.elapsed_seconds == 12.0


def test_a_proposal_arriving_after_the_budget_is_not_executed() -> None:
    clock = FakeClock()
    task = ListTask(["alpha"], reaching=frozenset({"alpha"}), clock=clock, propose_seconds=11.0)
    result = run_loop(task, max_attempts=3, time_budget_seconds=10.0, clock=clock)
    assert (result.outcome, result.value, result.reasons) == ("exhausted", None, ("budget_spent",))
    assert task.executed == []


def test_a_model_timeout_at_the_end_of_the_budget_ends_the_loop_exhausted() -> None:
    clock = FakeClock()
    timeout = ModelTimeout(tier="route_choice", cause="timed_out", sent=True)
    task = ListTask([timeout, "alpha"], clock=clock, propose_seconds=10.0)
    result = run_loop(task, max_attempts=3, time_budget_seconds=10.0, clock=clock)
    assert (result.outcome, result.attempts, result.reasons) == ("exhausted", 1, ("model_timeout",))
    assert result.stopped_by == "budget_spent"


def test_a_tier_timeout_within_the_budget_only_costs_an_attempt() -> None:
    clock = FakeClock()
    timeout = ModelTimeout(tier="route_choice", cause="timed_out", sent=True)
    task = ListTask([timeout, "alpha"], reaching=frozenset({"alpha"}), clock=clock, propose_seconds=2.0)
    result = run_loop(task, max_attempts=3, time_budget_seconds=10.0, clock=clock)
    assert (result.outcome, result.reasons) == ("completed", ("model_timeout", "postcondition_met"))


def test_propose_gets_at_most_the_remaining_budget_as_its_deadline() -> None:
    import time

    clock = FakeClock()
    task = ListTask(["delta", "alpha"], reaching=frozenset({"alpha"}), clock=clock, propose_seconds=7.0)
    before = time.monotonic()
    run_loop(task, max_attempts=2, time_budget_seconds=10.0, clock=clock)
    after = time.monotonic()
    first, second = task.deadlines
    assert before + 10.0 <= first <= after + 10.0
    assert before + 3.0 <= second <= after + 3.0


def test_a_validator_reason_must_be_a_code_not_text() -> None:
    class Chatty(ListTask):
        def validate(self, proposal: str, observation: Observation) -> str | None:
            return f"{proposal} is not on the page"

    with pytest.raises(ValueError, match="closed-set code"):
        loop(Chatty(["delta"]))


def test_an_unexpected_error_from_the_task_propagates() -> None:
    class Broken(ListTask):
        def execute(self, proposal: str) -> str:
            raise KeyError(proposal)

    with pytest.raises(KeyError):
        loop(Broken(["alpha"]))


def test_cancellation_stops_the_synchronous_loop_before_the_next_call() -> None:
    cancelled = threading.Event()

    class CancelledWhileObserving(ListTask):
        def observe(self) -> Observation:
            cancelled.set()
            return super().observe()

    task = CancelledWhileObserving(["alpha"])
    with pytest.raises(LoopCancelled) as raised:
        run_loop(task, max_attempts=3, time_budget_seconds=10.0, clock=FakeClock(), cancelled=cancelled)
    assert (raised.value.attempts, raised.value.executions) == (0, 0)
    assert "propose" not in task.calls


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        loop(ListTask([]), max_attempts=0)
    with pytest.raises(ValueError, match="time_budget_seconds"):
        loop(ListTask([]), budget=0)


def test_an_async_task_is_refused_by_the_synchronous_loop() -> None:
    with pytest.raises(TypeError, match="run_loop_async"):
        run_loop(AsyncListTask(ListTask(["alpha"])), max_attempts=1, time_budget_seconds=1.0)  # type: ignore[arg-type]


# --- Deterministic first ----------------------------------------------------------


def test_a_good_enough_deterministic_result_completes_without_the_model() -> None:
    task = ListTask(["alpha"])
    result = run_deterministic_first(
        lambda: "done:heuristic", lambda value: True, task, max_attempts=3, time_budget_seconds=10.0
    )
    assert (result.outcome, result.value, result.attempts) == ("completed", "done:heuristic", 0)
    assert (result.stopped_by, result.kept_deterministic) == ("deterministic_good_enough", False)
    assert task.calls == []


def test_deterministic_first_keeps_the_deterministic_result_when_the_model_fails() -> None:
    task = ListTask(["delta", unavailable()])
    result = run_deterministic_first(
        lambda: "done:heuristic", lambda value: False, task, max_attempts=2, time_budget_seconds=10.0
    )
    assert (result.outcome, result.value, result.kept_deterministic) == ("inconclusive", "done:heuristic", True)
    step = map_outcome_to_step(result, on_completed=completed_step, on_kept_deterministic=kept_step, user_help=None)
    assert (step.outcome, step.value) == ("partial", {"chosen": "done:heuristic"})


def test_deterministic_first_keeps_the_deterministic_result_when_the_loop_is_exhausted() -> None:
    task = ListTask(["alpha", "beta"])
    result = run_deterministic_first(
        lambda: "done:heuristic", lambda value: False, task, max_attempts=2, time_budget_seconds=10.0
    )
    assert (result.outcome, result.value, result.kept_deterministic) == ("exhausted", "done:heuristic", True)


def test_deterministic_first_takes_a_verified_model_improvement() -> None:
    task = ListTask(["gamma"], reaching=frozenset({"gamma"}))
    result = run_deterministic_first(
        lambda: "done:heuristic", lambda value: False, task, max_attempts=2, time_budget_seconds=10.0
    )
    assert (result.outcome, result.value, result.kept_deterministic) == ("completed", "done:gamma", False)


# --- The asynchronous loop ---------------------------------------------------------


async def test_async_completed_on_first_try() -> None:
    task = ListTask(["beta"], reaching=frozenset({"beta"}))
    result = await loop_async(task)
    assert (result.outcome, result.value, result.reasons) == ("completed", "done:beta", ("postcondition_met",))


async def test_async_invalid_proposals_leave_the_loop_inconclusive() -> None:
    task = ListTask(["delta", None, unavailable()])
    result = await loop_async(task)
    assert (result.outcome, result.value) == ("inconclusive", None)
    assert result.reasons == ("proposal_invalid", "no_proposal", "model_unavailable")
    assert task.executed == []


async def test_async_postcondition_never_met_exhausts_after_max_attempts() -> None:
    task = ListTask(["alpha", "beta", "gamma", "alpha"])
    result = await loop_async(task)
    assert (result.outcome, result.value, result.executions) == ("exhausted", None, 3)
    assert task.proposals == ["alpha"]


async def test_async_time_budget_spent_is_exhausted() -> None:
    clock = FakeClock()
    task = ListTask(["delta", "alpha"], reaching=frozenset({"alpha"}), clock=clock, propose_seconds=6.0)
    result = await run_loop_async(AsyncListTask(task), max_attempts=3, time_budget_seconds=10.0, clock=clock)
    assert (result.outcome, result.reasons) == ("exhausted", ("proposal_invalid", "budget_spent"))
    assert task.executed == []


async def test_async_plain_callables_run_in_a_worker_thread() -> None:
    task = ListTask(["beta"], reaching=frozenset({"beta"}))
    result = await run_loop_async(task, max_attempts=1, time_budget_seconds=10.0, clock=FakeClock())
    assert result.outcome == "completed"


async def test_async_a_proposer_that_ignores_its_deadline_is_cut_at_the_budget() -> None:
    class Hanging(AsyncListTask):
        async def propose(
            self, observation: Observation, history: Sequence[AttemptRecord[str]], *, deadline: float
        ) -> str | None:
            await asyncio.Event().wait()
            return None

    task = ListTask([])
    result = await run_loop_async(Hanging(task), max_attempts=3, time_budget_seconds=0.2)
    assert (result.outcome, result.reasons, result.stopped_by) == ("exhausted", ("model_timeout",), "budget_spent")
    assert task.executed == []


async def test_async_cancellation_propagates_and_nothing_is_executed() -> None:
    entered = asyncio.Event()

    class Waiting(AsyncListTask):
        async def propose(
            self, observation: Observation, history: Sequence[AttemptRecord[str]], *, deadline: float
        ) -> str | None:
            entered.set()
            await asyncio.Event().wait()
            return "alpha"

    task = ListTask([])
    running = asyncio.create_task(run_loop_async(Waiting(task), max_attempts=3, time_budget_seconds=60.0))
    await entered.wait()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert task.executed == []


async def test_async_deterministic_first_keeps_the_deterministic_result() -> None:
    async def heuristic() -> str:
        return "done:heuristic"

    task = ListTask(["delta", "omega"])
    result = await run_deterministic_first_async(
        heuristic, lambda value: False, AsyncListTask(task), max_attempts=2, time_budget_seconds=10.0
    )
    assert (result.outcome, result.value, result.kept_deterministic) == ("inconclusive", "done:heuristic", True)

    untouched = ListTask(["alpha"])
    good = await run_deterministic_first_async(
        heuristic, lambda value: True, AsyncListTask(untouched), max_attempts=2, time_budget_seconds=10.0
    )
    assert (good.outcome, good.value, untouched.calls) == ("completed", "done:heuristic", [])


# --- Mapping to the executor's contract -------------------------------------------


def result_of(outcome: Any, reasons: tuple[Any, ...], *, executions: int = 0, **extra: Any) -> LoopResult[str]:
    stopped_by: Any = "postcondition_met" if outcome == "completed" else extra.pop("stopped_by", "attempts_spent")
    return LoopResult(
        outcome=outcome, value=extra.pop("value", None), attempts=len(reasons), elapsed_seconds=1.0,
        reasons=reasons, stopped_by=stopped_by, executions=executions, **extra,
    )  # fmt: skip


def never(value: str) -> StepResult:
    raise AssertionError("no result may be produced here")


def test_a_completed_loop_maps_to_the_adapters_result() -> None:
    result = result_of("completed", ("postcondition_met",), executions=1, value="done:beta")
    step = map_outcome_to_step(result, on_completed=completed_step, on_kept_deterministic=never, user_help=None)
    assert (step.outcome, step.value) == ("success", {"chosen": "done:beta"})


@pytest.mark.parametrize(
    ("outcome", "reasons", "executions", "error_class", "code"),
    [
        ("inconclusive", ("proposal_invalid", "no_proposal"), 0, "permanent", "no_admissible_proposal"),
        ("inconclusive", ("model_unavailable", "model_timeout"), 0, "recoverable", "model_unavailable"),
        ("inconclusive", ("model_unavailable", "model_truncated"), 0, "permanent", "no_admissible_proposal"),
        ("exhausted", ("proposal_invalid", "model_timeout"), 0, "recoverable", "time_budget_spent"),
        ("exhausted", ("postcondition_failed", "execution_failed"), 2, "unknown", "postcondition_not_met"),
    ],
)
def test_an_unfinished_loop_maps_to_a_typed_error_without_data(
    outcome: Any, reasons: tuple[Any, ...], executions: int, error_class: str, code: str
) -> None:
    result = result_of(outcome, reasons, executions=executions)
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=never, user_help=None)
    assert step.outcome == "failed"
    assert step.error is not None
    assert (step.error.error_class, step.error.code) == (error_class, code)
    assert (step.items, step.value, step.files, step.effects) == ((), {}, (), ())


def test_an_unfinished_loop_can_ask_the_user_and_keeps_the_error_class() -> None:
    result = result_of("exhausted", ("postcondition_failed",), executions=1)
    help_text = "The page shows a check only you can complete; open the session and select Resume."
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=None, user_help=help_text)
    assert step.error is not None
    assert (step.outcome, step.error.code, step.error.error_class) == ("failed", "needs_user", "unknown")
    assert (step.error.message, step.notices, step.value, step.items) == (help_text, (help_text,), {}, ())


def test_a_kept_deterministic_result_without_a_mapping_is_not_presented() -> None:
    result = result_of("inconclusive", ("proposal_invalid",), value="done:heuristic", kept_deterministic=True)
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=None, user_help=None)
    assert step.error is not None
    assert (step.outcome, step.error.code, step.value) == ("failed", "no_admissible_proposal", {})


def test_a_loop_result_cannot_carry_an_invented_value() -> None:
    with pytest.raises(ValueError, match="never invents"):
        result_of("exhausted", ("postcondition_failed",), executions=1, value="done:alpha")
    with pytest.raises(ValueError, match="completed"):
        result_of("completed", ("postcondition_met",), value="done:alpha", kept_deterministic=True)
    with pytest.raises(ValueError, match="no error"):
        loop_error(result_of("completed", ("postcondition_met",), value="done:alpha"))


# --- A realistic task: choosing a route among observed controls ------------------

CHOICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"control": {"type": ["string", "null"]}},
    "required": ["control"],
    "additionalProperties": False,
}
SITE_PAGES: dict[str, dict[str, str]] = {
    "home": {"Account": "account", "News": "news", "Contact": "contact"},
    "account": {"Invoices": "invoices", "Profile": "profile", "Home": "home"},
}


@dataclass
class FakeSite:
    """A site whose pages offer controls; clicking one navigates."""

    current: str = "home"
    clicks: list[str] = field(default_factory=list)

    def controls(self) -> tuple[str, ...]:
        return tuple(SITE_PAGES.get(self.current, {}))

    def click(self, control: str) -> str:
        self.clicks.append(control)
        self.current = SITE_PAGES[self.current][control]
        return self.current


@dataclass(frozen=True)
class PageObservation:
    page: str
    controls: tuple[str, ...]


@dataclass
class RouteChoiceTask:
    """The adapter: the model names a control; only an observed one is clicked."""

    client: ModelClient
    site: FakeSite
    goal_page: str = "invoices"

    def observe(self) -> PageObservation:
        return PageObservation(self.site.current, self.site.controls())

    def propose(
        self, observation: PageObservation, history: Sequence[AttemptRecord[str]], *, deadline: float
    ) -> str | None:
        request = {
            "goal": "Reach the list of invoices.",
            "page": observation.page,
            "controls": list(observation.controls),
            "refused": [record.detail for record in history if record.reason == "proposal_invalid"],
        }
        messages = [
            {"role": "system", "content": "Choose exactly one of the listed controls, or null."},
            {"role": "user", "content": json.dumps(request)},
        ]
        reply = self.client.chat(messages, response_schema=CHOICE_SCHEMA, schema_name="route_choice", deadline=deadline)
        assert isinstance(reply.parsed, dict)
        control = reply.parsed["control"]
        return control if isinstance(control, str) else None

    def validate(self, proposal: str, observation: PageObservation) -> str | None:
        # The schema cannot list the options, and must not be trusted to: the
        # observation is the authority, so the model cannot invent a control.
        return None if proposal in observation.controls else "control_not_observed"

    def execute(self, proposal: str) -> str:
        return self.site.click(proposal)

    def postcondition(self, result: str, observation: PageObservation) -> bool:
        return self.site.current == self.goal_page  # the site's state, not the model's word


def route_task(server: ScriptedModelServer, usage: ModelUsage | None = None) -> RouteChoiceTask:
    return RouteChoiceTask(ModelClient(server.tier("route_choice"), usage=usage), FakeSite())


def test_route_choice_reaches_the_goal_through_observed_controls(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"control": "Account"})
    scripted_model_server.script({"control": "Invoices"})
    task = route_task(scripted_model_server)
    result = run_loop(task, max_attempts=3, time_budget_seconds=30.0)
    assert (result.outcome, result.value, result.attempts) == ("completed", "invoices", 2)
    assert task.site.clicks == ["Account", "Invoices"]
    second = scripted_model_server.chat_requests[1].json
    assert json.loads(second["messages"][1]["content"])["controls"] == ["Invoices", "Profile", "Home"]


def test_route_choice_refuses_a_control_the_model_invented(scripted_model_server: ScriptedModelServer) -> None:
    for _ in range(3):
        scripted_model_server.script({"control": "Secret admin panel"})
    task = route_task(scripted_model_server)
    result = run_loop(task, max_attempts=3, time_budget_seconds=30.0)
    assert (result.outcome, result.value, result.reasons) == ("inconclusive", None, ("proposal_invalid",) * 3)
    assert task.site.clicks == []
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=None, user_help=None)
    assert step.error is not None
    assert (step.error.error_class, step.error.code) == ("permanent", "no_admissible_proposal")
    assert "Secret admin panel" not in repr(step) + repr(result)
    last = json.loads(scripted_model_server.chat_requests[2].json["messages"][1]["content"])
    assert last["refused"] == ["control_not_observed", "control_not_observed"]


def test_route_choice_sends_no_request_beyond_max_attempts(scripted_model_server: ScriptedModelServer) -> None:
    for _ in range(5):
        scripted_model_server.script({"control": None})
    result = run_loop(route_task(scripted_model_server), max_attempts=3, time_budget_seconds=30.0)
    assert (result.outcome, result.reasons) == ("inconclusive", ("no_proposal",) * 3)
    assert (len(scripted_model_server.chat_requests), scripted_model_server.pending) == (3, 2)


def test_route_choice_model_failures_are_typed_reasons(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script(status=500)
    scripted_model_server.script('{"control": "Acc', finish_reason="length")
    scripted_model_server.script("not json at all")
    result = run_loop(route_task(scripted_model_server), max_attempts=3, time_budget_seconds=30.0)
    assert result.outcome == "inconclusive"
    assert result.reasons == ("model_unavailable", "model_truncated", "model_invalid_output")


def test_route_choice_with_the_model_down_is_a_recoverable_error(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script(status=503)
    scripted_model_server.script(status=502)
    result = run_loop(route_task(scripted_model_server), max_attempts=2, time_budget_seconds=30.0)
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=None, user_help=None)
    assert step.error is not None
    assert (result.outcome, step.error.error_class, step.error.code) == (
        "inconclusive", "recoverable", "model_unavailable",
    )  # fmt: skip


def test_a_slow_model_exhausts_the_time_budget_and_stays_counted(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"control": "Account"}, delay=5.0)
    usage = ModelUsage()
    task = route_task(scripted_model_server, usage)
    result = run_loop(task, max_attempts=3, time_budget_seconds=1.0)
    assert (result.outcome, result.reasons, result.stopped_by) == ("exhausted", ("model_timeout",), "budget_spent")
    assert usage.requests("route_choice") == 1
    assert task.site.clicks == []
    step = map_outcome_to_step(result, on_completed=never, on_kept_deterministic=None, user_help=None)
    assert step.error is not None
    assert (step.error.error_class, step.error.code) == ("recoverable", "time_budget_spent")


async def test_async_a_slow_model_exhausts_the_time_budget_and_stays_counted(
    scripted_model_server: ScriptedModelServer,
) -> None:
    scripted_model_server.script({"control": "Account"}, delay=5.0)
    usage = ModelUsage()
    task = route_task(scripted_model_server, usage)
    result = await run_loop_async(task, max_attempts=3, time_budget_seconds=1.0)
    assert (result.outcome, result.reasons) == ("exhausted", ("model_timeout",))
    assert usage.requests("route_choice") == 1
    assert task.site.clicks == []


async def test_async_route_choice_reaches_the_goal(scripted_model_server: ScriptedModelServer) -> None:
    scripted_model_server.script({"control": "Contact"})
    scripted_model_server.script({"control": "Account"})
    scripted_model_server.script({"control": "Invoices"})
    task = route_task(scripted_model_server)
    task.site = FakeSite(current="account")
    result = await run_loop_async(task, max_attempts=3, time_budget_seconds=30.0)
    assert (result.outcome, result.value, result.reasons) == (
        "completed", "invoices", ("proposal_invalid", "proposal_invalid", "postcondition_met"),
    )  # fmt: skip
    assert task.site.clicks == ["Invoices"]


def test_route_choice_deterministic_first_keeps_the_heuristic_when_the_model_fails(
    scripted_model_server: ScriptedModelServer,
) -> None:
    scripted_model_server.script(status=500)
    scripted_model_server.script({"control": "Secret admin panel"})
    task = route_task(scripted_model_server)

    def heuristic() -> str:
        # Text matching finds "Account", which is not the goal itself.
        return "account" if "Account" in task.site.controls() else "home"

    result = run_deterministic_first(
        heuristic, lambda page: page == "invoices", task, max_attempts=2, time_budget_seconds=30.0
    )
    assert (result.outcome, result.value, result.kept_deterministic) == ("inconclusive", "account", True)
    assert result.reasons == ("model_unavailable", "proposal_invalid")
    assert task.site.clicks == []


def test_route_choice_deterministic_first_does_not_call_a_model_when_good_enough(
    scripted_model_server: ScriptedModelServer,
) -> None:
    task = route_task(scripted_model_server)
    result = run_deterministic_first(
        lambda: "invoices", lambda page: page == "invoices", task, max_attempts=2, time_budget_seconds=30.0
    )
    assert (result.outcome, result.value) == ("completed", "invoices")
    assert scripted_model_server.chat_requests == []
