"""The page's watch and its events: redirects still navigating, pauses that end with an event.

The redirect tests drive the watch's event handlers with stand-ins for
Playwright's request and response objects (the order Chromium reports a
redirect in: the hop's answer, its end, then the next hop — a separate event
that may come a moment later). The pause test runs in real Chromium.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from apps.sites.acting.click import deadline_in
from apps.sites.observation import waits_watch
from apps.sites.observation.waits import pause
from apps.sites.observation.waits_watch import PageWatch, watch_page
from tests.sites.fixture_web import FixtureWeb


@dataclass
class _Page:
    handlers: dict[str, Any] = field(default_factory=dict)

    def on(self, event: str, handler: Any) -> None:
        self.handlers[event] = handler


@dataclass(eq=False)
class _Request:
    url: str
    frame: object
    method: str = "GET"
    resource_type: str = "document"
    navigation: bool = True

    def is_navigation_request(self) -> bool:
        return self.navigation


@dataclass(eq=False)
class _Response:
    request: _Request
    status: int


def _watch() -> tuple[PageWatch, _Page]:
    page = _Page()
    return PageWatch(page), page  # type: ignore[arg-type]


def _answered(page: _Page, request: _Request, status: int) -> None:
    page.handlers["response"](_Response(request, status))
    page.handlers["requestfinished"](request)


def test_a_redirected_document_is_still_navigating_until_its_next_hop_is_reported() -> None:
    watch, page = _watch()
    frame = object()
    posted = _Request("https://shop.example/_/login", frame, method="POST")
    page.handlers["request"](posted)
    _answered(page, posted, 303)
    # Between the redirect's end and the next hop's request the old document is still shown:
    # a wait must not take it for the destination.
    assert watch.navigation_pending(frame)  # type: ignore[arg-type]
    destination = _Request("https://shop.example/account", frame)
    page.handlers["request"](destination)
    assert watch.navigation_pending(frame)  # type: ignore[arg-type]
    _answered(page, destination, 200)
    assert not watch.navigation_pending(frame)  # type: ignore[arg-type]


def test_a_document_answered_without_a_redirect_is_not_navigating_any_more() -> None:
    watch, page = _watch()
    frame = object()
    request = _Request("https://shop.example/", frame)
    page.handlers["request"](request)
    _answered(page, request, 200)
    assert not watch.navigation_pending(frame)  # type: ignore[arg-type]


def test_a_redirect_whose_next_hop_never_comes_stops_counting_after_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(waits_watch, "REDIRECT_HOP_GRACE_SECONDS", 0.05)
    watch, page = _watch()
    frame = object()
    request = _Request("https://shop.example/_/login", frame, method="POST")
    page.handlers["request"](request)
    _answered(page, request, 302)
    assert watch.navigation_pending(frame)  # type: ignore[arg-type]
    time.sleep(0.1)
    assert not watch.navigation_pending(frame)  # type: ignore[arg-type]


def test_a_redirected_data_request_does_not_hold_the_frame() -> None:
    watch, page = _watch()
    frame = object()
    request = _Request("https://shop.example/api/bills", frame, resource_type="fetch", navigation=False)
    page.handlers["request"](request)
    _answered(page, request, 302)
    assert not watch.navigation_pending(frame)  # type: ignore[arg-type]


@pytest.mark.browser
def test_a_pause_ends_with_the_event_it_waits_for(fixture_web: FixtureWeb, browser_page: Any) -> None:
    watch = watch_page(browser_page)
    browser_page.goto(fixture_web.site("signin-plain").url("/"))
    main = browser_page.main_frame
    before = watch.mark(main)
    browser_page.evaluate("setTimeout(() => { location.href = '/login.html'; }, 200)")
    started = time.monotonic()
    while not watch.navigated_since(before, main):
        # One pause of a minute: it ends once the page's watch sees the navigation start.
        assert pause(browser_page, deadline_in(120), timedelta(minutes=1))
        assert time.monotonic() - started < 30
    assert watch.navigated_since(before, main)
