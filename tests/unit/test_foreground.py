"""Background jobs give way to requests: they wait for a quiet moment, but never for ever."""

from __future__ import annotations

import threading
import time

from app.jobs.foreground import Foreground


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
    foreground = Foreground()
    ended = threading.Event()

    def request() -> None:
        with foreground.request():
            time.sleep(0.2)
        ended.set()

    thread = threading.Thread(target=request)
    thread.start()
    time.sleep(0.02)
    waited = foreground.give_way(quiet_s=0.1, max_wait_s=5.0)
    thread.join()
    assert ended.is_set()
    assert 0.25 <= waited < 1.0  # the request's 0.2 s, then 0.1 s of quiet


def test_never_waits_longer_than_the_limit_while_requests_keep_coming() -> None:
    foreground = Foreground()
    with foreground.request():
        waited = foreground.give_way(quiet_s=0.1, max_wait_s=0.3)
    assert 0.3 <= waited < 0.6
