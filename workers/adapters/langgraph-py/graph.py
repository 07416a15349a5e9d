"""The agent as an explicit LangGraph graph, the TS twin's: a messages state, an LLM node and
LangGraph's prebuilt `ToolNode`, joined by the prebuilt `tools_condition` edge.

    START → agent ─(tool calls)→ tools → agent …
                  └(no tool calls)→ END

The arena prompt is the system message of every model call, verbatim; the state holds the
conversation from the user message on, so every request replays the whole transcript.
(`create_react_agent` is not used: besides being deprecated, its `remaining_steps` guard swaps
the last reply for "Sorry, need more steps…", which drops that call's usage.)
"""
from langchain_core.messages import SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


def agent_graph(model, system_prompt, tools, checkpointer):
    llm = model.bind_tools(tools) if tools else model
    system = SystemMessage(system_prompt)

    def agent(state):
        return {"messages": [llm.invoke([system, *state["messages"]])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile(checkpointer=checkpointer)


def recursion_limit_for(max_calls, resumed):
    """LangGraph's cap counts super-steps, not model calls: every agent step and every tools step
    is one, and a loop may run `recursion_limit + 1` steps from the one after the checkpoint it
    starts at (pregel/_loop.py: `stop = step + recursion_limit + 1`). A fresh leg spends the first
    on writing its input (`__start__`), then agent, tools, agent, tools… so `2N` allows exactly N
    model calls and still runs the tools the N-th asked for (as the baseline does) before the
    (N+1)-th is stopped. A resumed leg has no input step (the interrupted tools step re-runs first),
    so the same N calls need `2N - 1`. Both measured on the wire (tests/adapters/langgraph-py.*)."""
    return 2 * max_calls - (1 if resumed else 0)
