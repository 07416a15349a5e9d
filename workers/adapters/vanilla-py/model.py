"""How the Python baseline reaches the gateway: one OpenAI Chat Completions call over
`urllib.request` (base URL, key, per-request timeout from the config) and the request body it
sends, byte for byte the TS baseline's (workers/adapters/vanilla/model.ts). No retries, no
streaming: the control in every comparison must not hide transport behaviour.

Errors read as the TS baseline's, so the harness classifies both alike (orchestrator/run/error-class.ts):
a non-2xx is `LlmHttpError: LLM HTTP <status>: <body>`; the request timeout is
`TimeoutError: The operation was aborted due to timeout` (AbortSignal.timeout's wording); any
other transport failure is `TypeError: fetch failed` caused by what urllib raised (undici's
wording, with the errno code — ECONNREFUSED, ECONNRESET — on the cause, as Node's cause carries it).
"""
import functools
import http.client
import math
import threading
import urllib.error
import urllib.request

from . import wire_json

TIMEOUT_TEXT = "The operation was aborted due to timeout"


class LlmHttpError(Exception):
    """A non-2xx reply; its text is what the baseline reports as the item error (contract/texts.ts)."""

    def __init__(self, status, body):
        super().__init__(f"LLM HTTP {status}: {body}")
        self.status = status


def request_body(config, messages, tools=None):
    """The baseline's request body, keys in its order: `model, messages, temperature, stream`, then
    `tools` and `tool_choice: "auto"` when tools are sent (key order is part of what gets billed).
    The config's values go as they came (temperature 0 arrives as the int the orchestrator wrote)."""
    body = {"model": config["model"], "messages": messages, "temperature": config["temperature"], "stream": False}
    if tools is not None:
        body["tools"] = tools
        body["tool_choice"] = "auto"
    return body


class _Deadline:
    """One request's whole budget, as AbortSignal.timeout bounds a fetch and its body: urllib's own
    timeout bounds each socket operation, so a reply trickling a byte at a time would outlive it.
    When the budget is spent every socket of the request is shut down, which ends any read at once."""

    def __init__(self, seconds):
        self.expired = False
        self._sockets = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock):
        with self._lock:
            self._sockets.append(sock)
            if not self.expired:
                return
        self._shut(sock)

    def _expire(self):
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            self._shut(sock)

    @staticmethod
    def _shut(sock):
        try:
            sock.shutdown(2)  # SHUT_RDWR
        except OSError:
            pass

    def cancel(self):
        self._timer.cancel()


class _Watched:
    """A connection whose socket the request's deadline watches from the moment it connects."""

    def __init__(self, *args, deadline, **kwargs):
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def connect(self):
        super().connect()
        self._deadline.watch(self.sock)


class _Connection(_Watched, http.client.HTTPConnection):
    pass


class _TlsConnection(_Watched, http.client.HTTPSConnection):
    pass


class _Handler(urllib.request.HTTPHandler):
    def __init__(self, deadline):
        super().__init__()
        self._deadline = deadline

    def http_open(self, req):
        return self.do_open(functools.partial(_Connection, deadline=self._deadline), req)


class _TlsHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline):
        super().__init__()
        self._deadline = deadline

    def https_open(self, req):
        return self.do_open(functools.partial(_TlsConnection, deadline=self._deadline), req)


def _text(raw):
    """`Response.text()`: UTF-8 with replacement characters, a leading BOM dropped."""
    text = raw.decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def _post(url, data, headers, seconds):
    """(status, body text) of one POST within `seconds`; raises what urllib raises, or the timeout."""
    deadline = _Deadline(seconds)
    # No ProxyHandler from the environment: fetch ignores proxy variables, and so must the twin.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _Handler(deadline), _TlsHandler(deadline))
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        try:
            with opener.open(request, timeout=seconds) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as err:
            with err:
                status, raw = err.code, err.read()
    except (OSError, http.client.HTTPException) as err:
        if deadline.expired or isinstance(err, TimeoutError) or isinstance(getattr(err, "reason", None), TimeoutError):
            raise _Timeout() from None
        raise
    finally:
        deadline.cancel()
    # A body without a length ends when the socket does, so a shut socket can read as a short reply.
    if deadline.expired:
        raise _Timeout()
    return status, _text(raw)


class _Timeout(Exception):
    """The request's deadline passed (turned into the TimeoutError the caller reports)."""


def _at(value, key):
    """`value?.[key]` on a parsed JSON value (an index into an array or a string, a key of an object)."""
    if isinstance(value, dict):
        return value.get(str(key))
    if isinstance(value, (list, str)) and isinstance(key, int):
        return value[key] if 0 <= key < len(value) else None
    return None


def _count(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else 0


def _tool_calls(raw):
    if not isinstance(raw, list):
        return []
    calls = []
    for index, tc in enumerate(raw):
        fn = _at(tc, "function")
        fn = {} if fn is None else fn
        call_id, name, args = _at(tc, "id"), _at(fn, "name"), _at(fn, "arguments")
        calls.append({
            "id": call_id if isinstance(call_id, str) and call_id else f"call_{index}",
            "name": name if isinstance(name, str) else "",
            "arguments": args if isinstance(args, str) else "{}" if args is None else wire_json.dumps(args),
        })
    return calls


def chat_completion(config, body):
    """POST one chat completion; the reply as {content, tool_calls, prompt_tokens, completion_tokens}."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {config['apiKey']}"}
    data = wire_json.dumps(body).encode("utf-8")
    failure = None
    try:
        status, text = _post(f"{config['baseUrl']}/chat/completions", data, headers, config["requestTimeoutS"])
    except _Timeout:
        failure = TimeoutError(TIMEOUT_TEXT)
    except (OSError, http.client.HTTPException) as err:
        raise TypeError("fetch failed") from err
    if failure is not None:
        raise failure  # outside the handler: no urllib exception in its chain, as the DOMException has none
    if not 200 <= status <= 299:
        raise LlmHttpError(status, text)
    data = wire_json.loads(text)
    message = _at(_at(_at(data, "choices"), 0), "message")
    message = {} if message is None else message
    content, usage = _at(message, "content"), _at(data, "usage")
    return {
        "content": content if isinstance(content, str) else "",
        "tool_calls": _tool_calls(_at(message, "tool_calls")),
        "prompt_tokens": _count(_at(usage, "prompt_tokens")),
        "completion_tokens": _count(_at(usage, "completion_tokens")),
    }
