"""DontoMemoryTool: a backend for Claude's memory tool (`memory_20250818`) whose files are donto
documents, over donto's client alone, so that what Claude writes under `/memories` is recallable by
donto's recall (meaning, words, dates) and every earlier version of a file reads as it was known.

    import anthropic
    from donto.integrations.anthropic import DontoMemoryTool

    memory = DontoMemoryTool(workspace="my-agent")  # DONTO_URL / DONTO_API_KEY, or the home's
    runner = anthropic.Anthropic().beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=2048, tools=[memory],
        messages=[{"role": "user", "content": "Remember that I take my coffee black."}],
    )

A subclass of the SDK's `BetaAbstractMemoryTool` (and `DontoAsyncMemoryTool` of its
`BetaAsyncAbstractMemoryTool`): view, create, str_replace, insert, delete and rename answer with the
SDK's own local-filesystem backend's words and errors (memory_files.py holds that logic, pure, and
the path checks: nothing outside `/memories` is read or written). Each file is a document under the
external id `memory:/memories/…`. An edit (str_replace, insert) registers its new text as a
correction of the revision before (`revision_kind: "correction"`): a memory file is what the agent
has written down, not a dated account of the world, so an edit changes what memory holds from now
on, in transaction time, and the text before is read as known before (`read(path, known_at=...)`,
or `GET /v1/documents?external_id=...&known_at=...`); a version would keep the old text valid
until the edit, recalled for questions about earlier times as if the agent still held it. A delete
retracts (still read as known before); a rename registers the text under the new path and then
retracts the old. create refuses a file that exists, as the SDK's backend does.

Commands of one tool run one at a time; two tools (or processes) editing the same file at once
each write a revision, the later one kept. Needs the `anthropic` extra:
`pip install "donto-memory[anthropic]"`."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import Callable
from datetime import datetime
from typing import Any

try:
    from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool, ToolError
    from anthropic.types.beta import (
        BetaCacheControlEphemeralParam,
        BetaMemoryTool20250818CreateCommand,
        BetaMemoryTool20250818DeleteCommand,
        BetaMemoryTool20250818InsertCommand,
        BetaMemoryTool20250818RenameCommand,
        BetaMemoryTool20250818StrReplaceCommand,
        BetaMemoryTool20250818ViewCommand,
    )
except ImportError as exc:  # the SDK is an extra: say which, not just "no module named anthropic"
    raise ImportError(
        'donto.integrations.anthropic needs the Anthropic SDK: pip install "donto-memory[anthropic]"'
    ) from exc

from donto.client import AsyncClient, Client, ConflictError
from donto.integrations import memory_files as files
from donto.integrations.client_steps import Call, Steps, adrive, drive
from donto.integrations.memory_files import MemoryPath, MemoryToolError, memory_path, shown

__all__ = ["DontoAsyncMemoryTool", "DontoMemoryTool"]

PAGE = 1000  # documents a listing page asks for (the server's most)
SOURCE = "claude-memory-tool"  # the registered documents' `source`


class MemoryFiles:
    """The memory tool's commands as the donto client calls each needs (run by drive or adrive)."""

    # -- reads ------------------------------------------------------------------------------------

    def file(self, path: MemoryPath, known_at: datetime | str | None = None) -> Steps:
        """The live document of the file at `path` (as known at `known_at`), or None."""
        if path.is_root:
            return None
        page = yield Call("list_documents", {"external_id": path.external_id, "known_at": known_at})
        return page.documents[0] if page.documents else None

    def under(self, path: MemoryPath, limit: int | None = None) -> Steps:
        """The files under `path` (a directory), each with its document: all, or about `limit`."""
        found: dict[MemoryPath, Any] = {}
        cursor = None
        while True:
            page = yield Call("list_documents", {"prefix": path.below, "limit": limit or PAGE, "cursor": cursor})
            for document in page.documents:
                if (file := files.path_of_external_id(document.external_id)) is not None:
                    found[file] = document
            if page.next_cursor is None or (limit is not None and found):
                return found
            cursor = page.next_cursor

    def exists(self, path: MemoryPath) -> Steps:
        """A file or a directory (the root always) is at `path`."""
        if path.is_root or (yield from self.file(path)) is not None:
            return True
        return bool((yield from self.under(path, limit=1)))

    def no_file_above(self, path: MemoryPath, raw: object) -> Steps:
        """MemoryToolError where a directory `path` is to be under is a file."""
        ancestors = path.ancestors()
        if not ancestors:
            return None
        page = yield Call("list_documents", {"external_id": [a.external_id for a in ancestors]})
        held = {d.external_id for d in page.documents}
        for ancestor in ancestors:
            if ancestor.external_id in held:
                raise MemoryToolError(f"The path {ancestor} is a file, not a directory: {shown(raw)} cannot be made")
        return None

    def read(self, raw: object, known_at: datetime | str | None = None) -> Steps:
        path = memory_path(raw)
        document = yield from self.file(path, known_at)
        if document is None:
            return None
        return (yield Call("get_document_text", {"document_id": document.id}))

    # -- the commands -----------------------------------------------------------------------------

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> Steps:
        raw = _field(command, "path")
        path = memory_path(raw)
        view_range = _view_range(command)
        document = yield from self.file(path)
        if document is not None:
            text = yield Call("get_document_text", {"document_id": document.id})
            return files.view_file(shown(raw), text, view_range)
        held = yield from self.under(path)
        if not held and not path.is_root:
            raise MemoryToolError(f"The path {shown(raw)} does not exist. Please provide a valid path.")
        return files.view_directory(path.path, path, {p: _size(d) for p, d in held.items()})

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> Steps:
        raw = _field(command, "path")
        text = _text(command, "file_text")
        path = memory_path(raw, file=True)
        if path.is_root or (yield from self.exists(path)):
            raise MemoryToolError(f"File {shown(raw)} already exists")
        yield from self.no_file_above(path, raw)
        yield self._write(path, text)
        return f"File created successfully at: {shown(raw)}"

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> Steps:
        raw = _field(command, "path")
        old, new = _text(command, "old_str"), _text(command, "new_str")
        return (yield from self._edit(raw, lambda text: files.replaced(shown(raw), text, old, new)))

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> Steps:
        raw = _field(command, "path")
        line, text_in = _field(command, "insert_line"), _text(command, "insert_text")
        edited = f"The file {shown(raw)} has been edited."
        return (yield from self._edit(raw, lambda text: (files.inserted(text, line, text_in), edited)))

    def _edit(self, raw: object, change: Callable[[str], tuple[str, str]]) -> Steps:
        path = memory_path(raw)
        document = yield from self.file(path)
        if document is None:
            if (yield from self.exists(path)):
                raise MemoryToolError(f"The path {shown(raw)} is not a file.")
            raise MemoryToolError(f"The path {shown(raw)} does not exist. Please provide a valid path.")
        text = yield Call("get_document_text", {"document_id": document.id})
        new_text, answer = change(text)
        renamed_from = (document.metadata or {}).get("renamed_from")
        yield self._write(path, new_text, renamed_from, revision_kind="correction")
        return answer

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> Steps:
        raw = _field(command, "path")
        path = memory_path(raw)
        if path.is_root:
            raise MemoryToolError("Cannot delete the /memories directory itself")
        document = yield from self.file(path)
        held = {path: document} if document is not None else (yield from self.under(path))
        if not held:
            raise MemoryToolError(f"The path {shown(raw)} does not exist")
        for _, doc in sorted(held.items(), key=lambda i: i[0].path):
            yield from self._retract(doc, "deleted by Claude's memory tool")
        return f"Successfully deleted {shown(raw)}"

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> Steps:
        old_raw, new_raw = _field(command, "old_path"), _field(command, "new_path")
        old, new = memory_path(old_raw), memory_path(new_raw)
        if old.is_root:
            raise MemoryToolError("Cannot rename the /memories directory itself")
        if (yield from self.exists(new)):
            raise MemoryToolError(f"The destination {shown(new_raw)} already exists")
        document = yield from self.file(old)
        held = {old: document} if document is not None else (yield from self.under(old))
        if not held:
            raise MemoryToolError(f"The path {shown(old_raw)} does not exist")
        moves = files.renames(old, new, held)
        yield from self.no_file_above(new, new_raw)
        # Every new file first, then the old ones retracted: cut short, a rename leaves a copy, never a loss.
        for source, target in moves:
            text = yield Call("get_document_text", {"document_id": held[source].id})
            yield self._write(target, text, source.path)
        for source, _ in moves:
            yield from self._retract(held[source], f"renamed to {new}")
        return f"Successfully renamed {shown(old_raw)} to {shown(new_raw)}"

    def clear_all_memory(self) -> Steps:
        held = yield from self.under(MemoryPath(files.ROOT))
        for _, doc in sorted(held.items(), key=lambda i: i[0].path):
            yield from self._retract(doc, "cleared by Claude's memory tool")
        return "All memory cleared"

    # -- writes -----------------------------------------------------------------------------------

    def _write(self, path: MemoryPath, text: str, renamed_from: str | None = None, **extra: Any) -> Call:
        metadata = files.file_metadata(path, text, MemoryPath(renamed_from) if renamed_from else None)
        fields = {"text": text, "external_id": path.external_id, "title": path.path, "source": SOURCE}
        return Call("register_document", {**fields, "metadata": metadata, **extra})

    def _retract(self, document: Any, reason: str) -> Steps:
        # Retracted or replaced since it was read: another writer's change stands.
        with contextlib.suppress(ConflictError):
            yield Call("retract_document", {"document_id": document.id, "reason": reason})
        return None


def _field(command: object, name: str) -> Any:
    """A command's field; the SDK builds commands without validating them, so one may be missing."""
    value = getattr(command, name, None)
    if value is None:
        raise MemoryToolError(f"The `{name}` parameter is required.")
    return value


def _text(command: object, name: str) -> str:
    value = _field(command, name)
    if not isinstance(value, str):
        raise MemoryToolError(f"The `{name}` parameter must be a string.")
    return value


def _view_range(command: object) -> list[int] | None:
    value = getattr(command, "view_range", None)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise MemoryToolError(f"Invalid `view_range` parameter: {value!r}. It should be a list of two integers.")
    return value


def _size(document: Any) -> int:
    """A file's size in bytes, from its metadata (its text's length where another writer kept none)."""
    size = (document.metadata or {}).get("bytes")
    return size if isinstance(size, int) and not isinstance(size, bool) else document.length


def _refused(error: MemoryToolError) -> ToolError:
    return ToolError(str(error))


class DontoMemoryTool(BetaAbstractMemoryTool):
    """Claude's memory tool over donto (see the module's docstring), for the SDK's blocking tool runner.

    base_url, api_key, workspace: as donto.Client takes them (from the environment or the donto home
    when not given); or `client`, a donto.Client of your own (then those are its, and closing it is
    yours). cache_control: the SDK's, sent with the tool's definition."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: Client | None = None,
        timeout: float = 120.0,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ):
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a client, or base_url / api_key / workspace to make one, not both")
        if client is not None and not isinstance(client, Client):
            raise TypeError(
                f"client is a donto.Client (the async tool takes an AsyncClient), not a {type(client).__name__}"
            )
        super().__init__(cache_control=cache_control)
        self._owns_client = client is None
        # Made now: a tool with nowhere to connect fails here (donto.NoAddress), not at Claude's first command.
        self.client = (
            client if client is not None else Client(base_url, api_key=api_key, workspace=workspace, timeout=timeout)
        )
        self._files = MemoryFiles()
        self._lock = threading.Lock()  # one command at a time: an edit reads, then writes

    def __enter__(self) -> DontoMemoryTool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the client this tool made (one passed in stays open)."""
        if self._owns_client:
            self.client.close()

    def _run(self, steps: Steps) -> Any:
        with self._lock:
            try:
                return drive(steps, self.client)
            except MemoryToolError as error:
                raise _refused(error) from None

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return str(self._run(self._files.view(command)))

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return str(self._run(self._files.create(command)))

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return str(self._run(self._files.str_replace(command)))

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return str(self._run(self._files.insert(command)))

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return str(self._run(self._files.delete(command)))

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return str(self._run(self._files.rename(command)))

    def clear_all_memory(self) -> str:
        """Retract every file under /memories (each still read as known before)."""
        return str(self._run(self._files.clear_all_memory()))

    def read(self, path: str, *, known_at: datetime | str | None = None) -> str | None:
        """The text of the file at `path` as known now, or as known at `known_at` (before an edit, a
        delete or a rename); None where no file was there. ToolError for a path outside /memories."""
        return self._run(self._files.read(path, known_at))


class DontoAsyncMemoryTool(BetaAsyncAbstractMemoryTool):
    """Claude's memory tool over donto for the SDK's async tool runner: DontoMemoryTool's commands on a
    donto.AsyncClient (`client`, yours to close; else made from base_url, api_key and workspace, one
    for each event loop that runs commands, since an httpx pool's connections belong to the loop that
    opened them)."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: AsyncClient | None = None,
        timeout: float = 120.0,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ):
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a client, or base_url / api_key / workspace to make one, not both")
        if client is not None and not isinstance(client, AsyncClient):
            raise TypeError(
                f"client is a donto.AsyncClient (the blocking tool takes a Client), not a {type(client).__name__}"
            )
        super().__init__(cache_control=cache_control)
        self._given = client
        # Made now, so that a tool with nowhere to connect fails here (donto.NoAddress); it serves the
        # first event loop that asks, and each later loop gets a client of its own.
        self._unbound: AsyncClient | None = (
            AsyncClient(base_url, api_key=api_key, workspace=workspace, timeout=timeout) if client is None else None
        )
        self._made: dict[str, Any] = dict(api_key=api_key, workspace=workspace, timeout=timeout)
        self.base_url = client.base_url if client is not None else self._unbound.base_url  # type: ignore[union-attr]
        self._per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[AsyncClient, asyncio.Lock]] = (
            weakref.WeakKeyDictionary()
        )
        self._files = MemoryFiles()

    def _for_loop(self) -> tuple[AsyncClient, asyncio.Lock]:
        loop = asyncio.get_running_loop()
        if (held := self._per_loop.get(loop)) is None:
            if self._given is not None:
                client = self._given
            elif self._unbound is not None:
                client, self._unbound = self._unbound, None
            else:
                client = AsyncClient(self.base_url, **self._made)
            held = self._per_loop[loop] = (client, asyncio.Lock())
        return held

    @property
    def client(self) -> AsyncClient:
        """The client for the running event loop: the one given, else this loop's own."""
        return self._for_loop()[0]

    async def close(self) -> None:
        """Close the client this tool made for the running loop (one passed in stays open)."""
        held = self._per_loop.pop(asyncio.get_running_loop(), None)
        if self._given is None and held is not None:
            await held[0].aclose()
        elif self._unbound is not None:  # made, never used: nothing is open yet, but close it all the same
            unbound, self._unbound = self._unbound, None
            await unbound.aclose()

    async def __aenter__(self) -> DontoAsyncMemoryTool:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def _run(self, steps: Steps) -> Any:
        client, lock = self._for_loop()
        async with lock:
            try:
                return await adrive(steps, client)
            except MemoryToolError as error:
                raise _refused(error) from None

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return str(await self._run(self._files.view(command)))

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return str(await self._run(self._files.create(command)))

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return str(await self._run(self._files.str_replace(command)))

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return str(await self._run(self._files.insert(command)))

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return str(await self._run(self._files.delete(command)))

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return str(await self._run(self._files.rename(command)))

    async def clear_all_memory(self) -> str:
        """Retract every file under /memories (each still read as known before)."""
        return str(await self._run(self._files.clear_all_memory()))

    async def read(self, path: str, *, known_at: datetime | str | None = None) -> str | None:
        """The text of the file at `path` as known now, or as known at `known_at`; None where no file was."""
        return await self._run(self._files.read(path, known_at))
