"""Helpers (no tests) for the observation, wait and click tests: open a fixture page and read it."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from apps.sites.acting.click import deadline_in
from apps.sites.observation.snapshot import Control, Snapshot
from apps.sites.observation.waits import read_page
from apps.sites.observation.waits_watch import watch_page
from tests.sites.fixture_web import FixtureSite, wait_until

READ_SECONDS = 10.0


def open_and_read(page: Any, url: str, seconds: float = READ_SECONDS) -> Snapshot:
    """Watch the page, open ``url`` and read it once it is readable."""
    watch_page(page)
    page.goto(url)
    return read(page, seconds)


def read(page: Any, seconds: float = READ_SECONDS) -> Snapshot:
    result = read_page(page, deadline=deadline_in(seconds))
    assert result.snapshot is not None, result
    return result.snapshot


def only(snapshot: Snapshot, **features: object) -> Control:
    """The single control with these features; fails the test otherwise."""
    found = snapshot.matching(**features)
    assert len(found) == 1, [(control.label, control.row) for control in snapshot.controls]
    return found[0]


def as_json(snapshot: Snapshot) -> str:
    return json.dumps(dataclasses.asdict(snapshot), ensure_ascii=False)


def presses_become(page: Any, site: FixtureSite, expected: list[str], timeout: float = 10.0) -> bool:
    """Wait for the site's recorded presses while Playwright keeps routing the page's requests."""

    def settled() -> bool:
        page.wait_for_timeout(20)  # the browser_page fixture routes requests through this thread
        return site.presses() == expected

    return wait_until(settled, timeout=timeout)


def nothing_pressed(page: Any, site: FixtureSite, seconds: float = 0.3) -> bool:
    """No press reached the site, after giving any request in flight time to arrive."""
    page.wait_for_timeout(seconds * 1000)
    return site.presses() == []
