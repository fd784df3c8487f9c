"""Other apps and tests use only the documented API of apps.records and apps.documents (docs/records.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
# Modules internal to their package: nothing outside it imports them.
PRIVATE_MODULES = frozenset({"apps.records.identity.table", "apps.records.dates.grammar"})
RECORDS = ROOT / "apps" / "records"
PACKAGES = sorted(path.parent for path in RECORDS.rglob("__init__.py") if path.parent != RECORDS)


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


def test_no_caller_imports_a_private_module() -> None:
    private = sorted(
        f"{module}.{name} in {', '.join(sorted(users))}"
        for (module, name), users in _imports_from_outside().items()
        if module in PRIVATE_MODULES
    )
    assert private == []


def test_the_records_packages_are_docstrings_not_doors() -> None:
    # Callers import the module that defines a name; a package re-exporting names would be a second door.
    assert PACKAGES, "apps/records has packages"
    for package in PACKAGES:
        tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{package.name}/__init__.py says what the package owns"
        assert len(tree.body) == 1, f"{package.name}/__init__.py holds only its docstring"


def test_nothing_imports_from_a_records_package_itself() -> None:
    doors = {"apps.records." + package.name for package in PACKAGES}
    found = sorted(
        f"{module}.{name} in {', '.join(sorted(users))}"
        for (module, name), users in _imports_from_outside().items()
        if module in doors
    )
    assert found == []
