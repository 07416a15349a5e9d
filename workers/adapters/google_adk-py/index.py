"""`google_adk-py`: one `LlmAgent` on Google's Agent Development Kit for Python (google-adk), run by
ADK's own Runner over the Chat Completions model class in model.py. The Python twin of the
`google_adk` adapter (workers/adapters/google_adk/); see README.md for each control and finding."""
from importlib import metadata

name = "google_adk-py"

# The session's events name their author: a resume must rebuild an agent of the same name.
AGENT_NAME = "assistant"


def lib_version():
    try:
        return f"google-adk {metadata.version('google-adk')}"
    except metadata.PackageNotFoundError:
        return "google-adk (not installed)"


def chat_model(config):
    """The model object every stage runs on: the gateway, the model, the per-attempt timeout."""
    from .model import ChatCompletionsLlm

    return ChatCompletionsLlm(model=config["model"], base_url=config["baseUrl"], api_key=config["apiKey"],
                              timeout_s=config["requestTimeoutS"])


def llm_agent(agent_name, instruction, config, tools, model=None):
    from google.adk.agents import LlmAgent
    from google.genai import types

    return LlmAgent(
        name=agent_name,
        model=model or chat_model(config),
        # A function, not a string: ADK fills `{name}` placeholders of a string instruction from the
        # session state; the arena prompt must reach the model verbatim.
        instruction=lambda _ctx: instruction,
        # No transfer targets: ADK then adds no transfer block and no transfer_to_agent tool. (ADK for
        # Python still adds its identity line: README, finding 2.)
        disallow_transfer_to_parent=True,
        disallow_transfer_to_peers=True,
        # Only the shared temperature: no other sampling setting reaches the wire.
        generate_content_config=types.GenerateContentConfig(temperature=config["temperature"]),
        tools=tools,
    )


def build(arena, config, ctx):
    from .runner import Runner
    from .tools import arena_tools

    return Runner(config, llm_agent(AGENT_NAME, arena["systemPrompt"], config, arena_tools(arena, ctx.tools)))
