/**
 * `smolagents` (Python, ToolCallingAgent) through the real orchestrator: real Python workers, the
 * real mock gateway, judged by the records and by what the gateway received. Every failing cell is
 * smolagents' own behaviour, asserted as such and explained in workers/adapters/smolagents/README.md;
 * the wire it sends that no declaration form expresses is listed in arenas/expectations.toml.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { specsFor } from "../../contract/tools/registry.ts";
import { dumpsPy, pyRepr } from "@agentic-arena/py-semantics";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { onReferenceArenas, total } from "./support/reference-runs.ts";
import { ANSWER_ONLY, CAP_EXCEEDED, cappedRun } from "./support/probes.ts";
import { ALL_PASSED, OUR_SEVEN } from "./support/records.ts";
import { dispatched } from "./support/wire.ts";

const PAUSE_ARENAS = ["human_in_the_loop", "durable_state"];
const RUN_ARENAS = OUR_SEVEN.filter((a) => !PAUSE_ARENAS.includes(a));
/** The calls smolagents refuses before any tool runs, never replayed: the scripted gateway serves them again until the cap. */
const REFUSED = ["res-02", "res-04", "res-05", "res-06", "res-09", "res-10"];
const STOP = ["Observation:", "Calling tools:"];
const FINAL_ANSWER_SPEC = {
  type: "function",
  function: {
    name: "final_answer",
    description: "Provides a final answer to the given problem.",
    parameters: { type: "object", properties: { answer: { type: "string", description: "The final answer to the problem" } }, required: ["answer"] },
  },
};

const text = (m: any): string => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p: any) => p.text ?? "").join(""));
const mean = (xs: readonly number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;

/** The canonical specs as smolagents sends them: `nullable: true` on every optional parameter, then its final_answer. */
function smolTools(declared: readonly string[]) {
  const specs = structuredClone(specsFor(declared)) as any[];
  for (const s of specs) {
    const required = new Set(s.function.parameters.required);
    for (const [name, p] of Object.entries<any>(s.function.parameters.properties)) if (!required.has(name)) p.nullable = true;
  }
  return [...specs, FINAL_ANSWER_SPEC];
}

describe("smolagents on our seven arenas", () => {
  const ours = ourArenas("smolagents");

  it("passes every arena it runs except six resilience items, and the pause arenas are unsupported (no resume)", () => {
    const counts = Object.fromEntries(RUN_ARENAS.map((a) => [a, ours.passCounts()[a]]));
    expect(counts).toEqual({ ...Object.fromEntries(RUN_ARENAS.map((a) => [a, ALL_PASSED[a]])), resilience: "4/10" });
    const failed = ours.recordOn("resilience").items.filter((i) => !i.passed).map((i) => [i.item_id, i.llm_calls, i.error]);
    expect(failed).toEqual(REFUSED.map((id) => [id, DEFAULTS.maxToolIterations, CAP_EXCEEDED]));
    for (const arena of PAUSE_ARENAS) {
      const record = ours.recordOn(arena);
      expect([record.available, record.unavailable_kind, record.reason, record.items.length], arena).toEqual([
        false,
        "unsupported",
        "arena requires the run to pause and resume, but this adapter does not implement the resume API",
        0,
      ]);
    }
  });

  it("reports exactly the usage the gateway served (sum of step.token_usage), per item and per leg", () => {
    ours.expectUsageAsServed();
  });

  it("bills 3702.3 prompt tokens per item on tool_use (vanilla: 1099.3): its system-prompt template is most of it", () => {
    const items = ours.recordOn("tool_use").items;
    expect(mean(items.map((i) => i.prompt_tokens))).toBe(3702.3);
    const system = text(ours.bodies("tool_use")[0]!.messages[0]);
    const prompt = loadArena(path.join(OUR_ARENAS, "tool_use")).systemPrompt;
    // 4,132 characters of system text, of which the arena's prompt is 482: 3,650 are smolagents' template and tool list.
    expect([system.length, prompt.length]).toEqual([4132, 482]);
  });

  it("puts stop and tool_choice: required on every step, and nothing else beyond the baseline's envelope", () => {
    for (const arena of RUN_ARENAS) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, undefined]);
        if (body.tools === undefined) {
          // provide_final_answer, once max_steps are spent: no tools, no stop.
          expect(Object.keys(body).sort(), arena).toEqual(["messages", "model", "temperature"]);
          continue;
        }
        expect(Object.keys(body).sort(), arena).toEqual(["messages", "model", "stop", "temperature", "tool_choice", "tools"]);
        expect([body.stop, body.tool_choice], arena).toEqual([STOP, "required"]);
        expect(JSON.stringify(body.tools), arena).toBe(JSON.stringify(smolTools(spec.declaredTools)));
        // The arena prompt is inside smolagents' own template, as its `instructions`.
        expect(text(body.messages[0]), arena).toContain(`\n${spec.systemPrompt}\n`);
        expect(text(body.messages[0]), arena).toMatch(/^You are an expert assistant who can solve any task using tool calls\./);
      }
    }
  });

  it("replays history as text: 'New task:', calls as an assistant 'Calling tools:' repr, results as user 'Observation:' (stripped)", () => {
    const spec = loadArena(path.join(OUR_ARENAS, "tool_use"));
    for (const item of spec.items) {
      const bodies = ours.bodies("tool_use").filter((b) => text(b.messages[1]) === `New task:\n${item.input}`);
      const last = bodies.at(-1)!;
      expect(last.messages.every((m: any) => Array.isArray(m.content) && m.tool_calls === undefined && m.role !== "tool"), item.id).toBe(true);
      expect(last.messages.map((m: any) => m.role), item.id).toEqual(["system", "user", ...bodies.slice(1).flatMap(() => ["assistant", "user"])]);
      const turns = spec.script.scenarios.find((sc) => item.input.toLowerCase().includes(sc.match))!.turns;
      for (let n = 2; n < last.messages.length; n += 2) {
        const turn = turns[n / 2 - 1]!;
        if (turn.kind !== "tool_calls") throw new Error(`${item.id}: a content turn replayed as calls`);
        // The call as smolagents keeps it (arguments parsed), in Python's repr; the id is the gateway's.
        const replay = text(last.messages[n]).replace(/'id': 'call_[0-9a-f]+'/g, "'id': ID");
        const repr = (args: any) => pyRepr(args);
        expect(replay, item.id).toBe(`Calling tools:\n[${turn.tool_calls.map((c) => `{'id': ID, 'type': 'function', 'function': {'name': '${c.name}', 'arguments': ${repr(c.arguments)}}}`).join(", ")}]`);
        // Each result is the shared dispatch's string, stripped; a turn's results joined by newlines.
        const results = turn.tool_calls.map((c) => dispatched(c.name, dumpsPy(c.arguments)).trim());
        expect(text(last.messages[n + 1]), item.id).toBe(`Observation:\n${results.join("\n")}`);
      }
    }
  });

  it("reports the served task calls, refused ones included (final_answer is the control tool, not a task call)", () => {
    for (const arena of RUN_ARENAS) {
      for (const item of ours.recordOn(arena).items) {
        expect(item.reported?.tool_calls ?? item.tool_calls, `${arena}/${item.item_id}`).toEqual(item.tool_calls);
      }
    }
    const res02 = ours.recordOn("resilience").items.find((i) => i.item_id === "res-02")!;
    expect(res02.tool_calls).toEqual(Array(DEFAULTS.maxToolIterations - 1).fill("slide_rule"));
  });
});

describe("smolagents on the reference tool_use arena (seed 000's table)", () => {
  it("bills 2949.9 prompt tokens per item against vanilla's 753.5; the seed's 2935.5 sent k without its default", async () => {
    const fw = (await onReferenceArenas("smolagents", ["tool_use"])).get("tool_use")!;
    expect(Math.round((total(fw, "prompt_tokens") / fw.items.length) * 10) / 10).toBe(2949.9);
  }, 600_000);
});

describe("smolagents on the wire: the cap, transport", () => {
  const adapter = adapterEntry("smolagents");

  it("spends a budget of 3 as two steps and provide_final_answer (no tools), and ends with the baseline's error", async () => {
    const run = await cappedRun("smolagents", 3);
    const item = run.record.items[0]!;
    // The mock answers the tool-less call with its scripted tool call too, which smolagents ignores there:
    // three calls served, two reported (the adapter's log holds only the steps' calls).
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls.length, item.reported?.tool_calls?.length]).toEqual([3, 3, CAP_EXCEEDED, 3, 2]);
    expect(run.bodies.map((b: any) => b.tools === undefined)).toEqual([false, false, true]);
    expect(text(run.bodies[2]!.messages[0])).toMatch(/^An agent tried to answer a user query but it got stuck and failed to do so\./);
  }, 60_000);

  it("a budget of 1 is the provide_final_answer call alone (max_steps = 0; smolagents then raises UnboundLocalError, read as the cap)", async () => {
    const run = await cappedRun("smolagents", 1);
    expect([run.bodies.length, run.record.items[0]!.llm_calls, run.record.items[0]!.error]).toEqual([1, 1, CAP_EXCEEDED]);
  }, 60_000);

  it("lets the OpenAI client retry a 429 (max_retries 2), never a 400, and adds no retry of its own (Retrying off)", async () => {
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    // Three 429s: the client's three attempts, then the error; smolagents' own layer would sleep 60 s and try again.
    const exhausted = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 429, 429, 200] } });
    expect(exhausted.gateway.attempts.length).toBe(3);
    expect(exhausted.record.items[0]!.error).toMatch(/^AgentGenerationError: Error while generating output:\n/);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect(bad.gateway.attempts.length).toBe(1);
  }, 120_000);
});

describe("smolagents-multi: managed agents on our multi_agent arena", () => {
  it("the lead searches, calls the writer and the editor as tools (each a run of its own), then answers: 6 calls an item", async () => {
    const { prompt, items } = await ourPipelineRun("smolagents-multi");
    // Conversations by their first user message: the lead's, then each managed agent's own run.
    const shapes = items.map((bodies) => bodies.map((b: any) => (b.tools ?? []).map((t: any) => t.function.name).join(",")).join(" | "));
    const lead = "search,final_answer,writer,editor";
    expect(shapes.sort()).toEqual([...Array(24).fill("final_answer"), ...Array(12).fill([lead, lead, lead, lead].join(" | "))].sort());
    for (const bodies of items) for (const b of bodies) expect(text(b.messages[0])).toContain(prompt);
    const team = items.filter((bodies) => bodies.length === 1).map((bodies) => /^New task:\nYou're a helpful agent named '(\w+)'\./.exec(text(bodies[0]!.messages[1]))?.[1]);
    expect(team.sort()).toEqual([...Array(12).fill("editor"), ...Array(12).fill("writer")]);
  }, 600_000);
});
