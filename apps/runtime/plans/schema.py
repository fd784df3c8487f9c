"""One argument against its ``ArgSpec``: the schema check shared by validation and invocation.

The validator checks a proposed argument (``resolved=False``): a string that
contains a step reference defers the checks its resolved value decides
(a whole-string ``{{stepN.field}}`` defers the type too). Before invocation
the same function checks the final argument (``resolved=True``), where
nothing is deferred and a ``collection`` argument is the sequence of items
the producer returned.

Rules per type: ``string``/``path`` take text (a path is non-empty and has no
NUL), bounded by ``max_length`` and ``enum``; ``integer`` takes an integer
(not a boolean), ``number`` a finite int or float, both bounded by
``minimum``/``maximum``; ``boolean``; ``object`` a JSON object; ``array`` a
list whose items all have type ``items`` (string items also obey
``max_length`` and ``enum``, numeric items ``minimum``/``maximum``), at most
``max_items`` of them; ``collection`` at most ``max_items`` items.

Each check returns ``None`` or one ``(code, detail)`` pair — the first
problem of that argument — and the caller adds where it happened.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from apps.runtime.manifests import ArgSpec
from apps.runtime.plans.references import has_reference, whole_reference
from apps.runtime.plans.types import PlanErrorCode, show

Problem = tuple[PlanErrorCode, str]

_TYPE_WORDS = {
    "string": "text", "path": "a path", "integer": "an integer", "number": "a number", "boolean": "true or false",
    "object": "an object", "array": "an array", "collection": "a collection",
}  # fmt: skip


def check_argument(spec: ArgSpec, value: Any, *, resolved: bool) -> Problem | None:
    """The first problem of ``value`` against ``spec``, or ``None``."""
    kind = spec.type
    if not resolved and isinstance(value, str) and kind not in ("string", "path") and whole_reference(value):
        return None  # its type is known only once the reference is resolved
    if kind == "array":
        return _check_array(spec, value, resolved)
    if kind == "collection":
        return check_collection(spec, value) if resolved else None
    return _check_scalar(spec, kind, value, resolved, "")


def literal_check(spec: ArgSpec) -> Callable[[Any], Problem | None]:
    """The check of a value that holds no reference (a final value), prepared once per argument."""
    if spec.type in ("string", "path", "integer", "number", "boolean"):
        return partial(_check_scalar, spec, spec.type, resolved=True, at="")
    return partial(check_argument, spec, resolved=True)


def _check_scalar(spec: ArgSpec, kind: str, value: Any, resolved: bool, at: str) -> Problem | None:
    if kind in ("string", "path"):
        if not isinstance(value, str):
            return "wrong_type", f"{at}must be {_TYPE_WORDS[kind]}, got {show(value)}"
        if not resolved and has_reference(value):
            return None  # length and enum apply to the resolved text
        if kind == "path" and (not value or "\x00" in value):
            return "wrong_type", f"{at}must be a non-empty path without NUL, got {show(value)}"
        if spec.max_length is not None and len(value) > spec.max_length:
            return "too_long", f"{at}has {len(value)} characters, more than {spec.max_length}"
        if spec.enum and value not in spec.enum:
            return "not_in_enum", f"{at}must be one of {', '.join(spec.enum)}; got {show(value)}"
        return None
    if kind == "integer":
        if type(value) is not int:
            return "wrong_type", f"{at}must be an integer, got {show(value)}"
        return _check_range(spec, value, at)
    if kind == "number":
        if type(value) not in (int, float) or (type(value) is float and not math.isfinite(value)):
            return "wrong_type", f"{at}must be a finite number, got {show(value)}"
        return _check_range(spec, value, at)
    if kind == "boolean":
        return None if type(value) is bool else ("wrong_type", f"{at}must be true or false, got {show(value)}")
    if kind in ("object", "collection"):
        return None if isinstance(value, Mapping) else ("wrong_type", f"{at}must be an object, got {show(value)}")
    if kind == "array":
        return None if isinstance(value, list | tuple) else ("wrong_type", f"{at}must be an array, got {show(value)}")
    return "wrong_type", f"{at}has a type the runtime cannot check ({kind})"


def _check_range(spec: ArgSpec, value: float, at: str) -> Problem | None:
    if spec.minimum is None and spec.maximum is None:
        return None
    if spec.minimum is not None and value < spec.minimum:
        return "out_of_range", f"{at}is {show(value)}, below the minimum {spec.minimum:g}"
    if spec.maximum is not None and value > spec.maximum:
        return "out_of_range", f"{at}is {show(value)}, above the maximum {spec.maximum:g}"
    return None


def _check_array(spec: ArgSpec, value: Any, resolved: bool) -> Problem | None:
    if not isinstance(value, list | tuple):
        return "wrong_type", f"must be an array of {spec.items}, got {show(value)}"
    if spec.max_items is not None and len(value) > spec.max_items:
        return "too_many_items", f"has {len(value)} items, more than {spec.max_items}"
    item_kind = spec.items or "string"
    for position, item in enumerate(value, start=1):
        if not resolved and isinstance(item, str) and item_kind not in ("string", "path") and whole_reference(item):
            continue
        problem = _check_scalar(spec, item_kind, item, resolved, f"item {position} ")
        if problem is not None:
            return problem
    return None


def check_collection(spec: ArgSpec, value: Any) -> Problem | None:
    """The items a collection argument receives (an argument named ``from_step`` included, whatever its type)."""
    if not isinstance(value, list | tuple):
        return "wrong_type", f"must be the items of a collection, got {show(value)}"
    if spec.max_items is not None and len(value) > spec.max_items:
        return "too_many_items", f"receives {len(value)} items, more than {spec.max_items}"
    for position, item in enumerate(value, start=1):
        if not isinstance(item, Mapping):
            return "wrong_type", f"item {position} must be an object, got {show(item)}"
    return None


def sensitive_kind(spec: ArgSpec) -> str | None:
    """What a step value must not silently become here: the declared kind, and every path argument."""
    if spec.sensitive is not None:
        return spec.sensitive
    return "path" if spec.type == "path" or spec.items == "path" else None
