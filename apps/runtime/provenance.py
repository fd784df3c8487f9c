"""Provenance at the invocation boundary: a value from another step becomes a sensitive kind only once verified.

Contract (runtime spec, "references"): knowing that a value came from step N
is not enough to turn it into a local path, a recipient or an authorisation;
the consumer must declare it accepts that, and the runtime must verify it.

A missing declaration is refused early: the validator and
:func:`apps.runtime.plans.resolution.resolve_step_args` refuse
(``provenance_refused``) a value from another step in a sensitive argument
(``ArgSpec.sensitive``, and every argument of type ``path``) that does not
declare ``accepts_step_values``. :func:`step_provenance_verify` runs at the
boundary right after resolution — before consent, before any effect — and
does not rely on that: it refuses such a value again
(``provenance_undeclared``) and verifies what the declarations let through:

* every sensitive argument that declares ``accepts_step_values`` and received
  a value from another step (``ResolvedArgs.provenance``);
* every item of a collection passed with ``from_step``, in each item field
  that the consumer's ``ArgSpec.item_sensitive`` or the producer's
  ``ResultShape.sensitive_fields`` marks as a sensitive kind (an item without
  that field is left to the consumer, which says what it skipped).

Per kind:

* ``path``: each text (a path argument, each entry of an array of paths, the
  field of an item) must lie inside the owner's files root, checked with the
  documents app's own confinement
  (:func:`apps.documents.files.resolve_owner_path`: no absolute path, no
  ``..``, no NUL byte, no link resolving outside the root). Those roots are on
  the server, so a step that runs on a device gets no path from another step.
* ``recipient``, ``authorisation``: no verifier exists, so they are refused
  even when declared.

A failure raises :class:`ProvenanceRefused` with a code from
:data:`PROVENANCE_CODES`, the argument, the 1-based item position (for a
collection) and the producing steps; the boundary records the step as refused
with that code and nothing runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from apps.accounts.models import User
from apps.documents.files import FileAccessRefused, FileRefusalReason, resolve_owner_path
from apps.runtime.executor import Catalog
from apps.runtime.manifests import ArgSpec, Manifest
from apps.runtime.plans.references import is_collection_argument
from apps.runtime.plans.resolution import ResolvedArgs
from apps.runtime.plans.schema import sensitive_kind
from apps.runtime.plans.types import Plan, show, where

ProvenanceCode = Literal[
    "provenance_undeclared",  # a sensitive argument that does not declare it accepts values from other steps
    "provenance_path_absolute",  # an absolute path (/etc/passwd, C:\x)
    "provenance_path_traversal",  # a '..' component
    "provenance_path_outside_root",  # a link that resolves outside the owner's files root
    "provenance_path_invalid",  # not text, a NUL byte, ~other, too long
    "provenance_unverifiable",  # no verifier for this kind here (recipient, authorisation, a path on a device)
]
PROVENANCE_CODES: Final = frozenset(get_args(ProvenanceCode))

_PATH_CODES: Final[dict[FileRefusalReason, ProvenanceCode]] = {
    "absolute_path": "provenance_path_absolute",
    "traversal": "provenance_path_traversal",
    "symlink_outside_root": "provenance_path_outside_root",
    "nul_byte": "provenance_path_invalid",
    "invalid_path": "provenance_path_invalid",
    "invalid_pattern": "provenance_path_invalid",
}

_WORDS: Final[dict[ProvenanceCode, str]] = {
    "provenance_path_absolute": "is an absolute path, not a path inside your files",
    "provenance_path_traversal": "climbs out of its folder with '..'",
    "provenance_path_outside_root": "leads outside your files through a link",
    "provenance_path_invalid": "is not a valid path inside your files",
    "provenance_unverifiable": "cannot be verified",
    "provenance_undeclared": "is not accepted: the argument does not declare it takes values from other steps",
}

Destination = Literal["server", "device"]
# A verifier answers None for a value it accepts, or the code of why not.
Verifier = Callable[[Any, Any], ProvenanceCode | None]


class ProvenanceRefused(Exception):
    """A value from step(s) ``sources`` may not become the ``kind`` that ``argument`` of step ``step`` uses."""

    def __init__(
        self,
        *,
        step: int,
        tool: str,
        argument: str,
        kind: str,
        code: ProvenanceCode,
        sources: frozenset[int],
        value: Any,
        item: int | None = None,
        item_field: str | None = None,
        why: str = "",
    ) -> None:
        self.step = step
        self.tool = tool
        self.argument = argument
        self.kind = kind
        self.code: ProvenanceCode = code
        self.sources = sources
        self.item = item
        self.item_field = item_field
        steps = ", ".join(str(n) for n in sorted(sources))
        origin = f"from step {steps}" if item is None else f"in field {item_field!r} of item {item} from step {steps}"
        super().__init__(f"{where(step, tool, argument)}: the {kind} {show(value)} {origin} {why or _WORDS[code]}")

    def as_trace(self) -> dict[str, Any]:
        """What the trace keeps: codes and positions, never the value."""
        detail: dict[str, Any] = {"argument": self.argument, "kind": self.kind, "sources": sorted(self.sources)}
        if self.item is not None:
            detail.update(item=self.item, item_field=self.item_field)
        return detail


def _path_verifier(owner: User, value: Any) -> ProvenanceCode | None:
    if not isinstance(value, str):
        return "provenance_path_invalid"
    try:
        resolve_owner_path(owner=owner, relative_path=value)
    except FileAccessRefused as refused:
        return _PATH_CODES[refused.reason]
    return None


# Kinds with a verifier; a kind missing here is refused whatever the consumer declares.
VERIFIERS: Final[Mapping[str, Verifier]] = {"path": _path_verifier}
# Kinds whose verifier checks the server's roots: meaningless for a step on a device.
_SERVER_KINDS: Final = frozenset({"path"})


def step_provenance_verify(
    *,
    owner: User,
    plan: Plan,
    index: int,
    catalog: Catalog,
    resolved: ResolvedArgs,
    destination: Destination = "server",
) -> dict[str, int]:
    """Verify every value step ``index`` received from another step as a sensitive kind, or raise.

    Raises :class:`ProvenanceRefused` for the first value that fails. Returns,
    per argument, how many values were verified (an argument with none is
    left out), for the trace.
    """
    tool = plan.steps[index - 1].tool
    manifest = catalog.manifest(tool)
    if manifest is None:
        return {}  # resolution already refused an unknown executor
    verified: dict[str, int] = {}
    for name, sources in sorted(resolved.provenance.items()):
        spec = manifest.args.get(name)
        if spec is None or name not in resolved.values:
            continue
        check = _Check(owner, index, tool, name, sources, destination)
        value = resolved.values[name]
        kind = sensitive_kind(spec)
        if kind is not None and not spec.accepts_step_values:
            check.refuse(kind, "provenance_undeclared", value)
        if is_collection_argument(name, spec.type):
            if kind is not None and not spec.item_sensitive:
                # A whole collection declared a recipient (say) names no field a verifier could check.
                check.refuse(kind, "provenance_unverifiable", value)
            check.collection(value, _item_kinds(spec, sources, plan, catalog))
        elif kind is not None:
            check.values(kind, value)
        if check.count:
            verified[name] = check.count
    return verified


def _item_kinds(spec: ArgSpec, sources: frozenset[int], plan: Plan, catalog: Catalog) -> dict[str, str]:
    """The item fields to verify: those the consumer declares, and those its producer declares."""
    kinds: dict[str, str] = {}
    for source in sorted(sources):
        producer: Manifest | None = catalog.manifest(plan.steps[source - 1].tool)
        if producer is not None:
            kinds.update(producer.result.sensitive_fields)
    kinds.update(spec.item_sensitive)  # the consumer's use of a field decides its kind
    return kinds


@dataclass
class _Check:
    """Verification of one argument's values from ``sources``."""

    owner: User
    index: int
    tool: str
    argument: str
    sources: frozenset[int]
    destination: Destination
    count: int = 0  # values verified so far

    def refuse(
        self, kind: str, code: ProvenanceCode, value: Any, item: int | None = None, item_field: str | None = None
    ) -> None:
        raise ProvenanceRefused(
            step=self.index, tool=self.tool, argument=self.argument, kind=kind, code=code,
            sources=self.sources, value=value, item=item, item_field=item_field,
        )  # fmt: skip

    def values(self, kind: str, value: Any) -> None:
        texts: Sequence[Any] = value if isinstance(value, list | tuple) else (value,)
        for text in texts:
            self._verify(kind, text, item=None, item_field=None)

    def collection(self, items: Any, kinds: Mapping[str, str]) -> None:
        if not kinds or not isinstance(items, list | tuple):
            return  # nothing sensitive travels in these items; the schema check judged their shape
        for position, item in enumerate(items, start=1):
            if not isinstance(item, Mapping):
                continue
            for item_field, kind in sorted(kinds.items()):
                if item.get(item_field) is not None:
                    self._verify(kind, item[item_field], item=position, item_field=item_field)

    def _verify(self, kind: str, value: Any, *, item: int | None, item_field: str | None) -> None:
        verifier = VERIFIERS.get(kind)
        why = ""
        if verifier is None:
            code: ProvenanceCode | None = "provenance_unverifiable"
            why = f"cannot be verified: Metnos has no verifier for a {kind} taken from another step"
        elif self.destination != "server" and kind in _SERVER_KINDS:
            code = "provenance_unverifiable"
            why = "cannot be verified: this step runs on a device, and only paths in your files on the server can be"
        else:
            code = verifier(self.owner, value)
        if code is not None:
            raise ProvenanceRefused(
                step=self.index, tool=self.tool, argument=self.argument, kind=kind, code=code,
                sources=self.sources, value=value, item=item, item_field=item_field, why=why,
            )  # fmt: skip
        self.count += 1
