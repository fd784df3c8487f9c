"""Bounds from the specification for browser work, in one place.

Tests cite these names; changing a number here is changing the product.
"""

from datetime import timedelta

# Signing in to a website.
SIGN_IN_MAX_STEPS_PER_ROUTE = 4
SIGN_IN_MAX_ACTIONS = 32

# Collecting data across pages.
COLLECTION_MAX_LEVELS = 8
COLLECTION_MAX_ACTIONS = 256
COLLECTION_MAX_ACTIVE_TIME = timedelta(minutes=10)
COLLECTION_MODEL_DECISION_TIMEOUT = timedelta(seconds=20)

# The managed browser service.
MAX_CONCURRENT_BROWSER_SESSIONS = 8

# Human handoff, CAPTCHA and recovery.
HANDOFF_PANEL_LIFETIME = timedelta(minutes=10)
CAPTCHA_ATTEMPT_TIMEOUT = timedelta(seconds=10)
RECOVERY_READ_TIMEOUT = timedelta(seconds=4)
