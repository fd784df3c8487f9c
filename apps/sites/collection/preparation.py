"""Preparing a page for reading during a collection: cookie notices, then covering overlays.

This is the ``prepare_page`` hook the collection calls on each new page
(:mod:`apps.sites.collection.pages`). It only calls the procedures built for
that purpose: :func:`apps.sites.acting.cookies.reject_cookies` (reject, never
accept; pause when unsure) and :func:`apps.sites.acting.overlays.close_overlay`
(a safe exit only). A page without panels is left alone at no cost. A
procedure that pauses blocks the collection: pending consent stops the
sequence, and nothing is clicked in its place. Its clicks are the
procedures' own; they are not repeated by the collection's recovery.
"""

from __future__ import annotations

from playwright.sync_api import Page

from apps.sites.acting.cookie_memory import ConsentMemory
from apps.sites.acting.cookies import reject_cookies
from apps.sites.acting.overlays import close_overlay
from apps.sites.collection.pages import PreparedPage
from apps.sites.observation.snapshot import Snapshot


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
