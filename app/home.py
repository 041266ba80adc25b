"""donto's home, the .donto/ folder `donto up` makes, and what it remembers there.

Standard library only: the client (donto.Client) reads it too, and installs without the server.

`donto up` (and `donto neo4j start`) record the addresses they started on in <home>/config.toml, by the
names of the variables that set them (DONTO_URL, DONTO_HOST, DONTO_NEO4J_BOLT_PORT, ...), so that every
later command, the tour and the client run in that home reach the same servers without the variables.
The environment overrides the record, and the record the defaults. The API's address is one thing:
when the environment names any of it (DONTO_URL, DONTO_HOST or DONTO_PORT), the record's is not used.
Only a server falls back to the default address (where it listens); a client named by neither refuses
(NoApiAddress) rather than guess a port another donto may hold."""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

HOME_FOLDER = ".donto"  # what `donto up` makes: the local Neo4j's home, its jars, the admin key, the record
RECORD_FILE = "config.toml"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
WILDCARDS = ("0.0.0.0", "::", "")
RECORD_HEADER = (
    "# Written by `donto up` and `donto neo4j start`: the addresses this home's servers were started on,\n"
    "# read by every donto command, donto.Client and examples/tour.py run in this home. A variable set in\n"
    "# the environment overrides its line here (DONTO_URL, DONTO_HOST or DONTO_PORT: all three API lines).\n"
)


class HomeRecordError(ValueError):
    """The home's config.toml cannot be read; the message names the file."""


@dataclass(frozen=True)
class DontoHome:
    """Where this donto's files are: `path` when `found`, else where `donto up` would make them."""

    path: Path
    found: bool
    named: bool  # by DONTO_HOME
    searched: tuple[Path, ...]  # the folders looked in for a .donto/, nearest first

    def not_found(self) -> str:
        if self.named:
            return f"DONTO_HOME={self.path}: no such folder (run `donto up` with it set, or name the folder it made)"
        return (
            f"no donto home: DONTO_HOME is unset and there is no {HOME_FOLDER}/ in {self.searched[0]} or any folder "
            f"above it (up to {self.searched[-1]}); run this where `donto up` ran, or below it, or set "
            f"DONTO_HOME to the {HOME_FOLDER} folder it made"
        )

    def looked_for(self, name: str) -> str:
        """Where a file of the home was looked for, in words (for a message saying it was not found)."""
        if self.found or self.named:
            return str(self.path / name)
        return f"{HOME_FOLDER}/{name} in {self.searched[0]} or above"

    @property
    def record_file(self) -> Path:
        return self.path / RECORD_FILE


def find_home(cwd: Path | None = None) -> DontoHome:
    """DONTO_HOME, else the nearest .donto/ in the working directory or a folder above it, as git finds
    .git: a command run from a sub-folder (or anywhere, with the home named) finds the Neo4j password
    and the admin key `donto up` made. Found nowhere: the working directory's, where `donto up` makes it."""
    named = os.environ.get("DONTO_HOME")
    if named:
        path = Path(named).expanduser().absolute()
        return DontoHome(path, path.is_dir(), True, (path,))
    here = (cwd or Path.cwd()).absolute()
    searched = (here, *here.parents)
    for i, folder in enumerate(searched):
        if (folder / HOME_FOLDER).is_dir():
            return DontoHome(folder / HOME_FOLDER, True, False, searched[: i + 1])
    return DontoHome(here / HOME_FOLDER, False, False, searched)


def read_record(home: Path) -> dict[str, str | int]:
    """The variables recorded in <home>/config.toml ({} when there is none)."""
    file = home / RECORD_FILE
    try:
        table = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise HomeRecordError(f"{file}: cannot be read ({exc}); fix or delete it (`donto up` writes it anew)") from None
    wrong = [name for name, value in table.items() if isinstance(value, bool) or not isinstance(value, (str, int))]
    if wrong:
        raise HomeRecordError(f"{file}: {', '.join(wrong)}: a string or a whole number; fix or delete the line")
    return table


def write_record(home: Path, values: Mapping[str, str | int | None]) -> Path:
    """Merge `values` into <home>/config.toml (None removes a line), written whole to a temporary file
    beside it and renamed over it: a reader never sees half a file."""
    record = {**read_record(home), **values}
    lines = [f"{name} = {json.dumps(value)}" for name, value in sorted(record.items()) if value is not None]
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, partial = tempfile.mkstemp(dir=home, prefix=f".{RECORD_FILE}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(RECORD_HEADER + "\n".join(lines) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.chmod(partial, 0o644)
        os.replace(partial, home / RECORD_FILE)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return home / RECORD_FILE


@dataclass(frozen=True)
class ApiAddress:
    host: str  # where the API listens
    port: int
    url: str  # where clients reach it

    @property
    def variables(self) -> dict[str, str | int | None]:
        """What `donto up` records: the URL, and the listen address when the URL does not say it."""
        said = urlsplit(self.url).hostname == self.host, _port_of(self.url) == self.port
        return {
            "DONTO_URL": self.url,
            "DONTO_HOST": None if said[0] else self.host,
            "DONTO_PORT": None if said[1] else self.port,
        }


def api_address(url: str | None, host: str | None, port: int | None) -> ApiAddress:
    """The API's address from DONTO_URL, DONTO_HOST and DONTO_PORT (each None when unset): the server
    listens on DONTO_HOST, else the URL's host, else 127.0.0.1, and on DONTO_PORT, else the URL's port,
    else 8765; clients go to DONTO_URL, else to that listen address (loopback for a wildcard)."""
    listen_host = host or (urlsplit(url).hostname if url else None) or DEFAULT_HOST
    listen_port = port or (_port_of(url) if url else None) or DEFAULT_PORT
    if not url:
        reach = DEFAULT_HOST if listen_host in WILDCARDS else listen_host
        url = f"http://{f'[{reach}]' if ':' in reach else reach}:{listen_port}"
    return ApiAddress(listen_host, listen_port, url.rstrip("/"))


def _port_of(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


def admin_key() -> str | None:
    """DONTO_API_KEY, else the admin key `donto up` kept in the home's api-key."""
    if key := os.environ.get("DONTO_API_KEY"):
        return key
    kept = find_home().path / "api-key"
    return kept.read_text().strip() if kept.is_file() else None


def find_api(url: str | None, host: str | None, port: int | None) -> ApiAddress:
    """The API's address from the environment's DONTO_URL, DONTO_HOST and DONTO_PORT (or a command's
    --host and --port), else (none of them given) from the home's record, else the defaults: where a
    server listens (a client asks client_url, which guesses no default)."""
    if not (url or host or port):
        url, host, port = recorded_api(find_home())
    return api_address(url, host, port)


def _text(value: str | int | None) -> str | None:
    return str(value) if value else None


class NoApiAddress(LookupError):
    """Neither the environment nor a home names the API's address: a client goes nowhere by guess (the
    default port may be another donto's, which would take this one's key and writes)."""


def recorded_api(home: DontoHome) -> tuple[str | None, str | None, int | None]:
    """The API's address lines of the home's record (DONTO_URL, DONTO_HOST, DONTO_PORT), each None when absent."""
    record = read_record(home.path) if home.found else {}
    port = int(record["DONTO_PORT"]) if record.get("DONTO_PORT") else None
    return _text(record.get("DONTO_URL")), _text(record.get("DONTO_HOST")), port


def no_address(home: DontoHome) -> str:
    """Why a client has no address, and how to name one."""
    if not home.found:
        where = home.not_found().removeprefix("no donto home: ").split("; ")[0]
        why = f"DONTO_URL is unset and there is no donto home ({where})"
    else:
        why = f"DONTO_URL is unset and the home {home.path} records no address (`donto up` there records it)"
    return (
        f'no donto address: {why}; name one: export DONTO_URL=http://HOST:PORT, or `eval "$(donto env)"` '
        f"in the folder where `donto up` ran, or set DONTO_HOME to its {HOME_FOLDER} folder, or pass base_url; "
        "nothing was sent (no default port is guessed: it may be another donto's)"
    )


def client_url(env: Mapping[str, str] | None = None) -> str:
    """Where a client finds the API: DONTO_URL (or DONTO_HOST, DONTO_PORT) from the environment, else
    what the home records; neither: NoApiAddress, never a default port."""
    env = os.environ if env is None else env
    try:
        port = int(env["DONTO_PORT"]) if env.get("DONTO_PORT") else None
    except ValueError:
        raise ValueError("DONTO_PORT: not a port number") from None
    url, host = env.get("DONTO_URL") or None, env.get("DONTO_HOST") or None
    if not (url or host or port):
        home = find_home()
        url, host, port = recorded_api(home)
        if not (url or host or port):
            raise NoApiAddress(no_address(home))
    return api_address(url, host, port).url
