"""Work spread over forked processes, one per core, or done in a process of its own
while the caller goes on.

The workers are forked, so they share the state of the process as it is (the
configuration, the files found, the code imported) without it being sent to them.
Where ``fork`` is missing (Windows), where the process runs other threads (``mkdocs
serve``) or is a daemonic one of ``multiprocessing``, or with one job, nothing runs in
workers and the caller does the work itself.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def loading() -> Iterator[None]:
    """Around loading the content model, which makes thousands of objects and no
    garbage: the garbage collector is kept from running through every object the
    process holds meanwhile (in a forked process, that would also copy the memory it
    shares with its parent). What the process then holds is left out of its later
    collections (``gc.freeze``), and so out of those of the workers it forks."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        gc.freeze()


@contextmanager
def young_collections() -> Iterator[None]:
    """Around converting a session, which makes objects by the hundred thousand, most
    of which live until it is done: the garbage collector collects the objects made
    lately, and not the oldest, which each time would mean going through all that
    the session holds so far, as often as it grows by a quarter (a third more time
    for a session of many short messages, 16 MB). Garbage of short life (the cycles
    of Python's JSON encoder, for one) is still collected as it goes."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 1 << 30)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def can_fork() -> bool:
    """Forking is safe in a process of one thread (and allowed where the process is
    not itself a daemonic one of ``multiprocessing``)."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon
    )


def in_background(work: Callable[[], object], daemon: bool = True) -> multiprocessing.process.BaseProcess | None:
    """``work`` started in a forked process of its own while the caller goes on; the
    process, for the caller to join (None where forking is not safe). A daemonic one
    is stopped when the caller ends, and may not start processes of its own."""
    if not can_fork():
        return None
    process = multiprocessing.get_context("fork").Process(target=work, daemon=daemon)
    try:
        process.start()
    except OSError:  # no process to be had: the caller does without
        return None
    return process


def aside(work: Callable[[], bytes]) -> Callable[[], bytes]:
    """``work`` started in a forked process of its own while the caller goes on; a
    function that gives its bytes, waiting for them. Where forking is not safe, or the
    process ends without its bytes (an error), that function does the work itself,
    where the error is then raised."""
    if not can_fork():
        return work
    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)

    def send() -> None:
        reader.close()
        try:
            made = work()
        except Exception:  # noqa: BLE001 (seen again where the work is done again)
            return
        writer.send_bytes(made)

    process = in_background(send)
    writer.close()
    if process is None:
        reader.close()
        return work

    def result() -> bytes:
        try:
            return reader.recv_bytes()
        except (EOFError, OSError):
            return work()
        finally:
            reader.close()
            end(process, wait=1)

    return result


def end(process: multiprocessing.process.BaseProcess, wait: float = 0) -> None:
    """Wait for a process started by ``in_background`` to end, ``wait`` seconds at
    most, then stop it."""
    process.join(wait)
    if process.is_alive():
        process.terminate()
        process.join()


def in_workers(
    items: Sequence[Any], work: Callable[[Any], Any], workers: int, start: Callable[[], None] | None = None
) -> Iterator[tuple[int, Any]] | None:
    """``(index, work(item))`` for every item, as the workers finish them (give the
    largest items first); the result is None where ``work`` raised, for the caller to
    do that item again itself and see why. None instead of an iterator where workers
    cannot be forked or would not help. ``start`` runs first in every worker."""
    if workers < 2 or len(items) < 2 or not can_fork():
        return None
    return _results(items, work, min(workers, len(items)), start)


_work: Callable[[Any], Any] | None = None
_items: Sequence[Any] = ()


def _results(
    items: Sequence[Any], work: Callable[[Any], Any], workers: int, start: Callable[[], None] | None
) -> Iterator[tuple[int, Any]]:
    global _work, _items
    _work, _items = work, items
    try:
        # Workers live as long as the pool (starting one again costs its caches): a
        # session's objects go once it is converted (tests/test_memory.py), so that a
        # worker's memory at its peak is what its largest item needs, however many it does.
        with multiprocessing.get_context("fork").Pool(workers, start) as pool:
            yield from pool.imap_unordered(_run, range(len(items)))
    finally:
        _work, _items = None, ()


def _run(index: int) -> tuple[int, Any]:
    assert _work is not None
    try:
        return index, _work(_items[index])
    except Exception:
        return index, None
