"""The model every `openai_agents-py` agent runs on: the SDK's Chat Completions model
(`OpenAIChatCompletionsModel`, never the Responses model and never the SDK's default provider,
which reads `OPENAI_*` variables and caches its client) over an `AsyncOpenAI` built from the
config, plus the one model setting every agent gets.

The model object also notes, per served response, the order of the calls it asked for, so a task
call batched after a pause call can be answered the baseline's "Not executed" text (tools.py)."""
import os

from openai import AsyncOpenAI

from agents import ModelSettings, OpenAIChatCompletionsModel, set_tracing_disabled

# Tracing exports spans to api.openai.com by default. The worker host already sets
# OPENAI_AGENTS_DISABLE_TRACING=1 (contract/telemetry.ts); the call makes it sticky for this
# process whatever the environment says, and every run also passes tracing_disabled=True.
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")
set_tracing_disabled(True)

# The openai client's own default, stated so an SDK upgrade cannot move it, and what the TS twin
# sets: a connection error, a timeout, 408, 409, 429 and 5xx are retried twice with backoff
# (honouring Retry-After), a 400 never is.
MAX_RETRIES = 2


class BatchLog:
    """The call ids of every served response, in the model's order, keyed by each call's id."""

    def __init__(self):
        self.batch_of = {}

    def note(self, response):
        batch = [(item.call_id, item.name) for item in response.output if getattr(item, "type", None) == "function_call"]
        for call_id, _ in batch:
            self.batch_of[call_id] = batch


class ChatModel(OpenAIChatCompletionsModel):
    """The SDK's Chat Completions model, unchanged on the wire; it only reads each reply: its calls'
    order, and its usage (kept for a leg the SDK ends with an exception that carries no run data)."""

    def __init__(self, model, openai_client, batches):
        super().__init__(model=model, openai_client=openai_client)
        self.batches = batches
        self.served = [0, 0, 0]  # prompt, completion, calls: every reply this model object received

    async def get_response(self, *args, **kwargs):
        response = await super().get_response(*args, **kwargs)
        self.batches.note(response)
        self.served[0] += response.usage.input_tokens
        self.served[1] += response.usage.output_tokens
        self.served[2] += 1
        return response


def chat_model(config, batches):
    """One model per build: base URL, key, per-attempt timeout (seconds) and retries from the config."""
    client = AsyncOpenAI(
        base_url=config["baseUrl"],
        api_key=config["apiKey"],
        timeout=config["requestTimeoutS"],
        max_retries=MAX_RETRIES,
    )
    return ChatModel(config["model"], client, batches)


def model_settings(config):
    """Only the shared temperature: no other sampling parameter reaches the wire."""
    return ModelSettings(temperature=config["temperature"])
