"""Choosing the way in from labels alone (apps/sites/signin/entry.py), no browser."""

from __future__ import annotations

from apps.sites.observation.snapshot import Control
from apps.sites.signin.entry import choose_entry


def control(label: str, href: str = "/x", role: str = "link", section: str = "") -> Control:
    return Control(
        frame_path=(), role=role, name=label, text=label, section=section, row="", fingerprint="f", document="d",
        href=href, enabled=True, expanded=None, in_viewport=True, ambiguous=False, panel=None, form=None,
    )  # fmt: skip


def chosen(*controls: Control) -> str | None:
    choice = choose_entry(controls)
    return controls[choice.control].label if choice.kind == "chosen" and choice.control is not None else None


def test_a_help_article_about_the_account_is_not_a_way_in() -> None:
    assert chosen(control("\U0001f464 Authentication", "/ap/signin"), control("Your Account — Let Us Help You")) == (
        "\U0001f464 Authentication"
    )
    assert chosen(control("Serve aiuto con l'area clienti?"), control("Area clienti", "/login")) == "Area clienti"


def test_the_sites_menu_is_opened_only_when_nothing_else_leads_in() -> None:
    menu = control("☰ Menu", "", role="button")
    assert chosen(menu, control("Offerte")) == "☰ Menu"
    assert chosen(menu, control("Accedi", "/login")) == "Accedi"
    assert chosen(control("Lingua ▾", "", role="button"), control("Offerte")) is None  # not the site's menu


def test_among_equal_ways_in_one_under_a_column_of_help_links_gives_way() -> None:
    header = control("\U0001f464 Authentication", "/ap/signin")
    footer = control("Your Account", "/your-account", section="Let Us Help You")
    assert chosen(header, footer) == "\U0001f464 Authentication"
    # Without that difference, equal ways in to different places are still a question.
    assert chosen(header, control("Your Account", "/your-account")) is None
