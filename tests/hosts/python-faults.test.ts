/**
 * A Python worker that crashes or hangs is handled by the same supervisor code as a Node one:
 * the item errors with the log tail or the deadline, the worker is replaced (a hung one is
 * killed, SIGTERM then SIGKILL), and the other items still pass.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { quickRun, tempDirs, OUR_CORPUS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";

const FAULTY = path.join(REPO_ROOT, "tests", "hosts", "adapters", "faulty.py");

function arena(root: string, inputs: string[]): string {
  const dir = path.join(root, "py_faults");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "arena.toml"), 'id = "py_faults"\ndescription = "python worker faults"\ntools = ["calculator"]\nsystem_prompt_intent = "Answer."\n');
  writeFileSync(
    path.join(dir, "dataset.jsonl"),
    inputs.map((input, i) => JSON.stringify({ id: `f-${i + 1}`, input, checks: [{ type: "contains", value: "fine" }] })).join("\n"),
  );
  writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify({ scenarios: inputs.map((m) => ({ match: m, turns: [{ content: "fine" }] })) }));
  return dir;
}

describe("Python worker faults", () => {
  it.each([
    ["crash", "please crash now", /worker exited unexpectedly \(code 41/, /faulty_py: dying on f-2/],
    ["hang", "please hang now", /did not answer within/, null],
  ] as const)("%s: the bad item errors, the others pass, the run completes", async (_, bad, errorPattern, logPattern) => {
    const { root } = tempDirs();
    const dir = arena(root, ["first fine one", bad, "third fine one"]);
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "faulty_py", module: FAULTY }],
      corpusPath: OUR_CORPUS,
      concurrency: 1,
      // Only the hung item waits this out; the others answer in milliseconds.
      legDeadlineMs: 5000,
    });
    const items = records[0]!.frameworks[0]!.items;
    expect(items.map((i) => i.passed)).toEqual([true, false, true]);
    expect(items[1]!.error).toMatch(errorPattern);
    if (logPattern) expect(items[1]!.traceback).toMatch(logPattern);
  }, 60_000);
});
