"""`bench ingest` says where its writes' CPU went, and refuses a number of clients that cannot post."""

from __future__ import annotations

import argparse

import pytest

from bench.cli import at_least_one
from bench.common import CpuMeter
from bench.ingest import cpu_line, resident_mb


def test_the_meter_counts_this_process_s_work_inside_the_machine_s():
    with CpuMeter() as meter:
        sum(i * i for i in range(2_000_000))
    assert meter.process_s > 0
    assert meter.machine_s is not None and meter.machine_s >= 0


def test_the_cpu_line_gives_each_side_per_thousand_claims_beside_what_the_cores_had():
    meter = CpuMeter()
    meter.process_s, meter.machine_s = 0.5, 1.5  # 5,000 claims: 100 ms and 300 ms per 1,000
    line = cpu_line([meter], claims=5000, elapsed=1.0)
    assert "this process (client, API, its workers) 100 ms" in line
    assert "the rest of the machine (a local Neo4j) 200 ms" in line
    assert "300 ms busy" in line


@pytest.mark.parametrize("text", ["0", "-2"])
def test_fewer_than_one_client_in_flight_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        at_least_one(text)


def test_resident_memory_grows_with_what_the_process_holds_and_its_peak_is_never_below_it():
    before = resident_mb()
    held = bytearray(64 * 1024 * 1024)
    held[::4096] = b"x" * len(held[::4096])  # touch every page so it is resident
    assert resident_mb() >= before + 60
    assert resident_mb("VmHWM") >= resident_mb()
