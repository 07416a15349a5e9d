"""One leg on a smolagents ToolCallingAgent: the cap, the answer, the calls, usage."""
from arena_tools.definitions import is_control_tool
from arena_tools.texts import MAX_ITERATIONS_ERROR

from .model import build_model
from .tools import arena_tools


def agent_steps(config):
    """smolagents makes one LLM call per step and, when `max_steps` run out without a final answer,
    one more (`provide_final_answer`, without tools): so a budget of N calls is N - 1 steps.
    (`max_steps=0` runs no step and goes straight to that call: a budget of 1 is still one call.)"""
    return max(config["maxToolIterations"] - 1, 0)


def action_steps(agent):
    from smolagents.memory import ActionStep, PlanningStep

    return [s for s in agent.memory.steps if isinstance(s, (ActionStep, PlanningStep))]


def usage_of(agent):
    """The leg's usage: smolagents' own `token_usage` of every step (the max-steps step carries
    the provide_final_answer call's), each from the reply's `usage`."""
    prompt = completion = calls = 0
    for step in action_steps(agent):
        if step.token_usage is not None:
            prompt += step.token_usage.input_tokens
            completion += step.token_usage.output_tokens
            calls += 1
    return {"prompt_tokens": prompt, "completion_tokens": completion, "llm_calls": calls}


def served_calls(step):
    """The task calls of one step's reply, arguments as the model sent them: read off the raw
    reply, since smolagents refuses some calls (missing or mistyped arguments) before any tool
    runs, and those are the model's calls too (the baseline logs every call it is sent)."""
    message = getattr(step, "model_output_message", None)
    raw = getattr(message, "raw", None)
    try:
        calls = raw.choices[0].message.tool_calls or []
    except (AttributeError, IndexError):
        return []
    out = []
    for call in calls:
        name, args = call.function.name, call.function.arguments
        if not is_control_tool(name):
            out.append({"name": name, "arguments": args if isinstance(args, str) else ""})
    return out


def answer_text(output):
    if output is None:
        return ""
    return output if isinstance(output, str) else str(output)


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = build_model(config)

    def new_agent(self):
        from smolagents import ToolCallingAgent

        # A fresh agent per leg: its memory is the conversation; the arena prompt goes where
        # smolagents puts a user's instructions, inside its own system-prompt template.
        return ToolCallingAgent(
            tools=arena_tools(self.arena, self.ctx),
            model=self.model,
            instructions=self.arena["systemPrompt"],
            max_steps=agent_steps(self.config),
            verbosity_level=0,
        )

    def run(self, item):
        agent = self.new_agent()
        result = agent.run(item["input"], return_full_result=True)
        calls = [c for step in action_steps(agent) for c in served_calls(step)]
        out = {"output_text": answer_text(result.output), "tool_calls": calls, **usage_of(agent)}
        if result.state == "max_steps_error":
            out["error"] = MAX_ITERATIONS_ERROR
        return out


def build_runner(arena, config, ctx):
    return Runner(arena, config, ctx)
