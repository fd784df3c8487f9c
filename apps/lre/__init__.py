"""LRE: long-running work (jobs, phases, batches, units) executed by workers."""
