"""The rules of the house that a document alone would not keep.

* The invocation boundary (``apps/runtime/boundary.py``) is the one door
  every executor call crosses: an ``ExecutionContext`` is built only there,
  and nowhere else does code hand a context it received to an executor's
  ``run`` (that would be one executor running another outside the checks).
* The import layers of ``pyproject.toml`` hold (import-linter).

Each check is run first on a small source that breaks it, so a check that
could not fail would fail here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUNDARY = ROOT / "apps" / "runtime" / "boundary.py"
CONTEXT = "ExecutionContext"


def _app_sources() -> list[Path]:
    return sorted(path for path in (ROOT / "apps").rglob("*.py") if "migrations" not in path.parts)


def _annotation_names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    } | {  # string annotations under `from __future__ import annotations` stay names in the tree
        part for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
        for part in n.value.replace("|", " ").split()
    }  # fmt: skip


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def boundary_offences(source: str, name: str) -> list[str]:
    """Where ``source`` builds an execution context or passes a received one to a ``run`` call."""
    offences: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) == CONTEXT:
            offences.append(f"{name}:{node.lineno} builds an {CONTEXT}")
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        contexts = {arg.arg for arg in arguments if CONTEXT in _annotation_names(arg.annotation)}
        if not contexts:
            continue
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            passed = {a.id for a in [*call.args, *(k.value for k in call.keywords)] if isinstance(a, ast.Name)}
            if not passed & contexts:
                continue
            if _called(call) == "run":
                offences.append(f"{name}:{call.lineno} passes its {CONTEXT} to another run()")
            elif _called(call) == "replace":
                offences.append(f"{name}:{call.lineno} copies its {CONTEXT}")
    return sorted(set(offences), key=lambda offence: int(offence.split(":")[1].split()[0]))


def test_the_boundary_check_finds_an_executor_run_outside_the_boundary() -> None:
    source = (
        "from apps.runtime.executors import ExecutionContext\n"
        "def sneaky(owner):\n"
        "    return other.run(ExecutionContext(owner=owner), {})\n"
        "class Wrapper:\n"
        "    def run(self, context: 'ExecutionContext', args):\n"
        "        return self.inner.run(context, args)\n"
        "    def again(self, context: ExecutionContext | None):\n"
        "        return dataclasses.replace(context, step_index=2)\n"
    )
    offences = boundary_offences(source, "example.py")
    assert offences == [
        "example.py:3 builds an ExecutionContext",
        "example.py:6 passes its ExecutionContext to another run()",
        "example.py:8 copies its ExecutionContext",
    ]


def test_executors_run_and_their_context_is_built_only_inside_the_invocation_boundary() -> None:
    offences = [
        offence
        for path in _app_sources()
        if path != BOUNDARY
        for offence in boundary_offences(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert offences == []
    # The boundary itself does both, exactly once each.
    boundary = ast.parse(BOUNDARY.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(boundary) if isinstance(n, ast.Call)]
    builds = [n for n in calls if _called(n) == CONTEXT]
    runs = [n for n in calls if _called(n) == "run"]
    assert len(builds) == 1
    assert [ast.unparse(n.func) for n in runs] == ["executor.run"]


def _lint_imports(*, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    executable = Path(sys.executable).with_name("lint-imports")
    assert executable.exists(), "import-linter is not installed (requirements/dev.txt)"
    return subprocess.run(
        [str(executable), "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_import_layers_hold() -> None:
    result = _lint_imports(cwd=ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_layer_check_finds_an_import_back_up(tmp_path: Path) -> None:
    package = tmp_path / "house"
    for name, source in {
        "__init__.py": "",
        "low.py": "def f():\n    from house import high\n    return high\n",
        "high.py": "from house import low\n",
    }.items():
        package.mkdir(exist_ok=True)
        (package / name).write_text(source)
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_package = house\n\n[importlinter:contract:layers]\n"
        "name = layers\ntype = layers\nlayers =\n    house.high\n    house.low\n"
    )
    result = _lint_imports(cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode != 0
    assert "house.low is not allowed to import house.high" in result.stdout
