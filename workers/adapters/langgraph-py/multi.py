"""`langgraph-py-multi`: the researcher → writer → editor pipeline of harness.md §8 as a LangGraph
`StateGraph`, the TS `langgraph-multi`'s graph: one shared message history, one budget of
`maxToolIterations` model calls for the whole item, counted in the graph state (a super-step
limit cannot say "the writer and editor run only while calls remain").

    START → researcher ─(tool calls)→ tools ─(calls left)→ researcher …
               │                        └(budget spent)→ out_of_budget → END
               └(answer, calls left)→ writer ─(calls left)→ editor → END
"""
import operator
import uuid
from typing import Annotated

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from arena_tools.texts import MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stage_prompt

from . import index
from .history import message_text, reply_usage, summarise_leg
from .model import chat_model
from .runner import leg_error
from .tools import canonical_tools

name = "langgraph-py-multi"
lib_version = index.lib_version


def _last(_old, new):
    return new


class PipelineState(MessagesState):
    # Model calls made so far in this item (all stages) and their summed usage: metered here, not
    # read off the history, because an empty writer/editor reply stays out of it but was billed.
    llm_calls: Annotated[int, operator.add]
    prompt_tokens: Annotated[int, operator.add]
    completion_tokens: Annotated[int, operator.add]
    error: Annotated[str | None, _last]


def _metered(reply):
    prompt, completion = reply_usage(reply)
    return {"llm_calls": 1, "prompt_tokens": prompt, "completion_tokens": completion}


def pipeline_graph(model, system_prompt, tools, max_calls, checkpointer):
    researcher_model = model.bind_tools(tools) if tools else model

    def system(role):
        return SystemMessage(stage_prompt(system_prompt, PIPELINE_ROLES[role]))

    def researcher(state):
        reply = researcher_model.invoke([system("researcher"), *state["messages"]])
        return {"messages": [reply], **_metered(reply)}

    def stage(role):
        # Writer and editor get no tools (no `tools` key on the wire); only a non-empty reply joins the history.
        def node(state):
            reply = model.invoke([system(role), *state["messages"]])
            return {"messages": [reply] if message_text(reply) else [], **_metered(reply)}
        return node

    def has_calls(state):
        return state.get("llm_calls", 0) < max_calls

    graph = StateGraph(PipelineState)
    graph.add_node("researcher", researcher)
    graph.add_node("tools", ToolNode(tools))
    graph.add_node("out_of_budget", lambda _state: {"error": MAX_ITERATIONS_ERROR})
    graph.add_node("writer", stage("writer"))
    graph.add_node("editor", stage("editor"))
    graph.add_edge(START, "researcher")
    graph.add_conditional_edges(
        "researcher",
        lambda s: "tools" if tools_condition(s) == "tools" else ("writer" if has_calls(s) else END),
        ["tools", "writer", END],
    )
    graph.add_conditional_edges("tools", lambda s: "researcher" if has_calls(s) else "out_of_budget", ["researcher", "out_of_budget"])
    graph.add_edge("out_of_budget", END)
    graph.add_conditional_edges("writer", lambda s: "editor" if has_calls(s) else END, ["editor", END])
    graph.add_edge("editor", END)
    return graph.compile(checkpointer=checkpointer)


def pipeline_recursion_limit(max_calls):
    """A backstop only: the budget above ends the graph first (at most 2N + 1 steps)."""
    return 2 * max_calls + 2


class Pipeline:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = chat_model(config)

    def run(self, item):
        executed = []
        n = self.config["maxToolIterations"]
        # A throwaway in-memory checkpointer, so the state reached before an exception can be read back.
        graph = pipeline_graph(self.model, self.arena["systemPrompt"], canonical_tools(self.arena, self.ctx.tools, executed), n, InMemorySaver())
        thread_config = {"configurable": {"thread_id": f"{item['id']}-{uuid.uuid4()}"}}
        error = None
        self.model.take_unparsed_usage()
        try:
            graph.invoke({"messages": [HumanMessage(item["input"])], "llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "error": None},
                         {**thread_config, "recursion_limit": pipeline_recursion_limit(n)})
        except Exception as err:  # errors are data
            error = leg_error(err)
        state = graph.get_state(thread_config).values or {}
        summary = summarise_leg(state.get("messages", []), set())
        # A served reply ChatOpenAI could not parse raised before the state metered it (model.py).
        lost_prompt, lost_completion, lost_calls = self.model.take_unparsed_usage()
        return {
            "output_text": summary["last_content"],
            "tool_calls": summary["tool_calls"],
            "prompt_tokens": state.get("prompt_tokens", 0) + lost_prompt,
            "completion_tokens": state.get("completion_tokens", 0) + lost_completion,
            "llm_calls": state.get("llm_calls", 0) + lost_calls,
            "error": error or state.get("error"),
            "raw": {"invalid_tool_calls": summary["invalid_tool_calls"]} if summary["invalid_tool_calls"] else None,
        }


def build(arena, config, ctx):
    return Pipeline(arena, config, ctx)
