"""The local worker pool (ProcessBackend) on its own, with tiny work functions: results, errors
raised in a worker, a worker lost half-way through its reply, and nothing left behind."""
from __future__ import annotations

import multiprocessing
import os
import signal
import struct
import threading

import pytest
from tournament_fakes import raise_two_part_error, refuse_sevens, slow_squares, square_all, unsendable

from splendor_mcts.tournament.backends import ProcessBackend, RemoteTraceback, WorkerLost, _Worker


def test_every_result_comes_back_and_no_thread_runs_here():
    """No thread in this process: CPython 3.11's exit hook raced concurrent.futures' manager thread
    on a closing pipe (a 'Bad file descriptor' traceback after an interrupt, seen in CI)."""
    before = threading.active_count()
    backend = ProcessBackend(2, work=square_all)
    values = []
    for result in backend.run(range(50)):
        values.append(result.value)
        assert threading.active_count() == before
    assert sorted(values) == [n * n for n in range(50)]
    assert multiprocessing.active_children() == []


def test_stopping_early_reaps_the_workers():
    backend = ProcessBackend(2, work=square_all)
    results = backend.run(range(1000))
    next(results)
    results.close()  # as a tournament stopped by its SPRT does
    assert multiprocessing.active_children() == []


def test_an_error_in_a_worker_is_raised_here_with_its_traceback():
    backend = ProcessBackend(2, work=refuse_sevens)
    with pytest.raises(ValueError, match="task 7 is not allowed") as raised:
        list(backend.run(range(20)))
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "refuse_sevens" in str(raised.value.__cause__)
    assert multiprocessing.active_children() == []


def test_a_result_that_cannot_be_sent_back_is_named():
    with pytest.raises(RuntimeError, match="a worker's result cannot be sent back"):
        list(ProcessBackend(2, work=unsendable).run(range(3)))
    assert multiprocessing.active_children() == []


def test_a_reply_that_cannot_be_read_here_is_named():
    with pytest.raises(RuntimeError, match="a worker's reply cannot be read here: TypeError"):
        list(ProcessBackend(2, work=raise_two_part_error).run(range(3)))
    assert multiprocessing.active_children() == []


def test_workers_leave_ctrl_c_to_the_main_process():
    """The terminal sends Ctrl-C to the whole process group: a running worker must not die of it."""
    backend = ProcessBackend(2, work=slow_squares)
    values, seen, sent = [], set(), False
    for result in backend.run(range(40)):
        values.append(result.value)
        seen.add(result.worker)
        if len(seen) == 2 and not sent:  # both are past their start-up and have games left to play
            for worker in backend._workers:
                os.kill(worker.process.pid, signal.SIGINT)
            sent = True
    assert sent and sorted(values) == [n * n for n in range(40)]


def test_a_reply_cut_off_half_way_is_a_lost_worker():
    """A worker killed while sending: what arrived is end-of-file, not a hang or a garbled result."""
    ours, theirs = multiprocessing.Pipe()
    os.write(theirs.fileno(), struct.pack("!i", 100) + b"x")  # a header for 100 bytes, then 1 of them
    theirs.close()
    with pytest.raises(WorkerLost, match="run the same command again to resume"):
        ProcessBackend._reply(_Worker(None, ours))
    ours.close()


def test_a_close_cut_short_by_an_interrupt_is_finished_by_the_next():
    """A second Ctrl-C (or a SIGTERM after a Ctrl-C) can land inside close(); the run's close and
    the caller's then still reap every worker, so the interpreter's exit does not wait for one."""
    backend = ProcessBackend(2, work=square_all)
    results = backend.run(range(1000))
    next(results)
    first = backend._workers[0].process
    is_alive = first.is_alive

    def interrupted(*args):  # the interrupt lands before any worker was stopped
        first.is_alive = is_alive
        raise KeyboardInterrupt

    first.is_alive = interrupted
    with pytest.raises(KeyboardInterrupt):
        results.close()
    backend.close()
    assert multiprocessing.active_children() == []
