"""Sign-in throttling: per username and address, and per address across usernames.

django-axes counts failures per (username, address) and locks that pair at
``AXES_FAILURE_LIMIT``. Alone, that never stops one address trying one
password on each of many usernames (a password spray). This handler adds a
second, separate limit: once the failures from one address, whatever the
usernames, reach ``METNOS_SIGNIN_ADDRESS_FAILURE_LIMIT`` within the cool-off
time, that address is locked for every username, with a message saying so.
Both locks last ``AXES_COOLOFF_TIME``; a successful sign-in clears only its
own pair's count, so signing in to one account does not reset the address.
"""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum

# Set on a request refused because of its address, for the lockout page's wording.
ADDRESS_LOCKED_ATTRIBUTE = "metnos_signin_address_locked"


def address_failures(request: Any) -> int:
    """Failed sign-ins from the request's address within the cool-off time, over all usernames."""
    attempts = AccessAttempt.objects.filter(ip_address=request.axes_ip_address)
    if settings.AXES_COOLOFF_TIME is not None:
        attempts = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    total = attempts.aggregate(total=Sum("failures_since_start"))["total"]
    return int(total or 0)


class SigninThrottle(AxesDatabaseHandler):  # type: ignore[misc]  # axes ships no types
    """Axes' database handler with the per-address limit on top (``AXES_HANDLER``)."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        failures = int(super().get_failures(request, credentials))
        if address_failures(request) < settings.METNOS_SIGNIN_ADDRESS_FAILURE_LIMIT:
            return failures
        setattr(request, ADDRESS_LOCKED_ATTRIBUTE, True)
        # Axes compares the answer with its one limit: reaching it locks the address for every username.
        return max(failures, int(get_failure_limit(request, credentials)))
