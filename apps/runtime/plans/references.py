"""The reference grammar of a plan: how a step names what an earlier step produced.

Two references, as the runtime spec defines them:

* ``from_step: N`` passes the *collection* produced by step N. It is written
  either as the integer value of an argument literally named ``from_step``
  (``{"from_step": 1}`` in the spec's example), or as the value
  ``{"from_step": N}`` of any argument of type ``collection``. An argument
  named ``from_step`` is a collection reference whatever type its manifest
  declares.
* ``{{stepN.field}}`` passes one value, inside any string value of an
  argument (the whole string or embedded in text, also inside arrays and
  objects). For a producer whose result kind is ``value``, ``field`` must be
  one of its ``ResultShape.fields``. For a ``collection`` producer two forms
  exist: ``{{stepN.count}}`` (the number of items) and
  ``{{stepN.first.FIELD}}`` (FIELD of the first item, FIELD declared in its
  ``ResultShape.fields``). A producer of kind ``none`` offers nothing.

Text that starts like a step reference (``{{step``, any case) but does not
follow the grammar is a malformed reference, never literal text. Step
numbers have at most 9 digits, so no reference can make the runtime parse a
huge integer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from apps.runtime.plans.types import PlanErrorCode

FROM_STEP = "from_step"
COUNT_FIELD = "count"  # {{stepN.count}}: reserved for collection producers
FIRST_ITEM = "first"  # {{stepN.first.FIELD}}

_IDENT = r"[A-Za-z_][A-Za-z0-9_]{0,63}"
TEMPLATE = re.compile(r"\{\{\s*step(\d{1,9})\.(" + _IDENT + r"(?:\." + _IDENT + r")?)\s*\}\}")
_OPENING = re.compile(r"\{\{\s*step", re.IGNORECASE)

TemplateRef = tuple[int, str]  # (step number, field path)


def scan_text(text: str, refs: list[TemplateRef], malformed: list[str]) -> None:
    """Append the ``{{stepN.field}}`` references in ``text`` to ``refs``, bad openings to ``malformed``."""
    if "{{" not in text:
        return
    for opening in _OPENING.finditer(text):
        match = TEMPLATE.match(text, opening.start())
        if match is None:
            malformed.append(text[opening.start() : opening.start() + 40])
        else:
            refs.append((int(match.group(1)), match.group(2)))


def has_reference(text: str) -> bool:
    """True if ``text`` contains anything that opens a step reference (well formed or not)."""
    return "{{" in text and _OPENING.search(text) is not None


def whole_reference(text: str) -> TemplateRef | None:
    """The reference if ``text`` is exactly one ``{{stepN.field}}`` (its value is passed as is)."""
    if not text.startswith("{{"):
        return None
    match = TEMPLATE.fullmatch(text)
    return (int(match.group(1)), match.group(2)) if match is not None else None


def collection_reference(name: str, value: object) -> int | str:
    """The step number a collection argument refers to, or a description of what is wrong with it."""
    if name == FROM_STEP and type(value) is int:
        return value
    if isinstance(value, Mapping) and len(value) == 1 and FROM_STEP in value:
        target = value[FROM_STEP]
        if type(target) is int:
            return target
        return f"'from_step' must be a step number, got {type(target).__name__}"
    if name == FROM_STEP:
        return f"'from_step' must be a step number or {{'from_step': N}}, got {type(value).__name__}"
    return f"a collection argument takes {{'from_step': N}}, got {type(value).__name__}"


def is_collection_argument(name: str, arg_type: str) -> bool:
    return name == FROM_STEP or arg_type == "collection"


ORDER_WORDS: dict[str, str] = {
    "reference_to_same_step": "a step cannot use its own result",
    "reference_to_future_step": "that step runs later",
    "reference_out_of_range": "there is no such step",
}


def order_problem(number: int, target: int, total: int) -> PlanErrorCode | None:
    """Why step ``number`` of ``total`` may not refer to step ``target``; ``None`` if it may (an earlier step)."""
    if target < 1 or target > total:
        return "reference_out_of_range"
    if target == number:
        return "reference_to_same_step"
    if target > number:
        return "reference_to_future_step"
    return None


def renumber_value(value: Any, renumber: Callable[[int], int]) -> Any:
    """A copy of an argument value with every ``{{stepN...}}`` renumbered (``from_step`` is the caller's)."""
    if isinstance(value, str):
        if "{{" not in value:
            return value
        return TEMPLATE.sub(lambda m: "{{step" + str(renumber(int(m.group(1)))) + "." + m.group(2) + "}}", value)
    if isinstance(value, list | tuple):
        return [renumber_value(item, renumber) for item in value]
    if isinstance(value, Mapping):
        return {key: renumber_value(item, renumber) for key, item in value.items()}
    return value


def renumber_collection(name: str, value: Any, renumber: Callable[[int], int]) -> Any:
    """A collection argument pointing at ``renumber(N)`` instead of N, in the form it was written."""
    target = collection_reference(name, value)
    if isinstance(target, str):
        return value
    return renumber(target) if type(value) is int else {FROM_STEP: renumber(target)}
