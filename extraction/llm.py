"""One OpenAI-compatible chat-completions client, on httpx.

It speaks the subset every server shares (vLLM, Ollama, llama.cpp's server, LM Studio, OpenAI):
`POST {base_url}/chat/completions` with `model`, `messages`, `temperature`, `max_tokens`, and
`response_format` with a JSON schema when asked and the endpoint takes it. An endpoint that
refuses `response_format` (a 400 or 422, or any error whose body names response_format:
llama-cpp-python's server answers 500 to the json_schema type) is asked again at once without it,
and remembered as one that does not take it, so a caller falls back to line-oriented output.

Retries: 429, 5xx, connection errors and timeouts are retried a bounded number of times with
exponential backoff and full jitter, waiting at least what `Retry-After` asks (seconds or an
HTTP date). Any other 4xx fails at once. Token usage comes from the response; where the endpoint
sends none it is estimated at four characters a token and flagged `estimated`.

Requests in flight: each HTTP request takes a slot of a `RequestLimit` for as long as it is on the
wire (not while it backs off). A client makes its own limit of `LLMConfig.concurrency` slots
unless it is given one; clients given the same limit share it, so an application that runs
several extractions at once (donto's workers) never has more requests in flight than the limit."""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

import httpx

RETRYABLE = {429, 500, 502, 503, 504}
CHARS_PER_TOKEN = 4  # the estimate used where an endpoint reports no usage

Message = dict[str, str]


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # up to and including /v1, e.g. http://127.0.0.1:11434/v1
    model: str
    api_key: str | None = None
    timeout_s: float = 300.0  # a whole reply; a deep pass of a long chunk can take minutes
    connect_timeout_s: float = 10.0
    max_retries: int = 4
    backoff_s: float = 1.0  # the first retry waits up to this long; each later one up to twice the last
    max_backoff_s: float = 60.0
    temperature: float = 0.2
    max_tokens: int = 12_000  # seed 001: 8,000 truncated half of all passes
    structured_output: Literal["auto", "never"] = "auto"
    concurrency: int = 4  # requests in flight at once, for a client not given a shared RequestLimit


class RequestLimit:
    """At most `size` requests in flight, whoever sends them: one is shared by every client (and so
    every extraction, every chunk and every aperture) that is given it. Counts the most it saw in
    flight at once (`peak`), for benchmarks and tests."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError("a request limit is at least 1")
        self.size = size
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._slots:
            with self._lock:
                self.in_flight += 1
                self.peak = max(self.peak, self.in_flight)
            try:
                yield
            finally:
                with self._lock:
                    self.in_flight -= 1


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False  # True when any part was estimated rather than reported

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.estimated or other.estimated,
        )


@dataclass(frozen=True)
class Completion:
    text: str
    model: str
    usage: Usage
    finish_reason: str | None  # "length": the reply was cut at max_tokens
    attempts: int  # HTTP requests made, retries included
    elapsed_s: float
    structured: bool  # sent with a JSON schema the endpoint accepted

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


class LLMError(Exception):
    """The endpoint did not answer usefully: retries ran out, or it refused the request."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 0, refused_format: bool = False):
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.refused_format = refused_format  # the endpoint objected to response_format itself


class ChatClient:
    def __init__(
        self,
        config: LLMConfig,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        limit: RequestLimit | None = None,
    ):
        self.config = config
        self.limit = limit or RequestLimit(config.concurrency)
        self._sleep = sleep
        self._rng = rng or random.Random()
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self._http = httpx.Client(
            base_url=config.base_url.rstrip("/"),
            headers=headers,
            transport=transport,
            timeout=httpx.Timeout(config.timeout_s, connect=config.connect_timeout_s),
        )
        # None: not yet known; the first schema request finds out (only with structured_output="auto").
        self.takes_json_schema: bool | None = None if config.structured_output == "auto" else False

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Completion:
        """One chat completion. With `json_schema`, the reply is asked to follow it where the endpoint
        supports structured output (`Completion.structured` says whether it was)."""
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": list(messages),
            "temperature": self.config.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or self.config.max_tokens,
            "stream": False,
        }
        structured = json_schema is not None and self.takes_json_schema is not False
        if structured:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": json_schema, "strict": False},
            }
        started = time.perf_counter()
        try:
            data, attempts = self._post(body)
        except LLMError as exc:
            refused = exc.refused_format or exc.status in (400, 422)
            if not (structured and refused and self.takes_json_schema is None):
                raise
            self.takes_json_schema = False  # this endpoint refuses response_format: ask in plain text
            body.pop("response_format")
            structured = False
            data, more = self._post(body)
            attempts = exc.attempts + more
        else:
            if structured:
                self.takes_json_schema = True
        return self._completion(data, body, attempts, time.perf_counter() - started, structured)

    def _post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        attempt = 0
        while True:
            attempt += 1
            wait: float | None = None
            try:
                with self.limit.slot():
                    response = self._http.post("/chat/completions", json=body)
            except (httpx.TransportError, httpx.TimeoutException) as exc:
                problem, status = f"{type(exc).__name__}: {exc}", None
            else:
                if response.status_code == 200:
                    try:
                        data = response.json()
                    except ValueError:
                        problem, status = "the endpoint answered 200 with a body that is not JSON", 200
                    else:
                        if isinstance(data, dict) and data.get("choices"):
                            return data, attempt
                        problem, status = "the endpoint answered 200 without choices", 200
                    raise LLMError(problem, status, attempt)
                status = response.status_code
                problem = f"HTTP {status}: {response.text[:300]}"
                if "response_format" in body and "response_format" in response.text:
                    raise LLMError(problem, status, attempt, refused_format=True)
                if status not in RETRYABLE:
                    raise LLMError(problem, status, attempt)
                wait = retry_after(response.headers.get("retry-after"))
            if attempt > self.config.max_retries:
                raise LLMError(f"gave up after {attempt} attempts; last: {problem}", status, attempt)
            ceiling = min(self.config.max_backoff_s, self.config.backoff_s * 2 ** (attempt - 1))
            delay = self._rng.uniform(0, ceiling)
            self._sleep(max(delay, min(wait, self.config.max_backoff_s * 2)) if wait is not None else delay)

    def _completion(
        self, data: dict[str, Any], body: dict[str, Any], attempts: int, elapsed: float, structured: bool
    ) -> Completion:
        choice = data["choices"][0]
        message = choice.get("message") or {}
        text = message.get("content") or choice.get("text") or ""
        reported = data.get("usage") or {}
        prompt_chars = sum(len(m.get("content", "")) for m in body["messages"])
        prompt = reported.get("prompt_tokens")
        completion = reported.get("completion_tokens")
        usage = Usage(
            prompt_tokens=int(prompt) if isinstance(prompt, int) else estimate_tokens(prompt_chars),
            completion_tokens=int(completion) if isinstance(completion, int) else estimate_tokens(len(text)),
            estimated=not (isinstance(prompt, int) and isinstance(completion, int)),
        )
        return Completion(
            text=text,
            model=str(data.get("model") or self.config.model),
            usage=usage,
            finish_reason=choice.get("finish_reason"),
            attempts=attempts,
            elapsed_s=elapsed,
            structured=structured,
        )


def estimate_tokens(chars: int) -> int:
    return max(1, -(-chars // CHARS_PER_TOKEN)) if chars else 0


def retry_after(value: str | None, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> float | None:
    """Seconds a `Retry-After` header asks for (delta-seconds or an HTTP date); None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now()).total_seconds())
