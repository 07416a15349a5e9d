/**
 * A worker sees only its own item and can be no one but itself (issue 19), in ordinary runs with
 * no probe setup: `tag-forger` sends copies of its requests under the baseline's name, and
 * `item-stasher` keeps answers beside its item's folder and in its TMPDIR for later items. Each is
 * honest at first; what it does later is refused or removed and charged to its own record, and
 * the baseline beside it is untouched.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

const TOOL_USE = path.join(OUR_ARENAS, "tool_use");
const sealed = detectBwrap().ok;

afterEach(() => {
  vi.unstubAllEnvs();
});

async function run(names: string[]) {
  const { dirs } = tempDirs();
  const adapters = names.map((n) => (n in FIXTURES ? FIXTURES[n as keyof typeof FIXTURES] : adapterEntry(n)));
  const { records } = await quickRun({ arenaDirs: [TOOL_USE], adapters, corpusPath: OUR_CORPUS, concurrency: 1, dirs });
  const logs = readdirSync(dirs.logDir).map((f) => readFileSync(path.join(dirs.logDir, f), "utf8")).join("\n");
  return { lanes: records[0]!.frameworks, logs };
}

for (const mode of ["bwrap", "off"] as const) {
  describe.skipIf(mode === "bwrap" && !sealed)(`ARENA_SANDBOX=${mode}`, () => {
    it("tag-forger: every copy it sends under the baseline's name is refused and charged to its own lane; the baseline's figures do not move", async () => {
      vi.stubEnv("ARENA_SANDBOX", mode);
      const alone = (await run(["vanilla"])).lanes[0]!;
      const { lanes } = await run(["vanilla", "tag-forger"]);
      const [vanilla, forger] = [lanes.find((l) => l.framework === "vanilla")!, lanes.find((l) => l.framework === "tag-forger")!];
      const refused = (forger.isolation?.violations ?? []).filter((v) => v.includes("claiming vanilla__tool_use__w0"));
      // From its third request on: all but its first two requests were copied.
      const requests = forger.items.reduce((n, i) => n + i.llm_calls, 0);
      expect(refused).toHaveLength(requests - 2);
      expect(refused[0]).toMatch(/^tag-forger(\/w\d+|__tool_use__w\d+): sent a request claiming vanilla__tool_use__w0 \((wrong token|unknown identity); refused\)$/);
      expect(vanilla.isolation?.violations).toBeUndefined();
      expect(vanilla.items.map((i) => [i.item_id, i.llm_calls, i.prompt_tokens])).toEqual(alone.items.map((i) => [i.item_id, i.llm_calls, i.prompt_tokens]));
      expect(forger.items.every((i) => i.passed)).toBe(true);
    }, 120_000);
  });
}

describe("dataset-reader: the dataset is not a worker's to read", () => {
  it.skipIf(!sealed)("sealed: from its third item on the read fails (the file is not there), so it stays honest and its wire is clean", async () => {
    vi.stubEnv("ARENA_SANDBOX", "bwrap");
    const { lanes, logs } = await run(["dataset-reader"]);
    const tried = [...logs.matchAll(/dataset-reader: (\S+): (.*)/g)].map((m) => m[2]);
    expect(tried).toHaveLength(lanes[0]!.items.length - 2);
    expect(new Set(tried)).toEqual(new Set(["cannot read the dataset (ENOENT)"]));
    expect(lanes[0]!.items.flatMap((i) => i.violations ?? [])).toEqual([]);
    expect(lanes[0]!.items.every((i) => i.passed)).toBe(true);
  }, 120_000);

  it("watched: the read works, and the witness catches the hint in the tool description from the third item on", async () => {
    vi.stubEnv("ARENA_SANDBOX", "off");
    const { lanes } = await run(["dataset-reader"]);
    const rules = lanes[0]!.items.map((i) => [...new Set((i.violations ?? []).map((v) => v.rule))].join());
    expect(rules.slice(0, 2)).toEqual(["", ""]);
    expect(rules.slice(2).every((r) => r === "tool-schema")).toBe(true);
  }, 120_000);
});

describe.skipIf(!sealed)("sealed: a worker's memory ends with its item", () => {
  it("item-stasher: no later item finds a stashed answer; each stash beside the item's folder is reported on the item and removed", async () => {
    vi.stubEnv("ARENA_SANDBOX", "bwrap");
    const { lanes, logs } = await run(["item-stasher"]);
    const items = lanes[0]!.items;
    const found = [...logs.matchAll(/item-stasher: (\S+) found (\d+) stashed answer/g)].map((m) => Number(m[2]));
    expect(found).toHaveLength(items.length);
    expect(found.every((n) => n === 0)).toBe(true);
    const writes = (i: (typeof items)[number]) => (i.violations ?? []).filter((v) => v.rule === "sandbox-write").map((v) => v.detail);
    // Honest on its first item; from the second on, the stash beside the item's folder is caught (the TMPDIR one is allowed, and emptied).
    expect(writes(items[0]!)).toEqual([]);
    for (const item of items.slice(1)) expect(writes(item), item.item_id).toEqual([expect.stringMatching(/^wrote .*\/item-stasher\/tool_use\/answers\.json \(outside its item's folder and TMPDIR; removed\)$/)]);
  }, 120_000);
});
