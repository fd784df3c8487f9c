"""Shared helpers for benchmarks that need Django: a throw-away data folder and database.

A benchmark calls :func:`django_for_benchmark` once, before importing any
model, and works inside the ``with`` block::

    with django_for_benchmark() as data_dir:
        from apps.runtime.models import Turn
        ...

It creates a temporary ``METNOS_DATA_DIR`` (never the developer's ``data/``),
selects ``tests.settings`` (test keys, fast password hashing), sets up Django
and runs every migration into a fresh SQLite file in that folder. On exit it
closes the database connections and removes the folder, WAL files included.
``DATABASE_URL`` and ``REDIS_URL`` are removed from the environment unless
given explicitly, so a benchmark measures the mode it says it measures.

The module also holds the small statistics every benchmark prints
(:func:`percentile`, :func:`verdict`).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


@contextmanager
def temporary_folder(prefix: str = "metnos-bench-") -> Iterator[Path]:
    """A folder removed on exit, whatever happens inside."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def benchmark_environment(data_dir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a benchmark (or a server it starts) runs with: test settings, a private data folder."""
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "METNOS_DATA_DIR": str(data_dir),
            "METNOS_EMBEDDED_WORKER": "false",
            "METNOS_LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO_ROOT), os.environ.get("PYTHONPATH")))),
        }
    )
    env.update(extra or {})
    return env


@contextmanager
def django_for_benchmark(extra_env: Callable[[Path], Mapping[str, str]] | None = None) -> Iterator[Path]:
    """Set up Django on a temporary data folder with a freshly migrated database; yield the folder.

    ``extra_env(data_dir)`` may add variables that depend on the folder,
    such as a ``DATABASE_URL`` inside it.
    """
    with temporary_folder() as data_dir:
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(benchmark_environment(data_dir, extra_env(data_dir) if extra_env else None))
        try:
            import django
            from django.core.management import call_command

            django.setup()
            call_command("migrate", verbosity=0, interactive=False)
            yield data_dir
        finally:
            from django.db import connections

            connections.close_all()
            os.environ.clear()
            os.environ.update(saved)


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.95 → p95) of ``samples``."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def verdict(passed: bool) -> str:
    return "PASS" if passed else "MISS"
