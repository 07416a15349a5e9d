/**
 * A pass-through adapter for probes: it forwards everything to the adapter it wraps, unchanged,
 * and reports what each leg returned (or threw). The run record keeps only tool-call *names*; the
 * tool-arguments probe (§5) needs the arguments the adapter itself reported. Nothing about the
 * wire changes: the adapter still runs in its own worker process against the real gateway.
 *
 * On load it also reports the adapter's declarations (delegates, wire exceptions with their
 * reasons): §2 and §8 judge them, and reading them here keeps adapter code out of the
 * orchestrator's process — reported even when the harness then refuses the adapter.
 *
 * A probe run must look like a bench run from inside the worker, so nothing here reaches the
 * adapter's environment: the inner module is baked into a per-run wrapper module (tapModule), and
 * the reports go over the worker's own IPC channel as `log` messages, which the orchestrator writes
 * to the worker's log in the run's log folder (readTap). No env variable, no extra writable file.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter, Runner } from "../../contract/adapter.ts";

export interface TapEntry {
  readonly leg: "run" | "resume";
  readonly item: string;
  readonly result?: unknown;
  readonly threw?: string;
}

/** What the adapter module declares (reported once per worker, on load). */
export interface TapDeclaration {
  readonly declared: {
    readonly delegates: readonly string[];
    readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
  };
}

const PREFIX = "arena-probe-tap ";
/** Starts each report in the worker log (the orchestrator writes a log message as `[worker debug] <message>`). */
const MARK = `[worker debug] ${PREFIX}`;

type Stamped = (TapEntry | TapDeclaration) & { readonly at: number };

function report(entry: TapEntry | TapDeclaration): void {
  // Wall-clock stamp: a durable restart puts the resume in another worker's log, and legs are read in order.
  const at = performance.timeOrigin + performance.now();
  let message: string;
  try {
    message = JSON.stringify({ ...entry, at });
  } catch (err) {
    const leg = entry as TapEntry;
    message = JSON.stringify({ leg: leg.leg, item: leg.item, threw: `tap: result not JSON: ${String(err)}`, at });
  }
  process.send?.({ type: "log", level: "debug", message: `${PREFIX}${message}` });
}

async function tapped<T>(leg: TapEntry["leg"], item: string, call: () => Promise<T>): Promise<T> {
  try {
    const result = await call();
    report({ leg, item, result });
    return result;
  } catch (err) {
    report({ leg, item, threw: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    throw err;
  }
}

/** The tapped adapter around the module at `innerModule` (called by the generated wrapper). */
export async function tap(innerModule: string): Promise<Adapter> {
  const inner = (await import(pathToFileURL(innerModule).href)).default as Adapter;
  report({ declared: { delegates: [...(inner.delegates ?? [])], wireExceptions: [...(inner.wireExceptions ?? [])] } });
  return {
    name: inner.name,
    get libVersion() {
      return inner.libVersion;
    },
    ...(inner.delegates ? { delegates: inner.delegates } : {}),
    ...(inner.wireExceptions ? { wireExceptions: inner.wireExceptions } : {}),
    async build(arena, config, ctx) {
      const runner = await inner.build(arena, config, ctx);
      const wrapped: Runner = { run: (item) => tapped("run", item.id, () => runner.run(item)) };
      if (typeof runner.resume === "function") {
        wrapped.resume = (item, state, decision) => tapped("resume", item.id, () => runner.resume!(item, state, decision));
      }
      return wrapped;
    },
  };
}

/** Write the wrapper module for `innerModule` into `dir` (the run's scratch root); returns its path. */
export function tapModule(dir: string, innerModule: string): string {
  const file = path.join(dir, "tap.mjs");
  writeFileSync(file, `import { tap } from ${JSON.stringify(import.meta.url)};\nexport default await tap(${JSON.stringify(innerModule)});\n`);
  return file;
}

/** Every report in the run's worker logs, in the order they were made. */
export function readTap(logDir: string): (TapEntry | TapDeclaration)[] {
  const lines = readdirSync(logDir)
    .filter((f) => f.endsWith(".log"))
    .flatMap((f) => readFileSync(path.join(logDir, f), "utf8").split("\n"))
    .filter((line) => line.startsWith(MARK))
    .map((line) => JSON.parse(line.slice(MARK.length)) as Stamped);
  return lines.sort((a, b) => a.at - b.at).map(({ at: _at, ...entry }) => entry as TapEntry | TapDeclaration);
}
