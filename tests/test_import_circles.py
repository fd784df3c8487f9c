"""No module of ``apps`` imports a module that imports it back.

An import inside a function counts as much as one at the top of the file: it
hides a circle from the reader, not from the design (the task modules that
services imported lazily were such circles). Imports under ``TYPE_CHECKING``
never run and do not count, as for import-linter. The check is run first on
a small package that breaks it, so a check that could not fail would fail here.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest


def import_circles(*packages: str) -> dict[frozenset[str], str]:
    """Every circle of imports inside ``packages``: its modules, and one way round it."""
    graph = grimp.build_graph(*packages, exclude_type_checking_imports=True, cache_dir=None)
    circles: dict[frozenset[str], str] = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is None:
                continue
            circle = frozenset(back)
            circles.setdefault(circle, " -> ".join((importer, *back)))
    return circles


def test_the_circle_check_finds_an_import_back_inside_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "house"
    package.mkdir()
    for name, source in {
        "__init__.py": "",
        "services.py": "def enqueue():\n    from house.tasks import run\n    return run\n",
        "tasks.py": "from house.services import enqueue\n\ndef run():\n    return enqueue\n",
        "engine.py": "from house import steps\n",
        "steps.py": "def later():\n    import house.parts\n",
        "parts.py": "from house.engine import *\n",
        "typing_only.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from house import plain\n",
        "plain.py": "from house import typing_only\n",
    }.items():
        (package / name).write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))

    circles = import_circles("house")

    assert sorted(circles.values()) == [
        "house.engine -> house.steps -> house.parts -> house.engine",
        "house.services -> house.tasks -> house.services",
    ]


def test_no_module_of_apps_imports_a_module_that_imports_it_back() -> None:
    assert sorted(import_circles("apps").values()) == []
