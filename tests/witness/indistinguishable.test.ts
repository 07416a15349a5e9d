/**
 * A probe run looks like a bench run from inside a worker. The observer adapter runs through the
 * runs the registry's setups make — one of each distinct shape (inline or real arena, items,
 * corpus, config keys, faults, lanes) — with the probes' own machinery (wireRunMany), and each
 * time again as the CLI runs a bench (runArenas with run-flow's roots and layout: the output roots
 * from ARENA_OUTPUT_ROOT — set to a temp folder here, as the CLI's tests do — a new run id, the
 * first session s0, the same arenas, items, corpus and config, nothing else). What it saw — env,
 * argv, cwd, TMPDIR, build config, arena spec, URL and key, each leg's item and checkpoint folder,
 * the call stacks of its build and legs, and every kind of IPC message its process sent or heard —
 * must be equal once per-run random values are abstracted (observer/compare.ts lists each, with
 * why), and both runs must be shaped as a bench's: under the bench's roots, session s0, built from
 * the adapter's own module, no log line over IPC (the tap's report was one).
 *
 * And nothing a probe hands a worker is a fixed constant: every config value a setup sets away
 * from the defaults is drawn per run (canary.ts) or listed here with why it may be fixed, and every
 * value in the probes' own arenas (ids, items, inputs, prompts, scripted replies) differs between
 * seeds (draws.ts). Each comparison is also fed a run with a signal put back, and must catch it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import { drawCanary, drawCaps, drawTimeout } from "../../orchestrator/probes/canary.ts";
import { hostileCases } from "../../orchestrator/probes/execute.ts";
import type { SetupRunManyOptions } from "../../orchestrator/probes/plan.ts";
import { planOf } from "../../orchestrator/probes/plans.ts";
import { catalogueSubjects, PROBES } from "../../orchestrator/probes/registry.ts";
import { benchRoots, runFolders, scratchDir } from "../../orchestrator/probes/run-dirs.ts";
import { SCHEMA_ARENAS, setupOptions, type SetupName } from "../../orchestrator/probes/setups.ts";
import { STATUS_TIMEOUT_S } from "../../orchestrator/probes/transport-setups.ts";
import { wireRunMany, writeInlineArena, type InlineArena } from "../../orchestrator/probes/wire.ts";
import { runArenas } from "../../orchestrator/run/index.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { newRunId } from "../../orchestrator/store/run-id.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { benchShapeProblems, fixedLeaves, normalise } from "./observer/compare.ts";

const OBSERVER = { name: "observer", module: fileURLToPath(new URL("./observer/index.ts", import.meta.url)) };

// As the CLI's tests run a bench: the output roots moved to a temp folder (probes and benches both resolve it).
let outputBase: string;
// And as a user reproduces a probe run, with a key of their own exported: neither may reach a worker.
const ORCHESTRATOR_ENV = ["ARENA_OUTPUT_ROOT", "ARENA_PROBE_SEED", "OPENAI_API_KEY"] as const;
const savedEnv = Object.fromEntries(ORCHESTRATOR_ENV.map((k) => [k, process.env[k]]));
beforeAll(() => {
  outputBase = mkdtempSync(path.join(os.tmpdir(), "indistinguishable-"));
  process.env.ARENA_OUTPUT_ROOT = outputBase;
  // Read by canary.ts when it loaded (before this): setting it now changes no draw, only the environment.
  process.env.ARENA_PROBE_SEED = "reproduced";
  process.env.OPENAI_API_KEY = "sk-the-users-own";
});
afterAll(() => {
  for (const k of ORCHESTRATOR_ENV) if (savedEnv[k] === undefined) delete process.env[k];
  else process.env[k] = savedEnv[k];
  rmSync(outputBase, { recursive: true, force: true });
});

// The observer reports what it saw as its answer: the adapter's word, which the record keeps under `reported`.
const seenIn = (output: string | undefined) => JSON.parse(output ?? "{}") as Record<string, any>;

/** Every setup any probe case or hostile case asks for (this process's caps). */
function registrySetups(): SetupName[] {
  const names = new Set<SetupName>();
  for (const probe of PROBES) {
    for (const subject of catalogueSubjects()) for (const c of probe.setup(subject)) c.setups.forEach((s) => names.add(s));
    for (const hostile of probe.hostile) for (const c of hostileCases(probe, hostile)) c.setups.forEach((s) => names.add(s));
  }
  return [...names];
}

/** Every orchestrator run the registry's plans make (a group's once), drawn with `seed` (default: this process's). */
function registryRuns(seed?: string): { readonly setup: SetupName; readonly options: SetupRunManyOptions }[] {
  const groups = new Map<string, { setup: SetupName; options: SetupRunManyOptions }[]>();
  for (const setup of registrySetups()) {
    const plan = planOf(setup, seed);
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
    // Not run options a worker could see: the leg deadline, the faults (gateway-side), the seed (the probe's record).
    options: Object.keys(rest).filter((k) => k !== "legDeadlineMs" && k !== "gatewayFaults" && k !== "seed").sort(),
  });
}

/**
 * Setups exempt from the comparison, each with why. The cheater's control resumes on the worker
 * that paused (`reuseWorkerAcrossPause`): the one setup that is not a bench on purpose — it shows
 * that the in-memory cheat passes without the restart — and it is judged only against a fixture.
 */
const NOT_A_BENCH: Readonly<Record<string, string>> = { "durable:ours:dur-01:same-process": "the in-memory cheat's control" };

/** As cli/run-flow.ts runs a new bench (session 0 under the bench's roots), given the same arenas, items, corpus and config. */
async function benchRun(o: SetupRunManyOptions): Promise<Record<string, any>[]> {
  const scratch = scratchDir();
  const { layout, dirs, remove } = runFolders(benchRoots());
  try {
    const arenas = o.arenas.map((a) => loadArena(typeof a.arena === "string" ? a.arena : writeInlineArena(scratch, a.arena)));
    const items = o.arenas.every((a) => a.items) ? o.arenas.flatMap((a) => a.items!) : undefined;
    const outcome = await runArenas({
      arenas,
      adapters: [OBSERVER],
      config: { ...DEFAULTS, ...o.config },
      corpusPath: o.corpusPath ?? DEFAULT_CORPUS_PATH,
      runId: layout.runId,
      concurrency: o.concurrency ?? 1,
      ...(items ? { itemFilter: items } : {}),
      dirs,
    });
    return outcome.records.map((r) => seenIn(r.frameworks[0]!.items[0]?.reported?.output_text));
  } finally {
    remove();
    rmSync(scratch, { recursive: true, force: true });
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

  describe.concurrent("env, argv, cwd, TMPDIR, config (URL, key), arena spec, items, checkpoint folders, call stacks and IPC agree up to per-run values", () => {
    for (const { setup, options } of shapes) {
      it(`${setup} (${shape(options)})`, async () => {
        const probe = (await wireRunMany({ adapter: OBSERVER, ...options })).map((r) => seenIn(r.record.items[0]?.reported?.output_text));
        const bench = await benchRun(options);
        expect(probe).toHaveLength(options.arenas.length);
        probe.forEach((seen, i) => {
          expect(seen.leg?.env, "the observer ran in the probe run").toBeDefined();
          expect(bench[i]?.leg?.env, "the observer ran in the bench run").toBeDefined();
          for (const s of [seen, bench[i]!]) {
            // The key and URL shapes, stated: the mock's placeholder key, a tagged loopback URL.
            expect(s.built.config.apiKey).toBe("mock-key");
            expect(s.built.config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[^/]+\/v1$/);
            // A new bench run's folders under the bench's roots; built from the module itself; no log line over IPC.
            expect(benchShapeProblems(s, outputRoots(outputBase), OBSERVER.module)).toEqual([]);
          }
          expect(normalise(seen)).toBe(normalise(bench[i]!));
        });
      }, 120_000);
    }
  });
});

describe("each comparison catches its signal put back", () => {
  // A bench-shaped sight, as the observer reports one (only what the comparisons read differs below).
  const runId = newRunId();
  const benchSeen = () => ({
    built: { env: { HOME: "/home/x" }, config: { apiKey: "mock-key" }, arena: { id: "tool_use" } },
    leg: { env: { HOME: "/home/x" }, item: { id: "tu-01", checkpointDir: path.join(outputBase, "checkpoints", runId, "s0", "observer", "tool_use", "tu-01.r0") } },
    ipc: { sent: ["built", "result"], received: [`build ${OBSERVER.module}`, "run"] },
  });
  const roots = () => outputRoots(outputBase);

  it("a bench-shaped sight passes both", () => {
    expect(benchShapeProblems(benchSeen(), roots(), OBSERVER.module)).toEqual([]);
    expect(normalise(benchSeen())).toBe(normalise(benchSeen()));
  });

  it("the tap: its log message over IPC, and a build naming its wrapper module", () => {
    const tapped = benchSeen();
    tapped.ipc.sent.push('log debug: arena-probe-tap {"declared":{"delegates":[],"wireExceptions":[]}}');
    tapped.ipc.received[0] = "build /tmp/arena-tap-0123456789abcdef/tap.mjs";
    // The wrapper's module alone is the build check's (the protocol's traffic is not compared); the log line is both's.
    expect(benchShapeProblems(tapped, roots(), OBSERVER.module)).toEqual([
      'sent over IPC: log debug: arena-probe-tap {"declared":{"delegates":[],"wireExceptions":[]}}',
      "built from /tmp/arena-tap-0123456789abcdef/tap.mjs, not the adapter's module",
    ]);
    expect(normalise(tapped)).not.toBe(normalise(benchSeen()));
  });

  it("the orchestrator's environment: a probe seed, a key", () => {
    for (const name of ["ARENA_PROBE_SEED", "OPENAI_API_KEY", "ARENA_OUTPUT_ROOT"]) {
      const leaked = benchSeen();
      (leaked.leg.env as Record<string, string>)[name] = "x";
      expect(benchShapeProblems(leaked, roots(), OBSERVER.module)).toEqual([`leg: the orchestrator's ${name} in the environment`]);
      expect(normalise(leaked)).not.toBe(normalise(benchSeen()));
    }
  });

  it("a temp output root, and session s1", () => {
    const old = new RunLayout(outputRoots(path.join(os.tmpdir(), "arena-run-Ab12Cd")), runId);
    const temp = benchSeen();
    temp.leg.item.checkpointDir = path.join(old.checkpointRoot, "s0", "observer", "tool_use", "tu-01.r0");
    const s1 = benchSeen();
    s1.leg.item.checkpointDir = s1.leg.item.checkpointDir.replace("/s0/", "/s1/");
    for (const seen of [temp, s1]) {
      expect(benchShapeProblems(seen, roots(), OBSERVER.module)).toHaveLength(1);
      expect(normalise(seen)).not.toBe(normalise(benchSeen()));
    }
  });

  it("a fixed id, input, prompt or reply in a probe arena", () => {
    const seeds = Array.from({ length: 8 }, (_, i) => `seed-${i}`);
    // The sentinel setup as it was before it was drawn: the same arena whatever the seed.
    const fixed: InlineArena = { id: "probe", tools: ["search"], prompt: "Reply only with the word ORNITHOPTER.", items: [{ id: "s-01", input: "Say the word." }], script: { default: { turns: [{ content: "ORNITHOPTER" }] } } };
    expect(fixedLeaves(seeds.map(() => [fixed]), () => false)).toEqual([
      'probe: id = "probe"',
      'probe: prompt = "Reply only with the word ORNITHOPTER."',
      'probe: items.0.id = "s-01"',
      'probe: items.0.input = "Say the word."',
      'probe: script.default.turns.0.content = "ORNITHOPTER"',
    ]);
    // One value fixed in an otherwise drawn arena is still found.
    const drawn = seeds.map((s) => setupOptions("sentinel", s).arena as InlineArena);
    expect(fixedLeaves(drawn.map((a) => [{ ...a, items: [{ ...a.items[0]!, input: "Say the word." }] }]), () => false)).toEqual([
      `${drawn[0]!.id}: items.0.input = "Say the word."`,
    ]);
  });
});

describe("nothing in a probe's own arenas is fixed", () => {
  const seeds = Array.from({ length: 8 }, (_, i) => `seed-${i}`);
  const real = (a: InlineArena) => (SCHEMA_ARENAS as readonly string[]).includes(a.id ?? "");
  const inline = (seed: string) =>
    registryRuns(seed).map(({ setup, options }) => ({ setup, arenas: options.arenas.map((a) => a.arena).filter((a): a is InlineArena => typeof a !== "string") }));

  it("every id, item, input, prompt and scripted value of every inline arena differs between seeds (a real arena's id, prompt and tools aside)", () => {
    const bySeed = seeds.map(inline);
    const setups = bySeed[0]!;
    expect(setups.filter((s) => s.arenas.length > 0).length).toBeGreaterThan(5);
    const fixed = setups.flatMap((s, i) => fixedLeaves(bySeed.map((d) => d[i]!.arenas), real).map((f) => `${s.setup}: ${f}`));
    expect(fixed).toEqual([]);
  });

  it("two probe runs differ: two seeds give different arena ids, item ids, inputs and prompts", () => {
    const [a, b] = [inline("run-a"), inline("run-b")];
    a.forEach((s, i) =>
      s.arenas.forEach((arena, j) => {
        const other = b[i]!.arenas[j]!;
        if (real(arena)) return;
        expect([other.id, other.items[0]!.id, other.items[0]!.input, other.prompt]).not.toEqual([arena.id, arena.items[0]!.id, arena.items[0]!.input, arena.prompt]);
        expect(other.id, s.setup).not.toBe(arena.id);
        expect(other.prompt, s.setup).not.toBe(arena.prompt);
      }),
    );
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
