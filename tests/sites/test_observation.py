"""Observation in real Chromium against the fixture web: controls, rows, sections, secrets, bounds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from apps.sites.observation.limits import ObservationLimits
from apps.sites.observation.reader import observe
from apps.sites.observation.snapshot import ControlIdentity
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import as_json, only, open_and_read

pytestmark = pytest.mark.browser


def test_identical_buttons_are_told_apart_by_the_text_of_their_rows(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-rows").url("/"))
    downloads = snapshot.matching(role="button", name="Download")
    assert [control.row for control in downloads] == [
        "B-001 12/01/2026 30.00 Download",
        "B-002 12/02/2026 31.00 Download",
        "B-003 12/03/2026 32.00 Download",
    ]
    assert {control.section for control in downloads} == {"Bills"}
    assert not any(control.ambiguous for control in downloads)
    assert len({control.identity for control in downloads}) == 3


def test_repeated_cards_and_plain_rows_give_each_control_its_own_row(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-rows").url("/"))
    details = snapshot.matching(name="Details")
    assert [control.row for control in details] == ["Green energy Details", "Fibre 1 Gb Details"]
    shows = snapshot.matching(name="Show")
    assert [control.row for control in shows] == ["Contract A Show", "Contract B Show"]
    assert not any(control.ambiguous for control in (*details, *shows))


def test_rows_that_differ_only_in_hidden_text_or_field_values_stay_ambiguous(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    site = fixture_web.site("observe-rows")
    browser_page.goto(site.url("/"))
    notes = browser_page.get_by_label("Note")
    notes.nth(0).fill("first typed value")
    notes.nth(1).fill("second typed value")
    snapshot = observe(browser_page)
    archives = snapshot.matching(name="Archive")
    assert len(archives) == 2
    assert all(control.ambiguous for control in archives)
    assert archives[0].identity == archives[1].identity
    assert "typed value" not in as_json(snapshot)
    assert "hidden" not in archives[0].row


def test_section_titles_come_from_headings_and_named_landmarks(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-rows").url("/"))
    assert only(snapshot, role="link", name="Bills").section == "Main menu"
    assert {control.section for control in snapshot.matching(name="Details")} == {"Offers"}
    assert {control.section for control in snapshot.matching(name="Archive")} == {"Messages"}
    # A heading inside an aside titles the aside only.
    assert only(snapshot, name="Contact us").section == "Need help?"
    assert only(snapshot, name="Older bills").section == "Bills"


def test_field_values_editable_text_hidden_content_and_code_never_enter_a_snapshot(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    browser_page.goto(fixture_web.site("observe-secrets").url("/"))
    browser_page.fill("input[name=full_name]", "CANARY-TYPED-NAME")
    browser_page.fill("input[name=password]", "CANARY-TYPED-PASSWORD")
    browser_page.fill("textarea", "CANARY-TYPED-NOTES")
    browser_page.click("[contenteditable]")
    browser_page.keyboard.type(" CANARY-TYPED-EDIT")
    snapshot = observe(browser_page)
    assert "CANARY" not in as_json(snapshot)
    assert "Public paragraph." in snapshot.text
    form = next(form for form in snapshot.forms if form.kind == "form")
    assert form.name == "Profile details"
    fields = {field.name: field for field in form.fields}
    assert fields["password"].type == "password" and fields["password"].label == "Password"
    assert fields["password"].autocomplete == "current-password"
    assert fields["token"].visible is False and fields["token"].editable is False
    assert fields["locked"].editable is False and fields["full_name"].editable is True
    assert only(snapshot, role="button", text="?").name == "?"  # its label is hidden, so not read
    assert only(snapshot, role="link", name="Run").href == ""  # script links carry no address


def test_panels_carry_their_static_text_name_images_and_controls(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-panels").url("/"))
    assert len(snapshot.panels) == 1
    panel = snapshot.panels[0]
    assert (panel.kind, panel.name) == ("overlay", "Cookie preferences")
    assert "We use cookies to measure the audience." in panel.text
    assert "Read the cookie policy first." in panel.text  # inside display:contents elements
    assert "Statistics cookies" in panel.text  # text inside a form
    assert panel.image_alts == ("Acme logo",)
    assert "CANARY" not in as_json(snapshot)
    names = [control.label for control in snapshot.panel_controls(panel)]
    assert names == ["cookie policy", "Statistics cookies", "Reject all", "Accept all"]
    forms = [snapshot.forms[index] for index in panel.forms]
    assert [(form.kind, [field.type for field in form.fields]) for form in forms] == [
        ("form", ["checkbox", "text"]),
        ("group", ["contenteditable"]),
    ]


def test_a_modal_dialog_is_a_panel_and_hides_the_page_behind_it(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-panels").url("/modal.html"))
    (panel,) = snapshot.panels
    assert (panel.kind, panel.name, panel.modal) == ("dialog", "Choose your region", True)
    assert "Prices depend on where you live." in panel.text
    assert [control.label for control in snapshot.controls] == ["Europe", "Elsewhere"]
    assert snapshot.controls_obscured == 2
    assert not snapshot.veiled


def test_a_fixed_iframe_is_a_panel_holding_the_frame_content(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-panels").url("/framed.html"))
    (panel,) = snapshot.panels
    assert (panel.kind, panel.name) == ("overlay", "Consent manager")
    assert panel.hosted_frames == (("name:consent",),)
    assert "Your privacy matters." in panel.text
    assert [control.label for control in snapshot.panel_controls(panel)] == ["Reject all", "Accept all"]
    assert {control.frame_path for control in snapshot.panel_controls(panel)} == {("name:consent",)}
    assert only(snapshot, name="Today").panel is None


def test_a_frame_inside_a_dialog_belongs_to_that_dialog(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-panels").url("/dialog-frame.html"))
    (panel,) = snapshot.panels
    assert (panel.kind, panel.name) == ("dialog", "Privacy choices")
    assert panel.hosted_frames == (("http://" + browser_page.url.split("/")[2] + "/banner.html",),)
    assert "Choose how we use your data." in panel.text and "Your privacy matters." in panel.text
    assert [control.label for control in snapshot.panel_controls(panel)] == ["Reject all", "Accept all"]
    assert only(snapshot, name="Destinations").panel is None


def test_a_panel_inside_a_shadow_root_is_observed_with_its_slotted_text(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-panels").url("/shadow.html"))
    (panel,) = snapshot.panels
    assert (panel.kind, panel.name) == ("dialog", "Privacy settings")
    assert panel.text == "We would like to use cookies.\nYour choice is kept for six months.\nReject all Accept all"
    assert "Magazine" not in panel.text
    assert [control.label for control in snapshot.panel_controls(panel)] == ["Reject all", "Accept all"]


def test_frames_are_observed_with_their_path_and_hidden_frames_are_not(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    partner = fixture_web.site("observe-frame-inner").url("/")
    snapshot = open_and_read(browser_page, fixture_web.site("observe-frames").url(f"/?partner={partner}"))
    pay = only(snapshot, name="Pay")
    assert pay.frame_path == ("name:wallet",) and pay.section == "Wallet"
    offer = only(snapshot, name="See the offer")
    assert offer.frame_path == ("name:partner",) and offer.href.startswith(partner)  # the id when unnamed
    assert snapshot.frames_hidden == 1


def test_controls_in_frames_that_cannot_be_told_apart_are_ambiguous(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-frames").url("/twins.html"))
    pays = snapshot.matching(name="Pay")
    assert len(pays) == 2 and all(control.ambiguous for control in pays)


def test_long_pages_are_examined_in_groups_so_later_controls_are_not_hidden(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-long").url("/"))
    assert len(snapshot.controls) == 601 and not snapshot.truncated
    groups = snapshot.groups(100)
    assert [len(group.controls) for group in groups] == [100] * 6 + [1]
    assert groups[-1].number == groups[-1].of == 7
    (last,) = groups[-1].controls
    assert (last.name, last.section) == ("Archive 2019", "Older years")
    assert groups[0].controls[0].row == "D-0001 Open"
    assert not any(control.ambiguous for control in snapshot.controls)


def test_controls_in_a_scrolling_box_are_observed_and_clipped_ones_are_not(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-layout").url("/"))
    opens = snapshot.matching(name="Open")
    assert len(opens) == 60 and opens[-1].row == "Statement 60 Open" and not opens[-1].in_viewport
    assert snapshot.matching(name="Inside a collapsed section") == ()
    assert [control.label for control in snapshot.matching(role="button")] == ["First offer"]


def test_a_page_header_hides_a_control_only_where_scrolling_cannot_clear_it(
    fixture_web: FixtureWeb, browser_page: Any
) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-layout").url("/header.html"))
    # At the very top of the page nothing can scroll the link out from under the header.
    assert [control.label for control in snapshot.controls] == ["Menu", "Middle link", "Far below"]
    assert snapshot.panels == () and snapshot.controls_obscured == 1
    browser_page.evaluate("() => window.scrollTo(0, document.getElementById('middle').offsetTop - 10)")
    scrolled = observe(browser_page)
    assert [control.label for control in scrolled.controls] == ["Menu", "Middle link", "Far below"]
    assert only(scrolled, name="Middle link").in_viewport


def test_bounds_are_hard_and_what_did_not_fit_is_counted(fixture_web: FixtureWeb, browser_page: Any) -> None:
    browser_page.goto(fixture_web.site("observe-long").url("/"))
    limits = ObservationLimits(max_controls=50, page_text=300, row_text=8)
    snapshot = observe(browser_page, limits=limits)
    assert len(snapshot.controls) == 50 and snapshot.controls_omitted == 551 and snapshot.truncated
    assert len(snapshot.text) <= 300 and snapshot.text_truncated
    assert all(len(control.row) <= 8 for control in snapshot.controls)


def test_observation_is_deterministic_and_never_modifies_the_page(fixture_web: FixtureWeb, browser_page: Any) -> None:
    browser_page.goto(fixture_web.site("observe-rows").url("/"))
    before = browser_page.evaluate("() => [document.documentElement.outerHTML, Object.keys(window).length]")
    browser_page.evaluate(
        """() => {
            window.seenMutations = [];
            new MutationObserver((records) => window.seenMutations.push(...records.map((r) => r.type)))
                .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
        }"""
    )
    first = observe(browser_page)
    second = observe(browser_page)
    assert first == second
    assert browser_page.evaluate("() => window.seenMutations") == []
    after = browser_page.evaluate("() => [document.documentElement.outerHTML, Object.keys(window).length - 1]")
    assert after == before


def test_checkboxes_radios_and_switches_say_whether_they_are_on(fixture_web: FixtureWeb, browser_page: Any) -> None:
    browser_page.goto(fixture_web.site("observe-toggles").url("/"))
    browser_page.get_by_label("Statistics cookies").check()
    browser_page.get_by_label("Marketing cookies").uncheck()
    snapshot = observe(browser_page)
    # The state as it is now, changed by the user after the page loaded.
    assert only(snapshot, role="checkbox", name="Statistics cookies").checked is True
    assert only(snapshot, role="checkbox", name="Marketing cookies").checked is False
    necessary = only(snapshot, role="checkbox", name="Necessary cookies")
    assert necessary.checked is True and necessary.enabled is False  # disabled, still on
    assert only(snapshot, role="radio", name="Weekly").checked is True
    assert only(snapshot, role="radio", name="Never").checked is False
    # ARIA switches say it with aria-checked; a native input with a switch role answers for itself.
    assert only(snapshot, role="switch", name="Personalised ads").checked is True
    assert only(snapshot, role="switch", name="Location history").checked is False
    assert only(snapshot, role="switch", name="Sync settings").checked is True
    assert only(snapshot, role="checkbox", name="All partners").checked is None  # mixed: neither on nor off


def test_controls_that_cannot_be_checked_have_no_checked_state(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-toggles").url("/"))
    assert only(snapshot, role="button", name="Save choices").checked is None  # pressed is not checked
    assert only(snapshot, role="link", name="Cookie policy").checked is None
    on = {control.name for control in snapshot.controls if control.checked}
    assert on == {"Necessary cookies", "Marketing cookies", "Weekly", "Personalised ads", "Sync settings"}
    # Not part of the identity: a click that switches a toggle leaves it findable.
    assert "checked" not in {field.name for field in dataclasses.fields(ControlIdentity)}
