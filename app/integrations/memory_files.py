"""Claude's memory tool (`memory_20250818`) as files under `/memories`, pure and I/O-free: which paths
are memory paths, the donto external id a file is kept under, and what each command makes of a
file's text, with the answers and error messages of the Anthropic SDK's own local-filesystem backend
(`anthropic.lib.tools.BetaLocalFilesystemMemoryTool`), so that Claude reads the same words from
either. donto.integrations.anthropic does the I/O.

A memory path is `/memories` or `/memories/` then `/`-separated names. The SDK's base class checks no
path, so everything else is refused here, before any request: a path that does not start with
`/memories` as a whole name (`/memoriesX`, `memories/x`, `/Memories`), a `.` or `..` name anywhere
(even `/memories/a/../b`, which stays inside), an empty name (`//`), a name of dots only, a
backslash, a percent-escape (`%2e%2e`, `%2f`: memory paths are plain names, and an escape is how a
traversal hides from a check that reads the raw text), a name whose compatibility form (NFKC:
fullwidth `．．`, `／`) is a traversal or holds a separator, control and format characters (NUL,
newlines, bidirectional overrides, zero-width), unpaired surrogates, and paths or names too long
(a file is kept under the external id `memory:` + its path, at most donto's 512 characters). One
trailing `/` is read as the path without it, except where a file is made (`create`).

A file's size is its text's UTF-8 bytes; a directory is every path some file is under, and its size
is the sum of its files' (the SDK shows the directory inode's)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ROOT = "/memories"
PREFIX = "memory:"  # a file's external id: PREFIX + its path
MAX_EXTERNAL_ID = 512  # donto's Key (app/api/schemas/common.py)
MAX_PATH = MAX_EXTERNAL_ID - len(PREFIX)
MAX_NAME = 255  # a name's characters, as most filesystems allow
MAX_LINES = 999999  # the SDK's
LINE_NUMBER_WIDTH = len(str(MAX_LINES))
VIEW_DEPTH = 2  # a directory's view lists this many levels below it
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, format, surrogates, private, unassigned
PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


class MemoryToolError(ValueError):
    """A command refused, with the message Claude reads (the adapter raises it as the SDK's ToolError)."""


@dataclass(frozen=True)
class MemoryPath:
    """A checked memory path: `/memories` (the root) or `/memories/<name>/…/<name>`."""

    path: str

    @property
    def is_root(self) -> bool:
        return self.path == ROOT

    @property
    def names(self) -> tuple[str, ...]:
        """The names below /memories, in order (none for the root)."""
        return tuple(self.path[len(ROOT) + 1 :].split("/")) if not self.is_root else ()

    @property
    def external_id(self) -> str:
        """The donto external id the file at this path is kept under."""
        return PREFIX + self.path

    @property
    def below(self) -> str:
        """The external id prefix every file under this path (as a directory) shares."""
        return PREFIX + self.path + "/"

    def ancestors(self) -> list[MemoryPath]:
        """The directories this path is under, below /memories, outermost first."""
        names = self.names
        return [MemoryPath("/".join((ROOT, *names[:i]))) for i in range(1, len(names))]

    def is_within(self, other: MemoryPath) -> bool:
        """This path is `other` or under it."""
        return self.path == other.path or self.path.startswith(other.path + "/")

    def moved(self, old: MemoryPath, new: MemoryPath) -> MemoryPath:
        """This path, under `old`, as it is under `new` once `old` is renamed to `new`."""
        assert self.is_within(old)
        return MemoryPath(new.path + self.path[len(old.path) :])

    def __str__(self) -> str:
        return self.path


def shown(path: object) -> str:
    """A path as an answer quotes it: as given when it is plain printable text, else its repr."""
    if isinstance(path, str) and path.isprintable() and "\\" not in path:
        return path
    return repr(path)


def memory_path(path: object, *, file: bool = False) -> MemoryPath:
    """The memory path `path` names, checked (see the module's docstring); MemoryToolError, naming the
    path, where it is not one. file=True: the path is one a file is made at (no trailing `/`)."""
    if not isinstance(path, str):
        raise MemoryToolError(f"Path must be a string starting with /memories, got: {shown(path)}")
    if path != ROOT and not path.startswith(ROOT + "/"):
        raise MemoryToolError(f"Path must start with /memories, got: {shown(path)}")
    invalid = f"Path {shown(path)} is not a valid memory path"
    escapes = f"Path {shown(path)} would escape /memories directory"
    for char in path:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise MemoryToolError(f"{invalid}: it holds the character U+{ord(char):04X}")
    if "\\" in path:
        raise MemoryToolError(f"{escapes}: a backslash is not a separator here")
    if PERCENT_ESCAPE.search(path):
        raise MemoryToolError(f"{escapes}: percent-escapes are not decoded in memory paths")
    body = path
    if body.endswith("/"):
        if file:
            raise MemoryToolError(f"{invalid}: a file's path does not end in /")
        body = body[:-1]
    if len(body) > MAX_PATH:
        raise MemoryToolError(f"{invalid}: longer than {MAX_PATH} characters")
    names = body[len(ROOT) + 1 :].split("/") if body != ROOT else []
    for name in names:
        folded = unicodedata.normalize("NFKC", name)
        if name in (".", "..") or folded in (".", "..") or "/" in folded or "\\" in folded:
            raise MemoryToolError(escapes)
        if not name:
            raise MemoryToolError(f"{invalid}: an empty name (two / in a row)")
        if not name.strip() or not name.strip("."):
            raise MemoryToolError(f"{invalid}: the name {name!r} is only spaces or dots")
        if len(name) > MAX_NAME:
            raise MemoryToolError(f"{invalid}: a name longer than {MAX_NAME} characters")
    if PERCENT_ESCAPE.search(unicodedata.normalize("NFKC", body)):
        raise MemoryToolError(f"{escapes}: percent-escapes are not decoded in memory paths")
    return MemoryPath(body)


def path_of_external_id(external_id: str) -> MemoryPath | None:
    """The memory path a document's external id is the file of; None for one that is none (another
    writer's document under the prefix, with a name this module would refuse)."""
    if not external_id.startswith(PREFIX):
        return None
    try:
        path = memory_path(external_id[len(PREFIX) :], file=True)
    except MemoryToolError:
        return None
    return None if path.is_root else path


def size_in_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def file_metadata(path: MemoryPath, text: str, renamed_from: MemoryPath | None = None) -> dict[str, object]:
    """What a file's document keeps in its metadata: its path and size (a directory's view reads them
    from the listing, not every text), and the path it was renamed from."""
    metadata: dict[str, object] = {"memory_path": path.path, "bytes": size_in_bytes(text)}
    if renamed_from is not None:
        metadata["renamed_from"] = renamed_from.path
    return metadata


def format_file_size(bytes_size: int) -> str:
    """A size as the SDK's view writes it: 0B, 512B, 1.5K, 2M."""
    if bytes_size == 0:
        return "0B"
    sizes = ["B", "K", "M", "G"]
    i = min((bytes_size.bit_length() - 1) // 10, len(sizes) - 1)
    size = bytes_size / (1024**i)
    return f"{int(size)}{sizes[i]}" if size == int(size) else f"{size:.1f}{sizes[i]}"


def numbered(lines: Iterable[str], start: int) -> str:
    return "\n".join(f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(lines))


def view_file(shown_path: str, text: str, view_range: list[int] | None = None) -> str:
    """A file's view: its lines numbered (split on \\n, as the SDK splits them), all or `view_range`
    ([start, end], 1-based and inclusive; end -1: to the last line)."""
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise MemoryToolError(f"File {shown_path} exceeds maximum line limit of 999,999 lines.")
    start = 1
    if view_range and len(view_range) == 2:
        first = max(1, view_range[0]) - 1
        end = len(lines) if view_range[1] == -1 else view_range[1]
        lines = lines[first:end]
        start = first + 1
    return f"Here's the content of {shown_path} with line numbers:\n" + numbered(lines, start)


def view_directory(shown_path: str, directory: MemoryPath, files: Mapping[MemoryPath, int]) -> str:
    """A directory's view: the files and directories up to two levels below it, hidden names (a
    leading `.`) left out and not descended into, each level in name order, a directory before what
    it holds, each with its size. `files`: every file under it, with its size in bytes."""
    depth = len(directory.names)
    tree: dict[str, Any] = {}
    sizes: dict[tuple[str, ...], int] = {(): 0}
    for path, size in files.items():
        names = path.names[depth:]
        sizes[()] += size
        for i in range(1, len(names)):
            sizes[names[:i]] = sizes.get(names[:i], 0) + size
        node = tree
        for name in names[:-1]:  # a name both a file and a directory (another writer's) reads as a directory
            if node.get(name) is None:
                node[name] = {}
            node = node[name]
        node.setdefault(names[-1], None)

    rows = [f"{format_file_size(sizes[()])}\t{shown_path}"]

    def walk(node: dict[str, Any], above: tuple[str, ...]) -> None:
        for name in sorted(node):
            if name.startswith("."):
                continue
            here = (*above, name)
            relative = "/".join(here)
            child = node[name]
            if child is None:
                size = files[MemoryPath("/".join((directory.path, *here)))]
                rows.append(f"{format_file_size(size)}\t{shown_path}/{relative}")
            else:
                rows.append(f"{format_file_size(sizes[here])}\t{shown_path}/{relative}/")
                if len(here) < VIEW_DEPTH:
                    walk(child, here)

    walk(tree, ())
    header = f"Here're the files and directories up to 2 levels deep in {shown_path}, excluding hidden items:"
    return f"{header}\n" + "\n".join(rows)


def replaced(shown_path: str, text: str, old_str: str, new_str: str) -> tuple[str, str]:
    """str_replace: the new text and the answer (a snippet around the change); MemoryToolError when
    old_str is not in the text exactly once."""
    count = text.count(old_str)
    if count == 0:
        raise MemoryToolError(
            f"No replacement was performed, old_str `{old_str}` did not appear verbatim in {shown_path}."
        )
    if count > 1:
        matching: list[int] = []
        start = 0
        while (pos := text.find(old_str, start)) != -1:
            matching.append(text[:pos].count("\n") + 1)
            start = pos + 1
        raise MemoryToolError(
            f"No replacement was performed. Multiple occurrences of old_str `{old_str}` in lines: "
            f"{', '.join(map(str, matching))}. Please ensure it is unique"
        )
    changed = text[: text.find(old_str)].count("\n")
    new_text = text.replace(old_str, new_str)
    new_lines = new_text.split("\n")
    first, end = max(0, changed - 2), min(len(new_lines), changed + 3)
    snippet = numbered(new_lines[first:end], first + 1)
    answer = "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
    return new_text, answer + snippet


def inserted(text: str, insert_line: int, insert_text: str) -> str:
    """insert: the new text, `insert_text` (its trailing newlines dropped) as a line after line
    `insert_line` (0: before the first), ending in a newline; MemoryToolError outside [0, lines]."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if isinstance(insert_line, bool) or not isinstance(insert_line, int) or not 0 <= insert_line <= len(lines):
        raise MemoryToolError(
            f"Invalid `insert_line` parameter: {insert_line}. It should be within the range [0, {len(lines)}]."
        )
    lines.insert(insert_line, insert_text.rstrip("\n"))
    new_text = "\n".join(lines)
    return new_text if new_text.endswith("\n") else new_text + "\n"


def renames(old: MemoryPath, new: MemoryPath, files: Iterable[MemoryPath]) -> list[tuple[MemoryPath, MemoryPath]]:
    """The files a rename of `old` (a file, or a directory holding `files`) to `new` moves, each with
    where it goes; MemoryToolError where the rename cannot be (the root, into itself)."""
    if old.is_root:
        raise MemoryToolError("Cannot rename the /memories directory itself")
    if new.is_within(old):
        raise MemoryToolError(f"Cannot rename {old} into itself ({new})")
    moved = [(path, path.moved(old, new)) for path in sorted(files, key=lambda p: p.path) if path.is_within(old)]
    for _, to in moved:
        if len(to.path) > MAX_PATH:
            raise MemoryToolError(f"Path {to} is not a valid memory path: longer than {MAX_PATH} characters")
    return moved
