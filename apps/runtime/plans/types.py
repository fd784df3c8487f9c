"""The plan and its typed refusals: what every other plan module builds on.

A *plan* is a finite list of typed *steps*; every step names an executor in
the catalog (``tool``) and supplies arguments (``args``) that match the
schema of its manifest. It contains no free-form code. Steps are numbered
from 1, as the plan's references number them (``from_step: N``,
``{{stepN.field}}``).

A plan is refused with :class:`PlanInvalid`, whose :class:`PlanError` entries
each name the step, the argument and a code from the closed set
:data:`PLAN_ERROR_CODES`, with a message that never echoes more than
:data:`ECHO_CHARS` characters of the offending value.

The bounds of the plan domain live here, in one place, and the tests cite them.
"""

from __future__ import annotations

import hashlib
import json
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

# Bounds of the plan domain.
MAX_PLAN_STEPS = 32  # a plan is finite; 20-step plans are the benchmark's case
MAX_PLAN_BYTES = 256 * 1024  # a proposal given as JSON text, in UTF-8 bytes
MAX_VALUE_DEPTH = 16  # nesting inside one argument value
MAX_REPORTED_ERRORS = 50  # past this, validation stops and says so (code too_many_errors)
ECHO_CHARS = 80  # the most of a proposed value any message repeats

PlanErrorCode = Literal[
    # the proposal as a whole
    "not_json", "too_large", "too_deep", "not_an_object", "unknown_key", "no_steps", "too_many_steps",
    # a step and its arguments against the manifest's schema
    "unknown_executor", "unknown_argument", "missing_argument", "wrong_type", "out_of_range", "not_in_enum",
    "too_long", "too_many_items",
    # references between steps
    "malformed_reference", "reference_out_of_range", "reference_to_same_step", "reference_to_future_step",
    "reference_to_non_collection", "reference_to_undeclared_field",
    # provenance and combinations
    "provenance_refused", "inconsistent_combination",
    # the report itself
    "too_many_errors",
]  # fmt: skip
PLAN_ERROR_CODES: frozenset[str] = frozenset(get_args(PlanErrorCode))


@dataclass(frozen=True)
class PlanError:
    """One precise reason a plan (or a step's final arguments) is refused.

    ``step`` is 1-based (``None`` for the plan as a whole); ``argument`` names
    the argument when there is one.
    """

    step: int | None
    argument: str | None
    code: PlanErrorCode
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"step": self.step, "argument": self.argument, "code": self.code, "message": self.message}


class PlanRejected(Exception):
    """Base of the refusals that carry :class:`PlanError` entries."""

    def __init__(self, errors: tuple[PlanError, ...]) -> None:
        if not errors:
            raise ValueError("a refusal must say why")
        self.errors = errors
        shown = "; ".join(error.message for error in errors[:3])
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        super().__init__(shown + more)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(error.code for error in self.errors)


class PlanInvalid(PlanRejected):
    """The proposal is not a valid plan for this catalog; nothing may run."""


class ArgumentsInvalid(PlanRejected):
    """A step's final arguments, once references are resolved, break its schema; the step must not run."""


@dataclass(frozen=True)
class Step:
    """One typed step: the executor's name and its arguments (JSON values, references unresolved)."""

    tool: str
    args: Mapping[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "args": dict(self.args)}


@dataclass(frozen=True)
class Plan:
    """A finite list of typed steps, as validated against one catalog."""

    steps: tuple[Step, ...]

    def as_json(self) -> dict[str, Any]:
        return {"steps": [step.as_json() for step in self.steps]}

    def canonical_json(self) -> str:
        """The one text of this plan: sorted keys, no spaces, UTF-8 kept, no NaN."""
        return json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    def digest(self) -> str:
        """SHA-256 of the canonical JSON: a confirmation binds to this, so any edit is another plan.

        Computed on every call, never cached: a digest must describe the plan as it is now.
        """
        # surrogatepass: a lone surrogate that JSON escapes can carry still hashes, distinctly
        return hashlib.sha256(self.canonical_json().encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def tools(self) -> tuple[str, ...]:
        return tuple(step.tool for step in self.steps)

    def __len__(self) -> int:
        return len(self.steps)


_repr = reprlib.Repr()
_repr.maxstring = ECHO_CHARS
_repr.maxother = ECHO_CHARS
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 4
_repr.maxlevel = 2


def show(value: object) -> str:
    """A bounded rendering of a proposed value for an error message (never more than ECHO_CHARS)."""
    try:
        text = _repr.repr(value)
    except ValueError:  # an integer too long to print
        text = f"<a very long {type(value).__name__}>"
    return text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "…"


def short(name: str) -> str:
    """A name (tool or argument) as an error may repeat it."""
    return name if len(name) <= ECHO_CHARS else name[: ECHO_CHARS - 1] + "…"


def where(step: int, tool: str, argument: str | None = None) -> str:
    """The location prefix every step-level message starts with."""
    prefix = f"step {step} ({short(tool)})"
    return prefix if argument is None else f"{prefix}: argument {short(argument)!r}"
