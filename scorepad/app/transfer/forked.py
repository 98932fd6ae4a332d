"""Work shared among forked processes, its results in order: verifying, exporting and importing a
large database spend most of their time on games that do not depend on each other.

Plain processes and two queues rather than multiprocessing.Pool: a Pool waits forever for the result
of a worker that died (killed, out of memory, a crash in C code), on Ctrl-C every one of its workers
prints a traceback of its own, and its workers outlive a parent that was killed. Here a worker that
dies is an error of the command, Ctrl-C is the parent's alone, every worker is ended and waited for
however the work ends, and a worker whose parent is gone ends itself.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from scorepad.errors import ScorepadError
from scorepad.locale import _

WATCH = 0.5  # seconds between looks: the parent at its workers while it waits, a worker at its parent


class WorkerLost(ScorepadError):
    """A worker process ended before giving back its share of the work (killed, or crashed)."""


def can_fork() -> bool:
    """Whether work can be shared among forked processes here (not on Windows)."""
    import multiprocessing  # start-up: ~15 ms; only large transfers fork

    return "fork" in multiprocessing.get_all_start_methods()


def forked_in_order(work: Callable[[Any], list[Any]], items: Iterable[Any], workers: int) -> Iterator[Any]:
    """`work` (which returns a list) over `items` in `workers` forked processes, its results in the
    order of the items, at most 2 x workers items under way (memory stays bounded); each item goes to
    whichever process is free. An exception raised by `work` is raised here; a worker that dies
    raises WorkerLost. `work` is inherited by the fork, never pickled: a closure will do."""
    import multiprocessing  # start-up: ~15 ms; only large transfers fork

    ctx = multiprocessing.get_context("fork")
    tasks, results = ctx.Queue(), ctx.Queue()
    parent = os.getpid()
    procs = [ctx.Process(target=_serve, args=(work, tasks, results, parent), daemon=True) for _ in range(workers)]
    try:
        for p in procs:
            p.start()
        yield from _in_order(iter(items), 2 * workers, tasks, results, procs)
    finally:  # done, an error, Ctrl-C, or the reader stopped early: no worker outlives the work
        for p in procs:
            if p.pid is not None and p.is_alive():
                p.terminate()
        for p in procs:
            if p.pid is not None:
                p.join()
        tasks.cancel_join_thread()  # items the workers never took: not flushed into a pipe nobody reads
        tasks.close()
        results.close()


_END = object()


def _in_order(items: Iterator[Any], ahead: int, tasks: Any, results: Any, procs: list[Any]) -> Iterator[Any]:
    """Hand out items (numbered) while fewer than `ahead` are under way; yield the results by number."""
    done: dict[int, list[Any]] = {}
    sent = shown = 0
    more = True
    while True:
        while more and sent - shown < ahead:
            item = next(items, _END)
            more = item is not _END
            if more:
                tasks.put((sent, item))
                sent += 1
        if shown in done:
            yield from done.pop(shown)
            shown += 1
        elif shown < sent:
            index, value = _next_result(results, procs)
            done[index] = value
        else:
            return


def _next_result(results: Any, procs: list[Any]) -> tuple[int, list[Any]]:
    """The next result to come back, whichever item it is of; WorkerLost as soon as a worker is gone
    (no worker ends while there is work: its share would never come back)."""
    while True:
        try:
            index, ok, blob = results.get(timeout=WATCH)
        except queue.Empty:
            lost = next((p for p in procs if not p.is_alive()), None)
            if lost is not None:
                how = (_("killed by signal {n}") if lost.exitcode < 0 else _("exit status {n}")).format(
                    n=abs(lost.exitcode))
                raise WorkerLost(_("a worker process ended ({how}) before finishing its share of the "
                                   "work").format(how=how)) from None
            continue
        value = pickle.loads(blob)
        if not ok:
            raise value
        return index, value


def _serve(work: Callable[[Any], list[Any]], tasks: Any, results: Any, parent: int) -> None:
    """A worker: items in, results out (pickled here, so that what cannot be pickled is an error
    sent back, not a result lost), until the parent ends it or is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends the workers
    while os.getppid() == parent:
        try:
            index, item = tasks.get(timeout=WATCH)
        except queue.Empty:
            continue
        try:
            out = (index, True, pickle.dumps(work(item), pickle.HIGHEST_PROTOCOL))
        except Exception as exc:  # noqa: BLE001 - whatever `work` raises is raised again in the parent
            out = (index, False, _pickled(exc))
        results.put(out)


def _pickled(exc: Exception) -> bytes:
    """An exception as bytes for the parent; one that does not survive pickling as a RuntimeError that
    names it."""
    try:
        blob = pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
        pickle.loads(blob)
        return blob
    except Exception:  # noqa: BLE001 - any failure to pickle or unpickle it
        return pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
