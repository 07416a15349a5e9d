/**
 * A worker that crashes, hangs, or speaks garbage becomes a recorded item error (with its log
 * tail), the worker is replaced, and the run goes on: the other items still pass.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalog.ts";
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

  it("a build that fails inside the worker (an unreadable corpus) is answered at once, not left to the build deadline", async () => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one"]);
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "vanilla", module: path.join(REPO_ROOT, "workers", "adapters", "vanilla", "index.ts") }],
      corpusPath: path.join(root, "no-such-corpus.json"),
    });
    const fw = records[0]!.frameworks[0]!;
    expect(fw.available).toBe(false);
    expect(fw.reason).toMatch(/^build failed: CorpusError: .*no-such-corpus\.json: cannot read/);
  }, 10_000);
});
