"""Other apps and tests use only the documented API of apps.records and apps.documents (docs/records.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
# Modules the work is split into behind a public door; callers import from the door.
PRIVATE_MODULES = frozenset(
    {
        "apps.records.identity_codes",
        "apps.records.identity_rows",
        "apps.records.identity_table",
        "apps.records.identity_results",
        "apps.records.identity_links",
    }
)


def _imports_from_outside() -> dict[tuple[str, str], set[str]]:
    """``(module, name)`` imported from apps.records / apps.documents by files outside the owning app."""
    found: dict[tuple[str, str], set[str]] = {}
    for folder in ("apps", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ImportFrom) or not node.module:
                    continue
                parts = node.module.split(".")
                if parts[:2] not in (["apps", "records"], ["apps", "documents"]):
                    continue
                if relative.startswith(f"apps/{parts[1]}/"):
                    continue  # the app itself
                for alias in node.names:
                    found.setdefault((node.module, alias.name), set()).add(relative)
    return found


def test_every_name_used_outside_the_records_and_documents_apps_is_documented() -> None:
    undocumented = sorted(
        f"{module}.{name} (used in {', '.join(sorted(users))})"
        for (module, name), users in _imports_from_outside().items()
        if not re.search(rf"\b{re.escape(name)}\b", DOCUMENTED)
    )
    assert undocumented == []


def test_no_caller_imports_a_private_identity_module() -> None:
    private = sorted(
        f"{module}.{name} in {', '.join(sorted(users))}"
        for (module, name), users in _imports_from_outside().items()
        if module in PRIVATE_MODULES
    )
    assert private == []
