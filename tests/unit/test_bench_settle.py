"""Benches measure a loaded database once the machine is idle, and never wait past their limit."""

from __future__ import annotations

from bench.common import settle


def test_an_idle_enough_machine_is_settled_after_one_window():
    assert settle(busy_below=1.01, window_s=0.05, max_wait_s=5) < 1


def test_a_machine_that_never_quiets_is_waited_for_no_longer_than_the_limit():
    waited = settle(busy_below=0.0, window_s=0.05, max_wait_s=0.3)
    assert 0.3 <= waited < 1.5
