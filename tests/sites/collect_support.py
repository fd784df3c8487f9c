"""Helpers (no tests) for the collection tests: run an exploration in a test's browser page."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from apps.runtime.executor import StepResult
from apps.sites.acting.route_choice import NoRouteChooser, RouteChooser
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.collection.budget import CollectionBudget, CollectionLedger
from apps.sites.collection.delivery import deliver
from apps.sites.collection.explore import CollectionRun, explore
from apps.sites.collection.findings import Findings
from apps.sites.collection.scope import collection_plan
from apps.sites.observation.waits_watch import watch_page
from tests.sites.fixture_web import FixtureSite

TODAY = dt.date(2026, 7, 1)


@dataclass
class Collected:
    findings: Findings
    ledger: CollectionLedger
    result: StepResult

    def identifiers(self) -> list[Any]:
        return [item.get("identifier_number") for item in self.result.items]

    def item(self, identifier: str) -> Any:
        (found,) = [item for item in self.result.items if item.get("identifier_number") == identifier]
        return found

    def notices(self) -> str:
        return "\n".join(self.result.notices)


def collect(
    page: Any,
    site: FixtureSite,
    path: str,
    what: str,
    *,
    budget: CollectionBudget | None = None,
    chooser: RouteChooser | None = None,
    **run_options: Any,
) -> Collected:
    """Explore ``site`` from ``path`` for ``what`` in ``page`` and deliver the result."""
    watch_page(page)
    plan = collection_plan(what, today=TODAY, save_documents=run_options.get("saver") is not None)
    ledger = CollectionLedger(budget or CollectionBudget())
    run = CollectionRun(
        page=page,
        plan=plan,
        websites=AuthorizedWebsites.of([site.origin]),
        navigate=lambda url: page.goto(url),
        ledger=ledger,
        chooser=chooser or NoRouteChooser(),
        **run_options,
    )
    findings = explore(run, site.url(path))
    return Collected(findings, ledger, deliver(findings, plan, ledger=ledger, origin=site.origin))


def pages_requested(site: FixtureSite) -> list[str]:
    """The HTML pages the site served, in order (scripts, styles and behaviours left out)."""
    return [path for method, path in site.requests() if path.endswith((".html", "/")) and not path.startswith("/_/")]
