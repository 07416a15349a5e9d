/**
 * One conformance suite for both worker hosts (issue 21): every vector generated from the zod
 * schemas (support/vectors.ts) is driven into a real Node host process and a real Python host
 * process, and each must be accepted or refused the same way — the same replies, reduced to
 * type, failure kind, log level, error class and the validated result (support/hosts.ts).
 * Messages to the worker are also held to zod itself, so two hosts agreeing on a wrong answer
 * fails too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToWorkerSchema } from "../../contract/protocol.ts";
import { prepareWorkerEntry } from "../../orchestrator/supervisor/worker-entry.ts";
import { HostDriver, HOSTS, type Reply } from "./support/hosts.ts";
import { answer, ARENA, CORPUS, MODULE, PYTHON_ONLY, resultVectors, toWorkerVectors, type Vector } from "./support/vectors.ts";

const BUILD = {
  type: "build",
  adapter: { name: "conformance", module: MODULE },
  arena: { id: ARENA, tools: ["search"], systemPrompt: "Answer.", durable: true },
  config: { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 1, maxToolIterations: 3 },
  corpusPath: CORPUS,
};
const BUILT = `built:${JSON.stringify([ARENA, "conformance 1", true, ["ask_helper"], [{ key: "stop", reason: "conformance: a declared exception crosses as data" }]])}`;

const runOf = (result: Vector["value"], job = "j") => ({
  type: "run",
  job,
  arena: ARENA,
  item: { id: "i", input: answer(result), resume_with: "", checkpointDir: "/tmp/conformance-item" },
});

let node: HostDriver;
let python: HostDriver;

beforeAll(async () => {
  // What a run starts: the Node host from its adapter's bundle (orchestrator/supervisor/worker-entry.ts), rebuilt here if stale.
  expect(await prepareWorkerEntry({ name: "conformance", module: HOSTS.node })).toMatchObject({ bundled: true });
  node = new HostDriver("node");
  python = new HostDriver("python");
  await Promise.all([node.ready(), python.ready()]);
  expect(await node.exchange(BUILD)).toEqual([BUILT]);
  expect(await python.exchange(BUILD)).toEqual([BUILT]);
}, 60_000);

afterAll(() => {
  node?.kill();
  python?.kill();
});

async function both(value: Vector["value"]): Promise<{ node: Reply[]; python: Reply[] }> {
  return { node: await node.exchange(value), python: await python.exchange(value) };
}

describe("messages to the worker, generated from ToWorkerSchema", () => {
  const vectors = toWorkerVectors();

  it("has vectors the schema accepts and vectors it refuses, for every message type", () => {
    for (const type of ["build", "run", "resume"]) {
      const mine = vectors.filter((v) => v.name.startsWith(`${type}:`));
      expect(mine.some((v) => ToWorkerSchema.safeParse(v.value).success)).toBe(true);
      expect(mine.some((v) => !ToWorkerSchema.safeParse(v.value).success)).toBe(true);
    }
  });

  it("each is refused by both hosts exactly when zod refuses it, and otherwise answered alike", async () => {
    const differ: string[] = [];
    for (const v of vectors) {
      const got = await both(v.value);
      const refused = !ToWorkerSchema.safeParse(v.value).success;
      const expected = refused ? ["log:error"] : undefined;
      if (expected && JSON.stringify(got.node) !== JSON.stringify(expected)) differ.push(`${v.name}: node ${JSON.stringify(got.node)}, zod refuses it`);
      if (!refused && got.node.includes("log:error")) differ.push(`${v.name}: node refused what zod accepts`);
      if (JSON.stringify(got.node) !== JSON.stringify(got.python)) differ.push(`${v.name}: node ${JSON.stringify(got.node)} ≠ python ${JSON.stringify(got.python)}`);
    }
    expect(differ).toEqual([]);
    expect(node.malformed).toEqual([]);
    expect(python.malformed).toEqual([]);
  }, 120_000);
});

describe("what a runner returns, generated from AgentResultSchema", () => {
  it("each result is passed on, refused or held back the same way by both hosts", async () => {
    const differ: string[] = [];
    const seen = new Set<string>();
    for (const v of resultVectors()) {
      const got = await both(runOf(v.value));
      seen.add(got.node[0]?.split(":")[0] + ":" + (got.node[0]?.split(":")[1] ?? ""));
      if (JSON.stringify(got.node) !== JSON.stringify(got.python)) differ.push(`${v.name}: node ${JSON.stringify(got.node)} ≠ python ${JSON.stringify(got.python)}`);
    }
    expect(differ).toEqual([]);
    // The vectors reach every way a leg can end, so agreement is not agreement on one answer.
    expect([...seen].some((s) => s.startsWith("result:"))).toBe(true);
    expect([...seen].some((s) => s.startsWith("suspended:"))).toBe(true);
    expect(seen.has("error:invalid-result")).toBe(true);
  }, 120_000);

  it("a raise is an error with its cause chain; a resume hands back the state and the decision", async () => {
    const raised = await both({ ...runOf(null), item: { ...runOf(null).item, input: JSON.stringify({ raise: "boom" }) } });
    expect(raised.node).toEqual(["error:raised"]);
    expect(raised.python).toEqual(raised.node);
    const resumed = await both({ type: "resume", job: "r", arena: ARENA, item: runOf(null).item, state: { at: [1, "two"] }, decision: "deny" });
    expect(resumed.node).toEqual([`result:${JSON.stringify({ output_text: "deny", tool_calls: [], prompt_tokens: 0, completion_tokens: 0, llm_calls: 0, latency_s: 0, error: null, raw: { at: [1, "two"] }, suspended: false, suspend_request: "", resume_state: null })}`]);
    expect(resumed.python).toEqual(resumed.node);
  });

  it("the Python host refuses what only Python can hold: a tuple, an int JSON cannot carry exactly", async () => {
    const got: Reply[][] = [];
    for (const v of PYTHON_ONLY) got.push(await python.exchange(runOf(v.value)));
    expect(got).toEqual([["error:invalid-result"], ["error:not-json"]]);
  });
});

describe("the end of a host", () => {
  it("shutdown ends both with exit code 0", async () => {
    expect(await node.shutdown()).toBe(0);
    expect(await python.shutdown()).toBe(0);
  });

  it("the channel closing ends both with exit code 0, as an orchestrator's death would", async () => {
    const hosts = [new HostDriver("node"), new HostDriver("python")];
    await Promise.all(hosts.map((h) => h.ready()));
    expect(await Promise.all(hosts.map((h) => h.disconnect()))).toEqual([0, 0]);
  });
});
