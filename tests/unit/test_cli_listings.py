"""A CLI listing with nothing in it says so: `donto jobs` printed nothing at all for a workspace without
jobs, and `donto keys list` a bare header, which read as a command that had not run."""

from __future__ import annotations

import argparse
from contextlib import contextmanager
from types import SimpleNamespace

import pytest

import donto.memory
from donto import cli


class NoJobs:
    """Memory whose job and key stores hold nothing: each listing's query answers an empty page."""

    def __init__(self, settings: object) -> None:
        self.asked: list[tuple] = []

    @contextmanager
    def open(self, apply_schema: bool = True):
        nothing = SimpleNamespace(page=lambda *asked: self.asked.append(asked) or [], list=lambda *asked: [])
        yield SimpleNamespace(jobs=nothing, keys=nothing)


@pytest.mark.parametrize(
    ("state", "says"), [(None, "no jobs in workspace notes"), ("failed", "no failed jobs in workspace notes")]
)
def test_donto_jobs_with_none_says_there_are_none(monkeypatch, capsys, state, says):
    monkeypatch.setattr(donto.memory, "Memory", NoJobs)
    args = argparse.Namespace(workspace="notes", state=state, limit=20)
    assert cli.cmd_jobs(None, args) == 0  # type: ignore[arg-type]
    assert capsys.readouterr().out == says + "\n"


@pytest.mark.parametrize(
    ("workspace", "says"),
    [
        (None, "no keys: `donto keys create --workspace W` makes one"),
        ("notes", "no keys for workspace notes: `donto keys create --workspace notes` makes one"),
    ],
)
def test_donto_keys_list_with_none_says_there_are_none_and_how_to_make_one(monkeypatch, capsys, workspace, says):
    monkeypatch.setattr(donto.memory, "Memory", NoJobs)
    args = argparse.Namespace(action="list", workspace=workspace)
    assert cli.cmd_keys(None, args) == 0  # type: ignore[arg-type]
    assert capsys.readouterr().out == says + "\n"
