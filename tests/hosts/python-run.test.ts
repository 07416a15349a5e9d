/**
 * The Python host through the real orchestrator run path: the one-call test adapter
 * (tests/hosts/adapters/one_call.py) answers items of a small arena against the mock gateway,
 * sealed in bubblewrap when the machine has it and watched otherwise — the same choice any
 * worker gets. The answer, the call count and the tokens in the record are the gateway's.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { quickRun, tempDirs, OUR_CORPUS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";

const ONE_CALL = path.join(REPO_ROOT, "tests", "hosts", "adapters", "one_call.py");
const PAUSING = path.join(REPO_ROOT, "tests", "hosts", "adapters", "pausing.py");
const VENV_REPORT = path.join(REPO_ROOT, "tests", "hosts", "adapters", "venv_report.py");

/** One content turn per item; a durable arena's items pause after it, and get the answer on resume. */
function arena(root: string, answers: Record<string, string>, durable = false): string {
  const dir = path.join(root, "py_echo");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "arena.toml"),
    `id = "py_echo"\ndescription = "python host"\ntools = ["calculator"]\nsystem_prompt_intent = "Answer."\ndurable = ${durable}\n`,
  );
  const inputs = Object.keys(answers);
  writeFileSync(
    path.join(dir, "dataset.jsonl"),
    inputs.map((input, i) => JSON.stringify({ id: `p-${i + 1}`, input, checks: [{ type: "contains", value: answers[input] }] })).join("\n"),
  );
  writeFileSync(
    path.join(dir, "mock_script.json"),
    JSON.stringify({
      scenarios: inputs.map((m) => ({ match: m, turns: [...(durable ? [{ content: "may I answer?" }] : []), { content: `the answer is ${answers[m]}` }] })),
    }),
  );
  return dir;
}

describe("the Python host on the run path", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    ["sealed where bwrap works", "auto"],
    ["watched (ARENA_SANDBOX=off)", "off"],
  ] as const)("answers each item with the gateway's reply, %s, one served call per item", async (_, mode) => {
    vi.stubEnv("ARENA_SANDBOX", mode);
    const sealed = mode === "auto" && detectBwrap().ok;
    const { root } = tempDirs();
    const dir = arena(root, { "what is the colour of the sky": "blue", "what is the colour of grass": "green" });
    const { records } = await quickRun({
      arenaDirs: [dir],
      adapters: [{ name: "one_call_py", module: ONE_CALL }],
      corpusPath: OUR_CORPUS,
      concurrency: 1,
    });
    const lane = records[0]!.frameworks[0]!;
    expect(lane.available, lane.reason).toBe(true);
    expect(lane.lib_version).toBe("stdlib urllib");
    expect(lane.isolation?.level).toBe(sealed ? "sandbox" : "watched");
    // Sealed, the only way out is the bridge the Python host opened itself (arena_host/bridge.py).
    expect(lane.isolation?.network).toBe(sealed ? "sealed" : "shared");
    expect(lane.isolation?.violations).toBeUndefined();
    expect(lane.items.map((i) => [i.item_id, i.passed, i.error])).toEqual([
      ["p-1", true, null],
      ["p-2", true, null],
    ]);
    for (const item of lane.items) {
      expect(item.served?.llm_calls).toBe(1);
      expect(item.llm_calls).toBe(1);
      expect(item.prompt_tokens).toBe(item.served?.prompt_tokens);
      expect(item.prompt_tokens).toBeGreaterThan(0);
      expect(item.violations).toBeUndefined();
    }
    expect(lane.items[0]!.output_text).toBe("the answer is blue");
  }, 60_000);

  it.skipIf(!detectBwrap().ok || !existsSync(path.join(REPO_ROOT, ".venv", "bin", "python")))(
    "runs on the project's .venv, which a sealed worker can read but not write",
    async () => {
      vi.stubEnv("ARENA_SANDBOX", "auto");
      const { root } = tempDirs();
      const dir = arena(root, { "which python": "venv" });
      const { records } = await quickRun({ arenaDirs: [dir], adapters: [{ name: "venv_report_py", module: VENV_REPORT }], corpusPath: OUR_CORPUS, concurrency: 1 });
      const lane = records[0]!.frameworks[0]!;
      expect(lane.isolation?.level).toBe("sandbox");
      // Its answer is its own, never served (no gateway call): the reported one.
      expect(lane.items[0]!.error).toBeNull();
      expect(JSON.parse(lane.items[0]!.reported?.output_text ?? "")).toEqual({ prefix: path.join(REPO_ROOT, ".venv"), write: "EROFS" });
    },
    60_000,
  );

  it("pauses on a durable arena and resumes on a process that never saw the item, sealed where bwrap works", async () => {
    const { root } = tempDirs();
    const dir = arena(root, { "what is the colour of the sky": "blue", "what is the colour of grass": "green" }, true);
    const { records } = await quickRun({ arenaDirs: [dir], adapters: [{ name: "pausing_py", module: PAUSING }], corpusPath: OUR_CORPUS, concurrency: 1 });
    const lane = records[0]!.frameworks[0]!;
    expect(lane.available, lane.reason).toBe(true);
    // pausing.py raises if it is resumed in the process that ran the item, so a pass is a restart.
    expect(lane.items.map((i) => [i.passed, i.error, i.output_text])).toEqual([
      [true, null, "the answer is blue"],
      [true, null, "the answer is green"],
    ]);
    for (const item of lane.items) {
      expect(item.legs?.map((l) => [l.suspended, l.served?.llm_calls])).toEqual([[true, 1], [false, 1]]);
      expect(item.served?.llm_calls).toBe(2);
      // The witness judges this adapter as it would any other: it pauses without a pause tool
      // (no canonical tools on the Python host yet) and sends the decision as a user message it
      // never declared. Both are seen, on the legs where they happen; the restart is what is tested here.
      expect(item.violations?.map((v) => [v.rule, v.leg])).toEqual([["framework-message", 2], ["served-result", 1]]);
    }
  }, 60_000);
});
