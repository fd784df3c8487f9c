"""Executors: declared capabilities and the registry the catalog is generated from.

Each app registers its executors (in its ``AppConfig.ready``) with
:func:`register_executor`. An executor is an object with a ``manifest`` and a
``run(context, args)`` method returning a :class:`StepResult`; it never
chooses where it runs, never sees credentials except through the context's
mandate, and reports honestly: success, empty, partial or failed.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from apps.accounts.models import User
from apps.runtime.manifests import Manifest, catalog_signature

Outcome = Literal["success", "empty", "partial", "failed"]
ErrorClass = Literal["recoverable", "permanent", "unknown"]


@dataclass(frozen=True)
class StepError:
    """Why a step failed; ``error_class`` decides whether recovery may try again."""

    error_class: ErrorClass
    code: str
    message: str


@dataclass(frozen=True)
class ProducedFile:
    """A file the step wrote, relative to the owner's files root."""

    path: str
    content_type: str
    size: int


@dataclass(frozen=True)
class StepResult:
    """What a step actually produced.

    ``items`` is the collection (for ``collection`` results); ``value`` the
    single value; both keep the data actually observed — absence is stated,
    never filled with placeholders. ``effects`` records state changes for undo
    receipts; ``notices`` are sentences for the user.
    """

    outcome: Outcome
    items: tuple[Mapping[str, Any], ...] = ()
    value: Mapping[str, Any] = field(default_factory=dict)
    error: StepError | None = None
    files: tuple[ProducedFile, ...] = ()
    effects: tuple[Mapping[str, Any], ...] = ()
    notices: tuple[str, ...] = ()
    summary: str = ""

    def __post_init__(self) -> None:
        if self.outcome == "failed" and self.error is None:
            raise ValueError("a failed step must say why")
        if self.outcome == "success" and self.error is not None:
            raise ValueError("a successful step carries no error")


class Grant(Protocol):
    """One credential a turn may use, and the origins it may use it on."""

    @property
    def credential_id(self) -> int: ...

    @property
    def origins(self) -> frozenset[str]: ...


class Refusal(Protocol):
    """A step of the plan whose access was not granted, with a closed code (no values)."""

    @property
    def step(self) -> int: ...

    @property
    def code(self) -> str: ...


class Mandate(Protocol):
    """The credentials a turn is authorised to use, resolved only at execution time.

    ``grants`` and ``refusals`` say what the plan was granted and refused
    (ids and origins, never values); ``authorised_origins`` is every origin a
    grant covers, the websites a browser session of the turn may visit.
    ``secrets()`` lists the values resolved so far, so the boundary can keep
    them out of records, events, logs and model requests.
    """

    @property
    def grants(self) -> Sequence[Grant]: ...

    @property
    def refusals(self) -> Sequence[Refusal]: ...

    @property
    def authorised_origins(self) -> frozenset[str]: ...

    def allows(self, capability: str) -> bool: ...

    def secrets(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class NoMandate:
    """No credential store, or a plan that asked for no credential: nothing granted."""

    grants: tuple[Grant, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    authorised_origins: frozenset[str] = frozenset()

    def allows(self, capability: str) -> bool:
        return False

    def secrets(self) -> tuple[str, ...]:
        return ()


class MandateProvider(Protocol):
    def __call__(self, *, owner: User, turn_id: int, plan: Any, catalog: Catalog) -> Mandate: ...


_mandate_provider: MandateProvider | None = None


def register_mandate_provider(provider: MandateProvider) -> None:
    """The credential store says how a turn's plan becomes its mandate (the vault registers itself)."""
    global _mandate_provider
    _mandate_provider = provider


def mandate_for_plan(*, owner: User, turn_id: int, plan: Any, catalog: Catalog) -> Mandate:
    """The mandate a turn runs its plan under; without a credential store, none."""
    if _mandate_provider is None:
        return NoMandate()
    return _mandate_provider(owner=owner, turn_id=turn_id, plan=plan, catalog=catalog)


def credentials_granted(plan: Any, catalog: Catalog, owner: User | None, turn_id: int | None) -> bool:
    """Whether the mandate provider would grant every credential ``plan`` needs to ``owner`` (reads only)."""
    if owner is None or turn_id is None:
        return False
    mandate = mandate_for_plan(owner=owner, turn_id=turn_id, plan=plan, catalog=catalog)
    return mandate.allows("credentials.use") and not mandate.refusals


InputKind = Literal["otp", "text", "choice"]
InputStatus = Literal["answered", "declined", "expired", "cancelled", "unavailable"]


@dataclass(frozen=True)
class InputSpec:
    """What an executor asks the user in the middle of a step (a one-time code, a choice).

    ``prompt`` is shown to the user and recorded: it must hold no secret.
    A ``sensitive`` answer (a code) is withheld from models, logs and records
    like a mandate's secret. Waiting for the answer consumes no work budget.
    """

    kind: InputKind
    prompt: str
    sensitive: bool = True
    timeout_seconds: float = 600.0
    # For a ``choice``: what the user chooses among (shown numbered; the answer is the number, "1" for the first).
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class InputAnswer:
    """The user's answer; ``value`` only when ``status`` is ``answered``."""

    status: InputStatus
    value: str | None = None


def _no_user_to_ask(spec: InputSpec) -> InputAnswer:
    return InputAnswer("unavailable")


@dataclass
class ExecutionContext:
    """What an executor may use: the owner, the turn, its deadline, progress, and the user to ask."""

    owner: User
    turn_id: int | None
    step_index: int
    deadline: dt.datetime | None = None
    mandate: Mandate = field(default_factory=NoMandate)
    today: dt.date | None = None
    report_progress: Callable[[str], None] = lambda message: None
    cancelled: threading.Event = field(default_factory=threading.Event)
    # Blocks until the user answers, declines, or the request expires; outside a
    # conducted turn (a test, a device) there is nobody to ask: "unavailable".
    request_input: Callable[[InputSpec], InputAnswer] = _no_user_to_ask


class Executor(Protocol):
    manifest: Manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult: ...


class RegistryError(RuntimeError):
    """An executor registered twice, or an unknown executor asked for."""


_registry: dict[str, Executor] = {}
_lock = threading.Lock()


def register_executor(executor: Executor) -> Executor:
    with _lock:
        name = executor.manifest.name
        existing = _registry.get(name)
        if existing is not None and existing is not executor:
            raise RegistryError(f"executor {name!r} registered twice")
        _registry[name] = executor
    return executor


def registered_executors() -> Mapping[str, Executor]:
    return dict(_registry)


# Checks across arguments that a schema cannot express ("either from_step or
# paths"), applied by the validator before a plan runs and again at invocation.
CombinationRule = Callable[[Mapping[str, Any]], "str | None"]
_combination_rules: dict[str, CombinationRule] = {}


def register_combination_rule(executor_name: str, rule: CombinationRule) -> None:
    _combination_rules[executor_name] = rule


def combination_rules() -> Mapping[str, CombinationRule]:
    return dict(_combination_rules)


@dataclass(frozen=True)
class Catalog:
    """The installed capabilities, as the planner and the validator see them."""

    executors: Mapping[str, Executor]
    signature: str

    def manifest(self, name: str) -> Manifest | None:
        executor = self.executors.get(name)
        return executor.manifest if executor is not None else None

    @property
    def manifests(self) -> Mapping[str, Manifest]:
        return {name: executor.manifest for name, executor in self.executors.items()}

    def as_json(self) -> dict[str, Any]:
        return {
            "signature": self.signature,
            "executors": [
                {**executor.manifest.as_json(), "signature": executor.manifest.signature}
                for _, executor in sorted(self.executors.items())
            ],
        }


def build_catalog(executors: Mapping[str, Executor] | None = None) -> Catalog:
    chosen = dict(registered_executors() if executors is None else executors)
    return Catalog(executors=chosen, signature=catalog_signature({n: e.manifest for n, e in chosen.items()}))


def catalog_subset(catalog: Catalog, names: Sequence[str]) -> Catalog:
    return build_catalog({name: catalog.executors[name] for name in names if name in catalog.executors})
