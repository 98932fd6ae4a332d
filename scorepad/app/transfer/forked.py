"""Work shared among forked processes, its results in order: writing a large export and checking a
large import both spend most of their time on games that do not depend on each other.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any


def forked_in_order(work: Any, items: Iterable[Any], workers: int) -> Iterator[Any]:
    """`work` (which returns a list) over `items` in `workers` forked processes, its results in the
    order of the items, at most 2 x workers items under way (memory stays bounded)."""
    import multiprocessing  # start-up: ~15 ms; only large transfers fork

    pending: deque[Any] = deque()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for item in items:
            pending.append(pool.apply_async(work, (item,)))
            if len(pending) > 2 * workers:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
