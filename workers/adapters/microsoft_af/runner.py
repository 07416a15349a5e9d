"""One leg on an `Agent`: run or resume, the cap, usage, the pause and its durable state.

The cap. The tool loop makes up to `max_iterations` calls with tools and then, whatever the last
reply was, one more with `tool_choice: "none"` (agent_framework/_tools.py, 1.23). So the budget
is `max_iterations = maxToolIterations`, and the chat middleware below answers that extra call
itself, off the wire, when the leg has already been served its budget: the leg ends with the
baseline's error and at most `maxToolIterations` calls reach the gateway, all with the tools.

Usage is the run's `usage_details` (the framework's sum of each reply's `usage`); the calls are
the served replies the chat middleware saw.

The pause is the framework's approval gate: the run returns a `function_approval_request` for
the pause call. The `AgentSession` (its history and the approval state it records) serialises
with `to_dict()` into `resume_state`; a fresh process restores it with `from_dict()` and answers
every pending request with an approval response.
"""
from agent_framework import Agent, AgentSession, ChatMiddleware, ChatResponse, Content, Message

from arena_tools.definitions import is_suspend_tool, pause_request_of
from arena_tools.texts import MAX_ITERATIONS_ERROR

from .model import chat_client
from .tools import Dispatch, function_tools


def _function_calls(messages):
    for message in messages or ():
        for content in getattr(message, "contents", None) or ():
            if content.type == "function_call":
                yield content


class Served(ChatMiddleware):
    """Sees every model call of the leg: counts the served replies, keeps their argument texts and
    newest text, and answers the call past the budget itself."""

    def __init__(self, budget, served_arguments):
        self.budget = budget
        self.served_arguments = served_arguments
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.last_text = ""
        self.capped = False

    async def process(self, context, call_next):
        if self.calls >= self.budget:
            self.capped = True
            context.result = ChatResponse(messages=[Message(role="assistant", contents=[])])
            return
        await call_next()
        reply = context.result
        self.calls += 1
        usage = reply.usage_details or {}
        self.prompt_tokens += usage.get("input_token_count") or 0
        self.completion_tokens += usage.get("output_token_count") or 0
        for call in _function_calls(reply.messages):
            self.served_arguments[call.call_id] = call.arguments
        if reply.text:
            self.last_text = reply.text


def _history_arguments(session):
    """The served argument texts of every call in a restored session's history, by call id."""
    found = {}

    def walk(value):
        if isinstance(value, Message):
            for call in _function_calls([value]):
                found[call.call_id] = call.arguments
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk(session.state)
    return found


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx

    def _agent(self, served, dispatch):
        client, http = chat_client(self.config, self.config["maxToolIterations"])
        agent = Agent(
            client=client,
            instructions=self.arena["systemPrompt"],
            tools=function_tools(self.arena),
            default_options={"temperature": self.config["temperature"]},
            middleware=[served, dispatch],
        )
        return agent, http

    async def _leg(self, session, message, served_arguments, dispatch):
        served = Served(self.config["maxToolIterations"], served_arguments)
        agent, http = self._agent(served, dispatch)
        try:
            response = await agent.run(message, session=session)
        finally:
            await http.close()
        usage = response.usage_details or {}
        result = {
            "output_text": served.last_text,
            "tool_calls": dispatch.tool_calls,
            "prompt_tokens": usage.get("input_token_count") or 0,
            "completion_tokens": usage.get("output_token_count") or 0,
            "llm_calls": served.calls,
        }
        requests = [r for r in response.user_input_requests if r.type == "function_approval_request"]
        pause = next((r for r in requests if is_suspend_tool(r.function_call.name)), None)
        if pause is not None:
            return {**result, "suspended": True, "suspend_request": pause_request_of(pause.function_call.arguments),
                    "resume_state": self._state(session, response, requests, pause)}
        if served.capped:
            return {**result, "error": MAX_ITERATIONS_ERROR}
        return result

    def _state(self, session, response, requests, pause):
        """The session as JSON, the requests to answer, and the calls batched after the pause call (never run)."""
        batch = []
        for message in response.messages:
            ids = [c.call_id for c in _function_calls([message])]
            if pause.function_call.call_id in ids:
                batch = ids
        after = batch[batch.index(pause.function_call.call_id) + 1:] if batch else []
        return {"session": session.to_dict(), "requests": [r.to_dict() for r in requests],
                "pause_call_id": pause.function_call.call_id, "paused_siblings": after}

    async def run(self, item):
        served_arguments = {}
        dispatch = Dispatch(self.ctx.tools, served_arguments)
        agent_session = AgentSession()
        return await self._leg(agent_session, item["input"], served_arguments, dispatch)

    async def resume(self, item, state, decision):
        if not isinstance(state, dict) or not isinstance(state.get("session"), dict):
            return {"error": f"cannot resume: unusable state {type(state).__name__}"}
        session = AgentSession.from_dict(state["session"])
        served_arguments = _history_arguments(session)
        dispatch = Dispatch(self.ctx.tools, served_arguments, decision=decision, paused_siblings=state.get("paused_siblings", []))
        # Every pending request is released: the pause call's body is reading the decision, and the
        # middleware answers it with the decision text (approved=False would make the framework
        # answer its own fixed rejection text instead).
        answers = [Content.from_dict(r).to_function_approval_response(approved=True) for r in state.get("requests", [])]
        return await self._leg(session, Message(role="user", contents=answers), served_arguments, dispatch)


def build_runner(arena, config, ctx):
    return Runner(arena, config, ctx)
