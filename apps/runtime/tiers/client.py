"""The client for one model tier: one OpenAI-compatible chat request, typed outcomes.

Contract:

* :meth:`ModelClient.chat` sends exactly one ``POST {base_url}/chat/completions``
  to the tier it was given. No retries (the caller's loop decides whether to
  ask again) and no fallback to another tier.
* The time spent is bounded by ``min(tier timeout, deadline - now)`` as a hard
  wall-clock bound: the caller gets :class:`ModelTimeout` when it passes, even
  if the server is still trickling bytes.
* Every failure is one of the typed :class:`ModelError` subclasses. Their
  messages carry only the tier, a cause from a closed set, the HTTP status and,
  for schema mismatches, a location derived from the schema — never the API
  key, the request body or the response body.
* A request is counted in :class:`ModelUsage` when its first bytes are sent,
  and a request already sent stays counted even if the deadline then passes or
  it fails. Once the caller has given up, a request not yet sent is never sent.
* Request bodies never carry secrets: the tier's own key and the turn's
  active secrets (:func:`apps.core.redaction.secrets_redacted`) are redacted
  from every string in the body, in every form they take, before it is
  serialised.
* Logs carry only the tier, the status, the cause and the timing.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import httpx

from apps.core.redaction import active_secrets, redact_value
from apps.runtime.tiers.config import ModelTier, TierName

logger = logging.getLogger(__name__)

# A reply larger than this is not a plausible chat completion.
MAX_RESPONSE_BYTES: Final = 8 * 1024 * 1024
DEFAULT_SCHEMA_NAME: Final = "response"
_SCHEMA_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

ErrorCause = Literal[
    # ModelUnavailable
    "connect_failed", "connection_lost", "server_error", "client_failure",
    # ModelTimeout
    "deadline_passed", "timed_out",
    # ModelRefused
    "unauthorised", "rate_limited", "rejected", "redirected", "content_filter",
    # ModelTruncated
    "length",
    # ModelInvalidOutput
    "malformed_response", "no_content", "not_json", "schema_mismatch", "response_too_large",
]  # fmt: skip


# --- Errors -------------------------------------------------------------------


class ModelError(Exception):
    """A model request that did not produce a usable reply.

    ``cause`` is from a closed set (:data:`ErrorCause`); ``status`` is the HTTP
    status when one was received; ``sent`` says whether the request left the
    client (and was counted). ``detail`` is only set for schema mismatches and
    names a location in the schema, never a value from the reply.
    """

    def __init__(
        self, *, tier: str, cause: ErrorCause, status: int | None = None, sent: bool = False, detail: str = ""
    ) -> None:
        self.tier = tier
        self.cause = cause
        self.status = status
        self.sent = sent
        self.detail = detail
        message = f"{tier} model: {cause}"
        if status is not None:
            message += f" (HTTP {status})"
        if detail:
            message += f": {detail}"
        super().__init__(message)


class ModelUnavailable(ModelError):
    """Connection refused, name resolution failed, connection lost, or a 5xx."""


class ModelTimeout(ModelError):
    """The tier timeout or the caller's deadline passed (``sent`` says whether it was counted)."""


class ModelRefused(ModelError):
    """A 4xx (or a redirect, or a content filter): the server declined this request."""


class ModelTruncated(ModelError):
    """``finish_reason`` was ``length``: a truncated reply is not a success."""


class ModelInvalidOutput(ModelError):
    """The reply is not a chat completion, not JSON, or does not match the schema."""


# --- Usage --------------------------------------------------------------------

_turn_usage: contextvars.ContextVar[ModelUsage | None] = contextvars.ContextVar("metnos_turn_usage", default=None)


@contextlib.contextmanager
def counting_into(usage: ModelUsage) -> Iterator[None]:
    """Also count every model request sent in this context into ``usage`` (one turn's counter).

    Clients built elsewhere (an extractor created at start-up) keep their own
    counter; the turn still sees every request its steps sent.
    """
    token = _turn_usage.set(usage)
    try:
        yield
    finally:
        _turn_usage.reset(token)


def cloud_requests_so_far() -> int:
    """Cloud requests counted so far in this context's turn (0 outside a turn)."""
    usage = _turn_usage.get()
    return usage.cloud_requests if usage is not None else 0


def turn_usage_add(*, tier_name: str, cloud: bool, requests: int) -> None:
    """Count into this context's turn ``requests`` sent for it in another process (a browser job's worker)."""
    usage = _turn_usage.get()
    if usage is None or requests <= 0:
        return
    with usage._lock:
        usage._by_tier[tier_name] = usage._by_tier.get(tier_name, 0) + requests
        if cloud:
            usage._cloud += requests


class ModelUsage:
    """Requests sent per tier and cloud requests sent, e.g. for one turn. Thread-safe.

    A request is counted once, when it is sent; it stays counted whatever
    happens to it afterwards.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_tier: dict[str, int] = {}
        self._cloud = 0

    def record_sent(self, tier: ModelTier) -> None:
        with self._lock:
            self._by_tier[tier.name] = self._by_tier.get(tier.name, 0) + 1
            if tier.cloud:
                self._cloud += 1

    def requests(self, tier_name: TierName | None = None) -> int:
        """Requests sent to ``tier_name``, or to all tiers."""
        with self._lock:
            if tier_name is None:
                return sum(self._by_tier.values())
            return self._by_tier.get(tier_name, 0)

    @property
    def cloud_requests(self) -> int:
        with self._lock:
            return self._cloud

    def as_json(self) -> dict[str, Any]:
        with self._lock:
            return {"requests": dict(self._by_tier), "cloud_requests": self._cloud}


# --- The supported subset of JSON Schema -------------------------------------

_SCHEMA_KEYWORDS: Final = frozenset({"type", "properties", "required", "enum", "items", "additionalProperties"})
_ANNOTATIONS: Final = frozenset({"title", "description", "default", "examples", "$schema", "$comment"})
_TYPES: Final = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


def check_schema(schema: Mapping[str, Any], path: str = "$") -> None:
    """Raise ``ValueError`` unless ``schema`` uses only the supported subset.

    Supported: ``type`` (one name or a list), ``properties``, ``required``,
    ``enum``, ``items`` and ``additionalProperties`` (a boolean or a schema),
    plus annotations. Anything else is refused rather than silently ignored,
    so a reply is never reported valid against a constraint nobody checked.
    """
    if not isinstance(schema, Mapping):
        raise ValueError(f"schema at {path} must be an object")
    unsupported = sorted(set(schema) - _SCHEMA_KEYWORDS - _ANNOTATIONS)
    if unsupported:
        raise ValueError(f"schema at {path} uses unsupported keywords: {', '.join(unsupported)}")
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        if not isinstance(names, list) or not names or any(name not in _TYPES for name in names):
            raise ValueError(f"schema at {path} has an invalid type")
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        raise ValueError(f"schema at {path} has invalid properties")
    for key, subschema in properties.items():
        check_schema(subschema, f"{path}.{key}")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(key, str) for key in required):
        raise ValueError(f"schema at {path} has an invalid required list")
    if "enum" in schema and not isinstance(schema["enum"], list):
        raise ValueError(f"schema at {path} has an invalid enum")
    if "items" in schema:
        check_schema(schema["items"], f"{path}[]")
    extra = schema.get("additionalProperties", True)
    if isinstance(extra, Mapping):
        check_schema(extra, f"{path}.*")
    elif not isinstance(extra, bool):
        raise ValueError(f"schema at {path} has an invalid additionalProperties")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _matches_type(value: Any, name: str) -> bool:
    actual = _json_type(value)
    if name == "number":
        return actual in ("integer", "number")
    if name == "integer":
        return actual == "integer" or (actual == "number" and float(value).is_integer())
    return actual == name


def _same_json(left: Any, right: Any) -> bool:
    # Python's True == 1; JSON's true is not 1.
    return bool(left == right) and isinstance(left, bool) == isinstance(right, bool)


def schema_mismatch(value: Any, schema: Mapping[str, Any], path: str = "$") -> str | None:
    """The first place where ``value`` breaks ``schema``, or ``None`` if it matches.

    The answer names a location built from the schema's property names and
    array indexes, and a closed-set reason; it never quotes the value.
    """
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_matches_type(value, name) for name in names):
            return f"{path}: expected {' or '.join(names)}, got {_json_type(value)}"
    if "enum" in schema and not any(_same_json(value, option) for option in schema["enum"]):
        return f"{path}: not one of the allowed values"
    if isinstance(value, dict):
        properties: Mapping[str, Any] = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                return f"{path}: missing required property {key}"
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                problem = schema_mismatch(item, properties[key], f"{path}.{key}")
            elif extra is False:
                # The unexpected key came from the model: do not repeat it.
                problem = f"{path}: unexpected property"
            elif isinstance(extra, Mapping):
                problem = schema_mismatch(item, extra, f"{path}.*")
            else:
                problem = None
            if problem:
                return problem
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problem = schema_mismatch(item, schema["items"], f"{path}[{index}]")
            if problem:
                return problem
    return None


# --- The reply and the client -------------------------------------------------


@dataclass(frozen=True)
class ModelReply:
    """A complete reply: its text, the parsed JSON when a schema was given, and its cost.

    ``content`` and ``parsed`` may hold personal data and stay out of repr.
    """

    tier: TierName
    content: str = field(repr=False)
    parsed: Any | None = field(repr=False)
    finish_reason: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    elapsed_seconds: float


class _Abandoned(Exception):
    """Raised inside the exchange to stop a request the caller no longer waits for."""


class _Exchange:
    """One HTTP exchange run in a worker thread, so the caller's wait is a hard bound."""

    def __init__(
        self, *, tier: ModelTier, usage: ModelUsage, payload: bytes, headers: dict[str, str], budget: float
    ) -> None:
        self.tier = tier
        self.usage = usage
        self.payload = payload
        self.headers = headers
        self.budget = budget
        self.lock = threading.Lock()
        self.sent = False
        self.abandoned = False
        self.done = False
        # The usage of the turn this request belongs to (see counting_into).
        self.turn_usage: ModelUsage | None = _turn_usage.get()
        self.status: int | None = None
        self.body = b""
        self.failure: tuple[type[ModelError], ErrorCause] | None = None

    def _mark_sent(self, *, abort_if_abandoned: bool) -> None:
        with self.lock:
            if self.abandoned and abort_if_abandoned:
                raise _Abandoned
            if not self.sent:
                self.sent = True
                self.usage.record_sent(self.tier)
                if self.turn_usage is not None and self.turn_usage is not self.usage:
                    self.turn_usage.record_sent(self.tier)

    def _trace(self, event_name: str, info: Mapping[str, Any]) -> None:
        # httpcore announces each phase; the request counts as sent when its
        # headers start to leave, and is stopped here if the caller gave up.
        if event_name.endswith("send_request_headers.started"):
            self._mark_sent(abort_if_abandoned=True)

    def run(self) -> None:
        status: int | None = None
        body = b""
        failure: tuple[type[ModelError], ErrorCause] | None = None
        try:
            # trust_env only for cloud tiers: a proxy from the environment
            # must not carry a local tier's requests off the machine.
            with (
                httpx.Client(timeout=httpx.Timeout(self.budget), trust_env=self.tier.cloud) as client,
                client.stream(
                    "POST",
                    f"{self.tier.base_url}/chat/completions",
                    content=self.payload,
                    headers=self.headers,
                    extensions={"trace": self._trace},
                ) as response,
            ):
                # Transports without httpcore tracing still count here.
                self._mark_sent(abort_if_abandoned=False)
                status = response.status_code
                if 200 <= status < 300:
                    chunks: list[bytes] = []
                    size = 0
                    for chunk in response.iter_bytes():
                        size += len(chunk)
                        if size > MAX_RESPONSE_BYTES:
                            failure = (ModelInvalidOutput, "response_too_large")
                            break
                        if self.abandoned:
                            break
                        chunks.append(chunk)
                    body = b"".join(chunks)
        except _Abandoned:
            return
        except httpx.TimeoutException:
            failure = (ModelTimeout, "timed_out")
        except httpx.ConnectError:
            failure = (ModelUnavailable, "connect_failed")
        except httpx.TransportError:
            failure = (ModelUnavailable, "connection_lost")
        # Anything else (an invalid header value, a bug) becomes a typed error
        # without its message, which could quote a header such as the key.
        except Exception:  # noqa: BLE001
            failure = (ModelUnavailable, "client_failure")
        with self.lock:
            self.status, self.body, self.failure, self.done = status, body, failure, True


class ModelClient:
    """Chat with one tier. See the module docstring for the contract."""

    def __init__(self, tier: ModelTier, *, usage: ModelUsage | None = None) -> None:
        self.tier = tier
        self.usage = usage if usage is not None else ModelUsage()

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        response_schema: dict[str, Any] | None = None,
        schema_name: str = DEFAULT_SCHEMA_NAME,
        max_tokens: int | None = None,
        temperature: float | None = None,
        deadline: float | None = None,
    ) -> ModelReply:
        """Send one chat request and return a complete, valid reply or raise a ``ModelError``.

        ``deadline`` is a ``time.monotonic()`` instant; the request gets
        ``min(tier timeout, deadline - now)``. With ``response_schema`` the
        server is asked for strict JSON-schema output and the reply is parsed
        and checked against the schema (:func:`check_schema` lists the
        supported subset); ``ModelReply.parsed`` holds the result.
        Malformed arguments (an unsupported schema, empty messages) raise
        ``ValueError`` before anything is sent.
        """
        self._check_arguments(messages, response_schema, schema_name, max_tokens)
        budget = self._budget(deadline)
        body: dict[str, Any] = {"model": self.tier.model, "messages": messages, "stream": False}
        if response_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": response_schema, "strict": True},
            }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if temperature is not None:
            body["temperature"] = temperature
        payload = self._payload(body)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.tier.api_key is not None:
            headers["Authorization"] = f"Bearer {self.tier.api_key.reveal()}"

        started = time.monotonic()
        exchange = _Exchange(tier=self.tier, usage=self.usage, payload=payload, headers=headers, budget=budget)
        worker = threading.Thread(target=exchange.run, name=f"model-{self.tier.name}", daemon=True)
        worker.start()
        worker.join(budget)
        with exchange.lock:
            if not exchange.done:
                exchange.abandoned = True
        elapsed = time.monotonic() - started
        try:
            if exchange.abandoned:
                raise ModelTimeout(tier=self.tier.name, cause="timed_out", sent=exchange.sent)
            reply = self._reply(exchange, response_schema, elapsed)
        except ModelError as error:
            logger.warning(
                "model request failed tier=%s cause=%s status=%s sent=%s elapsed_ms=%d",
                self.tier.name, error.cause, error.status, error.sent, elapsed * 1000,
            )  # fmt: skip
            raise
        logger.info(
            "model request tier=%s status=%s elapsed_ms=%d prompt_tokens=%s completion_tokens=%s",
            self.tier.name, exchange.status, elapsed * 1000, reply.prompt_tokens, reply.completion_tokens,
        )  # fmt: skip
        return reply

    @staticmethod
    def _check_arguments(
        messages: list[dict[str, Any]], schema: dict[str, Any] | None, schema_name: str, max_tokens: int | None
    ) -> None:
        if not messages or not all(isinstance(message, dict) and "role" in message for message in messages):
            raise ValueError("messages must be a non-empty list of objects with a role")
        if schema is not None:
            check_schema(schema)
            if not _SCHEMA_NAME.fullmatch(schema_name):
                raise ValueError("schema_name must be 1-64 letters, digits, '_' or '-'")
        if max_tokens is not None and max_tokens < 1:
            raise ValueError("max_tokens must be positive")

    def _budget(self, deadline: float | None) -> float:
        budget = self.tier.timeout_seconds
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ModelTimeout(tier=self.tier.name, cause="deadline_passed", sent=False)
            budget = min(budget, remaining)
        return budget

    def _payload(self, body: dict[str, Any]) -> bytes:
        secrets = active_secrets()
        if self.tier.api_key is not None:
            secrets = (*secrets, self.tier.api_key.reveal())
        if secrets:
            redacted = redact_value(body, secrets)
            if redacted != body:
                logger.warning("model request tier=%s: withheld values redacted from the request", self.tier.name)
            body = redacted
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def _reply(self, exchange: _Exchange, schema: dict[str, Any] | None, elapsed: float) -> ModelReply:
        name, status, sent = self.tier.name, exchange.status, exchange.sent
        if exchange.failure is not None:
            error_class, failure_cause = exchange.failure
            raise error_class(tier=name, cause=failure_cause, status=status, sent=sent)
        if status is None or status >= 500 or status < 200:
            raise ModelUnavailable(tier=name, cause="server_error", status=status, sent=sent)
        if 300 <= status < 400:
            raise ModelRefused(tier=name, cause="redirected", status=status, sent=sent)
        if status >= 400:
            cause: ErrorCause = (
                "unauthorised" if status in (401, 403) else "rate_limited" if status == 429 else "rejected"
            )
            raise ModelRefused(tier=name, cause=cause, status=status, sent=sent)

        def invalid(cause: ErrorCause, detail: str = "") -> ModelInvalidOutput:
            return ModelInvalidOutput(tier=name, cause=cause, status=status, sent=sent, detail=detail)

        try:
            document = json.loads(exchange.body)
            choice = document["choices"][0]
            message = choice["message"]
            finish_reason = choice.get("finish_reason")
            usage = document.get("usage") or {}
        except (ValueError, RecursionError, KeyError, IndexError, TypeError, AttributeError):
            raise invalid("malformed_response") from None
        if finish_reason == "length":
            raise ModelTruncated(tier=name, cause="length", status=status, sent=sent)
        if finish_reason == "content_filter":
            raise ModelRefused(tier=name, cause="content_filter", status=status, sent=sent)
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise invalid("no_content")
        parsed: Any | None = None
        if schema is not None:
            try:
                parsed = json.loads(content)
            except (ValueError, RecursionError):
                raise invalid("not_json") from None
            problem = schema_mismatch(parsed, schema)
            if problem:
                raise invalid("schema_mismatch", problem)
        return ModelReply(
            tier=name,
            content=content,
            parsed=parsed,
            finish_reason=finish_reason if isinstance(finish_reason, str) else None,
            prompt_tokens=_count(usage, "prompt_tokens"),
            completion_tokens=_count(usage, "completion_tokens"),
            elapsed_seconds=elapsed,
        )


def _count(usage: Any, key: str) -> int | None:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
