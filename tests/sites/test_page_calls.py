"""Bounded evaluation in real Chromium: the answer when the page answers, a timeout when it is busy."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apps.sites.observation import page_calls
from apps.sites.observation.page_calls import evaluate_handle_within, evaluate_within

pytestmark = [pytest.mark.browser]

PAGE = "<main><p id='bill'>Bill B-1</p></main>"
BUSY_FOR_MS = 1500


def _busy(page: Any) -> None:
    """Keep the page's main thread busy from a timer, so the next call meets a page that cannot answer."""
    page.evaluate(
        f"() => {{ setTimeout(() => {{ const end = Date.now() + {BUSY_FOR_MS}; while (Date.now() < end) {{}} }}, 0); }}"
    )
    page.wait_for_timeout(100)


def test_an_answering_page_gives_its_value_and_its_elements(browser_page: Any) -> None:
    browser_page.set_content(PAGE)
    frame = browser_page.main_frame
    script = "(id) => document.getElementById(id).textContent"
    assert evaluate_within(frame, script, "bill", timeout_ms=2000) == "Bill B-1"
    handle = evaluate_handle_within(frame, "(id) => document.getElementById(id)", "bill", timeout_ms=2000)
    element = handle.as_element()
    assert element is not None and element.inner_text() == "Bill B-1"


def test_a_busy_page_times_out_at_the_deadline_and_answers_afterwards(browser_page: Any) -> None:
    browser_page.set_content(PAGE)
    _busy(browser_page)
    started = time.monotonic()
    with pytest.raises(PlaywrightTimeoutError):
        evaluate_within(browser_page.main_frame, "() => 1", None, timeout_ms=300)
    assert time.monotonic() - started < 1.0  # the deadline held although the page never answered
    with pytest.raises(PlaywrightTimeoutError):
        evaluate_handle_within(browser_page.main_frame, "() => document.body", None, timeout_ms=200)
    # Once the page is free again, it answers (the abandoned calls' late answers are dropped).
    assert evaluate_within(browser_page.main_frame, "() => 2", None, timeout_ms=BUSY_FOR_MS * 3) == 2


def test_without_playwright_internals_the_public_path_answers_the_same(browser_page: Any, monkeypatch: Any) -> None:
    browser_page.set_content(PAGE)
    monkeypatch.setattr(page_calls, "_mapping", None)
    frame = browser_page.main_frame
    assert evaluate_within(frame, "() => ({ok: true, n: 3})", None, timeout_ms=2000) == {"ok": True, "n": 3}
    _busy(browser_page)
    with pytest.raises(PlaywrightTimeoutError):
        evaluate_within(frame, "() => 1", None, timeout_ms=300)


WAIT_THEN_SAY = "(ms) => new Promise((resolve) => setTimeout(() => resolve(window.said || 'nothing'), ms))"


def test_a_started_script_runs_while_other_calls_are_made_and_answers_later(browser_page: Any) -> None:
    browser_page.set_content(PAGE)
    frame = browser_page.main_frame
    started_at = time.monotonic()
    started = page_calls.Started(frame, WAIT_THEN_SAY, 400, timeout_ms=3000)
    # Calls made meanwhile run at once; the started script sees what they did once its wait ends.
    assert evaluate_within(frame, "() => { window.said = 'meanwhile'; return 1; }", None, timeout_ms=2000) == 1
    assert time.monotonic() - started_at < 0.3
    assert started.answer() == "meanwhile"
    assert time.monotonic() - started_at < 0.4 + 0.3  # it waited from its start, not from the answer's asking


def test_a_started_script_times_out_from_its_start_and_one_not_asked_for_is_dropped(browser_page: Any) -> None:
    browser_page.set_content(PAGE)
    frame = browser_page.main_frame
    late = page_calls.Started(frame, WAIT_THEN_SAY, 2000, timeout_ms=300)
    with pytest.raises(PlaywrightTimeoutError):
        late.answer()
    dropped = page_calls.Started(frame, WAIT_THEN_SAY, 50, timeout_ms=3000)
    dropped.drop()
    assert evaluate_within(frame, "() => 2", None, timeout_ms=2000) == 2
    with pytest.raises(PlaywrightError):  # a dropped call has no answer to give
        dropped.answer()


def test_without_playwright_internals_a_started_script_runs_when_asked(browser_page: Any, monkeypatch: Any) -> None:
    browser_page.set_content(PAGE)
    monkeypatch.setattr(page_calls, "_mapping", None)
    started = page_calls.Started(browser_page.main_frame, WAIT_THEN_SAY, 10, timeout_ms=3000)
    browser_page.evaluate("() => { window.said = 'before the answer was asked'; }")
    assert started.answer() == "before the answer was asked"
