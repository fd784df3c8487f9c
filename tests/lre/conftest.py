"""LRE tests use the runtime's files-root fixtures."""

from tests.runtime.conftest import files_root, root

__all__ = ["files_root", "root"]
