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
from dataclasses import dataclass
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
        "from apps.runtime.executor import ExecutionContext\n"
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


# --- Each state has one owner -----------------------------------------------------------
#
# A turn's state (its status, answer, start, end and conductor) changes only in
# ``apps/runtime/lifecycle.py``; an LRE job's, phase's and batch's status only in
# ``apps/lre/transitions.py``. The scan below finds the ways code writes a model's
# fields: assigning an attribute of an object named after the model (``turn.status
# = …``, ``setattr(job, "status", …)``) or any attribute to the model's own
# ``Status`` value, saving named fields (``turn.save(update_fields=["status"])``),
# and ``update``/``create`` on the model's querysets (``Turn.objects….update(status=
# …)``) or with its ``Status`` values (``….update(status=Turn.Status.RUNNING)``), and
# the model's constructor. Other models' statuses (a browser job, a question, a
# panel) are told apart by their own names. The recorder's generic write of a
# turn's changed fields refuses these fields when it runs (``TurnRecorder.changed``).


@dataclass(frozen=True)
class StateOwner:
    """Models whose ``fields`` only ``owner`` (a path under the root) may write; ``words`` name their rows."""

    owner: str
    models: frozenset[str]
    fields: frozenset[str]
    words: frozenset[str]
    # Objects named after the model count only where the module imports it ("job" is also a browser job).
    words_need_import: bool


TURN_STATE = StateOwner(
    owner="apps/runtime/lifecycle.py",
    models=frozenset({"Turn"}),
    fields=frozenset({"status", "answer", "started_at", "finished_at", "conducted_by"}),
    words=frozenset({"turn", "turns"}),
    words_need_import=False,
)
LRE_STATE = StateOwner(
    owner="apps/lre/transitions.py",
    models=frozenset({"LreJob", "LrePhase", "LreBatch"}),
    fields=frozenset({"status"}),
    words=frozenset({"job", "jobs", "phase", "phases", "batch", "batches"}),
    words_need_import=True,
)
_WRITING_METHODS = frozenset({"update", "create", "get_or_create", "update_or_create", "bulk_update"})


def _chain(node: ast.expr) -> set[str]:
    """The names along a receiver such as ``Turn.objects.filter(...)``: {"Turn", "objects", "filter"}."""
    names: set[str] = set()
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            if isinstance(node, ast.Name):
                names.add(node.id)
            return names


def _named_after(node: ast.expr, state: StateOwner) -> bool:
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return bool(state.words & set(last.lower().split("_")))


def _status_value_of(node: ast.AST | None, state: StateOwner) -> bool:
    """Whether ``node`` mentions one of the models' own ``Status`` values (``Turn.Status.RUNNING``)."""
    return node is not None and any(
        isinstance(n, ast.Attribute) and n.attr == "Status" and _chain(n.value) & state.models for n in ast.walk(node)
    )


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def state_write_offences(source: str, name: str, state: StateOwner) -> list[str]:
    """Where ``source`` writes one of ``state``'s fields (see the comment above)."""
    tree = ast.parse(source)
    imported = any(
        isinstance(n, ast.ImportFrom) and any(alias.name in state.models for alias in n.names) for n in ast.walk(tree)
    )
    words = imported or not state.words_need_import
    offences: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            flat = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
            for target in flat:
                if not (isinstance(target, ast.Attribute) and target.attr in state.fields):
                    continue
                if (words and _named_after(target.value, state)) or _status_value_of(node.value, state):
                    offences.append(f"{name}:{node.lineno} assigns {ast.unparse(target)}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        keywords = {k.arg for k in node.keywords if k.arg} | {
            key for k in node.keywords if k.arg is None and isinstance(k.value, ast.Dict)
            for key in _strings(ast.Tuple(elts=[kk for kk in k.value.keys if kk is not None]))
        }  # fmt: skip
        if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) == 3:
            owned = _strings(node.args[1]) & state.fields
            if owned and words and _named_after(node.args[0], state):
                offences.append(f"{name}:{node.lineno} sets {ast.unparse(node.args[0])}.{min(owned)}")
        elif isinstance(func, ast.Name) and func.id in state.models and keywords & state.fields:
            offences.append(f"{name}:{node.lineno} builds a {func.id} with its state")
        elif isinstance(func, ast.Attribute) and func.attr == "save":
            fields = next((k.value for k in node.keywords if k.arg == "update_fields"), None)
            if fields is not None and _strings(fields) & state.fields and words and _named_after(func.value, state):
                offences.append(f"{name}:{node.lineno} saves {ast.unparse(func.value)}'s state")
        elif isinstance(func, ast.Attribute) and func.attr in _WRITING_METHODS:
            writes = keywords & state.fields or (func.attr == "bulk_update" and _strings(node) & state.fields)
            of_model = _chain(func.value) & state.models or any(_status_value_of(k.value, state) for k in node.keywords)
            if writes and of_model:
                offences.append(f"{name}:{node.lineno} {func.attr}s the state in {ast.unparse(func)[:60]}")
    return sorted(set(offences), key=lambda offence: int(offence.split(":")[1].split()[0]))


def test_the_state_check_finds_a_turn_or_job_state_written_outside_its_owner() -> None:
    source = (
        "from apps.lre.models import LreBatch, LreJob\n"
        "from apps.runtime.models import InputRequest, Turn\n"
        "def sneaky(turn, locked, job, batch, request, panel, self):\n"
        "    turn.status = Turn.Status.FAILED\n"
        "    locked.answer = 'done'\n"  # not named after a turn and no Status value: not seen (as documented)
        "    locked.status = Turn.Status.INTERRUPTED\n"
        "    self.resumed_turn.finished_at = now\n"
        "    turn.save(update_fields=['status', 'answer'])\n"
        "    Turn.objects.filter(pk=1, status=Turn.Status.QUEUED).update(status='running')\n"
        "    _turn_of(7).filter(status='running').update(status=Turn.Status.AWAITING_INPUT)\n"
        "    Turn.objects.create(owner=o, status=Turn.Status.RUNNING)\n"
        "    Turn(status='queued')\n"
        "    setattr(turn, 'conducted_by', 'me')\n"
        "    LreJob.objects.filter(pk=job.pk).update(**{'status': 'paused'})\n"
        "    batch.status = LreBatch.Status.SKIPPED\n"
        "    job.status = 'running'\n"
        # Not writes of a turn's or a job's state:
        "    Turn.objects.filter(status=Turn.Status.QUEUED).exists()\n"
        "    InputRequest.objects.filter(turn=turn).update(status=InputRequest.Status.CANCELLED)\n"
        "    Turn.objects.filter(pk=1).update(cloud_requests=2)\n"
        "    Turn.objects.create(owner=o, request_text='hi')\n"
        "    request.status = InputRequest.Status.ANSWERED\n"
        "    panel.status, panel.resumed_turn = Status.RESUMED, turn\n"
        "    self.status = status\n"
    )
    turn = state_write_offences(source, "example.py", TURN_STATE)
    assert turn == [
        "example.py:4 assigns turn.status",
        "example.py:6 assigns locked.status",
        "example.py:7 assigns self.resumed_turn.finished_at",
        "example.py:8 saves turn's state",
        "example.py:9 updates the state in Turn.objects.filter(pk=1, status=Turn.Status.QUEUED).update",
        "example.py:10 updates the state in _turn_of(7).filter(status='running').update",
        "example.py:11 creates the state in Turn.objects.create",
        "example.py:12 builds a Turn with its state",
        "example.py:13 sets turn.conducted_by",
    ]
    lre = state_write_offences(source, "example.py", LRE_STATE)
    assert lre == [
        "example.py:14 updates the state in LreJob.objects.filter(pk=job.pk).update",
        "example.py:15 assigns batch.status",
        "example.py:16 assigns job.status",
    ]
    # A browser job (a module that does not use LRE's models) keeps its own status.
    assert state_write_offences("def run(job):\n    job.status = 'done'\n", "jobs.py", LRE_STATE) == []


def test_a_turns_state_and_lre_states_are_written_only_by_their_lifecycle_modules() -> None:
    for state in (TURN_STATE, LRE_STATE):
        owner = ROOT / state.owner
        offences = [
            offence
            for path in _app_sources()
            if path != owner
            for offence in state_write_offences(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), state)
        ]
        assert offences == [], state.owner
        # The owner itself writes them (so the scan sees the writes it is looking for).
        assert state_write_offences(owner.read_text(encoding="utf-8"), state.owner, state), state.owner
