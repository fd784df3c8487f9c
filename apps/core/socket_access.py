"""Whether an open socket's session still stands, and what makes the sockets look again.

A WebSocket is authenticated once, at its handshake; the session may end
while it stays open. ``session_is_current`` answers, without writing
anything, what Django would answer for the next HTTP request of that
session: it exists and has not expired, it is signed in as that user with a
configured backend, the account is active, and the password has not changed
(the session's auth hash). The consumer asks it before delivering an event
on a check older than ``SESSION_RECHECK_SECONDS`` and every that many
seconds.

What Django announces is not waited for. Signing out publishes the ended
session's digest to the user's group: its sockets close before the next
event. A saved or deleted user (password changed, account disabled, by the
portal, the admin or ``changepassword``) makes every socket of that user
check again before the next event. These are signals because the writes
happen inside Django's own views and commands, where no Metnos service runs.
"""

from __future__ import annotations

import hashlib
import logging
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils.crypto import constant_time_compare

from apps.core.events import publish_access_change

logger = logging.getLogger(__name__)


def session_digest(session_key: str) -> str:
    """What travels over the channel layer instead of the session key itself."""
    return hashlib.sha256(session_key.encode("utf-8")).hexdigest()


def session_is_current(*, session_key: str, user_id: int) -> bool:
    """Whether ``session_key`` is still a signed-in session of the active user ``user_id`` (reads only)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    stored_user, backend_path = session.get(SESSION_KEY), session.get(BACKEND_SESSION_KEY)
    if stored_user is None or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False  # ended, expired, or signed in some way this server no longer allows
    if get_user_model()._meta.pk.to_python(stored_user) != user_id:
        return False
    user: Any = load_backend(backend_path).get_user(user_id)
    if user is None or not user.is_active:
        return False
    stored_hash = session.get(HASH_SESSION_KEY)
    if not isinstance(stored_hash, str):
        return False
    if constant_time_compare(stored_hash, user.get_session_auth_hash()):
        return True
    # Sessions signed with a key in SECRET_KEY_FALLBACKS stay valid, as they do over HTTP.
    return any(constant_time_compare(stored_hash, fallback) for fallback in user.get_session_auth_fallback_hash())


def _announce(user_id: int, *, ended_session: str = "") -> None:
    def send() -> None:
        try:
            publish_access_change(user_id, ended_session=ended_session)
        except Exception:  # noqa: BLE001 - the periodic recheck still closes the sockets
            logger.warning("live events: could not tell user %s's sockets their access changed", user_id)

    # After commit: a socket that reads again must see the change.
    transaction.on_commit(send)


def _on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session_key:
        _announce(user.pk, ended_session=session_digest(session_key))


def _on_user_saved(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, raw: bool = False, **kwargs: Any
) -> None:
    if created or raw or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return  # a new or loaded account has no sockets; signing in changes nothing for the open ones
    _announce(instance.pk)


def _on_user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    _announce(instance.pk)


def connect_access_signals() -> None:
    """Called once from the platform's ``ready()``."""
    user_logged_out.connect(_on_logged_out, dispatch_uid="metnos.socket_access.logged_out")
    post_save.connect(_on_user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="metnos.socket_access.saved")
    post_delete.connect(_on_user_deleted, sender=settings.AUTH_USER_MODEL, dispatch_uid="metnos.socket_access.deleted")
