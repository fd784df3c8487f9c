"""The fixture web itself: real HTTP, separate origins, recorded presses and submissions."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.sites.fixture_web import FixtureWeb, wait_until


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_each_site_has_its_own_origin_and_serves_only_its_files(fixture_web: FixtureWeb) -> None:
    site = fixture_web.site("basic")
    status, body = _get(site.url("/"))
    assert status == 200 and b"Basic fixture site" in body
    assert _get(site.url("/../fixture_web.py"))[0] == 404
    assert _get(site.url("/%2e%2e/fixture_web.py"))[0] == 404
    with pytest.raises(LookupError):
        fixture_web.site("no-such-site")


def test_chromium_sees_delayed_data_and_the_site_records_the_press(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.site("basic")
    site.forget()
    browser_page.goto(site.url("/"))
    browser_page.wait_for_selector("#bills li:nth-child(2)")
    assert browser_page.locator("#bills li").all_inner_texts() == ["Bill B-001", "Bill B-002"]
    browser_page.click("#hello")
    assert wait_until(lambda: site.presses() == ["hello"]), site.presses()
    browser_page.fill("input[name=name]", "Ada")
    browser_page.click("form button")
    browser_page.wait_for_selector("text=Received.")
    assert site.submissions() == [{"name": ["Ada"]}]
    assert ("POST", "/_/echo") in site.requests()
