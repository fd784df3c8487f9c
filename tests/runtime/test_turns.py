"""Turns end to end through the conductor: paths, outcomes, plan reuse, undo."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.models import User
from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog, registered_executors
from apps.runtime.lifecycle import conductor_identity, turn_claim
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import PlanCache, StepRecord, TraceEvent, Turn
from apps.runtime.paths.choice import plan_cache_store
from apps.runtime.selectors import turn_get_for_owner
from apps.runtime.trace import TurnRecorder
from apps.runtime.turns import TurnRejected, turn_conduct, turn_submit
from tests.runtime.conftest import QUOTES_REQUEST, owner_folder

pytestmark = pytest.mark.django_db


def ask(owner: User, text: str, **kwargs: object) -> Turn:
    turn = turn_submit(owner=owner, text=text, enqueue=False)
    return turn_conduct(turn=turn, **kwargs)  # type: ignore[arg-type]


def _prices(path: Path) -> dict[str, Decimal]:
    sheet = openpyxl.load_workbook(path).active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    supplier, price = header.index("supplier"), header.index("price")
    return {str(row[supplier]): Decimal(str(row[price])) for row in rows[1:]}


def test_spec_quotes_request_runs_with_no_model(owner: User, purchasing: Path) -> None:
    turn = ask(owner, QUOTES_REQUEST)

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert turn.path == Turn.Path.PROPOSAL
    tools = [step.tool for step in StepRecord.objects.filter(turn=turn).order_by("index")]
    assert tools == ["find_files", "read_files", "extract_entries", "create_files_spreadsheet"]
    prices = _prices(purchasing / "summary.xlsx")
    assert len(prices) == 3
    assert all(price > 0 for price in prices.values())
    kinds = list(TraceEvent.objects.filter(turn=turn).values_list("kind", flat=True))
    assert kinds[0] == "path.chosen" and "plan.accepted" in kinds and kinds[-1] == "turn.finished"


def test_same_request_again_takes_the_fast_path_and_never_overwrites(owner: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    again = ask(owner, QUOTES_REQUEST)
    assert again.path == Turn.Path.FAST_PATH
    assert again.status == Turn.Status.COMPLETED, again.answer
    assert (purchasing / "summary (2).xlsx").exists()
    assert (purchasing / "summary.xlsx").exists()


def test_changed_executor_signature_invalidates_the_fast_path(owner: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    executors = dict(registered_executors())
    reader = executors["read_files"]

    class ChangedReader:
        manifest = dataclasses.replace(reader.manifest, version="2")

        def run(self, context, args):
            return reader.run(context, args)

    executors["read_files"] = ChangedReader()
    turn = ask(owner, QUOTES_REQUEST, catalog=build_catalog(executors))
    assert turn.path == Turn.Path.PROPOSAL
    assert not PlanCache.objects.filter(
        owner=owner, kind="fast_path", executor_signatures__read_files=reader.manifest.signature
    ).exists()


def test_similar_request_reuses_the_generalised_plan(owner: User, purchasing: Path, files_root: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    offers = owner_folder(files_root, owner, "Offers")
    for quote in purchasing.glob("quote*.pdf"):
        (offers / quote.name).write_bytes(quote.read_bytes())
    turn = ask(owner, QUOTES_REQUEST.replace("Purchasing", "Offers"))
    assert turn.path == Turn.Path.AUTOPATH
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert (offers / "summary.xlsx").exists()


def test_plan_caches_belong_to_their_owner(owner: User, second_user: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    other = ask(second_user, QUOTES_REQUEST)
    assert other.path == Turn.Path.PROPOSAL  # not the owner's fast path
    assert other.status == Turn.Status.FAILED  # the second user has no Purchasing folder
    assert "does not exist" in other.answer or "not" in other.answer


def test_missing_folder_fails_and_later_steps_are_skipped(owner: User, files_root: Path) -> None:
    turn = ask(owner, QUOTES_REQUEST)
    assert turn.status == Turn.Status.FAILED
    outcomes = list(StepRecord.objects.filter(turn=turn).order_by("index").values_list("outcome", flat=True))
    assert outcomes == ["failed", "skipped", "skipped", "skipped"]
    assert not PlanCache.objects.filter(owner=owner).exists()


def test_empty_producer_never_feeds_an_older_result(owner: User, files_root: Path) -> None:
    owner_folder(files_root, owner, "Purchasing")  # exists, but holds nothing
    turn = ask(owner, QUOTES_REQUEST)
    outcomes = list(StepRecord.objects.filter(turn=turn).order_by("index").values_list("outcome", flat=True))
    assert outcomes == ["empty", "skipped", "skipped", "skipped"]
    assert turn.status == Turn.Status.PARTIAL
    assert not list(files_root.rglob("*.xlsx"))


def test_partial_work_stays_visible_when_a_later_step_fails(owner: User, purchasing: Path) -> None:
    (purchasing / "summary.xlsx").write_bytes(b"mine")
    plan = {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}},
            {"tool": "read_files", "args": {"from_step": 1}},
            {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "price"]}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": "~/Purchasing/summary.xlsx"}},
        ]
    }
    turn = turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False))
    assert turn.status == Turn.Status.PARTIAL
    records = StepRecord.objects.filter(turn=turn).order_by("index")
    assert [record.outcome for record in records] == ["success", "success", "success", "failed"]
    assert records[3].error_code == "already_exists"
    assert (purchasing / "summary.xlsx").read_bytes() == b"mine"
    assert "already exists" in turn.answer


def test_undo_removes_the_file_the_last_turn_created(owner: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    undo = ask(owner, "undo the last turn")
    assert undo.path == Turn.Path.RULE
    assert undo.status == Turn.Status.COMPLETED, undo.answer
    assert not (purchasing / "summary.xlsx").exists()
    assert (purchasing / "quote1.pdf").exists()
    second = ask(owner, "annulla l'ultima operazione")
    assert second.status == Turn.Status.COMPLETED, second.answer  # nothing left: said, not faked
    assert "no earlier turn" in second.answer.casefold()


def test_undo_leaves_a_changed_file_in_place(owner: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    (purchasing / "summary.xlsx").write_bytes(b"edited by the user")
    undo = ask(owner, "undo the last turn")
    assert undo.status == Turn.Status.FAILED
    assert "changed since" in undo.answer
    assert (purchasing / "summary.xlsx").read_bytes() == b"edited by the user"


def test_request_no_capability_understands_is_refused_plainly(owner: User) -> None:
    turn = ask(owner, "book me a flight to Lisbon")
    assert turn.status == Turn.Status.FAILED
    assert turn.path == Turn.Path.NONE
    assert turn.answer == "I can't do that yet: it is not among the things Metnos can do. Nothing was done."


@pytest.mark.parametrize(
    "plan",
    [
        {"steps": [{"tool": "launch_rockets", "args": {}}]},
        {
            "steps": [
                {"tool": "read_files", "args": {"from_step": 2}},
                {"tool": "find_files", "args": {"base_path": "~"}},
            ]
        },
        {"steps": [{"tool": "find_files", "args": {"base_path": 7}}]},
        {"steps": []},
    ],
)
def test_invalid_plans_are_refused_before_anything_runs(owner: User, plan: dict[str, object]) -> None:
    turn = turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False))
    assert turn.status == Turn.Status.FAILED
    assert "not valid" in turn.answer
    assert not StepRecord.objects.filter(turn=turn).exists()


@pytest.mark.parametrize("text", ["", "   ", "x" * 4001])
def test_bad_requests_are_rejected_with_a_clear_error(owner: User, text: str) -> None:
    with pytest.raises(TurnRejected):
        turn_submit(owner=owner, text=text, enqueue=False)


class _WitnessExecutor:
    """Looks at what the runtime had committed when ``run`` was entered (test-only, never registered)."""

    manifest = Manifest(
        name="check_service",
        purpose="test executor: reports a service status",
        args={"service": ArgSpec("string", True, max_length=100)},
        result=ResultShape("value", ("status",)),
    )

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}
        self.on_enter: Callable[[], None] = lambda: None

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.on_enter()
        turn = Turn.objects.get(pk=context.turn_id or 0)
        self.seen = {
            "open_transaction": connection.in_atomic_block,
            "turn": (turn.status, turn.path, turn.plan, bool(turn.plan_digest), turn.conducted_by),
            "step": StepRecord.objects.filter(turn=turn).values_list("index", "outcome").get(),
            "trace": list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("sequence", "kind")),
        }
        return StepResult(outcome="success", value={"status": "ok"}, summary="ok")


def _as_the_worker(owner: User, text: str, catalog: Catalog) -> Turn:
    """What ``run_turn`` does with a delivered turn, against a test catalog."""
    turn = turn_submit(owner=owner, text=text, enqueue=False)
    assert turn_claim(turn_id=turn.pk, owner_id=owner.pk)
    return turn_conduct(turn=turn_get_for_owner(owner_id=owner.pk, turn_id=turn.pk), catalog=catalog)


@pytest.mark.django_db(transaction=True)
def test_a_fast_path_turn_commits_everything_before_its_executor_runs_in_one_transaction(owner: User) -> None:
    witness = _WitnessExecutor()
    catalog = build_catalog({"check_service": witness})
    request = "check the status of the backup service"
    plan = {"steps": [{"tool": "check_service", "args": {"service": "backup"}}]}
    plan_cache_store(turn=turn_submit(owner=owner, text=request, enqueue=False), plan=plan, catalog=catalog)

    with CaptureQueriesContext(connection) as queries:
        before: list[str] = []
        witness.on_enter = lambda: before.extend(query["sql"] for query in queries.captured_queries)
        turn = _as_the_worker(owner, request, catalog)

    assert turn.path == Turn.Path.FAST_PATH and turn.status == Turn.Status.COMPLETED, turn.answer
    # When the effect can start, the running step, the plan it runs and the trace so far are committed.
    assert witness.seen["open_transaction"] is False
    status, path, _, has_digest, conducted_by = witness.seen["turn"]
    assert (status, path, has_digest, conducted_by) == ("running", "fast_path", True, conductor_identity())
    assert witness.seen["turn"][2] == plan
    assert witness.seen["step"] == (1, "running")
    assert witness.seen["trace"] == [(1, "path.chosen"), (2, "plan.accepted"), (3, "step.started")]
    # ... in one transaction after the request's own and the claim: no commit per trace entry.
    claim = next(i for i, sql in enumerate(before) if sql.startswith("UPDATE") and "conducted_by" in sql)
    transactions, writes_outside = 0, []
    inside = False
    for sql in before[claim + 1 :]:
        if sql.startswith("BEGIN"):
            transactions, inside = transactions + 1, True
        elif sql.startswith("COMMIT"):
            inside = False
        elif sql.startswith(("INSERT", "UPDATE", "DELETE")) and not inside:
            writes_outside.append(sql)
    assert (transactions, writes_outside) == (1, [])


def test_an_undo_receipt_and_the_conductor_share_one_gapless_trace(owner: User, purchasing: Path) -> None:
    ask(owner, QUOTES_REQUEST)
    undo = ask(owner, "undo the last turn")
    assert undo.status == Turn.Status.COMPLETED, undo.answer
    # The undo executor wrote its receipt into this trace while the conductor was recording it.
    trace = list(TraceEvent.objects.filter(turn=undo).order_by("sequence").values_list("sequence", "kind"))
    assert [sequence for sequence, _ in trace] == list(range(1, len(trace) + 1))
    assert [kind for _, kind in trace] == [
        "path.chosen", "plan.accepted", "step.started", "undo.receipt", "step.finished", "turn.finished",
    ]  # fmt: skip


def test_a_trace_written_before_the_conductor_started_is_continued_not_overwritten(owner: User) -> None:
    turn = turn_submit(owner=owner, text="book me a flight to Lisbon", enqueue=False)
    TraceEvent.objects.create(owner=owner, turn=turn, sequence=1, kind="note.before", data={})
    turn_conduct(turn=turn)
    kinds = list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("sequence", "kind"))
    assert kinds == [(1, "note.before"), (2, "path.chosen"), (3, "turn.finished")]


def test_entries_recorded_while_an_executor_runs_are_written_at_once(owner: User) -> None:
    turn = turn_submit(owner=owner, text="check the status of the backup service", enqueue=False)
    recorder = TurnRecorder(turn)
    with recorder.holding():
        recorder.record("path.chosen", {"path": "fast_path"})
        assert not TraceEvent.objects.filter(turn=turn).exists()  # held for the next write
        with recorder.at_once():  # what the boundary does around run()
            assert TraceEvent.objects.filter(turn=turn).count() == 1  # what was held goes first
            recorder.record("input.requested", {"step": 1})  # an executor asking the user, then waiting
            assert TraceEvent.objects.filter(turn=turn).count() == 2
        recorder.record("step.finished", {"step": 1})
        assert TraceEvent.objects.filter(turn=turn).count() == 2
    kinds = list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("sequence", "kind"))
    assert kinds == [(1, "path.chosen"), (2, "input.requested"), (3, "step.finished")]
