"""Connections that stay open, in real Chromium: when the page itself says its data is in, and coming back.

A page that covered itself with a loading veil while its data arrived and
then lifted it has its data: a request open since before (a live channel)
is read past after ``BACKGROUND_AFTER_VEIL`` rather than the full
``DATA_REQUEST_PATIENCE``, and a click's answer is not waited for behind it.
Without a veil the patience holds (``test_waits.py``). A request read past
once makes its address a permanent connection: shown again, the page's
channel is read past from its start.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import ClickApproval, click, deadline_in
from apps.sites.observation.limits import DATA_REQUEST_PATIENCE
from apps.sites.observation.waits import read_page
from apps.sites.observation.waits_watch import watch_page
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import only

pytestmark = pytest.mark.browser
PATIENCE = DATA_REQUEST_PATIENCE.total_seconds()


def _open(page: Any, url: str) -> None:
    watch_page(page)
    page.goto(url)


def test_a_lifted_veil_says_the_data_is_in_and_an_older_channel_is_read_past(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    _open(browser_page, fixture_web.site("act-veil").url("/live.html"))
    result = read_page(browser_page, deadline=deadline_in(15))
    assert result.snapshot is not None and "Bill B-302" in result.snapshot.text
    assert result.readiness.ready and result.readiness.veil_seen and result.readiness.long_requests == 1
    assert result.readiness.waited < PATIENCE - 1  # the channel (held 30 s) was not waited for
    # A click's answer in place is not waited for behind the channel either.
    control = only(result.snapshot, name="Load more")
    outcome = click(browser_page, control, approval=ClickApproval(control), deadline=deadline_in(15))
    assert (outcome.effect, outcome.evidence) == ("updated_in_place", "answer_in_place")
    assert outcome.settle_seconds < PATIENCE - 1
    assert "Bill B-303" in read_page(browser_page, deadline=deadline_in(15)).snapshot.text  # type: ignore[union-attr]


def test_a_channel_read_past_is_read_past_from_its_start_when_the_page_is_shown_again(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.site("act-loading")
    _open(browser_page, site.url("/longpoll.html"))
    first = read_page(browser_page, deadline=deadline_in(15))
    assert first.readiness.ready and first.readiness.waited >= PATIENCE - 1  # no veil: the patience held
    browser_page.goto(site.url("/delayed.html"))  # leaving cancels the channel before it ever answers
    assert read_page(browser_page, deadline=deadline_in(15)).readiness.ready
    browser_page.goto(site.url("/longpoll.html"))
    again = read_page(browser_page, deadline=deadline_in(15))
    assert again.snapshot is not None and "Bill B-103" in again.snapshot.text
    assert again.readiness.ready and again.readiness.long_requests >= 1
    assert again.readiness.waited < PATIENCE - 1
