"""Preparing a page for reading during a collection: cookie notices, then covering overlays.

This is the ``prepare_page`` hook the collection calls on each new page
(:mod:`apps.sites.collect_pages`). It only calls the procedures built for
that purpose: :func:`apps.sites.cookies.reject_cookies` (reject, never
accept; pause when unsure) and :func:`apps.sites.overlays.close_overlay`
(a safe exit only). A page without panels is left alone at no cost. A
procedure that pauses blocks the collection: pending consent stops the
sequence, and nothing is clicked in its place. Its clicks are the
procedures' own; they are not repeated by the collection's recovery.
"""

from __future__ import annotations

from playwright.sync_api import Page

from apps.sites.collect_pages import PreparedPage
from apps.sites.cookies import reject_cookies
from apps.sites.cookies_memory import ConsentMemory
from apps.sites.observation import Snapshot
from apps.sites.overlays import close_overlay


class SitePreparation:
    """Cookie rejection and overlay closing for one collection, with the owner's consent memory."""

    def __init__(self, *, owner_id: int) -> None:
        self.memory = ConsentMemory(owner_id)

    def __call__(self, page: Page, snapshot: Snapshot, deadline: float) -> PreparedPage:
        if not snapshot.panels:
            return PreparedPage()
        cookies = reject_cookies(page, memory=self.memory, deadline=deadline)
        if cookies.kind == "paused":
            return PreparedPage(blocked=f"cookies_{cookies.reason or 'paused'}")
        overlay = close_overlay(page, deadline=deadline)
        if overlay.kind == "paused":
            return PreparedPage(blocked=f"overlay_{overlay.reason or 'paused'}", changed=bool(cookies.clicks))
        return PreparedPage(changed=bool(cookies.clicks or overlay.clicks))
