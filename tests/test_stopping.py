"""Interrupts held over steps that must finish together, then acted on."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from splendor_mcts.stopping import Terminated, deferred_interrupts, sigterm_interrupts


def test_ctrl_c_waits_for_the_block_then_interrupts() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupts():
            signal.raise_signal(signal.SIGINT)
            steps.append("after the signal")
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_waits_too_and_stops_as_the_command_would() -> None:
    with sigterm_interrupts():
        steps = []
        with pytest.raises(Terminated):
            with deferred_interrupts():
                os.kill(os.getpid(), signal.SIGTERM)
                steps.append("after the signal")
        assert steps == ["after the signal"]


def test_a_second_signal_acts_at_once() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupts():
            signal.raise_signal(signal.SIGINT)
            steps.append("held")
            signal.raise_signal(signal.SIGINT)
            steps.append("never")
    assert steps == ["held"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_held_sigterm_still_stops_when_the_second_signal_is_an_ignored_ctrl_c() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as for a command started with nohup ... &
    try:
        with sigterm_interrupts():
            steps = []
            with pytest.raises(Terminated):
                with deferred_interrupts():
                    os.kill(os.getpid(), signal.SIGTERM)
                    steps.append("held")
                    signal.raise_signal(signal.SIGINT)
                    steps.append("never")
            assert steps == ["held"]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_nested_blocks_deliver_once_at_the_outer_end() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupts():
            with deferred_interrupts():
                signal.raise_signal(signal.SIGINT)
            steps.append("inner block ended")
    assert steps == ["inner block ended"]


def test_an_ignored_signal_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with deferred_interrupts():
            signal.raise_signal(signal.SIGINT)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_without_a_signal_or_off_the_main_thread_the_block_just_runs() -> None:
    with deferred_interrupts():
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ran = []

    def work() -> None:
        with deferred_interrupts():
            ran.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert ran == [True]
