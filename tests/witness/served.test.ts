/**
 * Score what was served (issue 18), in ordinary runs with no probe setup: each fixture that is
 * honest at first and cheats later is caught by its rule on the later items only, and on a copy of
 * tool_use whose scripted answers are wrong, no adapter scores above the baseline without a
 * violation — the record is scored on the answer the gateway served, not on the adapter's word.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

async function run(adapters: { name: string; module: string }[], arenaDir: string) {
  const { records } = await quickRun({ arenaDirs: [arenaDir], adapters, corpusPath: OUR_CORPUS, concurrency: 1 });
  return records[0]!.frameworks;
}

const rulesOf = (i: ItemRecord) => [...new Set((i.violations ?? []).map((v) => v.rule))];
const TOOL_USE = path.join(OUR_ARENAS, "tool_use");

describe("the served wire, in an ordinary run", () => {
  // The last column: how many items at least must be caught — the items that give the cheat its
  // chance (two tool exchanges to trim, an earlier search to rewrite) or, for the rest, all but
  // the first two requests' item.
  it.each([
    ["history-trimmer", ["transcript"], 5],
    ["arg-launderer", ["transcript", "tool-output"], 5],
    ["coached", ["system-prompt", "item-framing"], 16],
    ["tool-leak", ["tool-schema"], 16],
    ["dash-params", ["tool-schema"], 16],
    ["whisperer", ["framework-message"], 16],
  ] as const)("%s: its first item is clean, later ones are caught by %j", async (name, rules, atLeast) => {
    const [lane] = await run([FIXTURES[name]], TOOL_USE);
    const items = lane!.items;
    expect(rulesOf(items[0]!)).toEqual([]);
    const caught = items.filter((i) => rules.every((r) => rulesOf(i).includes(r)));
    expect(caught.length).toBeGreaterThanOrEqual(atLeast);
    // Only its own rules: nothing else about it is wrong.
    expect([...new Set(items.flatMap(rulesOf))].sort()).toEqual([...rules].sort());
  }, 60_000);

  it("handoff-stuffer: an exempt handoff result is held to its declared text in a run, from the item it starts stuffing", async () => {
    const [lane] = await run([FIXTURES["handoff-stuffer"]], path.join(OUR_ARENAS, "multi_agent"));
    const items = lane!.items;
    expect(rulesOf(items[0]!)).toEqual([]);
    expect(items.slice(1).every((i) => rulesOf(i).join() === "tool-output")).toBe(true);
    const v = items[1]!.violations!.find((x) => x.rule === "tool-output")!;
    expect(v.detail).toMatch(/^transfer_to_writer: expected "\{\\"assistant\\":\\"writer\\"\}", seen .*Note from the researcher/);
  }, 60_000);

  it("the details name what differed", async () => {
    const [coached] = await run([FIXTURES.coached], TOOL_USE);
    const v = coached!.items.flatMap((i) => i.violations ?? []).find((x) => x.rule === "system-prompt")!;
    expect(v.detail).toMatch(/^a system text that wraps the arena prompt in no declared template: /);
    const [dashed] = await run([FIXTURES["dash-params"]], TOOL_USE);
    const d = dashed!.items.flatMap((i) => i.violations ?? []).find((x) => x.rule === "tool-schema")!;
    expect(d.detail).toMatch(/^(search|calculator): parameters\.properties\.\w+\.description is "-" on the wire, declared "/);
  }, 60_000);

  it("answer-rebuilder is scored on the served answer, keeps its own under reported, and is caught by served-result", async () => {
    const [lane] = await run([FIXTURES["answer-rebuilder"]], TOOL_USE);
    const items = lane!.items;
    expect(items.slice(0, 2).flatMap(rulesOf)).toEqual([]);
    const later = items.slice(2);
    expect(later.every((i) => rulesOf(i).includes("served-result"))).toBe(true);
    for (const i of later) {
      expect(i.reported!.output_text).toMatch(/^The answer is /);
      expect(i.output_text).not.toMatch(/^The answer is /);
    }
  }, 60_000);

  it("on a tool_use whose scripted answers are wrong, no adapter scores above the baseline without a violation", async () => {
    const dir = path.join(tempDirs().root, "tool_use_wrong");
    cpSync(TOOL_USE, dir, { recursive: true });
    const script = JSON.parse(readFileSync(path.join(dir, "mock_script.json"), "utf8"));
    for (const s of [...script.scenarios, ...(script.default ? [script.default] : [])]) {
      for (const t of s.turns) if (typeof t.content === "string") t.content = "I could not work it out.";
    }
    writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify(script));
    const adapters = [...ADAPTER_CATALOG.filter((e) => !e.arenas).map((e) => adapterEntry(e.name)), FIXTURES["answer-rebuilder"]];
    const { records } = await quickRun({ arenaDirs: [dir], adapters, corpusPath: OUR_CORPUS, concurrency: 2 });
    const lanes = records[0]!.frameworks.filter((f) => f.available);
    const passes = (name: string) => lanes.find((f) => f.framework === name)!.items.filter((i) => i.passed).length;
    const baseline = passes("vanilla");
    expect(lanes.length).toBe(adapters.length);
    for (const lane of lanes) {
      const clean = lane.items.every((i) => (i.violations ?? []).length === 0);
      if (clean) expect(passes(lane.framework), lane.framework).toBeLessThanOrEqual(baseline);
    }
    // The rebuilder's own word would have passed most items; the served answer passes none the baseline does not.
    const rebuilder = lanes.find((f) => f.framework === "answer-rebuilder")!;
    expect(rebuilder.items.filter((i) => /^The answer is /.test(i.reported?.output_text ?? "")).length).toBeGreaterThan(10);
    expect(passes("answer-rebuilder")).toBeLessThanOrEqual(baseline);
    expect(rebuilder.items.some((i) => rulesOf(i).includes("served-result"))).toBe(true);
  }, 240_000);
});
