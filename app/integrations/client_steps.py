"""An adapter's operation written once, as a generator of the donto client calls it needs, and run
by either client: `drive` on a donto.Client, `adrive` on a donto.AsyncClient. Each `Call` yielded is
made and its answer sent back in; an error a call raises is raised into the generator at the
`yield` (an operation may handle it: a retraction's conflict); the generator's return value is the
operation's. Used by donto.integrations.langgraph and donto.integrations.anthropic."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from donto.client import AsyncClient, Client


@dataclass(frozen=True)
class Call:
    """One client method call an operation needs next: the sync and async drivers make it alike."""

    method: str
    kwargs: dict[str, Any] = field(default_factory=dict)


Steps = Generator[Call, Any, Any]


def drive(steps: Steps, client: Client) -> Any:
    """Run an operation's calls on the sync client; an error a call raises is raised into it."""
    try:
        call = next(steps)
        while True:
            try:
                answer = getattr(client, call.method)(**call.kwargs)
            except Exception as exc:  # the operation may handle it (a retraction's conflict)
                call = steps.throw(exc)
            else:
                call = steps.send(answer)
    except StopIteration as done:
        return done.value


async def adrive(steps: Steps, client: AsyncClient) -> Any:
    """Run an operation's calls on the async client, as `drive` does."""
    try:
        call = next(steps)
        while True:
            try:
                answer = await getattr(client, call.method)(**call.kwargs)
            except Exception as exc:
                call = steps.throw(exc)
            else:
                call = steps.send(answer)
    except StopIteration as done:
        return done.value
