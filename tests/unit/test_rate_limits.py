"""The request limits on a hand-driven clock: per-key token buckets and per-address failure windows."""

from __future__ import annotations

import pytest

from donto.auth.limits import FailureWindows, RecentlySeen, TokenBuckets, whole_seconds


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_the_burst_then_one_request_per_refill():
    clock = Clock()
    buckets = TokenBuckets(rate=2.0, burst=3, clock=clock)
    assert [buckets.take("k") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("k") == pytest.approx(0.5)
    clock.now += 0.5
    assert buckets.take("k") == 0.0
    assert buckets.take("k") == pytest.approx(0.5)


def test_buckets_are_per_key_and_refill_no_higher_than_the_burst():
    clock = Clock()
    buckets = TokenBuckets(rate=1.0, burst=2, clock=clock)
    buckets.take("a"), buckets.take("a")
    assert buckets.take("a") > 0
    assert buckets.take("b") == 0.0  # another key's bucket is full
    clock.now += 3600
    assert [buckets.take("a") for _ in range(3)][2] > 0  # an hour idle still buys only the burst


def test_a_zero_rate_turns_the_bucket_off():
    buckets = TokenBuckets(rate=0, burst=1, clock=Clock())
    assert all(buckets.take("k") == 0.0 for _ in range(1000))


def test_an_address_is_blocked_for_the_rest_of_its_window_after_its_last_allowed_failure():
    clock = Clock()
    failures = FailureWindows(limit=3, window_s=60, clock=clock)
    assert [failures.record("1.2.3.4") for _ in range(3)] == [False, False, True]
    clock.now += 20
    assert failures.blocked_for("1.2.3.4") == pytest.approx(40)
    assert failures.blocked_for("5.6.7.8") == 0.0  # another address is not blocked by it
    clock.now += 40
    assert failures.blocked_for("1.2.3.4") == 0.0
    failures.record("1.2.3.4")  # a new window: counting starts again
    assert failures.blocked_for("1.2.3.4") == 0.0


def test_failures_below_the_limit_never_block_and_a_zero_limit_turns_it_off():
    clock = Clock()
    failures = FailureWindows(limit=3, window_s=60, clock=clock)
    for _ in range(10):  # two a window, windows apart
        failures.record("a"), failures.record("a")
        assert failures.blocked_for("a") == 0.0
        clock.now += 61
    off = FailureWindows(limit=0, window_s=60, clock=clock)
    for _ in range(100):
        off.record("a")
    assert off.blocked_for("a") == 0.0


def test_retry_after_is_whole_seconds_rounded_up_and_at_least_one():
    assert [whole_seconds(0.001), whole_seconds(1.0), whole_seconds(1.2), whole_seconds(59.5)] == [1, 1, 2, 60]


def test_recently_seen_forgets_the_oldest_past_its_capacity():
    seen = RecentlySeen(capacity=2)
    for name in ("a", "b", "a", "c"):  # "a" seen again is the newest
        seen.add(name)
    assert "a" in seen and "c" in seen and "b" not in seen
