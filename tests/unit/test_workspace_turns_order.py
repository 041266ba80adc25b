"""Foreground first within the API: a workspace's heavy requests (batches) run one at a time, and one
ready to start waits while light requests (questions) are in flight, but never longer than
LIGHT_FIRST_S; light requests never wait on heavy ones."""

from __future__ import annotations

import asyncio
import time

from donto.api import fairness
from donto.api.fairness import WorkspaceTurns


class Light:
    """How many light requests are in flight, as the Foreground counts them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> int:
        return self.count


async def timed_turn(turns: WorkspaceTurns, heavy: bool, hold_s: float = 0.0) -> float:
    started = time.monotonic()
    async with turns.turn("w", heavy=heavy):
        waited = time.monotonic() - started
        await asyncio.sleep(hold_s)
    return waited


def test_a_heavy_request_starts_at_once_when_no_light_one_runs() -> None:
    turns = WorkspaceTurns(limit=4, light_in_flight=Light())
    assert asyncio.run(timed_turn(turns, heavy=True)) < 0.05


def test_a_heavy_request_waits_for_the_light_ones_in_flight_to_end() -> None:
    light = Light()
    turns = WorkspaceTurns(limit=4, light_in_flight=light)

    async def scenario() -> float:
        light.count = 1
        heavy = asyncio.create_task(timed_turn(turns, heavy=True))
        await asyncio.sleep(0.15)
        light.count = 0
        return await heavy

    assert 0.13 < asyncio.run(scenario()) < 0.4


def test_a_heavy_request_waits_no_longer_than_light_first_s(monkeypatch) -> None:
    monkeypatch.setattr(fairness, "LIGHT_FIRST_S", 0.1)
    light = Light()
    light.count = 1  # questions never stop
    turns = WorkspaceTurns(limit=4, light_in_flight=light)
    assert 0.09 < asyncio.run(timed_turn(turns, heavy=True)) < 0.3


def test_a_light_request_never_waits_on_heavy_ones() -> None:
    light = Light()
    light.count = 1
    turns = WorkspaceTurns(limit=4, light_in_flight=light)
    assert asyncio.run(timed_turn(turns, heavy=False)) < 0.05


def test_a_workspaces_heavy_requests_run_one_at_a_time() -> None:
    turns = WorkspaceTurns(limit=4, heavy_in_flight=8, light_in_flight=Light())

    async def scenario() -> list[float]:
        return list(await asyncio.gather(timed_turn(turns, True, 0.1), timed_turn(turns, True, 0.1)))

    first, second = sorted(asyncio.run(scenario()))
    assert first < 0.05 and 0.08 < second < 0.5


def test_a_memorize_body_with_images_is_heavy_however_small() -> None:
    assert fairness.carries_images(b'{"text": "a", "images": ["data:image/png;base64,iVBORw0KGgo="]}')
    assert fairness.carries_images(b'{"images":[\n  "iVBORw0KGgo="]}')
    assert not fairness.carries_images(b'{"text": "a", "images": []}')
    assert not fairness.carries_images(b'{"text": "the \\"images\\" of the war"}')
