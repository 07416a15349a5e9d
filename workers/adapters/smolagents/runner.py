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


def served_calls(step, delegates=()):
    """The task calls of one step's reply, arguments as the model sent them: read off the raw
    reply, since smolagents refuses some calls (missing or mistyped arguments) before any tool
    runs, and those are the model's calls too (the baseline logs every call it is sent)."""
    raw = getattr(getattr(step, "model_output_message", None), "raw", None)
    try:
        calls = raw.choices[0].message.tool_calls or []
    except (AttributeError, IndexError, TypeError):
        return []
    out = []
    for call in calls:
        name, args = call.function.name, call.function.arguments
        if not is_control_tool(name, delegates):
            out.append({"name": name, "arguments": args if isinstance(args, str) else ""})
    return out


class LegLog:
    """What one leg's agents did, gathered by a step callback on each of them: smolagents' own
    `token_usage` of every step (the max-steps step carries the provide_final_answer call's), and
    the task calls in the order the steps finished. A callback rather than a walk over memory,
    because a managed agent resets its memory each time it is called."""

    def __init__(self, delegates=()):
        self.delegates = tuple(delegates)
        self.prompt_tokens = self.completion_tokens = self.llm_calls = 0
        self.tool_calls = []

    def on_step(self, step):
        usage = getattr(step, "token_usage", None)
        if usage is not None:
            self.prompt_tokens += usage.input_tokens
            self.completion_tokens += usage.output_tokens
            self.llm_calls += 1
        self.tool_calls.extend(served_calls(step, self.delegates))

    def callbacks(self):
        from smolagents.memory import ActionStep, PlanningStep

        return {ActionStep: [self.on_step], PlanningStep: [self.on_step]}

    def report(self):
        return {"tool_calls": self.tool_calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "llm_calls": self.llm_calls}


def answer_text(output):
    if output is None:
        return ""
    return output if isinstance(output, str) else str(output)


def run_leg(agent, task, log):
    """Run the agent on the task; its result (or its exception, as data) with the leg's log."""
    try:
        result = agent.run(task, return_full_result=True)
    except UnboundLocalError:
        if agent.max_steps != 0:
            raise
        # smolagents 1.26.0 with max_steps=0 makes its provide_final_answer call, records it, then
        # trips over its own loop variable (`yield action_step` in _run_stream, never bound when no
        # step ran): the budget of one call was spent, so the leg ends as any capped leg does.
        last = agent.memory.steps[-1] if agent.memory.steps else None
        return {"output_text": answer_text(getattr(last, "action_output", None)), **log.report(), "error": MAX_ITERATIONS_ERROR}
    except Exception as err:  # noqa: BLE001  (a failed call is the item's error, with the usage so far)
        return {"output_text": "", **log.report(), "error": f"{type(err).__name__}: {err}"}
    out = {"output_text": answer_text(result.output), **log.report()}
    if result.state == "max_steps_error":
        out["error"] = MAX_ITERATIONS_ERROR
    return out


def tool_calling_agent(model, tools, instructions, config, log, **extra):
    from smolagents import ToolCallingAgent

    # The arena prompt goes where smolagents puts a user's instructions, inside its own
    # system-prompt template (prompts/toolcalling_agent.yaml).
    return ToolCallingAgent(
        tools=tools,
        model=model,
        instructions=instructions,
        max_steps=agent_steps(config),
        verbosity_level=0,
        step_callbacks=log.callbacks(),
        **extra,
    )


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = build_model(config)

    def run(self, item):
        # A fresh agent per leg: its memory is the whole conversation.
        log = LegLog()
        agent = tool_calling_agent(self.model, arena_tools(self.arena, self.ctx), self.arena["systemPrompt"], self.config, log)
        return run_leg(agent, item["input"], log)


def build_runner(arena, config, ctx):
    return Runner(arena, config, ctx)
