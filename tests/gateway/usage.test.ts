import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { estimate, promptText, promptTokens } from "../../orchestrator/gateway/index.ts";
import { pyJsonLength } from "../../orchestrator/gateway/py-helpers.ts";
import { dumpsPy, fromJs, parsePyJson, type Dumpable, type PyValue } from "@agentic-arena/py-semantics";
import { specsFor } from "../../contract/tools/registry.ts";
import { describeWithReference, REFERENCE_ARENAS } from "../support/reference.ts";
import { assistant, at, CALCULATOR_SPEC, messageOf, SEARCH_SPEC, startGateway, system, user } from "./helpers.ts";

const script = {
  scenarios: [
    { match: "17 * 23 + 4", turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: "17 * 23 + 4" } }] }, { content: "17 * 23 + 4 = 395." }] },
    { match: "unicode", turns: [{ content: "café — 😀" }] },
    { match: "empty", turns: [{ content: "" }] },
  ],
};

const usageOf = (json: PyValue) => ({
  prompt: Number(at(json, "usage.prompt_tokens")),
  completion: Number(at(json, "usage.completion_tokens")),
  total: Number(at(json, "usage.total_tokens")),
});

describe("estimate", () => {
  it("is max(1, floor(code points / 4))", () => {
    expect(estimate("")).toBe(1);
    expect(estimate("abc")).toBe(1);
    expect(estimate("abcdefgh")).toBe(2);
    // Four astral code points are eight UTF-16 units but one token.
    expect(estimate("😀😀😀😀")).toBe(1);
    expect(estimate("😀😀😀😀😀😀😀😀")).toBe(2);
  });
});

describe("pyJsonLength", () => {
  it("equals len(json.dumps(v)) without building the text", () => {
    const samples = [
      `null`,
      `[true, false, 0, -7, 12345678901234567890, 1.0, -0.0, 1e16, 1e-05, 0.1, NaN, Infinity, -Infinity]`,
      `{"a": "plain", "b": "quote \\" backslash \\\\ slash / tab \\t nl \\n cr \\r bs \\b ff \\f nul \\u0000 del \\u007f"}`,
      `{"é": "café — 😀 \\ud83d lone", "2": {"1": [], "0": {}}, "k": [[[]]]}`,
      `"\\u2028\\u2029 \\ufeff \\uffff"`,
    ];
    for (const text of samples) {
      const v = parsePyJson(text);
      expect(pyJsonLength(v)).toBe(dumpsPy(v).length);
    }
    expect(pyJsonLength(fromJs(specsFor(["search", "calculator"])))).toBe(637);
    for (const text of ["{}", '{"messages": null}', '{"messages": [{"role": "user", "content": "\u00e9"}], "tools": [{"a": 1.5}]}']) {
      const body = parsePyJson(text) as Map<string, PyValue>;
      expect(promptTokens(body)).toBe(Math.max(1, Math.floor(promptText(body).length / 4)));
    }
  });
});

describeWithReference("worked example gateway.md §7.3 (tu-01 with the reference tool_use arena)", () => {
  const arena = loadArena(path.join(REFERENCE_ARENAS, "tool_use"));
  const tools = [SEARCH_SPEC, CALCULATOR_SPEC];

  it("has the fixed sizes of golden.md §2", () => {
    expect(arena.systemPrompt.length).toBe(384);
    expect(dumpsPy(tools).length).toBe(637);
  });

  it("request 1 → 277 / 31, request 2 → 339 / 4", async () => {
    const { post } = await startGateway({ script: arena.script, arenaTools: ["search", "calculator"] });
    const messages: Dumpable[] = [system(arena.systemPrompt), user("What is 17 * 23 + 4?")];
    expect(dumpsPy(messages).length).toBe(472);
    const body = () => ({ model: "mock-model", messages, temperature: 0.0, stream: false, tools, tool_choice: "auto" });

    const r1 = await post(body());
    expect(r1.status).toBe(200);
    expect(usageOf(r1.json)).toEqual({ prompt: 277, completion: 31, total: 308 });
    const call = at(r1.json, "choices.0.message.tool_calls.0") as Map<string, PyValue>;
    expect(dumpsPy([call]).length).toBe(125);
    expect(at(call, "function.arguments")).toBe('{"expr": "17 * 23 + 4"}');

    // The baseline replays the call with content null, then the tool result.
    messages.push(
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: at(call, "id") as string, content: "395" },
    );
    expect(dumpsPy(messages).length).toBe(722);
    const r2 = await post(body());
    expect(usageOf(r2.json)).toEqual({ prompt: 339, completion: 4, total: 343 });
    expect(messageOf(r2).get("content")).toBe("17 * 23 + 4 = 395.");
  });
});

describe("prompt accounting", () => {
  it("bills pyJson(messages) + pyJson(tools) of the parsed body, not the client's bytes", async () => {
    const { post } = await startGateway({ script });
    const messages = [user("What is 17 * 23 + 4?")];
    // 4 + 44 + ... computed from the Python serialisation, whatever whitespace the client used.
    const expected = Math.floor((dumpsPy(messages).length + 2) / 4);
    const compact = `{"messages":[{"role":"user","content":"What is 17 * 23 + 4?"}]}`;
    const spaced = `{ "messages" :\n [ { "role" : "user" ,  "content" : "What is 17 * 23 + 4?" } ] ,\n "temperature": 0.7, "model": "x", "top_p": 1 }`;
    expect(usageOf((await post(compact)).json).prompt).toBe(expected);
    expect(usageOf((await post(spaced)).json).prompt).toBe(expected);
  });

  it("counts non-ASCII through json.dumps escapes (é and — are 6 characters, 😀 is 12)", async () => {
    const { post } = await startGateway({ script });
    // [{"role": "user", "content": "unicode é—😀"}] + [] ; "unicode " = 8, é 6, — 6, 😀 12.
    const text = "unicode é—😀";
    const billed = `[{"role": "user", "content": "unicode \\u00e9\\u2014\\ud83d\\ude00"}]`;
    expect(dumpsPy([user(text)])).toBe(billed);
    const r = await post({ messages: [user(text)] });
    expect(usageOf(r.json).prompt).toBe(Math.floor((billed.length + 2) / 4));
    // The reply "café — 😀" is 8 code points (9 UTF-16 units): completion = 2.
    expect(usageOf(r.json).completion).toBe(2);
  });

  it("keeps int vs float and key order, including integer-like keys", async () => {
    const { post } = await startGateway({ script });
    const raw = `{"messages": [{"role": "user", "content": "x", "extra": {"2": 1.0, "1": 10, "big": 12345678901234567890, "f": 1e16}}]}`;
    const r = await post(raw);
    const billed = `[{"role": "user", "content": "x", "extra": {"2": 1.0, "1": 10, "big": 12345678901234567890, "f": 1e+16}}][]`;
    expect(usageOf(r.json).prompt).toBe(Math.floor(billed.length / 4));
  });

  it("the [] rule: missing, null and empty tools all bill two characters", async () => {
    const { post } = await startGateway({ script });
    const messages = [user("hello there, general")];
    const want = Math.floor((dumpsPy(messages).length + 2) / 4);
    for (const tools of [undefined, null, []]) {
      const r = await post(tools === undefined ? { messages } : { messages, tools });
      expect(usageOf(r.json).prompt).toBe(want);
    }
    const withTool = await post({ messages, tools: [SEARCH_SPEC] });
    expect(usageOf(withTool.json).prompt).toBe(Math.floor((dumpsPy(messages).length + 359) / 4));
  });

  it('"messages": null bills "null", a missing key bills "[]", an empty body bills 1 token', async () => {
    const { post, gw } = await startGateway({ script });
    expect(usageOf((await post({ messages: null })).json).prompt).toBe(Math.floor("null[]".length / 4) || 1);
    expect(usageOf((await post({ messages: null, tools: [SEARCH_SPEC] })).json).prompt).toBe(Math.floor((4 + 359) / 4));
    expect(usageOf((await post({ tools: [SEARCH_SPEC] })).json).prompt).toBe(Math.floor((2 + 359) / 4));
    const empty = await post("");
    expect(empty.status).toBe(200);
    expect(usageOf(empty.json)).toEqual({ prompt: 1, completion: 3, total: 4 });
    expect(messageOf(empty).get("content")).toBe("I don't know.");
    expect(gw.recorder.requests.at(-1)?.body.size).toBe(0);
  });
});

describe("completion accounting", () => {
  it("bills content text by code points, tool calls as rendered, empty content as the [] of no calls", async () => {
    const { post } = await startGateway({ script });
    const tool = await post({ messages: [user("17 * 23 + 4")], tools: [CALCULATOR_SPEC] });
    const calls = at(tool.json, "choices.0.message.tool_calls") as PyValue;
    expect(usageOf(tool.json).completion).toBe(Math.floor(dumpsPy(calls).length / 4));
    expect(dumpsPy(calls).length).toBe(125);

    const empty = await post({ messages: [user("empty")] });
    expect(messageOf(empty).get("content")).toBe("");
    expect(usageOf(empty.json).completion).toBe(1);
  });

  it("parses the reply it bills: total = prompt + completion", async () => {
    const { post } = await startGateway({ script });
    const r = await post({ messages: [user("17 * 23 + 4")], tools: [CALCULATOR_SPEC] });
    const u = usageOf(r.json);
    expect(u.total).toBe(u.prompt + u.completion);
    expect(parsePyJson(r.text)).toBeInstanceOf(Map);
  });
});
