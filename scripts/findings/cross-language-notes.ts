/**
 * Why the two editions of one framework differ, per framework (the TypeScript entry's name): a
 * default, a prompt or a bug, each checked against the wire of `pnpm findings` and the adapters'
 * READMEs (workers/adapters/<name>/README.md and <name>-py/README.md).
 */
export const CROSS_LANGUAGE_NOTES: Readonly<Record<string, string>> = {
  vanilla:
    "none on the wire: `vanilla-py` writes its JSON as `JSON.stringify` does (`wire_json.py`), so all 269 request bodies are byte-equal (tests/adapters/vanilla-py.test.ts); a plain `json.dumps` would add 21,807 bytes of separators (4.2%) and no billed token. Outside the body: urllib's default headers and one connection per request",
  "vanilla-multi": "the same pipeline; its 318 request bodies are byte-equal to `vanilla-multi`'s",
  openai_agents:
    "the same bill on six arenas; on resilience the Python SDK hands a raw `FunctionTool` the model's unparsed arguments, so malformed JSON gets the canonical tool's error where the TS SDK answers its own (a default); a call batched after the pause never runs in Python and runs before the decision in TS (a TS-edition bug, its README's finding 3); the Python `RunState` is larger (run items stored twice, per-request usage, approval fingerprints: a default); `import agents` loads `openai.types`, `mcp` and `agents.sandbox` eagerly (the slower start)",
  "openai_agents-multi": "Python handoff tools go out with `\"strict\": true` and their results with `json.dumps` spacing (`{\"assistant\": \"writer\"}`): +12.8 prompt tokens an item, both defaults",
  langgraph:
    "the Python edition bills the baseline's tokens on every arena but resilience; the TypeScript edition's few more per item are LangChain.js's replay (`name` on tool messages, `\"\"` for an empty content, compact arguments: serialisation defaults). On resilience Python validates no dict-schema arguments, so the canonical tool answers where LangChain.js answers \"did not match expected schema\" (a default), a JSON-array argument crashes Python's AIMessage validation (res-10, a langchain-core bug), and the two ToolNodes word the unknown-tool error differently",
  "langgraph-multi": "the Python pipeline bills `vanilla-multi`'s tokens exactly; the TypeScript one's 11.3 more per item are the same LangChain.js replay defaults",
  google_adk:
    "every Python request carries ADK for Python's identity line (about 14.6 prompt tokens, a prompt the framework appends whatever its transfer settings); on resilience Python answers an unknown tool with ADK's own error and goes on where TS ends the leg (a default); a denial reads as the decision text in Python and ADK's rejection text in TS; Python's event dump in the item folder is larger (serialisation default)",
  "google_adk-multi":
    "Python shows the earlier agents' turns as a quoted, injection-guarded transcript with Python reprs (a prompt: 2758.0 against 1891.9 prompt tokens an item on multi_agent); with resumability on, Python stops the pipeline at a pause and resumes it, where the TS SequentialAgent runs writer and editor both before and after the decision (a TS-edition bug: more calls on the pause arenas)",
};
