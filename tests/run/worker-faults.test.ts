/**
 * A worker that crashes, hangs, or speaks garbage becomes a recorded item error (with its log
 * tail), the worker is replaced, and the run goes on: the other items still pass.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { quickRun, tempDirs } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";

function arena(root: string, inputs: string[]): string {
  const dir = path.join(root, "faults");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "arena.toml"),
    'id = "faults"\ndescription = "worker faults"\ntools = ["search"]\nsystem_prompt_intent = "Answer."\n',
  );
  writeFileSync(
    path.join(dir, "dataset.jsonl"),
    inputs.map((input, i) => JSON.stringify({ id: `f-${i + 1}`, input, checks: [{ type: "contains", value: "fine" }] })).join("\n"),
  );
  writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify({ scenarios: inputs.map((m) => ({ match: m, turns: [{ content: "fine" }] })) }));
  return dir;
}

const CORPUS = path.join(REPO_ROOT, "arenas", "corpus.json");

describe("worker faults", () => {
  it.each([
    ["crasher", "please crash now", /worker exited unexpectedly \(code 41/, /crasher: dying on f-2/],
    ["hanger", "please hang now", /did not answer within/, null],
    ["garbler", "please garble now", /not valid protocol/, null],
  ] as const)("%s: the bad item errors, the others pass, the run completes", async (name, bad, errorPattern, logPattern) => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one", bad, "third fine one", "fourth fine one"]);
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name, module: FIXTURES[name].module }],
      corpusPath: CORPUS,
      concurrency: 1,
      legDeadlineMs: 1500,
    });
    const items = records[0]!.frameworks[0]!.items;
    expect(items.map((i) => i.passed)).toEqual([true, false, true, true]);
    const failed = items[1]!;
    expect(failed.error).toMatch(errorPattern);
    expect(failed.checks.every((c) => !c.ok && c.detail === "skipped: adapter error")).toBe(true);
    if (logPattern) expect(failed.traceback).toMatch(logPattern);
  }, 30_000);

  it("double-answer: a second result for an answered job is a protocol violation pinned on that item, never dropped", async () => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one", "second fine one", "third fine one", "fourth fine one"]);
    const journal: string[] = [];
    const { records, failedItems } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "double-answer", module: FIXTURES["double-answer"].module }],
      corpusPath: CORPUS,
      concurrency: 1,
      onItem: (_arena, _fw, record) => journal.push(`${record.item_id}:${record.error_class ?? "ok"}`),
    });
    const items = records[0]!.frameworks[0]!.items;
    const violation = /worker broke the protocol: a second result for job j\d+ \(item f-3 of faults\), after it was answered/;
    expect(items.slice(0, 2).map((i) => i.passed)).toEqual([true, true]);
    expect(items[2]!).toMatchObject({ passed: false, error_class: "protocol" });
    expect(items[2]!.error).toMatch(violation);
    // The journal's last word on the item is the protocol error (a later line wins on resume).
    expect(journal.filter((j) => j.startsWith("f-3:")).at(-1)).toBe("f-3:protocol");
    // f-4 may already have been handed to the same worker when the duplicate arrived: then it
    // shares the verdict (the process is compromised); otherwise a fresh worker answers it.
    const last = items[3]!;
    if (!last.passed) expect(last.error).toMatch(violation);
    expect(failedItems).toBe(last.passed ? 1 : 2);
  }, 30_000);

  it("stray-answer: a result for a job that is not in flight fails the item in flight, on every worker it reaches", async () => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one", "second fine one", "third fine one", "fourth fine one"]);
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "stray-answer", module: FIXTURES["stray-answer"].module }],
      corpusPath: CORPUS,
      concurrency: 1,
    });
    const items = records[0]!.frameworks[0]!.items;
    // Each new process strays on its second item: f-2 kills the first worker, f-4 the second.
    expect(items.map((i) => i.passed)).toEqual([true, false, true, false]);
    for (const i of [items[1]!, items[3]!]) {
      expect(i.error_class).toBe("protocol");
      expect(i.error).toMatch(/worker broke the protocol: a result for job j-not-mine, which is not in flight/);
    }
  }, 30_000);

  it("a build that fails inside the worker (an unreadable corpus) is answered at once, not left to the build deadline", async () => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one"]);
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "vanilla", module: path.join(REPO_ROOT, "workers", "adapters", "vanilla", "index.ts") }],
      corpusPath: path.join(root, "no-such-corpus.json"),
    });
    const adapterRecord = records[0]!.frameworks[0]!;
    expect(adapterRecord.available).toBe(false);
    expect(adapterRecord.reason).toMatch(/^build failed: CorpusError: .*no-such-corpus\.json: cannot read/);
  }, 10_000);
});
