"""Documents: finding and reading the owner's files, and stored downloads."""
