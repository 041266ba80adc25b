"""Tenants take turns: at most `limit` requests of one workspace run at once, and the rest wait in
the event loop, holding no worker thread.

Without it, one tenant's flood of batch writes (48 at once, each queueing on its workspace's clock
lock inside a worker thread) held every thread of the pool, and another tenant's 12 ms read waited
3.3 s for one; the writes that waited longest on the lock reached the transaction timeout."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class WorkspaceTurns:
    def __init__(self, limit: int):
        self.limit = limit  # 0: no limit
        self._gates: dict[str, asyncio.Semaphore] = {}

    @asynccontextmanager
    async def turn(self, workspace: str) -> AsyncIterator[None]:
        if self.limit <= 0:
            yield
            return
        gate = self._gates.get(workspace)
        if gate is None:
            gate = self._gates[workspace] = asyncio.Semaphore(self.limit)
        async with gate:  # first come, first served within the workspace
            yield
