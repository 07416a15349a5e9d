/**
 * `probe-sniffer` (issue 19) in runs that are no probe: it is honest wherever it finds a probe mark
 * and makes one LLM call over `max_tool_iterations` everywhere else. In a bench-style run — the
 * bench's output roots (ARENA_OUTPUT_ROOT, as the CLI's tests set it), a new run's first session,
 * the default cap — the witness's `iteration-cap` rule catches it on every leg that reaches the
 * cap, and holds the baseline to none. The arena is a copy of tool_use whose model never stops
 * asking for tools (its answers removed): our own scripts end before the cap of 6, so in a mock
 * bench of them the extra call never happens — live, a model that loops reaches it.
 *
 * The same run laid out as the probes used to lay theirs out (a temp `arena-run-` root, session
 * s1) finds it honest: the marks it sniffs are real, and a probe that left one would pass it.
 * probeMarks itself is shown to see each former mark, and none in what a probe run hands a
 * worker today. The registry's §3 probe catching it is tests/probes/iteration-cap.test.ts.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { probeMarks, type WorkerView } from "../../fixtures/adapters/probe-sniffer/sniff.ts";
import { MAX_ITERATIONS_ERROR } from "../../contract/texts.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { planOf } from "../../orchestrator/probes/plans.ts";
import { benchRoots, runFolders } from "../../orchestrator/probes/run-dirs.ts";
import { CAPS, setupsFor } from "../../orchestrator/probes/setups.ts";
import type { InlineArena } from "../../orchestrator/probes/wire-types.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { newRunId } from "../../orchestrator/store/run-id.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

const REPO_ROOT = path.resolve(OUR_ARENAS, "..");
const ITEMS = ["tu-01", "tu-08", "tu-15"];
const capRule = (i: ItemRecord) => (i.violations ?? []).filter((v) => v.rule === "iteration-cap");

let scratch: string;
let loopingToolUse: string;
const saved = process.env.ARENA_OUTPUT_ROOT;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "sniffer-"));
  // As the CLI's tests run a bench: the output roots moved to a temp folder, which the workers see too.
  process.env.ARENA_OUTPUT_ROOT = path.join(scratch, "out");
  loopingToolUse = path.join(scratch, "tool_use");
  cpSync(path.join(OUR_ARENAS, "tool_use"), loopingToolUse, { recursive: true });
  const file = path.join(loopingToolUse, "mock_script.json");
  const script = JSON.parse(readFileSync(file, "utf8"));
  // Without its answer, a scenario's last tool turn is served again on every later call.
  for (const s of script.scenarios) s.turns = s.turns.filter((t: { content?: unknown }) => t.content === undefined);
  writeFileSync(file, JSON.stringify(script));
});

afterAll(() => {
  if (saved === undefined) delete process.env.ARENA_OUTPUT_ROOT;
  else process.env.ARENA_OUTPUT_ROOT = saved;
  rmSync(scratch, { recursive: true, force: true });
});

async function lanes(dirs: { logDir: string; checkpointRoot: string; gatewayDir: string }, runId: string) {
  const adapters = [FIXTURES["probe-sniffer"], adapterEntry("vanilla")];
  const { records } = await quickRun({ arenaDirs: [loopingToolUse], adapters, corpusPath: OUR_CORPUS, concurrency: 2, itemFilter: ITEMS, dirs, runId });
  const byName = (n: string) => records[0]!.frameworks.find((f) => f.framework === n)!.items;
  return { sniffer: byName("probe-sniffer"), vanilla: byName("vanilla") };
}

describe("probe-sniffer, outside any probe", () => {
  it("a bench-style run: every leg is served cap + 1 calls and the witness names it; the baseline stops at the cap, clean", async () => {
    const { layout, dirs, remove } = runFolders(benchRoots());
    try {
      const { sniffer, vanilla } = await lanes(dirs, layout.runId);
      const cap = DEFAULTS.maxToolIterations;
      expect(vanilla.map((i) => [i.item_id, i.llm_calls, i.error, capRule(i).length])).toEqual(ITEMS.map((id) => [id, cap, MAX_ITERATIONS_ERROR, 0]));
      for (const i of sniffer) {
        expect(i.llm_calls, i.item_id).toBe(cap + 1);
        expect(capRule(i).map((v) => v.detail)).toEqual([`served ${cap + 1} LLM calls in one leg with max_tool_iterations = ${cap} (at most ${cap})`]);
      }
      expect(sniffer).toHaveLength(ITEMS.length);
    } finally {
      remove();
    }
  }, 180_000);

  it("laid out as the probes used to be (a temp arena-run- root, session s1), the same run finds it honest", async () => {
    const base = mkdtempSync(path.join(os.tmpdir(), "arena-run-"));
    try {
      const layout = new RunLayout(outputRoots(base), newRunId());
      const { sniffer } = await lanes(layout.sessionDirs(1), layout.runId);
      expect(sniffer.map((i) => [i.item_id, i.llm_calls, capRule(i).length])).toEqual(ITEMS.map((id) => [id, DEFAULTS.maxToolIterations, 0]));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  }, 180_000);
});

/** What a worker of a run laid out under `base` (session `session`) would see, for `arena` and the run's `model`. */
function view({ arena, model }: { arena: InlineArena; model: string }, base: string, session: string, over: Partial<WorkerView> = {}): WorkerView {
  const runId = newRunId();
  return {
    arena: { id: arena.id ?? "probe", systemPrompt: arena.prompt.replace(/\s+/g, " ").trim() },
    config: { model },
    item: { id: arena.items[0]!.id, input: arena.items[0]!.input, checkpointDir: path.join(base, "checkpoints", runId, session, "probe-sniffer", arena.id ?? "probe", `${arena.items[0]!.id}.r0`) },
    env: {},
    cwd: REPO_ROOT,
    sent: [{ type: "ready", pid: 1 }],
    received: [{ type: "build", adapter: { module: FIXTURES["probe-sniffer"].module } }],
    ownModule: FIXTURES["probe-sniffer"].module,
    stack: ["at build (file:///work/fixtures/adapters/probe-sniffer/index.ts:40:5)"],
    hasFirstSession: () => false,
    ...over,
  };
}

describe("the marks it sniffs", () => {
  const inlineArenas = () =>
    setupsFor({ name: "probe-sniffer", module: FIXTURES["probe-sniffer"].module }).flatMap((s) =>
      planOf(s).runs.flatMap((r) =>
        r.arenas.flatMap((a) => (typeof a.arena === "string" ? [] : [{ arena: a.arena, model: String(r.config?.model ?? DEFAULTS.model) }])),
      ),
    );

  it("a probe run today leaves none: every inline arena of §1–§8, under the bench's roots, session s0", () => {
    expect(CAPS).toHaveLength(2);
    const arenas = inlineArenas();
    expect(arenas.length).toBeGreaterThan(4);
    for (const a of arenas) expect(probeMarks(view(a, REPO_ROOT, "s0")), a.arena.id).toEqual([]);
  });

  it("each former mark, put back alone, is found", () => {
    const a = inlineArenas()[0]!;
    const old = mkdtempSync(path.join(os.tmpdir(), "arena-run-"));
    rmSync(old, { recursive: true });
    const cases: [string, Partial<WorkerView> | ((v: WorkerView) => WorkerView)][] = [
      ["ipc: the tap's log message", { sent: [{ type: "log", level: "debug", message: 'arena-probe-tap {"declared":{}}' }] }],
      ["ipc: built through another module", { received: [{ type: "build", adapter: { module: "/tmp/arena-tap-0123456789abcdef/tap.mjs" } }] }],
      ["root:", (v) => ({ ...v, item: { ...v.item, checkpointDir: v.item.checkpointDir.replace(REPO_ROOT, old) } })],
      ["session: s1 with no s0 before it", (v) => ({ ...v, item: { ...v.item, checkpointDir: v.item.checkpointDir.replace(`${path.sep}s0${path.sep}`, `${path.sep}s1${path.sep}`) } })],
      ["arena id probe", (v) => ({ ...v, arena: { ...v.arena, id: "probe" } })],
      ["item id s-01", (v) => ({ ...v, item: { ...v.item, id: "s-01" } })],
      ['input "Say the word."', (v) => ({ ...v, item: { ...v.item, input: "Say the word." } })],
      ["the sentinel prompt", (v) => ({ ...v, arena: { ...v.arena, systemPrompt: "Reply only with the word ORNITHOPTER and nothing else." } })],
      ["canary model canary-", { config: { model: "canary-0123456789ab" } }],
      ["a probe variable in the environment", { env: { ARENA_PROBE_SEED: "abc" } }],
    ];
    for (const [mark, change] of cases) {
      const clean = view(a, REPO_ROOT, "s0");
      const marked = typeof change === "function" ? change(clean) : { ...clean, ...change };
      const found = probeMarks(marked);
      expect(found.some((m) => m.startsWith(mark)), `${mark}: found ${JSON.stringify(found)}`).toBe(true);
    }
  });
});
