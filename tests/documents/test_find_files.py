"""find_files and resolve_owner_path: only inside the owner's files root."""

from __future__ import annotations

import os
from datetime import UTC
from pathlib import Path

import pytest

from apps.accounts.models import User
from apps.documents.files import (
    FileAccessRefused,
    FolderNotFound,
    find_files,
    owner_files_root,
    resolve_owner_path,
)
from apps.documents.limits import FIND_MAX_LIMIT

pytestmark = pytest.mark.django_db


def write(root: Path, relative: str, content: bytes = b"x") -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


@pytest.fixture
def root(owner: User) -> Path:
    return owner_files_root(owner=owner)


def test_files_root_is_created_per_owner_under_files_root(owner: User, second_user: User, document_roots) -> None:
    assert owner_files_root(owner=owner) == document_roots["files"] / str(owner.pk)
    assert owner_files_root(owner=second_user) == document_roots["files"] / str(second_user.pk)
    assert owner_files_root(owner=owner).is_dir()


def test_tilde_purchasing_names_the_folder_in_the_owner_root(owner: User, root: Path) -> None:
    write(root, "Purchasing/INV-001.pdf", b"12345")
    write(root, "Other/INV-002.pdf")

    result = find_files(owner=owner, base_path="~/Purchasing", pattern="*.pdf")

    assert [found.path for found in result.files] == ["Purchasing/INV-001.pdf"]
    assert result.files[0].size == 5
    assert result.files[0].modified_at.tzinfo == UTC
    assert result.base_path == "Purchasing"
    assert not result.truncated


@pytest.mark.parametrize("base_path", ["~", "~/", "", ".", "./"])
def test_tilde_and_empty_base_mean_the_owner_root(owner: User, root: Path, base_path: str) -> None:
    write(root, "a.txt")
    assert [found.path for found in find_files(owner=owner, base_path=base_path).files] == ["a.txt"]


def test_pattern_matches_file_names_recursively_ignoring_case(owner: User, root: Path) -> None:
    write(root, "Purchasing/2026/07/INV-7.PDF")
    write(root, "Purchasing/2026/08/INV-8.pdf")
    write(root, "Purchasing/notes.txt")
    write(root, "Purchasing/pdf-folder/readme.md")

    result = find_files(owner=owner, base_path="Purchasing", pattern="*.pdf")

    assert [found.path for found in result.files] == ["Purchasing/2026/07/INV-7.PDF", "Purchasing/2026/08/INV-8.pdf"]
    assert result.matched == 2


def test_non_recursive_search_stays_in_the_base_folder(owner: User, root: Path) -> None:
    write(root, "Purchasing/top.pdf")
    write(root, "Purchasing/deeper/inner.pdf")

    result = find_files(owner=owner, base_path="~/Purchasing", pattern="*.pdf", recursive=False)

    assert [found.path for found in result.files] == ["Purchasing/top.pdf"]


def test_results_are_sorted_folder_by_folder(owner: User, root: Path) -> None:
    for relative in ["b.txt", "a/z.txt", "a-b.txt", "a/b/c.txt", "A.txt"]:
        write(root, relative)

    paths = [found.path for found in find_files(owner=owner, base_path="~").files]

    assert paths == sorted(paths, key=lambda path: tuple(path.split("/")))
    assert paths == ["A.txt", "a/b/c.txt", "a/z.txt", "a-b.txt", "b.txt"]


def test_limit_cuts_the_sorted_results_and_says_truncated(owner: User, root: Path) -> None:
    for number in range(5):
        write(root, f"Purchasing/INV-{number}.pdf")

    limited = find_files(owner=owner, base_path="~/Purchasing", pattern="*.pdf", limit=3)
    exact = find_files(owner=owner, base_path="~/Purchasing", pattern="*.pdf", limit=5)

    assert [found.path for found in limited.files] == [f"Purchasing/INV-{n}.pdf" for n in range(3)]
    assert limited.truncated is True
    assert limited.matched == 5
    assert exact.truncated is False
    assert len(exact.files) == 5


def test_scan_bound_marks_the_result_truncated(owner: User, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("apps.documents.files.FIND_MAX_SCANNED_ENTRIES", 3)
    for number in range(6):
        write(root, f"f{number}.txt")

    result = find_files(owner=owner, base_path="~")

    assert result.truncated is True
    assert len(result.files) == 3


@pytest.mark.parametrize("limit", [0, -1, FIND_MAX_LIMIT + 1])
def test_limit_outside_its_bounds_is_rejected(owner: User, limit: int) -> None:
    with pytest.raises(ValueError, match="limit"):
        find_files(owner=owner, base_path="~", limit=limit)


@pytest.mark.parametrize(
    "base_path",
    ["..", "../x", "a/../../b", "Purchasing/../..", "a/../b", "~/../other", "..\\x", "Purchasing\\..\\.."],
)
def test_traversal_is_refused(owner: User, root: Path, base_path: str) -> None:
    (root / "a" / "b").mkdir(parents=True)
    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path=base_path)
    assert refused.value.reason == "traversal"
    assert ".." in str(refused.value)


@pytest.mark.parametrize("base_path", ["/etc", "/", "//server/share", "C:\\Windows", "c:/x"])
def test_absolute_paths_are_refused(owner: User, base_path: str) -> None:
    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path=base_path)
    assert refused.value.reason == "absolute_path"
    assert "Absolute paths are not allowed" in str(refused.value)


def test_nul_byte_is_refused(owner: User, root: Path) -> None:
    (root / "Purchasing").mkdir()
    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path="Purchasing\x00/../../etc")
    assert refused.value.reason == "nul_byte"


def test_another_users_home_is_refused(owner: User) -> None:
    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path="~root/Purchasing")
    assert refused.value.reason == "invalid_path"


@pytest.mark.parametrize("pattern", ["../*", "a/*.pdf", "*\\*", "", "  ", "*\x00"])
def test_patterns_with_folders_or_nul_are_refused(owner: User, pattern: str) -> None:
    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path="~", pattern=pattern)
    assert refused.value.reason == "invalid_pattern"


def test_base_folder_linked_outside_the_root_is_refused_not_followed(owner: User, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.pdf")
    (root / "escape").symlink_to(outside, target_is_directory=True)

    with pytest.raises(FileAccessRefused) as refused:
        find_files(owner=owner, base_path="~/escape")

    assert refused.value.reason == "symlink_outside_root"
    assert str(outside) not in str(refused.value)


def test_matched_file_linked_outside_the_root_is_skipped_and_never_listed(
    owner: User, root: Path, tmp_path: Path
) -> None:
    outside = write(tmp_path / "outside", "passwd.pdf")
    write(root, "Purchasing/real.pdf")
    (root / "Purchasing" / "leak.pdf").symlink_to(outside)

    result = find_files(owner=owner, base_path="~/Purchasing", pattern="*.pdf")

    assert [found.path for found in result.files] == ["Purchasing/real.pdf"]
    assert [(skip.path, skip.reason) for skip in result.skipped] == [("Purchasing/leak.pdf", "symlink_outside_root")]
    with pytest.raises(FileAccessRefused) as refused:
        resolve_owner_path(owner=owner, relative_path="Purchasing/leak.pdf")
    assert refused.value.reason == "symlink_outside_root"


def test_link_to_a_file_inside_the_root_is_listed_under_its_own_path(owner: User, root: Path) -> None:
    target = write(root, "Archive/INV-1.pdf", b"abc")
    (root / "Purchasing").mkdir()
    (root / "Purchasing" / "latest.pdf").symlink_to(target)

    result = find_files(owner=owner, base_path="Purchasing", pattern="*.pdf")

    assert [(found.path, found.size) for found in result.files] == [("Purchasing/latest.pdf", 3)]


def test_links_to_folders_are_not_descended_so_a_loop_ends(owner: User, root: Path) -> None:
    write(root, "a/file.txt")
    (root / "a" / "loop").symlink_to(root, target_is_directory=True)

    result = find_files(owner=owner, base_path="~")

    assert [found.path for found in result.files] == ["a/file.txt"]


def test_missing_base_folder_is_a_typed_error(owner: User, root: Path) -> None:
    write(root, "Purchasing.pdf")
    with pytest.raises(FolderNotFound):
        find_files(owner=owner, base_path="~/Purchasing")
    with pytest.raises(FolderNotFound):
        find_files(owner=owner, base_path="~/Purchasing.pdf")


def test_each_owner_searches_only_their_own_root(owner: User, second_user: User, root: Path) -> None:
    write(root, "Purchasing/mine.pdf")
    (owner_files_root(owner=second_user) / "Purchasing").mkdir()

    result = find_files(owner=second_user, base_path="~/Purchasing")

    assert result.files == ()


def test_resolve_owner_path_returns_a_path_inside_the_root(owner: User, root: Path) -> None:
    write(root, "Purchasing/a.pdf")
    resolved = resolve_owner_path(owner=owner, relative_path="~/Purchasing/a.pdf")
    assert resolved == Path(os.path.realpath(root)) / "Purchasing" / "a.pdf"


@pytest.mark.parametrize(
    ("relative_path", "reason"),
    [("../x", "traversal"), ("/etc/passwd", "absolute_path"), ("a\x00b", "nul_byte"), ("~x", "invalid_path")],
)
def test_resolve_owner_path_applies_the_same_checks(owner: User, relative_path: str, reason: str) -> None:
    with pytest.raises(FileAccessRefused) as refused:
        resolve_owner_path(owner=owner, relative_path=relative_path)
    assert refused.value.reason == reason
