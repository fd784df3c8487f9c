"""Choosing a route among observed controls when the page's signals do not say.

Signals come first (:mod:`apps.sites.collection.signals`). Only when they are
insufficient does a collection ask a :class:`RouteChooser`, one group of
controls at a time, and the answer is one of the controls actually shown,
or none. The question holds control names with their section titles and
the object sought, never page text, field values or secrets.

Which chooser: the Frontier tier when it is configured and
``METNOS_SITES_FRONTIER_ROUTES`` is not ``0`` (its requests count as cloud
requests); otherwise the local ``route_choice`` tier; otherwise
:class:`NoRouteChooser`, whose "no decision" ends the collection
incomplete with that reason. A tier whose decision fails or times out is
not replaced by another model: the decision is ``failed``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from django.conf import settings

from apps.runtime.tiers.client import ModelClient, ModelError, ModelUsage
from apps.runtime.tiers.config import ModelTier, tier

DecisionKind = Literal["chosen", "none_fits", "no_decision", "failed"]
MAX_LABEL_CHARS = 120
# A route answer is one small JSON object ({"choice": N}).
ROUTE_CHOICE_MAX_TOKENS = 20


@dataclass(frozen=True)
class RouteOption:
    """One observed control offered to the chooser, by its index in the question."""

    index: int
    label: str
    section: str


@dataclass(frozen=True)
class RouteQuestion:
    object_words: tuple[str, ...]
    fields: tuple[str, ...]
    options: tuple[RouteOption, ...]
    group: int
    of: int


@dataclass(frozen=True)
class RouteDecision:
    """The chooser's answer; ``reason`` is from a closed set, never model output."""

    kind: DecisionKind
    index: int | None = None
    reason: str = ""
    cloud: bool = False


class RouteChooser(Protocol):
    def choose(self, question: RouteQuestion, *, deadline: float) -> RouteDecision: ...


class NoRouteChooser:
    """No model configured: there is no decision to make."""

    def choose(self, question: RouteQuestion, *, deadline: float) -> RouteDecision:
        return RouteDecision("no_decision", reason="no_model_configured")


_SCHEMA = {
    "type": "object",
    "properties": {"choice": {"type": "integer"}},
    "required": ["choice"],
    "additionalProperties": False,
}
_INSTRUCTIONS = (
    "You help collect records from a customer area of a website. Choose the one control most likely to lead "
    'to the records sought, from the numbered controls listed. Answer {"choice": N} with its number, or '
    '{"choice": -1} when none of them leads there. Never invent a control.'
)


def ask_json(
    model_tier: ModelTier,
    usage: ModelUsage,
    *,
    instructions: str,
    content: str,
    schema: dict[str, Any],
    schema_name: str,
    max_tokens: int,
    deadline: float,
) -> tuple[Any, str]:
    """One request to ``model_tier`` for JSON matching ``schema``: (parsed answer, "") or (None, closed-set reason).

    The request is counted in ``usage`` (and on the turn) when sent; it is never retried or sent elsewhere.
    """
    messages = [{"role": "system", "content": instructions}, {"role": "user", "content": content}]
    try:
        reply = ModelClient(model_tier, usage=usage).chat(
            messages, response_schema=schema, schema_name=schema_name, max_tokens=max_tokens, deadline=deadline
        )
    except ModelError as error:
        return None, f"model_{error.cause}"
    return reply.parsed, ""


class ModelRouteChooser:
    """Asks one model tier; its answer must name one of the controls offered. ``usage`` counts requests sent."""

    def __init__(self, model_tier: ModelTier) -> None:
        self.tier = model_tier
        self.usage = ModelUsage()

    def choose(self, question: RouteQuestion, *, deadline: float) -> RouteDecision:
        if deadline <= time.monotonic():
            return RouteDecision("failed", reason="no_time_left", cloud=self.tier.cloud)
        listing = "\n".join(
            f"{option.index}. {option.label[:MAX_LABEL_CHARS]}"
            + (f" (section: {option.section[:MAX_LABEL_CHARS]})" if option.section else "")
            for option in question.options
        )
        sought = ", ".join(question.object_words[:4]) or "records"
        fields = f" with fields {', '.join(question.fields)}" if question.fields else ""
        content = f"Records sought: {sought}{fields}.\nControls (group {question.group} of {question.of}):\n{listing}"
        parsed, failure = ask_json(
            self.tier,
            self.usage,
            instructions=_INSTRUCTIONS,
            content=content,
            schema=_SCHEMA,
            schema_name="route_choice",
            max_tokens=ROUTE_CHOICE_MAX_TOKENS,
            deadline=deadline,
        )
        if failure:
            return RouteDecision("failed", reason=failure, cloud=self.tier.cloud)
        choice = parsed.get("choice") if isinstance(parsed, dict) else None
        if choice == -1:
            return RouteDecision("none_fits", reason="model_none_fits", cloud=self.tier.cloud)
        if not any(option.index == choice for option in question.options):
            return RouteDecision("failed", reason="model_invalid_choice", cloud=self.tier.cloud)
        return RouteDecision("chosen", index=choice, reason="model_choice", cloud=self.tier.cloud)


def frontier_routes_enabled() -> bool:
    """Administrators switch cloud route decisions off with ``METNOS_SITES_FRONTIER_ROUTES=0``."""
    value = getattr(settings, "METNOS_SITES_FRONTIER_ROUTES", None)
    if value is None:
        value = os.environ.get("METNOS_SITES_FRONTIER_ROUTES", "1")
    return str(value).strip().casefold() not in {"0", "false", "no", "off"}


def route_chooser_from_settings() -> RouteChooser:
    """Frontier when configured and enabled, else the local tier, else no chooser; never a fallback."""
    frontier = tier("frontier") if frontier_routes_enabled() else None
    if frontier is not None:
        return ModelRouteChooser(frontier)
    local = tier("route_choice")
    if local is not None:
        return ModelRouteChooser(local)
    return NoRouteChooser()
