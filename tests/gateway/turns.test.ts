import { describe, expect, it } from "vitest";
import type { MockScript } from "../../orchestrator/arena/schemas.ts";
import { dumpsPy, parsePyJson, type Dumpable, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { assistant, at, CALCULATOR_SPEC, messageOf, SEARCH_SPEC, startGateway, toolSpec, user, type Started } from "./helpers.ts";

const script: MockScript = {
  scenarios: [
    {
      match: "weather",
      deliberate_fault: "",
      turns: [
        { kind: "tool_calls", tool_calls: [{ name: "search", arguments: new Map([["query", "weather"]]) }] },
        { kind: "tool_calls", tool_calls: [{ name: "calculator", arguments: new Map([["expr", "1+1"]]) }] },
        { kind: "content", content: "done" },
      ],
    },
    {
      match: "teleport",
      deliberate_fault: "unknown tool",
      turns: [
        { kind: "tool_calls", tool_calls: [{ name: "teleport", arguments: new Map([["destination", "mars"]]) }] },
        { kind: "content", content: "arrived" },
      ],
    },
    {
      match: "all calls",
      deliberate_fault: "",
      turns: [
        { kind: "tool_calls", tool_calls: [{ name: "search", arguments: new Map([["query", "a"]]) }] },
        { kind: "tool_calls", tool_calls: [{ name: "search", arguments: new Map([["query", "b"]]) }] },
      ],
    },
    { match: "brief", deliberate_fault: "", turns: [{ kind: "content", content: "the brief" }] },
  ],
  default: { turns: [{ kind: "content", content: "default" }] },
};

type Reply = Awaited<ReturnType<Started["post"]>>;

/** `["call", name, arguments]` for a tool-call reply, `["content", text]` otherwise. */
function shape(r: Reply): (string | PyValue)[] {
  expect(r.status).toBe(200);
  const m = messageOf(r);
  const calls = m.get("tool_calls");
  if (Array.isArray(calls)) {
    const f = at(calls[0], "function");
    return ["call", at(f, "name") as string, at(f, "arguments") as string];
  }
  return ["content", m.get("content") as string];
}

const history = (n: number): Dumpable[] => Array.from({ length: n }, () => assistant(null));
const ARENA = ["search", "calculator"];
const TOOLS = [SEARCH_SPEC, CALCULATOR_SPEC];

describe("turn selection (gateway.md §4)", () => {
  it("turn index = number of assistant messages, extra requests re-serve the last turn", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    const turn = async (n: number) => shape(await post({ messages: [user("weather?"), ...history(n)], tools: TOOLS }));
    expect(await turn(0)).toEqual(["call", "search", '{"query": "weather"}']);
    expect(await turn(1)).toEqual(["call", "calculator", '{"expr": "1+1"}']);
    expect(await turn(2)).toEqual(["content", "done"]);
    expect(await turn(7)).toEqual(["content", "done"]);
  });

  it("counts assistant messages whatever their content, and nothing else", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    const messages = [user("weather?"), { role: "tool", content: "x" }, { role: "assistant", content: "prose", tool_calls: [] }, { role: "Assistant" }];
    expect(shape(await post({ messages, tools: TOOLS }))).toEqual(["call", "calculator", '{"expr": "1+1"}']);
  });
});

describe("skip-to-content rule (gateway.md §4.1)", () => {
  it("arenaTools known: a client holding none of them gets the next content turn", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    expect(shape(await post({ messages: [user("weather?")] }))).toEqual(["content", "done"]);
    expect(shape(await post({ messages: [user("weather?")], tools: [] }))).toEqual(["content", "done"]);
    // Holding one arena tool is enough to be served the scripted call, even to another tool.
    expect(shape(await post({ messages: [user("weather?")], tools: [CALCULATOR_SPEC] }))).toEqual(["call", "search", '{"query": "weather"}']);
  });

  it("arenaTools null: only final_answer and transfer_to_* count as holding nothing", async () => {
    const { post } = await startGateway({ script });
    const control = [toolSpec("final_answer", { answer: { type: "string" } }), toolSpec("transfer_to_writer")];
    // Skips to "done", then the unused handoff rewrites it.
    expect(shape(await post({ messages: [user("weather?")], tools: control }))).toEqual(["call", "transfer_to_writer", "{}"]);
    // Any other tool (even unknown to the arena) means the client holds tools: the scripted call is served.
    expect(shape(await post({ messages: [user("weather?")], tools: [toolSpec("writer")] }))).toEqual(["call", "search", '{"query": "weather"}']);
    expect(shape(await post({ messages: [user("weather?")] }))).toEqual(["content", "done"]);
  });

  it("still serves a scripted call to a tool the client lacks while it holds an arena tool (res-02)", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    expect(shape(await post({ messages: [user("teleport me")], tools: TOOLS }))).toEqual(["call", "teleport", '{"destination": "mars"}']);
    expect(shape(await post({ messages: [user("teleport me"), assistant()], tools: TOOLS }))).toEqual(["content", "arrived"]);
  });

  it("skips from the current index and stops at the last turn when no content turn follows", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    expect(shape(await post({ messages: [user("all calls")] }))).toEqual(["call", "search", '{"query": "b"}']);
    expect(shape(await post({ messages: [user("weather"), ...history(1)] }))).toEqual(["content", "done"]);
  });
});

describe("delegation (gateway.md §5.1)", () => {
  const writer = toolSpec(
    "writer",
    { task: { type: "string" }, mode: { type: "string", enum: ["brief", "long"] }, level: { type: "integer", enum: [1n, 2n] }, opts: { type: "object" }, note: { type: "string" } },
    ["task", "mode", "level", "opts"],
  );

  it("a handoff turns a content turn into a call with filled arguments, in advertised order", async () => {
    const { post } = await startGateway({ script });
    const tools = [toolSpec("transfer_to_editor", { reason: { type: "string" } }), toolSpec("transfer_to_writer")];
    expect(shape(await post({ messages: [user("write the brief")], tools }))).toEqual(["call", "transfer_to_editor", '{"reason": "write the brief"}']);
  });

  it("declared sub-agents count only when arenaTools is known; arguments follow required order (enum, string, {})", async () => {
    const bare = await startGateway({ script });
    expect(shape(await bare.post({ messages: [user("brief")], tools: [SEARCH_SPEC, writer] }))).toEqual(["content", "the brief"]);

    const { post } = await startGateway({ script, arenaTools: ARENA, forwardContext: "FACTS: 42" });
    const r = shape(await post({ messages: [user("brief")], tools: [SEARCH_SPEC, writer] }));
    expect(r.slice(0, 2)).toEqual(["call", "writer"]);
    expect(r[2]).toBe(dumpsPy({ task: "brief\n\nFACTS: 42", mode: "brief", level: 1n, opts: {} }));
  });

  it("handoffs come before declared sub-agents; the next unused candidate follows once one is used", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    const tools = [SEARCH_SPEC, writer, toolSpec("transfer_to_editor")];
    expect(shape(await post({ messages: [user("brief")], tools }))).toEqual(["call", "transfer_to_editor", "{}"]);
    const used = assistant(`{"name": "transfer_to_editor"}`);
    expect(shape(await post({ messages: [user("brief"), used], tools })).slice(0, 2)).toEqual(["call", "writer"]);
  });

  it("a tool-call turn passes through while a delegate is unused (and final_answer is not applied)", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    const tools = [SEARCH_SPEC, toolSpec("final_answer", { answer: { type: "string" } }), toolSpec("transfer_to_writer")];
    expect(shape(await post({ messages: [user("weather")], tools }))).toEqual(["call", "search", '{"query": "weather"}']);
  });

  describe("already used", () => {
    const tools = [SEARCH_SPEC, writer];
    const filled = parsePyJson(dumpsPy({ task: "brief", mode: "brief", level: 1n, opts: {} })) as PyDict;
    const callMsg = (name: string, args: string) => ({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: args } }],
    });

    it("by name and arguments, ignoring key order but not int vs float", async () => {
      const { post } = await startGateway({ script, arenaTools: ARENA });
      const reordered = `{"opts": {}, "level": 1, "mode": "brief", "task": "brief"}`;
      expect(shape(await post({ messages: [user("brief"), callMsg("writer", reordered)], tools }))).toEqual(["content", "the brief"]);
      const float = `{"opts": {}, "level": 1.0, "mode": "brief", "task": "brief"}`;
      expect(shape(await post({ messages: [user("brief"), callMsg("writer", float)], tools }))[1]).toBe("writer");
      expect(shape(await post({ messages: [user("brief"), callMsg("writer", "{not json")], tools }))[1]).toBe("writer");
      expect(shape(await post({ messages: [user("brief"), callMsg("other", dumpsPy(filled))], tools }))[1]).toBe("writer");
      // Only assistant messages count.
      const asUser = { ...callMsg("writer", reordered), role: "user" };
      expect(shape(await post({ messages: [user("brief"), asUser], tools }))[1]).toBe("writer");
    });

    it("by name alone when the filled arguments are {}", async () => {
      const { post } = await startGateway({ script });
      const t = [toolSpec("transfer_to_writer"), toolSpec("transfer_to_editor")];
      const used = callMsg("transfer_to_writer", "whatever");
      expect(shape(await post({ messages: [user("brief"), used], tools: t }))).toEqual(["call", "transfer_to_editor", "{}"]);
      const both = [used, callMsg("transfer_to_editor", "")];
      expect(shape(await post({ messages: [user("brief"), ...both], tools: t }))).toEqual(["content", "the brief"]);
    });

    it("by prose: text content (string or parts) quoting the call's name", async () => {
      const { post } = await startGateway({ script, arenaTools: ARENA });
      const prose1 = assistant(`Calling {"name": "writer", "arguments": {}}`);
      const prose2 = assistant([{ type: "text", text: "called {'name': " }, { type: "text", text: "'writer'}" }]);
      expect(shape(await post({ messages: [user("brief"), prose1], tools }))).toEqual(["content", "the brief"]);
      expect(shape(await post({ messages: [user("brief"), prose2], tools }))).toEqual(["content", "the brief"]);
      const other = assistant(`"name": "writers"`);
      expect(shape(await post({ messages: [user("brief"), other], tools }))[1]).toBe("writer");
    });
  });
});

describe("final_answer rewrite (gateway.md §5.2)", () => {
  const fa = toolSpec("final_answer", { answer: { type: "string" } });

  it("turns a content turn into a final_answer call; tool-call turns pass through", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    expect(shape(await post({ messages: [user("weather"), ...history(2)], tools: [SEARCH_SPEC, fa] }))).toEqual(["call", "final_answer", '{"answer": "done"}']);
    expect(shape(await post({ messages: [user("weather")], tools: [SEARCH_SPEC, fa] }))).toEqual(["call", "search", '{"query": "weather"}']);
  });

  it("applies once every delegate has been used", async () => {
    const { post } = await startGateway({ script });
    const tools = [fa, toolSpec("transfer_to_writer")];
    expect(shape(await post({ messages: [user("brief")], tools }))[1]).toBe("transfer_to_writer");
    const used = { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "transfer_to_writer", arguments: "{}" } }] };
    expect(shape(await post({ messages: [user("brief"), used], tools }))).toEqual(["call", "final_answer", '{"answer": "the brief"}']);
  });

  it("only an exact final_answer name triggers it", async () => {
    const { post } = await startGateway({ script, arenaTools: ARENA });
    expect(shape(await post({ messages: [user("brief")], tools: [SEARCH_SPEC] }))).toEqual(["content", "the brief"]);
    expect(shape(await post({ messages: [user("brief")], tools: [SEARCH_SPEC, toolSpec("Final_Answer")] }))[1]).toBe("Final_Answer");
  });
});
