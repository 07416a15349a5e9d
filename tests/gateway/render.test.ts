import { describe, expect, it } from "vitest";
import { dumpsPy, parsePyJson, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { assistant, at, CALCULATOR_SPEC, messageOf, SEARCH_SPEC, startGateway, user } from "./helpers.ts";

// Parsed from text so `3` and `3.0` keep their types, as the arena loader keeps them.
const script = parsePyJson(`{
  "scenarios": [
    {"match": "eiffel", "turns": [
      {"tool_calls": [{"name": "search", "arguments": {"query": "Eiffel Tower", "k": 3}}]},
      {"content": "It's 330 m."}]},
    {"match": "two calls", "turns": [
      {"tool_calls": [{"name": "search", "arguments": {"query": "a", "k": 2.0}, "id": "call_scripted"},
                      {"name": "calculator", "arguments": "{\\"expr\\": \\"1+1\\"}"}]},
      {"content": "two"}]},
    {"match": "odd args", "turns": [
      {"tool_calls": [{"name": "calculator", "arguments": "{\\"expr\\": 17 * 23 + 4"},
                      {"name": "calculator", "arguments": "null"},
                      {"name": "search", "arguments": [1, 2.5]},
                      {"name": "search"}]},
      {"content": "odd"}]}
  ]
}`) as PyDict;

const TOOLS = [SEARCH_SPEC, CALCULATOR_SPEC];
const keys = (v: PyValue | undefined) => [...(v as PyDict).keys()];

describe("native response shape (gateway.md §6)", () => {
  it("tool-call turn: content null, typed calls, finish_reason tool_calls, full body layout", async () => {
    const { post } = await startGateway({ script, arenaTools: ["search", "calculator"] });
    const before = Math.floor(Date.now() / 1000);
    const r = await post({ model: "gpt-test", messages: [user("Eiffel?")], tools: TOOLS });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("server")).toBe("AgentArenaMock/0.1");
    expect(Number(r.headers.get("content-length"))).toBe(Buffer.byteLength(r.text));
    expect(keys(r.json)).toEqual(["id", "object", "created", "model", "choices", "usage"]);
    expect(at(r.json, "id")).toMatch(/^chatcmpl-mock-[0-9a-f]{12}$/);
    expect(at(r.json, "object")).toBe("chat.completion");
    expect(Number(at(r.json, "created"))).toBeGreaterThanOrEqual(before);
    expect(at(r.json, "model")).toBe("gpt-test");
    expect(keys(at(r.json, "choices.0"))).toEqual(["index", "message", "finish_reason"]);
    expect(at(r.json, "choices.0.finish_reason")).toBe("tool_calls");
    const m = messageOf(r);
    expect(keys(m)).toEqual(["role", "content", "tool_calls"]);
    expect(m.get("content")).toBeNull();
    const call = at(m, "tool_calls.0");
    expect(keys(call)).toEqual(["id", "type", "function"]);
    expect(at(call, "id")).toMatch(/^call_[0-9a-f]{8}$/);
    expect(at(call, "type")).toBe("function");
    expect(dumpsPy(at(call, "function") as PyDict)).toBe(`{"name": "search", "arguments": "{\\"query\\": \\"Eiffel Tower\\", \\"k\\": 3}"}`);
    expect(keys(at(r.json, "usage"))).toEqual(["prompt_tokens", "completion_tokens", "total_tokens"]);
  });

  it("content turn: no tool_calls key, finish_reason stop, model defaults to mock-model", async () => {
    const { post } = await startGateway({ script });
    const r = await post({ messages: [user("Eiffel?"), assistant()] });
    expect(keys(messageOf(r))).toEqual(["role", "content"]);
    expect(messageOf(r).get("content")).toBe("It's 330 m.");
    expect(at(r.json, "choices.0.finish_reason")).toBe("stop");
    expect(at(r.json, "model")).toBe("mock-model");
  });

  it("arguments: scripted strings verbatim, other values as Python json.dumps (3 vs 2.0 kept); scripted ids kept", async () => {
    const { post } = await startGateway({ script });
    const r = await post({ messages: [user("two calls")], tools: TOOLS });
    const calls = messageOf(r).get("tool_calls") as PyValue[];
    expect(calls.map((c) => at(c, "function.arguments"))).toEqual(['{"query": "a", "k": 2.0}', '{"expr": "1+1"}']);
    expect(at(calls[0], "id")).toBe("call_scripted");
    expect(at(calls[1], "id")).toMatch(/^call_[0-9a-f]{8}$/);

    const odd = messageOf(await post({ messages: [user("odd args")], tools: TOOLS })).get("tool_calls") as PyValue[];
    expect(odd.map((c) => at(c, "function.arguments"))).toEqual(['{"expr": 17 * 23 + 4', "null", "[1, 2.5]", "{}"]);
  });

  it("response ids are unique per response and call ids are fresh per request", async () => {
    const { post } = await startGateway({ script });
    const replies = await Promise.all(Array.from({ length: 200 }, () => post({ messages: [user("Eiffel?")], tools: TOOLS })));
    const ids = new Set(replies.map((r) => at(r.json, "id")));
    expect(ids.size).toBe(200);
    const callIds = new Set(replies.map((r) => at(r.json, "choices.0.message.tool_calls.0.id")));
    expect(callIds.size).toBeGreaterThan(190);
  });
});

describe("text-protocol renderers (gateway.md §6.1)", () => {
  it("code agent: calls become a <code> block, the answer final_answer(repr)", async () => {
    const { post } = await startGateway({ script, arenaTools: ["search", "calculator"] });
    const stop = ["<end_code>", "</code>", "Observation:"];
    const first = await post({ messages: [user("Eiffel?")], stop });
    expect(messageOf(first).get("content")).toBe(
      "Thought: I should use the search tool(s).\n<code>\nresult = search(query='Eiffel Tower', k=3)\nprint(result)\n</code>",
    );
    expect(at(first.json, "choices.0.finish_reason")).toBe("stop");
    const second = await post({ messages: [user("Eiffel?"), assistant("x")], stop, tools: [] });
    expect(messageOf(second).get("content")).toBe('Thought: I have enough information to answer.\n<code>\nfinal_answer("It\'s 330 m.")\n</code>');

    const two = await post({ messages: [user("two calls")], stop: "</code>" });
    expect(messageOf(two).get("content")).toBe(
      "Thought: I should use the search, calculator tool(s).\n<code>\nresult_0 = search(query='a', k=2.0)\nprint(result_0)\nresult_1 = calculator(expr='1+1')\nprint(result_1)\n</code>",
    );
    const odd = await post({ messages: [user("odd args")], stop: "</code>" });
    expect(messageOf(odd).get("content")).toBe(
      "Thought: I should use the calculator, calculator, search, search tool(s).\n<code>\n" +
        "result_0 = calculator()\nprint(result_0)\nresult_1 = calculator()\nprint(result_1)\n" +
        "result_2 = search()\nprint(result_2)\nresult_3 = search()\nprint(result_3)\n</code>",
    );
  });

  it("text ReAct: turn index counts 'observation:' over all messages", async () => {
    const { post } = await startGateway({ script });
    const stop = ["\nObservation:"];
    const first = await post({ messages: [user("Eiffel?")], stop });
    expect(messageOf(first).get("content")).toBe(' I should use the search tool.\nAction: search\nAction Input: {"query": "Eiffel Tower", "k": 3}');
    // Assistant messages do not matter here; observations do.
    const noObs = await post({ messages: [user("Eiffel?"), assistant("Thought:"), assistant("x")], stop });
    expect(messageOf(noObs).get("content")).toMatch(/^ I should use the search tool/);
    const second = await post({ messages: [user("Eiffel?\nThought: ...\nOBSERVATION: 330 m")], stop });
    expect(messageOf(second).get("content")).toBe(" I now know the final answer\nFinal Answer: It's 330 m.");
    const verbatim = await post({ messages: [user("odd args")], stop: "Observation" });
    expect(messageOf(verbatim).get("content")).toBe(' I should use the calculator tool.\nAction: calculator\nAction Input: {"expr": 17 * 23 + 4');
  });

  it("a request with tools stays on the native path whatever its stop sequences", async () => {
    const { post } = await startGateway({ script });
    const r = await post({ messages: [user("Eiffel?")], stop: ["</code>", "Observation:"], tools: TOOLS });
    expect(at(r.json, "choices.0.finish_reason")).toBe("tool_calls");
  });
});

describe("streaming (gateway.md §8)", () => {
  const events = (text: string) => {
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    return text
      .split("\n\n")
      .filter((e) => e !== "" && e !== "data: [DONE]")
      .map((e) => {
        expect(e.startsWith("data: ")).toBe(true);
        return parsePyJson(e.slice(6));
      });
  };

  it("without include_usage: delta chunk, finish chunk, no usage anywhere", async () => {
    const { post, gw } = await startGateway({ script });
    for (const extra of [{}, { stream_options: {} }, { stream_options: { include_usage: false } }, { stream_options: null }]) {
      const r = await post({ messages: [user("Eiffel?")], tools: TOOLS, stream: true, ...extra });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/event-stream");
      const ev = events(r.text);
      expect(ev).toHaveLength(2);
      expect(r.text).not.toContain("usage");
      expect(keys(ev[0])).toEqual(["id", "object", "created", "model", "choices"]);
      expect(at(ev[0], "object")).toBe("chat.completion.chunk");
      expect(at(ev[0], "id")).toBe(at(ev[1], "id"));
      expect(at(ev[0], "model")).toBe("mock-model");
      const delta = at(ev[0], "choices.0.delta");
      expect(keys(delta)).toEqual(["role", "tool_calls"]);
      expect(keys(at(delta, "tool_calls.0"))).toEqual(["index", "id", "type", "function"]);
      expect(at(delta, "tool_calls.0.index")).toBe(0n);
      expect(at(ev[0], "choices.0.finish_reason")).toBeNull();
      expect(dumpsPy(at(ev[1], "choices") as PyValue)).toBe('[{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]');
    }
    // Usage is recorded as served either way.
    expect(gw.recorder.servedUsage.llm_calls).toBe(4);
    expect(gw.recorder.servedUsage.prompt_tokens).toBeGreaterThan(0);
  });

  it("with include_usage: a final choices-less usage chunk with the non-streamed numbers", async () => {
    const { post } = await startGateway({ script });
    const body = { model: "m", messages: [user("Eiffel?"), assistant()], tools: TOOLS };
    const plain = await post(body);
    const r = await post({ ...body, stream: true, stream_options: { include_usage: true } });
    const ev = events(r.text);
    expect(ev).toHaveLength(3);
    expect(dumpsPy(at(ev[0], "choices.0.delta") as PyValue)).toBe(`{"role": "assistant", "content": "It's 330 m."}`);
    expect(at(ev[1], "choices.0.finish_reason")).toBe("stop");
    expect(keys(ev[2])).toEqual(["id", "object", "created", "model", "choices", "usage"]);
    expect(at(ev[2], "choices")).toEqual([]);
    expect(dumpsPy(at(ev[2], "usage") as PyValue)).toBe(dumpsPy(at(plain.json, "usage") as PyValue));
  });

  it("two calls stream in one delta, each whole and indexed", async () => {
    const { post } = await startGateway({ script });
    const r = await post({ messages: [user("two calls")], tools: TOOLS, stream: 1n });
    const calls = at(events(r.text)[0], "choices.0.delta.tool_calls") as PyValue[];
    expect(calls.map((c) => [at(c, "index"), at(c, "function.name")])).toEqual([
      [0n, "search"],
      [1n, "calculator"],
    ]);
  });
});
