"""`smolagents-code`: smolagents' CodeAgent, the framework's flagship loop: the model writes Python
in `<code>` blocks, smolagents runs it in its LocalPythonExecutor, where each canonical tool is a
function. No tools block reaches the wire (the tools are described in the system prompt), so the
mock gateway serves it through its code renderer. Built only on what index.py exports."""
from .index import LegLog, arena_tools, build_model, lib_version, run_leg
from .runner import agent_steps

name = "smolagents-code"

__all__ = ["name", "lib_version", "wire_exceptions", "build"]

wire_exceptions = [
    {"key": "stop", "reason": "CodeAgent sends stop: [\"Observation:\", \"Calling tools:\", \"</code>\"] on every step: generation ends at the close of the code block."},
]


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = build_model(config)

    def run(self, item):
        from smolagents import CodeAgent

        log = LegLog()
        # The calls happen inside the executed code: log them where they run.
        tools = arena_tools(self.arena, self.ctx, on_call=lambda n, a: log.tool_calls.append({"name": n, "arguments": a}))
        agent = CodeAgent(
            tools=tools,
            model=self.model,
            instructions=self.arena["systemPrompt"],
            max_steps=agent_steps(self.config),
            verbosity_level=0,
            step_callbacks=log.callbacks(),
        )
        return run_leg(agent, item["input"], log)


def build(arena, config, ctx):
    return Runner(arena, config, ctx)
