/**
 * A probe run looks like a bench run from inside a worker: the same observer adapter runs once
 * through the probes' machinery (wireRun: tapped, on an inline arena) and once as the CLI runs a
 * bench (runArenas with run-flow's layout and dirs), and what it saw must be equal once per-run
 * random values are abstracted. Every abstraction is listed here, with why it is per-run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { SENTINEL_ARENA } from "../../orchestrator/probes/setups.ts";
import { wireRun, writeInlineArena } from "../../orchestrator/probes/wire.ts";
import { runArenas } from "../../orchestrator/run/index.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { newRunId } from "../../orchestrator/store/run-id.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";

const OBSERVER = { name: "observer", module: fileURLToPath(new URL("./observer/index.ts", import.meta.url)) };
const CONFIG = { ...DEFAULTS, model: "observer-model", temperature: 0.33 };

/** Per-run random values, abstracted before the comparison. */
const PER_RUN: readonly [RegExp, string][] = [
  // The gateway's port (an ephemeral port per arena gateway) and the tag's worker id.
  [/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>"],
  // mkdtemp suffixes: the private TMPDIR of each worker (sandbox/index.ts privateTmp).
  [/arena-workers-[A-Za-z0-9]{6}\/w\d+-[A-Za-z0-9]{6}/g, "arena-workers-<rand>/w<n>-<rand>"],
  // The sealed network's bridge routes (socket paths and ports are per run).
  [/"ARENA_SANDBOX_BRIDGE":"(?:[^"\\]|\\.)*"/g, '"ARENA_SANDBOX_BRIDGE":"<routes>"'],
];
/** Watched mode's per-worker survivor token (a random UUID). */
const RANDOM_ENV = ["ARENA_WORKER_TOKEN"];

/** Left, not yet removed (issue part 4): the probes' checkpoint root is `<tmp>/checkpoints/run`, a bench's `<runs>/checkpoints/<run-id>/s1`. */
const CHECKPOINT_ROOT = /"checkpointDir":"[^"]*\/(observer\/probe)"/g;

function normalise(seen: Record<string, any>): string {
  for (const k of RANDOM_ENV) if (k in seen.env) seen.env[k] = "<random>";
  let text = JSON.stringify(seen);
  for (const [re, to] of PER_RUN) text = text.replace(re, to);
  return text.replace(CHECKPOINT_ROOT, '"checkpointDir":"<checkpoint-root>/$1"');
}

const seenIn = (output: string | undefined) => JSON.parse(output ?? "{}") as Record<string, any>;

async function benchRun(): Promise<Record<string, any>> {
  const base = mkdtempSync(path.join(os.tmpdir(), "arena-bench-like-"));
  try {
    const arena = loadArena(writeInlineArena(base, SENTINEL_ARENA));
    const layout = new RunLayout(outputRoots(base), newRunId());
    // As cli/run-flow.ts calls it (session 1).
    const outcome = await runArenas({
      arenas: [arena],
      adapters: [OBSERVER],
      config: CONFIG,
      corpusPath: DEFAULT_CORPUS_PATH,
      runId: layout.runId,
      concurrency: 1,
      dirs: { logDir: path.join(layout.logsDir, "s1"), checkpointRoot: path.join(layout.checkpointRoot, "s1"), gatewayDir: layout.gatewayDir },
    });
    return seenIn(outcome.records[0]!.frameworks[0]!.items[0]?.output_text);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

describe("a probe run looks like a bench run from inside a worker", () => {
  it("env, argv, cwd, TMPDIR, config (URL, key, checkpoint dir) and arena spec agree up to per-run values", async () => {
    const probe = await wireRun({ adapter: OBSERVER, arena: SENTINEL_ARENA, config: CONFIG });
    const probeSeen = seenIn(probe.framework.items[0]?.output_text);
    const benchSeen = await benchRun();
    expect(probeSeen.env, "the observer ran in the probe run").toBeDefined();
    expect(benchSeen.env, "the observer ran in the bench run").toBeDefined();
    // The key and URL shapes, stated: the mock's placeholder key, a tagged loopback URL.
    for (const seen of [probeSeen, benchSeen]) {
      expect(seen.config.apiKey).toBe("mock-key");
      expect(seen.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[^/]+\/v1$/);
    }
    expect(normalise(probeSeen)).toBe(normalise(benchSeen));
  }, 120_000);
});
