"""Provenance at the invocation boundary: a value from another step becomes a path or a recipient only if verified.

Turns run through the real conductor and boundary with the real file
executors (``find_files``, ``read_files``, ``delete_files``) next to small
test executors: producers that hand on whatever text they were given (as a
model reading a document might) and consumers that record whether they ran.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import (
    Catalog,
    ExecutionContext,
    Executor,
    StepResult,
    build_catalog,
    registered_executors,
)
from apps.runtime.manifests import ArgSpec, Manifest, ManifestError, ResultShape, SensitiveKind
from apps.runtime.models import ConsentRequest, StepRecord, TraceEvent, Turn
from apps.runtime.plans.api import Plan, ResolvedArgs, Step, validate_plan
from apps.runtime.provenance import PROVENANCE_CODES, ProvenanceRefused, step_provenance_verify
from apps.runtime.turns import turn_conduct, turn_submit
from tests.runtime.conftest import owner_folder

pytestmark = pytest.mark.django_db

TEXTS = ArgSpec("array", required=True, items="string", max_items=10)


@dataclass
class Teller:
    """A producer that hands on the texts it was given as ``path`` and ``email`` (a value, or one item each)."""

    manifest: Manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        texts = list(args["texts"])
        if self.manifest.result.kind == "value":
            return StepResult(outcome="success", value={"path": texts[0], "email": texts[0]})
        return StepResult(outcome="success", items=tuple({"path": text, "email": text} for text in texts))


@dataclass
class Recorder:
    """A consumer that records the arguments it ran with."""

    manifest: Manifest
    ran: list[dict[str, Any]] = field(default_factory=list)

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.ran.append(dict(args))
        return StepResult(outcome="success", value={"done": True}, summary="done")


def _teller(name: str, kind: str, marks: Mapping[str, SensitiveKind] | None = None) -> Teller:
    result = ResultShape(kind, ("path", "email"), sensitive_fields=dict(marks or {}))  # type: ignore[arg-type]
    return Teller(Manifest(name=name, purpose=f"test producer {name}", args={"texts": TEXTS}, result=result))


def _recorder(name: str, args: Mapping[str, ArgSpec]) -> Recorder:
    return Recorder(
        Manifest(name=name, purpose=f"test consumer {name}", args=args, result=ResultShape("value", ("done",)))
    )


@pytest.fixture
def consumers() -> dict[str, Recorder]:
    return {
        recorder.manifest.name: recorder
        for recorder in (
            _recorder("open_declared", {"source": ArgSpec("path", True, sensitive="path", accepts_step_values=True)}),
            _recorder("open_undeclared", {"source": ArgSpec("path", True, sensitive="path")}),
            _recorder(
                "send_declared",
                {"recipient": ArgSpec("string", True, sensitive="recipient", accepts_step_values=True)},
            ),
            _recorder("gather_paths", {"from_step": ArgSpec("collection", True, item_sensitive={"path": "path"})}),
            _recorder("mail_each", {"from_step": ArgSpec("collection", True, item_sensitive={"email": "recipient"})}),
        )
    }


@pytest.fixture
def catalog(consumers: dict[str, Recorder]) -> Catalog:
    executors: dict[str, Executor] = dict(registered_executors())
    executors.update(consumers)
    for teller in (
        _teller("tell_value", "value"),
        _teller("tell_items", "collection"),
        _teller("tell_marked_items", "collection", {"path": "path"}),
    ):
        executors[teller.manifest.name] = teller
    return build_catalog(executors)


def run_plan(owner: User, catalog: Catalog, *steps: tuple[str, dict[str, Any]]) -> Turn:
    plan = {"steps": [{"tool": tool, "args": args} for tool, args in steps]}
    return turn_conduct(turn=turn_submit(owner=owner, text="", plan=plan, enqueue=False), catalog=catalog)


def outcomes(turn: Turn) -> list[str]:
    return list(StepRecord.objects.filter(turn=turn).order_by("index").values_list("outcome", flat=True))


def refusal(turn: Turn) -> dict[str, Any]:
    (event,) = TraceEvent.objects.filter(turn=turn, kind="control.refused")
    return dict(event.data)


def verified(turn: Turn) -> list[dict[str, Any]]:
    return [dict(event.data) for event in TraceEvent.objects.filter(turn=turn, kind="control.provenance_verified")]


@pytest.fixture
def secret(second_user: User, files_root: Path) -> Path:
    """A file of another user: what an escaping path would reach."""
    path = owner_folder(files_root, second_user, "Private") / "secret.pdf"
    path.write_bytes(b"%PDF-1.4 not yours")
    return path


def escapes(kind: str, root: Path, secret: Path) -> str:
    """A path from ``~/Purchasing`` that reaches ``secret`` (another user's file), written in one of three ways."""
    if kind == "traversal":
        return f"~/Purchasing/../../{secret.parent.parent.name}/Private/{secret.name}"
    if kind == "absolute":
        return str(secret)
    link = root / "Purchasing" / "shared"
    link.symlink_to(secret.parent, target_is_directory=True)
    return f"~/Purchasing/shared/{secret.name}"


ESCAPE_CODES = {
    "traversal": "provenance_path_traversal",
    "absolute": "provenance_path_absolute",
    "symlink": "provenance_path_outside_root",
}


# --- a path argument that declares it accepts values from other steps -------------------------------------------------


def find_quote_then(owner: User, catalog: Catalog, consumer: str) -> Turn:
    """``find_files`` finds ~/Purchasing/quote1.pdf; ``consumer`` gets its path as ``source``."""
    return run_plan(
        owner, catalog,
        ("find_files", {"base_path": "~/Purchasing", "pattern": "quote1.pdf"}),
        (consumer, {"source": "{{step1.first.path}}"}),
    )  # fmt: skip


def test_declared_path_from_a_step_inside_the_owners_files_is_verified_and_accepted(
    owner: User, purchasing: Path, catalog: Catalog, consumers: dict[str, Recorder]
) -> None:
    turn = find_quote_then(owner, catalog, "open_declared")
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert consumers["open_declared"].ran == [{"source": "Purchasing/quote1.pdf"}]
    assert verified(turn) == [{"step": 2, "tool": "open_declared", "verified": {"source": 1}}]


def test_the_same_path_is_refused_where_the_argument_does_not_declare_it(
    owner: User, purchasing: Path, catalog: Catalog, consumers: dict[str, Recorder]
) -> None:
    turn = find_quote_then(owner, catalog, "open_undeclared")
    assert turn.status == Turn.Status.FAILED
    assert "does not accept values from other steps" in turn.answer
    assert consumers["open_undeclared"].ran == []
    assert not StepRecord.objects.filter(turn=turn).exclude(outcome=StepRecord.Outcome.SKIPPED).exists()


def test_the_boundary_refuses_an_undeclared_path_even_if_resolution_let_it_through(
    owner: User, purchasing: Path, catalog: Catalog
) -> None:
    # A plan the validator would refuse, held as if it had slipped through.
    plan = Plan((Step("tell_value", {"texts": ["x"]}), Step("open_undeclared", {"source": "{{step1.path}}"})))
    resolved = ResolvedArgs({"source": "~/Purchasing/quote1.pdf"}, {"source": frozenset({1})})
    with pytest.raises(ProvenanceRefused) as refused:
        step_provenance_verify(owner=owner, plan=plan, index=2, catalog=catalog, resolved=resolved)
    assert (refused.value.code, refused.value.argument, refused.value.sources) == (
        "provenance_undeclared", "source", frozenset({1}),
    )  # fmt: skip


@pytest.mark.parametrize("escape", ["traversal", "absolute", "symlink"])
def test_declared_path_from_a_step_outside_the_owners_files_is_refused(
    escape: str, owner: User, root: Path, purchasing: Path, secret: Path, catalog: Catalog,
    consumers: dict[str, Recorder],
) -> None:  # fmt: skip
    path = escapes(escape, root, secret)
    turn = run_plan(owner, catalog, ("tell_value", {"texts": [path]}), ("open_declared", {"source": "{{step1.path}}"}))

    assert consumers["open_declared"].ran == []
    assert outcomes(turn) == ["success", "skipped"]
    assert refusal(turn) == {
        "step": 2, "tool": "open_declared", "reason": ESCAPE_CODES[escape],
        "argument": "source", "kind": "path", "sources": [1],
    }  # fmt: skip
    assert "step 2 (open_declared): argument 'source': the path" in turn.answer
    assert turn.status == Turn.Status.PARTIAL  # step 1 did its work; nothing else ran


def test_a_path_on_a_device_cannot_be_verified(owner: User, purchasing: Path, catalog: Catalog) -> None:
    plan = validate_plan(
        {"steps": [{"tool": "tell_value", "args": {"texts": ["x"]}},
                   {"tool": "open_declared", "args": {"source": "{{step1.path}}"}}]},
        catalog,
    )  # fmt: skip
    resolved = ResolvedArgs({"source": "~/Purchasing/quote1.pdf"}, {"source": frozenset({1})})
    assert step_provenance_verify(owner=owner, plan=plan, index=2, catalog=catalog, resolved=resolved) == {"source": 1}
    with pytest.raises(ProvenanceRefused) as refused:
        step_provenance_verify(
            owner=owner, plan=plan, index=2, catalog=catalog, resolved=resolved, destination="device"
        )
    assert refused.value.code == "provenance_unverifiable"


# --- collections passed with from_step --------------------------------------------------------------------------------


def test_delete_files_refuses_a_collection_with_one_item_outside_the_owners_files(
    owner: User, root: Path, purchasing: Path, secret: Path, catalog: Catalog
) -> None:
    inside = "~/Purchasing/quote1.pdf"
    outside = escapes("traversal", root, secret)
    turn = run_plan(
        owner, catalog,
        ("tell_marked_items", {"texts": [inside, outside]}),
        ("delete_files", {"from_step": 1}),
    )  # fmt: skip

    assert refusal(turn) == {
        "step": 2, "tool": "delete_files", "reason": "provenance_path_traversal",
        "argument": "from_step", "kind": "path", "sources": [1], "item": 2, "item_field": "path",
    }  # fmt: skip
    assert outcomes(turn) == ["success", "skipped"]
    refused_step = StepRecord.objects.get(turn=turn, index=2)
    assert refused_step.error_code == "provenance_path_traversal"  # the record says why it did not run
    assert not ConsentRequest.objects.filter(turn=turn).exists()  # refused before anything is even proposed
    assert (purchasing / "quote1.pdf").exists() and secret.exists()
    assert f"the path {outside!r} in field 'path' of item 2 from step 1 climbs out of its folder" in turn.answer


def test_delete_files_verifies_the_paths_of_its_items_even_from_an_unmarked_producer(
    owner: User, root: Path, purchasing: Path, secret: Path, catalog: Catalog
) -> None:
    outside = escapes("traversal", root, secret)
    turn = run_plan(
        owner, catalog,
        ("tell_items", {"texts": ["~/Purchasing/quote1.pdf", outside]}),
        ("delete_files", {"from_step": 1}),
    )  # fmt: skip
    assert refusal(turn)["reason"] == "provenance_path_traversal"
    assert not ConsentRequest.objects.filter(turn=turn).exists()
    assert (purchasing / "quote1.pdf").exists() and secret.exists()


def find_pdfs_then(owner: User, catalog: Catalog, consumer: str) -> Turn:
    """``find_files`` lists the PDFs in ~/Purchasing; ``consumer`` takes them with ``from_step``."""
    plan = (("find_files", {"base_path": "~/Purchasing", "pattern": "*.pdf"}), (consumer, {"from_step": 1}))
    return run_plan(owner, catalog, *plan)


def test_delete_files_from_find_files_inside_the_owners_files_still_asks_to_confirm(
    owner: User, purchasing: Path, catalog: Catalog
) -> None:
    turn = find_pdfs_then(owner, catalog, "delete_files")
    assert turn.status == Turn.Status.AWAITING_CONFIRMATION, turn.answer
    assert len(list(purchasing.glob("*.pdf"))) == 3


@pytest.mark.parametrize("escape", ["traversal", "absolute", "symlink"])
def test_read_files_verifies_the_paths_of_items_it_declares_even_from_an_unmarked_producer(
    escape: str, owner: User, root: Path, purchasing: Path, secret: Path, catalog: Catalog
) -> None:
    turn = run_plan(
        owner, catalog,
        ("tell_items", {"texts": ["~/Purchasing/quote1.pdf", escapes(escape, root, secret)]}),
        ("read_files", {"from_step": 1}),
    )  # fmt: skip
    assert outcomes(turn) == ["success", "skipped"]
    assert refusal(turn)["reason"] == ESCAPE_CODES[escape]
    assert refusal(turn)["item"] == 2


def test_a_collection_inside_the_owners_files_reaches_its_consumer(
    owner: User, purchasing: Path, catalog: Catalog, consumers: dict[str, Recorder]
) -> None:
    turn = find_pdfs_then(owner, catalog, "gather_paths")
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert len(consumers["gather_paths"].ran) == 1
    assert verified(turn) == [{"step": 2, "tool": "gather_paths", "verified": {"from_step": 3}}]


# --- recipients -------------------------------------------------------------------------------------------------------


def test_a_recipient_from_a_step_is_refused_even_when_declared(
    owner: User, files_root: Path, catalog: Catalog, consumers: dict[str, Recorder]
) -> None:
    turn = run_plan(
        owner, catalog,
        ("tell_value", {"texts": ["boss@example.com"]}),
        ("send_declared", {"recipient": "{{step1.email}}"}),
    )  # fmt: skip
    assert consumers["send_declared"].ran == []
    assert outcomes(turn) == ["success", "skipped"]
    assert refusal(turn)["reason"] == "provenance_unverifiable"
    assert "no verifier for a recipient" in turn.answer


def test_recipients_in_collection_items_are_refused(
    owner: User, files_root: Path, catalog: Catalog, consumers: dict[str, Recorder]
) -> None:
    turn = run_plan(
        owner, catalog, ("tell_items", {"texts": ["a@example.com", "b@example.com"]}), ("mail_each", {"from_step": 1})
    )
    assert consumers["mail_each"].ran == []
    assert refusal(turn) | {"sources": None} == {
        "step": 2, "tool": "mail_each", "reason": "provenance_unverifiable", "argument": "from_step",
        "kind": "recipient", "sources": None, "item": 1, "item_field": "email",
    }  # fmt: skip


# --- declarations -----------------------------------------------------------------------------------------------------


def test_declarations_are_checked_and_only_declared_ones_change_the_signature() -> None:
    plain = Manifest(name="plain", purpose="p", args={"from_step": ArgSpec("collection")}, result=ResultShape("none"))
    assert "item_sensitive" not in plain.as_json()["args"]["from_step"]
    assert plain.as_json()["result"] == {"kind": "none", "fields": []}
    with pytest.raises(ManifestError, match="takes no collection"):
        Manifest(name="bad", purpose="p", args={"name": ArgSpec("string", item_sensitive={"x": "path"})},
                 result=ResultShape("none"))  # fmt: skip
    with pytest.raises(ManifestError, match="unknown sensitive kind"):
        Manifest(name="bad", purpose="p", args={"from_step": ArgSpec("collection", item_sensitive={"x": "url"})},  # type: ignore[dict-item]
                 result=ResultShape("none"))  # fmt: skip
    with pytest.raises(ManifestError, match="does not declare"):
        Manifest(name="bad", purpose="p", args={},
                 result=ResultShape("collection", ("name",), sensitive_fields={"path": "path"}))  # fmt: skip
    assert set(ESCAPE_CODES.values()) | {"provenance_unverifiable", "provenance_undeclared"} <= PROVENANCE_CODES
