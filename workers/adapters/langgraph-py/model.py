"""The chat model: langchain-openai's `ChatOpenAI` on Chat Completions, pointed at the run's base
URL with every shared control taken from the config (harness.md §1–§2) and nothing else set.

ChatOpenAI 1.7.4 parses each served tool call into `tool_calls[].args` (a dict) and keeps no copy
of the arguments text the model sent (`_convert_dict_to_message` puts only `function_call`,
`audio` and `refusal` in `additional_kwargs`). The shared `dispatch` must see that text, so the
model below copies the served tool calls into `additional_kwargs["tool_calls"]` — where the TS
edition finds them — which the checkpointer then keeps across a restart. Replay is unaffected:
ChatOpenAI serialises an AIMessage from its parsed `tool_calls` whenever it has any.
"""
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

# Retries per LLM call after the first attempt, as the TS twin (`maxRetries: 1`). Here the count
# goes to the openai SDK client itself (langchain-openai adds no retry layer): it retries a
# connection error, a timeout, 408, 409, 429 and 5xx (honouring Retry-After), never a 400.
# ChatOpenAI's default is 2.
MAX_RETRIES = 1


def _served_tool_calls(choice):
    message = choice.get("message") or {}
    calls = []
    for call in message.get("tool_calls") or ():
        function = call.get("function") or {}
        calls.append({"id": call.get("id"), "type": call.get("type", "function"),
                      "function": {"name": function.get("name"), "arguments": function.get("arguments")}})
    return calls


class ServedArgumentsChatOpenAI(ChatOpenAI):
    """ChatOpenAI that also keeps each served tool call, arguments text included, on the reply,
    and meters the usage of a served reply it then fails to turn into a message."""

    # (prompt, completion) of replies that were served and billed but raised while being parsed
    # (a call whose arguments are a JSON array fails AIMessage's validation): no AIMessage carries
    # their usage, so the runner adds these to the leg's and clears them.
    _unparsed: list = PrivateAttr(default_factory=list)

    def take_unparsed_usage(self):
        taken, self._unparsed = self._unparsed, []
        return sum(p for p, _ in taken), sum(c for _, c in taken), len(taken)

    def _create_chat_result(self, response, generation_info=None):
        if isinstance(response, dict):
            choices = response.get("choices") or []
            usage = response.get("usage") or {}
        else:
            choices = [c.model_dump() for c in (getattr(response, "choices", None) or [])]
            usage = response.usage.model_dump() if getattr(response, "usage", None) else {}
        try:
            result = super()._create_chat_result(response, generation_info)
        except Exception:
            self._unparsed.append((usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0))
            raise
        for generation, choice in zip(result.generations, choices):
            calls = _served_tool_calls(choice)
            if calls:
                generation.message.additional_kwargs["tool_calls"] = calls
        return result


def chat_model(config):
    return ServedArgumentsChatOpenAI(
        model=config["model"],
        base_url=config["baseUrl"],
        api_key=config["apiKey"],
        temperature=config["temperature"],
        # Per HTTP attempt: the openai client's own timeout, in seconds.
        timeout=config["requestTimeoutS"],
        max_retries=MAX_RETRIES,
        use_responses_api=False,
        # No request streams, whatever mode the graph runs in (the TS twin's `streaming: false`).
        disable_streaming=True,
    )
