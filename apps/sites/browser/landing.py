"""Where a verified sign-in landed, for the collection that follows it in the same turn.

The sign-in's verified destination stays in memory (``SignInReport.anchor``);
only its origin is public. This keeps, per turn and website, the landing
page's path — never its query or fragment, which can carry tokens — so a
collection asked for the website itself starts in the account area rather
than on a home page that offers "Log in" again.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from apps.sites.models import SignedInPage


def signed_in_page_keep(*, owner_id: int, turn_id: int, address: str) -> None:
    """Keep ``address``'s origin and path as where this turn's sign-in landed on that website."""
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return
    origin = f"{parts.scheme}://{parts.netloc}".casefold()
    SignedInPage.objects.update_or_create(
        owner_id=owner_id, turn_id=turn_id, origin=origin, defaults={"path": (parts.path or "/")[:2000]}
    )


def signed_in_page(*, owner_id: int, turn_id: int, address: str) -> str | None:
    """Where this turn's sign-in landed on ``address``'s website, when ``address`` is only that website
    (its home page, no path or query); else None."""
    parts = urlsplit(address)
    if parts.path not in ("", "/") or parts.query or not parts.netloc:
        return None
    origin = f"{parts.scheme}://{parts.netloc}".casefold()
    found = SignedInPage.objects.filter(owner_id=owner_id, turn_id=turn_id, origin=origin).first()
    if found is None or found.path in ("", "/"):
        return None
    return f"{parts.scheme}://{parts.netloc}{found.path}"
