"""Executor manifests: what a capability is, declared in code and validated.

A manifest is the contract of one executor: its purpose, the schema of its
arguments, its capabilities, consent, limits, result shape, intelligence
(``deterministic`` or ``agentic``), placement, the request forms it
understands and the action phrases that name it explicitly in a request.
The catalog is generated from the registered manifests, with a signature
per executor and one for the whole catalog, so a plan cached
against one catalog is recognisably stale against another.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

ArgType = Literal["string", "integer", "number", "boolean", "array", "object", "path", "collection"]
Intelligence = Literal["deterministic", "agentic"]
Placement = Literal["server", "device", "both"]
ConsentMode = Literal["none", "confirm"]
ResultKind = Literal["collection", "value", "none"]
Capability = Literal[
    "files.read", "files.write", "documents.read", "records.extract", "sheets.write", "web.browse",
    "credentials.use", "turns.undo", "lre.submit",
]  # fmt: skip
# Capabilities that only read. A step whose capabilities are all among them
# changes nothing outside Metnos's own records, so running it again after its
# process died repeats no effect; any other capability may have taken effect.
READ_ONLY_CAPABILITIES: frozenset[str] = frozenset({"files.read", "documents.read", "records.extract"})
# Kinds of values whose provenance matters: a value produced by an earlier step
# becomes one of these only if the consumer declares it accepts that.
SensitiveKind = Literal["path", "recipient", "authorisation"]

_NAME = re.compile(r"^[a-z][a-z0-9_]{1,62}$")


class ManifestError(ValueError):
    """A manifest that does not describe a usable executor."""


@dataclass(frozen=True)
class ArgSpec:
    """One argument: its type, whether it is required, and its bounds.

    ``sensitive`` marks arguments whose value must not come from another
    step's output unless ``accepts_step_values`` says so (provenance); when
    it does, the invocation boundary verifies every such value before the
    step runs (:mod:`apps.runtime.provenance`).
    ``collection`` arguments receive ``{"from_step": N}``: the collection
    produced by step N. ``item_sensitive`` names the item fields such an
    argument uses as a sensitive kind (``{"path": "path"}``: each item's
    ``path`` is a local path); the boundary verifies them in every item.
    """

    type: ArgType
    required: bool = False
    description: str = ""
    enum: tuple[str, ...] = ()
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    items: ArgType | None = None
    max_items: int | None = None
    sensitive: SensitiveKind | None = None
    accepts_step_values: bool = False
    item_sensitive: Mapping[str, SensitiveKind] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "required": self.required}
        for name in ("description", "enum", "max_length", "minimum", "maximum", "items", "max_items", "sensitive"):
            value = getattr(self, name)
            if value not in (None, "", ()):
                data[name] = list(value) if isinstance(value, tuple) else value
        if self.sensitive:
            data["accepts_step_values"] = self.accepts_step_values
        if self.item_sensitive:  # only when declared: other signatures stay what they were
            data["item_sensitive"] = dict(sorted(self.item_sensitive.items()))
        return data


@dataclass(frozen=True)
class ResultShape:
    """What an executor returns: a collection of items with these fields, one value, or nothing.

    ``sensitive_fields`` names the fields that hold a sensitive kind
    (``{"path": "path"}``: a local path); a consumer's collection from this
    producer has them verified in every item at the invocation boundary.
    """

    kind: ResultKind
    fields: tuple[str, ...] = ()
    description: str = ""
    sensitive_fields: Mapping[str, SensitiveKind] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "fields": list(self.fields)}
        if self.sensitive_fields:  # only when declared: other signatures stay what they were
            data["sensitive_fields"] = dict(sorted(self.sensitive_fields.items()))
        return data


@dataclass(frozen=True)
class ConsentSpec:
    """``confirm`` stops before the effect; the proposal must show these aspects."""

    mode: ConsentMode = "none"
    shows: tuple[str, ...] = ()


@dataclass(frozen=True)
class RequestForm:
    """A sentence template the model-free proposer matches, with typed slots.

    ``template`` uses ``{slot}`` placeholders; ``slots`` maps each slot to a
    slot type (``path``, ``folder``, ``text``, ``fields``, ``url``,
    ``filename``); ``plan`` is the plan to propose, whose string arguments may
    use ``{slot}`` too.
    """

    language: Literal["en", "it"]
    template: str
    slots: Mapping[str, str]
    plan: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class RequestFrame:
    """A kind of request an executor serves, by what it says rather than how (``apps/runtime/understanding``).

    ``actions`` are the lexicon's action classes that ask for it ("obtain",
    "list", "delete"…); ``subject`` is what the request must be about
    ("documents", "credential", "session", or ``None`` for anything);
    ``needs`` are the roles the request must give (a missing one gets a
    question back naming it), ``optional`` roles are used when given.
    ``plan`` is the plan to propose: a string argument ``"{role}"`` takes the
    role's value (an optional role that is absent drops the argument), and
    ``from_step`` numbers count from the frame's own first step;
    ``"{previous}"`` is the last step of what the request asked before.
    ``feeds`` says the plan's last step gives a collection a destination such
    as a spreadsheet can take.
    """

    actions: frozenset[str]
    plan: tuple[Mapping[str, Any], ...]
    needs: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    subject: str | None = "documents"
    feeds: bool = False
    continues: bool = False  # only after an earlier part of the request ("… and delete them")
    # Executors whose earlier steps this frame's plan replaces when a request asks for both ("get every bill
    # from <url> and save the PDFs": one collection that also saves them).
    replaces: tuple[str, ...] = ()
    # Executors whose steps this frame's steps go before, whatever order the request says them in
    # ("I need every invoice … go to <url>, sign in": the sign-in comes first).
    before: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "actions": sorted(self.actions),
            "subject": self.subject,
            "needs": list(self.needs),
            "optional": list(self.optional),
            "plan": [dict(step) for step in self.plan],
            "feeds": self.feeds,
            "continues": self.continues,
            "replaces": list(self.replaces),
            "before": list(self.before),
        }


@dataclass(frozen=True)
class Manifest:
    name: str
    purpose: str
    args: Mapping[str, ArgSpec]
    result: ResultShape
    capabilities: frozenset[str] = frozenset()
    consent: ConsentSpec = field(default_factory=ConsentSpec)
    limits: Mapping[str, int] = field(default_factory=dict)
    intelligence: Intelligence = "deterministic"
    placement: Placement = "server"
    request_forms: tuple[RequestForm, ...] = ()
    version: str = "1"
    # Phrases that name this executor's action explicitly ("create a
    # spreadsheet"), in request-form syntax without slots: a plan for a
    # request that says one of them must use this executor (the guards ask for
    # a new proposal otherwise). English and Italian; see requested_actions.
    action_phrases: tuple[str, ...] = ()
    # What requests this executor serves, whatever their wording (apps/runtime/understanding).
    request_frames: tuple[RequestFrame, ...] = ()

    def __post_init__(self) -> None:
        validate_manifest(self)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "purpose": self.purpose,
            "args": {name: spec.as_json() for name, spec in sorted(self.args.items())},
            "result": self.result.as_json(),
            "capabilities": sorted(self.capabilities),
            "consent": {"mode": self.consent.mode, "shows": list(self.consent.shows)},
            "limits": dict(sorted(self.limits.items())),
            "intelligence": self.intelligence,
            "placement": self.placement,
            "request_forms": [
                {
                    "language": form.language,
                    "template": form.template,
                    "slots": dict(form.slots),
                    "plan": [dict(step) for step in form.plan],
                }
                for form in self.request_forms
            ],
            # Only when declared, so the signature of a manifest without phrases is what it always was.
            **({"action_phrases": list(self.action_phrases)} if self.action_phrases else {}),
            **({"request_frames": [frame.as_json() for frame in self.request_frames]} if self.request_frames else {}),
        }

    @functools.cached_property
    def signature(self) -> str:
        """A hash of the contract: any change to it invalidates cached plans (a manifest is frozen)."""
        return _digest(self.as_json())


_ALLOWED_CAPABILITIES = frozenset(get_args(Capability))
_ARG_TYPES = frozenset(get_args(ArgType))


def validate_manifest(manifest: Manifest) -> None:
    """Reject manifests that cannot be enforced; the declaration alone proves nothing more."""
    problems: list[str] = []
    if not _NAME.match(manifest.name):
        problems.append(f"name {manifest.name!r} must be lower_snake_case")
    if not manifest.purpose.strip():
        problems.append("purpose is empty")
    if manifest.intelligence not in ("deterministic", "agentic"):
        problems.append(f"intelligence {manifest.intelligence!r} is neither deterministic nor agentic")
    if manifest.placement not in ("server", "device", "both"):
        problems.append(f"placement {manifest.placement!r} is unknown")
    if manifest.consent.mode not in ("none", "confirm"):
        problems.append(f"consent mode {manifest.consent.mode!r} is unknown")
    if manifest.consent.mode == "confirm" and not manifest.consent.shows:
        problems.append("a confirmation must say what it shows (action, purpose, destination, consequences)")
    unknown = sorted(set(manifest.capabilities) - _ALLOWED_CAPABILITIES)
    if unknown:
        problems.append(f"unknown capabilities {unknown}")
    for arg_name, spec in manifest.args.items():
        if not _NAME.match(arg_name) and arg_name != "from_step":
            problems.append(f"argument {arg_name!r} must be lower_snake_case")
        if spec.type not in _ARG_TYPES:
            problems.append(f"argument {arg_name!r} has unknown type {spec.type!r}")
        if spec.type == "array" and spec.items is None:
            problems.append(f"array argument {arg_name!r} must declare its item type")
        if spec.item_sensitive and spec.type != "collection" and arg_name != "from_step":
            problems.append(f"argument {arg_name!r} declares item_sensitive but takes no collection")
        problems.extend(_kind_problems(f"argument {arg_name!r}", spec.item_sensitive))
    if manifest.result.kind not in ("collection", "value", "none"):
        problems.append(f"result kind {manifest.result.kind!r} is unknown")
    problems.extend(_kind_problems("the result", manifest.result.sensitive_fields))
    undeclared = sorted(set(manifest.result.sensitive_fields) - set(manifest.result.fields))
    if undeclared:
        problems.append(f"the result marks fields it does not declare as sensitive: {undeclared}")
    for limit, value in manifest.limits.items():
        if value <= 0:
            problems.append(f"limit {limit!r} must be positive")
    problems.extend(_action_phrase_problems(manifest.action_phrases))
    if problems:
        raise ManifestError(f"manifest {manifest.name!r}: " + "; ".join(problems))


_SENSITIVE_KINDS = frozenset(get_args(SensitiveKind))


def _kind_problems(owner: str, kinds: Mapping[str, str]) -> list[str]:
    if not isinstance(kinds, Mapping):
        return [f"{owner}: sensitive fields must map field names to kinds"]
    return [
        f"{owner}: field {name!r} has unknown sensitive kind {kind!r}"
        for name, kind in kinds.items()
        if kind not in _SENSITIVE_KINDS
    ]


MAX_ACTION_PHRASES = 20
MAX_ACTION_PHRASE_CHARS = 400


def _action_phrase_problems(phrases: tuple[str, ...]) -> list[str]:
    if not isinstance(phrases, tuple):
        return ["action_phrases must be a tuple of strings"]
    problems: list[str] = []
    if len(phrases) > MAX_ACTION_PHRASES:
        problems.append(f"at most {MAX_ACTION_PHRASES} action phrases")
    for phrase in phrases:
        if not isinstance(phrase, str) or not phrase.strip():
            problems.append("an action phrase is empty or not text")
            continue
        if len(phrase) > MAX_ACTION_PHRASE_CHARS:
            problems.append(f"action phrase {phrase[:40]!r}… is longer than {MAX_ACTION_PHRASE_CHARS} characters")
        if "{" in phrase or "}" in phrase:
            problems.append(f"action phrase {phrase!r} has a slot; phrases only name the action")
        depth = 0
        for char in phrase:
            depth += (char in "[(") - (char in "])")
            if depth < 0:
                break
        if depth != 0:
            problems.append(f"action phrase {phrase!r} has unbalanced brackets")
    return problems


def _digest(data: Any) -> str:
    encoded = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha256(encoded).hexdigest()[:32]


def catalog_signature(manifests: Mapping[str, Manifest]) -> str:
    return _digest({name: manifest.signature for name, manifest in sorted(manifests.items())})


def may_take_effect(manifest: Manifest) -> bool:
    """Whether running ``manifest``'s executor may change something outside Metnos (so a rerun may repeat it)."""
    return not set(manifest.capabilities) <= READ_ONLY_CAPABILITIES
