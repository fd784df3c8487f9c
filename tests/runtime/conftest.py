"""Fixtures for runtime tests: an owner's files root with the three quotes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from tests.runtime.quotes import write_quotes

QUOTES_REQUEST = "Read the three quotes in the Purchasing folder, compare their prices, and create a summary table"


@pytest.fixture
def files_root(settings: Any, tmp_path: Path) -> Path:
    """Every file the test's owners have or download lives under ``tmp_path``."""
    settings.FILES_ROOT = tmp_path / "files"
    settings.DOWNLOADS_ROOT = tmp_path / "downloads"
    settings.FILES_ROOT.mkdir()
    return Path(settings.FILES_ROOT)


@pytest.fixture
def root(owner: User, files_root: Path) -> Path:
    """The owner's own files root."""
    folder = files_root / str(owner.pk)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def owner_folder(files_root: Path, owner: User, name: str) -> Path:
    folder = files_root / str(owner.pk) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def purchasing(files_root: Path, owner: User) -> Path:
    folder = owner_folder(files_root, owner, "Purchasing")
    write_quotes(folder)
    return folder
