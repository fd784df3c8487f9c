"""The collection audit's closed categories, built from real collections in Chromium against the fixture web.

Recovery by reason and outcome, model decisions with their time, outcomes and
the completeness of the input window they were given; never page data.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from apps.sites.acting.route_choice import ModelRouteChooser, RouteDecision, RouteQuestion
from apps.sites.collection.audit import RECOVERY_OUTCOMES, collection_audit
from apps.sites.collection.recognition import RecognitionAnswer, RecognitionQuestion
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import Snapshot
from tests.model_server import ScriptedModelServer
from tests.sites.collect_support import Collected, collect
from tests.sites.fixture_web import FixtureSite, FixtureWeb
from tests.sites.test_collect_routes import _ChangingObserver

pytestmark = pytest.mark.browser


def _audit(collected: Collected) -> dict[str, Any]:
    return collection_audit(collected.findings, collected.ledger)


def _no_page_data(audit: dict[str, Any], site: FixtureSite, *page_words: str) -> None:
    shown = str(audit)
    assert site.origin not in shown and "http" not in shown
    assert not [word for word in page_words if word in shown]


@pytest.mark.parametrize(("failures", "outcome"), [(2, "recovered"), (4, "still_changing")])
def test_the_recovery_read_is_audited_by_its_reason_and_outcome(
    fixture_web: FixtureWeb, browser_page: Any, failures: int, outcome: str
) -> None:
    site = fixture_web.fresh("collect-archive")
    collected = collect(browser_page, site, "/?page=1&of=1", "all bills", observer=_ChangingObserver(failures))
    audit = _audit(collected)
    expected = dict.fromkeys(RECOVERY_OUTCOMES["document_changed"], 0) | {outcome: 1}
    assert audit["recovery"]["document_changed"] == expected
    assert audit["recovery"]["control_missing"] == {"found": 0, "missing": 0, "ambiguous": 0}
    _no_page_data(audit, site, "AR-0")


def test_a_route_prepared_again_is_audited_with_what_it_found(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.fresh("collect-revisit")
    audit = _audit(collect(browser_page, site, "/menu.html", "all bills"))
    assert audit["recovery"]["control_missing"] == {"found": 1, "missing": 0, "ambiguous": 0}
    assert audit["counters"]["route_toggle_already_open"] == 1
    # Structured once: the recovery and decision counters are not repeated among the plain counters.
    assert not [key for key in audit["counters"] if key.startswith(("recovery.", "decision."))]
    _no_page_data(audit, site, "MB-20", "Bills 2024", "Archive")


class _SlowChooser:
    """Takes its time, then chooses the second control offered (as a model would, by number)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.questions: list[RouteQuestion] = []

    def choose(self, question: RouteQuestion, *, deadline: float) -> RouteDecision:
        self.questions.append(question)
        time.sleep(self.seconds)
        return RouteDecision("chosen", index=2, reason="model_choice")


def test_a_route_decision_is_audited_with_its_time_outcome_and_complete_input_window(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.fresh("collect-archive")
    chooser = _SlowChooser(0.3)
    collected = collect(browser_page, site, "/maze.html", "all invoices", chooser=chooser)
    assert collected.identifiers() == ["MZ-2026-001"]
    decision = _audit(collected)["decisions"]["route_choice"]
    assert decision["count"] == len(chooser.questions) == 1
    assert decision["outcomes"] == {"chosen": 1, "none_fits": 0, "no_decision": 0, "failed": 0}
    assert 0.3 <= decision["seconds"] == decision["slowest_seconds"] < 5
    assert decision["input_window"] == {"complete": 1, "truncated": 0}
    _no_page_data(_audit(collected), site, "Documenti", "MAZE-SECRET")


def test_timing_a_route_decision_leaves_its_cloud_requests_counted(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-archive")
    scripted_model_server.script({"choice": 2})
    chooser = ModelRouteChooser(scripted_model_server.tier("frontier", cloud=True))
    collected = collect(browser_page, site, "/maze.html", "all invoices", chooser=chooser)
    assert collected.findings.cloud_requests == chooser.usage.cloud_requests == 1
    assert _audit(collected)["decisions"]["route_choice"]["outcomes"]["chosen"] == 1


class _Recogniser:
    """Answers no decision (no model), keeping what it was asked."""

    def __init__(self) -> None:
        self.questions: list[RecognitionQuestion] = []

    def recognise(self, question: RecognitionQuestion, *, deadline: float) -> RecognitionAnswer:
        self.questions.append(question)
        return RecognitionAnswer("no_decision", reason="no_model_configured")


def _cut_text(page: Any, *, deadline: float | None = None) -> Snapshot:
    """Observes for real, as if the page's text had run past the reading limit."""
    return dataclasses.replace(observe(page, deadline=deadline), text_truncated=True)


@pytest.mark.parametrize(("observer", "window"), [(observe, "complete"), (_cut_text, "truncated")])
def test_a_recognition_decision_is_audited_with_whether_the_page_text_it_saw_was_cut(
    fixture_web: FixtureWeb, browser_page: Any, observer: Any, window: str
) -> None:
    site = fixture_web.fresh("collect-prose")
    recogniser = _Recogniser()
    collected = collect(browser_page, site, "/", "tutte le bollette", recogniser=recogniser, observer=observer)
    (question,) = recogniser.questions
    assert question.truncated is (window == "truncated")
    decision = _audit(collected)["decisions"]["recognition"]
    assert decision["count"] == 1 and decision["outcomes"]["no_decision"] == 1
    assert decision["input_window"] == {"complete": 0, "truncated": 0} | {window: 1}
    assert 0 <= decision["slowest_seconds"] <= decision["seconds"] < 5
    _no_page_data(_audit(collected), site, "LS-2026", "numero verde")
