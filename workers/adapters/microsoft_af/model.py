"""How the framework reaches the gateway: `OpenAIChatCompletionClient` (the Chat Completions client;
`OpenAIChatClient` is the Responses API one) over an `AsyncOpenAI` we build ourselves, so the base
URL, key, per-attempt timeout and retry count are ours and the framework reads no `OPENAI_*`
variable, adds no header and installs no feature-stamping HTTP client (it only does that for a
client it builds)."""
from openai import AsyncOpenAI

from agent_framework.observability import disable_instrumentation
from agent_framework.openai import OpenAIChatCompletionClient

# The worker's ENABLE_INSTRUMENTATION=false already does this; the explicit call is sticky, so no
# framework path can switch spans, metrics or logs back on in this process.
disable_instrumentation()

# The openai SDK's own default, stated: it retries a connection error, a timeout, 408, 409, 429
# and 5xx twice (backoff 0.5 s doubling, or Retry-After), and never a 400.
MAX_RETRIES = 2


def _without_author_name(message, prepared):
    """The framework replays its stored assistant turns with `name: <agent name>`; the served replies had none."""
    for entry in prepared:
        if entry.get("role") == "assistant":
            entry.pop("name", None)
    return prepared


def chat_client(config, max_iterations):
    """A client for one leg: its own HTTP pool on the running loop, and the tool loop's iteration budget."""
    http = AsyncOpenAI(
        base_url=config["baseUrl"],
        api_key=config["apiKey"],
        timeout=config["requestTimeoutS"],
        max_retries=MAX_RETRIES,
    )
    return OpenAIChatCompletionClient(
        model=config["model"],
        async_client=http,
        message_preparer=_without_author_name,
        function_invocation_configuration={
            "max_iterations": max_iterations,
            # Calls of one reply run in the model's order, as the baseline runs them.
            "allow_concurrent_invocation": False,
        },
    ), http
