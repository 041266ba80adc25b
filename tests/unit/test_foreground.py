"""Background jobs give way to requests: they wait for a quiet moment, but never for ever."""

from __future__ import annotations

import threading
import time

from donto.jobs.foreground import Foreground


def test_an_idle_process_gives_way_at_once() -> None:
    foreground = Foreground()
    assert foreground.give_way(quiet_s=0.2, max_wait_s=5.0) < 0.05


def test_quiet_is_zero_while_a_request_runs_and_counts_up_after_it() -> None:
    foreground = Foreground()
    with foreground.request():
        assert foreground.quiet_for() == 0.0
    time.sleep(0.05)
    assert 0.04 < foreground.quiet_for() < 1.0


def test_waits_for_a_running_request_to_end_and_then_for_the_quiet_period() -> None:
    # Ordered by events and by the clock's differences, not by fixed durations: on a loaded machine a
    # thread starts late and a sleep overruns, and the rule is "after the request, then quiet_s of quiet".
    foreground = Foreground()
    started, ended_at = threading.Event(), []

    def request() -> None:
        with foreground.request():
            started.set()
            time.sleep(0.2)
        ended_at.append(time.monotonic())

    thread = threading.Thread(target=request)
    thread.start()
    started.wait(5.0)
    foreground.give_way(quiet_s=0.1, max_wait_s=5.0)
    returned_at = time.monotonic()
    thread.join()
    assert ended_at and ended_at[0] <= returned_at  # not before the request ended ...
    assert returned_at - ended_at[0] >= 0.09  # ... and then not before a quiet period (the clock's grain aside)


def test_never_waits_longer_than_the_limit_while_requests_keep_coming() -> None:
    foreground = Foreground()
    with foreground.request():
        waited = foreground.give_way(quiet_s=0.1, max_wait_s=0.3)
    assert 0.3 <= waited < 0.6


def test_heavy_requests_alone_let_a_pressed_background_turn_go_at_once() -> None:
    foreground = Foreground()
    with foreground.request(heavy=True):  # a batch write that never ends: the process is never quiet
        started = time.monotonic()
        whole = foreground.background_turn(quiet_s=0.1, max_wait_s=0.3)
        waited = time.monotonic() - started
    assert not whole and 0.3 <= waited < 0.6  # a slice, taken as soon as the longest wait was over


def test_a_pressed_background_turn_waits_for_the_light_requests_in_flight() -> None:
    foreground = Foreground()
    answered = threading.Event()

    def recall() -> None:
        with foreground.request():  # light: a question
            time.sleep(0.5)
        answered.set()

    with foreground.request(heavy=True):
        threading.Thread(target=recall).start()
        time.sleep(0.02)
        whole = foreground.background_turn(quiet_s=0.1, max_wait_s=0.3)
        assert answered.is_set()  # the slice waited for the question, past the first 0.3 s
    assert not whole


def test_a_quiet_process_gets_a_whole_batch() -> None:
    assert Foreground().background_turn(quiet_s=0.05, max_wait_s=1.0)
