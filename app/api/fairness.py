"""Tenants take turns: at most `limit` requests of one workspace run at once, and the rest wait in
the event loop, holding no worker thread.

Without it, one tenant's flood of batch writes (48 at once, each queueing on its workspace's clock
lock inside a worker thread) held every thread of the pool, and another tenant's 12 ms read waited
3.3 s for one; the writes that waited longest on the lock reached the transaction timeout.

Heavy requests (a body of `heavy_bytes` or more: batch writes, imports) are bounded apart: at most
HEAVY_AT_ONCE of a workspace's run at once, whatever its other turns, and past `heavy_in_flight`
(running or waiting) the next is refused with 429 and Retry-After. A workspace's writes queue on its
clock lock anyway; two at once had one batch read and checked while the other was written, in the
threads and on the cores another tenant's questions needed, and one ready to start waits for the
light requests in flight (LIGHT_FIRST_S at most). bench tenants --flood 8 on 2 cores: the quiet
tenant's recall p95 3.93x its floor with two at once and no wait, 2.21x with one and the wait
(medians), the flood 5,191-5,923 -> 3,946-4,191 claims/s. The batch already running when a question
arrives gives way too, between slices of its one transaction (claims/service.py WRITE_SLICE): 1.59x.

A memorize request that carries images is heavy whatever its size: a 20 KB screenshot is read by
OCR for about a second of CPU (`python -m bench ocr`), far more than its bytes say. (The process
reads one image at a time, on DONTO_OCR_THREADS cores: extraction/ocr.py.)"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager

from donto.errors import WorkspaceBusy

HEAVY_AT_ONCE = 1
HEAVY_RETRY_AFTER_S = 1  # a 1,000-claim batch is written in well under a second
LIGHT_FIRST_S = 0.5  # the longest a heavy request waits, ready to start, for the light ones in flight
CARRIES_IMAGES = re.compile(rb'"images"\s*:\s*\[\s*"')  # a JSON body with a non-empty list of images


def is_heavy(headers: Mapping[str, str], heavy_bytes: int) -> bool:
    """A body of heavy_bytes or more, or of a size not declared (chunked): a batch, not a question."""
    length = headers.get("content-length")
    if length is not None:
        return length.isdigit() and int(length) >= heavy_bytes
    return "chunked" in headers.get("transfer-encoding", "").lower()


def carries_images(body: bytes) -> bool:
    """A memorize body with images in it: OCR makes it heavy, however small."""
    return CARRIES_IMAGES.search(body) is not None


class WorkspaceTurns:
    def __init__(
        self,
        limit: int,
        heavy_in_flight: int = 0,
        heavy_bytes: int = 64 * 1024,
        light_in_flight: Callable[[], int] = lambda: 0,
    ):
        self.limit = limit  # 0: no limit
        self.light_in_flight = light_in_flight
        self.heavy_in_flight = heavy_in_flight  # 0: no limit
        self.heavy_bytes = heavy_bytes
        self._gates: dict[str, asyncio.Semaphore] = {}
        self._heavy_gates: dict[str, asyncio.Semaphore] = {}
        self._heavy = Counter[str]()  # heavy requests in flight, by workspace

    @asynccontextmanager
    async def turn(self, workspace: str, heavy: bool = False) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if heavy and self.heavy_in_flight > 0:
                if self._heavy[workspace] >= self.heavy_in_flight:
                    raise WorkspaceBusy(
                        f"{self.heavy_in_flight} large requests of this workspace are already in flight; "
                        "send the next when one has been answered",
                        HEAVY_RETRY_AFTER_S,
                    )
                self._heavy[workspace] += 1
                stack.callback(self._heavy_done, workspace)
                await stack.enter_async_context(_gate(self._heavy_gates, workspace, HEAVY_AT_ONCE))
            if self.limit > 0:
                await stack.enter_async_context(_gate(self._gates, workspace, self.limit))  # first come, first served
            if heavy:
                await self._light_first()
            yield

    async def _light_first(self) -> None:
        """Hold a heavy request that could start while light requests are in flight (any tenant's),
        up to LIGHT_FIRST_S: a batch that starts beside a question takes its cores for as long as
        it runs, while the question is over in tens of milliseconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LIGHT_FIRST_S
        while self.light_in_flight() and loop.time() < deadline:
            await asyncio.sleep(0.005)

    def heavy(self, headers: Mapping[str, str]) -> bool:
        return is_heavy(headers, self.heavy_bytes)

    def _heavy_done(self, workspace: str) -> None:
        self._heavy[workspace] -= 1
        if not self._heavy[workspace]:
            del self._heavy[workspace]


def _gate(gates: dict[str, asyncio.Semaphore], workspace: str, slots: int) -> asyncio.Semaphore:
    gate = gates.get(workspace)
    if gate is None:
        gate = gates[workspace] = asyncio.Semaphore(slots)
    return gate
