"""The model object: a small `BaseLlm` over `AsyncOpenAI` that turns ADK's Gemini-shaped request
into one Chat Completions call and the reply back into an `LlmResponse`, as the TS twin's model.ts.

google-adk 2.13 does ship one (`google.adk.integrations.openai.OpenAILlm`, no LiteLLM, and the
`openai` package it needs is installed), but it sends what the baseline does not and cannot be
told not to (README, finding 1): `tool_choice: "auto"` with every tools block, `max_tokens: 4096`
on every request (an int field, never omitted), every replayed call's arguments re-serialised by
`json.dumps` (the model's bytes lost) and every tool result as the JSON of ADK's `{"result": …}`
wrapper. So this class, like the TS twin's, sends exactly the baseline's body.
"""
from __future__ import annotations

import json
from typing import Any, AsyncGenerator

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from openai import APIStatusError, AsyncOpenAI
from pydantic import PrivateAttr

# Where a function-call part keeps the arguments string exactly as the model sent it (Gemini holds
# parsed `args` only). It travels with the session's events, so the replay and the tool see the
# wire's bytes, also after a restart (genai's `part_metadata`, the TS twin's `partMetadata` key).
RAW_ARGUMENTS = "chat_completions_arguments"

# As the TS twin (one `fetch`, no retries): a failed attempt is an error, never retried.
MAX_RETRIES = 0

# Generation settings this class sends or knowingly drops (`labels` is ADK's own agent-name tag,
# `http_options` a Gemini client setting); anything else set is refused, never silently lost.
HANDLED = {"system_instruction", "temperature", "tools", "labels", "http_options",
           "response_mime_type", "response_schema", "response_json_schema"}


class UnsupportedRequestError(Exception):
    pass


class ChatCompletionsHttpError(Exception):
    """A non-2xx reply, in the baseline's wording (`LLM HTTP <status>: <body>`), which the harness classifies."""

    def __init__(self, status: int, body: str):
        super().__init__(f"LLM HTTP {status}: {body}")
        self.status = status


def _text_of(parts) -> str:
    return "".join(p.text for p in parts or () if isinstance(p.text, str) and not p.thought)


def _tool_content(response: Any) -> str:
    """A tool's result as the tool message: ADK wraps a string as `{"result": …}`; that string goes out as is."""
    if isinstance(response, dict) and list(response) == ["result"] and isinstance(response["result"], str):
        return response["result"]
    return json.dumps(response if response is not None else {}, ensure_ascii=False, separators=(",", ":"))


def _arguments_of(part: types.Part) -> str:
    raw = (part.part_metadata or {}).get(RAW_ARGUMENTS)
    if isinstance(raw, str):
        return raw
    return json.dumps(part.function_call.args or {}, ensure_ascii=False, separators=(",", ":"))


def messages_of(contents, system: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for content in contents or ():
        parts = content.parts or []
        if content.role == "model":
            calls = [p for p in parts if p.function_call]
            text = _text_of(parts)
            if not calls:
                if text:
                    messages.append({"role": "assistant", "content": text})
                continue
            tool_calls = [{"id": p.function_call.id, "type": "function",
                           "function": {"name": p.function_call.name, "arguments": _arguments_of(p)}} for p in calls]
            messages.append({"role": "assistant", "content": text or None, "tool_calls": tool_calls})
            continue
        # A user turn: tool results become tool messages; text parts, one user message (parts kept apart).
        texts: list[str] = []

        def flush():
            if texts:
                messages.append({"role": "user", "content": texts[0] if len(texts) == 1 else [{"type": "text", "text": t} for t in texts]})
                texts.clear()

        for p in parts:
            if p.function_response:
                flush()
                messages.append({"role": "tool", "tool_call_id": p.function_response.id,
                                 "content": _tool_content(p.function_response.response)})
            elif isinstance(p.text, str) and not p.thought:
                texts.append(p.text)
        flush()
    return messages


def _system_text(config) -> str:
    si = config.system_instruction
    if si is None:
        return ""
    if isinstance(si, str):
        return si
    if isinstance(si, types.Content):
        return _text_of(si.parts)
    if isinstance(si, types.Part):
        return _text_of([si])
    return "\n\n".join(x if isinstance(x, str) else _text_of([x]) for x in si)


def request_body(request: LlmRequest, model: str) -> dict[str, Any]:
    """The baseline's keys only: model, messages, temperature, stream, tools; no tool_choice (the API default is auto)."""
    config = request.config or types.GenerateContentConfig()
    for key, value in config:
        if value is not None and key not in HANDLED:
            raise UnsupportedRequestError(f"generate_content_config.{key} has no Chat Completions mapping in this model class")
    body: dict[str, Any] = {"model": request.model or model, "messages": messages_of(request.contents, _system_text(config))}
    if config.temperature is not None:
        body["temperature"] = config.temperature
    body["stream"] = False
    tools = []
    for tool in config.tools or ():
        for d in getattr(tool, "function_declarations", None) or ():
            function: dict[str, Any] = {"name": d.name}
            if d.description:
                function["description"] = d.description
            if d.parameters_json_schema is not None:
                function["parameters"] = d.parameters_json_schema
            elif d.parameters is not None:
                raise UnsupportedRequestError(f"tool {d.name}: a Gemini Schema has no mapping here (declare parameters_json_schema)")
            tools.append({"type": "function", "function": function})
    if tools:
        body["tools"] = tools
    schema = config.response_json_schema
    if schema is None and isinstance(config.response_schema, dict):
        schema = config.response_schema
    if schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}
    elif config.response_mime_type == "application/json":
        body["response_format"] = {"type": "json_object"}
    return body


def response_of(data: dict[str, Any]) -> LlmResponse:
    """The first choice as Gemini content; usage as `usage_metadata` (what ADK puts on the event)."""
    choices = data.get("choices") or [{}]
    message = choices[0].get("message") or {}
    parts: list[types.Part] = []
    if isinstance(message.get("content"), str) and message["content"] != "":
        parts.append(types.Part(text=message["content"]))
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        raw = function.get("arguments")
        text = raw if isinstance(raw, str) else json.dumps(raw if raw is not None else {})
        try:
            args = json.loads(text)
        except ValueError:
            args = None
        parts.append(types.Part(
            function_call=types.FunctionCall(
                id=call.get("id") or f"call_{index}",
                name=function.get("name") or "",
                # Gemini args are an object; anything else keeps only its raw string (and the tool reads that).
                args=args if isinstance(args, dict) else {},
            ),
            part_metadata={RAW_ARGUMENTS: text},
        ))
    usage = data.get("usage") or {}
    prompt = usage.get("prompt_tokens") if isinstance(usage.get("prompt_tokens"), int) else 0
    completion = usage.get("completion_tokens") if isinstance(usage.get("completion_tokens"), int) else 0
    return LlmResponse(
        # No parts at all: a usage-only response, so ADK still records the call's usage on an event.
        content=types.Content(role="model", parts=parts) if parts else None,
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=prompt, candidates_token_count=completion, total_token_count=prompt + completion),
    )


class ChatCompletionsLlm(BaseLlm):
    """One Chat Completions call per ADK model call; `stream` is ignored (never `stream: true` on the wire)."""

    base_url: str
    api_key: str
    timeout_s: float
    _client: AsyncOpenAI | None = PrivateAttr(default=None)

    def _http(self) -> AsyncOpenAI:
        # Built on first use, on the host's one event loop; the SDK reads no OPENAI_* variable when both are given.
        if self._client is None:
            self._client = AsyncOpenAI(base_url=self.base_url, api_key=self.api_key, timeout=self.timeout_s, max_retries=MAX_RETRIES)
        return self._client

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> AsyncGenerator[LlmResponse, None]:
        body = request_body(llm_request, self.model)
        # `.with_raw_response` + json: the reply's own dict (argument strings untouched), not the SDK's models.
        try:
            raw = await self._http().chat.completions.with_raw_response.create(**body)
        except APIStatusError as err:
            raise ChatCompletionsHttpError(err.status_code, err.response.text) from err
        yield response_of(json.loads(raw.text))

    def connect(self, llm_request: LlmRequest):
        raise UnsupportedRequestError("Chat Completions has no live (bidirectional) connection")
