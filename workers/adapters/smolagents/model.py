"""How smolagents is pointed at the gateway: its `OpenAIServerModel` (an `openai.OpenAI` client
underneath) with the base URL, key, model, per-attempt timeout and retry count of the config, the
shared temperature as its one completion keyword, and smolagents' own rate-limit retry layer off."""
import importlib.metadata

DIST = "smolagents"

# Retries the `openai.OpenAI` client makes per model call, set explicitly so an SDK upgrade cannot
# move it. 2 is the client's own default (what a user of smolagents gets): 408/409/429/5xx,
# connection errors and timeouts are retried with backoff (honouring Retry-After), a 400 never is.
MAX_RETRIES = 2


def lib_version():
    try:
        return f"{DIST} {importlib.metadata.version(DIST)}"
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def build_model(config):
    """One model per build. `retry=False` turns off smolagents' own `Retrying` wrapper (1.26.0:
    3 attempts on anything whose text says 429 / rate limit, sleeping 60 s then 120 s with jitter),
    which would otherwise multiply the client's retries and hide them behind minute-long sleeps."""
    from smolagents import OpenAIServerModel

    return OpenAIServerModel(
        model_id=config["model"],
        api_base=config["baseUrl"],
        api_key=config["apiKey"],
        client_kwargs={"timeout": config["requestTimeoutS"], "max_retries": MAX_RETRIES},
        retry=False,
        temperature=config["temperature"],
    )
