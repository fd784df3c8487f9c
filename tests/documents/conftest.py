"""Each documents test gets its own empty files and downloads roots."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings


@pytest.fixture(autouse=True)
def document_roots(tmp_path: Path) -> Iterator[dict[str, Path]]:
    files_root = tmp_path / "files"
    downloads_root = tmp_path / "downloads"
    with override_settings(FILES_ROOT=files_root, DOWNLOADS_ROOT=downloads_root):
        yield {"files": files_root, "downloads": downloads_root}
