"""Executors of the managed browser registered in the catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.runtime.executor import ExecutionContext, StepResult
from apps.runtime.manifests import Manifest, RequestForm, RequestFrame, ResultShape
from apps.sites.services import web_sessions_close

_CLOSE_PLAN = ({"tool": "close_web_sessions", "args": {}},)

CLOSE_WEB_SESSIONS_MANIFEST = Manifest(
    name="close_web_sessions",
    purpose="End your open web sessions in the managed browser; preferences and website data are kept.",
    args={},
    result=ResultShape(kind="value", fields=("ended", "withdrawn")),
    capabilities=frozenset({"web.browse"}),
    action_phrases=(
        "close [all] [the|my] (web|browser) sessions",
        "chiudi [tutte] le sessioni (web|del browser)",
    ),
    request_forms=(
        RequestForm(language="en", template="close [all] [the|my] (web|browser) sessions", slots={}, plan=_CLOSE_PLAN),
        RequestForm(language="it", template="chiudi [tutte] le sessioni (web|del browser)", slots={}, plan=_CLOSE_PLAN),
    ),
    request_frames=(RequestFrame(actions=frozenset({"close"}), subject="session", plan=_CLOSE_PLAN),),
)


class CloseWebSessions:
    """Ends the owner's running browser sessions and withdraws the waiting ones.

    Other owners' sessions, the owner's preferences and the website data kept
    between sessions (cookies, storage) are left as they are.
    """

    manifest = CLOSE_WEB_SESSIONS_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        closed = web_sessions_close(owner=context.owner)
        value = {"ended": closed.ended, "withdrawn": closed.withdrawn}
        if not closed.ended and not closed.withdrawn:
            return StepResult(outcome="empty", value=value, summary="You had no open web sessions.")
        return StepResult(
            outcome="success",
            value=value,
            summary=f"Closed {closed.ended} web session(s) and withdrew {closed.withdrawn} waiting request(s); "
            "your website data is kept.",
        )
