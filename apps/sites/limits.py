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

# Waiting for a browser session. The longest wait (and the queue's length,
# setting METNOS_SITES_QUEUE_LENGTH) are Metnos's own bounds, not the spec's: a
# request beyond them gets a typed refusal instead of waiting without end.
BROWSER_QUEUE_MAX_WAIT = timedelta(minutes=5)
# A session's lease on its slot expires unless renewed, so a worker that dies
# cannot hold a slot for ever; live sessions renew well before expiry.
BROWSER_LEASE_LIFETIME = timedelta(seconds=60)
BROWSER_LEASE_RENEW_EVERY = timedelta(seconds=15)
# How often a live session looks for "Close the web sessions", and how long
# it then has to close itself before its browser is ended by force.
BROWSER_CLOSE_CHECK_EVERY = timedelta(seconds=1)
BROWSER_CLOSE_GRACE = timedelta(seconds=10)
# One browser task in a worker: at the soft limit the task ends its session
# and records ``time_limit``; at the hard limit Celery kills it outright.
BROWSER_TASK_TIME_LIMIT = COLLECTION_MAX_ACTIVE_TIME + timedelta(minutes=5)
BROWSER_TASK_SOFT_TIME_LIMIT = BROWSER_TASK_TIME_LIMIT - timedelta(minutes=1)
# A browser job's lease on its work: the browser worker renews ``heartbeat_at``
# this often while the job runs, and a step waiting for a job whose heartbeat is
# older than the timeout takes its worker for dead and ends the job
# ``interrupted``. How often the worker looks for the step's cancellation.
BROWSER_JOB_HEARTBEAT_EVERY = timedelta(seconds=5)
BROWSER_JOB_HEARTBEAT_TIMEOUT = timedelta(seconds=30)
BROWSER_JOB_CHECK_EVERY = timedelta(seconds=1)
# A job no browser worker started within this long is ended ``not_started``:
# nothing was done, and the step says no browser worker was available.
BROWSER_JOB_START_MAX_WAIT = BROWSER_QUEUE_MAX_WAIT

# The single local attempt at a supported Cloudflare challenge: the spec's
# CAPTCHA attempt bound, in the seconds ``time.monotonic()`` deadlines use.
CLOUDFLARE_ATTEMPT_SECONDS = CAPTCHA_ATTEMPT_TIMEOUT.total_seconds()
