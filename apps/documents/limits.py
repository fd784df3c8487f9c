"""Bounds for finding, reading and storing documents, in one place.

Tests cite these names; changing a number here is changing the product.
"""

from __future__ import annotations

# --- Finding files in the owner's files root ---------------------------------
# Results returned by one search when the caller does not ask for fewer.
FIND_DEFAULT_LIMIT = 200
# No caller may ask for more results than this in one search.
FIND_MAX_LIMIT = 5_000
# Folder entries examined by one search; beyond it the answer says it is truncated.
FIND_MAX_SCANNED_ENTRIES = 100_000
# A relative path (base folder or document address) longer than this is refused.
MAX_RELATIVE_PATH_CHARS = 1_024

# --- Reading documents -------------------------------------------------------
# A document larger than this is reported as ``too_large`` without being read.
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
# Extracted text beyond this many characters is cut and the read says ``truncated``.
MAX_TEXT_CHARS = 500_000
# Addresses read in one call; later addresses get an ``over_read_limit`` error.
MAX_DOCUMENTS_PER_READ = 100
# How far into an HTML document a ``<meta charset>`` declaration is looked for.
HTML_CHARSET_SNIFF_BYTES = 4_096

# --- Stored downloads --------------------------------------------------------
# One downloaded file may not exceed this size.
MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024
# Files one owner may keep among their downloads.
MAX_DOWNLOADS_PER_OWNER = 2_000
# Total bytes one owner may keep among their downloads.
MAX_DOWNLOAD_BYTES_PER_OWNER = 2 * 1024 * 1024 * 1024
# A stored file name (after sanitising, before a de-duplication suffix) is cut to this many UTF-8 bytes.
MAX_DOWNLOAD_NAME_BYTES = 150
# Copies "name (2).pdf" … tried before falling back to a random suffix.
MAX_DOWNLOAD_NAME_COPIES = 999
# Chunk size used when writing a download stream.
DOWNLOAD_CHUNK_BYTES = 64 * 1024
