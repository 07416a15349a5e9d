"""The `langgraph-py` runner, the TS twin's: one leg = one `invoke` of the agent graph on a thread
of the checkpointer. A suspend tool calls `interrupt()`, the leg returns a small handle to the
paused thread, and `resume` (in a fresh process on a durable arena) reopens the same SQLite file
and continues with `Command(resume=decision)`.

Synchronous on purpose: `SqliteSaver` is the synchronous saver (its async methods raise), and the
host runs a plain `run` on its own thread, one leg at a time.
"""
import sys
import traceback

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.errors import GraphRecursionError
from langgraph.types import Command

from arena_tools.definitions import is_suspend_tool, names_for
from arena_tools.texts import MAX_ITERATIONS_ERROR

from .graph import agent_graph, recursion_limit_for
from .history import message_text, summarise_leg
from .model import chat_model
from .store import RunStore, new_thread_id, parse_handle
from .tools import canonical_tools


def leg_error(err):
    """Text for an exception that ended a leg; anything but the recursion cap keeps its name."""
    if isinstance(err, GraphRecursionError):
        return MAX_ITERATIONS_ERROR
    traceback.print_exception(err, file=sys.stderr)
    return f"{type(err).__name__}: {err}"


def _interrupts(snapshot):
    return [i for task in snapshot.tasks for i in (task.interrupts or ())]


def _pause_summary(interrupts):
    summaries = [(i.value or {}).get("summary", "") if isinstance(i.value, dict) else "" for i in interrupts]
    return "\n".join(s for s in summaries if s)


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = chat_model(config)
        self.store = RunStore(any(is_suspend_tool(n) for n in names_for(arena["tools"])))

    def _compile(self, open_store, executed):
        tools = canonical_tools(self.arena, self.ctx.tools, executed)
        return agent_graph(self.model, self.arena["systemPrompt"], tools, open_store.saver)

    def _leg(self, graph, open_store, thread, graph_input, before, resumed, executed):
        thread_config = {"configurable": {"thread_id": thread}}
        error = None
        self.model.take_unparsed_usage()  # this leg's calls only
        try:
            graph.invoke(graph_input, {**thread_config, "recursion_limit": recursion_limit_for(self.config["maxToolIterations"], resumed)},
                         durability="sync")
        except Exception as err:  # errors are data: the leg reports what was served before it
            error = leg_error(err)
        # The last saved checkpoint: complete after an answer or a pause, and up to the last finished
        # step after an exception, so the usage of every call that was served is still reported.
        snapshot = graph.get_state(thread_config)
        messages = (snapshot.values or {}).get("messages", [])
        summary = summarise_leg(messages, before, executed)
        # A served reply ChatOpenAI could not parse raised before any message held its usage (model.py).
        lost_prompt, lost_completion, lost_calls = self.model.take_unparsed_usage()
        result = {
            "tool_calls": summary["tool_calls"],
            "prompt_tokens": summary["prompt_tokens"] + lost_prompt,
            "completion_tokens": summary["completion_tokens"] + lost_completion,
            "llm_calls": summary["llm_calls"] + lost_calls,
            "raw": {"invalid_tool_calls": summary["invalid_tool_calls"]} if summary["invalid_tool_calls"] else None,
        }
        if error is not None:
            return {**result, "output_text": summary["last_content"], "error": error}
        interrupts = _interrupts(snapshot)
        if interrupts:
            handle = {"thread_id": thread, "checkpoint_file": open_store.file,
                      "checkpoint_id": str(snapshot.config["configurable"].get("checkpoint_id", ""))}
            return {**result, "output_text": summary["last_content"], "suspended": True,
                    "suspend_request": _pause_summary(interrupts), "resume_state": handle}
        last = messages[-1] if messages else None
        answer = message_text(last) if isinstance(last, AIMessage) else summary["last_content"]
        return {**result, "output_text": answer}

    def run(self, item):
        thread = new_thread_id(item["id"])
        open_store = self.store.open(thread, item.get("checkpointDir", ""))
        try:
            executed = []
            graph = self._compile(open_store, executed)
            return self._leg(graph, open_store, thread, {"messages": [HumanMessage(item["input"])]}, set(), False, executed)
        finally:
            open_store.close()

    def resume(self, item, state, decision):
        handle = parse_handle(state)
        if isinstance(handle, str):
            return {"error": f"cannot resume: {handle}"}
        open_store = self.store.reopen(handle, item.get("checkpointDir", ""))
        if isinstance(open_store, str):
            return {"error": f"cannot resume: {open_store}"}
        try:
            thread = handle["thread_id"]
            executed = []
            graph = self._compile(open_store, executed)
            snapshot = graph.get_state({"configurable": {"thread_id": thread}})
            history = (snapshot.values or {}).get("messages", [])
            if not history:
                return {"error": f"cannot resume: no run on thread {thread}"}
            if snapshot.config["configurable"].get("checkpoint_id") != handle["checkpoint_id"]:
                return {"error": f"cannot resume: thread {thread} is no longer at checkpoint {handle['checkpoint_id']}"}
            pending = _interrupts(snapshot)
            if not pending:
                return {"error": f"cannot resume: thread {thread} is not paused"}
            # One pause: resume with the decision itself; several (batched suspend calls): one each, by interrupt id.
            resume = decision if len(pending) == 1 else {i.id: decision for i in pending}
            before = {m.id for m in history if m.id is not None}
            return self._leg(graph, open_store, thread, Command(resume=resume), before, True, executed)
        finally:
            open_store.close()


def build_runner(arena, config, ctx):
    return Runner(arena, config, ctx)
