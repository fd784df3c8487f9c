"""find_files and read_files executors: honest outcomes inside the owner's files only."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import ExecutionContext, StepResult
from apps.runtime.executors import files as file_executors
from apps.runtime.executors.files import (
    FIND_FILES_MANIFEST,
    READ_FILES_MANIFEST,
    FindFilesExecutor,
    ReadFilesExecutor,
    builtin_executors,
)
from tests.runtime.quotes import QUOTES, scanned_pdf, write_quotes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _isolated_files(files_root: Path) -> Path:
    return files_root


def context_for(user: User) -> ExecutionContext:
    return ExecutionContext(owner=user, turn_id=None, step_index=0)


def find(user: User, **args: Any) -> StepResult:
    return FindFilesExecutor().run(context_for(user), args)


def read(user: User, **args: Any) -> StepResult:
    return ReadFilesExecutor().run(context_for(user), args)


# --- Manifests -------------------------------------------------------------------------


def test_manifests_declare_paths_as_sensitive_and_the_result_fields() -> None:
    find_json = FIND_FILES_MANIFEST.as_json()
    assert find_json["args"]["base_path"] == {
        "type": "path", "required": True, "description": find_json["args"]["base_path"]["description"],
        "max_length": 1024, "sensitive": "path", "accepts_step_values": False,
    }  # fmt: skip
    assert find_json["result"] == {"kind": "collection", "fields": ["path", "name", "size", "modified_at"]}
    assert find_json["capabilities"] == ["files.read"]
    read_json = READ_FILES_MANIFEST.as_json()
    assert read_json["args"]["paths"]["sensitive"] == "path"
    assert read_json["args"]["paths"]["accepts_step_values"] is False
    assert read_json["args"]["from_step"]["type"] == "collection"
    assert set(read_json["result"]["fields"]) >= {"address", "outcome", "text", "pages", "error_code", "title"}
    for manifest in (FIND_FILES_MANIFEST, READ_FILES_MANIFEST):
        assert manifest.intelligence == "deterministic"
        assert manifest.placement == "server"
        assert manifest.consent.mode == "none"
        assert manifest.request_forms == ()


def test_builtin_executors_lists_both() -> None:
    assert [executor.manifest.name for executor in builtin_executors()] == ["find_files", "read_files"]


# --- find_files ---------------------------------------------------------------------------


def test_find_files_lists_matching_files_with_their_details(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    (root / "Purchasing" / "notes.txt").write_text("not a quote")

    result = find(owner, base_path="~/Purchasing", pattern="*.pdf")

    assert result.outcome == "success"
    assert [item["path"] for item in result.items] == [f"Purchasing/{quote.file_name}" for quote in QUOTES]
    first = result.items[0]
    assert first["name"] == "quote1.pdf"
    assert first["size"] == (root / "Purchasing" / "quote1.pdf").stat().st_size
    assert dt.datetime.fromisoformat(first["modified_at"]).tzinfo is not None
    assert result.value["matched"] == 3
    assert result.error is None


def test_find_files_searches_the_folder_itself_unless_recursive(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    write_quotes(root / "Purchasing" / "Archive")
    assert len(find(owner, base_path="~/Purchasing", pattern="*.pdf").items) == 3
    assert len(find(owner, base_path="~/Purchasing", pattern="*.pdf", recursive=True).items) == 6


def test_find_files_optional_arguments_set_to_none_take_their_defaults(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    result = find(owner, base_path="~/Purchasing", pattern=None, recursive=None)
    assert result.outcome == "success"
    assert (result.value["pattern"], result.value["recursive"]) == ("*", False)


def test_find_files_with_no_match_is_empty_not_a_failure(owner: User, root: Path) -> None:
    (root / "Purchasing").mkdir()
    result = find(owner, base_path="~/Purchasing", pattern="*.pdf")
    assert result.outcome == "empty"
    assert result.items == ()
    assert result.error is None


def test_find_files_truncated_is_partial_with_counts(owner: User, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_executors, "FIND_FILES_LIMIT", 2)
    write_quotes(root / "Purchasing")
    result = find(owner, base_path="~/Purchasing", pattern="*.pdf")
    assert result.outcome == "partial"
    assert len(result.items) == 2
    assert result.notices == ("3 files match; only the first 2 are listed (one search lists at most 2).",)


def test_find_files_missing_folder_fails_permanently(owner: User, root: Path) -> None:
    result = find(owner, base_path="~/Nowhere")
    assert result.outcome == "failed"
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "folder_not_found")
    assert "~/Nowhere" in result.error.message


@pytest.mark.parametrize("base_path", ["../other", "/etc", "~/../../etc", "~root", "Purchasing/../../x"])
def test_find_files_refuses_paths_out_of_the_root(owner: User, root: Path, base_path: str) -> None:
    result = find(owner, base_path=base_path)
    assert result.outcome == "failed"
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "access_refused")


def test_find_files_refuses_a_folder_link_leading_out(owner: User, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_quotes(outside)
    os.symlink(outside, root / "Escape")
    result = find(owner, base_path="~/Escape")
    assert result.error is not None and result.error.code == "access_refused"


def test_find_files_leaves_out_links_leading_out_and_says_so(owner: User, root: Path, tmp_path: Path) -> None:
    write_quotes(root / "Purchasing")
    outside = tmp_path / "secret.pdf"
    outside.write_bytes(b"%PDF")
    os.symlink(outside, root / "Purchasing" / "secret.pdf")
    result = find(owner, base_path="~/Purchasing", pattern="*.pdf")
    assert result.outcome == "partial"
    assert "Purchasing/secret.pdf" not in [item["path"] for item in result.items]
    assert any("outside your files" in notice for notice in result.notices)


def test_find_files_refuses_a_pattern_with_folders(owner: User, root: Path) -> None:
    result = find(owner, base_path="~", pattern="../*.pdf")
    assert result.error is not None and result.error.code == "invalid_pattern"


def test_find_files_never_sees_another_owners_files(owner: User, second_user: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    result = find(second_user, base_path="~", pattern="*.pdf", recursive=True)
    assert result.outcome == "empty"
    other = find(second_user, base_path="~/Purchasing")
    assert other.error is not None and other.error.code == "folder_not_found"


@pytest.mark.parametrize(
    "args", [{}, {"base_path": ""}, {"base_path": "~", "recursive": "yes"}, {"base_path": "~", "colour": "red"}]
)
def test_find_files_checks_its_arguments(owner: User, root: Path, args: Mapping[str, Any]) -> None:
    result = FindFilesExecutor().run(context_for(owner), args)
    assert result.error is not None and result.error.code == "invalid_arguments"


# --- read_files ---------------------------------------------------------------------------


def found_items(owner: User) -> tuple[Mapping[str, Any], ...]:
    return find(owner, base_path="~/Purchasing", pattern="*.pdf").items


def test_read_files_reads_every_found_file(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    result = read(owner, from_step=found_items(owner))
    assert result.outcome == "success"
    assert [item["address"] for item in result.items] == [f"Purchasing/{quote.file_name}" for quote in QUOTES]
    assert all(item["outcome"] == "read" and item["pages"] == 1 for item in result.items)
    assert "Fornitore: Alfa Ufficio S.r.l." in result.items[0]["text"]
    assert result.value == {"documents": 3, "read": 3, "not_read": 0}


def test_read_files_scan_is_partial_with_an_ocr_notice(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing", QUOTES[:2])
    (root / "Purchasing" / "quote3.pdf").write_bytes(scanned_pdf())
    result = read(owner, from_step=found_items(owner))
    assert result.outcome == "partial"
    assert result.error is None
    assert [item["outcome"] for item in result.items] == ["read", "read", "needs_ocr"]
    assert result.items[2]["text"] == ""
    assert "quote3.pdf needs optical character recognition (not run)." in result.notices


def test_read_files_with_nothing_readable_fails_but_keeps_every_item(owner: User, root: Path) -> None:
    folder = root / "Purchasing"
    folder.mkdir()
    (folder / "scan.pdf").write_bytes(scanned_pdf())
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a PDF")
    result = read(owner, from_step=found_items(owner))
    assert result.outcome == "failed"
    assert result.error is not None
    assert (result.error.error_class, result.error.code) == ("permanent", "nothing_readable")
    assert {item["address"]: item["outcome"] for item in result.items} == {
        "Purchasing/broken.pdf": "error",
        "Purchasing/scan.pdf": "needs_ocr",
    }
    assert any(item["error_code"] == "corrupt" for item in result.items)
    assert any("broken.pdf could not be read" in notice for notice in result.notices)


def test_read_files_takes_paths_and_reports_refused_ones_per_address(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing")
    result = read(owner, paths=["~/Purchasing/quote1.pdf", "../../etc/passwd", "~/Purchasing/missing.pdf"])
    assert result.outcome == "partial"
    assert [(item["outcome"], item["error_code"]) for item in result.items] == [
        ("read", None), ("error", "access_refused"), ("error", "not_found"),
    ]  # fmt: skip


def test_read_files_bounds_the_text_passed_on(owner: User, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_quotes(root / "Purchasing")
    first_length = len(read(owner, paths=["Purchasing/quote1.pdf"]).items[0]["text"])
    monkeypatch.setattr(file_executors, "READ_FILES_MAX_TEXT_CHARS", first_length + 10)
    result = read(owner, from_step=found_items(owner))
    assert result.outcome == "partial"
    assert sum(len(item["text"]) for item in result.items) == first_length + 10
    assert [item["truncated"] for item in result.items] == [False, True, True]
    assert any("quote2.pdf, quote3.pdf was cut" in notice for notice in result.notices)


def test_read_files_empty_collection_is_empty(owner: User, root: Path) -> None:
    assert read(owner, from_step=()).outcome == "empty"


@pytest.mark.parametrize(
    "args",
    [{}, {"from_step": [], "paths": ["a.pdf"]}, {"paths": "a.pdf"}, {"paths": [""]}],
)
def test_read_files_needs_exactly_one_source(owner: User, root: Path, args: Mapping[str, Any]) -> None:
    result = ReadFilesExecutor().run(context_for(owner), args)
    assert result.error is not None and result.error.code == "invalid_arguments"


def test_read_files_unresolved_reference_is_refused(owner: User, root: Path) -> None:
    result = read(owner, from_step=1)
    assert result.error is not None and result.error.code == "unresolved_reference"


def test_read_files_items_without_a_path_are_reported(owner: User, root: Path) -> None:
    write_quotes(root / "Purchasing", QUOTES[:1])
    result = read(owner, from_step=[{"path": "Purchasing/quote1.pdf"}, {"name": "x"}])
    assert result.outcome == "partial"
    assert len(result.items) == 1
    assert any("had no file path" in notice for notice in result.notices)
