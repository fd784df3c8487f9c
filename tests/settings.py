"""Settings for the test suite: the real settings package with test keys.

Only environment defaults are set here; the pass (embedded or services) is
chosen by DATABASE_URL/REDIS_URL exactly as in production.
"""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SECRET_KEY", "test-secret-key-" + "k7Q2mZ9xW4pL1vB8nR3tY6uJ0hG5fD2sA" * 2)
os.environ.setdefault("METNOS_VAULT_KEY", "test-vault-key-" + "Vt8Lq3Zp6Wm1Xr9Ks4Nd7Hb2Gf5Jc0Ye")
if "METNOS_DATA_DIR" not in os.environ:
    # Our own temporary data folder: removed when the test session's process
    # ends (worker and server processes it starts inherit and share it).
    _data_dir = tempfile.mkdtemp(prefix="metnos-test-data-")
    os.environ["METNOS_DATA_DIR"] = _data_dir
    atexit.register(shutil.rmtree, _data_dir, ignore_errors=True)
# The test harness starts the worker itself (in-process or as a process).
os.environ.setdefault("METNOS_EMBEDDED_WORKER", "false")
# No periodic outbox relay in the test processes and the workers they start (tests/faults/ start their own).
os.environ.setdefault("METNOS_OUTBOX_RELAY_SECONDS", "0")

# The managed browser may reach the fixture web on loopback, and nothing else:
# sub-resources outside a session's websites go only to loopback (no request
# ever leaves this machine). Tests of the refusals use the default guard.
os.environ.setdefault("METNOS_SITES_ALLOW_PRIVATE", "127.0.0.0/8,::1/128")
os.environ.setdefault("METNOS_SITES_OUTSIDE_REQUESTS", "opened")

from metnos_site.settings import *  # noqa: F403
from metnos_site.settings import DATABASES

# Fast hashing keeps the suite quick; production uses Django's default.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if str(DATABASES["default"]["ENGINE"]).endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0

INSTALLED_APPS = [*INSTALLED_APPS, "tests.probe"]  # noqa: F405
ROOT_URLCONF = "tests.urls"

if str(DATABASES["default"]["ENGINE"]).endswith("sqlite3"):
    # A file, not memory: the portal server tests run daphne as a separate
    # process that must see the same test database.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-db.sqlite3")}  # noqa: F405
