"""bench ingest --workspaces: the batches go to the workspaces in turn, the first one "bench"."""

import pytest

from bench.ingest import workspace_of

pytestmark = pytest.mark.unit


def test_one_workspace_takes_every_batch() -> None:
    assert {workspace_of(n, 1) for n in range(10)} == {"bench"}


def test_batches_go_to_the_workspaces_in_turn_starting_with_bench() -> None:
    assert [workspace_of(n, 4) for n in range(6)] == ["bench", "bench-1", "bench-2", "bench-3", "bench", "bench-1"]
