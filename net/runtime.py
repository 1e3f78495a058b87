"""Process settings for long-running network peers."""

from __future__ import annotations

import gc


def tune_gc() -> None:
    """Keep the garbage collector out of the latency path of a host or client process.

    Everything loaded so far lives as long as the process, so it is frozen out of
    the collector's passes, and passes run less often: an update for ten players
    allocates thousands of short-lived dicts, and both showed up as latency spikes
    (10 clients, p99 73 ms before on the clients' side, 23 ms after).
    """
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
