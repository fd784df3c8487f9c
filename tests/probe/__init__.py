"""A tiny test-only app: a web endpoint that enqueues a gated background task."""
