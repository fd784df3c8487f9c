"""Typing a credential into a field: checked, selected and focused first, then read back.

Real Chromium against the fixture web (spec: Signing in — "the browser component
types the values"). Nothing lands anywhere but the field it was meant for.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from apps.sites.signin.page import type_and_check
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

CANARY = "CANARY-typed-7f3a"  # a value to look for: it must land only in its field


def _open(page: Any, fixture_web: FixtureWeb) -> Any:
    page.goto(fixture_web.site("signin-forms").url("/typing.html"))
    return page


def _type(page: Any, field: str, value: str = CANARY) -> bool:
    return type_and_check(page, [page.query_selector(f"#{field}")], [value], deadline=time.monotonic() + 10)


def _values(page: Any) -> dict[str, str]:
    return dict(page.eval_on_selector_all("input", "(all) => all.map((field) => [field.id, field.value])"))


def test_typing_replaces_what_the_field_held_and_reads_it_back(browser_page: Any, fixture_web: FixtureWeb) -> None:
    page = _open(browser_page, fixture_web)
    assert _type(page, "prefilled", "ada@example.org")
    assert _values(page)["prefilled"] == "ada@example.org"


def test_a_field_enabled_a_moment_later_is_waited_for(browser_page: Any, fixture_web: FixtureWeb) -> None:
    page = _open(browser_page, fixture_web)
    assert page.eval_on_selector("#late", "(field) => field.disabled")  # typed before it was enabled
    assert _type(page, "late")
    assert _values(page)["late"] == CANARY


@pytest.mark.parametrize("field", ["readonly", "hidden", "box"])
def test_a_field_that_cannot_be_typed_into_gets_nothing(browser_page: Any, fixture_web: FixtureWeb, field: str) -> None:
    page = _open(browser_page, fixture_web)
    before = _values(page)
    assert not _type(page, field)
    assert _values(page) == before  # nothing typed anywhere


def test_a_field_that_hands_its_focus_elsewhere_gets_nothing_and_neither_does_the_other(
    browser_page: Any, fixture_web: FixtureWeb
) -> None:
    page = _open(browser_page, fixture_web)
    assert not _type(page, "thief")
    values = _values(page)
    assert values["thief"] == "" and values["decoy"] == ""
    assert CANARY not in page.content()


def test_a_field_inside_a_web_component_is_typed_into(browser_page: Any, fixture_web: FixtureWeb) -> None:
    page = _open(browser_page, fixture_web)
    inside = "() => document.getElementById('component').shadowRoot.querySelector('input')"
    field = page.evaluate_handle(inside).as_element()
    assert type_and_check(page, [field], [CANARY], deadline=time.monotonic() + 10)
    assert page.evaluate(f"() => ({inside})().value") == CANARY
    light = page.evaluate("() => Array.from(document.querySelectorAll('input'), (field) => field.value)")
    assert CANARY not in light  # and in no field outside the component
