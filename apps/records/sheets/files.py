"""Sheet files on disk: where one may be written, and replacing it atomically.

Contract:

* :func:`checked_target` refuses, with a :class:`~apps.records.sheets.receipts.SheetWriteError`,
  a name with the wrong extension (``unsupported_extension``), a folder
  (``path_is_directory``) and a file whose folder does not exist
  (``folder_missing``).
* :func:`atomic_replace` gives the writer a temporary file in the target's
  folder and moves it into place with ``os.replace`` only when the writer
  succeeds: a failure never leaves a half-written file, and an existing file
  stays untouched. An operating-system failure becomes ``io_error``, naming
  the file, never its folder.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from apps.records.sheets.receipts import SheetWriteError


def checked_target(path: str | os.PathLike[str], suffix: str | None) -> Path:
    """``path`` as a file a sheet may be written to (ending in ``suffix``, unless it is ``None``)."""
    target = Path(os.fspath(path))
    if suffix is not None and target.suffix.lower() != suffix:
        raise SheetWriteError("unsupported_extension", f"{target.name!r} does not end in {suffix}")
    if target.is_dir():
        raise SheetWriteError("path_is_directory", f"{target.name!r} is a folder, not a file")
    if not target.parent.is_dir():
        raise SheetWriteError("folder_missing", f"the folder for {target.name!r} does not exist")
    return target


def _io_error(target: Path, exc: OSError) -> SheetWriteError:
    return SheetWriteError("io_error", f"could not write {target.name!r}: {exc.strerror or type(exc).__name__}")


@contextmanager
def atomic_replace(target: Path) -> Iterator[Path]:
    """A temporary path next to ``target``; moved over it only if the block succeeds.

    The temporary file lives in the same folder so ``os.replace`` is atomic.
    An existing target keeps its permissions; a new one is private to the
    service user (mkstemp's 0600). A symbolic link at ``target`` is replaced,
    never followed.
    """
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise _io_error(target, exc) from exc
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise _io_error(target, exc) from exc
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    try:
        folder = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass  # some filesystems cannot sync a folder; the file itself is synced
    finally:
        os.close(folder)
