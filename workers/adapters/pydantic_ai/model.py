"""How pydantic_ai reaches the gateway: an `OpenAIChatModel` (Chat Completions, not the Responses
API the gateway does not serve) over an `OpenAIProvider` that is handed our own `AsyncOpenAI`
client, so the base URL, the key, the per-attempt timeout and the retry count are all ours and
explicit; temperature is the one sampling setting, in `ModelSettings`.
"""
from __future__ import annotations

from openai import AsyncOpenAI
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings

# The openai SDK's own default, set explicitly: it retries a connection error, a timeout, 408,
# 409, 429 and any 5xx (honouring Retry-After), never another 4xx. pydantic_ai adds no retry of its
# own on top (its `max_retries` setting only overrides this per request, and we do not set it).
# Kept at the default because a user of the framework gets exactly this; a retried attempt is
# recorded by the gateway and counted as the provider's fault, never as the adapter's call.
MAX_RETRIES = 2


def client_for(config: dict) -> AsyncOpenAI:
    """One client per runner: its timeout bounds each HTTP attempt (the SDK's per-attempt timeout)."""
    return AsyncOpenAI(
        base_url=config["baseUrl"],
        api_key=config["apiKey"],
        timeout=float(config["requestTimeoutS"]),
        max_retries=MAX_RETRIES,
    )


def chat_model(config: dict, client: AsyncOpenAI | None = None) -> OpenAIChatModel:
    return OpenAIChatModel(config["model"], provider=OpenAIProvider(openai_client=client or client_for(config)))


def model_settings(config: dict) -> ModelSettings:
    """Temperature only: no max_tokens, seed, parallel_tool_calls or other extras go on the wire."""
    return ModelSettings(temperature=config["temperature"])
