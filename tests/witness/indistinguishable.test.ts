/**
 * A probe run looks like a bench run from inside a worker. The observer adapter runs through the
 * runs the registry's setups make — one of each distinct shape (inline or real arena, items,
 * corpus, config keys, faults, lanes) — with the probes' own machinery (wireRunMany: tapped), and
 * each time again as the CLI runs a bench (runArenas with run-flow's layout and dirs under an
 * output root, the same arenas, items, corpus and config, nothing else). What it saw — env, argv,
 * cwd, TMPDIR, build config, arena spec, URL and key, each leg's item and checkpoint folder, the
 * call stacks of its build and legs — must be equal once per-run random values are abstracted.
 * Every abstraction is listed here, with why it is per-run. And every config value a setup sets
 * away from the defaults is one drawn per run (canary.ts), so no adapter can recognise a probe by
 * its config, or is listed here with why it may be fixed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import { drawCanary, drawCaps, drawTimeout } from "../../orchestrator/probes/canary.ts";
import { hostileCases } from "../../orchestrator/probes/execute.ts";
import type { SetupRunManyOptions } from "../../orchestrator/probes/plan.ts";
import { planOf } from "../../orchestrator/probes/plans.ts";
import { catalogueSubjects, PROBES } from "../../orchestrator/probes/registry.ts";
import type { SetupName } from "../../orchestrator/probes/setups.ts";
import { STATUS_TIMEOUT_S } from "../../orchestrator/probes/transport-setups.ts";
import { wireRunMany, writeInlineArena } from "../../orchestrator/probes/wire.ts";
import { runArenas } from "../../orchestrator/run/index.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { newRunId } from "../../orchestrator/store/run-id.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";

const OBSERVER = { name: "observer", module: fileURLToPath(new URL("./observer/index.ts", import.meta.url)) };

/** Per-run random values, abstracted before the comparison. */
const PER_RUN: readonly [RegExp, string][] = [
  // The gateway's port (an ephemeral port per arena gateway), and the worker id in the tag (which
  // worker of the pool is free when a lane opens, with several lanes in flight).
  [/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>"],
  [/(\/t\/[^/"]*__)w\d+\/v1/g, "$1w<n>/v1"],
  // The identity token each worker's URL carries (gateway/identity.ts): random per worker.
  [/(\/t\/[^/"]*)\.[0-9a-f]{32}\/v1/g, "$1.<token>/v1"],
  [/(\/t\/[^/"]*__)w\d+\.<token>\/v1/g, "$1w<n>.<token>/v1"],
  // mkdtemp suffixes: the private TMPDIR of each worker (sandbox/index.ts privateTmp).
  [/arena-workers-[A-Za-z0-9]{6}\/w\d+-[A-Za-z0-9]{6}/g, "arena-workers-<rand>/w<n>-<rand>"],
  // The output root both runs are given (a bench's is ARENA_OUTPUT_ROOT), and the run id below it.
  [/arena-run-[A-Za-z0-9]{6}/g, "arena-run-<rand>"],
  [/\d{8}T\d{9}Z-[0-9a-f]{6}/g, "<run-id>"],
  // The sealed network's bridge routes (socket paths and ports are per run).
  [/"ARENA_SANDBOX_BRIDGE":"(?:[^"\\]|\\.)*"/g, '"ARENA_SANDBOX_BRIDGE":"<routes>"'],
];
/** Watched mode's per-worker survivor token (a random UUID). */
const RANDOM_ENV = ["ARENA_WORKER_TOKEN"];

function normalise(seen: Record<string, any>): string {
  for (const part of [seen.built, seen.leg]) for (const k of RANDOM_ENV) if (part?.env && k in part.env) part.env[k] = "<random>";
  let text = JSON.stringify(seen);
  for (const [re, to] of PER_RUN) text = text.replace(re, to);
  return text;
}

// The observer reports what it saw as its answer: the adapter's word, which the record keeps under `reported`.
const seenIn = (output: string | undefined) => JSON.parse(output ?? "{}") as Record<string, any>;

/** Every setup any probe case or hostile case asks for. */
function registrySetups(): SetupName[] {
  const names = new Set<SetupName>();
  for (const probe of PROBES) {
    for (const subject of catalogueSubjects()) for (const c of probe.setup(subject)) c.setups.forEach((s) => names.add(s));
    for (const hostile of probe.hostile) for (const c of hostileCases(probe, hostile)) c.setups.forEach((s) => names.add(s));
  }
  return [...names];
}

/** Every orchestrator run the registry's plans make (a group's once). */
function registryRuns(): { readonly setup: SetupName; readonly options: SetupRunManyOptions }[] {
  const groups = new Map<string, { setup: SetupName; options: SetupRunManyOptions }[]>();
  for (const setup of registrySetups()) {
    const plan = planOf(setup);
    if (!groups.has(plan.group)) groups.set(plan.group, plan.runs.map((options) => ({ setup, options })));
  }
  return [...groups.values()].flat();
}

/**
 * What could make a run look different from inside a worker, values aside: the kinds of arenas,
 * whether items are filtered, the corpus, which config keys are set, the run options used. One
 * run of each shape is observed.
 */
function shape(o: SetupRunManyOptions): string {
  const { arenas, config, ...rest } = o;
  return JSON.stringify({
    arenas: arenas.map((a) => [typeof a.arena === "string" ? "folder" : "inline", a.items ? "items" : "all"]),
    config: Object.keys(config ?? {}).sort(),
    options: Object.keys(rest).filter((k) => k !== "legDeadlineMs" && k !== "gatewayFaults").sort(),
  });
}

/**
 * Setups exempt from the comparison, each with why. The cheater's control resumes on the worker
 * that paused (`reuseWorkerAcrossPause`): the one setup that is not a bench on purpose — it shows
 * that the in-memory cheat passes without the restart — and it is judged only against a fixture.
 */
const NOT_A_BENCH: Readonly<Record<string, string>> = { "durable:ours:dur-01:same-process": "the in-memory cheat's control" };

/** As cli/run-flow.ts runs a bench (session 1), given the same arenas, items, corpus and config. */
async function benchRun(o: SetupRunManyOptions): Promise<Record<string, any>[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "arena-run-"));
  try {
    const arenas = o.arenas.map((a) => loadArena(typeof a.arena === "string" ? a.arena : writeInlineArena(base, a.arena)));
    const items = o.arenas.every((a) => a.items) ? o.arenas.flatMap((a) => a.items!) : undefined;
    const layout = new RunLayout(outputRoots(base), newRunId());
    const outcome = await runArenas({
      arenas,
      adapters: [OBSERVER],
      config: { ...DEFAULTS, ...o.config },
      corpusPath: o.corpusPath ?? DEFAULT_CORPUS_PATH,
      runId: layout.runId,
      concurrency: o.concurrency ?? 1,
      ...(items ? { itemFilter: items } : {}),
      dirs: { logDir: path.join(layout.logsDir, "s1"), checkpointRoot: path.join(layout.checkpointRoot, "s1"), gatewayDir: layout.gatewayDir },
    });
    return outcome.records.map((r) => seenIn(r.frameworks[0]!.items[0]?.reported?.output_text));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const shapes = (() => {
  const byShape = new Map<string, { setup: SetupName; options: SetupRunManyOptions }>();
  for (const r of registryRuns()) if (!(r.setup in NOT_A_BENCH) && !byShape.has(shape(r.options))) byShape.set(shape(r.options), r);
  return [...byShape.values()];
})();

describe("a probe run looks like a bench run from inside a worker", () => {
  it("no setup hands its workers an environment or a working directory of its own", () => {
    const own = registryRuns().filter((r) => "workerEnv" in r.options || "workerCwd" in r.options || "cwd" in r.options);
    expect(own.map((r) => r.setup)).toEqual([]);
    expect(registryRuns().length).toBeGreaterThan(shapes.length);
  });

  describe.concurrent("env, argv, cwd, TMPDIR, config (URL, key), arena spec, items, checkpoint folders and call stacks agree up to per-run values", () => {
    for (const { setup, options } of shapes) {
      it(`${setup} (${shape(options)})`, async () => {
        const probe = (await wireRunMany({ adapter: OBSERVER, ...options })).map((r) => seenIn(r.record.items[0]?.reported?.output_text));
        const bench = await benchRun(options);
        expect(probe).toHaveLength(options.arenas.length);
        probe.forEach((seen, i) => {
          expect(seen.leg?.env, "the observer ran in the probe run").toBeDefined();
          expect(bench[i]?.leg?.env, "the observer ran in the bench run").toBeDefined();
          // The key and URL shapes, stated: the mock's placeholder key, a tagged loopback URL.
          for (const s of [seen, bench[i]!]) {
            expect(s.built.config.apiKey).toBe("mock-key");
            expect(s.built.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[^/]+\/v1$/);
            // The bench layout: checkpoints/<run-id>/s1/<adapter>/<arena>/<item>.r<repeat>.
            expect(s.leg.item.checkpointDir).toMatch(/\/checkpoints\/\d{8}T\d{9}Z-[0-9a-f]{6}\/s1\/observer\/[^/]+\/[^/]+\.r0$/);
          }
          expect(normalise(seen)).toBe(normalise(bench[i]!));
        });
      }, 120_000);
    }
  });
});

/**
 * Config values a setup may fix away from the defaults, each with why: a fixed value no library
 * defaults to is a value an adapter could recognise, so only these, whose runs end long before
 * they would matter, are not drawn.
 */
const FIXED: Readonly<Partial<Record<keyof ArenaConfig, readonly [unknown, string][]>>> = {
  maxToolIterations: [[3, "§7/§8's spec setup: one scripted answer ends the run far below it"]],
  requestTimeoutS: [[STATUS_TIMEOUT_S, "§11's status runs: the gateway answers at once, so it only bounds a run gone wrong"]],
};

describe("no probe can be recognised by its config", () => {
  it("every value a setup sets away from the defaults is drawn per run, or listed with why it may be fixed", () => {
    // This process's draws, from the draw functions themselves (not the setups' copies of them).
    const canary = drawCanary();
    const timeout = drawTimeout();
    const drawn: Readonly<Partial<Record<keyof ArenaConfig, readonly unknown[]>>> = {
      model: [canary.model],
      temperature: [canary.temperature],
      maxToolIterations: [...drawCaps()],
      requestTimeoutS: [timeout.seconds, timeout.doubled],
    };
    const fixedOff = registryRuns().flatMap(({ setup, options }) =>
      Object.entries(options.config ?? {}).flatMap(([key, value]) => {
        const k = key as keyof ArenaConfig;
        if (value === DEFAULTS[k] || drawn[k]?.includes(value) || FIXED[k]?.some(([v]) => v === value)) return [];
        return [`${setup}: ${key} = ${JSON.stringify(value)}`];
      }),
    );
    expect(fixedOff).toEqual([]);
  });

  it("what is drawn depends on the seed", () => {
    const seeds = Array.from({ length: 16 }, (_, i) => `seed-${i}`);
    const distinct = (f: (seed: string) => unknown) => new Set(seeds.map((s) => JSON.stringify(f(s)))).size;
    expect(distinct((s) => drawCanary(s).model)).toBe(seeds.length);
    expect(distinct((s) => drawCanary(s).temperature)).toBeGreaterThan(4);
    expect(distinct((s) => drawCaps(s))).toBeGreaterThan(4);
    expect(distinct((s) => drawTimeout(s))).toBeGreaterThan(3);
  });
});
