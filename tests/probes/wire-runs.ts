/**
 * The probe suites' side of the registry's setup runs: a run is shared between test files
 * (§4–§6 judge the same round-trip run, §7 and §8 the same schema runs, §9 every one of them),
 * so the first file to ask runs it through the real orchestrator and the others read the result,
 * and the matrix costs one run per setup and adapter however many files look at it. Everything
 * else — the setups and the runs — is the registry's (orchestrator/probes/).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import type { AdapterRecord } from "../../orchestrator/report/record.ts";
import { blankItemRecord } from "../../orchestrator/run/item-record.ts";
import { runsInFlight, sharedRunner, type ProbeEnv, type RunSetup } from "../../orchestrator/probes/execute.ts";
import { allArenaTools } from "../../orchestrator/probes/registry.ts";
import type { Body, WireRun } from "../../orchestrator/probes/wire.ts";
import { REFERENCE_ARENAS, REPO_ROOT } from "../support/reference.ts";
import { OUR_ARENAS } from "../support/run.ts";

export type { Body, WireRun };

/**
 * Test timeouts. A matrix test may queue behind every other run of its file (runs are limited to
 * a few in flight), so its timeout is a safety net, not a budget; every run also has a leg deadline.
 */
export const MATRIX_TIMEOUT_MS = 600_000;
export const FIXTURE_TIMEOUT_MS = 300_000;

// ---------------------------------------------------------------- sharing between test files


/** `<pid>-<start time>` of the vitest main process, or undefined when runs cannot be shared safely. */
function sessionId(): string | undefined {
  if (!process.env.VITEST || process.env.VITEST_MODE === "WATCH") return undefined;
  const pid = isMainThread ? process.ppid : process.pid;
  const start = processStart(pid);
  return start === undefined ? undefined : `${pid}-${start}`;
}

function processStart(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat (after the parenthesised command name) is the start time.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

const CACHE_ROOT = path.join(REPO_ROOT, "runs", "probe-cache");
let swept = false;

/** Remove caches of vitest runs that have ended. */
function sweep(current: string): void {
  if (swept) return;
  swept = true;
  for (const name of existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : []) {
    if (name === current) continue;
    const [pid, start] = name.split("-");
    if (processStart(Number(pid)) !== start) rmSync(path.join(CACHE_ROOT, name), { recursive: true, force: true });
  }
}

async function sharedAcrossFiles(session: string, key: string, compute: () => Promise<WireRun>): Promise<WireRun> {
  sweep(session);
  const dir = path.join(CACHE_ROOT, session);
  mkdirSync(dir, { recursive: true });
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 32);
  const done = path.join(dir, `${hash}.json`);
  const failed = path.join(dir, `${hash}.err`);
  try {
    mkdirSync(path.join(dir, `${hash}.lock`));
  } catch {
    // Another file is running (or ran) this setup: wait for its result.
    const deadline = Date.now() + MATRIX_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (existsSync(done)) return JSON.parse(readFileSync(done, "utf8")) as WireRun;
      if (existsSync(failed)) throw new Error(`shared run ${key} failed in another test file: ${readFileSync(failed, "utf8")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`shared run ${key}: gave up waiting for another test file`);
  }
  try {
    const run = await compute();
    writeFileSync(`${done}.tmp`, JSON.stringify(run));
    renameSync(`${done}.tmp`, done);
    return run;
  } catch (err) {
    writeFileSync(failed, err instanceof Error ? (err.stack ?? err.message) : String(err));
    throw err;
  }
}

// Per test file (vitest runs two at a time): see runsInFlight.
const local = sharedRunner(runsInFlight());
const memo = new Map<string, Promise<WireRun>>();

/** The run of `setup` for `subject`, shared by every probe (and test file) that asks for it. */
export const runSetup: RunSetup = (setup, subject) => {
  const key = JSON.stringify([setup, subject.name, subject.module]);
  let run = memo.get(key);
  if (!run) {
    const compute = () => local(setup, subject);
    const session = sessionId();
    run = session ? sharedAcrossFiles(session, key, compute) : compute();
    memo.set(key, run);
  }
  return run;
};

let env: ProbeEnv | undefined;

/** The registry's environment in the suites: shared runs, and the tools of our arenas and the reference's. */
export function testEnv(): ProbeEnv {
  env ??= { runSetup, arenaTools: allArenaTools([OUR_ARENAS, REFERENCE_ARENAS]) };
  return env;
}

/** A synthetic run from request bodies alone (self-tests of the pure checks). */
export function syntheticRun(bodies: readonly Body[], items: Partial<AdapterRecord["items"][number]>[] = [{}]): WireRun {
  return {
    adapter: "synthetic",
    record: {
      framework: "synthetic",
      available: true,
      lib_version: "n/a",
      variant: false,
      items: items.map((i) => ({ ...blankItemRecord("x-01", 0), passed: true, llm_calls: bodies.length, ...i })),
    },
    bodies,
    attempts: bodies.length,
    attemptLog: [],
    requestTags: bodies.map(() => "synthetic"),
    servedUsage: { prompt_tokens: 0, completion_tokens: 0, llm_calls: bodies.length },
    reported: [],
    declared: { delegates: [], wireExceptions: [] },
    seed: "synthetic",
    config: {},
    checkpointFiles: [],
  };
}
