"""How often LangGraph's sync ToolNode runs a suspend call's later sibling before the interrupt.

The ToolNode runs a turn's calls with `Executor.map` on a thread pool. When the suspend call's
`interrupt()` surfaces, `map` cancels every future no thread has picked up yet, so a sibling listed
after the suspend call runs only if its thread started first: a race that the earlier sibling's
duration decides. This counts, per duration, the invocations in which the later sibling never ran.
It backs Finding 5 of workers/adapters/langgraph-py/README.md; the wire test accepts both outcomes.

    .venv/bin/python scripts/langgraph-py-sibling-race.py [invocations per duration, default 300]
"""
import os
import sys
import time

# Tracing off, as a worker has it (contract/telemetry.ts), before LangChain reads the environment.
os.environ.update({"LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false", "LANGCHAIN_TRACING": "false", "DO_NOT_TRACK": "1"})
for key in ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
    os.environ.pop(key, None)

from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import interrupt

ran = []
hold = {"seconds": 0.0}


@tool
def search(query: str) -> str:
    """The sibling before the suspend call; it holds its thread for `hold` seconds."""
    ran.append("search")
    time.sleep(hold["seconds"])
    return "found"


@tool
def request_approval(summary: str) -> str:
    """The suspend call."""
    return interrupt(summary)


@tool
def calculator(expr: str) -> str:
    """The sibling after the suspend call."""
    ran.append("calculator")
    return "4"


def main():
    invocations = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode([search, request_approval, calculator]))
    graph.add_edge(START, "tools")
    app = graph.compile(checkpointer=InMemorySaver())
    batch = AIMessage("", tool_calls=[
        {"name": "search", "args": {"query": "Eiffel Tower"}, "id": "c1"},
        {"name": "request_approval", "args": {"summary": "ok?"}, "id": "c2"},
        {"name": "calculator", "args": {"expr": "2+2"}, "id": "c3"},
    ])
    for seconds in (0.0, 0.001, 0.01):
        hold["seconds"] = seconds
        cancelled = 0
        for n in range(invocations):
            ran.clear()
            app.invoke({"messages": [batch]}, {"configurable": {"thread_id": f"{seconds}-{n}"}})
            cancelled += "calculator" not in ran
        print(f"search holds {seconds * 1000:g} ms: calculator never ran in {cancelled} of {invocations} pausing legs")


main()
