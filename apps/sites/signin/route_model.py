"""The local route-choice model of the sign-in search, asked only when the page signals are exhausted.

It receives the observed controls' names, roles and section titles, never
addresses, field values or credentials, and answers the index of one of the
controls it was offered (or -1). Anything else is a refusal: the search never
follows a control the page did not show. Without a configured
``route_choice`` tier there is no chooser, and the search says so. The request
itself goes through :func:`apps.sites.acting.route_choice.ask_json`, as a collection's
route questions do: counted when sent, never retried or sent to another model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from apps.runtime.tiers.client import ModelUsage
from apps.runtime.tiers.config import DECISION_TIMEOUT_SECONDS, ModelTier, tier
from apps.sites.acting.route_choice import MAX_LABEL_CHARS, ROUTE_CHOICE_MAX_TOKENS, ask_json
from apps.sites.observation.snapshot import Control
from apps.sites.signin.search import RouteChooser

MAX_OFFERED = 60  # one group of controls, as the observation hands them out
# One integer: the index of an offered control, or -1.
_SCHEMA = {"type": "object", "properties": {"choice": {"type": "integer"}}, "required": ["choice"]}
_INSTRUCTION = (
    "You help find the way to sign in to a website. Below are the controls observed on the page, "
    "each with an index, role, name and section title. Answer with the index of the one control most "
    "likely to lead to the sign-in form or the customer area, or -1 when none does. Do not guess."
)


class ModelRouteChooser:
    """A :data:`RouteChooser` over one model tier; ``usage`` counts its requests."""

    def __init__(self, model_tier: ModelTier) -> None:
        self.tier = model_tier
        self.usage = ModelUsage()

    def __call__(self, controls: Sequence[Control], deadline: float) -> int | None:
        offered = list(controls)[:MAX_OFFERED]
        listing = [
            {"index": index, "role": control.role, "name": control.label[:MAX_LABEL_CHARS],
             "section": control.section[:MAX_LABEL_CHARS]}
            for index, control in enumerate(offered)
        ]  # fmt: skip
        parsed, failure = ask_json(
            self.tier,
            self.usage,
            instructions=_INSTRUCTION,
            content=json.dumps({"controls": listing}, ensure_ascii=False),
            schema=_SCHEMA,
            schema_name="route_choice",
            max_tokens=ROUTE_CHOICE_MAX_TOKENS,
            deadline=min(deadline, time.monotonic() + DECISION_TIMEOUT_SECONDS),
        )
        choice = parsed.get("choice") if not failure and isinstance(parsed, dict) else None
        if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(offered):
            return None
        return choice


def route_chooser_from_tiers() -> RouteChooser | None:
    """The configured local route-choice model, or None (the search then stops as inconclusive)."""
    configured = tier("route_choice")
    return ModelRouteChooser(configured) if configured is not None else None
